package server

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// spotOfferGroup is one provider's spot offers in the offer picker.
type spotOfferGroup struct {
	Label  string
	Offers []option
}

// spotOption is one row of the options table.
type spotOption struct {
	Name, Label                    string
	Best                           bool
	Hours, P90Hours, Cost, P90Cost string
	Miss                           string
}

// spotFigure is a time and its cost.
type spotFigure struct {
	Label, Hours, Cost string
}

type spotPage struct {
	Groups []spotOfferGroup
	// The form, as asked.
	Offer, WorkHours, CheckpointMinutes, RestartMinutes, DeadlineHours, MTBI string
	Doc                                                                      *document.SpotDoc
	BestLabel, Reason                                                        string
	Interval, Interruptions                                                  string
	Prior                                                                    string // the provider-level prior used, when one was
	// Citation is the interruption data's source, quoted as published.
	Citation    string
	Assumptions []string
	// Flat says every simulated run took the same time (no histogram).
	Flat    string
	Figures []spotFigure
	Options []spotOption
	Chart   map[string]any
	APIURL  string
}

// pageSpot asks the spot question of the form (the API's parameters) and
// shows the verdict, expected and worst-case times and costs, and the
// simulated distribution of completion times.
func (s *Server) pageSpot(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "spot")
	q := withCurrency(r.URL.Query(), v.Currency)
	p := params{q}
	page := &spotPage{Offer: p.str("offer"), WorkHours: p.str("work_hours"), CheckpointMinutes: p.str("checkpoint_minutes"),
		RestartMinutes: p.str("restart_minutes"), DeadlineHours: p.str("deadline_hours"), MTBI: p.str("mtbi")}
	for dst, def := range map[*string]string{&page.WorkHours: "24", &page.CheckpointMinutes: "5", &page.RestartMinutes: "15"} {
		if *dst == "" {
			*dst = def
		}
	}
	v.Page = page
	page.Groups = spotOfferGroups(d.Catalog, v.P, page.Offer)
	if page.Offer == "" {
		s.render(w, r, http.StatusOK, "spot", v)
		return
	}
	for name, val := range map[string]string{"work_hours": page.WorkHours, "checkpoint_minutes": page.CheckpointMinutes, "restart_minutes": page.RestartMinutes} {
		q.Set(name, val)
	}
	req, err := d.parseSpot(q)
	var ans *document.SpotAnswer
	if err == nil {
		ans, err = d.spot(req)
	}
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			s.writeError(w, r, err)
			return
		}
		v.Error = ae
		s.render(w, r, ae.Status, "spot", v)
		return
	}
	api := cloneValues(q)
	api.Del("lang")
	page.APIURL = "/api/v1/spot?" + api.Encode()
	page.fill(v, ans)
	page.explain(v, d.Catalog, ans, req.MTBI > 0)
	s.render(w, r, http.StatusOK, "spot", v)
}

// spotOfferGroups lists the spot offers that have an on-demand price in
// the same region, by provider.
func spotOfferGroups(c *catalog.Catalog, p *i18n.Printer, selected string) []spotOfferGroup {
	byProvider := map[string][]option{}
	for _, o := range c.Offers() {
		if o.Billing != catalog.Spot || o.Instance == nil || o.Instance.Status == catalog.StatusRetired {
			continue
		}
		if _, ok := c.Offer(o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/" + string(catalog.OnDemand)); !ok {
			continue
		}
		label := fmt.Sprintf("%s · %s× %s · %s", o.InstanceName, num(o.Instance.GPUCount), o.Instance.GPUID, o.RegionCode)
		byProvider[o.Provider] = append(byProvider[o.Provider], option{Value: o.ID(), Label: label, Selected: o.ID() == selected})
	}
	var out []spotOfferGroup
	for _, pr := range c.Providers() {
		list := byProvider[pr.ID]
		if len(list) == 0 {
			continue
		}
		sort.Slice(list, func(i, j int) bool { return list[i].Label < list[j].Label })
		name := pr.NameEN
		if p.Lang() == i18n.ZH && pr.NameZH != "" {
			name = pr.NameZH
		}
		out = append(out, spotOfferGroup{Label: name, Offers: list})
	}
	return out
}

