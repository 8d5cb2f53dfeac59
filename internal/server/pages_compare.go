package server

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
)

// moneyColumn formats the amounts of one table column alike: the same
// decimals for every cell (four when the smallest is under 1, three under
// 100, else two) and thousands separators, so the column lines up. A nil
// amount is shown as "–".
func moneyColumn(vals []*decimal.Decimal) []string {
	dec := int32(2)
	for _, v := range vals {
		if v == nil || v.IsZero() {
			continue
		}
		switch a := v.Abs(); {
		case a.LessThan(decimal.NewFromInt(1)):
			dec = max(dec, 4)
		case a.LessThan(decimal.NewFromInt(100)):
			dec = max(dec, 3)
		}
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		if v == nil {
			out[i] = "–"
			continue
		}
		s := v.StringFixed(dec)
		whole, frac, _ := strings.Cut(s, ".")
		out[i] = output.Thousands(whole)
		if frac != "" {
			out[i] += "." + frac
		}
	}
	return out
}

// specCol is one ticked offer of the comparison's specifications table.
type specCol struct {
	ID, Title, InstanceURL string
}

// specRowView is one line of the specifications table: a label and a cell
// per ticked offer; Chosen marks the cells of each offer's own billing.
type specRowView struct {
	Label  string
	Cells  []string
	Chosen []bool
	Num    bool
	// Price marks the rows of prices by billing model; First the first.
	Price, First bool
}

// specsView is the spec-by-spec table of the ticked offers.
type specsView struct {
	Cols []specCol
	Rows []specRowView
	// PriceHead heads the prices by billing model; Span is the table's
	// number of columns.
	PriceHead string
	Span      int
}

// billingOrder ranks billing models for the table: on-demand first, then
// spot, then commitments by family and term.
func billingOrder(code string) string {
	for i, f := range []string{"on-demand", "spot", "flex-start", "capacity-block", "savings-plan", "reserved", "committed", "subscription"} {
		if code == f || strings.HasPrefix(code, f+"-") {
			return string(rune('a'+i)) + code
		}
	}
	return "z" + code
}

// compareSpecs builds the specifications table of the ticked offers: the
// instance's GPU, memory, vCPU, RAM, interconnect, fabric and network,
// and its price under every billing model the catalog has in the same
// region (the ticked one marked), in the page's currency.
func compareSpecs(d *Data, v view, ids []string) *specsView {
	p := v.P
	zh := p.Lang() == i18n.ZH
	names := providerNames(d, p)
	type col struct {
		o      *catalog.Offer
		prices map[string]decimal.Decimal
	}
	var cols []col
	billings := map[string]bool{}
	for _, id := range ids {
		o, ok := d.Catalog.Offer(id)
		if !ok || o.Instance == nil {
			continue
		}
		rows, err := d.Catalog.QueryOffers(catalog.OfferQuery{Currency: v.Currency, FX: d.FX, Providers: []string{o.Provider},
			Regions: []string{o.RegionCode}, Statuses: []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}})
		if err != nil {
			continue
		}
		c := col{o: o, prices: map[string]decimal.Decimal{}}
		for _, r := range rows {
			if r.Offer.InstanceName == o.InstanceName {
				c.prices[string(r.Offer.Billing)] = r.EffectiveHourly
				billings[string(r.Offer.Billing)] = true
			}
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		return nil
	}
	sv := &specsView{PriceHead: p.T("web.compare.prices", v.Currency), Span: len(cols) + 1}
	row := func(label string, num bool, cell func(c col) string) {
		r := specRowView{Label: label, Num: num, Chosen: make([]bool, len(cols))}
		for _, c := range cols {
			r.Cells = append(r.Cells, cell(c))
		}
		sv.Rows = append(sv.Rows, r)
	}
	for i, c := range cols {
		sv.Cols = append(sv.Cols, specCol{ID: c.o.ID(), Title: planNumber(i) + " " + c.o.InstanceName,
			InstanceURL: "/instances/" + c.o.Provider + "/" + c.o.InstanceName})
	}
	row(p.T("web.col.provider"), false, func(c col) string { return names[c.o.Provider] })
	row(p.T("web.col.gpu"), false, func(c col) string { return num(c.o.Instance.GPUCount) + "× " + c.o.Instance.GPUID })
	row(p.T("web.col.vram"), true, func(c col) string { return num(c.o.Instance.GPUMemoryGB) })
	row(p.T("web.col.vcpu"), true, func(c col) string { return optNum(c.o.Instance.VCPU) })
	row(p.T("web.col.ram"), true, func(c col) string { return optNum(c.o.Instance.MemoryGiB) })
	row(p.T("web.col.interconnect"), false, func(c col) string {
		s := fabricName(p, c.o.Instance.GPUInterconnect)
		if gbs := c.o.Instance.GPUInterconnectGBs; gbs.IsPositive() {
			s += " · " + num(gbs) + " GB/s"
		}
		return s
	})
	row(p.T("web.col.rdma"), false, func(c col) string { return fabricName(p, c.o.Instance.RDMA) })
	row(p.T("web.col.network"), true, func(c col) string { return optNum(c.o.Instance.NetworkGbps) })
	row(p.T("web.col.region"), false, func(c col) string {
		if reg, ok := d.Catalog.Region(c.o.Provider, c.o.RegionCode); ok {
			name := reg.NameEN
			if zh && reg.NameZH != "" {
				name = reg.NameZH
			}
			return c.o.RegionCode + " · " + name
		}
		return c.o.RegionCode
	})
	row(p.T("web.col.source"), false, func(c col) string {
		return p.Or("source."+string(c.o.Source.Kind), string(c.o.Source.Kind))
	})
	row(p.T("web.col.as_of"), false, func(c col) string { return p.SourceDate(c.o.Source.AsOfString(), c.o.Source.ReadOnString()) })
	codes := make([]string, 0, len(billings))
	for b := range billings {
		codes = append(codes, b)
	}
	sort.Slice(codes, func(i, j int) bool { return billingOrder(codes[i]) < billingOrder(codes[j]) })
	// Prices are one column per offer: each column's amounts alike.
	perCol := make([][]string, len(cols))
	for i, c := range cols {
		vals := make([]*decimal.Decimal, len(codes))
		for j, b := range codes {
			if x, ok := c.prices[b]; ok {
				vals[j] = &x
			}
		}
		perCol[i] = moneyColumn(vals)
	}
	for j, b := range codes {
		r := specRowView{Label: p.BillingCode(b), Num: true, Chosen: make([]bool, len(cols)), Price: true, First: j == 0}
		for i, c := range cols {
			r.Cells = append(r.Cells, perCol[i][j])
			r.Chosen[i] = string(c.o.Billing) == b
		}
		sv.Rows = append(sv.Rows, r)
	}
	return sv
}

// optNum is a positive quantity, or "–" when the source has none.
func optNum(d decimal.Decimal) string {
	if !d.IsPositive() {
		return "–"
	}
	return num(d)
}

// planNumber is a plan's number as the compare page shows it on cards,
// table heads and chart labels (1., 2., …), so a truncated label stays
// distinct.
func planNumber(i int) string { return output.Qty(decimal.NewFromInt(int64(i+1))) + "." }
