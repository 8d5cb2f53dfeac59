package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/examples"
	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/web"
)

// view is what every page template receives.
type view struct {
	P          *i18n.Printer
	Lang       string
	SwitchLang string // the other language's code
	SwitchURL  string // this page in the other language
	Title      string
	Active     string
	Currency   string
	Currencies []string
	NewestAsOf string
	Offers     int
	// FreshShare and MedianAge say how old the catalog's prices are today.
	FreshShare string
	MedianAge  int
	// CurrentOffers leaves out retired instance types (the explorer's default).
	CurrentOffers int
	Error         *apiError
	// Warnings name stored records left out because their data is
	// unusable (at most maxPageWarnings, then a count).
	Warnings []string
	// Fallbacks say where the page did not do what the URL asked (an
	// unknown currency or language) and what it did instead.
	Fallbacks []string
	Page      any
	// Assets is false in a build without the bundled script and stylesheet.
	Assets bool

	// Snapshot says which prices are served: when the loaded price
	// snapshot was written, or that none is loaded (the embedded catalog).
	Snapshot string
}

func (s *Server) view(r *http.Request, d *Data, active string) view {
	lang := requestLang(r)
	other := i18n.ZH
	if lang == i18n.ZH {
		other = i18n.EN
	}
	q := cloneValues(r.URL.Query())
	q.Set("lang", string(other))
	p := i18n.NewPrinter(lang)
	var fallbacks []string
	asked := strings.TrimSpace(q.Get("currency"))
	cur := strings.ToUpper(asked)
	if _, ok := d.FX.Rate(cur); !ok {
		cur = "USD"
		if lang == i18n.ZH {
			cur = "CNY"
		}
		if asked != "" {
			fallbacks = append(fallbacks, p.T("web.fallback.currency", shortParam(asked), cur))
		}
	}
	if l := strings.TrimSpace(r.URL.Query().Get("lang")); l != "" {
		if _, err := i18n.ParseLang(l); err != nil {
			fallbacks = append(fallbacks, p.T("web.fallback.lang", shortParam(l)))
		}
	}
	f := footer(d, s.cfg.Now())
	st, fresh := f.stats, f.fresh
	return view{P: p, Lang: string(lang), SwitchLang: string(other), SwitchURL: r.URL.Path + "?" + q.Encode(),
		Title: p.T("web.nav." + active), Active: active, Currency: cur, Currencies: d.FX.Currencies(),
		NewestAsOf: st.NewestAsOf.Format(catalog.DateLayout), Offers: st.Offers, CurrentOffers: f.currentOffers, Assets: web.HasAssets(),
		Warnings: pageWarnings(p, d.Rejected), Fallbacks: fallbacks,
		FreshShare: fmt.Sprintf("%.0f%%", 100*fresh.Share()), MedianAge: int(math.Round(fresh.MedianAgeDays)),
		Snapshot: snapshotNote(p, d)}
}

// snapshotNote is the footer's line on the served snapshot: when it was
// written (pages are cached until the next load, so a time, not an age).
func snapshotNote(p *i18n.Printer, d *Data) string {
	if d.SnapshotTime.IsZero() {
		return p.T("web.footer_embedded")
	}
	return p.T("web.footer_snapshot", d.SnapshotTime.UTC().Format("2006-01-02 15:04"))
}

// shortParam is a query value as a notice quotes it: at most 24 runes.
func shortParam(s string) string {
	if r := []rune(s); len(r) > 24 {
		return string(r[:24]) + "…"
	}
	return s
}

// maxPageWarnings bounds the warnings a page lists.
const maxPageWarnings = 10

// pageWarnings renders rejected imports for a page's notice.
func pageWarnings(p *i18n.Printer, rs []catalog.Rejection) []string {
	var out []string
	for i, r := range rs {
		if i == maxPageWarnings {
			out = append(out, p.T("warn.rejected_more", len(rs)-maxPageWarnings))
			break
		}
		out = append(out, p.Rejected(r.Kind, r.Record, string(r.Reason), r.Detail))
	}
	return out
}

// choiceSets are the catalog-derived option lists of the explorer's
// filters: GPU families, exact billing terms with offers, residency zones.
type choiceSets struct {
	families, terms, zones []string
	// familyList is families as a datalist's options.
	familyList template.HTML
}

// catalogSets returns the explorer's option lists, computed once per load.
func catalogSets(d *Data) *choiceSets {
	if v, ok := d.footer.Load("choices"); ok {
		return v.(*choiceSets)
	}
	set := func(m map[string]bool) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			if k != "" {
				out = append(out, k)
			}
		}
		sort.Strings(out)
		return out
	}
	fams, terms, zones := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, g := range d.Catalog.GPUs() {
		fams[g.Family] = true
	}
	for _, o := range d.Catalog.Offers() {
		if b := string(o.Billing); b != o.Billing.Family() {
			terms[b] = true
		}
	}
	for _, r := range d.Catalog.Regions() {
		zones[r.Residency] = true
	}
	c := &choiceSets{families: set(fams), terms: set(terms), zones: set(zones)}
	c.familyList = datalistHTML(c.families)
	d.footer.Store("choices", c)
	return c
}

// footer returns the footer's figures for the day of now, computed once per
// load and day (the freshness share moves with the date).
func footer(d *Data, now time.Time) *footerFigures {
	day := now.Format(catalog.DateLayout)
	if f, ok := d.footer.Load(day); ok {
		return f.(*footerFigures)
	}
	fresh, _ := d.Catalog.Freshness(now)
	f := &footerFigures{stats: d.Catalog.Stats(), fresh: fresh, currentOffers: listedOffers(d.Catalog)}
	d.footer.Store(day, f)
	return f
}

// listedOffers counts the offers the explorer lists by default: those of
// current and previous-generation instance types.
func listedOffers(c *catalog.Catalog) int {
	n := 0
	for _, o := range c.Offers() {
		if o.Instance == nil || o.Instance.Status != catalog.StatusRetired {
			n++
		}
	}
	return n
}

// render writes a page; ?lang= also sets the language cookie so links keep it.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, v view) {
	if l := r.URL.Query().Get("lang"); l != "" {
		if lang, err := i18n.ParseLang(l); err == nil {
			http.SetCookie(w, &http.Cookie{Name: "lang", Value: string(lang), Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode})
		}
	}
	v.Error = pageError(v.P, v.Error, name)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", v.Lang)
	w.WriteHeader(status)
	if err := s.pages.Render(w, name, v); err != nil {
		s.log.Error("render", "page", name, "err", err)
	}
}

// withCurrency forces the page's currency into the query (zh defaults to CNY).
func withCurrency(q url.Values, cur string) url.Values {
	q = cloneValues(q)
	q.Set("currency", cur)
	return q
}

// cloneValues copies q for building a link, keeping only the parameters
// something reads (knownParams).
func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		if !knownParams[k] {
			continue
		}
		out[k] = append([]string(nil), v...)
	}
	return out
}

// option is one choice of a select or checkbox group.
type option struct {
	Value, Label string
	Selected     bool
}