// fill renders an answer for the page.
func (page *spotPage) fill(v view, ans *document.SpotAnswer) {
	p, doc, d, cur := v.P, &ans.Doc, ans.Decision, ans.Doc.Currency
	page.Doc = doc
	page.BestLabel = p.T("web.spot.best." + d.Best)
	page.Reason = spotReason(p, ans)
	if d.Plan.NoticeCovers {
		page.Interval = p.T("web.spot.in_notice")
	} else {
		page.Interval = p.T("web.spot.auto_interval", fmt.Sprintf("%.0f", d.Plan.Interval*60), fmt.Sprintf("%.0f", d.Plan.YoungInterval*60))
	}
	mtbi := "∞"
	switch m := ans.Risk.MTBI; {
	case math.IsInf(m, 1):
	case m >= 100:
		mtbi = fmt.Sprintf("%.0f", m)
	default:
		mtbi = fmt.Sprintf("%.3g", m)
	}
	page.Interruptions = mtbi
	if pr := ans.Risk.Prior; pr != nil {
		if pr.Rated {
			page.Prior = p.T("spot.prior", pr.Provider, pr.Label(p.Lang() == i18n.ZH), pr.Ref, p.AsOfFull(pr.AsOf, pr.ReadOn))
		} else {
			page.Prior = p.T("spot.prior_assumed", pr.Provider, pr.Label(p.Lang() == i18n.ZH), pr.Ref, p.AsOfFull(pr.AsOf, pr.ReadOn), mtbi)
		}
	}
	price := ans.SimConfig.SpotPrice
	walls, fallback := ans.Walls()
	fig := func(label string, h float64) spotFigure {
		return spotFigure{Label: label, Hours: hoursText(h), Cost: moneyF(h*price) + " " + cur}
	}
	// The expected figure is the spot option's, as in the table below.
	expected := spotFigure{Label: p.T("web.spot.expected"), Hours: hoursText(d.Plan.ExpectedHours), Cost: moneyF(d.Plan.ExpectedHours*price) + " " + cur}
	for _, o := range d.Options {
		if o.Name == "spot" {
			expected.Hours, expected.Cost = hoursText(o.ExpectedHours), moneyF(o.ExpectedCost)+" "+cur
		}
	}
	page.Figures = []spotFigure{
		expected,
		fig("P50", spot.Percentile(walls, 0.5)),
		fig("P95", spot.Percentile(walls, 0.95)),
		fig("P99", spot.Percentile(walls, 0.99)),
		{Label: p.T("web.spot.opt.on-demand"), Hours: hoursText(ans.Job.Work), Cost: moneyF(ans.Job.Work*ans.SimConfig.OnDemandPrice) + " " + cur},
	}
	for _, o := range d.Options {
		row := spotOption{Name: o.Name, Label: p.T("web.spot.opt." + o.Name), Best: o.Name == d.Best, Hours: hoursText(o.ExpectedHours),
			P90Hours: hoursText(o.P90Hours), Cost: moneyF(o.ExpectedCost), P90Cost: moneyF(o.P90Cost), Miss: "–"}
		if ans.Job.Deadline > 0 {
			row.Miss = fmt.Sprintf("%.1f%%", 100*o.DeadlineMiss)
		}
		page.Options = append(page.Options, row)
	}
	page.Chart = spotChart(v, ans, walls, fallback)
	if len(walls) > 0 && len(fallback) == 0 && spot.Percentile(walls, 0.99)-walls[0] < 0.05 {
		// Nearly every run takes the same time: a histogram would be one
		// bar. Say it in words.
		same := 0
		for _, w := range walls {
			if w-walls[0] < 0.05 {
				same++
			}
		}
		page.Chart = nil
		page.Flat = p.T("web.spot.flat", fmt.Sprintf("%.1f", 100*float64(same)/float64(len(walls))), len(walls), hoursText(walls[0]), hoursText(walls[len(walls)-1]))
	}
}

