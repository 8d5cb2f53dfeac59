package perf

import (
	"math"
	"sort"
)

// Result is one held-out prediction.
type Result struct {
	Point      Point
	Predicted  float64
	Confidence Confidence
	Err        float64 // predicted / actual − 1
	// Low and High are the 80 % interval the prediction would have carried:
	// its band from the other held-out results of its level, never its own.
	Low, High float64
	Covered   bool // the published value lies inside [Low, High]
}

// Interval is how the 80 % intervals behaved under leave-one-out.
type Interval struct {
	N        int
	Coverage float64 // share of published values inside their interval (target 0.75–0.85)
	Width    float64 // median High/Low ratio
}

// Summary aggregates errors.
type Summary struct {
	N        int
	MAPE     float64 // mean |error|
	MedianAE float64 // median |error|
	P80Log   float64 // 80th percentile of |log(predicted/actual)|
}

// Validation is a leave-one-out cross-validation of the model.
type Validation struct {
	Results      []Result
	Skipped      []Point // could not be predicted without themselves (single time-to-train results)
	ByClass      map[Class]Summary
	ByConfidence map[Confidence]Summary
	Throughput   Summary // all throughput rows
	Time         Summary // all time-to-train rows
	// NoGPUResult are the throughput rows whose GPU had no other result for
	// the workload (transferred or specs-only): the specs fallback.
	NoGPUResult Summary
	// SingleNode and MultiNode split every result (throughput and
	// time-to-train) by whether its system spanned several nodes.
	SingleNode, MultiNode Summary
	// Intervals: coverage and width of the 80 % intervals per class, for
	// all throughput rows ("throughput") and time-to-train ("time").
	Intervals      map[string]Interval
	IntervalsClass map[Class]Interval
	// LLM is the roofline alone on every LLM serving result, and LLMFamily
	// its error per GPU architecture family.
	LLM       []Result
	LLMAll    Summary
	LLMFamily map[string]Summary
	// MFU is each published training MFU predicted from the other
	// publications: the error of sized transformer-training times.
	MFU    []Result
	MFUAll Summary
}

// Validate refits the model once per point without it and predicts it
// back, the way a user's question about an unmeasured case is answered.
func Validate(points []Point, specs map[string]Spec) *Validation {
	v := &Validation{ByClass: map[Class]Summary{}, ByConfidence: map[Confidence]Summary{}}
	for i, p := range points {
		rest := make([]Point, 0, len(points)-1)
		rest = append(rest, points[:i]...)
		rest = append(rest, points[i+1:]...)
		m := Fit(rest, specs)
		q := Query{Benchmark: p.Benchmark, GPU: p.GPU, Precision: p.Precision, Count: p.Count, Nodes: p.Nodes,
			GPUsPerNode: (p.Count + p.Nodes - 1) / p.Nodes, Fabric: calibFabric(specs[p.GPU], p)}
		est, err := m.estimate(q, p.Unit)
		if err != nil {
			v.Skipped = append(v.Skipped, p)
			continue
		}
		pred := est.Throughput
		if p.IsTime() {
			pred = est.Minutes
		}
		if pred <= 0 {
			v.Skipped = append(v.Skipped, p)
			continue
		}
		v.Results = append(v.Results, Result{Point: p, Predicted: pred, Confidence: est.Confidence, Err: pred/p.Value - 1})
	}
	group := func(keep func(Result) bool) Summary {
		var errs, logs []float64
		for _, r := range v.Results {
			if keep(r) {
				errs = append(errs, math.Abs(r.Err))
				logs = append(logs, math.Abs(math.Log(1+r.Err)))
			}
		}
		return summarize(errs, logs)
	}
	for _, cl := range classes {
		if s := group(func(r Result) bool { return Describe(r.Point.Benchmark).Class == cl && !r.Point.IsTime() }); s.N > 0 {
			v.ByClass[cl] = s
		}
	}
	for _, c := range confidences {
		if s := group(func(r Result) bool { return r.Confidence == c && !r.Point.IsTime() }); s.N > 0 {
			v.ByConfidence[c] = s
		}
	}
	v.Throughput = group(func(r Result) bool { return !r.Point.IsTime() })
	v.Time = group(func(r Result) bool { return r.Point.IsTime() })
	v.NoGPUResult = group(func(r Result) bool {
		return !r.Point.IsTime() && (r.Confidence == Transferred || r.Confidence == SpecsOnly)
	})
	v.SingleNode = group(func(r Result) bool { return r.Point.Nodes < 2 })
	v.MultiNode = group(func(r Result) bool { return r.Point.Nodes > 1 })
	v.intervals()
	v.LLM = ValidateLLM(points, specs)
	v.LLMFamily = map[string]Summary{}
	fam := map[string][]Result{}
	for _, r := range v.LLM {
		f := specs[r.Point.GPU].Arch
		fam[f] = append(fam[f], r)
	}
	v.LLMAll = summarizeResults(v.LLM)
	if mfu, err := LoadMFU(); err == nil {
		v.MFU = ValidateMFU(mfu)
		v.MFUAll = summarizeResults(v.MFU)
	}
	for f, rs := range fam {
		v.LLMFamily[f] = summarizeResults(rs)
	}
	return v
}

