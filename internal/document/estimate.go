package document

import (
	"encoding/json"
	"math"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
)

// SchemaEstimate and SchemaPerfValidation name the performance documents.
const (
	SchemaEstimate       = "gpuscout/estimate@v1"
	SchemaPerfValidation = "gpuscout/perf-validation@v1"
)

func fnum(v float64) json.Number {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	r := v
	if math.Abs(v) >= 100 {
		r = math.Round(v*10) / 10
	} else {
		r = math.Round(v*10000) / 10000
	}
	b, _ := json.Marshal(r)
	return json.Number(b)
}

// Throughput is a rate with its band.
type Throughput struct {
	Value  json.Number `json:"value"`
	Unit   string      `json:"unit"`
	Low    json.Number `json:"low"`
	High   json.Number `json:"high"`
	PerGPU json.Number `json:"per_gpu"`
}

// Duration is a time with its band.
type Duration struct {
	Minutes json.Number `json:"minutes"`
	Hours   json.Number `json:"hours"`
	Low     json.Number `json:"low"`
	High    json.Number `json:"high"`
}

// BasisPoint is a published result an estimate rests on.
type BasisPoint struct {
	Benchmark   string      `json:"benchmark"`
	Accelerator string      `json:"accelerator"`
	Count       int         `json:"count"`
	Nodes       int         `json:"nodes"`
	Value       json.Number `json:"value"`
	Unit        string      `json:"unit"`
	Precision   string      `json:"precision"`
	Suite       string      `json:"suite"`
	Source      string      `json:"source"`
}

// Memory is the memory-fit check.
type Memory struct {
	NeedGB   json.Number `json:"need_gb"`
	PerGPUGB json.Number `json:"usable_per_gpu_gb"`
	Group    int         `json:"group"`
	Fits     bool        `json:"fits"`
	Note     string      `json:"note"`
}

// Estimate is the gpuscout/estimate@v1 document.
type Estimate struct {
	Schema      string       `json:"schema"`
	Benchmark   string       `json:"benchmark"`
	Class       string       `json:"class"`
	GPU         string       `json:"gpu"`
	Count       int          `json:"count"`
	Nodes       int          `json:"nodes"`
	Precision   string       `json:"precision"`
	Throughput  *Throughput  `json:"throughput,omitempty"`
	Time        *Duration    `json:"time,omitempty"`
	Efficiency  json.Number  `json:"scaling_efficiency"`
	Confidence  string       `json:"confidence"`
	Memory      *Memory      `json:"memory,omitempty"`
	Basis       []BasisPoint `json:"basis"`
	Assumptions []string     `json:"assumptions"`
	Offer       *CostOffer   `json:"offer,omitempty"`
	Instances   int          `json:"instances,omitempty"`
	Cost        *Cost        `json:"cost,omitempty"`
	// Interval names the band of low/high: the 80 % interval (P10–P90).
	Interval string `json:"interval"`
	// MFU and MFUSource: the utilisation a sized training job was estimated at.
	MFU       json.Number `json:"mfu,omitempty"`
	MFUSource string      `json:"mfu_source,omitempty"`
	// Serving is the LLM roofline behind an LLM serving estimate.
	Serving *Serving `json:"llm_serving,omitempty"`
}

// Serving is the LLM serving roofline of an estimate.
type Serving struct {
	TensorParallel    int         `json:"tensor_parallel"`
	Replicas          int         `json:"replicas"`
	Batch             json.Number `json:"batch"`
	DecodeLimiter     string      `json:"decode_limiter"`
	ComputeEfficiency json.Number `json:"compute_efficiency"`
	BandwidthEff      json.Number `json:"bandwidth_efficiency"`
	EfficiencySource  string      `json:"efficiency_source"`
	// KVCacheGBPerRequest is one request's KV cache at the estimate's
	// context; Link the tensor-parallel group's link ("pcie-gen4",
	// "nvlink"; empty without tensor parallelism).
	KVCacheGBPerRequest json.Number `json:"kv_cache_gb_per_request"`
	Link                string      `json:"link,omitempty"`
}

// BuildEstimate renders an estimate, its assumptions in p's language
// (English when p is nil, as the advisor's reasons are); cost may be nil.
func BuildEstimate(e *perf.Estimate, cost *Cost, p *i18n.Printer) Estimate {
	if p == nil {
		p = i18n.NewPrinter(i18n.EN)
	}
	doc := Estimate{Schema: SchemaEstimate, Benchmark: e.Benchmark, Class: string(e.Class), GPU: e.GPU, Count: e.Count, Nodes: e.Nodes,
		Precision: string(e.Precision), Efficiency: fnum(e.Efficiency), Confidence: string(e.Confidence),
		Basis: []BasisPoint{}, Assumptions: p.Ms(e.Assumptions), Cost: cost, Interval: "80% (low = P10, high = P90)", MFUSource: e.MFUSource}
	if e.MFU > 0 {
		doc.MFU = fnum(e.MFU)
	}
	if r, f := e.Roofline, e.ServingEff; r != nil && f != nil {
		doc.Serving = &Serving{TensorParallel: r.TP, Replicas: r.Replicas, Batch: fnum(r.Batch), DecodeLimiter: r.DecodeLimiter(),
			ComputeEfficiency: fnum(f.Compute), BandwidthEff: fnum(f.Bandwidth), EfficiencySource: f.Source,
			KVCacheGBPerRequest: fnum(r.KVPerSeqGB)}
		if r.TP > 1 {
			doc.Serving.Link = r.Link.ID()
		}
	}
	if doc.Assumptions == nil {
		doc.Assumptions = []string{}
	}
	if e.Throughput > 0 {
		doc.Throughput = &Throughput{Value: fnum(e.Throughput), Unit: e.Unit, Low: fnum(e.Low), High: fnum(e.High), PerGPU: fnum(e.PerGPU)}
	}
	if e.Minutes > 0 {
		doc.Time = &Duration{Minutes: fnum(e.Minutes), Hours: fnum(e.Minutes / 60), Low: fnum(e.MinutesLow), High: fnum(e.MinutesHigh)}
	}
	if m := e.Memory; m != nil {
		doc.Memory = &Memory{NeedGB: fnum(m.NeedGB), PerGPUGB: fnum(m.PerGPUGB), Group: m.Group, Fits: m.Fits, Note: m.Note}
	}
	for _, p := range e.Basis {
		doc.Basis = append(doc.Basis, BasisPoint{Benchmark: p.Benchmark, Accelerator: p.Accelerator, Count: p.Count, Nodes: p.Nodes,
			Value: fnum(p.Value), Unit: p.Unit, Precision: p.PrecisionAs, Suite: p.Suite, Source: p.Source})
	}
	return doc
}

