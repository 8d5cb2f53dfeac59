package catalog

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Converter converts an amount between currencies. The fx package provides
// one; the catalog only needs this method.
type Converter interface {
	Convert(amount decimal.Decimal, from, to string) (decimal.Decimal, error)
}

// PriceUnit is what a displayed price is per.
type PriceUnit string

// The units a price can be shown per.
const (
	PerInstanceHour PriceUnit = "instance-hour"
	PerGPUHour      PriceUnit = "gpu-hour"
	PerMonth        PriceUnit = "month" // instance-month of 730 hours
)

// ParsePriceUnit parses --per.
func ParsePriceUnit(s string) (PriceUnit, error) {
	switch PriceUnit(s) {
	case PerInstanceHour, PerGPUHour, PerMonth:
		return PriceUnit(s), nil
	case "hour", "instance":
		return PerInstanceHour, nil
	case "gpu":
		return PerGPUHour, nil
	}
	return "", fmt.Errorf("unknown price unit %q (use instance-hour, gpu-hour or month)", s)
}

// SortKey orders query results.
type SortKey string

// The orders a query can return offers in.
const (
	SortPrice          SortKey = "price"                  // effective price per instance-hour, cheapest first
	SortGPUPrice       SortKey = "gpu-price"              // effective price per GPU-hour, cheapest first
	SortVRAM           SortKey = "vram"                   // total GPU memory, largest first
	SortFP16PerDollar  SortKey = "fp16-tflops-per-dollar" // dense FP16 TFLOPS per currency unit per hour, best first
	defaultSortKeyName         = SortPrice
)

// ParseSortKey parses --sort.
func ParseSortKey(s string) (SortKey, error) {
	switch SortKey(s) {
	case SortPrice, SortGPUPrice, SortVRAM, SortFP16PerDollar:
		return SortKey(s), nil
	case "":
		return defaultSortKeyName, nil
	}
	return "", fmt.Errorf("unknown sort key %q (use price, gpu-price, vram or fp16-tflops-per-dollar)", s)
}

// OfferQuery selects and orders offers. Empty fields do not filter.
type OfferQuery struct {
	Providers  []string // provider IDs
	GPUs       []string // canonical GPU IDs (resolve names with LookupGPU)
	MinGPUs    decimal.Decimal
	MinVRAMGB  decimal.Decimal // per GPU
	Regions    []string        // region codes
	Countries  []string        // ISO alpha-2
	Residency  []string        // residency zones
	Billing    []string        // codes, families ("reserved") or synonyms
	Statuses   []string        // instance statuses; default current and previous
	MaxPrice   decimal.Decimal // in Currency, per Per; zero = no limit
	Per        PriceUnit
	Currency   string    // output currency; "" keeps each offer's own
	FX         Converter // required when Currency is set
	Sort       SortKey
	Limit      int
	InstanceID string // exact "provider/instance_type"
	// OS is the operating system the prices are for: OSLinux (the
	// default) or OSWindows. One query never mixes them.
	OS string
	// Available keeps only the offers whose provider API last reported
	// capacity (Offer.Stock: available or low).
	Available bool
}

// OfferRow is an offer with its prices in the query's currency.
type OfferRow struct {
	Offer           *Offer
	Currency        string
	Hourly          decimal.Decimal
	Upfront         decimal.Decimal
	Monthly         decimal.Decimal
	EffectiveHourly decimal.Decimal
	PerGPUHourly    decimal.Decimal
	// Price is the figure in the query's unit (Per).
	Price decimal.Decimal
	// Marketplace is set when the provider is a marketplace of independent
	// hosts: the price is one host's asking price, not a list price.
	Marketplace bool
}

// FP16PerDollar is dense FP16 TFLOPS of the instance per currency unit per
// hour; zero when unknown.
func (r OfferRow) FP16PerDollar() decimal.Decimal {
	it := r.Offer.Instance
	if it == nil || it.GPU == nil || r.EffectiveHourly.IsZero() {
		return decimal.Zero
	}
	return it.GPU.FP16TFLOPS.Mul(it.GPUCount).Div(r.EffectiveHourly)
}

func inFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// QueryOffers returns the offers matching q, priced in q.Currency and
// sorted by q.Sort (ties by offer ID), at most q.Limit of them.
func (c *Catalog) QueryOffers(q OfferQuery) ([]OfferRow, error) {
	rows, _, err := c.QueryOffersTop(q, q.Limit)
	return rows, err
}