// explain says where the interruption rate comes from and what is assumed,
// in the page's language (the document's notes are the engine's English).
func (page *spotPage) explain(v view, c *catalog.Catalog, ans *document.SpotAnswer, given bool) {
	p, o, r := v.P, ans.SpotOffer, ans.Risk
	mtbi := page.Interruptions
	b, banded := c.InterruptionBand(o.Provider, o.InstanceName, o.RegionCode)
	switch {
	case given:
		page.Interruptions = p.T("web.spot.risk.given", mtbi)
	case banded:
		page.Interruptions = p.T("web.spot.risk.band", mtbi, b.Band)
		page.Citation = b.Source.Ref + " · " + p.SourceDate(b.Source.AsOfString(), b.Source.ReadOnString())
	default:
		page.Interruptions = p.T("web.spot.risk.assumed", mtbi, o.Provider, o.InstanceName, o.RegionCode)
	}
	if f, ok := c.SpotFacts(o.Provider); ok && f.NoticeKnown {
		page.Assumptions = append(page.Assumptions, p.T("web.spot.as.notice", f.NoticeSeconds, p.Or("source."+string(f.Source.Kind), string(f.Source.Kind)), p.SourceDate(f.Source.AsOfString(), f.Source.ReadOnString())))
	} else {
		page.Assumptions = append(page.Assumptions, p.T("web.spot.as.no_notice"))
	}
	if r.Protection > 0 {
		page.Assumptions = append(page.Assumptions, p.T("web.spot.as.protection", strconv.FormatFloat(r.Protection, 'f', -1, 64)))
	}
	page.Assumptions = append(page.Assumptions,
		p.T("web.spot.as.price", hourlyF(ans.SimConfig.SpotPrice, ans.Doc.Currency), ans.Doc.Currency, p.AsOfPhrase(o.Source.AsOfString(), o.Source.ReadOnString()), p.Or("source."+string(o.Source.Kind), string(o.Source.Kind))),
		p.T("web.spot.as.billed"))
}

// spotReason says why the verdict, in the page's language, from the
// decision's numbers (the document's verdict is the engine's English).
func spotReason(p *i18n.Printer, ans *document.SpotAnswer) string {
	d, j, cur := ans.Decision, ans.Job, ans.Doc.Currency
	var best, od spot.Option
	for _, o := range d.Options {
		if o.Name == d.Best {
			best = o
		}
		if o.Name == "on-demand" {
			od = o
		}
	}
	switch {
	case j.Work == 0:
		return p.T("web.spot.reason.no_work")
	case d.Best == "on-demand" && best.DeadlineMiss > 0.05:
		return p.T("web.spot.reason.no_deadline", strconv.FormatFloat(j.Deadline, 'f', -1, 64), strconv.FormatFloat(j.Work, 'f', -1, 64))
	case d.Best == "on-demand":
		return p.T("web.spot.reason.no_gain", moneyF(d.Spot.MeanCost), cur, hoursText(d.Spot.MeanHours), moneyF(od.ExpectedCost), cur)
	}
	less := 0.0
	if od.ExpectedCost > 0 {
		less = 100 * (1 - best.ExpectedCost/od.ExpectedCost)
	}
	s := p.T("web.spot.reason.saves", moneyF(best.ExpectedCost), cur, moneyF(od.ExpectedCost), cur, fmt.Sprintf("%.0f", less))
	if j.Deadline > 0 {
		s += " " + p.T("web.spot.reason.risk", strconv.FormatFloat(j.Deadline, 'f', -1, 64), fmt.Sprintf("%.1f", 100*best.DeadlineMiss))
	}
	return s
}

// spotBins is the number of bars of the completion-time histogram.
const spotBins = 40

