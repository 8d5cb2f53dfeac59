package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// providerCol is one provider column of the ecosystem matrix.
type providerCol struct {
	ID, Name string
	Regions  int
}

// factView is one fact in a matrix cell: its key, its value in the page
// language and its source (shown as a tooltip).
type factView struct {
	Key, Value, Source string
}

// providerRow is one category of the matrix: a cell per provider.
type providerRow struct {
	Category, Label string
	Cells           [][]factView
}

type providersPage struct {
	Providers []providerCol
	Rows      []providerRow
	APIURL    string
}

// msgOr translates key, or falls back to def when the key has no message.
func msgOr(p *i18n.Printer, key, def string) string {
	if s := p.T(key); s != key {
		return s
	}
	return def
}

func factSourceTitle(p *i18n.Printer, s document.Source) string {
	return s.Kind + " · " + s.Ref + " · " + s.Date(p)
}

func (s *Server) pageProviders(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "providers")
	zh := v.Lang == string(i18n.ZH)
	page := &providersPage{APIURL: "/api/v1/providers"}
	v.Page = page
	regions := map[string]int{}
	for _, reg := range d.Catalog.Regions() {
		regions[reg.Provider]++
	}
	col := map[string]int{}
	for i, pr := range d.Catalog.Providers() {
		name := pr.NameEN
		if zh && pr.NameZH != "" {
			name = pr.NameZH
		}
		col[pr.ID] = i
		page.Providers = append(page.Providers, providerCol{ID: pr.ID, Name: name, Regions: regions[pr.ID]})
	}
	doc := document.BuildProviders(d.Catalog.Ecosystem(), "")
	row := map[string]int{}
	for _, cat := range document.EcosystemCategories(d.Catalog.Ecosystem()) {
		row[cat] = len(page.Rows)
		page.Rows = append(page.Rows, providerRow{Category: cat, Label: msgOr(v.P, "web.providers.cat."+cat, cat),
			Cells: make([][]factView, len(page.Providers))})
	}
	for _, f := range doc.Facts {
		c, ok := col[f.Provider]
		if !ok {
			continue
		}
		val := f.Value
		if zh && f.ValueZH != "" {
			val = f.ValueZH
		}
		cells := page.Rows[row[f.Category]].Cells
		cells[c] = append(cells[c], factView{Key: f.Key, Value: val, Source: factSourceTitle(v.P, f.Source)})
	}
	s.render(w, r, http.StatusOK, "providers", v)
}

// specRow is one line of a specifications list.
type specRow struct {
	Label, Value, Title string
}

// priceRowView is one price of the instance page's table.
type priceRowView struct {
	ID, Region, RegionName, Country, Billing, BillingLabel string
	Hourly, Upfront, Monthly, Effective, PerGPU            string
	Source, SourceRef, AsOf, Freshness                     string
}

// estimateView is one benchmark estimate.
type estimateView struct {
	Benchmark, Class, Precision, Value, Low, High, PerGPU, Unit, Confidence, Fits, Assumptions string
	// NoFit: the model does not fit in the instance's GPU memory.
	NoFit bool
}

type instancePage struct {
	Doc       *document.InstanceDetail
	Provider  string
	Name      string
	GPU       string
	Specs     []specRow
	GPUSpecs  []specRow
	Prices    []priceRowView
	Estimates []estimateView
	PriceUnit string
	Chart     map[string]any
	APIURL    string
	// History is the price-history chart (imported snapshots); HistoryNote
	// says why there is none.
	History     map[string]any
	HistoryNote string
	HistoryNoDB bool
}

// historyOffers is how many of an instance's offers the history chart
// draws (its on-demand and spot prices, cheapest region first).
const historyOffers = 6

