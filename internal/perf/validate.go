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
			GPUsPerNode: (p.Count + p.Nodes - 1) / p.Nodes, Fabric: calibFabric(specs[p.GPU], p.Nodes)}
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
	return v
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
	sort.Float64s(logs)
	s.P80Log = logs[int(math.Ceil(0.8*float64(len(logs))))-1]
	return s
}

// TimeToTrain is the pseudo-level under which the time-to-train band is kept.
const TimeToTrain Confidence = "time-to-train"

// Bands turns a validation into uncertainty bands per confidence level
// (throughput results) and for time-to-train results.
func (v *Validation) Bands() map[Confidence]float64 {
	out := map[Confidence]float64{}
	for c, s := range v.ByConfidence {
		out[c] = s.P80Log
	}
	out[TimeToTrain] = v.Time.P80Log
	return out
}