func summarizeResults(rs []Result) Summary {
	var errs, logs []float64
	for _, r := range rs {
		errs = append(errs, math.Abs(r.Err))
		logs = append(logs, math.Abs(math.Log(1+r.Err)))
	}
	return summarize(errs, logs)
}

// bandKey is the group whose errors set a result's band: its confidence
// level, or time-to-train.
func bandKey(r Result) Confidence {
	if r.Point.IsTime() {
		return TimeToTrain
	}
	return r.Confidence
}

// intervals gives every held-out result the 80 % interval it would have
// carried — the 80th percentile of |log error| of the other results of its
// level, so a result never widens its own interval — and measures how often
// the published value fell inside.
func (v *Validation) intervals() {
	logs := map[Confidence][]float64{}
	for _, r := range v.Results {
		logs[bandKey(r)] = append(logs[bandKey(r)], math.Abs(math.Log(1+r.Err)))
	}
	for i := range v.Results {
		r := &v.Results[i]
		own := math.Abs(math.Log(1 + r.Err))
		var rest []float64
		skipped := false
		for _, l := range logs[bandKey(*r)] {
			if !skipped && l == own {
				skipped = true
				continue
			}
			rest = append(rest, l)
		}
		if len(rest) == 0 {
			continue
		}
		w := p80(rest)
		r.Low, r.High = r.Predicted/math.Exp(w), r.Predicted*math.Exp(w)
		r.Covered = own <= w+1e-12
	}
	agg := func(keep func(Result) bool) Interval {
		var in Interval
		var widths []float64
		for _, r := range v.Results {
			if r.High == 0 || !keep(r) {
				continue
			}
			in.N++
			if r.Covered {
				in.Coverage++
			}
			widths = append(widths, r.High/r.Low)
		}
		if in.N > 0 {
			in.Coverage /= float64(in.N)
			in.Width = median(widths)
		}
		return in
	}
	v.Intervals = map[string]Interval{
		"throughput": agg(func(r Result) bool { return !r.Point.IsTime() }),
		"time":       agg(func(r Result) bool { return r.Point.IsTime() }),
	}
	v.IntervalsClass = map[Class]Interval{}
	for _, cl := range classes {
		if in := agg(func(r Result) bool { return !r.Point.IsTime() && Describe(r.Point.Benchmark).Class == cl }); in.N > 0 {
			v.IntervalsClass[cl] = in
		}
	}
}

// p80 is the 80th percentile (nearest rank) of values.
func p80(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[int(math.Ceil(0.8*float64(len(s))))-1]
}

func summarize(errs, logs []float64) Summary {
	if len(errs) == 0 {
		return Summary{}
	}
	s := Summary{N: len(errs), MedianAE: median(errs)}
	for _, e := range errs {
		s.MAPE += e
	}
	s.MAPE /= float64(len(errs))
	s.P80Log = p80(logs)
	return s
}

// TimeToTrain is the pseudo-level under which the time-to-train band is kept.
const TimeToTrain Confidence = "time-to-train"

// LLMRoofline is the pseudo-level of the LLM serving roofline's band.
const LLMRoofline Confidence = "llm-roofline"

// MFUBand is the pseudo-level of sized training jobs' band: the published
// MFU figures' leave-one-publication-out error.
const MFUBand Confidence = "training-mfu"

// Bands turns a validation into uncertainty bands per confidence level
// (throughput results) and for time-to-train results.
func (v *Validation) Bands() map[Confidence]float64 {
	out := map[Confidence]float64{}
	for c, s := range v.ByConfidence {
		out[c] = s.P80Log
	}
	out[TimeToTrain] = v.Time.P80Log
	if v.LLMAll.N > 0 {
		out[LLMRoofline] = v.LLMAll.P80Log
	}
	if v.MFUAll.N > 0 {
		out[MFUBand] = v.MFUAll.P80Log
	}
	return out
}