// historyChart is an ECharts option: the effective hourly price of the
// instance's on-demand and spot offers at each imported snapshot, from the
// server's price history (a database of imports). Offers with fewer than
// two points are left out; every point is converted to the page's currency.
func (s *Server) historyChart(r *http.Request, v view, doc *document.InstanceDetail) (map[string]any, string) {
	src := s.historySource()
	if src == nil {
		return nil, v.P.T("web.history.none_db")
	}
	type series struct {
		name string
		pts  map[string]float64
	}
	var all []series
	dates := map[string]bool{}
	// Every point is drawn in the page's currency (a point that cannot be
	// converted is left out), so an EUR or CNY page has no USD chart.
	cur := v.Currency
	table := s.Data().FX
	for _, o := range doc.Offers {
		if len(all) == historyOffers {
			break
		}
		if o.Billing != "on-demand" && o.Billing != "spot" {
			continue
		}
		h, err := src.PriceHistory(r.Context(), o.ID)
		if err != nil || len(h.Points) < 2 {
			continue
		}
		se := series{name: o.Region + " · " + v.P.BillingCode(o.Billing), pts: map[string]float64{}}
		for _, p := range h.Points {
			amount, err := decimal.NewFromString(string(p.Effective))
			if err != nil {
				continue
			}
			if p.Currency != cur {
				if table == nil {
					continue
				}
				if amount, err = table.Convert(amount, p.Currency, cur); err != nil {
					continue
				}
			}
			day := p.AsOf
			if day == "" {
				day = p.ReadOn // undated: plotted on the day it was read
			}
			if len(p.FetchedAt) >= 10 {
				day = p.FetchedAt[:10]
			}
			f, _ := amount.Round(4).Float64()
			se.pts[day] = f
			dates[day] = true
		}
		if len(se.pts) >= 2 {
			all = append(all, se)
		}
	}
	if len(all) == 0 {
		return nil, v.P.T("web.history.none")
	}
	var days []string
	for d := range dates {
		days = append(days, d)
	}
	sort.Strings(days)
	var out []any
	var names []string
	for _, se := range all {
		data := make([]any, len(days))
		for i, d := range days {
			if f, ok := se.pts[d]; ok {
				data[i] = f
			} else {
				data[i] = nil
			}
		}
		names = append(names, se.name)
		out = append(out, map[string]any{"name": se.name, "type": "line", "data": data, "connectNulls": true, "step": "end"})
	}
	return map[string]any{
		"title":    map[string]any{"text": v.P.T("web.history.chart", cur), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip":  map[string]any{"trigger": "axis"},
		"legend":   map[string]any{"data": names, "bottom": 0, "type": "plain"},
		"grid":     map[string]any{"left": 8, "right": 40, "top": 40, "bottom": 56, "containLabel": true},
		"xAxis":    map[string]any{"type": "category", "data": days},
		"yAxis":    map[string]any{"type": "value", "name": cur, "scale": true},
		"series":   out,
		"gpuscout": map[string]any{"currency": cur, "decimals": 2},
	}, ""
}

func (s *Server) pageInstance(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "instance")
	it, err := d.lookupInstance(r.PathValue("provider"), r.PathValue("name"))
	if err == nil {
		var doc *document.InstanceDetail
		if doc, err = d.instanceDoc(it, v.Currency); err == nil {
			s.renderInstance(w, r, v, d, it, doc)
			return
		}
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		s.writeError(w, r, err)
		return
	}
	v.Error = ae
	s.render(w, r, ae.Status, "notfound", v)
}

