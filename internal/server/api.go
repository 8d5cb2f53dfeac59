package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
)

// apiError is the body of every API error:
// {"error": {"code": "bad_request", "message": "...", "field": "gpu"}}.
type apiError struct {
	Status  int    `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Hint    string `json:"hint,omitempty"`
	// Detail is a page's untranslated detail of Message (the engine's
	// English words), shown marked as English unless DetailLocal says it
	// is in the page's language.
	Detail      string `json:"-"`
	DetailLocal bool   `json:"-"`
	// Msg and HintMsg are Message and Hint as messages when the engine
	// gave them so (a page shows them in its language).
	Msg, HintMsg i18n.Msg `json:"-"`
	// Local says Message (and Hint) are already in the page's language.
	Local bool `json:"-"`
}

func (e *apiError) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Message
	}
	return e.Message
}

func badRequest(field, hint, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "bad_request", Field: field, Hint: hint, Message: fmt.Sprintf(format, args...)}
}

// dataProblem is a failure caused by the server's own data (a stored
// figure that cannot be priced or converted), never by the request: a 500
// whose message names the problem, so the client is not told to change a
// request that was fine.
func dataProblem(err error) *apiError {
	return &apiError{Status: http.StatusInternalServerError, Code: "data_error", Message: err.Error(),
		Hint: "the server's catalog data has a problem; the operator should check the server log and the imported snapshots."}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusNotFound, Code: "not_found", Message: fmt.Sprintf(format, args...)}
}

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// writeDoc writes an API document: compact JSON (the same document the CLI
// prints indented), or indented with ?pretty. Indenting costs about a third
// of an uncached request (see docs/benchmarks.md).
func writeDoc(w http.ResponseWriter, r *http.Request, v any) {
	if r.URL.Query().Has("pretty") {
		writeJSON(w, http.StatusOK, v)
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		writeJSON(w, http.StatusOK, v) // reports the same error the indented path would
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(append(b, '\n'))
}

// writeError writes err as the API's error body.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		s.log.Error("request failed", "path", r.URL.Path, "err", err)
		ae = &apiError{Status: http.StatusInternalServerError, Code: "internal", Message: "internal error; see the server log"}
	} else if ae.Status >= 500 {
		s.log.Error("request failed", "path", r.URL.Path, "code", ae.Code, "err", ae.Message)
	}
	writeJSON(w, ae.Status, map[string]*apiError{"error": ae})
}

// api adapts a handler that returns a document or an error.
func (s *Server) api(h func(*http.Request, *Data) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		doc, err := h(r, s.Data())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeDoc(w, r, doc)
	}
}

// params reads query parameters: repeated values and comma-separated lists
// both work (?gpu=A100&gpu=H100 or ?gpu=A100,H100).
type params struct{ v url.Values }

// list returns a parameter's values in order, each once.
func (p params) list(name string) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range p.v[name] {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (p params) str(name string) string { return strings.TrimSpace(p.v.Get(name)) }

func (p params) bool(name string) (bool, error) {
	s := p.str(name)
	if s == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		e := badRequest(name, "use true or false.", "%q is not true or false", s)
		e.Msg, e.HintMsg = i18n.M("err.param.bool", s), i18n.M("err.param.bool_hint")
		return false, e
	}
	return b, nil
}

func (p params) int(name string, def, min, max int) (int, error) {
	s := p.str(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < min || n > max {
		e := badRequest(name, "", "%q is not a whole number from %d to %d", s, min, max)
		e.Msg = i18n.M("err.param.int", s, min, max)
		return 0, e
	}
	return n, nil
}

func (p params) dec(name string) (decimal.Decimal, error) {
	s := p.str(name)
	if s == "" {
		return decimal.Zero, nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil || d.IsNegative() {
		e := badRequest(name, "", "%q is not a non-negative number", s)
		e.Msg = i18n.M("err.param.dec", s)
		return decimal.Zero, e
	}
	return d, nil
}

// currency returns the requested currency (default USD), checked against the FX table.
func (d *Data) currency(p params) (string, error) {
	asked := p.str("currency")
	cur := strings.ToUpper(asked)
	if cur == "" {
		cur = "USD"
	}
	if _, ok := d.FX.Rate(cur); !ok {
		known := strings.Join(d.FX.Currencies(), ", ")
		e := badRequest("currency", "known currencies: "+known, "no exchange rate for %q", asked)
		e.Msg, e.HintMsg = i18n.M("err.param.currency", asked), i18n.M("err.param.currency_hint", known)
		return "", e
	}
	return cur, nil
}

// OfferSearch is a parsed offers query: the catalog query plus the
// server's own filters and orders, applied before the limit.
type OfferSearch struct {
	Query catalog.OfferQuery
	// Limit is the most rows answered, 1 to maxOfferRows; Offset skips
	// that many rows first (pagination).
	Limit       int
	Offset      int
	PerProvider int
	OneRegion   bool
	// Interconnect keeps instances whose GPU link contains it (nvlink,
	// nvswitch, pcie ...); RDMA keeps instances with an RDMA fabric.
	Interconnect string
	RDMA         bool
	// MinPrice drops offers below it, in the query's unit.
	MinPrice decimal.Decimal
	// Order sorts by a column (see orderKeys); Desc reverses it.
	Order string
	Desc  bool
	// Scale multiplies prices for the day and year units (24, 8760).
	Scale decimal.Decimal
	// Unit is the unit as asked: instance-hour, day, month, year, gpu-hour.
	Unit string
	// MaxAgeMonths drops prices dated more than this many months before
	// Now (0: no limit); HideUndated drops prices whose source shows no
	// date. Both apply before the cheapest region is chosen.
	MaxAgeMonths int
	HideUndated  bool
	// DatedFirst puts prices whose source shows a date before undated
	// ones in the default order (no Order): the explorer's first screen
	// is prices a user can quote.
	DatedFirst bool
	Now        time.Time
	// Page is the explorer's page number (1 when not asked) and Cols the
	// columns asked for (col= or cols=, each a known column; none: the
	// defaults). The API and the CSV check them as the page does, so a
	// bad value gets the same answer from all three.
	Page int
	Cols []string
}

// freshnessFilter reports whether s drops prices by age or for being undated.
func (s OfferSearch) freshnessFilter() bool { return s.MaxAgeMonths > 0 || s.HideUndated }

// tooOld reports whether s drops a price from src for its age (or for
// having none, with HideUndated).
func (s OfferSearch) tooOld(src catalog.Source) bool {
	if src.Undated() {
		return s.HideUndated
	}
	if s.MaxAgeMonths <= 0 {
		return false
	}
	return src.AsOf.Before(s.cutoff())
}

// cutoff is the oldest price date MaxAgeMonths keeps.
func (s OfferSearch) cutoff() time.Time {
	now := s.Now
	if now.IsZero() {
		now = time.Now()
	}
	return now.AddDate(0, -s.MaxAgeMonths, 0)
}

// orderKeys are the columns offers can be ordered by.
var orderKeys = []string{"provider", "instance", "gpu", "gpus", "vram", "vcpu", "ram", "region", "billing", "price", "per_gpu", "upfront", "as_of", "network", "interconnect", "rdma", "source", "stock"}

// parseOfferSearch turns query parameters into an offer search.
func (d *Data) parseOfferSearch(v url.Values, defLimit int) (OfferSearch, error) {
	p := params{v}
	c := d.Catalog
	var s OfferSearch
	cur, err := d.currency(p)
	if err != nil {
		return s, err
	}
	q := catalog.OfferQuery{Currency: cur, FX: d.FX, Regions: p.list("region"), Countries: p.list("country"), Residency: p.list("residency")}
	for _, name := range p.list("provider") {
		pr, err := c.LookupProvider(name)
		if err != nil {
			return s, badField("provider", err)
		}
		q.Providers = append(q.Providers, pr.ID)
	}
	for _, name := range p.list("gpu") {
		gs, err := c.LookupGPU(name)
		if err != nil {
			return s, badField("gpu", err)
		}
		for _, g := range gs {
			q.GPUs = append(q.GPUs, g.ID)
		}
	}
	if q.Available, err = p.bool("available"); err != nil {
		return s, err
	}
	if v := p.str("os"); v != "" {
		os, ok := catalog.ParseOS(v)
		if !ok {
			e := badRequest("os", "linux or windows", "unknown operating system %q", v)
			e.Msg, e.HintMsg = i18n.M("err.param.os", v), i18n.M("err.param.os_hint")
			return s, e
		}
		q.OS = os
	}
	for _, b := range p.list("billing") {
		if !catalog.ValidBillingFilter(b) {
			const models = "on-demand, spot, reserved, savings-plan, committed, subscription, capacity-block, flex-start"
			e := badRequest("billing", models+", or a full code such as reserved-1y-no-upfront", "unknown billing model %q", b)
			e.Msg, e.HintMsg = i18n.M("err.param.billing", b), i18n.M("err.param.billing_hint", models)
			return s, e
		}
		q.Billing = append(q.Billing, b)
	}
	for name, dst := range map[string]*decimal.Decimal{"min_gpus": &q.MinGPUs, "min_vram": &q.MinVRAMGB, "max_price": &q.MaxPrice} {
		if *dst, err = p.dec(name); err != nil {
			return s, err
		}
	}
	s.Unit, s.Scale = "instance-hour", decimal.NewFromInt(1)
	if u := p.str("per"); u != "" {
		s.Unit = u
		switch u {
		case "day", "instance-day":
			s.Unit, s.Scale = "day", decimal.NewFromInt(24)
		case "year", "instance-year":
			s.Unit, s.Scale = "year", decimal.NewFromInt(8760)
		default:
			if q.Per, err = catalog.ParsePriceUnit(u); err != nil {
				return s, badRequest("per", "instance-hour, gpu-hour, day, month or year", "%v", err)
			}
		}
	}
	if !s.Scale.Equal(decimal.NewFromInt(1)) && q.MaxPrice.IsPositive() {
		q.MaxPrice = q.MaxPrice.Div(s.Scale)
	}
	if s.MinPrice, err = p.dec("min_price"); err != nil {
		return s, err
	}
	s.MinPrice = s.MinPrice.Div(s.Scale)
	s.Interconnect = strings.ToLower(p.str("interconnect"))
	if s.RDMA, err = p.bool("rdma"); err != nil {
		return s, err
	}
	if o := p.str("order"); o != "" {
		if !contains(orderKeys, o) {
			e := badRequest("order", "one of "+strings.Join(orderKeys, ", "), "cannot order by %q", o)
			e.Msg, e.HintMsg = i18n.M("err.param.order", o), i18n.M("err.param.order_hint", strings.Join(orderKeys, ", "))
			return s, e
		}
		s.Order = o
	}
	if s.Desc, err = p.bool("desc"); err != nil {
		return s, err
	}
	if k := p.str("sort"); k != "" {
		if q.Sort, err = catalog.ParseSortKey(k); err != nil {
			return s, badRequest("sort", "", "%v", err)
		}
	}
	all, err := p.bool("include_retired")
	if err != nil {
		return s, err
	}
	if all {
		q.Statuses = []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}
	}
	if s.OneRegion, err = p.bool("cheapest_region"); err != nil {
		return s, err
	}
	if s.Limit, err = p.int("limit", defLimit, 0, 1<<30); err != nil {
		return s, err
	}
	if s.Limit == 0 || s.Limit > maxOfferRows {
		s.Limit = maxOfferRows // "all" is a page of maxOfferRows; offset gives the rest
	}
	if s.Offset, err = p.int("offset", 0, 0, 1<<30); err != nil {
		return s, err
	}
	if s.PerProvider, err = p.int("per_provider", 0, 0, 100000); err != nil {
		return s, err
	}
	if s.MaxAgeMonths, err = p.int("max_age_months", 0, 0, 1200); err != nil {
		return s, err
	}
	if s.HideUndated, err = p.bool("hide_undated"); err != nil {
		return s, err
	}
	if s.DatedFirst, err = p.bool("dated_first"); err != nil {
		return s, err
	}
	if s.Page, err = p.int("page", 1, 1, 1<<20); err != nil {
		return s, err
	}
	for _, name := range []string{"col", "cols"} {
		for _, c := range p.list(name) {
			if !knownColumn(c) {
				e := badRequest(name, "known columns: "+strings.Join(columnKeys(), ", "), "unknown column %q", c)
				e.Msg, e.HintMsg = i18n.M("err.param.col", c), i18n.M("err.param.col_hint", strings.Join(columnKeys(), ", "))
				return s, e
			}
			if !contains(s.Cols, c) {
				s.Cols = append(s.Cols, c)
			}
		}
	}
	s.Query = q
	return s, nil
}

// run executes the search: rows shown and the count before the limit.
func (d *Data) run(s OfferSearch) ([]catalog.OfferRow, int, error) {
	rows, total, _, err := d.runCounted(s)
	return rows, total, err
}

// runCounted is run that also counts the prices the freshness filter
// dropped (among those every other filter keeps, before the cheapest
// region is chosen). It answers from the index's price orders, keeping
// only the rows of the page (runPaged); what those cannot answer takes
// runAll, which prices every matching row.
func (d *Data) runCounted(s OfferSearch) (rows []catalog.OfferRow, total, stale int, err error) {
	if rows, total, stale, ok := d.runPaged(s); ok {
		return rows, total, stale, nil
	}
	return d.runAll(s)
}

// runAll is runCounted over every matching row: priced, filtered, ordered,
// then cut to the page.
func (d *Data) runAll(s OfferSearch) (rows []catalog.OfferRow, total, stale int, err error) {
	if s.OneRegion && s.Order == "" && s.Interconnect == "" && !s.RDMA && !s.MinPrice.IsPositive() && !s.freshnessFilter() {
		// The explorer's default: each type and billing model once, in
		// its cheapest region, chosen before any row is copied.
		if rows, ok := d.queryCheapest(s.Query); ok {
			rows, total, err := finishSearch(s, rows)
			return rows, total, 0, err
		}
	}
	rows, err = d.queryOffers(s.Query)
	if err != nil {
		return nil, 0, 0, dataProblem(err) // the currency was checked; the stored data is at fault
	}
	if s.Interconnect != "" || s.RDMA || s.MinPrice.IsPositive() || s.freshnessFilter() {
		kept := rows[:0]
		for _, r := range rows {
			it := r.Offer.Instance
			if s.Interconnect != "" && !strings.Contains(strings.ToLower(it.GPUInterconnect), s.Interconnect) {
				continue
			}
			if s.RDMA && (it.RDMA == "" || strings.EqualFold(it.RDMA, "none")) {
				continue
			}
			if s.MinPrice.IsPositive() && r.Price.LessThan(s.MinPrice) {
				continue
			}
			if s.tooOld(r.Offer.Source) {
				stale++
				continue
			}
			kept = append(kept, r)
		}
		rows = kept
	}
	if s.Order != "" {
		sortRows(rows, s.Order, s.Desc)
	}
	if s.OneRegion {
		rows = d.cheapestRegion(s.Query.Currency, rows)
	}
	rows, total, err = finishSearch(s, rows)
	return rows, total, stale, err
}

// maxOfferRows bounds the offers one response carries (API, explorer page
// and CSV export), so that no request's memory grows with an imported
// snapshot's size; limit=0 asks for this many, and offset pages on.
const maxOfferRows = 5000

// finishSearch applies the per-provider cut, the offset and the limit to
// the rows of a search, returning the rows shown and the count before the
// offset and limit.
func finishSearch(s OfferSearch, rows []catalog.OfferRow) ([]catalog.OfferRow, int, error) {
	if s.DatedFirst && s.Order == "" {
		rows, _ = datedFirst(rows)
	}
	if s.PerProvider > 0 {
		rows = catalog.FirstPerProvider(rows, s.PerProvider)
	}
	total := len(rows)
	rows = rows[min(s.Offset, len(rows)):]
	limit := s.Limit
	if limit <= 0 || limit > maxOfferRows {
		limit = maxOfferRows
	}
	if len(rows) > limit {
		rows = rows[:limit]
	}
	return rows, total, nil
}

// nextOffers is the URL of the rows after those answered, or "" when
// none are left: path with the request's known parameters and offset moved
// on.
func nextOffers(path string, q url.Values, s OfferSearch, shown, total int) string {
	next := s.Offset + shown
	if shown == 0 || next >= total {
		return ""
	}
	u := cloneValues(q)
	u.Set("offset", strconv.Itoa(next))
	return path + "?" + u.Encode()
}

func (s *Server) apiOffers(r *http.Request, d *Data) (any, error) {
	search, err := d.parseOfferSearch(r.URL.Query(), 100)
	if err != nil {
		return nil, err
	}
	search.Now = s.cfg.Now()
	rows, total, err := d.run(search)
	if err != nil {
		return nil, err
	}
	doc := document.BuildOffers(rows, total, search.Query.Currency, d.FX)
	doc.Offset = search.Offset
	doc.Next = nextOffers(r.URL.Path, r.URL.Query(), search, len(rows), total)
	doc.Warnings = document.BuildWarnings(d.Rejected, i18n.NewPrinter(requestLang(r)))
	return doc, nil
}

// sortRows orders rows by a column, ties by offer ID.
func sortRows(rows []catalog.OfferRow, key string, desc bool) {
	order := columnOrder(key, desc)
	sort.Slice(rows, func(i, j int) bool {
		if c := order(&rows[i], &rows[j]); c != 0 {
			return c < 0
		}
		return rows[i].Offer.ID() < rows[j].Offer.ID()
	})
}

// stockRank orders capacity readings: seen available, low, none, then no
// reading.
func stockRank(s *catalog.Stock) int {
	if s == nil {
		return 3
	}
	switch s.State {
	case catalog.StockAvailable:
		return 0
	case catalog.StockLow:
		return 1
	}
	return 2
}

// columnOrder compares two rows by a column (desc reverses it), with
// unknown specs last either way; 0 when they tie (sortRows then orders
// them by offer ID).
func columnOrder(key string, desc bool) func(a, b *catalog.OfferRow) int {
	cmpDec := func(a, b decimal.Decimal) int { return a.Cmp(b) }
	less := func(a, b *catalog.OfferRow) int {
		ia, ib := a.Offer.Instance, b.Offer.Instance
		switch key {
		case "provider":
			return strings.Compare(a.Offer.Provider, b.Offer.Provider)
		case "instance":
			return strings.Compare(ia.Name, ib.Name)
		case "gpu":
			return strings.Compare(ia.GPUID, ib.GPUID)
		case "gpus":
			return cmpDec(ia.GPUCount, ib.GPUCount)
		case "vram":
			return cmpDec(ia.GPUMemoryGB, ib.GPUMemoryGB)
		case "vcpu":
			return cmpDec(ia.VCPU, ib.VCPU)
		case "ram":
			return cmpDec(ia.MemoryGiB, ib.MemoryGiB)
		case "network":
			return cmpDec(ia.NetworkGbps, ib.NetworkGbps)
		case "region":
			return strings.Compare(a.Offer.RegionCode, b.Offer.RegionCode)
		case "billing":
			return strings.Compare(string(a.Offer.Billing), string(b.Offer.Billing))
		case "per_gpu":
			return cmpDec(a.PerGPUHourly, b.PerGPUHourly)
		case "upfront":
			return cmpDec(a.Upfront, b.Upfront)
		case "as_of":
			return catalog.CompareAsOf(a.Offer.Source, b.Offer.Source)
		case "interconnect":
			return strings.Compare(ia.GPUInterconnect, ib.GPUInterconnect)
		case "rdma":
			return strings.Compare(ia.RDMA, ib.RDMA)
		case "source":
			return strings.Compare(string(a.Offer.Source.Kind), string(b.Offer.Source.Kind))
		case "stock":
			return stockRank(a.Offer.Stock) - stockRank(b.Offer.Stock)
		}
		return cmpDec(a.Price, b.Price)
	}
	// Unknown specs (stored as zero) are blanks: last either way, as the
	// explorer's script puts its empty cells.
	blank := func(r *catalog.OfferRow) bool {
		it := r.Offer.Instance
		switch key {
		case "gpus":
			return !it.GPUCount.IsPositive()
		case "vram":
			return !it.GPUMemoryGB.IsPositive()
		case "vcpu":
			return !it.VCPU.IsPositive()
		case "ram":
			return !it.MemoryGiB.IsPositive()
		case "network":
			return !it.NetworkGbps.IsPositive()
		case "stock":
			return r.Offer.Stock == nil
		}
		return false
	}
	// Ties go by offer ID (ascending either way), so the same rows come in
	// the same order whatever order they came in: on every reload, in every
	// tab, and in the explorer's script, which sorts the same way.
	return func(a, b *catalog.OfferRow) int {
		if ba, bb := blank(a), blank(b); ba != bb {
			if bb {
				return -1
			}
			return 1
		} else if !ba {
			c := less(a, b)
			if desc {
				c = -c
			}
			return c
		}
		return 0
	}
}

// offerRow prices one offer by ID in cur.
func (d *Data) offerRow(id, cur string) (catalog.OfferRow, error) {
	o, ok := d.Catalog.Offer(id)
	if !ok {
		_, err := planfile.ResolveOffer(d.Catalog, id)
		return catalog.OfferRow{}, notFoundErr(err)
	}
	rows, err := d.Catalog.QueryOffers(catalog.OfferQuery{Currency: cur, FX: d.FX, Providers: []string{o.Provider},
		Regions: []string{o.RegionCode}, Statuses: []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}, OS: o.OS})
	if err != nil {
		return catalog.OfferRow{}, dataProblem(err)
	}
	for _, r := range rows {
		if r.Offer.ID() == id {
			return r, nil
		}
	}
	return catalog.OfferRow{}, notFound("offer %q cannot be priced in %s", id, cur)
}

func (s *Server) apiOffer(r *http.Request, d *Data) (any, error) {
	cur, err := d.currency(params{r.URL.Query()})
	if err != nil {
		return nil, err
	}
	row, err := d.offerRow(r.PathValue("id"), cur)
	if err != nil {
		return nil, err
	}
	doc := document.BuildOffers([]catalog.OfferRow{row}, 1, cur, d.FX)
	doc.Warnings = document.BuildWarnings(d.Rejected, i18n.NewPrinter(requestLang(r)))
	return doc, nil
}

func (s *Server) apiGPUs(r *http.Request, d *Data) (any, error) {
	list := d.Catalog.GPUs()
	if names := (params{r.URL.Query()}).list("gpu"); len(names) > 0 {
		list = nil
		for _, n := range names {
			gs, err := d.Catalog.LookupGPU(n)
			if err != nil {
				return nil, badField("gpu", err)
			}
			list = append(list, gs...)
		}
	}
	return document.BuildGPUs(list), nil
}

func (s *Server) apiInstances(r *http.Request, d *Data) (any, error) {
	p := params{r.URL.Query()}
	var prov, gpus []string
	for _, n := range p.list("provider") {
		pr, err := d.Catalog.LookupProvider(n)
		if err != nil {
			return nil, badField("provider", err)
		}
		prov = append(prov, pr.ID)
	}
	for _, n := range p.list("gpu") {
		gs, err := d.Catalog.LookupGPU(n)
		if err != nil {
			return nil, badField("gpu", err)
		}
		for _, g := range gs {
			gpus = append(gpus, g.ID)
		}
	}
	var list []*catalog.InstanceType
	for _, it := range d.Catalog.Instances() {
		if (len(prov) == 0 || contains(prov, it.Provider)) && (len(gpus) == 0 || contains(gpus, it.GPUID)) {
			list = append(list, it)
		}
	}
	return document.BuildInstances(list), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Server) apiStats(_ *http.Request, d *Data) (any, error) {
	doc := document.BuildCatalogStats(d.Catalog.StatsWithCoverage())
	doc.SetFreshness(d.Catalog.Freshness(s.cfg.Now()))
	return doc, nil
}

func (s *Server) apiSources(_ *http.Request, d *Data) (any, error) {
	return document.BuildSources(d.Catalog.Sources()), nil
}

// TCOInput is a parsed TCO request.
type TCOInput struct {
	Offers   []string
	OnPrem   string
	Servers  int
	Months   int
	Currency string
	Usage    pricing.Usage
	// P names the on-premises plan in the page's language (English when nil).
	P *i18n.Printer
}

// parseTCO reads offer (repeatable), onprem, servers, months, currency,
// hours_per_day, utilization, storage_gb and egress_gb.
func (d *Data) parseTCO(v url.Values) (TCOInput, error) {
	p := params{v}
	in := TCOInput{Offers: p.list("offer"), OnPrem: p.str("onprem"), Usage: pricing.DefaultUsage()}
	var err error
	if in.Currency, err = d.currency(p); err != nil {
		return in, err
	}
	if in.Months, err = p.int("months", 36, 1, 120); err != nil {
		return in, err
	}
	if in.Servers, err = p.int("servers", 1, 1, 10000); err != nil {
		return in, err
	}
	if in.Usage.Instances, err = p.int("instances", 1, 1, 100000); err != nil {
		return in, err
	}
	for name, dst := range map[string]*decimal.Decimal{"hours_per_day": &in.Usage.HoursPerDay, "utilization": &in.Usage.Utilization,
		"storage_gb": &in.Usage.StorageGB, "egress_gb": &in.Usage.EgressGB} {
		if p.str(name) == "" {
			continue
		}
		if *dst, err = p.dec(name); err != nil {
			return in, err
		}
	}
	in.Usage.Months = in.Months
	if len(in.Offers) == 0 && in.OnPrem == "" {
		return in, badRequest("offer", "pass ?offer=provider/instance/region/billing (repeatable) and/or ?onprem=GPU.", "nothing to compare")
	}
	if len(in.Offers) > 12 {
		return in, badRequest("offer", "", "compare at most 12 offers at once (got %d)", len(in.Offers))
	}
	return in, nil
}

// onPremGPUs are the GPUs the catalog has every on-premises figure for
// (a server price and power for the GPU, and the shared figures), so a
// plan buying their servers can be priced.
func (d *Data) onPremGPUs() []string {
	var out []string
	for _, f := range d.Catalog.AllOnPrem() {
		if f.Item != catalog.OnPremServerPrice || f.GPU == "" || contains(out, f.GPU) {
			continue
		}
		if _, err := d.Pricing.OnPremDefaults(f.GPU, 1); err == nil {
			out = append(out, f.GPU)
		}
	}
	sort.Strings(out)
	return out
}

// tco prices the comparison.
func (d *Data) tco(in TCOInput) (*pricing.TCO, error) {
	var plans []pricing.Plan
	for _, id := range in.Offers {
		off, err := planfile.ResolveOffer(d.Catalog, id)
		if err != nil {
			return nil, badField("offer", err)
		}
		plans = append(plans, pricing.Plan{Name: id, Parts: []pricing.Part{{Offer: off, Usage: in.Usage}}})
	}
	if in.OnPrem != "" {
		gs, err := d.Catalog.LookupGPU(in.OnPrem)
		if err != nil {
			return nil, badField("onprem", err)
		}
		op, err := d.Pricing.OnPremDefaults(gs[0].ID, in.Servers)
		if err != nil {
			ok := strings.Join(d.onPremGPUs(), ", ")
			e := badRequest("onprem", "the catalog has every on-premises figure for "+ok+"; use a plan file with the CLI for others.", "%v", err)
			e.Msg, e.HintMsg = i18n.M("tco.err.onprem", gs[0].ID), i18n.M("tco.hint.onprem", ok)
			return nil, e
		}
		name := fmt.Sprintf("buy %d× %s server", in.Servers, gs[0].ID)
		if in.P != nil {
			name = in.P.T("web.tco.buy", in.Servers, gs[0].ID)
		}
		plans = append(plans, pricing.Plan{Name: name, OnPrem: &op})
	}
	res, err := d.Pricing.Compare(plans, in.Months, in.Currency)
	if err != nil {
		var fe *pricing.FieldError
		if errors.As(err, &fe) {
			return nil, badRequest(fe.Field, "", "%s", fe.Msg)
		}
		return nil, dataProblem(err) // the request was checked; the stored data is at fault
	}
	return res, nil
}

func (s *Server) apiTCO(r *http.Request, d *Data) (any, error) {
	in, err := d.parseTCO(r.URL.Query())
	if err != nil {
		return nil, err
	}
	res, err := d.tco(in)
	if err != nil {
		return nil, err
	}
	return document.BuildTCO(res, d.FX, i18n.NewPrinter(requestLang(r))) // notes in the requested language, as the advisor's reasons
}

// recommend runs the advisor on a job description (YAML or JSON, the format
// of the CLI's recommend -f).
func (s *Server) recommend(d *Data, body []byte, lang i18n.Lang) (*document.Recommendation, error) {
	req, err := jobfile.Read(bytes.NewReader(body))
	if err != nil {
		return nil, recommendInputError(err, lang)
	}
	if req.Currency == "" && lang == i18n.ZH {
		req.Currency = "CNY" // Chinese pages price in yuan unless the job says otherwise
	}
	if cur := strings.ToUpper(req.Currency); cur != "" {
		if _, ok := d.FX.Rate(cur); !ok {
			return nil, badRequest("currency", "known currencies: "+strings.Join(d.FX.Currencies(), ", "), "no exchange rate for %q", cur)
		}
	}
	e := &recommend.Engine{Catalog: d.Catalog, Perf: d.Perf, Pricing: d.Pricing, FX: d.FX, Now: s.cfg.Now()}
	res, err := e.Recommend(req, i18n.NewPrinter(lang).Variant("form.")) // form fields and job-file keys, not CLI flags
	if err != nil {
		var np *recommend.NoPlanError
		var ie *recommend.InputError
		switch {
		case errors.As(err, &np):
			// The engine said it in the request's language already.
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Code: "no_plan", Message: err.Error(), Hint: "relax the constraint named in the message.",
				Msg: i18n.Text(err.Error())}
		case errors.As(err, &ie):
			return nil, withInputMsg(badRequest("job", "", "%v", err), err, lang)
		}
		return nil, err
	}
	doc := document.BuildRecommendation(res, req, 200)
	return &doc, nil
}

// recommendInputError explains a job description that does not parse: YAML that is not
// a mapping (plain text pasted into the box) gets a sentence, not the
// decoder's Go type names.
func recommendInputError(err error, lang i18n.Lang) error {
	p := i18n.NewPrinter(lang)
	var ie *recommend.InputError
	if errors.As(err, &ie) {
		ae := withInputMsg(badRequest("job", p.T("web.job.hint"), "%v", err), err, lang)
		if ae.Msg.Key != "" {
			ae.HintMsg = i18n.Text(p.T("web.job.hint"))
		}
		return ae
	}
	var le *jobfile.LimitError
	if errors.As(err, &le) {
		status, code := http.StatusBadRequest, "bad_request"
		if le.Msg.Key == "job.limit.size" {
			status, code = http.StatusRequestEntityTooLarge, "too_large"
		}
		return &apiError{Status: status, Code: code, Field: "job", Message: p.M(le.Msg), Msg: le.Msg}
	}
	msg := err.Error()
	if strings.Contains(msg, "is not a job description") {
		line := ""
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			line = m[1]
		}
		return badRequest("job", p.T("web.job.hint"), "%s", p.T("web.job.not_mapping", line))
	}
	return badRequest("job", p.T("web.job.hint"), "%v", err)
}

// withInputMsg gives a job's requirement error (recommend.InputError) its
// words for a page: in lang, naming the advisor form's fields and the job
// file's keys where the CLI's wording names flags; an error with no
// translation keeps its English (the page marks it so).
func withInputMsg(ae *apiError, err error, lang i18n.Lang) *apiError {
	local := recommend.ErrorIn(err, i18n.NewPrinter(lang).Variant("form."))
	if lang == i18n.EN || local != recommend.ErrorIn(err, i18n.NewPrinter(i18n.EN).Variant("form.")) {
		ae.Msg = i18n.Text(local)
	}
	return ae
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

func (s *Server) apiRecommend(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, s.cfg.MaxBody)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	doc, err := s.recommend(s.Data(), body, requestLang(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeDoc(w, r, doc) // compact, or indented with ?pretty, like every API document
}

// readBody reads a request body of at most max bytes.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &apiError{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Message: fmt.Sprintf("request body over %d bytes", max)}
		}
		return nil, badRequest("", "", "reading body: %v", err)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil, badRequest("job", "POST a job description as YAML or JSON; see examples/*.yaml.", "empty body")
	}
	return body, nil
}

// requestLang picks the language: ?lang=, then the lang cookie, then Accept-Language.
func requestLang(r *http.Request) i18n.Lang {
	// the query is parsed only when it may hold lang (as is, or escaped)
	if q := r.URL.RawQuery; strings.Contains(q, "lang") || strings.Contains(q, "%") {
		if v := r.URL.Query().Get("lang"); v != "" {
			if l, err := i18n.ParseLang(v); err == nil {
				return l
			}
		}
	}
	if len(r.Header["Cookie"]) == 0 && len(r.Header["Accept-Language"]) == 0 {
		return i18n.EN
	}
	if c, err := r.Cookie("lang"); err == nil {
		if l, err := i18n.ParseLang(c.Value); err == nil {
			return l
		}
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		switch {
		case strings.HasPrefix(tag, "zh"):
			return i18n.ZH
		case strings.HasPrefix(tag, "en"):
			return i18n.EN
		}
	}
	return i18n.EN
}