// offerRowView is one table row.
type offerRowView struct {
	ID, Provider, ProviderName, Instance, GPU, Region, Billing, BillingLabel string
	GPUs, VRAM, VCPU, RAM, Interconnect, Network, RDMA                       string
	Price, PerGPU, Upfront, Source, SourceRef, AsOf, Freshness               string
}

// cell is a row's text for a column key (the table and the CSV agree).
func (r offerRowView) cell(key string) string {
	switch key {
	case "provider":
		return r.ProviderName
	case "instance":
		return r.Instance
	case "gpu":
		return r.GPUs + "× " + r.GPU
	case "gpus":
		return r.GPUs
	case "vram":
		return r.VRAM
	case "vcpu":
		return r.VCPU
	case "ram":
		return r.RAM
	case "interconnect":
		return r.Interconnect
	case "network":
		return r.Network
	case "rdma":
		return r.RDMA
	case "region":
		return r.Region
	case "billing":
		return r.BillingLabel
	case "price":
		return r.Price
	case "per_gpu":
		return r.PerGPU
	case "upfront":
		return r.Upfront
	case "source":
		return r.Source
	case "as_of":
		return r.AsOf
	}
	return ""
}

type offersPage struct {
	Query url.Values
	// NextRowsURL is the CSV export of the matches after those the page
	// carries, when there are more than maxOfferRows; "" otherwise.
	NextRowsURL string
	GPU         string
	// FamilyList is the GPU families' datalist, rendered once per load.
	FamilyList   template.HTML
	Providers    options
	Billing      options
	Residency    options
	RegionList   template.HTML
	Interconnect options
	Per          options
	Sort         options
	// Currencies are the currency choices, the page's selected.
	Currencies     options
	MinGPUs        string
	MinVRAM        string
	MinPrice       string
	MaxPrice       string
	Region         string
	Country        string
	RDMA           bool
	CheapestRegion bool
	Columns        columns
	// HasRows is set when the page has rows to show.
	HasRows bool
	Total   int
	Shown   int
	// DataJS is every row the filters match as JSON (offersDataCols), for
	// the script to sort, filter and page in the browser; Body is the page
	// of them the HTML carries without it.
	DataJS template.JS
	// All are the cells of every row the filters match (the CSV's rows).
	All []*offerCells
	// Stock is each row's capacity reading as read now ("seen available
	// 12 min ago"), "" for none: it moves with the clock, so it is no
	// cached cell.
	Stock []string
	// Available: the filter keeps offers seen available only; HasStock:
	// some offer has a reading, so the filter is offered.
	Available, HasStock bool
	// Body is the table rows of the page, rendered in Go from each offer's
	// precomputed cells: a template walking every cell through reflection
	// cost most of an uncached page.
	Body        template.HTML
	EmptyWhy    string
	PageNum     int
	Pages       int
	PrevURL     string
	NextURL     string
	FirstRow    int
	LastRow     int
	SortColumns columns
	PriceUnit   string
	FXNote      string
	Chart       map[string]any
	// ChartColors is each provider's chart colour, for the script that
	// redraws the chart after a sort or filter in the browser.
	ChartColors map[string]string
	APIURL      string
	CSVURL      string
	// slots hold Body, DataJS and RegionList once slotted.
	slots []web.Slot
	// The freshness filter: its choices, whether undated prices are
	// hidden, and the sentence saying what it hides with a link that
	// changes it.
	MaxAge      int
	HideUndated bool
	AgeNote     string
	AgeLinks    []viewLink
	// The regions switch: what the page shows and a link to the other view.
	RegionsNote string
	RegionsLink viewLink
	// FiltersOpen unfolds the filter form: the URL filters the rows.
	FiltersOpen bool
	// PriceSwitches is the toolbar's price term links (term=…) and price
	// unit select, whose labels name each unit's column ("USD per month")
	// for the script that switches the unit in the browser; rendered in
	// Go, as the form's long lists are (explorer_form.go).
	PriceSwitches template.HTML
}

// viewLink is a link to the same explorer view with one choice changed:
// the script sets its href from the page's current URL and data-set.
type viewLink struct {
	Label, URL, Set string
}

// slotted moves the page's large parts (the table body, every row's JSON,
// the region list) into slots the renderer writes in place of their marks.
func (p *offersPage) slotted() {
	p.slots = []web.Slot{{Mark: web.SlotMark(0), Content: string(p.Body)}, {Mark: web.SlotMark(1), Content: string(p.DataJS)},
		{Mark: web.SlotMark(2), Content: string(p.RegionList)}}
	p.Body, p.DataJS, p.RegionList = template.HTML(p.slots[0].Mark), template.JS(p.slots[1].Mark), template.HTML(p.slots[2].Mark)
}

// Slots are the page's slots (web.Slotted).
func (p *offersPage) Slots() []web.Slot { return p.slots }

// Slots are the slots of the view's page, if it has any (web.Slotted).
func (v view) Slots() []web.Slot {
	if s, ok := v.Page.(web.Slotted); ok {
		return s.Slots()
	}
	return nil
}

// column is one column of the offers table.
type column struct {
	Key, Label string
	Num        bool
	Shown      bool
	SortURL    string
	Sorted     string // "", "asc" or "desc"
}

var defaultColumns = []string{"provider", "instance", "gpu", "region", "billing", "price", "per_gpu", "source", "as_of"}

var allColumns = []struct {
	key string
	num bool
}{{"provider", false}, {"instance", false}, {"gpu", false}, {"gpus", true}, {"vram", true}, {"vcpu", true}, {"ram", true},
	{"interconnect", false}, {"network", true}, {"rdma", false}, {"region", false}, {"billing", false}, {"price", true},
	{"per_gpu", true}, {"upfront", true}, {"source", false}, {"as_of", false}, {"stock", false}}

// knownColumn reports whether key is a column of the offers table.
func knownColumn(key string) bool {
	for _, c := range allColumns {
		if c.key == key {
			return true
		}
	}
	return false
}

// columnKeys are the offers table's column keys, in order.
func columnKeys() []string {
	out := make([]string, len(allColumns))
	for i, c := range allColumns {
		out[i] = c.key
	}
	return out
}

