package recommend

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// instanceCounts are the instance counts tried for a multi-node job.
var instanceCounts = [...]int{1, 2, 4, 8, 16, 32, 64, 128}

// Sizing assumptions, each named in the plans that use them.
const (
	// deadlineMargin: a job is sized so that the upper end of its time
	// band (the estimate's stated uncertainty) still meets the deadline.
	deadlineMargin = "upper band"
	// speedGain: with priority time, the count keeps doubling while a
	// doubling still cuts the wall time by at least this share.
	speedGain = 0.25
	// startupHours is the assumed time from launch to work (boot, image
	// and driver set-up, data staging), billed on every instance.
	startupHours = 5.0 / 60
	// noRDMAPenalty is the assumed slow-down of multi-node training over
	// plain Ethernet (no RDMA), when the model applies none itself.
	noRDMAPenalty = 0.3
	// scalingBenchmark is the calibration benchmark whose data-parallel
	// scaling efficiency stands for training jobs the model scales
	// linearly (all-reduce over the fabric, fitted on MLPerf results).
	scalingBenchmark = "bert-large-pretrain-seq128-throughput"
	// capacityBlockWindDown: AWS begins terminating a Capacity Block's
	// instances 30 minutes before the block ends (a warning event 40
	// minutes before, termination 10 minutes later;
	// https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-monitor.html).
	capacityBlockWindDown = 0.5
)

type estKey struct {
	gpu          string
	count, nodes int
	link, rdma   string
	net          float64
	bench        string
}

// run is one Recommend call's context.
type run struct {
	e        *Engine
	r        Requirements
	p        *i18n.Printer
	res      *Result
	cur      string
	cache    map[estKey]*perf.Estimate
	cacheErr map[estKey]error
	// cands is the block keep stores feasible candidates in; scratch
	// holds the details of a job's candidates while it is evaluated (one
	// per instance count).
	cands   []cand
	scratch [len(instanceCounts)]detail
	// termWhys are the term rejections built so far (termWhy).
	termWhys map[termKey]*why
	// scale is what the scores are relative to (score).
	scale scoreScale
	// rates are the hourly rates converted so far (rate).
	rates map[rateKey]float64
	near  []place
	// fastestMiss is the fastest candidate the deadline rejected (the
	// first of equals), for the no-plan answer.
	fastestMiss *deadlineMiss
	// budgetMiss is the cheapest candidate the budget rejected.
	budgetMiss *budgetMiss
	// dists are the spot time distributions simulated so far (spotDist).
	dists map[distKey]spot.SimResult
	// detailing is set while full rebuilds a candidate's details: a spot
	// job's time distribution is simulated then even without a deadline.
	detailing bool
}

func (x *run) reject(o *catalog.Offer, stage, key string, args ...any) {
	x.res.Rejected = append(x.res.Rejected, Rejection{offer: o, Stage: stage, Reason: x.p.T(key, args...)})
}

// rejectWhy rejects o for w, rendering w's reason once however many
// offers share it (see termWhy).
func (x *run) rejectWhy(o *catalog.Offer, w *why) {
	if w.text == "" {
		w.text = x.p.T(w.key, w.args...)
	}
	x.res.Rejected = append(x.res.Rejected, Rejection{offer: o, Stage: w.stage, Reason: w.text})
}

