package server

import (
	"net/url"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

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

// explorerUnits are the explorer's price units, in the order of a row's
// unitPrices.
var explorerUnits = []string{"instance-hour", "gpu-hour", "day", "month", "year"}

var (
	dec24   = decimal.NewFromInt(24)
	dec730  = decimal.NewFromInt(catalog.HoursPerMonth)
	dec8760 = decimal.NewFromInt(catalog.HoursPerYear)
)

// unitPrices is a row's price in each of explorerUnits, formatted as the
// price cell of a page in that unit (per=…) formats it, joined by "|":
// the script switches the unit without asking the server, and shows the
// server's own figures.
func unitPrices(row catalog.OfferRow) string {
	eh := row.EffectiveHourly
	return money(eh) + "|" + money(row.PerGPUHourly) + "|" + money(eh.Mul(dec24)) + "|" + money(eh.Mul(dec730)) + "|" + money(eh.Mul(dec8760))
}

// unitLabels names the price column of each unit in currency.
func unitLabels(p *i18n.Printer, currency string) map[string]string {
	out := make(map[string]string, len(explorerUnits))
	for _, u := range explorerUnits {
		out[u] = p.T("web.unit."+u, currency)
	}
	return out
}

// filterParams are the explorer's filter form's fields.
var filterParams = []string{"gpu", "provider", "billing", "residency", "min_gpus", "min_vram", "interconnect", "rdma", "region", "country", "min_price", "max_price"}

// filtersAsked reports whether the URL filters the explorer's rows: the
// filter form then starts open, so the filters in force are seen.
func filtersAsked(q url.Values) bool {
	for _, k := range filterParams {
		if q.Get(k) != "" {
			return true
		}
	}
	return false
}
