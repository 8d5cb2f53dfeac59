package server

import "github.com/gpuscout/gpuscout/internal/catalog"

// datedFirst puts the rows whose source shows a date before the undated
// ones, each part in its order: the explorer's default order leads with
// prices a user can quote (issue 36). It returns the new order and the
// number of undated rows; rows is not changed.
func datedFirst(rows []catalog.OfferRow) ([]catalog.OfferRow, int) {
	undated := 0
	for i := range rows {
		if rows[i].Offer.Source.Undated() {
			undated++
		}
	}
	if undated == 0 || undated == len(rows) {
		return rows, undated
	}
	out := make([]catalog.OfferRow, 0, len(rows))
	for i := range rows {
		if !rows[i].Offer.Source.Undated() {
			out = append(out, rows[i])
		}
	}
	for i := range rows {
		if rows[i].Offer.Source.Undated() {
			out = append(out, rows[i])
		}
	}
	return out, undated
}

// datedFirst is positions pos of all with the dated offers' first, each
// part in its order.
func (x *offerIndex) datedFirst(all *pricedList, pos []int32) []int32 {
	out := make([]int32, 0, len(pos))
	for _, i := range pos {
		if !x.undated[all.ords[i]] {
			out = append(out, i)
		}
	}
	for _, i := range pos {
		if x.undated[all.ords[i]] {
			out = append(out, i)
		}
	}
	return out
}
