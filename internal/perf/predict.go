package perf

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// Query asks for a benchmark on count GPUs of one model.
type Query struct {
	Benchmark string
	GPU       string    // catalog GPU ID
	Precision Precision // "" = the benchmark's usual precision in the data
	Count     int
	Nodes     int // 0 = the fewest nodes of GPUsPerNode that hold Count
	// GPUsPerNode bounds a node (default 8).
	GPUsPerNode int
	Fabric      Fabric
}

// Estimate is the model's answer, with everything behind it.
type Estimate struct {
	Benchmark  string
	Class      Class
	GPU        string
	Count      int
	Nodes      int
	Precision  Precision
	Unit       string // of Throughput: samples/s, tokens/s ...; "minutes" for time-to-train
	Throughput float64
	Low, High  float64
	PerGPU     float64
	// Minutes (time-to-train benchmarks and sized jobs), with its band.
	Minutes, MinutesLow, MinutesHigh float64
	Efficiency                       float64 // data-parallel scaling efficiency
	Confidence                       Confidence
	Basis                            []Point
	Assumptions                      []i18n.Msg
	Memory                           *MemoryCheck
	// Roofline and ServingEff are set when an LLM serving estimate came
	// from the roofline model (decode bound by bandwidth, prefill by FLOPs).
	Roofline   *Roofline
	ServingEff *Eff
	// MFU is the model-FLOPs utilisation a sized training job was
	// estimated at, and MFUSource where that figure comes from.
	MFU       float64
	MFUSource string
}

// TimeP10, TimeP50 and TimeP90 are the ends and middle of the estimate's
// 80 % interval for the time to finish, in minutes (0 when the estimate
// has no time). P90 is the figure to plan a deadline on.
func (e *Estimate) TimeP10() float64 { return e.MinutesLow }

// TimeP50 is the central time estimate in minutes.
func (e *Estimate) TimeP50() float64 { return e.Minutes }

// TimeP90 is the slow end of the 80 % interval in minutes: nine runs in ten
// finish sooner, if the model's leave-one-out coverage holds.
func (e *Estimate) TimeP90() float64 { return e.MinutesHigh }

// ErrUnknownBenchmark names a benchmark that is neither in the data nor a
// known class.
type ErrUnknownBenchmark struct {
	Name        string
	Suggestions []string
}

func (e *ErrUnknownBenchmark) Error() string {
	msg := fmt.Sprintf("unknown benchmark %q", e.Name)
	if len(e.Suggestions) > 0 {
		msg += " (did you mean " + strings.Join(e.Suggestions, ", ") + "?)"
	}
	return msg
}

// Benchmarks lists the benchmark names in the data, sorted.
func (m *Model) Benchmarks() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range m.points {
		if !seen[p.Benchmark] {
			seen[p.Benchmark] = true
			out = append(out, p.Benchmark)
		}
	}
	sort.Strings(out)
	return out
}

// Points returns the calibration data.
func (m *Model) Points() []Point { return m.points }

// usualPrecision is the precision most results of a benchmark use.
func (m *Model) usualPrecision(bench string) Precision {
	n := map[Precision]int{}
	for _, p := range m.points {
		if p.Benchmark == bench {
			n[p.Precision]++
		}
	}
	best, bn := Precision(""), -1
	for _, p := range []Precision{LowBest, Low16, INT8, FP8, FP16, TF32, FP32} {
		if n[p] > bn {
			best, bn = p, n[p]
		}
	}
	return best
}

// Estimate answers a query about a benchmark in the data.
func (m *Model) Estimate(q Query) (*Estimate, error) {
	for _, p := range m.points {
		if p.Benchmark == q.Benchmark {
			return m.estimate(q, p.Unit)
		}
	}
	return nil, &ErrUnknownBenchmark{Name: q.Benchmark, Suggestions: suggest(q.Benchmark, m.Benchmarks())}
}

