package server

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/perf"
)

// estimateWorkloads are the sized jobs the form offers (gpuscout estimate
// --workload).
var estimateWorkloads = []string{"transformer-train", "llm-inference", "cnn-train", "flops", "embedding"}

// estimatePrecisions are the precisions the form offers ("" is the
// workload's usual one).
var estimatePrecisions = []string{"", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"}

// estimateFields are the form's number fields, in form order: the query
// parameter and its label's message key.
var estimateFields = []string{"params", "tokens", "images", "epochs", "gflops_per_image", "flops", "samples",
	"input_tokens", "output_tokens", "active_params", "max_batch",
	"layers", "kv_heads", "head_dim", "hidden_size", "experts", "experts_per_token"}

// estimateRow is one line of the result table, as gpuscout estimate prints it.
type estimateRow struct{ Metric, Value string }

type estimatePage struct {
	// The form, as asked.
	Job, GPU, Offer, Count, Nodes, Instances, Precision string
	Numbers                                             []estimateInput
	Workloads, Benchmarks, GPUs, Precisions             []option
	Doc                                                 *document.Estimate
	Rows                                                []estimateRow
	Basis                                               []document.BasisPoint
	APIURL                                              string
}

// estimateInput is a number field of the form.
type estimateInput struct{ Name, Label, Value string }

// pageEstimate is gpuscout estimate as a form: a sized job or a benchmark
// on a GPU or an offer. The query is the API's (/api/v1/estimate), parsed
// and answered by the same functions; job=bench:NAME stands for
// benchmark=NAME, job=KIND for workload=KIND.
func (s *Server) pageEstimate(w http.ResponseWriter, r *http.Request) {
	d := s.Data()
	v := s.view(r, d, "estimate")
	p := v.P
	q := withCurrency(r.URL.Query(), v.Currency)
	pr := params{q}
	page := &estimatePage{Job: pr.str("job"), GPU: pr.str("gpu"), Offer: pr.str("offer"), Count: pr.str("count"), Nodes: pr.str("nodes"),
		Instances: pr.str("instances"), Precision: pr.str("precision")}
	switch {
	case page.Job == "" && pr.str("benchmark") != "":
		page.Job = "bench:" + pr.str("benchmark")
	case page.Job == "" && pr.str("workload") != "":
		page.Job = pr.str("workload")
	}
	if page.Count == "" {
		page.Count = "1"
	}
	if page.Instances == "" {
		page.Instances = "1"
	}
	v.Page = page
	for _, k := range estimateWorkloads {
		page.Workloads = append(page.Workloads, option{Value: k, Label: p.T("web.est.job." + k), Selected: page.Job == k})
	}
	for _, b := range d.Perf.Benchmarks() {
		page.Benchmarks = append(page.Benchmarks, option{Value: "bench:" + b, Label: b, Selected: page.Job == "bench:"+b})
	}
	for _, g := range d.Catalog.GPUs() {
		page.GPUs = append(page.GPUs, option{Value: g.ID, Label: g.ID, Selected: g.ID == page.GPU})
	}
	sort.Slice(page.GPUs, func(i, j int) bool { return page.GPUs[i].Label < page.GPUs[j].Label })
	for _, x := range estimatePrecisions {
		label := x
		if x == "" {
			label = p.T("web.est.usual")
		}
		page.Precisions = append(page.Precisions, option{Value: x, Label: label, Selected: x == page.Precision})
	}
	for _, f := range estimateFields {
		page.Numbers = append(page.Numbers, estimateInput{Name: f, Label: p.T("web.est.f." + f), Value: pr.str(f)})
	}
	if page.Job == "" && page.GPU == "" && page.Offer == "" {
		s.render(w, r, http.StatusOK, "estimate", v)
		return
	}
	api := cloneValues(q)
	for _, k := range []string{"job", "lang", "benchmark", "workload"} {
		api.Del(k)
	}
	if b, ok := strings.CutPrefix(page.Job, "bench:"); ok {
		api.Set("benchmark", b)
	} else if page.Job != "" {
		api.Set("workload", page.Job)
	}
	for k, vals := range api {
		if len(vals) == 1 && vals[0] == "" {
			api.Del(k) // an empty form field is the flag left out
		}
	}
	req, err := d.parseEstimate(api)
	var doc document.Estimate
	var est *perf.Estimate
	if err == nil {
		req.Lang = p.Lang()
		doc, est, err = document.AnswerEstimate(d.Catalog, d.Perf, d.Pricing, d.FX, req)
		err = jobError(err)
	}
	if err != nil {
		var ae *apiError
		if !errors.As(err, &ae) {
			s.writeError(w, r, err)
			return
		}
		v.Error = ae
		s.render(w, r, ae.Status, "estimate", v)
		return
	}
	page.APIURL = "/api/v1/estimate?" + api.Encode()
	page.Doc = &doc
	page.Rows = estimateRows(p, doc, est)
	page.Basis = append([]document.BasisPoint(nil), doc.Basis...)
	for i := range page.Basis {
		page.Basis[i].Unit = msgOr(p, "perf.unit."+page.Basis[i].Unit, page.Basis[i].Unit) // "minutes" in words
	}
	sort.SliceStable(page.Basis, func(i, j int) bool { return page.Basis[i].Accelerator < page.Basis[j].Accelerator })
	s.render(w, r, http.StatusOK, "estimate", v)
}

// estimateRows are gpuscout estimate's table in the page's language.
func estimateRows(p *i18n.Printer, doc document.Estimate, est *perf.Estimate) []estimateRow {
	// A sized job's "benchmark" is its workload kind: say it in words.
	what := msgOr(p, "web.est.job."+doc.Benchmark, doc.Benchmark)
	if doc.Offer != nil {
		what = p.T("web.est.on_offer", what, doc.Instances, doc.Offer.InstanceType, doc.Offer.ID)
	}
	rows := []estimateRow{
		{p.T("est.workload"), what},
		{p.T("est.gpus"), p.T("web.est.gpus", doc.Count, doc.GPU, doc.Nodes, doc.Precision)},
	}
	if t := doc.Throughput; t != nil {
		rows = append(rows, estimateRow{p.T("est.throughput"), p.T("web.est.throughput", sigFig(est.Throughput), t.Unit, sigFig(est.Low), sigFig(est.High), sigFig(est.PerGPU))})
	}
	if est.Minutes > 0 {
		rows = append(rows, estimateRow{p.T("est.time"), p.T("web.est.range", minutesText(p, est.Minutes), minutesText(p, est.MinutesLow), minutesText(p, est.MinutesHigh))})
	}
	if est.Efficiency > 0 && est.Efficiency != 1 {
		rows = append(rows, estimateRow{p.T("est.efficiency"), fmt.Sprintf("%.1f%%", 100*est.Efficiency)})
	}
	rows = append(rows, estimateRow{p.T("est.confidence"), msgOr(p, "web.instance.confidence."+doc.Confidence, doc.Confidence)})
	if m := est.Memory; m != nil {
		var text string
		switch {
		case !m.Fits:
			text = p.T("web.est.mem.no_fit", m.NeedGB, doc.Count, m.PerGPUGB)
		case m.Group > 1:
			text = p.T("web.est.mem.split", m.Group, m.NeedGB)
		default:
			text = p.T("web.est.mem.fits", m.NeedGB, m.PerGPUGB)
		}
		rows = append(rows, estimateRow{p.T("est.memory"), text})
	}
	if c := doc.Cost; c != nil {
		rows = append(rows, estimateRow{p.T("est.cost"), fmt.Sprintf("%s %s (%s)", money(numDec(c.Total)), c.Currency, p.BillingCode(doc.Offer.Billing))})
	}
	return rows
}

// sigFig renders a number with about four significant digits, as
// gpuscout estimate does.
func sigFig(v float64) string {
	switch {
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e4:
		return output.Thousands(fmt.Sprintf("%.0f", v))
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// minutesText renders minutes as minutes, hours or days, as gpuscout
// estimate does, in the page's language.
func minutesText(p *i18n.Printer, min float64) string {
	switch {
	case min < 120:
		return p.T("web.est.minutes", min)
	case min < 48*60:
		return p.T("web.est.hours", min/60)
	}
	return p.T("web.est.days", min/1440)
}
