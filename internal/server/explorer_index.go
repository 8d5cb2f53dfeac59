package server

import (
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// offerIndex is what the offers explorer and the offers API derive from a
// data load once instead of on every request: every offer's position in
// each price order (per currency and sort key), and for a catalog of at
// most storedRowsMax offers every offer priced per currency, unit and sort
// key and its display cells per language, currency and unit. It lives on
// Data, so a reload starts a fresh one; its caches are bounded in entries
// and, through storedRowsMax, in bytes: a big catalog (a 10^6-offer
// --catalog overlay) keeps 4 bytes per offer and order, and prices and
// formats only the rows a response carries.
type offerIndex struct {
	// offers are the catalog's offers; ord numbers them (their position).
	offers []*catalog.Offer
	ord    map[*catalog.Offer]int32
	// stored is whether priced rows and cell tables are kept (a catalog of
	// at most storedRowsMax offers).
	stored bool
	// statuses are every instance status the catalog holds: the base
	// lists take every offer, the filters then apply the query's.
	statuses []string
	// group numbers each offer's instance type and billing model (by
	// ordinal): the offers CheapestRegion chooses among.
	group  []int32
	groups int
	// keys are each offer's filtered fields (by ordinal) as numbers into
	// values: the filters test numbers in one array instead of following
	// pointers to compare strings.
	keys   []offerKeys
	values [numKeyFields][]string
	// asOf is each offer's price date (Unix seconds and nanoseconds) and
	// undated whether its source shows none (by ordinal): the freshness
	// filter reads these instead of every offer.
	asOf      []int64
	asOfNanos []int32
	undated   []bool
	priced    *lazyCache[pricedKey, *pricedList]
	// orders are the price orders of a big catalog (not stored): offer
	// ordinals by currency and sort key, whatever the unit.
	orders *lazyCache[pricedKey, []int32]
	// ranks orders the offers (by ordinal) by effective hourly price in a
	// currency: each offer's place in the catalog's price order, so equal
	// prices are ranked as that order breaks their tie.
	ranks *lazyCache[string, []int32]
	cells *lazyCache[cellsKey, []*offerCells]
}

// storedRowsMax is the largest catalog whose priced rows (about 200 bytes
// per offer and list, up to maxPricedLists lists: at most 48 MB) and cell
// tables (about 600 bytes per offer and table, up to maxCellTables: at most
// 72 MB) the index keeps. A bigger catalog keeps only its offers'
// positions in each price order (4 bytes per offer and order) and prices
// and formats the rows a response carries, at most maxOfferRows.
const storedRowsMax = 10000

// The fields of offerKeys.
const (
	keyStatus = iota
	keyProvider
	keyGPU
	keyRegion
	keyCountry
	keyResidency
	keyBilling
	numKeyFields
)

// tooOld is OfferSearch.tooOld for offer ordinal ord, from the index.
// cutoff is the search's oldest date kept (its cutoff method).
func (x *offerIndex) tooOld(s *OfferSearch, cutoff time.Time, ord int32) bool {
	if x.undated[ord] {
		return s.HideUndated
	}
	if s.MaxAgeMonths <= 0 {
		return false
	}
	// time.Time.Before of a date without a monotonic reading.
	sec, c := x.asOf[ord], cutoff.Unix()
	return sec < c || sec == c && x.asOfNanos[ord] < int32(cutoff.Nanosecond())
}

// offerKeys are one offer's status, provider, GPU, region, country,
// residency and billing model, each as its position in offerIndex.values.
type offerKeys [numKeyFields]int32

// pricedList is every offer of the catalog in one price order: each
// row's ordinal (ords) and, for a stored catalog, the rows priced (rows);
// for a big catalog rows is nil and row prices them one at a time.
type pricedList struct {
	rows   []catalog.OfferRow
	ords   []int32
	offers []*catalog.Offer
	pricer *catalog.Pricer
}

// offerAt is the offer at position i.
func (l *pricedList) offerAt(i int) *catalog.Offer {
	if l.rows != nil {
		return l.rows[i].Offer
	}
	return l.offers[l.ords[i]]
}

// row is the priced row at position i.
func (l *pricedList) row(i int) (catalog.OfferRow, error) {
	if l.rows != nil {
		return l.rows[i], nil
	}
	return l.pricer.Row(l.offers[l.ords[i]])
}

// pricedKey names one base list: every offer priced in a currency and unit,
// in one sort order.
type pricedKey struct {
	currency string
	per      catalog.PriceUnit
	sort     catalog.SortKey
}

// Bounds of the index's caches: a base list holds a row per offer (about
// 200 bytes each), a cell table a few hundred bytes more per offer.
const (
	maxPricedLists = 24
	maxCellTables  = 12
)

// index returns the data's offer index, made at the first request.
func (d *Data) index() *offerIndex {
	d.indexOnce.Do(func() {
		offers := d.Catalog.Offers()
		bound := d.storedRows
		if bound == 0 {
			bound = storedRowsMax
		}
		x := &offerIndex{offers: offers, stored: len(offers) <= bound, ord: make(map[*catalog.Offer]int32, len(offers)),
			orders: newLazyCache[pricedKey, []int32](maxPricedLists),
			group:  make([]int32, len(offers)),
			keys:   make([]offerKeys, len(offers)),
			asOf:   make([]int64, len(offers)), asOfNanos: make([]int32, len(offers)), undated: make([]bool, len(offers)),
			priced: newLazyCache[pricedKey, *pricedList](maxPricedLists),
			ranks:  newLazyCache[string, []int32](maxPricedLists),
			cells:  newLazyCache[cellsKey, []*offerCells](maxCellTables)}
		seen := map[string]bool{}
		groups := map[string]int32{}
		var numbers [numKeyFields]map[string]int32
		for f := range numbers {
			numbers[f] = map[string]int32{}
		}
		number := func(f int, v string) int32 {
			n, ok := numbers[f][v]
			if !ok {
				n = int32(len(x.values[f]))
				numbers[f][v] = n
				x.values[f] = append(x.values[f], v)
			}
			return n
		}
		for i, o := range offers {
			x.ord[o] = int32(i)
			x.asOf[i], x.asOfNanos[i], x.undated[i] = o.Source.AsOf.Unix(), int32(o.Source.AsOf.Nanosecond()), o.Source.Undated()
			var status, gpu, country, zone string
			if o.Instance != nil {
				status, gpu = o.Instance.Status, o.Instance.GPUID
			}
			if o.Region != nil {
				country, zone = o.Region.Country, o.Region.Residency
			}
			x.keys[i] = offerKeys{number(keyStatus, status), number(keyProvider, o.Provider), number(keyGPU, gpu), number(keyRegion, o.RegionCode),
				number(keyCountry, country), number(keyResidency, zone), number(keyBilling, string(o.Billing))}
			k := string(o.Billing)
			if o.Instance != nil {
				k = o.Instance.ID() + "/" + k
			}
			g, ok := groups[k]
			if !ok {
				g = int32(len(groups))
				groups[k] = g
			}
			x.group[i] = g
			if o.Instance != nil && !seen[o.Instance.Status] {
				seen[o.Instance.Status] = true
				x.statuses = append(x.statuses, o.Instance.Status)
			}
		}
		x.groups = len(groups)
		d.offerIdx = x
	})
	return d.offerIdx
}

// warmExplorer builds what the default explorer pages read (English in
// USD, Chinese in CNY, per instance-hour): their base list, price ranks and
// (for a stored catalog) cell tables, about 50 ms of CPU a first request
// would otherwise wait for. A big catalog warms its two price orders only.
func (d *Data) warmExplorer() {
	if d.Catalog == nil || d.FX == nil {
		return
	}
	// Warming is only ahead of time: whatever fails here fails again on a
	// request, where the recoverer answers it; it must not end the process.
	defer func() { _ = recover() }()
	for _, w := range []struct {
		lang     i18n.Lang
		currency string
	}{{i18n.EN, "USD"}, {i18n.ZH, "CNY"}} {
		if !d.index().stored {
			_, _ = d.priceRanks(w.currency)
			continue
		}
		s := OfferSearch{Query: catalog.OfferQuery{Currency: w.currency, FX: d.FX}, Scale: decimal.NewFromInt(1), Unit: "instance-hour"}
		if rows, err := d.queryOffers(s.Query); err == nil {
			d.cheapestRegion(w.currency, rows)
			d.rowCells(i18n.NewPrinter(w.lang), s, w.currency, rows)
		}
	}
}

// normalised fills the defaults QueryOffers applies itself.
func (k pricedKey) normalised() pricedKey {
	if k.per == "" {
		k.per = catalog.PerInstanceHour
	}
	if k.sort == "" {
		k.sort = catalog.SortPrice
	}
	return k
}

// pricedList is every offer of the catalog priced in k's currency and unit,
// in k's order: QueryOffers without filters, once per load and key; for a
// big catalog, the offers' order alone, once per currency and sort key.
func (d *Data) pricedList(k pricedKey) (*pricedList, error) {
	x := d.index()
	k = k.normalised()
	if !x.stored {
		ords, err := x.orders.get(pricedKey{currency: k.currency, sort: k.sort}, func() ([]int32, error) {
			return d.Catalog.PriceOrder(k.currency, d.FX, k.sort)
		})
		if err != nil {
			return nil, err
		}
		return &pricedList{ords: ords, offers: x.offers, pricer: d.Catalog.Pricer(k.currency, d.FX, k.per)}, nil
	}
	return x.priced.get(k, func() (*pricedList, error) {
		rows, err := d.Catalog.QueryOffers(catalog.OfferQuery{Currency: k.currency, FX: d.FX, Per: k.per, Sort: k.sort, Statuses: x.statuses})
		if err != nil {
			return nil, err
		}
		l := &pricedList{rows: rows, ords: make([]int32, len(rows))}
		for i, r := range rows {
			l.ords[i] = x.ord[r.Offer]
		}
		return l, nil
	})
}

// queryOffers answers q as Catalog.QueryOffers does, from the base list of
// q's currency, unit and order: the filters keep a subsequence of rows
// already priced and sorted. The order is total (ties by offer ID), so a
// subsequence of the sorted whole is the sorted subset. A query the index
// cannot answer (another converter, an offer the currency cannot price)
// goes to the catalog.
func (d *Data) queryOffers(q catalog.OfferQuery) ([]catalog.OfferRow, error) {
	// The index holds the Linux offers; the catalog answers for another
	// operating system.
	if q.FX != catalog.Converter(d.FX) && q.Currency != "" || q.OS != catalog.OSLinux || q.Available {
		return d.Catalog.QueryOffers(q)
	}
	all, err := d.pricedList(pricedKey{q.Currency, q.Per, q.Sort})
	if err != nil {
		return d.Catalog.QueryOffers(q)
	}
	f := d.index().filter(&q)
	var out []catalog.OfferRow
	for i := range all.ords {
		ok, err := f.matchesAt(all, i)
		if err != nil {
			return d.Catalog.QueryOffers(q)
		}
		if !ok {
			continue
		}
		r, err := all.row(i)
		if err != nil {
			return d.Catalog.QueryOffers(q)
		}
		out = append(out, r)
		if q.Limit > 0 && len(out) == q.Limit {
			break
		}
	}
	return out, nil // nil when none match, as the catalog answers
}

// queryCheapest answers cheapestRegion(q.Currency, queryOffers(q)) without
// pricing every matching row: the choice per instance type and billing
// model is made on positions in the priced list, and only the rows kept
// are priced or copied. ok is false where queryOffers would not answer
// from the index (another FX, a limit, a list that could not be priced);
// the caller then takes the general path.
func (d *Data) queryCheapest(q catalog.OfferQuery) (rows []catalog.OfferRow, ok bool) {
	if (q.FX != catalog.Converter(d.FX) && q.Currency != "") || q.Limit > 0 || q.OS != catalog.OSLinux || q.Available {
		return nil, false
	}
	all, err := d.pricedList(pricedKey{q.Currency, q.Per, q.Sort})
	if err != nil {
		return nil, false
	}
	ranks, err := d.priceRanks(q.Currency)
	if err != nil {
		return nil, false
	}
	x := d.index()
	f := x.filter(&q)
	var pos []int32
	for i := range all.ords {
		m, err := f.matchesAt(all, i)
		if err != nil {
			return nil, false
		}
		if m {
			pos = append(pos, int32(i))
		}
	}
	pos = x.cheapestAt(all, pos, ranks)
	if len(pos) == 0 {
		return nil, true
	}
	rows = make([]catalog.OfferRow, len(pos))
	for k, i := range pos {
		if rows[k], err = all.row(int(i)); err != nil {
			return nil, false
		}
	}
	return rows, true
}

// cheapestAt keeps, of positions pos in all, the cheapest of each instance
// type and billing model by ranks (as cheapestRegion), in pos's order.
func (x *offerIndex) cheapestAt(all *pricedList, pos []int32, ranks []int32) []int32 {
	best := make([]int32, x.groups) // position in all + 1; 0: none yet
	for _, i := range pos {
		j := all.ords[i]
		g := x.group[j]
		if b := best[g]; b == 0 || ranks[j] < ranks[all.ords[b-1]] {
			best[g] = i + 1
		}
	}
	kept := pos[:0:0]
	for _, i := range pos {
		if best[x.group[all.ords[i]]] == i+1 {
			kept = append(kept, i)
		}
	}
	return kept
}

// queryFilter is QueryOffers' filter for one priced row (the equivalence
// test holds the two together). The list filters (status, provider, GPU,
// region, country, residency, billing) are decided once per distinct value
// of the catalog, then read per offer by number.
type queryFilter struct {
	q      *catalog.OfferQuery
	keys   []offerKeys
	offers []*catalog.Offer
	// allowed[f][n] is whether value n of field f passes; nil when the
	// query does not filter on f. active lists the fields filtered on.
	allowed [numKeyFields][]bool
	active  []int
	// more is set when a filter needs the offer's instance type (its ID,
	// GPU count or memory).
	more bool
}

func (x *offerIndex) filter(q *catalog.OfferQuery) *queryFilter {
	f := &queryFilter{q: q, keys: x.keys, offers: x.offers}
	statuses := q.Statuses
	if len(statuses) == 0 {
		statuses = []string{catalog.StatusCurrent, catalog.StatusPrevious}
	}
	lists := [numKeyFields][]string{statuses, q.Providers, q.GPUs, q.Regions, q.Countries, q.Residency, q.Billing}
	for k, list := range lists {
		if len(list) == 0 {
			continue
		}
		ok := make([]bool, len(x.values[k]))
		for n, v := range x.values[k] {
			if k == keyBilling {
				ok[n] = anyBilling(catalog.Billing(v), list)
			} else {
				ok[n] = inFold(list, v)
			}
		}
		f.allowed[k] = ok
		f.active = append(f.active, k)
	}
	f.more = q.InstanceID != "" || q.MinGPUs.IsPositive() || q.MinVRAMGB.IsPositive()
	return f
}

// matches reports whether row r (offer ordinal ord) passes the query.
func (f *queryFilter) matches(r *catalog.OfferRow, ord int32) bool {
	return f.matchesOffer(ord) && (!f.q.MaxPrice.IsPositive() || !r.Price.GreaterThan(f.q.MaxPrice))
}

// matchesAt reports whether the row at position i of all passes the
// query, pricing it only where the price filter needs it.
func (f *queryFilter) matchesAt(all *pricedList, i int) (bool, error) {
	if !f.matchesOffer(all.ords[i]) {
		return false, nil
	}
	if !f.q.MaxPrice.IsPositive() {
		return true, nil
	}
	r, err := all.row(i)
	if err != nil {
		return false, err
	}
	return !r.Price.GreaterThan(f.q.MaxPrice), nil
}

// matchesOffer reports whether offer ordinal ord passes every filter but
// the price.
func (f *queryFilter) matchesOffer(ord int32) bool {
	keys := &f.keys[ord]
	for _, k := range f.active {
		if !f.allowed[k][keys[k]] {
			return false
		}
	}
	if !f.more {
		return true
	}
	q := f.q
	switch it := f.offers[ord].Instance; {
	case q.InstanceID != "" && it.ID() != q.InstanceID,
		q.MinGPUs.IsPositive() && it.GPUCount.LessThan(q.MinGPUs),
		q.MinVRAMGB.IsPositive() && it.VRAMPerGPUGB().LessThan(q.MinVRAMGB):
		return false
	}
	return true
}

func inFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func anyBilling(b catalog.Billing, filters []string) bool {
	for _, f := range filters {
		if catalog.MatchBilling(b, f) {
			return true
		}
	}
	return false
}

// priceRanks orders the offers (by ordinal) by effective hourly price in
// currency: each offer's place in the base list sorted by price. Equal
// prices do not share a rank: the cheapest region of an instance type is
// then the same whatever order the rows come in (a column order, a sort),
// the one the price order puts first.
func (d *Data) priceRanks(currency string) ([]int32, error) {
	x := d.index()
	return x.ranks.get(currency, func() ([]int32, error) {
		all, err := d.pricedList(pricedKey{currency: currency, sort: catalog.SortPrice})
		if err != nil {
			return nil, err
		}
		ranks := make([]int32, len(x.ord))
		for i := range all.ords {
			ranks[all.ords[i]] = int32(i)
		}
		return ranks, nil
	})
}

// cheapestRegion is catalog.CheapestRegion for rows priced in currency:
// the cheapest row of each instance type and billing model (of equals,
// the one the price order puts first, whatever the rows' order), in the
// rows' order, comparing precomputed ranks instead of
// decimals and numbered groups instead of string keys.
func (d *Data) cheapestRegion(currency string, rows []catalog.OfferRow) []catalog.OfferRow {
	x := d.index()
	ranks, err := d.priceRanks(currency)
	if err != nil {
		return catalog.CheapestRegion(rows)
	}
	ords := make([]int32, len(rows))
	for i := range rows {
		j, ok := x.ord[rows[i].Offer]
		if !ok {
			return catalog.CheapestRegion(rows)
		}
		ords[i] = j
	}
	best := make([]int32, x.groups)
	for i := range best {
		best[i] = -1
	}
	kept := 0
	for i, j := range ords {
		g := x.group[j]
		if b := best[g]; b < 0 {
			best[g] = int32(i)
			kept++
		} else if ranks[j] < ranks[ords[b]] {
			best[g] = int32(i)
		}
	}
	var out []catalog.OfferRow
	if kept > 0 {
		out = make([]catalog.OfferRow, 0, kept)
	}
	for i, j := range ords {
		if best[x.group[j]] == int32(i) {
			out = append(out, rows[i])
		}
	}
	return out
}

// lazyCache holds values built on first use, at most max of them (the
// oldest goes first); concurrent first uses of a key build it once.
type lazyCache[K comparable, V any] struct {
	mu      sync.Mutex
	max     int
	entries map[K]*lazyEntry[V]
	order   []K
}

type lazyEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

func newLazyCache[K comparable, V any](max int) *lazyCache[K, V] {
	return &lazyCache[K, V]{max: max, entries: map[K]*lazyEntry[V]{}}
}

// get returns k's value, building it with build the first time.
func (c *lazyCache[K, V]) get(k K, build func() (V, error)) (V, error) {
	c.mu.Lock()
	e, ok := c.entries[k]
	if !ok {
		for len(c.order) >= c.max {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
		e = &lazyEntry[V]{}
		c.entries[k] = e
		c.order = append(c.order, k)
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = build() })
	return e.v, e.err
}