// estimate answers a query; the benchmark need not be in the data (its
// class then decides, at the specs-only level).
func (m *Model) estimate(q Query, unit string) (*Estimate, error) {
	spec, ok := m.specs[q.GPU]
	if !ok {
		return nil, fmt.Errorf("no specifications for GPU %q", q.GPU)
	}
	if q.Count < 1 {
		return nil, fmt.Errorf("count must be at least 1")
	}
	if q.GPUsPerNode < 1 {
		q.GPUsPerNode = 8
	}
	if q.Nodes < 1 {
		q.Nodes = (q.Count + q.GPUsPerNode - 1) / q.GPUsPerNode
	}
	if q.Nodes > q.Count {
		return nil, fmt.Errorf("%d nodes cannot hold %d GPUs", q.Nodes, q.Count)
	}
	b := Describe(q.Benchmark)
	if q.Precision == "" {
		q.Precision = m.usualPrecision(q.Benchmark)
	}
	e := &Estimate{Benchmark: q.Benchmark, Class: b.Class, GPU: q.GPU, Count: q.Count, Nodes: q.Nodes, Precision: q.Precision, Unit: unit}
	if _, used, note, ok := spec.PeakFor(q.Precision); !ok {
		return nil, msgErr("perf.err.no_figures", q.GPU)
	} else if note.Key != "" {
		e.Assumptions = append(e.Assumptions, note)
	} else if q.Precision == LowBest || q.Precision == Low16 {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.submitter_precision", used, q.GPU))
	}
	e.Memory = m.memoryCheck(b, q, spec)
	if b.Time {
		return m.estimateTime(e, q)
	}
	return m.estimateThroughput(e, q)
}

func (m *Model) estimateThroughput(e *Estimate, q Query) (*Estimate, error) {
	cl := e.Class
	var same, sameGPU []int
	for i, p := range m.points {
		if p.Benchmark != q.Benchmark || p.Precision != q.Precision || p.GPU != q.GPU || p.IsTime() {
			continue
		}
		sameGPU = append(sameGPU, i)
		if p.Count == q.Count && p.Nodes == q.Nodes {
			same = append(same, i)
		}
	}
	if len(same) == 0 {
		if lo, hi, ok := m.bracket(q); ok {
			m.interpolateNodes(e, q, lo, hi)
			return e, nil
		}
	}
	if note := m.assumeFabric(&q); note.Key != "" {
		e.Assumptions = append(e.Assumptions, note)
	}
	var t1 float64
	switch {
	case len(same) > 0:
		var v []float64
		for _, i := range same {
			v = append(v, m.points[i].Value)
			e.Basis = append(e.Basis, m.points[i])
		}
		e.Confidence = Measured
		e.Throughput = median(v)
		e.PerGPU = e.Throughput / float64(q.Count)
		eff, notes := m.efficiency(cl, q.GPU, q.Count, q.Nodes, e.PerGPU, q.Fabric)
		e.Efficiency = eff
		e.Assumptions = append(e.Assumptions, notes...)
		m.band(e)
		return e, nil
	case len(sameGPU) > 0:
		var v []float64
		for _, i := range sameGPU {
			v = append(v, m.t1[i])
			e.Basis = append(e.Basis, m.points[i])
		}
		t1 = median(v)
		e.Confidence = Interpolated
	default:
		if t, ok := m.llmThroughput(e, q); ok {
			t1 = t
			break
		}
		x, ok := m.x(q.GPU, q.Precision, cl)
		if !ok {
			return nil, fmt.Errorf("%s has no figures to estimate %s from", q.GPU, q.Benchmark)
		}
		c, conf, basis, note, ok := m.intercept(q.Benchmark, q.Precision, cl)
		if !ok {
			return nil, fmt.Errorf("no results for %s or any other %s workload to estimate from", q.Benchmark, cl)
		}
		e.Confidence = conf
		e.Basis = basis
		if note.Key != "" {
			e.Assumptions = append(e.Assumptions, note)
		}
		arch := m.specs[q.GPU].Arch
		ak := archKey(q.Benchmark, arch)
		if _, ok := m.arch[ak]; !ok {
			e.Assumptions = append(e.Assumptions, i18n.M("perf.as.no_arch", i18n.M("perf.as.suite."+suite(q.Benchmark)), arch))
		}
		t1 = math.Exp(c + x + m.arch[ak])
		if conf == Transferred {
			// Half the weight on the nearest measured GPU by the class's
			// limiting resources, carried by the spec ratio: it keeps the
			// software and system effects a global fit averages away.
			if d, dt1, ok := m.nearest(q, cl); ok {
				dx, _ := m.x(d, q.Precision, cl)
				near := dt1 * math.Exp(x-dx+m.arch[ak]-m.arch[archKey(q.Benchmark, m.specs[d].Arch)])
				t1 = math.Sqrt(t1 * near)
				e.Assumptions = append(e.Assumptions, i18n.M("perf.as.nearest",
					d, 100*m.alpha[cl], 100*(1-m.alpha[cl]), near/dt1))
			}
		}
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.from_specs",
			100*m.alpha[cl], q.Precision, 100*(1-m.alpha[cl])))
	}
	eff, notes := m.efficiency(cl, q.GPU, q.Count, q.Nodes, t1, q.Fabric)
	e.Assumptions = append(e.Assumptions, notes...)
	if !cl.Training() && q.Count > 1 {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.replicas_linear"))
	}
	e.Efficiency = eff
	e.PerGPU = t1 * eff
	e.Throughput = e.PerGPU * float64(q.Count)
	m.band(e)
	return e, nil
}

