package server

import (
	"strings"
	"sync"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// offerIndex is what the offers explorer and the offers API derive from a
// data load once instead of on every request: every offer priced and
// sorted per currency, unit and sort key (the catalog's own QueryOffers
// over the whole catalog), and every offer's display cells per language,
// currency and unit. It lives on Data, so a reload starts a fresh one;
// both caches are bounded.
type offerIndex struct {
	// ord numbers the offers (their position in Catalog.Offers()).
	ord map[*catalog.Offer]int32
	// statuses are every instance status the catalog holds: the base
	// lists take every offer, the filters then apply the query's.
	statuses []string
	// group numbers each offer's instance type and billing model (by
	// ordinal): the offers CheapestRegion chooses among.
	group  []int32
	groups int
	priced *lazyCache[pricedKey, []catalog.OfferRow]
	// ranks orders the offers (by ordinal) by effective hourly price in a
	// currency, equal prices sharing a rank.
	ranks *lazyCache[string, []int32]
	cells *lazyCache[cellsKey, []*offerCells]
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
		x := &offerIndex{ord: make(map[*catalog.Offer]int32, len(offers)),
			group:  make([]int32, len(offers)),
			priced: newLazyCache[pricedKey, []catalog.OfferRow](maxPricedLists),
			ranks:  newLazyCache[string, []int32](maxPricedLists),
			cells:  newLazyCache[cellsKey, []*offerCells](maxCellTables)}
		seen := map[string]bool{}
		groups := map[string]int32{}
		for i, o := range offers {
			x.ord[o] = int32(i)
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
// cell tables, about 50 ms of CPU a first request would otherwise wait for.
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
// in k's order: QueryOffers without filters, once per load and key.
func (d *Data) pricedList(k pricedKey) ([]catalog.OfferRow, error) {
	x := d.index()
	k = k.normalised()
	return x.priced.get(k, func() ([]catalog.OfferRow, error) {
		return d.Catalog.QueryOffers(catalog.OfferQuery{Currency: k.currency, FX: d.FX, Per: k.per, Sort: k.sort, Statuses: x.statuses})
	})
}

// queryOffers answers q as Catalog.QueryOffers does, from the base list of
// q's currency, unit and order: the filters keep a subsequence of rows
// already priced and sorted. The order is total (ties by offer ID), so a
// subsequence of the sorted whole is the sorted subset. A query the index
// cannot answer (another converter, an offer the currency cannot price)
// goes to the catalog.
func (d *Data) queryOffers(q catalog.OfferQuery) ([]catalog.OfferRow, error) {
	if q.FX != catalog.Converter(d.FX) && q.Currency != "" {
		return d.Catalog.QueryOffers(q)
	}
	all, err := d.pricedList(pricedKey{q.Currency, q.Per, q.Sort})
	if err != nil {
		return d.Catalog.QueryOffers(q)
	}
	f := newQueryFilter(&q)
	var kept []int32 // positions first: the rows are copied once, into a slice of their size
	for i := range all {
		if f.matches(&all[i]) {
			kept = append(kept, int32(i))
			if q.Limit > 0 && len(kept) == q.Limit {
				break
			}
		}
	}
	if len(kept) == 0 {
		return nil, nil // as the catalog answers
	}
	out := make([]catalog.OfferRow, len(kept))
	for i, j := range kept {
		out[i] = all[j]
	}
	return out, nil
}

// queryFilter is QueryOffers' filter for one priced row (the equivalence
// test holds the two together). Its lists remember each value they were
// asked about: a catalog has far fewer GPUs, regions and providers than
// offers.
type queryFilter struct {
	q                                                    *catalog.OfferQuery
	statuses, providers, gpus, regions, countries, zones foldSet
}

func newQueryFilter(q *catalog.OfferQuery) *queryFilter {
	statuses := q.Statuses
	if len(statuses) == 0 {
		statuses = []string{catalog.StatusCurrent, catalog.StatusPrevious}
	}
	return &queryFilter{q: q, statuses: foldSet{list: statuses}, providers: foldSet{list: q.Providers}, gpus: foldSet{list: q.GPUs},
		regions: foldSet{list: q.Regions}, countries: foldSet{list: q.Countries}, zones: foldSet{list: q.Residency}}
}

func (f *queryFilter) matches(r *catalog.OfferRow) bool {
	q, o := f.q, r.Offer
	it := o.Instance
	switch {
	case q.InstanceID != "" && it.ID() != q.InstanceID,
		len(q.Providers) > 0 && !f.providers.has(o.Provider),
		len(q.GPUs) > 0 && !f.gpus.has(it.GPUID),
		!f.statuses.has(it.Status),
		q.MinGPUs.IsPositive() && it.GPUCount.LessThan(q.MinGPUs),
		q.MinVRAMGB.IsPositive() && it.GPU.MemoryGB.LessThan(q.MinVRAMGB),
		len(q.Regions) > 0 && !f.regions.has(o.RegionCode),
		len(q.Countries) > 0 && !f.countries.has(o.Region.Country),
		len(q.Residency) > 0 && !f.zones.has(o.Region.Residency),
		len(q.Billing) > 0 && !anyBilling(o.Billing, q.Billing),
		q.MaxPrice.IsPositive() && r.Price.GreaterThan(q.MaxPrice):
		return false
	}
	return true
}

// foldSet answers whether a list holds a string, ignoring case, and
// remembers the answers for lists longer than a couple of entries.
type foldSet struct {
	list []string
	memo map[string]bool
}

func (f *foldSet) has(s string) bool {
	if len(f.list) <= 2 {
		return inFold(f.list, s)
	}
	if v, ok := f.memo[s]; ok {
		return v
	}
	v := inFold(f.list, s)
	if f.memo == nil {
		f.memo = map[string]bool{}
	}
	f.memo[s] = v
	return v
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
// currency: the base list sorted by price, equal prices sharing a rank.
func (d *Data) priceRanks(currency string) ([]int32, error) {
	x := d.index()
	return x.ranks.get(currency, func() ([]int32, error) {
		all, err := d.pricedList(pricedKey{currency: currency, sort: catalog.SortPrice})
		if err != nil {
			return nil, err
		}
		ranks := make([]int32, len(x.ord))
		var rank int32
		for i := range all {
			if i > 0 && !all[i].EffectiveHourly.Equal(all[i-1].EffectiveHourly) {
				rank++
			}
			ranks[x.ord[all[i].Offer]] = rank
		}
		return ranks, nil
	})
}

// cheapestRegion is catalog.CheapestRegion for rows priced in currency:
// the cheapest row of each instance type and billing model (the first of
// equals), in the rows' order, comparing precomputed ranks instead of
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
