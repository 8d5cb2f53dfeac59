package perf

import (
	"math"
	"sort"
	"sync"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// Confidence says how directly an estimate rests on measurements.
type Confidence string

// Confidence levels, from most to least direct.
const (
	Measured     Confidence = "measured"              // a published result for this benchmark, GPU, precision and count
	Interpolated Confidence = "same-gpu-interpolated" // this GPU and benchmark measured at other counts
	Transferred  Confidence = "transferred"           // this benchmark measured on other GPUs, carried over by specs
	SpecsOnly    Confidence = "specs-only"            // no result for this benchmark: class averages and specs
)

var confidences = []Confidence{Measured, Interpolated, Transferred, SpecsOnly}

// Fabric is how the GPUs of a run are connected.
type Fabric struct {
	Link        string  // intra-node: nvswitch, nvlink, xgmi, pcie, none; "" = the GPU's usual
	NetworkGbps float64 // per node, across nodes
	RDMA        string  // efa, infiniband, erdma, roce, none, ""
	// Instance is true when the fabric is a real instance type's (an offer),
	// false for a hypothetical GPU count.
	Instance bool
}

type gkey struct {
	bench string
	prec  Precision
}

// Model is a fitted performance model. Build it with Fit.
type Model struct {
	specs  map[string]Spec
	points []Point
	alpha  map[Class]float64
	beta   map[Class]float64
	c      map[gkey]float64
	classC map[Class]float64 // class average intercept, per log-parameter for LLMs
	// suiteC is the class average per suite (key class|suite); suiteGap the
	// mean log gap of framework tables below tuned submissions, measured on
	// the classes that have both, and gapClasses those classes.
	suiteC     map[string]float64
	suiteGap   float64
	gapClasses []Class
	arch       map[string]float64
	tt         map[string]ttFit
	t1         map[int]float64 // per-GPU throughput of each throughput point, by index
	rows       []prow
	groups     []gkey // index → group
	cArr       []float64
	archArr    []float64
	archs      []string // index → architecture key
	llm        llmFit   // LLM serving efficiencies per stack ("" = all) and terms; read through llmFit
	llmOnce    sync.Once
	// fingerprint identifies the rows the alphas were chosen on.
	fingerprint uint64
	mfu         MFUFit // published large-model training MFU
	// Bands is the uncertainty of each confidence level: the 80th
	// percentile of |log(predicted/actual)| in leave-one-out validation.
	Bands map[Confidence]float64
}

// prow is a throughput point prepared for fitting.
type prow struct {
	class          Class
	g              gkey
	archKey        string
	gi, ai         int // indexes of g and archKey
	logPeak, logBW float64
	hasBW          bool
	y              float64 // log per-GPU throughput
	logParams      float64 // log model parameters, 0 when unknown
}

// ttFit is a time-to-train benchmark's fit: log minutes = y(log N) −
// log speed(GPU), where y is piecewise linear in log N through the
// published scales (speed-normalised, averaged per scale). Strong-scaling
// efficiency changes with scale (larger batches need more samples to
// converge), so a query between two published scales is interpolated
// between them and one outside is carried by the slope of the nearest two.
type ttFit struct {
	xs, ys []float64 // distinct log GPU counts, ascending, and mean normalised log minutes
	proxy  Class
}

// fitted reports whether the scaling slope comes from several published scales.
func (f ttFit) fitted() bool { return len(f.xs) >= 2 }

// at is the normalised log minutes at log GPU count x and the local
// scaling exponent (time ∝ GPUs^-s), capped to [0, 1]: time cannot fall
// faster than the GPU count rises with the work fixed.
func (f ttFit) at(x float64) (y, s float64) {
	if len(f.xs) == 1 {
		return f.ys[0] - defaultTTSlope*(x-f.xs[0]), defaultTTSlope
	}
	i := 0
	for i < len(f.xs)-2 && x > f.xs[i+1] {
		i++
	}
	s = -(f.ys[i+1] - f.ys[i]) / (f.xs[i+1] - f.xs[i])
	s = math.Max(0, math.Min(s, 1))
	// Anchor on the nearer published scale of the pair.
	j := i
	if math.Abs(x-f.xs[i+1]) < math.Abs(x-f.xs[i]) {
		j = i + 1
	}
	return f.ys[j] - s*(x-f.xs[j]), s
}

// defaultTTSlope is the time-to-train scaling exponent used when a
// benchmark has results at a single scale: between MLPerf's ResNet-50
// (0.70 from 8 to 3,584 H100) and GPT-3 (0.99 from 3,584 to 11,616 H100).
const defaultTTSlope = 0.85

// archShrink regularises the per-architecture terms toward zero.
const archShrink = 2.0

// suite separates tuned benchmark submissions (MLPerf, TensorRT) from
// framework measurements (PyTorch/TensorFlow tables): software maturity
// per architecture differs between them.
func suite(bench string) string {
	if len(bench) >= 7 && bench[:7] == "mlperf-" {
		return "mlperf"
	}
	return "framework"
}

// archKey is the key of an architecture term.
func archKey(bench, arch string) string { return suite(bench) + ":" + arch }

// llmScale is 1 for classes whose work per unit of throughput grows with
// the model (tokens of an LLM), so that a class average is per parameter.
func llmScale(cl Class) float64 {
	if cl == LLMInfer || cl == LLMTrain {
		return 1
	}
	return 0
}

// calibFabric is the fabric of a calibration result's system: SXM parts
// in NVSwitch systems (DGX/HGX), PCIe parts on PCIe, and between nodes the
// fabric its vendor documents for the system (systemFabrics: DGX A100
// 8×200 Gb/s HDR InfiniBand, DGX H100 and Eos 8×400 Gb/s NDR), else one
// InfiniBand rail per GPU at the rate of the GPU's generation (railGbps,
// the rail-optimised GPU node).
func calibFabric(s Spec, p Point) Fabric {
	f := Fabric{}
	if p.Nodes < 2 {
		return f
	}
	if sf, ok := FabricOf(p.System); ok {
		f.NetworkGbps, f.RDMA = sf.Gbps(), sf.RDMA
		return f
	}
	per := (p.Count + p.Nodes - 1) / p.Nodes
	f.NetworkGbps, f.RDMA = float64(per)*railGbps(s.Arch), "infiniband"
	return f
}

// Fit fits the model on points; specs maps GPU IDs to specifications.
// Points whose GPU has no usable specification are kept as measurements
// but do not enter the spec fit.
func Fit(points []Point, specs map[string]Spec) *Model {
	return fitWith(points, specs, fittedAlpha)
}

// fitWith fits the model, taking the alphas from rec when the rows are the
// ones rec was recorded for.
func fitWith(points []Point, specs map[string]Spec, rec alphaFit) *Model {
	m := &Model{specs: specs, points: points, alpha: map[Class]float64{}, beta: map[Class]float64{},
		c: map[gkey]float64{}, classC: map[Class]float64{}, arch: map[string]float64{}, tt: map[string]ttFit{},
		t1: map[int]float64{}, Bands: map[Confidence]float64{}}
	for k, v := range alphaPrior {
		m.alpha[k] = v
	}
	m.fitBeta()
	gpusByClass := map[Class]map[string]bool{}
	fp := newFingerprint()
	for i, p := range points {
		if p.IsTime() {
			continue
		}
		t1 := m.perGPU(p)
		m.t1[i] = t1
		s, ok := specs[p.GPU]
		if !ok {
			continue
		}
		peak, _, _, ok := s.PeakFor(p.Precision)
		if !ok {
			continue
		}
		b := Describe(p.Benchmark)
		r := prow{class: b.Class, g: gkey{p.Benchmark, p.Precision}, archKey: archKey(p.Benchmark, s.Arch),
			logPeak: logp(peak), logBW: logp(s.BandwidthGBs), hasBW: s.BandwidthGBs > 0, y: math.Log(t1)}
		if b.Params > 0 {
			r.logParams = math.Log(b.Params)
		}
		r.gi, r.ai = -1, -1
		for j, g := range m.groups {
			if g == r.g {
				r.gi = j
			}
		}
		if r.gi < 0 {
			r.gi = len(m.groups)
			m.groups = append(m.groups, r.g)
		}
		for j, a := range m.archs {
			if a == r.archKey {
				r.ai = j
			}
		}
		if r.ai < 0 {
			r.ai = len(m.archs)
			m.archs = append(m.archs, r.archKey)
		}
		m.rows = append(m.rows, r)
		fp.row(&r, p.GPU)
		if gpusByClass[b.Class] == nil {
			gpusByClass[b.Class] = map[string]bool{}
		}
		gpusByClass[b.Class][p.GPU] = true
	}
	m.fingerprint = fp.sum()
	if a, ok := rec.lookup(m.fingerprint); ok {
		// The embedded data: the grid search's result, recorded at build
		// time (alpha_fitted.go; TestFittedAlphaIsCurrent).
		m.alpha = a
	} else {
		m.searchAlpha(gpusByClass)
	}
	m.fitLinear()
	m.fitTimeToTrain()
	return m
}

// searchAlpha chooses each class's alpha on a grid (two passes, others
// held), for the classes with results on at least three GPUs.
func (m *Model) searchAlpha(gpusByClass map[Class]map[string]bool) {
	for pass := 0; pass < 2; pass++ {
		for _, cl := range classes {
			if len(gpusByClass[cl]) < 3 {
				continue // too few GPUs to tell compute from bandwidth
			}
			best, bestErr := m.alpha[cl], math.Inf(1)
			for step := 0; step <= 10; step++ {
				m.alpha[cl] = float64(step) / 10
				m.solveLinear()
				if e := m.sse(cl); e < bestErr-1e-12 {
					best, bestErr = m.alpha[cl], e
				}
			}
			m.alpha[cl] = best
		}
	}
}

// rx is a prepared row's spec term.
func (m *Model) rx(r *prow) float64 {
	if !r.hasBW {
		return r.logPeak
	}
	a := m.alpha[r.class]
	return a*r.logPeak + (1-a)*r.logBW
}

// x is the spec term of a GPU at a precision for a class:
// alpha·log(peak) + (1−alpha)·log(bandwidth).
func (m *Model) x(gpu string, p Precision, cl Class) (float64, bool) {
	s, ok := m.specs[gpu]
	if !ok {
		return 0, false
	}
	peak, _, _, ok := s.PeakFor(p)
	if !ok {
		return 0, false
	}
	r := prow{class: cl, logPeak: logp(peak), logBW: logp(s.BandwidthGBs), hasBW: s.BandwidthGBs > 0}
	return m.rx(&r), true
}

// fitLinear fits the intercepts per (benchmark, precision) and the
// per-architecture terms by alternating means (ridge-shrunk architecture
// terms), then the class averages used when a benchmark has no results.
func (m *Model) fitLinear() {
	m.solveLinear()
	m.summarise()
}

// solveLinear fits the intercepts per (benchmark, precision) and the
// per-architecture terms (m.cArr, m.archArr) by alternating means.
func (m *Model) solveLinear() {
	ng, na := len(m.groups), len(m.archs)
	c, arch := make([]float64, ng), make([]float64, na)
	sum, n := make([]float64, ng), make([]float64, ng)
	asum, an := make([]float64, na), make([]float64, na)
	xs := make([]float64, len(m.rows))
	for i := range m.rows {
		xs[i] = m.rx(&m.rows[i])
	}
	for it := 0; it < 25; it++ {
		clear(sum)
		clear(n)
		for i := range m.rows {
			r := &m.rows[i]
			sum[r.gi] += r.y - xs[i] - arch[r.ai]
			n[r.gi]++
		}
		for g := range c {
			c[g] = sum[g] / n[g]
		}
		clear(asum)
		clear(an)
		for i := range m.rows {
			r := &m.rows[i]
			asum[r.ai] += r.y - xs[i] - c[r.gi]
			an[r.ai]++
		}
		for a := range arch {
			arch[a] = asum[a] / (an[a] + archShrink)
		}
	}
	m.cArr, m.archArr = c, arch
}

// summarise keys the fitted terms and computes the class and suite
// averages used when a benchmark has no results.
func (m *Model) summarise() {
	ng, na := len(m.groups), len(m.archs)
	c, arch := m.cArr, m.archArr
	m.c = make(map[gkey]float64, ng)
	for i, g := range m.groups {
		m.c[g] = c[i]
	}
	m.arch = make(map[string]float64, na)
	for i, a := range m.archs {
		m.arch[a] = arch[i]
	}
	sums, ns := map[Class]float64{}, map[Class]float64{}
	seen := make([]bool, ng)
	for i := range m.rows {
		r := &m.rows[i]
		if seen[r.gi] {
			continue
		}
		seen[r.gi] = true
		sums[r.class] += c[r.gi] + llmScale(r.class)*r.logParams
		ns[r.class]++
	}
	m.classC = map[Class]float64{}
	for cl := range sums {
		m.classC[cl] = sums[cl] / ns[cl]
	}
	ssum, sn := map[string]float64{}, map[string]float64{}
	clear(seen)
	for i := range m.rows {
		r := &m.rows[i]
		if seen[r.gi] {
			continue
		}
		seen[r.gi] = true
		k := string(r.class) + "|" + suite(r.g.bench)
		ssum[k] += c[r.gi] + llmScale(r.class)*r.logParams
		sn[k]++
	}
	m.suiteC = map[string]float64{}
	for k := range ssum {
		m.suiteC[k] = ssum[k] / sn[k]
	}
	m.suiteGap, m.gapClasses = 0, nil
	for _, cl := range classes {
		f, ok1 := m.suiteC[string(cl)+"|framework"]
		t, ok2 := m.suiteC[string(cl)+"|mlperf"]
		if ok1 && ok2 {
			m.suiteGap += f - t
			m.gapClasses = append(m.gapClasses, cl)
		}
	}
	if len(m.gapClasses) > 0 {
		m.suiteGap /= float64(len(m.gapClasses))
	}
}

// sse is the in-sample squared log error of a class.
func (m *Model) sse(cl Class) float64 {
	e := 0.0
	for i := range m.rows {
		r := &m.rows[i]
		if r.class != cl {
			continue
		}
		d := r.y - (m.cArr[r.gi] + m.rx(r) + m.archArr[r.ai])
		e += d * d
	}
	return e
}

// fitBeta fits each training class's communication coefficient from pairs
// of 1-GPU and N-GPU results of the same benchmark, precision and GPU:
//
//	E = 1 / (1 + beta · 2(N−1)/N · T1 / busbw)  ⇒  beta = (1/E − 1) · busbw / (2(N−1)/N · T1)
//
// beta is in GB per sample: the all-reduce traffic per sample that
// compute does not hide. A class without pairs borrows the median of the
// others.
func (m *Model) fitBeta() {
	byClass := map[Class][]float64{}
	var all []float64
	for _, p := range m.points {
		cl := Describe(p.Benchmark).Class
		if p.IsTime() || p.Count < 2 || !cl.Training() {
			continue
		}
		for _, q := range m.points {
			if q.Count != 1 || q.Benchmark != p.Benchmark || q.Precision != p.Precision || q.GPU != p.GPU {
				continue
			}
			e := p.Value / (float64(p.Count) * q.Value)
			if e >= 1 {
				continue
			}
			bw, _ := m.busbw(p.GPU, p.Count, p.Nodes, calibFabric(m.specs[p.GPU], p))
			g := 2 * float64(p.Count-1) / float64(p.Count)
			b := (1/e - 1) * bw / (g * q.Value)
			byClass[cl] = append(byClass[cl], b)
			all = append(all, b)
		}
	}
	med := median(all)
	if med == 0 {
		med = 0.005 // no pairs at all: ~5 MB per sample (assumption)
	}
	for _, cl := range classes {
		if !cl.Training() {
			continue
		}
		if v := byClass[cl]; len(v) > 0 {
			m.beta[cl] = geomean(v)
		} else {
			m.beta[cl] = med
		}
	}
}

// busbw is the all-reduce bandwidth for count GPUs on nodes nodes.
func (m *Model) busbw(gpu string, count, nodes int, f Fabric) (float64, []i18n.Msg) {
	s := m.specs[gpu]
	intra, note := intraBusBW(s, f.Link)
	notes := []i18n.Msg{note}
	if nodes > 1 {
		per := 8
		if nodes > 0 && count >= nodes {
			per = count / nodes
		}
		inter, n2 := interBusBW(f, s, per)
		notes = append(notes, n2...)
		return math.Min(intra, inter), notes
	}
	return intra, notes
}

// efficiency is the data-parallel scaling efficiency of count GPUs for a
// class at per-GPU throughput t1: 1 for inference (independent replicas),
// else 1 / (1 + beta · 2(N−1)/N · t1 / busbw).
func (m *Model) efficiency(cl Class, gpu string, count, nodes int, t1 float64, f Fabric) (float64, []i18n.Msg) {
	if count < 2 || !cl.Training() {
		return 1, nil
	}
	bw, notes := m.busbw(gpu, count, nodes, f)
	g := 2 * float64(count-1) / float64(count)
	return 1 / (1 + m.beta[cl]*g*t1/bw), notes
}

// perGPU is a calibration point's throughput per GPU, with its own
// system's scaling removed (a short fixed-point iteration, since
// efficiency depends on per-GPU throughput).
func (m *Model) perGPU(p Point) float64 {
	cl := Describe(p.Benchmark).Class
	t1 := p.Value / float64(p.Count)
	for i := 0; i < 8; i++ {
		e, _ := m.efficiency(cl, p.GPU, p.Count, p.Nodes, t1, calibFabric(m.specs[p.GPU], p))
		t1 = p.Value / (float64(p.Count) * e)
	}
	return t1
}

// fitTimeToTrain fits each time-to-train benchmark: its published scales
// with the GPU's speed term removed, averaged per scale.
func (m *Model) fitTimeToTrain() {
	by := map[string][]Point{}
	for _, p := range m.points {
		if p.IsTime() {
			by[p.Benchmark] = append(by[p.Benchmark], p)
		}
	}
	for b, pts := range by {
		proxy := Describe(b).Class
		sum, n := map[float64]float64{}, map[float64]float64{}
		for _, p := range pts {
			sp, ok := m.speed(p.GPU, p.Precision, proxy)
			if !ok {
				continue
			}
			x := math.Log(float64(p.Count))
			sum[x] += math.Log(p.Value) + sp
			n[x]++
		}
		if len(sum) == 0 {
			continue
		}
		f := ttFit{proxy: proxy}
		for x := range sum {
			f.xs = append(f.xs, x)
		}
		sort.Float64s(f.xs)
		for _, x := range f.xs {
			f.ys = append(f.ys, sum[x]/n[x])
		}
		m.tt[b] = f
	}
}

// speed is the log of a GPU's relative speed for a class: its spec term
// plus its architecture term.
func (m *Model) speed(gpu string, p Precision, cl Class) (float64, bool) {
	x, ok := m.x(gpu, p, cl)
	if !ok {
		return 0, false
	}
	return x + m.arch[archKey("mlperf-", m.specs[gpu].Arch)], true
}

// Alpha returns the fitted compute share of a class.
func (m *Model) Alpha(cl Class) float64 { return m.alpha[cl] }

// ArchTerm returns the fitted architecture term (log scale) of a suite
// ("mlperf" or "framework").
func (m *Model) ArchTerm(suite, arch string) float64 { return m.arch[suite+":"+arch] }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func geomean(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += math.Log(x)
	}
	return math.Exp(t / float64(len(v)))
}

func distinct(v []float64) int {
	seen := map[float64]bool{}
	for _, x := range v {
		seen[x] = true
	}
	return len(seen)
}

// slope is the least-squares slope of ys on xs.
func slope(xs, ys []float64) float64 {
	mx, my := 0.0, 0.0
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(ys))
	num, den := 0.0, 0.0
	for i := range xs {
		num += (xs[i] - mx) * (ys[i] - my)
		den += (xs[i] - mx) * (xs[i] - mx)
	}
	if den == 0 {
		return 0
	}
	return num / den
}