// offersData runs the page's search; a parameter error comes back as
// *apiError for the page to show.
func (s *Server) offersData(r *http.Request, d *Data, v *view) (*offersPage, error) {
	// The page, its CSV and the API answer a bad value alike (the one
	// parser, parseOfferSearch, decides): only an unset currency takes the
	// page's (CNY in Chinese), and only an unset cheapest_region the
	// page's default.
	q := cloneValues(r.URL.Query())
	if asked := strings.TrimSpace(q.Get("currency")); asked == "" || strings.EqualFold(asked, v.Currency) {
		q.Set("currency", v.Currency)
	} else {
		v.Fallbacks = slices.DeleteFunc(v.Fallbacks, func(f string) bool { return f == v.P.T("web.fallback.currency", shortParam(asked), v.Currency) })
	}
	p := params{q}
	// The page shows each instance type and billing model once, in its
	// cheapest region, unless asked for every region.
	if p.str("cheapest_region") == "" {
		q.Set("cheapest_region", "true")
	}
	page := &offersPage{Query: q, GPU: p.str("gpu"), MinGPUs: p.str("min_gpus"), MinVRAM: p.str("min_vram"), MinPrice: p.str("min_price"),
		MaxPrice: p.str("max_price"), Region: p.str("region"), Country: p.str("country"), CheapestRegion: p.str("cheapest_region") != "false"}
	page.FiltersOpen = filtersAsked(r.URL.Query())
	page.RDMA, _ = p.bool("rdma")
	page.Available, _ = p.bool("available")
	page.HasStock = page.Available || hasStock(d)
	// Prices older than a year are hidden unless asked for (see
	// docs/web.md, "Freshness"); the links below carry the choice.
	if !q.Has("max_age_months") {
		q.Set("max_age_months", strconv.Itoa(catalog.FreshMonths))
	}
	// and it leads with dated prices, undated ones after them.
	if !q.Has("dated_first") {
		q.Set("dated_first", "true")
	}
	api := cloneValues(q)
	api.Del("lang")
	api.Del("col")
	api.Del("cols")
	page.APIURL = "/api/v1/offers?" + api.Encode()
	csv := cloneValues(q)
	if cols := append(p.list("col"), p.list("cols")...); len(cols) > 0 {
		csv.Del("col")
		csv.Set("cols", strings.Join(cols, ","))
	}
	page.CSVURL = "/offers.csv?" + csv.Encode()
	v.Page = page
	s.offerChoices(d, v.P, page, p)
	term, termErr := parseTerm(q)
	page.PriceSwitches = priceSwitches(v.P, q, term, v.Currency, page.Per)
	for _, c := range v.Currencies {
		page.Currencies = append(page.Currencies, option{Value: c, Label: c, Selected: c == v.Currency})
	}
	search, err := d.parseOfferSearch(q, 0)
	if err != nil {
		return page, err
	}
	page.CheapestRegion = search.OneRegion // the form echoes the parsed value (cheapest_region=0 is false)
	search.Now = s.cfg.Now()
	rows, total, stale, err := d.runCounted(search)
	if err != nil {
		return page, err
	}
	// A price term makes the price column that term's, one row per
	// instance type: rows without it say none is published.
	if termErr != nil {
		return page, termErr
	}
	var missing []bool
	if term != "" {
		rows, missing = byTerm(rows, term, search.OneRegion)
		total = len(rows)
	}
	// The default order leads with dated prices (dated_first); undated
	// ones follow, counted in the freshness note (docs/web.md, "Freshness").
	undated := 0
	if search.DatedFirst && search.Order == "" {
		for i := range rows {
			if rows[i].Offer.Source.Undated() && (missing == nil || !missing[i]) {
				undated++
			}
		}
	}
	explorerViews(v.P, page, q, search, stale)
	if undated > 0 {
		page.AgeNote += " " + v.P.T("web.x.undated_last", undated)
	}
	page.Total, page.Shown = total, len(rows)
	switch {
	case search.Offset+len(rows) < total:
		// More matches than one response carries (limit=, at most maxOfferRows).
		v.Warnings = append(v.Warnings, v.P.T("web.limit.rows", search.Offset+1, search.Offset+len(rows), total, search.Limit))
		page.NextRowsURL = nextOffers("/offers.csv", q, search, len(rows), total)
	case search.Offset > 0 && len(rows) == 0:
		v.Warnings = append(v.Warnings, v.P.T("web.limit.past_end", total, search.Offset))
	case search.Offset > 0:
		v.Warnings = append(v.Warnings, v.P.T("web.limit.offset", search.Offset+1, search.Offset+len(rows), total, search.Offset))
	}
	unit := search.Unit
	if unit == "" {
		unit = "instance-hour"
	}
	page.PriceUnit = v.P.T("web.unit."+unit, v.Currency)
	if r, ok := d.FX.Rate(v.Currency); ok && v.Currency != "USD" {
		page.FXNote = v.P.T("web.fx", r.PerUSD.String(), v.Currency, v.P.FXSource(r.Source), r.AsOf.Format(catalog.DateLayout))
	}
	now := s.cfg.Now()
	cells := d.rowCells(v.P, search, v.Currency, rows)
	fresh := make([]string, len(rows))
	stock := make([]string, len(rows))
	for i, row := range rows {
		fresh[i] = freshness(now, row.Offer.Source)
		stock[i] = stockText(v.P, now, row.Offer.Stock)
	}
	for i := range missing {
		if missing[i] {
			cells[i] = noneCells(cells[i], v.P.T("web.x.term.none", v.P.T("web.x.term."+term+".of"), rows[i].Offer.Instance.Name), !search.OneRegion)
			fresh[i], stock[i] = "", ""
		}
	}
	if missing != nil {
		priced := rows[:0:0]
		for i := range rows {
			if !missing[i] {
				priced = append(priced, rows[i])
			}
		}
		rows = priced // the chart's
	}
	page.Stock = stock
	page.DataJS = offersJSON(cells, fresh, stock, explorerGPUNames(d))
	page.All = cells
	if len(cells) == 0 && search.Query.Billing != nil {
		page.EmptyWhy = v.P.T("web.x.none_billing", v.P.Billing(strings.Join(search.Query.Billing, ","), catalog.Billing(strings.Join(search.Query.Billing, ",")).Family()))
	}
	// A bad page number was the caller's error (parseOfferSearch: 400
	// with the page's error box), never an out-of-range slice.
	page.PageNum = search.Page
	page.Pages = (len(cells) + offersPageSize - 1) / offersPageSize
	if page.PageNum > page.Pages {
		page.PageNum = max(page.Pages, 1)
	}
	lo := (page.PageNum - 1) * offersPageSize
	hi := min(lo+offersPageSize, len(cells))
	page.HasRows = hi > lo
	page.FirstRow, page.LastRow = lo+1, hi
	defer func() {
		page.Body = offerRowsHTML(cells[lo:hi], fresh[lo:hi], stock[lo:hi], page.Columns)
		page.slotted()
	}()
	page.Shown = hi - lo
	pageURL := func(n int) string {
		u := cloneValues(q)
		u.Set("page", fmt.Sprint(n))
		return "/offers?" + u.Encode()
	}
	if page.PageNum > 1 {
		page.PrevURL = pageURL(page.PageNum - 1)
	}
	if page.PageNum < page.Pages {
		page.NextURL = pageURL(page.PageNum + 1)
	}
	shown := search.Cols
	if len(shown) == 0 {
		shown = defaultColumns
	}
	for _, c := range allColumns {
		col := column{Key: c.key, Label: v.P.T("web.col." + c.key), Num: c.num, Shown: contains(shown, c.key)}
		if contains(orderKeys, c.key) {
			su := cloneValues(q)
			su.Set("order", c.key)
			su.Del("desc")
			su.Del("page")
			if search.Order == c.key {
				col.Sorted = "asc"
				if search.Desc {
					col.Sorted = "desc"
				} else {
					su.Set("desc", "true")
				}
			}
			col.SortURL = "/offers?" + su.Encode()
		}
		page.Columns = append(page.Columns, col)
	}
	page.Chart = offersChart(*v, rows)
	page.ChartColors = providerColors
	return page, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// regionList is the <option>s of the region datalist: every region code
// with the providers' names for it, in the page's language (rendered once
// per data load and language).
func regionList(d *Data, p *i18n.Printer) template.HTML {
	if h, ok := d.regionList.Load(p.Lang()); ok {
		return h.(template.HTML)
	}
	labels := map[string][]string{}
	var codes []string
	providers := providerNames(d, p)
	for _, r := range d.Catalog.Regions() {
		name := r.NameEN
		if p.Lang() == i18n.ZH && r.NameZH != "" {
			name = r.NameZH
		}
		if _, ok := labels[r.Code]; !ok {
			codes = append(codes, r.Code)
		}
		labels[r.Code] = append(labels[r.Code], providers[r.Provider]+" · "+name)
	}
	sort.Strings(codes)
	var b strings.Builder
	for _, c := range codes {
		b.WriteString(`<option value="` + html.EscapeString(c) + `">` + html.EscapeString(strings.Join(labels[c], "; ")) + `</option>`)
	}
	h := template.HTML(b.String())
	d.regionList.Store(p.Lang(), h)
	return h
}

// offersPageSize is how many rows a page shows before the script takes over.
const offersPageSize = 50

// offersDataCols are the fields of each row of the explorer's JSON.
var offersDataCols = []string{"id", "provider", "provider_id", "instance", "gpu", "gpus", "vram", "vcpu", "ram", "interconnect", "network",
	"rdma", "region", "billing", "price", "per_gpu", "upfront", "source", "source_ref", "gpu_id", "billing_code", "billing_family", "price_n", "per_gpu_n", "source_kind", "prices", "eh", "none", "as_of", "fresh", "stock"}

// providerNames maps provider IDs to their names in the page's language.
func providerNames(d *Data, p *i18n.Printer) map[string]string {
	out := map[string]string{}
	for _, pr := range d.Catalog.Providers() {
		name := pr.NameEN
		if p.Lang() == i18n.ZH && pr.NameZH != "" {
			name = pr.NameZH
		}
		out[pr.ID] = name
	}
	return out
}

func (s *Server) pageOffers(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "offers")
	_, err := s.offersData(r, d, &v)
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			s.writeError(w, r, err)
			return
		}
		v.Error = ae
		s.render(w, r, ae.Status, "offers", v)
		return
	}
	s.render(w, r, http.StatusOK, "offers", v)
}