// evaluate turns offers into priced, timed candidates; rejections go to res.
func (x *run) evaluate(offers []*catalog.Offer) ([]*cand, error) {
	r := x.r
	out := make([]*cand, 0, len(offers)) // one per offer, most often
	for _, o := range offers {
		it := o.Instance
		whole := it.GPUCount.Equal(it.GPUCount.Truncate(0))
		if !whole && r.Workload.GPUHours == 0 {
			x.reject(o, "fit", "rec.rej.fraction", it.GPUCount.String())
			continue
		}
		if r.reservation() {
			c, w, err := x.reservation(o)
			if err != nil {
				return nil, err
			}
			if w != nil {
				x.rejectWhy(o, w)
				continue
			}
			out = append(out, c)
			continue
		}
		if r.service() {
			c, key, args, err := x.service(o)
			if err != nil {
				return nil, err
			}
			if key != "" {
				stage := "fit"
				if key == "rec.rej.budget" {
					stage = "budget"
				}
				x.reject(o, stage, key, args...)
				continue
			}
			out = append(out, c)
			continue
		}
		var err error
		if out, err = x.jobCounts(o, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// why is a rejection's stage and reason (an i18n key and its arguments).
type why struct {
	stage, key string
	args       []any
	text       string // the reason rendered (rejectWhy), once
}

// rateKey is an hourly rate in a currency.
type rateKey struct {
	amount   float64
	currency string
}

// rate is o's effective hourly rate in the result's currency. Offers in
// other currencies often share a rate (one price list, many regions): each
// distinct rate is converted once per run.
func (x *run) rate(o *catalog.Offer) (float64, error) {
	k := rateKey{o.EffectiveHourly().InexactFloat64(), o.Price.Currency}
	if k.currency == x.cur {
		return k.amount, nil
	}
	if v, ok := x.rates[k]; ok {
		return v, nil
	}
	v, err := x.e.toCur(k.amount, k.currency, x.cur)
	if err != nil {
		return 0, err
	}
	if x.rates == nil {
		x.rates = map[rateKey]float64{}
	}
	x.rates[k] = v
	return v, nil
}

// termKey is what a term's rejection says: the billing model (its term)
// and the job's hours.
type termKey struct {
	billing catalog.Billing
	hours   float64
}

// termWhy rejects a commitment whose term is longer than twice the job's
// hours. Thousands of offers share a few terms and job lengths, so each
// such reason is built once per run and shared.
func (x *run) termWhy(b catalog.Billing, term, hours float64) *why {
	k := termKey{b, hours}
	if w, ok := x.termWhys[k]; ok {
		return w
	}
	w := &why{stage: "term", key: "rec.rej.term", args: []any{x.p.Billing(string(b), b.Family()), term, hours}}
	if x.termWhys == nil {
		x.termWhys = map[termKey]*why{}
	}
	x.termWhys[k] = w
	return w
}

// jobCounts evaluates a finite job on o at every allowed instance count and
// keeps the sizes worth showing: the smallest count that meets the
// deadline with the margin (or the smallest that fits), and with priority
// time also the fastest count whose last doubling still paid.
//
// The kept candidates are appended to out; the others, like those the
// evaluation rejects, are never stored beyond this call.
func (x *run) jobCounts(o *catalog.Offer, out []*cand) ([]*cand, error) {
	r := x.r
	it := o.Instance
	g := it.GPUCount.InexactFloat64()
	counts := instanceCounts[:1]
	if r.MultiNode {
		counts = instanceCounts[:]
	}
	var okBuf [len(instanceCounts)]cand // one per count
	ok := okBuf[:0]
	var last *why
	// The candidates' details are built in the run's scratch space and
	// dropped when kept (keep).
	for _, n := range counts {
		total := float64(n) * g
		if r.MaxGPUs > 0 && total > float64(r.MaxGPUs) {
			break
		}
		if r.MinGPUs > 0 && total < float64(r.MinGPUs) {
			last = &why{stage: "fit", key: "rec.rej.min_gpus", args: []any{total, r.MinGPUs}}
			continue
		}
		mem := it.VRAMPerGPUGB().InexactFloat64() * math.Max(total, float64(n))
		if r.MinTotalVRAMGB > 0 && mem < r.MinTotalVRAMGB {
			last = &why{stage: "fit", key: "rec.rej.total_vram", args: []any{mem, r.MinTotalVRAMGB}}
			continue
		}
		ok = append(ok, cand{detail: &x.scratch[len(ok)]})
		c := &ok[len(ok)-1]
		w, err := x.job(o, n, c)
		if w != nil || err != nil {
			ok = ok[:len(ok)-1]
		}
		if err != nil {
			return nil, err
		}
		if w != nil && w.stage == "rdma" {
			// More nodes fail the same way: say why one node did not do.
			if last != nil {
				w = &why{stage: w.stage, key: "rec.rej.then", args: []any{x.p.T(last.key, last.args...), x.p.T(w.key, w.args...)}}
			}
			last = w
			break
		}
		if w != nil {
			// The smallest count's reason says most, except for the
			// deadline, where the fastest count's time does.
			if last == nil || w.stage == "deadline" || last.key == "rec.rej.min_gpus" || last.key == "rec.rej.total_vram" {
				last = w
			}
			continue
		}
	}
	if len(ok) == 0 {
		if last == nil {
			last = &why{stage: "fit", key: "rec.rej.count_bounds", args: []any{g}}
		}
		x.rejectWhy(o, last)
		return out, nil
	}
	// The smallest count that meets the deadline with the margin; without
	// a deadline, the smallest that fits.
	pick := &ok[0]
	pick.sizing = "rec.size_smallest"
	if d := r.DeadlineHours; d > 0 {
		found := false
		for i := range ok {
			if ok[i].high <= d {
				pick, found = &ok[i], true
				pick.sizing = "rec.size_deadline"
				break
			}
		}
		if !found {
			pick.sizing = "rec.size_no_margin"
		}
	}
	out = append(out, x.keep(pick))
	if r.weights().Time > r.weights().Cost {
		fast := pick
		for i := range ok {
			c := &ok[i]
			if c.instances <= fast.instances {
				continue
			}
			if c.hours > fast.hours*(1-speedGain) {
				break
			}
			fast = c
		}
		if fast != pick {
			fast.sizing = "rec.size_speed"
			out = append(out, x.keep(fast))
		}
	}
	return out, nil
}

// candBlock is how many candidates keep allocates at a time.
const candBlock = 64

// keep stores a feasible job candidate for the rest of the run, without
// its details (full restores them), and returns the stored copy.
// Candidates are stored in blocks, and only those kept: an offer the
// evaluation rejects costs no memory beyond its rejection.
func (x *run) keep(c *cand) *cand {
	if len(x.cands) == cap(x.cands) {
		x.cands = make([]cand, 0, candBlock)
	}
	k := *c
	k.detail = nil
	x.cands = append(x.cands, k)
	return &x.cands[len(x.cands)-1]
}

// full restores the details of a job candidate that keep stored without
// them, by evaluating its offer on its instance count again: the same
// arithmetic on the same inputs (the estimates are cached), so the same
// figures, which it checks.
func (x *run) full(c *cand) error {
	if c.detail != nil {
		return nil
	}
	f := cand{detail: &detail{}}
	x.detailing = true
	w, err := x.job(c.offer, c.instances, &f)
	x.detailing = false
	if err != nil {
		return err
	}
	if w != nil || f.hours != c.hours || f.cost != c.cost || f.risk != c.risk {
		return fmt.Errorf("recommend: internal error: %s ×%d evaluated differently the second time", c.offer.ID(), c.instances)
	}
	if f.est != nil {
		est := *f.est
		f.est = &est
	}
	c.detail = f.detail
	return nil
}

// estimate runs the performance model for a job on n instances of o.
func (x *run) estimate(o *catalog.Offer, n int, bench string, p perf.Precision) (*perf.Estimate, error) {
	r := x.r
	it := o.Instance
	g := int(it.GPUCount.IntPart())
	k := estKey{gpu: it.GPUID, count: g * n, nodes: n, link: it.GPUInterconnect, rdma: it.RDMA, net: it.NetworkGbps.InexactFloat64(), bench: bench + "/" + string(p)}
	q := perf.Query{Benchmark: r.Workload.Benchmark, GPU: it.GPUID, Count: g * n, Nodes: n, GPUsPerNode: g,
		Fabric: perf.Fabric{Link: it.GPUInterconnect, NetworkGbps: k.net, RDMA: it.RDMA, Instance: true}}
	return cached(x.cache, x.cacheErr, k, func() (*perf.Estimate, error) {
		if bench != "" {
			q.Benchmark = bench
			return x.e.Perf.Estimate(q)
		}
		if r.Workload.Job != nil {
			j := *r.Workload.Job
			j.Precision, q.Precision = p, p
			return x.e.Perf.EstimateJob(j, q)
		}
		return x.e.Perf.Estimate(q)
	})
}

// hasRDMA reports whether an instance has a known RDMA fabric.
func hasRDMA(it *catalog.InstanceType) bool { return it.RDMA != "" && it.RDMA != catalog.RDMANone }

// job evaluates a finite job on n instances of o.
// The candidate is built in c, which the caller keeps only when the
// job is feasible (no reason, no error).
func (x *run) job(o *catalog.Offer, n int, c *cand) (*why, error) {
	r := x.r
	it := o.Instance
	d := c.detail
	*d = detail{nodes: n, scaling: 1}
	*c = cand{offer: o, instances: n, detail: d}
	c.gpus = int(math.Round(it.GPUCount.InexactFloat64() * float64(n)))
	if n > 1 && r.training() && !hasRDMA(it) && !r.AllowNoRDMA {
		return &why{stage: "rdma", key: "rec.rej.no_rdma_multinode", args: []any{n, x.fabricName(it.RDMA)}}, nil
	}
	switch w := r.Workload; {
	case w.GPUHours > 0:
		scale := 1.0
		if w.GPUHoursOn != "" {
			ref, ok := x.e.Catalog.GPU(w.GPUHoursOn)
			if !ok {
				return nil, inputErr("workload.gpu_hours_on", "unknown GPU model %q", w.GPUHoursOn)
			}
			a, b := ref.FP16TFLOPS.InexactFloat64(), it.GPU.FP16TFLOPS.InexactFloat64()
			if a > 0 && b > 0 {
				scale = a / b
			}
		}
		gpus := it.GPUCount.InexactFloat64() * float64(n)
		c.hours = w.GPUHours * scale / gpus
		c.low, c.high = c.hours, c.hours
	default:
		prec := perf.Precision("")
		if w.Job != nil {
			prec = w.Job.Precision
		}
		if prec == perf.FP8 && !it.GPU.FP8TFLOPS.IsPositive() {
			return &why{stage: "precision", key: "rec.rej.no_fp8", args: []any{it.GPUID}}, nil
		}
		fp64 := prec == FP64
		if fp64 {
			prec = perf.FP32
		}
		est, err := x.estimate(o, n, "", prec)
		if err != nil {
			return &why{stage: "fit", key: "rec.rej.no_estimate", args: []any{perf.ErrorMsg(err)}}, nil
		}
		if est.Memory != nil && !est.Memory.Fits {
			return &why{stage: "fit", key: "rec.rej.memory", args: []any{est.Memory.NeedGB, c.gpus, est.Memory.PerGPUGB}}, nil
		}
		c.est = est // the cached estimate, read only (full gives a plan its own copy)
		switch {
		case est.Minutes > 0 && (w.Job != nil || est.Unit == "minutes"):
			c.hours, c.low, c.high = est.Minutes/60, est.MinutesLow/60, est.MinutesHigh/60
		case w.Samples > 0:
			c.hours = w.Samples / est.Throughput / 3600
			f := est.High / est.Throughput
			c.low, c.high = c.hours/f, c.hours*f
		default:
			return nil, inputErr("workload.samples", "%s is a throughput benchmark: give the work to do (samples, in %s × seconds)", w.Benchmark, est.Unit)
		}
		if fp64 {
			f64, f32 := it.GPU.FP64TFLOPS.InexactFloat64(), it.GPU.FP32TFLOPS.InexactFloat64()
			if !(f64 > 0) || !(f32 > 0) {
				return &why{stage: "precision", key: "rec.rej.no_fp64", args: []any{it.GPUID}}, nil
			}
			f := f32 / f64
			c.hours, c.low, c.high = c.hours*f, c.low*f, c.high*f
			c.fp64 = f64
		}
		// Multi-node scaling: where the model scales this job linearly,
		// apply the data-parallel efficiency it fits on the calibration
		// benchmark for the same GPUs, nodes and fabric.
		if n > 1 && r.training() && w.Job != nil {
			one, err1 := x.estimate(o, 1, "", prec)
			if err1 == nil && one.Minutes > 0 && math.Abs(one.Minutes/(est.Minutes*float64(n))-1) < 0.01 {
				bn, errN := x.estimate(o, n, scalingBenchmark, "")
				b1, errOne := x.estimate(o, 1, scalingBenchmark, "")
				if errN == nil && errOne == nil && bn.Efficiency > 0 && b1.Efficiency > 0 {
					c.scaling = bn.Efficiency / b1.Efficiency
					for _, a := range bn.Assumptions {
						if strings.HasPrefix(a.Key, "perf.as.inter") || strings.HasPrefix(a.Key, "perf.as.rail") {
							c.fabric = append(c.fabric, a)
						}
					}
				}
				if !hasRDMA(it) && !hasAssumption(est, "RDMA") {
					c.scaling *= 1 - noRDMAPenalty
				}
				if c.scaling < 1 {
					c.hours, c.low, c.high = c.hours/c.scaling, c.low/c.scaling, c.high/c.scaling
				}
			}
		}
	}
	if c.hours <= 0 || math.IsInf(c.hours, 0) || math.IsNaN(c.hours) {
		return &why{stage: "fit", key: "rec.rej.no_time", args: nil}, nil
	}
	return x.priceJob(o, n, c, startupHours)
}

// reservation holds cluster_gpus GPUs of o for exactly r.Hours: no
// performance model, no start-up added (the hours are the time held).
func (x *run) reservation(o *catalog.Offer) (*cand, *why, error) {
	r := x.r
	it := o.Instance
	g := int(it.GPUCount.IntPart())
	if g < 1 {
		return nil, &why{stage: "fit", key: "rec.rej.fraction", args: []any{it.GPUCount.String()}}, nil
	}
	n := (r.Workload.ClusterGPUs + g - 1) / g
	if n > 1 && !r.MultiNode {
		return nil, &why{stage: "fit", key: "rec.rej.cluster_multinode", args: []any{r.Workload.ClusterGPUs, n}}, nil
	}
	if n > 1 && !hasRDMA(it) && !r.AllowNoRDMA {
		return nil, &why{stage: "rdma", key: "rec.rej.no_rdma_multinode", args: []any{n, x.fabricName(it.RDMA)}}, nil
	}
	c := &cand{offer: o, instances: n, sizing: "rec.size_reservation", detail: &detail{nodes: n, gpus: n * g, scaling: 1}}
	c.hours, c.low, c.high = r.Hours, r.Hours, r.Hours
	w, err := x.priceJob(o, n, c, 0)
	if w != nil || err != nil {
		return nil, w, err
	}
	return c, nil, nil
}

// priceJob bills a finite job of c.hours on n instances of o (adding
// startup hours), checks the deadline and the budget, and sets its risk.
func (x *run) priceJob(o *catalog.Offer, n int, c *cand, startup float64) (*why, error) {
	r := x.r
	it := o.Instance
	eff, err := x.rate(o)
	if err != nil {
		return nil, err
	}
	c.work = c.hours
	switch {
	case o.Billing == catalog.Spot:
		risk := spot.RiskFor(x.e.Catalog, o, r.MTBIHours)
		sp := spot.Analyze(spot.Job{Work: c.hours, Checkpoint: checkpointHours, Restart: restartHours}, risk)
		if math.IsInf(sp.ExpectedHours, 1) {
			return &why{stage: "fit", key: "rec.rej.spot_too_frequent", args: []any{risk.MTBI}}, nil
		}
		// One distribution of the time: the estimate's error and the
		// interruptions together (spotDist); its P10 and P90 are the
		// plan's range, its share past the deadline the plan's risk.
		sigma := 0.0
		if c.high > c.hours {
			sigma = math.Log(c.high/c.hours) / z90
		}
		c.hours = sp.ExpectedHours
		c.spotPlan, c.spotRisk = &sp, &risk
		if r.DeadlineHours > 0 || x.detailing {
			d := x.spotDist(c.work, sigma, risk, sp)
			c.low, c.high = d.P10Hours, d.P90Hours
			c.spotMiss, c.spotP50 = d.DeadlineMiss, d.P50Hours+startup
		} else {
			f := sp.ExpectedHours / c.work
			c.low, c.high = c.low*f, c.high*f
		}
		c.risk += 0.03
		if risk.Assumed {
			c.risk += 0.05
		}
	case o.Billing.IsCommitment():
		term := float64(o.Billing.TermHours())
		if term > 2*c.hours {
			return x.termWhy(o.Billing, term, c.hours), nil
		}
	}
	c.hours += startup
	c.low += startup
	c.high += startup
	if c.hours > maxJobHours {
		// Beyond the cost engine's 20-year horizon: no one runs it.
		return &why{stage: "fit", key: "rec.rej.too_long", args: []any{c.hours / catalog.HoursPerYear}}, nil
	}
	if o.Billing.IsCommitment() {
		b, err := x.e.Pricing.JobCost(o, n, decimal.NewFromFloat(c.hours))
		if err != nil {
			return nil, err
		}
		if c.cost, err = x.e.toCur(b.Total().InexactFloat64(), b.Currency, x.cur); err != nil {
			return nil, err
		}
		c.billed = c.hours
	} else if o.Billing == catalog.CapacityBlock {
		// Paid up front for the whole block, whole days (then weeks) long.
		// A job's block covers the slow end of its time (the booking
		// quantile, P90 unless asked) and AWS's wind-down before the end;
		// a reservation holds its hours.
		need := c.hours
		if !r.reservation() {
			c.book = quantileHours(c.hours, c.high, r.bookQuantile())
			need = c.book + capacityBlockWindDown
		}
		block, ok := catalog.CapacityBlockHours(need)
		if !ok {
			return &why{stage: "fit", key: "rec.rej.capacity_block", args: []any{need}}, nil
		}
		if !r.reservation() {
			c.pastBook = missProbability(c.hours, c.high, block-capacityBlockWindDown)
		}
		c.billed = block
		c.cost = eff * block * float64(n)
	} else {
		if o.Billing == catalog.FlexStart {
			if c.high > catalog.FlexStartMaxHours {
				return &why{stage: "fit", key: "rec.rej.flex_start", args: []any{catalog.FlexStartMaxHours, c.high}}, nil
			}
			c.risk += 0.05 // the request queues until capacity is free
		}
		c.billed, c.gran = billedHours(o.Provider, c.hours)
		c.cost = eff * c.billed * float64(n)
	}
	if d := r.DeadlineHours; d > 0 {
		if c.hours > d {
			if m := x.fastestMiss; m == nil || c.hours < m.hours {
				x.fastestMiss = &deadlineMiss{hours: c.hours, gpus: c.gpus, gpu: o.Instance.GPUID, perNode: int(it.GPUCount.IntPart())}
			}
			return &why{stage: "deadline", key: "rec.rej.deadline", args: []any{c.hours, d}}, nil
		}
		c.miss = missProbability(c.hours, c.high, d)
		if c.spotPlan != nil {
			c.miss = c.spotMiss
		}
	}
	if w := x.overBudget(c); w != nil {
		return w, nil
	}
	x.commonRisk(c)
	return nil, nil
}

// maxJobHours is the longest job the advisor prices: the cost engine's
// 20-year horizon (240 months of 730 hours).
const maxJobHours = 240 * catalog.HoursPerMonth

func hasAssumption(e *perf.Estimate, word string) bool {
	for _, a := range e.Assumptions {
		if containsFold(a.String(), word) {
			return true
		}
	}
	return false
}

// z90 is the standard normal's 90th percentile: the estimate's band is
// its 80 % interval, so its upper end is the P90.
const z90 = 1.2816

// quantileHours is the q-quantile of a log-normal time whose median is t
// and whose P90 is high (the time as missProbability reads it).
func quantileHours(t, high, q float64) float64 {
	if high <= t {
		return t
	}
	sigma := math.Log(high/t) / z90
	return t * math.Exp(sigma*math.Sqrt2*math.Erfinv(2*q-1))
}

// spotTrials and spotQuantiles size the simulation of a spot job's time
// (spotDist): the trials are spread over this many quantiles of the
// estimate's error.
const (
	spotTrials    = 2000
	spotQuantiles = 40
)

// distKey is what a spot job's time distribution depends on.
type distKey struct {
	work, sigma, deadline    float64
	mtbi, notice, protection float64
	weibull, interval        float64
}

// spotDist is the distribution of a spot job's wall time (without the
// start-up): the interruption simulation run across the time estimate's
// log-normal error (median work, log standard deviation sigma), pooled
// (spot.SimulateSpread). Its share past the deadline is the plan's risk
// of missing it. Seeded, so the same inputs give the same figures; each
// distinct job and interruption process is simulated once per run.
func (x *run) spotDist(work, sigma float64, risk spot.Risk, sp spot.Plan) spot.SimResult {
	d := x.r.DeadlineHours
	if d > 0 {
		d = math.Max(d-startupHours, 1e-9)
	}
	k := distKey{work: work, sigma: sigma, deadline: d, mtbi: risk.MTBI, notice: risk.Notice, protection: risk.Protection, weibull: risk.WeibullK, interval: sp.Interval}
	if v, ok := x.dists[k]; ok {
		return v
	}
	res := spot.Spread(spot.Job{Work: work, Checkpoint: checkpointHours, Restart: restartHours, Deadline: d}, sigma, spotQuantiles,
		risk, sp.Interval, spot.SimConfig{Trials: spotTrials, Seed: 1})
	if x.dists == nil {
		x.dists = map[distKey]spot.SimResult{}
	}
	x.dists[k] = res
	return res
}

// missProbability treats the time as log-normal with the band as its 80th
// percentile: P(T > D) = 1 − Φ(ln(D/T) / σ), σ = ln(high/T) / 1.2816.
func missProbability(t, high, d float64) float64 {
	if high <= t {
		if t > d {
			return 1
		}
		return 0
	}
	sigma := math.Log(high/t) / z90
	z := math.Log(d/t) / sigma
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// Risk of a capacity reading: none now is as risky as a likely deadline
// miss of 15%; low stock, 3%.
const (
	noCapacityRisk = 0.15
	lowStockRisk   = 0.03
)

// confidencePenalty makes less direct estimates riskier.
var confidencePenalty = map[perf.Confidence]float64{perf.Measured: 0, perf.Interpolated: 0.02, perf.Transferred: 0.05, perf.SpecsOnly: 0.15}

func (x *run) commonRisk(c *cand) {
	c.risk += c.miss
	if c.est != nil {
		c.risk += confidencePenalty[c.est.Confidence]
	}
	// An undated price (no as-of date) is never fresh: it carries the
	// stale penalty too.
	if !x.e.Now.IsZero() && (c.offer.Source.Undated() || x.e.Now.Sub(c.offer.Source.AsOf) > staleAfter) {
		c.stale = true
		c.risk += 0.05
	}
	// A provider API's reading of no capacity now (or little) is a risk,
	// never a price: the plan costs what it costs, but a launch may fail.
	if st := c.offer.Stock; st != nil {
		switch st.State {
		case catalog.StockNone:
			c.stock = st
			c.risk += noCapacityRisk
		case catalog.StockLow:
			c.stock = st
			c.risk += lowStockRisk
		}
	}
	if len(x.near) > 0 {
		c.nearKM, c.nearBonus = x.e.near(x.near, c.offer.Region)
	}
	if x.r.guaranteed() && !reserved(c.offer) {
		c.risk += 0.1 // on-demand capacity is not reserved
	}
	if x.r.scoresSLA() && !hasSLA(c.offer) {
		c.risk += noSLARisk // no published availability commitment recorded
	}
}

// cached memoises performance estimates, errors included.
func cached(cache map[estKey]*perf.Estimate, cacheErr map[estKey]error, k estKey, f func() (*perf.Estimate, error)) (*perf.Estimate, error) {
	if est, ok := cache[k]; ok {
		return est, nil
	}
	if err, ok := cacheErr[k]; ok {
		return nil, err
	}
	est, err := f()
	if err != nil {
		cacheErr[k] = err
		return nil, err
	}
	cache[k] = est
	return est, nil
}

// deadlineMiss is a candidate the deadline rejected.
type deadlineMiss struct {
	hours         float64
	gpus, perNode int
	gpu           string
}

// hrsDays is hours, with days beyond two days ("1,770 h (73.8 days)").
func (x *run) hrsDays(h float64) string {
	if h >= 48 {
		return x.p.T("rec.unit.h_days", h, h/24)
	}
	return x.p.T("rec.unit.h_only", h)
}

// noFeasible explains why every candidate failed its evaluation.
func (x *run) noFeasible() *NoPlanError {
	r, p, res := x.r, x.p, x.res
	by := map[string]int{}
	for _, rj := range res.Rejected {
		by[rj.Stage]++
	}
	switch {
	case by["budget"] > 0 && x.budgetMiss != nil:
		return x.noPlan("budget", x.budgetText(), p.T("rec.relax.budget", money(x.budgetMiss.spend, x.cur), x.periodWord(), x.budgetMiss.name))
	case by["deadline"] > 0:
		best := x.fastestMiss
		relax := ""
		if best != nil {
			// GPUs that would meet the deadline at linear scaling from the
			// fastest plan (a lower bound: scaling is never better).
			need := int(math.Ceil(float64(best.gpus) * best.hours / r.DeadlineHours))
			if best.perNode > 0 {
				need = (need + best.perNode - 1) / best.perNode * best.perNode
			}
			relax = p.T("rec.relax.deadline2", x.hrsDays(best.hours), best.gpus, best.gpu, x.hrsDays(r.DeadlineHours), need, best.gpu, x.hrsDays(math.Ceil(best.hours)))
		}
		return x.noPlan("deadline", p.T("rec.st.deadline", r.DeadlineHours), relax)
	case by["term"] > 0 && by["fit"] == 0:
		return x.noPlan("billing", p.T("rec.st.terms"), p.T("rec.relax.terms"))
	case by["rdma"] > 0 && by["fit"] == 0:
		return x.noPlan("rdma", p.T("rec.st.multinode_rdma"), p.T("rec.relax.multinode_rdma"))
	}
	sample := ""
	for _, rj := range res.Rejected {
		if rj.Stage == "fit" || rj.Stage == "precision" {
			sample = rj.Reason
			break
		}
	}
	return x.noPlan("fit", p.T("rec.st.fit"), p.T("rec.relax.fit", sample))
}

func (x *run) noPlan(stage, constraint, relax string) *NoPlanError {
	return &NoPlanError{Stage: stage, Constraint: constraint, Relaxation: relax, Result: x.res,
		msg: x.p.T("rec.noplan", x.p.T("rec.stage."+stage), constraint) + map[bool]string{true: "", false: x.p.T("rec.noplan_sep") + relax}[relax == ""]}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