func (s *Server) renderInstance(w http.ResponseWriter, r *http.Request, v view, d *Data, it *catalog.InstanceType, doc *document.InstanceDetail) {
	p := v.P
	zh := v.Lang == string(i18n.ZH)
	pr, _ := d.Catalog.Provider(it.Provider)
	provName := it.Provider
	if pr != nil {
		provName = pr.NameEN
		if zh && pr.NameZH != "" {
			provName = pr.NameZH
		}
	}
	v.Title = it.Name + " · " + p.T("web.nav.instance")
	q := url.Values{"currency": {v.Currency}}
	page := &instancePage{Doc: doc, Provider: provName, Name: it.Name, GPU: it.GPUID, PriceUnit: p.T("web.unit.instance-hour", v.Currency),
		APIURL: "/api/v1/instances/" + url.PathEscape(it.Provider) + "/" + url.PathEscape(it.Name) + "?" + q.Encode()}
	v.Page = page
	opt := func(s string) string {
		if s == "" {
			return "–"
		}
		return s
	}
	in := doc.Instance
	page.Specs = []specRow{
		{Label: p.T("web.col.provider"), Value: provName},
		{Label: p.T("web.instance.family"), Value: opt(in.Family)},
		{Label: p.T("web.col.gpu"), Value: fmt.Sprintf("%s× %s", in.GPU.Count, in.GPU.Model)},
		{Label: p.T("web.col.vram"), Value: in.GPU.TotalMemoryGB.String()},
		{Label: p.T("web.col.vcpu"), Value: in.VCPU.String()},
		{Label: p.T("web.col.ram"), Value: in.MemoryGiB.String()},
		{Label: p.T("web.col.interconnect"), Value: fabricName(p, in.Interconnect)},
		{Label: p.T("web.col.network"), Value: opt(optNumStr(in.NetworkGbps))},
		{Label: p.T("web.col.rdma"), Value: fabricName(p, in.RDMA)},
		{Label: p.T("web.instance.storage"), Value: p.Term(opt(in.LocalStorage))},
		{Label: p.T("web.instance.status"), Value: msgOr(p, "web.instance.status."+in.Status, in.Status)},
		{Label: p.T("web.col.source"), Value: p.Or("source."+in.Source.Kind, in.Source.Kind) + " · " + in.Source.Date(p), Title: in.Source.Ref},
	}
	g := doc.GPU
	page.GPUSpecs = []specRow{
		{Label: p.T("web.col.gpu"), Value: g.ID},
		{Label: p.T("web.col.vendor"), Value: opt(g.Vendor)},
		{Label: p.T("web.col.arch"), Value: opt(g.Architecture)},
		{Label: p.T("web.col.memory"), Value: strings.TrimSpace(g.MemoryGB.String() + " " + g.MemoryType)},
		{Label: p.T("web.col.bandwidth"), Value: opt(optNumStr(g.BandwidthGBs))},
		{Label: "FP32 TFLOPS", Value: opt(optNumStr(g.FP32TFLOPS))},
		{Label: "TF32 TFLOPS", Value: opt(optNumStr(g.TF32TFLOPS))},
		{Label: "FP16/BF16 TFLOPS", Value: opt(optNumStr(g.FP16TFLOPS))},
		{Label: "FP8 TFLOPS", Value: opt(optNumStr(g.FP8TFLOPS))},
		{Label: "INT8 TOPS", Value: opt(optNumStr(g.INT8TOPS))},
		{Label: p.T("web.col.tdp"), Value: opt(optNumStr(g.TDPW))},
		{Label: p.T("web.col.source"), Value: p.Or("source."+g.Source.Kind, g.Source.Kind) + " · " + g.Source.Date(p), Title: g.Source.Ref},
	}
	now := s.cfg.Now()
	// The offers document's rows carry no catalog pointers: re-read them for
	// region names and freshness.
	for _, o := range doc.Offers {
		pv := priceRowView{ID: o.ID, Region: o.Region, Country: o.Country, Billing: o.Billing,
			Hourly: money(numDec(o.Price.Hourly)), Effective: money(numDec(o.Price.EffectiveHourly)), PerGPU: money(numDec(o.Price.PerGPUHourly)),
			Source: p.Or("source."+o.Source.Kind, o.Source.Kind), SourceRef: o.Source.Ref, AsOf: o.Source.Date(p)}
		if !numDec(o.Price.Hourly).IsPositive() {
			pv.Hourly = "–" // billed by the month or the term, not by the hour
		}
		if up := numDec(o.Price.Upfront); up.IsPositive() {
			pv.Upfront = money(up)
		}
		if mo := numDec(o.Price.Monthly); mo.IsPositive() {
			pv.Monthly = money(mo)
		}
		b := catalog.Billing(o.Billing)
		pv.BillingLabel = p.Billing(o.Billing, b.Family())
		if reg, ok := d.Catalog.Region(o.Provider, o.Region); ok {
			pv.RegionName = reg.NameEN
			if zh && reg.NameZH != "" {
				pv.RegionName = reg.NameZH
			}
		}
		if off, ok := d.Catalog.Offer(o.ID); ok {
			pv.Freshness = freshness(now, off.Source)
		}
		page.Prices = append(page.Prices, pv)
	}
	// Each money column alike: the same decimals and thousands separators
	// in every row ("–" where a row has no such price).
	for _, col := range []struct {
		cell  func(pv *priceRowView) *string
		value func(i int) decimal.Decimal
	}{
		{func(pv *priceRowView) *string { return &pv.Hourly }, func(i int) decimal.Decimal { return numDec(doc.Offers[i].Price.Hourly) }},
		{func(pv *priceRowView) *string { return &pv.Upfront }, func(i int) decimal.Decimal { return numDec(doc.Offers[i].Price.Upfront) }},
		{func(pv *priceRowView) *string { return &pv.Monthly }, func(i int) decimal.Decimal { return numDec(doc.Offers[i].Price.Monthly) }},
		{func(pv *priceRowView) *string { return &pv.Effective }, func(i int) decimal.Decimal { return numDec(doc.Offers[i].Price.EffectiveHourly) }},
		{func(pv *priceRowView) *string { return &pv.PerGPU }, func(i int) decimal.Decimal { return numDec(doc.Offers[i].Price.PerGPUHourly) }},
	} {
		vals := make([]*decimal.Decimal, len(page.Prices))
		for i := range page.Prices {
			if *col.cell(&page.Prices[i]) == "" || *col.cell(&page.Prices[i]) == "–" {
				continue // none: shown as the template shows it
			}
			x := col.value(i)
			vals[i] = &x
		}
		for i, s := range moneyColumn(vals) {
			if vals[i] != nil {
				*col.cell(&page.Prices[i]) = s
			}
		}
	}
	for _, e := range doc.Estimates {
		ev := estimateView{Benchmark: e.Benchmark, Class: p.Or("web.class."+e.Class, e.Class), Precision: e.Precision, Value: e.Throughput.Value.String(),
			Low: e.Throughput.Low.String(), High: e.Throughput.High.String(), PerGPU: e.Throughput.PerGPU.String(), Unit: e.Throughput.Unit,
			Confidence: msgOr(p, "web.instance.confidence."+e.Confidence, e.Confidence), Assumptions: strings.Join(p.Ms(e.AssumptionMsgs), p.T("list.semi"))}
		switch {
		case e.MemoryFits == nil:
			ev.Fits = "–"
		case *e.MemoryFits:
			ev.Fits = p.T("web.instance.fits")
		default:
			// A model that does not fit has no throughput to show.
			ev.Fits = p.T("web.instance.no_fit")
			ev.NoFit = true
			ev.Value, ev.Low, ev.High, ev.PerGPU = "–", "–", "–", "–"
		}
		page.Estimates = append(page.Estimates, ev)
	}
	page.Chart = instanceChart(v, doc)
	page.History, page.HistoryNote = s.historyChart(r, v, doc)
	page.HistoryNoDB = s.historySource() == nil
	s.render(w, r, http.StatusOK, "instance", v)
}