// QueryOffersTop is QueryOffers returning the first n rows of the order
// (every row when n <= 0, q.Limit ignored) and the number of offers that
// match. Only those n rows are sorted and get their per-GPU price when
// neither the order nor the price unit needs it for every row, which is
// what keeps a query over 100,000 offers for the cheapest 20 fast.
func (c *Catalog) QueryOffersTop(q OfferQuery, n int) ([]OfferRow, int, error) {
	per := q.Per
	if per == "" {
		per = PerInstanceHour
	}
	market := map[string]bool{}
	for _, f := range c.ecosystem {
		if f.Category == CategoryMarketplace {
			market[f.Provider] = true
		}
	}
	// perGPU: every row needs its per-GPU price (to sort or filter by
	// it); else only the rows returned get it.
	// Every row is returned when n <= 0: each gets it in the one pass.
	perGPU := per == PerGPUHour || q.Sort == SortGPUPrice || n <= 0
	var rows []OfferRow
	var top *topN // the first n rows so far, when n > 0
	if n > 0 {
		top = &topN{n: n, order: rowOrder(q.Sort)}
	}
	total := 0
	var err error
	// The filters on the instance type are decided once per run of its
	// offers (offers sorted by ID come grouped by instance type).
	var lastIt *InstanceType
	itMatch := false
	if q.OS != OSLinux && q.OS != OSWindows {
		return nil, 0, fmt.Errorf("unknown operating system %q (use linux or windows)", q.OS)
	}
	m := q.Matcher()
	match := func(o *Offer) bool {
		it := o.Instance
		if it != lastIt {
			lastIt = it
			itMatch = m.Instance(it)
		}
		return itMatch && m.Region(o.RegionCode, o.Region) && m.Billing(o.Billing) &&
			(!q.Available || o.Stock.Available())
	}
	offers := c.OffersOS(q.OS)
	if top == nil {
		// Every match is kept: count them first (filters only, no
		// pricing) so that the rows take one array, not the arrays a
		// growing slice leaves behind.
		matches := 0
		for _, o := range offers {
			if match(o) {
				matches++
			}
		}
		rows = make([]OfferRow, 0, matches)
	}
	for _, o := range offers {
		if !match(o) {
			continue
		}
		row, err := priceRow(o, q.Currency, q.FX, per, perGPU)
		if err != nil {
			return nil, 0, err
		}
		if q.MaxPrice.IsPositive() && row.Price.GreaterThan(q.MaxPrice) {
			continue
		}
		row.Marketplace = market[o.Provider]
		total++
		if top != nil {
			top.add(row)
		} else {
			rows = append(rows, row)
		}
	}
	if top != nil {
		rows = top.sorted()
	} else {
		sortRows(rows, q.Sort)
	}
	if !perGPU {
		for i := range rows {
			if rows[i], err = priceRow(rows[i].Offer, q.Currency, q.FX, per, true); err != nil {
				return nil, 0, err
			}
			rows[i].Marketplace = market[rows[i].Offer.Provider]
		}
	}
	if len(rows) == 0 {
		rows = nil // no match reads as before: a nil list, not an empty one
	}
	return rows, total, nil
}

// OfferMatcher decides a query's filters on the parts of an offer they
// read: its instance type, its region, its billing model. QueryOffersTop
// applies them (with the stock and price filters) to every offer; a read
// that holds offers in a compact form counts its matches with them
// without building the offers.
type OfferMatcher struct {
	q        OfferQuery
	statuses []string
}

// Matcher returns the query's filters on an offer's parts.
func (q OfferQuery) Matcher() OfferMatcher {
	statuses := q.Statuses
	if len(statuses) == 0 {
		statuses = []string{StatusCurrent, StatusPrevious}
	}
	return OfferMatcher{q: q, statuses: statuses}
}

// Instance reports whether the offers of instance type it pass the
// query's filters on instance types (ID, provider, GPU, status, GPU count
// and memory).
func (m OfferMatcher) Instance(it *InstanceType) bool {
	q := m.q
	return (q.InstanceID == "" || it.ID() == q.InstanceID) &&
		(len(q.Providers) == 0 || inFold(q.Providers, it.Provider)) &&
		(len(q.GPUs) == 0 || inFold(q.GPUs, it.GPUID)) &&
		inFold(m.statuses, it.Status) &&
		(!q.MinGPUs.IsPositive() || !it.GPUCount.LessThan(q.MinGPUs)) &&
		(!q.MinVRAMGB.IsPositive() || !it.VRAMPerGPUGB().LessThan(q.MinVRAMGB))
}

// Region reports whether offers in the region with this code (r, its
// record) pass the query's filters on regions.
func (m OfferMatcher) Region(code string, r *Region) bool {
	q := m.q
	return (len(q.Regions) == 0 || inFold(q.Regions, code)) &&
		(len(q.Countries) == 0 || inFold(q.Countries, r.Country)) &&
		(len(q.Residency) == 0 || inFold(q.Residency, r.Residency))
}

