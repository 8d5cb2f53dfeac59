package server

import (
	_ "embed"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/gpuscout/gpuscout/internal/web"
)

// OpenAPI is the API's OpenAPI 3.1 description, served at /api/v1/openapi.json.
//
//go:embed openapi.json
var OpenAPI []byte

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	// API
	mux.HandleFunc("GET /api/v1/offers", s.cached(s.api(s.apiOffers)))
	mux.HandleFunc("GET /api/v1/offers/{id...}", s.cached(s.api(s.apiOffer)))
	mux.HandleFunc("GET /api/v1/gpus", s.cached(s.api(s.apiGPUs)))
	mux.HandleFunc("GET /api/v1/instances", s.cached(s.api(s.apiInstances)))
	mux.HandleFunc("GET /api/v1/catalog/stats", s.cached(s.api(s.apiStats)))
	mux.HandleFunc("GET /api/v1/catalog/sources", s.cached(s.api(s.apiSources)))
	mux.HandleFunc("GET /api/v1/tco", s.cached(s.api(s.apiTCO)))
	mux.HandleFunc("POST /api/v1/recommend", s.apiRecommend)
	s.catalogRoutes(mux)
	s.jobRoutes(mux)
	mux.HandleFunc("GET /api/v1/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(OpenAPI)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, &apiError{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("no API endpoint %s %s", r.Method, r.URL.Path), Hint: "see /api/v1/openapi.json"})
	})
	// Operations
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /metrics", s.serveMetrics)
	// Web UI
	mux.Handle("GET /static/", http.StripPrefix("/static/", web.Precompressed(web.Static())))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/favicon.svg", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /{$}", s.cached(s.pageOffers))
	mux.HandleFunc("GET /offers", s.cached(s.pageOffers))
	mux.HandleFunc("GET /offers.csv", s.cached(s.offersCSV))
	mux.HandleFunc("GET /compare", s.cached(s.pageCompare))
	mux.HandleFunc("GET /advisor", s.cached(s.pageAdvisor))
	mux.HandleFunc("POST /advisor", s.pageAdvisor)
	mux.HandleFunc("GET /gpus", s.cached(s.pageGPUs))
	mux.HandleFunc("GET /about", s.cached(s.pageAbout))
	mux.HandleFunc("/", s.pageNotFound)
	return s.probes(s.recoverer(s.headers(s.accessLog(s.hostCheck(s.guard(compress(mux)))))))
}

// Security headers, as shared one-element values: setting them costs a
// map store per response, not a slice and a key canonicalisation each
// (Header.Set). Nothing appends to a value in place (an append to a slice
// of capacity one makes a new one).
var (
	hdrNosniff   = []string{"nosniff"}
	hdrReferrer  = []string{"same-origin"}
	hdrFrameDeny = []string{"DENY"}
	hdrCSP       = []string{"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"}
)

// headers sets security headers on every response. The pages load only
// their own script and stylesheet; charts draw from inline JSON data, which
// is not script.
func (s *Server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Content-Type-Options"] = hdrNosniff
		h["Referrer-Policy"] = hdrReferrer
		h["X-Frame-Options"] = hdrFrameDeny
		h["Content-Security-Policy"] = hdrCSP
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic into a 500 and logs the stack.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				s.writeError(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap returns the ResponseWriter it counts for (http.ResponseController
// reaches net/http's flush through it).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog logs each request and counts it in the metrics, labelled by
// the route pattern the request matched (r.Pattern, set by ServeMux). The
// log record is built only when the log takes it (serve --quiet drops
// it).
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		d := time.Since(start)
		s.metrics.observe(routeLabel(r), sw.status, d)
		if s.log.Enabled(r.Context(), slog.LevelInfo) {
			s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "bytes", sw.bytes, "duration_ms", float64(d.Microseconds())/1000)
		}
	})
}

// routeLabel is the metrics label of a served request: the pattern it
// matched ("GET /api/v1/offers/{id...}"), or "refused" when a check before
// the router (host, input limits) answered it.
func routeLabel(r *http.Request) string {
	if r.Pattern == "" {
		return "refused"
	}
	return r.Pattern
}