// spotChart is an ECharts option: the share of simulated runs finishing in
// each band of wall-clock hours, on spot and (with a deadline) with the
// on-demand fallback, with the deadline and P95 marked.
func spotChart(v view, ans *document.SpotAnswer, walls, fallback []float64) map[string]any {
	if len(walls) == 0 {
		return nil
	}
	p := v.P
	lo, hi := walls[0], spot.Percentile(walls, 0.999)
	if len(fallback) > 0 {
		lo, hi = math.Min(lo, fallback[0]), math.Max(hi, spot.Percentile(fallback, 0.999))
	}
	if ans.Job.Deadline > 0 && ans.Job.Deadline > hi && ans.Job.Deadline < 2*hi {
		hi = ans.Job.Deadline
	}
	bins := spotBins
	if hi <= lo {
		bins = 1
	}
	var labels []string
	for _, b := range spot.Histogram(walls, lo, hi, bins) {
		labels = append(labels, strconv.FormatFloat((b.From+b.To)/2, 'f', 1, 64))
	}
	// The bar a value falls in, for mark lines.
	binOf := func(h float64) string {
		if bins == 1 || h <= lo {
			return labels[0]
		}
		return labels[min(bins-1, int((h-lo)/((hi-lo)/float64(bins))))]
	}
	share := func(list []float64) []float64 {
		var out []float64
		for _, b := range spot.Histogram(list, lo, hi, bins) {
			out = append(out, math.Round(10000*float64(b.Count)/float64(len(list)))/100)
		}
		return out
	}
	marks := []any{map[string]any{"name": "P95", "xAxis": binOf(spot.Percentile(walls, 0.95)), "label": map[string]any{"formatter": "P95"}}}
	if ans.Job.Deadline > 0 && ans.Job.Deadline <= hi {
		marks = append(marks, map[string]any{"name": p.T("web.spot.deadline"), "xAxis": binOf(ans.Job.Deadline),
			"label": map[string]any{"formatter": p.T("web.spot.deadline")}, "lineStyle": map[string]any{"color": "#c74634"}})
	}
	series := []any{map[string]any{"name": p.T("web.spot.opt.spot"), "type": "bar", "data": share(walls), "barCategoryGap": "10%",
		"itemStyle": map[string]any{"color": "#34a853"},
		"markLine":  map[string]any{"symbol": "none", "data": marks, "lineStyle": map[string]any{"type": "dashed"}}}}
	names := []string{p.T("web.spot.opt.spot")}
	if len(fallback) > 0 {
		series = append(series, map[string]any{"name": p.T("web.spot.opt.spot+fallback"), "type": "bar", "data": share(fallback),
			"itemStyle": map[string]any{"color": "#0078d4"}})
		names = append(names, p.T("web.spot.opt.spot+fallback"))
	}
	return map[string]any{
		"title":   map[string]any{"text": p.T("web.spot.chart", ans.Doc.Simulated.Trials), "left": "center", "textStyle": map[string]any{"fontSize": 14}},
		"tooltip": map[string]any{"trigger": "axis", "axisPointer": map[string]any{"type": "shadow"}},
		"legend":  map[string]any{"data": names, "bottom": 0},
		"grid":    map[string]any{"left": 8, "right": 24, "top": 40, "bottom": 56, "containLabel": true},
		"xAxis":   map[string]any{"type": "category", "data": labels, "name": p.T("web.hours"), "nameLocation": "middle", "nameGap": 26},
		"yAxis":   map[string]any{"type": "value", "name": p.T("web.spot.share")},
		"series":  series,
	}
}

// hoursText renders hours with two decimals; ∞ for a job that never ends.
func hoursText(h float64) string {
	if math.IsInf(h, 1) {
		return "∞"
	}
	return strconv.FormatFloat(h, 'f', 2, 64)
}

// hourlyF renders a float hourly price as the page's price line and the
// explorer's price column do (output.PriceDecimals), so the assumptions
// quote the spot price with the same digits as the line above them.
func hourlyF(f float64, currency string) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "∞"
	}
	return output.FixedMoney(decimal.NewFromFloat(f), output.PriceDecimals(true, currency))
}

// moneyF renders a float amount as money.
func moneyF(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "∞"
	}
	return money(decimal.NewFromFloat(f))
}