// intercept finds the benchmark-level term for a precision: fitted for
// this precision, else for another precision of the same benchmark, else
// the class average.
func (m *Model) intercept(bench string, p Precision, cl Class) (float64, Confidence, []Point, i18n.Msg, bool) {
	basis := func(pred func(Point) bool) []Point {
		var out []Point
		for _, q := range m.points {
			if pred(q) {
				out = append(out, q)
			}
		}
		return out
	}
	if c, ok := m.c[gkey{bench, p}]; ok {
		return c, Transferred, basis(func(q Point) bool { return q.Benchmark == bench && q.Precision == p }), i18n.Msg{}, true
	}
	// Another precision of the benchmark: the one with the most results
	// (the first in the data on a tie), so the answer does not depend on
	// map order.
	best, bn := -1, 0
	for i, g := range m.groups {
		if g.bench != bench {
			continue
		}
		n := 0
		for _, q := range m.points {
			if q.Benchmark == bench && q.Precision == g.prec {
				n++
			}
		}
		if n > bn {
			best, bn = i, n
		}
	}
	if best >= 0 {
		g := m.groups[best]
		return m.c[g], Transferred, basis(func(q Point) bool { return q.Benchmark == bench }),
			i18n.M("perf.as.other_precision", bench, g.prec, p), true
	}
	c, ok := m.classC[cl]
	if !ok {
		return 0, SpecsOnly, nil, i18n.Msg{}, false
	}
	note := i18n.M("perf.as.class_avg", bench, cl)
	own, other := suite(bench), "mlperf"
	if own == "mlperf" {
		other = "framework"
	}
	if sc, ok := m.suiteC[string(cl)+"|"+own]; ok {
		c = sc
		note = i18n.M("perf.as.suite_avg", bench, cl, i18n.M("perf.as.suite."+own))
	} else if sc, ok := m.suiteC[string(cl)+"|"+other]; ok && len(m.gapClasses) > 0 {
		gap := m.suiteGap
		if own == "mlperf" {
			gap = -gap
		}
		c = sc + gap
		var names []string
		for _, g := range m.gapClasses {
			names = append(names, string(g))
		}
		note = i18n.M("perf.as.suite_gap",
			bench, cl, i18n.M("perf.as.suite."+other), i18n.M("perf.as.suite."+own), i18n.M("perf.as.suite."+other), math.Exp(gap), strings.Join(names, ", "))
	}
	if b := Describe(bench); llmScale(cl) > 0 && b.Params > 0 {
		c -= math.Log(b.Params)
		note = i18n.M("perf.as.scaled_params", note, b.Params/1e9)
	}
	var peers []Point
	for _, q := range m.points {
		if Describe(q.Benchmark).Class == cl && !q.IsTime() {
			peers = append(peers, q)
		}
	}
	return c, SpecsOnly, peers, note, true
}

