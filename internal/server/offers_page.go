package server

import (
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// runPaged answers an offers search (runCounted) from the index's price
// order of its currency and sort key in one pass over the offers' positions:
// the filters keep positions, not rows; only the rows of the page are
// priced and copied, and a column order keeps the first offset+limit rows
// in a bounded heap instead of sorting every match. The total and the
// stale count are exact. ok is false where it cannot answer (another
// converter, a price order that could not be made, a column order with a
// per-provider cut, Windows offers); runAll answers those.
func (d *Data) runPaged(s OfferSearch) (rows []catalog.OfferRow, total, stale int, ok bool) {
	q := s.Query
	// The index holds the Linux offers: another operating system's are
	// the catalog's to answer (runAll).
	if (q.FX != catalog.Converter(d.FX) && q.Currency != "") || q.Limit > 0 || (s.Order != "" && s.PerProvider > 0) || q.OS != catalog.OSLinux || q.Available {
		return nil, 0, 0, false
	}
	all, err := d.pricedList(pricedKey{q.Currency, q.Per, q.Sort})
	if err != nil {
		return nil, 0, 0, false
	}
	x := d.index()
	f := x.filter(&q)
	// The price is needed per match only for the price filters.
	needPrice := q.MaxPrice.IsPositive() || s.MinPrice.IsPositive()
	specFilters, dated := s.Interconnect != "" || s.RDMA, s.freshnessFilter()
	var cutoff time.Time
	if s.MaxAgeMonths > 0 {
		cutoff = s.cutoff()
	}
	// Without a cut that needs every match (cheapest region, column
	// order, per provider), only the page's positions are kept.
	datedFirst := s.DatedFirst && s.Order == ""
	stream := !s.OneRegion && s.Order == "" && s.PerProvider <= 0 && !datedFirst
	limit := s.Limit
	if limit <= 0 || limit > maxOfferRows {
		limit = maxOfferRows
	}
	var pos []int32 // positions in all that pass every filter (the page's, when streaming)
	for i := range all.ords {
		ord := all.ords[i]
		if !f.matchesOffer(ord) {
			continue
		}
		if needPrice {
			r, err := all.row(i)
			if err != nil {
				return nil, 0, 0, false
			}
			if q.MaxPrice.IsPositive() && r.Price.GreaterThan(q.MaxPrice) || s.MinPrice.IsPositive() && r.Price.LessThan(s.MinPrice) {
				continue
			}
		}
		if specFilters { // these read the instance type: most searches skip them
			it := x.offers[ord].Instance
			if s.Interconnect != "" && !strings.Contains(strings.ToLower(it.GPUInterconnect), s.Interconnect) {
				continue
			}
			if s.RDMA && (it.RDMA == "" || strings.EqualFold(it.RDMA, "none")) {
				continue
			}
		}
		if dated && x.tooOld(&s, cutoff, ord) {
			stale++
			continue
		}
		if stream {
			if total >= s.Offset && total < s.Offset+limit {
				pos = append(pos, int32(i))
			}
			total++
			continue
		}
		pos = append(pos, int32(i))
	}
	if stream {
		if rows, ok = pricedRows(all, pos); !ok {
			return nil, 0, 0, false
		}
		return rows, total, stale, true
	}
	if s.OneRegion {
		// The cheapest region of each type is chosen by price rank,
		// whatever the order the rows are shown in.
		ranks, err := d.priceRanks(q.Currency)
		if err != nil {
			return nil, 0, 0, false
		}
		pos = x.cheapestAt(all, pos, ranks)
	}
	if s.Order != "" {
		return d.topByColumn(all, pos, s, limit, stale)
	}
	if datedFirst {
		pos = x.datedFirst(all, pos)
	}
	if s.PerProvider > 0 {
		seen := map[string]int{}
		kept := pos[:0]
		for _, i := range pos {
			p := x.offers[all.ords[i]].Provider
			if seen[p] < s.PerProvider {
				seen[p]++
				kept = append(kept, i)
			}
		}
		pos = kept
	}
	total = len(pos)
	pos = pos[min(s.Offset, len(pos)):]
	pos = pos[:min(limit, len(pos))]
	if rows, ok = pricedRows(all, pos); !ok {
		return nil, 0, 0, false
	}
	return rows, total, stale, true
}

// pricedRows prices the rows at positions pos of all.
func pricedRows(all *pricedList, pos []int32) ([]catalog.OfferRow, bool) {
	if len(pos) == 0 {
		return nil, true
	}
	rows := make([]catalog.OfferRow, len(pos))
	for k, i := range pos {
		var err error
		if rows[k], err = all.row(int(i)); err != nil {
			return nil, false
		}
	}
	return rows, true
}

// topByColumn answers a search ordered by a column (s.Order): the rows at
// positions pos, ordered by the column then offer ID, from s.Offset on,
// at most limit. Only the first offset+limit rows of the order are kept,
// in a heap whose root is the last of them.
func (d *Data) topByColumn(all *pricedList, pos []int32, s OfferSearch, limit, stale int) ([]catalog.OfferRow, int, int, bool) {
	total := len(pos)
	k := min(s.Offset+limit, total)
	if s.Offset >= total || k == 0 {
		return nil, total, stale, true
	}
	// Only the price columns compare priced rows; the others compare the
	// offers alone, and only the page's rows are priced.
	priced := s.Order == "price" || s.Order == "per_gpu" || s.Order == "upfront"
	h := &columnHeap{order: columnOrder(s.Order, s.Desc), rows: make([]catalog.OfferRow, 0, k), ords: make([]int32, 0, k), pos: make([]int32, 0, k)}
	for _, i := range pos {
		r := catalog.OfferRow{Offer: all.offerAt(int(i))}
		if priced {
			var err error
			if r, err = all.row(int(i)); err != nil {
				return nil, 0, 0, false
			}
		}
		h.add(r, all.ords[i], i, k)
	}
	sort.Sort(h)
	// The heap holds the first k rows; sorted ascending by the heap's
	// "after" order, the last row of the page comes first: reverse.
	rows := make([]catalog.OfferRow, 0, k-s.Offset)
	for j := len(h.rows) - 1 - s.Offset; j >= 0; j-- {
		r := h.rows[j]
		if !priced {
			var err error
			if r, err = all.row(int(h.pos[j])); err != nil {
				return nil, 0, 0, false
			}
		}
		rows = append(rows, r)
	}
	return rows, total, stale, true
}

// columnHeap is a bounded max-heap of rows by a column order, ties by
// offer ordinal (the catalog's offers are in offer ID order, so this is
// sortRows' tie by offer ID): its root is the row that sorts last, the
// one a better row replaces. As a sort.Interface, Less is "sorts after",
// so sorting it puts the last row first.
type columnHeap struct {
	order func(a, b *catalog.OfferRow) int
	rows  []catalog.OfferRow
	ords  []int32          // each row's offer ordinal
	pos   []int32          // each row's position in the price order it came from
	cand  catalog.OfferRow // the row being added (a field: no allocation per row)
}

func (h *columnHeap) Len() int { return len(h.rows) }

// Less reports whether row i sorts after row j.
func (h *columnHeap) Less(i, j int) bool {
	return h.after(&h.rows[i], h.ords[i], &h.rows[j], h.ords[j])
}

func (h *columnHeap) Swap(i, j int) {
	h.rows[i], h.rows[j] = h.rows[j], h.rows[i]
	h.ords[i], h.ords[j] = h.ords[j], h.ords[i]
	h.pos[i], h.pos[j] = h.pos[j], h.pos[i]
}

// after reports whether row a (offer ordinal oa) sorts after row b.
func (h *columnHeap) after(a *catalog.OfferRow, oa int32, b *catalog.OfferRow, ob int32) bool {
	if c := h.order(a, b); c != 0 {
		return c > 0
	}
	return oa > ob
}

// add offers a row (offer ordinal ord, position pos) to a heap of at
// most k rows.
func (h *columnHeap) add(r catalog.OfferRow, ord, pos int32, k int) {
	if len(h.rows) < k {
		h.rows = append(h.rows, r)
		h.ords = append(h.ords, ord)
		h.pos = append(h.pos, pos)
		for c := len(h.rows) - 1; c > 0; { // up while the parent sorts before
			p := (c - 1) / 2
			if !h.Less(c, p) {
				break
			}
			h.Swap(c, p)
			c = p
		}
		return
	}
	h.cand = r
	if !h.after(&h.rows[0], h.ords[0], &h.cand, ord) {
		return // sorts after every row kept
	}
	h.rows[0], h.ords[0], h.pos[0] = r, ord, pos
	for c := 0; ; { // down while a child sorts after
		w := c
		if l := 2*c + 1; l < len(h.rows) && h.Less(l, w) {
			w = l
		}
		if r := 2*c + 2; r < len(h.rows) && h.Less(r, w) {
			w = r
		}
		if w == c {
			return
		}
		h.Swap(c, w)
		c = w
	}
}