// instanceChart is an ECharts option: the price per GPU-hour under each
// billing model, in its cheapest region.
func instanceChart(v view, doc *document.InstanceDetail) map[string]any {
	type best struct {
		label, region string
		per           float64
	}
	var order []string
	cheapest := map[string]*best{}
	for _, o := range doc.Offers {
		per, _ := o.Price.PerGPUHourly.Float64()
		b := cheapest[o.Billing]
		if b == nil {
			b = &best{label: v.P.Billing(o.Billing, catalog.Billing(o.Billing).Family()), region: o.Region, per: per}
			cheapest[o.Billing] = b
			order = append(order, o.Billing)
		} else if per < b.per {
			b.per, b.region = per, o.Region
		}
	}
	if len(order) == 0 {
		return nil
	}
	var labels []string
	var data []map[string]any
	// Reversed so the first billing model is on top of a horizontal bar chart.
	for i := len(order) - 1; i >= 0; i-- {
		b := cheapest[order[i]]
		labels = append(labels, b.label+" · "+b.region)
		data = append(data, map[string]any{"value": float64(int64(b.per*10000+0.5)) / 10000, "name": order[i]})
	}
	c := providerColors[doc.Instance.Provider]
	if c == "" {
		c = "#888888"
	}
	return map[string]any{
		"title":    map[string]any{"text": v.P.T("web.instance.chart", v.Currency), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip":  map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}},
		"grid":     map[string]any{"left": 8, "right": 48, "top": 36, "bottom": 8, "containLabel": true},
		"xAxis":    map[string]any{"type": "value", "name": v.Currency},
		"yAxis":    map[string]any{"type": "category", "data": labels, "axisLabel": map[string]any{"fontSize": 11}},
		"series":   []any{map[string]any{"type": "bar", "data": data, "itemStyle": map[string]any{"color": c}, "label": map[string]any{"show": true, "position": "right", "fontSize": 10}}},
		"gpuscout": map[string]any{"currency": v.Currency, "axes": "x", "decimals": 3},
	}
}

// fabricName names a GPU interconnect or RDMA fabric as its makers write
// it (NVSwitch, EFA), in the page's language; "none" or nothing is "none".
func fabricName(p *i18n.Printer, s string) string {
	if s == "" || strings.EqualFold(s, "none") {
		return p.T("web.none")
	}
	return p.Or("web.fabric."+strings.ToLower(s), s)
}

// numDec reads a document number back as a decimal.
func numDec(n json.Number) decimal.Decimal {
	d, err := decimal.NewFromString(n.String())
	if err != nil {
		return decimal.Zero
	}
	return d
}

// optNumStr renders an optional document number, "" when absent.
func optNumStr(n *json.Number) string {
	if n == nil {
		return ""
	}
	return n.String()
}