// offersCSV exports exactly the rows and columns the page shows.
func (s *Server) offersCSV(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "offers")
	page, err := s.offersData(r, d, &v)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="gpuscout-offers.csv"`)
	if page.NextRowsURL != "" {
		w.Header().Set("Link", "<"+page.NextRowsURL+`>; rel="next"`)
	}
	// A UTF-8 byte order mark first, as the browser's export writes, so
	// that Excel reads the Chinese headers as UTF-8.
	io.WriteString(w, "\ufeff")
	cw := output.NewCSVWriter(w) // cells neutralised against formula injection
	var head []string
	for _, c := range page.Columns {
		if c.Shown {
			label := c.Label
			if c.Key == "price" {
				label += " (" + page.PriceUnit + ")"
			}
			head = append(head, label)
		}
	}
	head = append(head, "id")
	cw.Write(head)
	words := strings.Fields(strings.ToLower(r.URL.Query().Get("q")))
	for k, oc := range page.All {
		row := oc.view
		if !quickMatch(row, words) {
			continue
		}
		var rec []string
		for _, c := range page.Columns {
			if c.Shown {
				cell := row.cell(c.Key)
				if c.Key == "stock" && k < len(page.Stock) {
					cell = page.Stock[k]
				}
				if c.Num { // plain numbers for spreadsheets
					cell = strings.ReplaceAll(cell, ",", "")
				}
				rec = append(rec, cell)
			}
		}
		if err := cw.Write(append(rec, row.ID)); err != nil {
			return // the client went away
		}
	}
	if err := cw.Flush(); err != nil {
		s.log.Warn("writing offers.csv", "err", err)
	}
}

// offerChoices fills the filter form's choices.
func (s *Server) offerChoices(d *Data, p *i18n.Printer, page *offersPage, q params) {
	sets := catalogSets(d)
	page.FamilyList = sets.familyList
	l := choiceLabels(d, p)
	sel := q.list("provider")
	page.Providers = l.providers.selected(func(v string) bool { return contains(sel, v) })
	bill := q.str("billing")
	page.Billing = l.billing.selected(func(v string) bool { return bill == v })
	res := q.str("residency")
	page.Residency = l.residency.selected(func(v string) bool { return res == v })
	page.RegionList = regionList(d, p)
	ic := q.str("interconnect")
	page.Interconnect = l.interconnect.selected(func(v string) bool { return v == "" && ic == "" || v != "" && strings.EqualFold(ic, v) })
	per := q.str("per")
	page.Per = l.per.selected(func(v string) bool { return per == v || (per == "" && v == "instance-hour") })
	srt := q.str("sort")
	page.Sort = l.sort.selected(func(v string) bool { return srt == v || (srt == "" && v == "price") })
}

// filterLabels are the explorer's filter choices in one language, without
// a selection: made once per load and language, not per request.
type filterLabels struct {
	providers, billing, residency, interconnect, per, sort options
}

// choiceLabels returns the filter choices in p's language.
func choiceLabels(d *Data, p *i18n.Printer) *filterLabels {
	key := "labels:" + string(p.Lang())
	if v, ok := d.footer.Load(key); ok {
		return v.(*filterLabels)
	}
	sets := catalogSets(d)
	l := &filterLabels{}
	for _, pr := range d.Catalog.Providers() {
		name := pr.NameEN
		if p.Lang() == i18n.ZH && pr.NameZH != "" {
			name = pr.NameZH
		}
		l.providers = append(l.providers, option{Value: pr.ID, Label: name})
	}
	l.billing = options{{Value: "", Label: p.T("web.any")}}
	for _, b := range []string{"on-demand", "spot", "reserved", "savings-plan", "committed", "subscription", "capacity-block", "flex-start"} {
		l.billing = append(l.billing, option{Value: b, Label: p.T("billing." + b)})
	}
	for _, t := range sets.terms { // exact terms (1-year no upfront ...) the catalog has offers for
		l.billing = append(l.billing, option{Value: t, Label: "· " + p.Billing(t, catalog.Billing(t).Family())})
	}
	l.residency = options{{Value: "", Label: p.T("web.any")}}
	for _, z := range sets.zones {
		l.residency = append(l.residency, option{Value: z, Label: p.Or("residency."+z, strings.ToUpper(z))})
	}
	l.interconnect = options{{Value: "", Label: p.T("web.any")}}
	for _, k := range []string{"nvswitch", "nvlink", "pcie"} {
		l.interconnect = append(l.interconnect, option{Value: k, Label: k})
	}
	for _, u := range []string{"instance-hour", "gpu-hour", "day", "month", "year"} {
		l.per = append(l.per, option{Value: u, Label: p.T("web.per." + u)})
	}
	for _, k := range []string{"price", "gpu-price", "vram", "fp16-tflops-per-dollar"} {
		l.sort = append(l.sort, option{Value: k, Label: p.T("web.sort." + k)})
	}
	v, _ := d.footer.LoadOrStore(key, l)
	return v.(*filterLabels)
}

// selected is a copy of os with the choices is reports selected.
func (os options) selected(is func(value string) bool) options {
	out := make(options, len(os))
	for i, o := range os {
		o.Selected = is(o.Value)
		out[i] = o
	}
	return out
}

// providerColors gives each cloud a stable chart colour.
var providerColors = map[string]string{"aws": "#ff9900", "azure": "#0078d4", "gcp": "#34a853", "alibaba": "#ff6a00",
	"tencent": "#006eff", "oci": "#c74634", "lambda": "#7b61ff", "runpod": "#673ab7", "nebius": "#d4e157",
	"coreweave": "#2741e7", "vast": "#1e88e5", "hyperstack": "#00897b", "verda": "#5e35b1", "digitalocean": "#0069ff",
	"crusoe": "#ef6c00", "huawei": "#c7000b", "volcengine": "#3370ff", "baidu": "#2932e1"}

// offersChart is an ECharts option: price per GPU-hour of the rows shown.
func offersChart(v view, rows []catalog.OfferRow) map[string]any {
	if len(rows) == 0 {
		return nil
	}
	n := len(rows)
	if n > 25 {
		n = 25
	}
	var labels []string
	var data []map[string]any
	for _, r := range rows[:n] {
		labels = append(labels, r.Offer.InstanceName+" · "+r.Offer.RegionCode+" · "+v.P.Billing(string(r.Offer.Billing), r.Offer.Billing.Family()))
		c := providerColors[r.Offer.Provider]
		if c == "" {
			c = "#888888"
		}
		data = append(data, map[string]any{"value": r.PerGPUHourly.Round(4).InexactFloat64(), "name": r.Offer.ID(),
			"itemStyle": map[string]any{"color": c}})
	}
	// Reverse so the first row is on top of a horizontal bar chart.
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
		data[i], data[j] = data[j], data[i]
	}
	return map[string]any{
		"title":   map[string]any{"text": v.P.T("web.chart.per_gpu", v.Currency), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip": map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}},
		// The grid sizes itself around the labels (each at most 240 px,
		// truncated with …), so no font draws one past the chart's left
		// edge; every bar keeps its label (interval 0: the script grows the
		// chart to give each 16 px).
		"grid":   map[string]any{"left": 8, "containLabel": true, "right": 56, "top": 36, "bottom": 24},
		"xAxis":  map[string]any{"type": "value", "name": v.Currency},
		"yAxis":  map[string]any{"type": "category", "data": labels, "axisLabel": map[string]any{"fontSize": 11, "width": 240, "overflow": "truncate", "interval": 0}},
		"series": []any{map[string]any{"type": "bar", "data": data, "label": map[string]any{"show": true, "position": "right", "fontSize": 10}}},
	}
}

type comparePage struct {
	Usage     url.Values
	Breakdown map[string]any
	Offers    []string
	Months    int
	OnPrem    string
	Servers   int
	GPUs      []option
	Doc       *document.TCO
	Details   []offerRowView
	Chart     map[string]any
	APIURL    string
	Cheapest  string
	BreakEven []string
	// ComparedAt says the GPU count every plan is priced at; GPUsDiffer
	// says why the badge is per GPU-hour when counts still differ.
	ComparedAt, GPUsDiffer string
	// Tab is the view shown: "specs" (the ticked offers side by side) or
	// "tco" (total cost over time); SpecsURL and TCOURL link them.
	Tab, SpecsURL, TCOURL string
	Specs                 *specsView
	// PlanNums number the plans (1., 2., …) on cards and charts; Legend
	// and BreakdownLegend are the charts' legends as HTML (every entry
	// shown, wrapped, in the page's language).
	PlanNums []string
	// Totals, PerGPUHour and After are the plan cards' amounts, each
	// kind in one format across the cards (moneyColumn).
	Totals, PerGPUHour, After []string
	Legend, BreakdownLegend   []legendItem
}

// legendItem is one entry of a chart's HTML legend.
type legendItem struct{ Color, Class, Name string }

// chartPalette colours a chart's series; the HTML legend uses the same.
var chartPalette = []string{"#1f5fbf", "#c0392b", "#2e8b57", "#d4881c", "#7b61ff", "#00897b", "#ad1457", "#5d4037",
	"#546e7a", "#9e9d24", "#0277bd", "#6a1b9a", "#ef6c00"}

func paletteColor(i int) string { return chartPalette[i%len(chartPalette)] }

func (s *Server) pageCompare(w http.ResponseWriter, r *http.Request) {
	if q := r.URL.Query(); slices.ContainsFunc(q["offer"], func(o string) bool { return strings.TrimSpace(o) == "" }) {
		// The form's "add an offer" box submits offer= when left empty:
		// answer with the address without it, so the one the reader
		// keeps, shares or reloads names only the offers compared.
		q["offer"] = slices.DeleteFunc(q["offer"], func(o string) bool { return strings.TrimSpace(o) == "" })
		to := "/compare?" + q.Encode()
		if tab := q.Get("tab"); tab != "" {
			to += "#" + tab
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	d := s.Data()
	v := s.view(r, d, "compare")
	q := withCurrency(r.URL.Query(), v.Currency)
	if q.Get("months") == "" {
		q.Set("months", "36")
	}
	page := &comparePage{Offers: params{q}.list("offer"), OnPrem: q.Get("onprem"), Usage: q, Tab: "specs"}
	if q.Get("tab") == "tco" || (len(page.Offers) == 0 && page.OnPrem != "") {
		page.Tab = "tco" // buying servers alone has no offers to set side by side
	}
	tabURL := func(tab string) string {
		u := cloneValues(r.URL.Query())
		u.Set("tab", tab)
		return "/compare?" + u.Encode() + "#" + tab
	}
	page.SpecsURL, page.TCOURL = tabURL("specs"), tabURL("tco")
	v.Page = page
	chosen := page.OnPrem // as typed (H100): the model it resolves to is selected
	if gs, err := d.Catalog.LookupGPU(page.OnPrem); err == nil && len(gs) > 0 {
		chosen = gs[0].ID
	}
	for _, g := range d.onPremGPUs() { // only GPUs whose servers can be priced
		page.GPUs = append(page.GPUs, option{Value: g, Label: g, Selected: g == chosen})
	}
	in, err := d.parseTCO(q)
	in.P = v.P
	page.Months, page.Servers = in.Months, in.Servers
	var res *pricing.TCO
	if err == nil {
		if res, err = d.tco(in); err == nil {
			var doc document.TCO
			if doc, err = document.BuildTCO(res, d.FX, v.P); err == nil {
				page.Doc = &doc
			}
		}
	}
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			s.writeError(w, r, err)
			return
		}
		if len(page.Offers) > 0 || page.OnPrem != "" {
			v.Error = ae
		}
		s.render(w, r, statusFor(v.Error), "compare", v)
		return
	}
	api := cloneValues(q)
	api.Del("lang")
	page.APIURL = "/api/v1/tco?" + api.Encode()
	page.Cheapest = page.Doc.Cheapest
	for _, b := range res.BreakEven {
		page.BreakEven = append(page.BreakEven, v.P.T(b.Key, b.Args...))
	}
	if res.RankedBy != "total" {
		var counts []string
		for _, p := range res.Plans {
			counts = append(counts, num(p.GPUs))
		}
		page.GPUsDiffer = v.P.T("web.tco.gpus_differ", strings.Join(counts, " / "))
	} else if len(res.Plans) > 1 {
		if res.GPUs.Equal(decimal.NewFromInt(1)) {
			page.ComparedAt = v.P.T("tco.compared_at_one")
		} else {
			page.ComparedAt = v.P.T("tco.compared_at", num(res.GPUs))
		}
	}
	for i := range page.Doc.Plans {
		page.PlanNums = append(page.PlanNums, planNumber(i))
	}
	// The cards' figures, each kind written one way across the plans
	// (not 9215.52 beside 13,175).
	page.Totals = cardMoney(page.Doc.Plans, func(p document.TCOPlan) json.Number { return p.Total })
	page.PerGPUHour = cardMoney(page.Doc.Plans, func(p document.TCOPlan) json.Number { return p.EffectivePerGPUHour })
	page.After = cardMoney(page.Doc.Plans, func(p document.TCOPlan) json.Number { return p.AfterHorizon })
	if page.Tab == "specs" {
		page.Specs = compareSpecs(d, v, in.Offers)
	}
	names := providerNames(d, v.P)
	for _, id := range in.Offers {
		if row, err := d.offerRow(id, v.Currency); err == nil {
			o := row.Offer
			provider := names[o.Provider]
			if provider == "" {
				provider = o.Provider
			}
			page.Details = append(page.Details, offerRowView{ID: id, Provider: provider, Instance: o.InstanceName, GPU: o.Instance.GPUID,
				GPUs: num(o.Instance.GPUCount), Region: o.RegionCode, BillingLabel: v.P.Billing(string(o.Billing), o.Billing.Family()),
				Price: row.EffectiveHourly.String(), PerGPU: row.PerGPUHourly.String(), Source: v.P.Or("source."+string(o.Source.Kind), string(o.Source.Kind)), SourceRef: o.Source.Ref,
				AsOf: v.P.SourceDate(o.Source.AsOfString(), o.Source.ReadOnString())})
		}
	}
	// Each money column alike (the same decimals, thousands separators).
	for _, col := range []func(r *offerRowView) *string{func(r *offerRowView) *string { return &r.Price }, func(r *offerRowView) *string { return &r.PerGPU }} {
		vals := make([]*decimal.Decimal, len(page.Details))
		for i := range page.Details {
			if x, err := decimal.NewFromString(*col(&page.Details[i])); err == nil {
				vals[i] = &x
			}
		}
		for i, s := range moneyColumn(vals) {
			*col(&page.Details[i]) = s
		}
	}
	page.Chart, page.Legend = tcoChart(v, page.Doc)
	page.Breakdown, page.BreakdownLegend = breakdownChart(v, page.Doc)
	s.render(w, r, http.StatusOK, "compare", v)
}

// cardMoney formats one amount of each plan (value picks it) in one
// format across the plans.
func cardMoney(plans []document.TCOPlan, value func(document.TCOPlan) json.Number) []string {
	vals := make([]*decimal.Decimal, len(plans))
	for i, p := range plans {
		if v, err := decimal.NewFromString(value(p).String()); err == nil {
			vals[i] = &v
		}
	}
	return moneyColumn(vals)
}

func statusFor(e *apiError) int {
	if e == nil {
		return http.StatusOK
	}
	return e.Status
}

// tcoChart is an ECharts option: cumulative cost of each plan by month,
// with its legend as HTML (every plan, numbered as on the cards). The
// value axis and the month axis hide labels that would overlap, and the
// month axis names itself below its labels, so a phone's narrow chart
// stays legible.
func tcoChart(v view, doc *document.TCO) (map[string]any, []legendItem) {
	var series []any
	var legend []legendItem
	for i, p := range doc.Plans {
		var cum float64
		var pts []float64
		for _, m := range p.Monthly {
			f, _ := m.Amount.Float64()
			cum += f
			pts = append(pts, float64(int64(cum*100))/100)
		}
		name := planNumber(i) + " " + p.Name
		legend = append(legend, legendItem{Color: paletteColor(i), Class: fmt.Sprintf("c%d", i%len(chartPalette)), Name: name})
		series = append(series, map[string]any{"name": name, "type": "line", "data": pts, "showSymbol": false,
			"itemStyle": map[string]any{"color": paletteColor(i)}, "lineStyle": map[string]any{"color": paletteColor(i)}})
	}
	months := make([]int, doc.Months)
	for i := range months {
		months[i] = i + 1
	}
	// Mark the months where buying pays back against renting.
	var marks []any
	for _, b := range doc.BreakEven {
		if b.Kind != "buy-vs-rent" || !b.Found {
			continue
		}
		if m, err := b.Value.Int64(); err == nil && m >= 1 && int(m) <= doc.Months {
			// Unlabelled: break-evens a month apart would print over each
			// other; the sentences below the chart name each month.
			marks = append(marks, map[string]any{"xAxis": int(m) - 1, "name": v.P.T("web.breakeven.month", m),
				"label": map[string]any{"show": false}})
		}
	}
	if len(marks) > 0 && len(series) > 0 {
		series[0].(map[string]any)["markLine"] = map[string]any{"symbol": "none", "data": marks,
			"lineStyle": map[string]any{"type": "dashed", "color": "#c0392b"}}
	}
	return map[string]any{
		"title":   map[string]any{"text": v.P.T("web.chart.cumulative", doc.Currency), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip": map[string]any{"trigger": "axis", "confine": true},
		"legend":  map[string]any{"show": false},
		"grid":    map[string]any{"left": 8, "right": 24, "top": 48, "bottom": 40, "containLabel": true},
		"xAxis": map[string]any{"type": "category", "data": months, "name": v.P.T("web.month"), "nameLocation": "middle", "nameGap": 26,
			"axisLabel": map[string]any{"hideOverlap": true}},
		"yAxis":  map[string]any{"type": "value", "name": doc.Currency, "axisLabel": map[string]any{"hideOverlap": true}},
		"series": series,
	}, legend
}

// formError names the advisor form field that is wrong.
type formError struct{ field string }

// jobFromForm writes the advisor form's common jobs as a job file (the
// same YAML the CLI reads, shown below the form as the advanced view):
// train or fine-tune a transformer (model size, tokens), serve one (model
// size, tokens per second, months), or a number of GPU-hours on a GPU.
func jobFromForm(q url.Values, header string, gpuID func(string) (string, bool)) (string, *formError) {
	num := func(name string, required bool) (float64, *formError) {
		s := strings.TrimSpace(q.Get(name))
		if s == "" {
			if required {
				return 0, &formError{name}
			}
			return 0, nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, &formError{name}
		}
		return f, nil
	}
	// The GPU field narrows every kind of job to that GPU (a family such
	// as H100 or an exact model); gpu-hours need one.
	gpu := ""
	if name := strings.TrimSpace(q.Get("gpu_model")); name != "" {
		// The name as typed (a family such as H100 keeps every variant),
		// once the catalog knows it.
		if _, ok := gpuID(name); !ok || strings.ContainsAny(name, "\n:{}[]#,\"'") {
			return "", &formError{"gpu_model"}
		}
		gpu = name
	}
	gpuBlock := func() string {
		if gpu == "" {
			return "gpu:\n  multi_node: true\n"
		}
		return "gpu:\n  models: [" + gpu + "]\n  multi_node: true\n"
	}
	var b strings.Builder
	b.WriteString("# " + header + "\n")
	switch q.Get("kind") {
	case "train", "finetune":
		size, err := num("size_b", true)
		if err != nil {
			return "", err
		}
		tokens, err := num("tokens_b", true)
		if err != nil {
			return "", err
		}
		method := ""
		if q.Get("kind") == "finetune" {
			switch m := q.Get("method"); m {
			case "", "lora":
				method = ", method: lora"
			case "full", "qlora":
				method = ", method: " + m
			default:
				return "", &formError{"method"}
			}
		}
		fmt.Fprintf(&b, "name: %s %gB on %gB tokens\nworkload:\n  job: {kind: transformer-train, params: %ge9, tokens: %ge9, precision: bf16%s}\n", q.Get("kind"), size, tokens, size, tokens, method)
		b.WriteString(gpuBlock())
	case "serve":
		size, err := num("size_b", true)
		if err != nil {
			return "", err
		}
		tps, err := num("tps", true)
		if err != nil {
			return "", err
		}
		months, err := num("months", false)
		if err != nil {
			return "", err
		}
		if months == 0 {
			months = 12
		}
		fmt.Fprintf(&b, "name: serve %gB at %g tokens/s\nworkload:\n  inference: {params: %ge9, tokens_per_second: %g, precision: fp16}\nhorizon_months: %d\n", size, tps, size, tps, int(months))
		b.WriteString(gpuBlock())
	case "gpuhours":
		h, err := num("gpu_hours", true)
		if err != nil {
			return "", err
		}
		g, ok := gpuID(strings.TrimSpace(q.Get("gpu_model")))
		if !ok || strings.ContainsAny(g, "\n:{}[]#\"'") {
			return "", &formError{"gpu_model"}
		}
		fmt.Fprintf(&b, "name: %g GPU-hours on %s\nworkload:\n  gpu_hours: %g\n  gpu_hours_on: %s\n", h, g, h, g)
		if gpu != "" {
			b.WriteString("gpu:\n  models: [" + gpu + "]\n")
		}
	default:
		return "", &formError{"kind"}
	}
	if d, err := num("deadline_hours", false); err != nil {
		return "", err
	} else if d > 0 {
		fmt.Fprintf(&b, "deadline_hours: %g\n", d)
	}
	if bu, err := num("budget", false); err != nil {
		return "", err
	} else if bu > 0 {
		fmt.Fprintf(&b, "budget: %g\n", bu)
		switch per := q.Get("budget_period"); per {
		case "":
		case "total", "month", "hour":
			fmt.Fprintf(&b, "budget_period: %s\n", per)
		default:
			return "", &formError{"budget_period"}
		}
	}
	if sw, err := num("start_within_days", false); err != nil {
		return "", err
	} else if sw > 0 {
		fmt.Fprintf(&b, "start_within_days: %g\n", sw)
	}
	if bq, err := num("book_quantile", false); err != nil {
		return "", err
	} else if bq > 0 {
		fmt.Fprintf(&b, "book_quantile: %g\n", bq)
	}
	if res := q.Get("residency"); res != "" {
		if strings.ContainsAny(res, "\n:{}[]#,\"' ") {
			return "", &formError{"residency"}
		}
		fmt.Fprintf(&b, "location:\n  residency: [%s]\n", res)
	}
	switch pr := q.Get("priority"); pr {
	case "", "balanced", "cost", "time":
		if pr != "" {
			fmt.Fprintf(&b, "priority: %s\n", pr)
		}
	default:
		return "", &formError{"priority"}
	}
	if q.Get("spot") != "" {
		b.WriteString("interruptible: true\n")
	}
	return b.String(), nil
}

type advisorPage struct {
	// Form is the common-jobs form as asked (query values).
	Form      url.Values
	Residency []option
	// ProviderNames are the providers' names in the page's language.
	ProviderNames map[string]string
	ShareURL      string
	Job           string
	Examples      []examples.Job
	Example       string
	Doc           *document.Recommendation
	Chart         map[string]any
}

func (s *Server) pageAdvisor(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "advisor")
	page := &advisorPage{Examples: examples.Jobs(), ProviderNames: providerNames(d, v.P), Form: r.URL.Query()}
	zones := map[string]bool{}
	for _, rg := range d.Catalog.Regions() {
		if rg.Residency != "" {
			zones[rg.Residency] = true
		}
	}
	page.Residency = []option{{Value: "", Label: v.P.T("web.any")}}
	for _, z := range sortedKeys(zones) {
		page.Residency = append(page.Residency, option{Value: z, Label: v.P.Or("residency."+z, strings.ToUpper(z)), Selected: page.Form.Get("residency") == z})
	}
	v.Page = page
	if r.URL.Query().Get("form") != "" {
		job, err := jobFromForm(r.URL.Query(), v.P.T("web.form.written"), func(name string) (string, bool) {
			gs, err := d.Catalog.LookupGPU(name)
			if err != nil || len(gs) == 0 {
				return "", false
			}
			return gs[0].ID, true
		})
		if err != nil {
			v.Error = badRequest(err.field, "", "%s", v.P.T("web.form.bad", v.P.T("web.form."+err.field)))
			v.Error.Local = true
			s.render(w, r, http.StatusBadRequest, "advisor", v)
			return
		}
		page.Job = job
	} else if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		if err := r.ParseForm(); err != nil {
			v.Error = badRequest("job", "", "reading the form: %v", err)
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) { // as the API answers an oversize body
				m := i18n.M("web.limit.form", s.cfg.MaxBody)
				v.Error = &apiError{Status: http.StatusRequestEntityTooLarge, Code: "too_large", Field: "job", Message: v.P.M(m), Msg: m}
			}
			s.render(w, r, v.Error.Status, "advisor", v)
			return
		}
		page.Job = r.PostForm.Get("job")
	} else if job := r.URL.Query().Get("job"); job != "" {
		page.Job = job // a shared link carries the job itself
	} else {
		page.Example = r.URL.Query().Get("example")
		if page.Example == "" && len(page.Examples) > 0 {
			page.Example = page.Examples[0].Name
		}
		for _, e := range page.Examples {
			if e.Name == page.Example {
				page.Job = e.YAML
				if v.Lang == string(i18n.ZH) {
					page.Job = e.Chinese() // the comments in the page's language
				}
			}
		}
	}
	if strings.TrimSpace(page.Job) == "" {
		s.render(w, r, http.StatusOK, "advisor", v)
		return
	}
	doc, err := s.recommend(d, []byte(page.Job), i18n.Lang(v.Lang))
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			s.writeError(w, r, err)
			return
		}
		v.Error = ae
		s.render(w, r, ae.Status, "advisor", v)
		return
	}
	page.Doc = doc
	page.Chart = advisorChart(v, doc)
	page.ShareURL = "/advisor?" + url.Values{"lang": {v.Lang}, "job": {page.Job}}.Encode()
	s.render(w, r, http.StatusOK, "advisor", v)
}

// advisorChart is an ECharts option: cost against time of the ranked plans
// and the Pareto front. The front is each distinct plan once (same offer,
// count and billing), without dominated points, joined in time order and
// drawn above the ranked plans so both show.
func advisorChart(v view, doc *document.Recommendation) map[string]any {
	type pt struct {
		h, c float64
		name string
	}
	points := func(plans []document.RecPlan) []pt {
		seen := map[string]bool{}
		var out []pt
		for _, p := range plans {
			if p.Time == nil {
				continue
			}
			// one point per plan shape: the same instances under the same
			// billing in another region is the same choice on this chart
			key := fmt.Sprintf("%s/%s×%d/%s", p.Provider, p.InstanceType, p.Count, p.Billing)
			if seen[key] {
				continue
			}
			seen[key] = true
			h, _ := p.Time.Hours.Float64()
			c, _ := p.Cost.Total.Float64()
			name := fmt.Sprintf("%d× %s %s · %s", p.Count, p.InstanceType, v.P.BillingCode(p.Billing), p.Region)
			if p.Rank > 0 {
				name = fmt.Sprintf("#%d %s", p.Rank, name)
			}
			out = append(out, pt{h, c, name})
		}
		return out
	}
	ranked, all := points(doc.Plans), points(doc.Pareto)
	var front []pt
	for _, a := range all {
		dominated := false
		for _, b := range all {
			if b.h <= a.h && b.c <= a.c && (b.h < a.h || b.c < a.c) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, a)
		}
	}
	sort.Slice(front, func(i, j int) bool { return front[i].h < front[j].h })
	if len(ranked) == 0 && len(front) == 0 {
		return nil
	}
	data := func(ps []pt) []any {
		out := []any{}
		for _, p := range ps {
			out = append(out, map[string]any{"value": []float64{p.h, p.c}, "name": p.name})
		}
		return out
	}
	return map[string]any{
		"title":   map[string]any{"text": v.P.T("web.chart.time_cost"), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip": map[string]any{"trigger": "item"},
		"legend":  map[string]any{"bottom": 0},
		"grid":    map[string]any{"left": 8, "right": 40, "top": 40, "bottom": 48, "containLabel": true},
		"xAxis":   map[string]any{"type": "value", "name": v.P.T("web.hours"), "scale": true},
		"yAxis":   map[string]any{"type": "value", "name": doc.Currency, "scale": true},
		"series": []any{
			map[string]any{"name": v.P.T("web.ranked"), "type": "scatter", "data": data(ranked), "symbolSize": 18, "symbol": "diamond", "z": 2,
				"itemStyle": map[string]any{"color": "#1f5fbf", "opacity": 0.55}},
			map[string]any{"name": v.P.T("web.pareto"), "type": "line", "data": data(front), "symbolSize": 9, "z": 3,
				"lineStyle": map[string]any{"type": "dashed", "width": 1}, "itemStyle": map[string]any{"color": "#c0392b"}},
		},
	}
}

type gpusPage struct {
	Doc document.GPUs
}

func (s *Server) pageGPUs(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "gpus")
	v.Page = &gpusPage{Doc: document.BuildGPUs(d.Catalog.GPUs())}
	s.render(w, r, http.StatusOK, "gpus", v)
}

type aboutPage struct {
	Stats    document.CatalogStats
	Sources  document.Sources
	Coverage coverageView
}

func (s *Server) pageAbout(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "about")
	st := d.Catalog.StatsWithCoverage()
	v.Page = &aboutPage{Stats: document.BuildCatalogStats(st), Sources: document.BuildSources(d.Catalog.Sources()),
		Coverage: buildCoverage(v.P, d.Catalog, st)}
	s.render(w, r, http.StatusOK, "about", v)
}

func (s *Server) pageNotFound(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "notfound")
	v.Error = &apiError{Status: http.StatusNotFound, Code: "not_found", Message: v.P.T("web.notfound", r.URL.Path), Local: true}
	s.render(w, r, http.StatusNotFound, "notfound", v)
}

func money(d decimal.Decimal) string { return output.Money(d) }

func num(d decimal.Decimal) string { return output.Qty(d) }

// breakdownChart is an ECharts option: each plan's total split into its
// cost components (stacked bars; a resale credit shows below zero), in
// the page's language, with its legend as HTML. Plans are labelled with
// their numbers first, so labels truncated on a phone stay distinct.
func breakdownChart(v view, doc *document.TCO) (map[string]any, []legendItem) {
	var plans []string
	order := []string{}
	vals := map[string][]float64{}
	for i, p := range doc.Plans {
		plans = append(plans, planNumber(i)+" "+p.Name)
		for _, part := range p.Parts {
			for _, c := range part.Components {
				if _, ok := vals[c.Name]; !ok {
					order = append(order, c.Name)
					vals[c.Name] = make([]float64, len(doc.Plans))
				}
				f, _ := c.Total.Float64()
				vals[c.Name][i] += f
			}
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	var series []any
	var legend []legendItem
	for i, name := range order {
		label := v.P.ComponentWeb(name)
		legend = append(legend, legendItem{Color: paletteColor(i), Class: fmt.Sprintf("c%d", i%len(chartPalette)), Name: label})
		series = append(series, map[string]any{"name": label, "type": "bar", "stack": "total", "data": vals[name],
			"emphasis": map[string]any{"focus": "series"}, "itemStyle": map[string]any{"color": paletteColor(i)}})
	}
	return map[string]any{
		"title":   map[string]any{"text": v.P.T("web.chart.breakdown", doc.Currency), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip": map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}},
		"legend":  map[string]any{"show": false},
		"grid":    map[string]any{"left": 250, "right": 40, "top": 40, "bottom": 24},
		"xAxis":   map[string]any{"type": "value", "name": doc.Currency, "axisLabel": map[string]any{"hideOverlap": true}},
		"yAxis":   map[string]any{"type": "category", "data": plans, "axisLabel": map[string]any{"fontSize": 11, "width": 240, "overflow": "truncate"}},
		"series":  series,
	}, legend
}