// ErrorSummary is a validation summary.
type ErrorSummary struct {
	N        int         `json:"n"`
	MAPE     json.Number `json:"mape"`
	MedianAE json.Number `json:"median_abs_error"`
}

// PerfValidation is the gpuscout/perf-validation@v1 document.
type PerfValidation struct {
	Schema       string                  `json:"schema"`
	Method       string                  `json:"method"`
	Throughput   ErrorSummary            `json:"throughput"`
	TimeToTrain  ErrorSummary            `json:"time_to_train"`
	ByClass      map[string]ErrorSummary `json:"by_class"`
	ByConfidence map[string]ErrorSummary `json:"by_confidence"`
	Skipped      int                     `json:"skipped"`
	Worst        []ValidationRow         `json:"worst"`
	// NoGPUResult is the specs fallback: rows whose GPU had no other result for the workload.
	NoGPUResult ErrorSummary `json:"no_result_on_gpu"`
	// SingleNode and MultiNode split every result (throughput and
	// time-to-train) by whether its system spanned several nodes.
	SingleNode ErrorSummary `json:"single_node"`
	MultiNode  ErrorSummary `json:"multi_node"`
	// Intervals: leave-one-out coverage and median width of the 80 % intervals.
	Intervals        map[string]IntervalSummary `json:"intervals"`
	IntervalsByClass map[string]IntervalSummary `json:"intervals_by_class"`
	// LLMRoofline is the LLM serving roofline alone, overall and per GPU family.
	LLMRoofline         ErrorSummary            `json:"llm_roofline"`
	LLMRooflineByFamily map[string]ErrorSummary `json:"llm_roofline_by_family"`
	// TrainingMFU is the published MFUs, each predicted from the other publications.
	TrainingMFU ErrorSummary `json:"training_mfu"`
}

// IntervalSummary is the behaviour of 80 % intervals under leave-one-out.
type IntervalSummary struct {
	N        int         `json:"n"`
	Coverage json.Number `json:"coverage"`
	Width    json.Number `json:"median_p90_over_p10"`
}

// ValidationRow is one held-out prediction.
type ValidationRow struct {
	Benchmark  string      `json:"benchmark"`
	GPU        string      `json:"gpu"`
	Count      int         `json:"count"`
	Actual     json.Number `json:"actual"`
	Predicted  json.Number `json:"predicted"`
	Error      json.Number `json:"error"`
	Confidence string      `json:"confidence"`
}

func errSummary(s perf.Summary) ErrorSummary {
	return ErrorSummary{N: s.N, MAPE: fnum(s.MAPE), MedianAE: fnum(s.MedianAE)}
}

// BuildPerfValidation renders a validation with its worst n rows.
func BuildPerfValidation(v *perf.Validation, worst []perf.Result) PerfValidation {
	doc := PerfValidation{Schema: SchemaPerfValidation,
		Method:     "leave-one-out: the model is refitted without each result and predicts it back",
		Throughput: errSummary(v.Throughput), TimeToTrain: errSummary(v.Time),
		ByClass: map[string]ErrorSummary{}, ByConfidence: map[string]ErrorSummary{}, Skipped: len(v.Skipped)}
	for c, s := range v.ByClass {
		doc.ByClass[string(c)] = errSummary(s)
	}
	for c, s := range v.ByConfidence {
		doc.ByConfidence[string(c)] = errSummary(s)
	}
	doc.NoGPUResult = errSummary(v.NoGPUResult)
	doc.SingleNode, doc.MultiNode = errSummary(v.SingleNode), errSummary(v.MultiNode)
	doc.Intervals, doc.IntervalsByClass = map[string]IntervalSummary{}, map[string]IntervalSummary{}
	iv := func(in perf.Interval) IntervalSummary {
		return IntervalSummary{N: in.N, Coverage: fnum(in.Coverage), Width: fnum(in.Width)}
	}
	for k, in := range v.Intervals {
		doc.Intervals[k] = iv(in)
	}
	for c, in := range v.IntervalsClass {
		doc.IntervalsByClass[string(c)] = iv(in)
	}
	doc.TrainingMFU = errSummary(v.MFUAll)
	doc.LLMRoofline, doc.LLMRooflineByFamily = errSummary(v.LLMAll), map[string]ErrorSummary{}
	for f, s := range v.LLMFamily {
		doc.LLMRooflineByFamily[f] = errSummary(s)
	}
	for _, r := range worst {
		doc.Worst = append(doc.Worst, ValidationRow{Benchmark: r.Point.Benchmark, GPU: r.Point.GPU, Count: r.Point.Count,
			Actual: fnum(r.Point.Value), Predicted: fnum(r.Predicted), Error: fnum(r.Err), Confidence: string(r.Confidence)})
	}
	return doc
}