// InstanceOnly reports whether the query's filters on an offer's parts
// read only its instance type (no region or billing filter).
func (m OfferMatcher) InstanceOnly() bool {
	q := m.q
	return len(q.Regions) == 0 && len(q.Countries) == 0 && len(q.Residency) == 0 && len(q.Billing) == 0
}

// Billing reports whether offers under billing model b pass the query's
// filter on billing models.
func (m OfferMatcher) Billing(b Billing) bool {
	return len(m.q.Billing) == 0 || matchAnyBilling(b, m.q.Billing)
}

// SortPrice is an offer's effective hourly price as a query on price
// (SortPrice) compares it: in the query's currency, converted as the
// query's rows are.
func (q OfferQuery) SortPrice(o *Offer) (decimal.Decimal, error) {
	row, err := priceRow(o, q.Currency, q.FX, PerInstanceHour, false)
	return row.EffectiveHourly, err
}

// SortGPUPrice is an offer's effective hourly price per GPU as a query on
// that price (SortGPUPrice) compares it: in the query's currency,
// converted as the query's rows are. The offer's instance type must be
// linked.
func (q OfferQuery) SortGPUPrice(o *Offer) (decimal.Decimal, error) {
	row, err := priceRow(o, q.Currency, q.FX, PerGPUHour, true)
	return row.PerGPUHourly, err
}

func matchAnyBilling(b Billing, filters []string) bool {
	for _, f := range filters {
		if MatchBilling(b, f) {
			return true
		}
	}
	return false
}

// priceRow converts an offer's price parts into currency (or keeps its
// own); the per-GPU price is left zero unless perGPU.
func priceRow(o *Offer, currency string, fx Converter, per PriceUnit, perGPU bool) (OfferRow, error) {
	p := o.Price
	row := OfferRow{Offer: o, Currency: p.Currency, Hourly: p.Hourly, Upfront: p.Upfront, Monthly: p.Monthly,
		EffectiveHourly: o.EffectiveHourly()}
	if perGPU {
		row.PerGPUHourly = o.PerGPUHourly()
	}
	if currency != "" && currency != p.Currency {
		if fx == nil {
			return OfferRow{}, fmt.Errorf("offer %s: no exchange rates to convert %s to %s", o.ID(), p.Currency, currency)
		}
		conv := func(d decimal.Decimal) (decimal.Decimal, error) {
			if d.IsZero() {
				return d, nil
			}
			return fx.Convert(d, p.Currency, currency)
		}
		var err error
		for _, f := range []*decimal.Decimal{&row.Hourly, &row.Upfront, &row.Monthly, &row.EffectiveHourly, &row.PerGPUHourly} {
			if *f, err = conv(*f); err != nil {
				return OfferRow{}, fmt.Errorf("offer %s: %w", o.ID(), err)
			}
		}
		row.Currency = currency
	}
	switch per {
	case PerGPUHour:
		row.Price = row.PerGPUHourly
	case PerMonth:
		row.Price = row.EffectiveHourly.Mul(decHoursPerMonth)
	default:
		row.Price = row.EffectiveHourly
	}
	return row, nil
}

// rowOrder compares two rows by a sort key (0 when they tie).
func rowOrder(key SortKey) func(a, b *OfferRow) int {
	by := valueOrder(key)
	return func(a, b *OfferRow) int {
		if c := by(a, b); c != 0 {
			return c
		}
		return undatedLast(a, b)
	}
}

// undatedLast orders a dated price before an undated one (Source.Undated):
// of two equal prices, the one whose date is known comes first.
func undatedLast(a, b *OfferRow) int {
	switch ua, ub := a.Offer.Source.Undated(), b.Offer.Source.Undated(); {
	case ua == ub:
		return 0
	case ua:
		return 1
	}
	return -1
}

// valueOrder compares two rows by the sort key's value alone.
func valueOrder(key SortKey) func(a, b *OfferRow) int {
	switch key {
	case SortGPUPrice:
		return func(a, b *OfferRow) int { return cmpDec(a.PerGPUHourly, b.PerGPUHourly) }
	case SortVRAM:
		return func(a, b *OfferRow) int {
			if c := cmpDec(b.Offer.Instance.GPUMemoryGB, a.Offer.Instance.GPUMemoryGB); c != 0 {
				return c
			}
			return cmpDec(a.EffectiveHourly, b.EffectiveHourly)
		}
	case SortFP16PerDollar:
		return func(a, b *OfferRow) int { return b.FP16PerDollar().Cmp(a.FP16PerDollar()) }
	}
	return func(a, b *OfferRow) int { return cmpDec(a.EffectiveHourly, b.EffectiveHourly) }
}

