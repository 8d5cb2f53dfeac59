package server

import (
	"html"
	"html/template"
	"net/url"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
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
func unitPrices(row catalog.OfferRow, currency string) string {
	eh := row.EffectiveHourly
	hour, long := output.PriceDecimals(true, currency), output.PriceDecimals(false, currency)
	return output.FixedMoney(eh, hour) + "|" + output.FixedMoney(row.PerGPUHourly, hour) + "|" + output.FixedMoney(eh.Mul(dec24), long) + "|" +
		output.FixedMoney(eh.Mul(dec730), long) + "|" + output.FixedMoney(eh.Mul(dec8760), long)
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

// explorerTerms are the explorer's price terms (term=…): each instance
// row priced on-demand, spot, or on the cheapest 1- or 3-year commitment
// (reserved instance, savings plan, committed use, 包年包月 subscription);
// "" lists every billing model as rows.
var explorerTerms = []string{"", "on-demand", "spot", "1y", "3y"}

// termMatches reports whether an offer billed as b is priced on term.
func termMatches(term string, b catalog.Billing) bool {
	switch term {
	case "on-demand":
		return b == catalog.OnDemand
	case "spot":
		return b == catalog.Spot
	case "1y":
		return b.IsCommitment() && b.TermHours() == catalog.HoursPerYear
	case "3y":
		return b.IsCommitment() && b.TermHours() == catalog.HoursPer3Year
	}
	return true
}

// parseTerm reads the explorer's term parameter.
func parseTerm(q url.Values) (string, error) {
	t := q.Get("term")
	for _, v := range explorerTerms {
		if t == v {
			return t, nil
		}
	}
	return "", badRequest("term", "on-demand, spot, 1y or 3y", "unknown price term %q", t)
}

// byTerm turns rows (every billing model) into one row per instance type
// (and region, when every region is shown): its cheapest offer on term,
// in the rows' order, then the types without one, each as the first of
// its rows with missing set. Rows come in the search's order, so the
// first offer of a type on term is its cheapest (in its cheapest region).
func byTerm(rows []catalog.OfferRow, term string, oneRegion bool) (out []catalog.OfferRow, missing []bool) {
	type group struct {
		first, chosen int
	}
	key := func(r *catalog.OfferRow) string {
		k := r.Offer.Provider + "\x00" + r.Offer.Instance.Name
		if !oneRegion {
			k += "\x00" + r.Offer.RegionCode
		}
		return k
	}
	at := map[string]int{}
	var groups []group
	for i := range rows {
		k := key(&rows[i])
		g, ok := at[k]
		if !ok {
			g = len(groups)
			at[k] = g
			groups = append(groups, group{first: i, chosen: -1})
		}
		if groups[g].chosen < 0 && termMatches(term, rows[i].Offer.Billing) {
			groups[g].chosen = i
		}
	}
	chosen := make([]int, 0, len(groups))
	for _, g := range groups {
		if g.chosen >= 0 {
			chosen = append(chosen, g.chosen)
		}
	}
	sort.Ints(chosen) // the rows' order
	out = make([]catalog.OfferRow, 0, len(groups))
	missing = make([]bool, 0, len(groups))
	for _, i := range chosen {
		out = append(out, rows[i])
		missing = append(missing, false)
	}
	for _, g := range groups {
		if g.chosen < 0 {
			out = append(out, rows[g.first])
			missing = append(missing, true)
		}
	}
	return out, missing
}

// noneCells are the cells of an instance row without a price on the
// term chosen: c's instance cells, "—" for its price with a title saying
// none is published, no offer, billing, source or date (and no region in
// the cheapest-region view, whose region depends on the term).
func noneCells(c *offerCells, title string, keepRegion bool) *offerCells {
	rv := c.view
	rv.ID, rv.Billing, rv.BillingLabel, rv.Price, rv.PerGPU, rv.Upfront = "", "", "—", "—", "—", ""
	rv.Source, rv.SourceRef, rv.AsOf = "", "", ""
	if !keepRegion {
		rv.Region = "—"
	}
	n := &offerCells{view: rv, head: `<tr data-offer="" data-none><td></td>`, html: append([]string(nil), c.html...)}
	esc := html.EscapeString
	for i, col := range allColumns {
		switch col.key {
		case "price":
			n.html[i] = `<span title="` + esc(title) + `">—</span>`
		case "per_gpu", "billing":
			n.html[i] = "—"
		case "upfront", "source", "as_of":
			n.html[i] = ""
		case "region":
			n.html[i] = esc(rv.Region)
		}
	}
	n.json = rowJSON([]string{"", rv.ProviderName, rv.Provider, rv.Instance, rv.GPUs + "× " + rv.GPU, rv.GPUs, rv.VRAM, rv.VCPU, rv.RAM, rv.Interconnect, rv.Network,
		rv.RDMA, rv.Region, rv.BillingLabel, rv.Price, rv.PerGPU, "", "", "", rv.GPU, "", "", "", "", "", "—|—|—|—|—", "", title, ""})
	return n
}

// priceSwitches renders the explorer toolbar's price term links (the
// page's view with each term) and its price unit select (a field of the
// filter form, with each unit's column label for the script), escaped as
// html/template escapes.
func priceSwitches(p *i18n.Printer, q url.Values, term, currency string, per options) template.HTML {
	var b strings.Builder
	b.WriteString(`<span class="xterm" role="group" aria-label="` + tmplEscape(p.T("web.x.term")) + `" title="` + tmplEscape(p.T("web.x.term.hint")) + `">` + tmplEscape(p.T("web.x.term")) + `:`)
	for _, t := range explorerTerms {
		u := cloneValues(q)
		u.Del("page")
		label := p.T("web.x.term.any")
		if t == "" {
			u.Del("term")
		} else {
			u.Set("term", t)
			label = p.T("web.x.term." + t)
		}
		b.WriteString(` <a href="` + tmplEscape("/offers?"+u.Encode()) + `" data-set="term=` + t + `"`)
		if t == term {
			b.WriteString(` aria-current="true"`)
		}
		b.WriteString(`>` + tmplEscape(label) + `</a>`)
	}
	b.WriteString(`</span>` + "\n" + `<label class="xper">` + tmplEscape(p.T("web.f.per")) + ` <select name="per" form="offers-filters" data-price-unit data-unit-labels="{`)
	for i, u := range explorerUnits {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(tmplEscape(string(appendJSONString(nil, u)) + ":" + string(appendJSONString(nil, p.T("web.unit."+u, currency)))))
	}
	b.WriteString(`}">`)
	b.WriteString(string(per.HTML()))
	b.WriteString(`</select></label>`)
	return template.HTML(b.String())
}