func (m *Model) estimateTime(e *Estimate, q Query) (*Estimate, error) {
	f, ok := m.tt[q.Benchmark]
	if !ok {
		return nil, fmt.Errorf("%s has no usable time-to-train results", q.Benchmark)
	}
	sp, ok := m.speed(q.GPU, q.Precision, f.proxy)
	if !ok {
		return nil, fmt.Errorf("%s has no figures to estimate %s from", q.GPU, q.Benchmark)
	}
	e.Confidence = Transferred
	for _, p := range m.points {
		if p.Benchmark != q.Benchmark {
			continue
		}
		e.Basis = append(e.Basis, p)
		if p.GPU == q.GPU && e.Confidence == Transferred {
			e.Confidence = Interpolated
		}
		if p.GPU == q.GPU && p.Count == q.Count && p.Precision == q.Precision {
			e.Confidence = Measured
		}
	}
	ly, slope := f.at(math.Log(float64(q.Count)))
	e.Minutes = math.Exp(ly - sp)
	if e.Confidence == Measured {
		var v []float64
		for _, p := range e.Basis {
			if p.GPU == q.GPU && p.Count == q.Count {
				v = append(v, p.Value)
			}
		}
		e.Minutes = median(v)
	}
	if f.fitted() {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.tt_fitted", slope))
	} else {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.tt_assumed", slope))
	}
	e.Assumptions = append(e.Assumptions, i18n.M("perf.as.tt_fabric"))
	e.Efficiency = math.Pow(float64(q.Count), -slope) * float64(q.Count)
	m.band(e)
	if w, ok := m.Bands[TimeToTrain]; ok && e.Confidence != Measured {
		// Time-to-train carries its own, larger validation error.
		f := math.Exp(math.Max(w, m.Bands[e.Confidence]))
		e.MinutesLow, e.MinutesHigh = e.Minutes/f, e.Minutes*f
	}
	return e, nil
}

// band sets the uncertainty range from the validation error of the
// estimate's confidence level.
func (m *Model) band(e *Estimate) {
	w, ok := m.Bands[e.Confidence]
	if !ok {
		w = map[Confidence]float64{Measured: 0.05, Interpolated: 0.15, Transferred: 0.35, SpecsOnly: 0.7}[e.Confidence]
	}
	f := math.Exp(w)
	if e.Minutes > 0 {
		e.MinutesLow, e.MinutesHigh = e.Minutes/f, e.Minutes*f
	}
	if e.Throughput > 0 {
		e.Low, e.High = e.Throughput/f, e.Throughput*f
	}
}

// suggest returns close names.
func suggest(name string, names []string) []string {
	var out []string
	n := strings.ToLower(name)
	for _, c := range names {
		if strings.Contains(c, n) || strings.Contains(n, strings.TrimPrefix(strings.TrimPrefix(c, "mlperf-inf-"), "mlperf-train-")) {
			out = append(out, c)
		}
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// nearest is the GPU with results for the query's benchmark and precision
// closest to the query's GPU in the class's limiting resources (the
// alpha-weighted distance of log peak and log bandwidth), with its median
// per-GPU throughput.
func (m *Model) nearest(q Query, cl Class) (string, float64, bool) {
	s := m.specs[q.GPU]
	pk, _, _, _ := s.PeakFor(q.Precision)
	a := m.alpha[cl]
	by := map[string][]float64{}
	for i, p := range m.points {
		if p.Benchmark == q.Benchmark && p.Precision == q.Precision && !p.IsTime() && p.GPU != q.GPU {
			by[p.GPU] = append(by[p.GPU], m.t1[i])
		}
	}
	best, bd := "", math.Inf(1)
	for g := range by {
		o := m.specs[g]
		opk, _, _, ok := o.PeakFor(q.Precision)
		if !ok {
			continue
		}
		d := a*math.Abs(logp(pk)-logp(opk)) + (1-a)*math.Abs(logp(s.BandwidthGBs)-logp(o.BandwidthGBs))
		if d < bd || (d == bd && g < best) {
			best, bd = g, d
		}
	}
	if best == "" {
		return "", 0, false
	}
	return best, median(by[best]), true
}