// pow10 holds 10^0 to 10^18.
var pow10 = func() (p [19]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// cmpDec is a.Cmp(b) without the allocation Cmp makes to align two
// exponents, which a sort, comparing each price many times, would make at
// every comparison: coefficients of at most 18 digits (every price and
// size of a catalog) compare as integers once the one with the larger
// exponent is scaled to the other's, when that fits 63 bits; anything
// else goes to Cmp.
func cmpDec(a, b decimal.Decimal) int {
	if a.NumDigits() > 18 || b.NumDigits() > 18 {
		return a.Cmp(b)
	}
	va, ea := a.CoefficientInt64(), a.Exponent()
	vb, eb := b.CoefficientInt64(), b.Exponent()
	switch {
	case ea == eb:
		return cmp.Compare(va, vb)
	case ea > eb:
		if x, ok := scale(va, ea-eb); ok {
			return cmp.Compare(x, vb)
		}
	default:
		if x, ok := scale(vb, eb-ea); ok {
			return cmp.Compare(va, x)
		}
	}
	return a.Cmp(b)
}

// scale is v·10^d (d > 0) when it fits an int64.
func scale(v int64, d int32) (int64, bool) {
	if d >= int32(len(pow10)) {
		return 0, false
	}
	u := uint64(v)
	if v < 0 {
		u = uint64(-v)
	}
	hi, lo := bits.Mul64(u, pow10[d])
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if v < 0 {
		return -int64(lo), true
	}
	return int64(lo), true
}

// topN keeps the first n rows of an order among the rows added, without
// sorting the others: a bounded heap whose root is the worst row kept.
// Offer IDs, which break ties, are computed only for rows that tie.
type topN struct {
	n     int
	order func(a, b *OfferRow) int
	heap  []rankedRow
	cand  rankedRow // the row being added (a field: no allocation per row)
}

type rankedRow struct {
	row OfferRow
	id  string // the offer ID, once a tie needed it
}

// before reports whether a sorts before b.
func (t *topN) before(a, b *rankedRow) bool {
	if c := t.order(&a.row, &b.row); c != 0 {
		return c < 0
	}
	if a.id == "" {
		a.id = a.row.Offer.ID()
	}
	if b.id == "" {
		b.id = b.row.Offer.ID()
	}
	return a.id < b.id
}

func (t *topN) add(row OfferRow) {
	h := t.heap
	if len(h) < t.n {
		h = append(h, rankedRow{row: row})
		for k := len(h) - 1; k > 0; { // up while the parent sorts before
			parent := (k - 1) / 2
			if !t.before(&h[parent], &h[k]) {
				break
			}
			h[k], h[parent] = h[parent], h[k]
			k = parent
		}
		t.heap = h
		return
	}
	t.cand = rankedRow{row: row}
	if !t.before(&t.cand, &h[0]) {
		return
	}
	h[0] = t.cand
	for k := 0; ; { // down while a child sorts after
		w := k
		if ch := 2*k + 1; ch < len(h) && t.before(&h[w], &h[ch]) {
			w = ch
		}
		if ch := 2*k + 2; ch < len(h) && t.before(&h[w], &h[ch]) {
			w = ch
		}
		if w == k {
			return
		}
		h[k], h[w] = h[w], h[k]
		k = w
	}
}

// sorted returns the rows kept, in order.
func (t *topN) sorted() []OfferRow {
	sort.Slice(t.heap, func(i, j int) bool { return t.before(&t.heap[i], &t.heap[j]) })
	out := make([]OfferRow, len(t.heap))
	for i := range t.heap {
		out[i] = t.heap[i].row
	}
	return out
}

// sortRows sorts rows, which come in offer ID order (the catalog's), by
// key, ties by offer ID: a row's place in the input stands for its ID, so
// no ID is built. A catalog holds each offer ID once, so the order is
// total and an unstable sort (far fewer swaps than sort.Stable) gives the
// same rows.
func sortRows(rows []OfferRow, key SortKey) {
	at := make([]int32, len(rows))
	for i := range at {
		at[i] = int32(i)
	}
	sort.Sort(rowSorter{rows, at, rowOrder(key)})
}

// rowSorter sorts offer rows by less, then by their places before the
// sort (offer ID order).
type rowSorter struct {
	rows []OfferRow
	at   []int32
	less func(a, b *OfferRow) int
}

func (s rowSorter) Len() int { return len(s.rows) }
func (s rowSorter) Less(i, j int) bool {
	if c := s.less(&s.rows[i], &s.rows[j]); c != 0 {
		return c < 0
	}
	return s.at[i] < s.at[j]
}
func (s rowSorter) Swap(i, j int) {
	s.rows[i], s.rows[j] = s.rows[j], s.rows[i]
	s.at[i], s.at[j] = s.at[j], s.at[i]
}
