package server

import (
	"net/http"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// Input limits every request meets before any handler runs, so that no GET
// costs memory or time out of proportion to what a person can ask for.
const (
	// maxQueryBytes bounds the raw query string.
	maxQueryBytes = 16 << 10
	// maxParamValues bounds the values of one parameter, counting repeats
	// and comma-separated items (the compare page takes 12 offers; the
	// longest real filter lists a few dozen GPUs or regions).
	maxParamValues = 128
	// maxOfferIDBytes bounds an offer ID (the longest in the catalog is
	// under 100 bytes), so that an unknown ID is refused before any search
	// for a near match.
	maxOfferIDBytes = 256
)

// guard refuses requests over the input limits with 400 and a message in
// the request's language: JSON under /api/, plain text elsewhere.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if field, key, args := overLimits(r); key != "" {
			msg := i18n.NewPrinter(requestLang(r)).T(key, args...)
			if strings.HasPrefix(r.URL.Path, "/api/") {
				s.writeError(w, r, badRequest(field, "", "%s", msg))
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, msg, http.StatusBadRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// overLimits names the first limit r goes over, or returns key "".
func overLimits(r *http.Request) (field, key string, args []any) {
	if id, ok := strings.CutPrefix(r.URL.Path, "/api/v1/offers/"); ok && len(id) > maxOfferIDBytes {
		return "id", "web.limit.offer_id", []any{len(id), maxOfferIDBytes}
	}
	raw := r.URL.RawQuery
	if len(raw) <= maxQueryBytes && !strings.Contains(raw, "offer") && !strings.Contains(raw, "%") &&
		strings.Count(raw, ",")+strings.Count(raw, "&")+1 <= maxParamValues {
		// no offer ID, and fewer values in all than one parameter may
		// have: nothing to refuse, and no query to parse
		return "", "", nil
	}
	q := r.URL.Query()
	for _, v := range q["offer"] {
		for _, id := range strings.Split(v, ",") {
			if len(id) > maxOfferIDBytes {
				return "offer", "web.limit.offer_id", []any{len(id), maxOfferIDBytes}
			}
		}
	}
	if n := len(r.URL.RawQuery); n > maxQueryBytes {
		return "query", "web.limit.query", []any{n, maxQueryBytes}
	}
	for name, vs := range q {
		n := 0
		for _, v := range vs {
			n += strings.Count(v, ",") + 1
		}
		if n > maxParamValues {
			return name, "web.limit.values", []any{name, n, maxParamValues}
		}
	}
	return "", "", nil
}
