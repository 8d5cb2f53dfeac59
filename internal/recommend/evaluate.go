package recommend

import (
	"fmt"
	"math"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// instanceCounts are the instance counts tried for a job.
var instanceCounts = []int{1, 2, 4, 8, 16, 32, 64, 128}

type estKey struct {
	gpu          string
	count, nodes int
	link, rdma   string
	net          float64
}

// evaluate turns offers into priced, timed candidates; rejections go to res.
func (e *Engine) evaluate(r Requirements, offers []*catalog.Offer, res *Result) ([]*cand, error) {
	cache := map[estKey]*perf.Estimate{}
	cacheErr := map[estKey]error{}
	var out []*cand
	reject := func(o *catalog.Offer, stage, format string, args ...any) {
		res.Rejected = append(res.Rejected, Rejection{Offer: o.ID(), Stage: stage, Reason: fmt.Sprintf(format, args...)})
	}
	for _, o := range offers {
		it := o.Instance
		g := it.GPUCount.InexactFloat64()
		whole := it.GPUCount.Equal(it.GPUCount.Truncate(0))
		if !whole && r.Workload.GPUHours == 0 {
			reject(o, "fit", "a fraction of a GPU (%s); this workload needs whole GPUs", it.GPUCount)
			continue
		}
		counts := []int{1}
		if r.service() {
			counts = nil
		} else if r.MultiNode {
			counts = instanceCounts
		}
		if r.service() {
			x, why, err := e.service(r, o, cache, cacheErr)
			if err != nil {
				return nil, err
			}
			if why != "" {
				reject(o, "fit", "%s", why)
				continue
			}
			out = append(out, x)
			continue
		}
		added := false
		var lastWhy, lastStage string
		for _, n := range counts {
			total := float64(n) * g
			if r.MaxGPUs > 0 && total > float64(r.MaxGPUs) {
				break
			}
			if r.MinGPUs > 0 && total < float64(r.MinGPUs) {
				lastStage, lastWhy = "fit", fmt.Sprintf("%g GPUs, fewer than min_gpus %d", total, r.MinGPUs)
				continue
			}
			if r.MinTotalVRAMGB > 0 && total*it.GPU.MemoryGB.InexactFloat64() < r.MinTotalVRAMGB {
				lastStage, lastWhy = "fit", fmt.Sprintf("%.0f GB of GPU memory in all, below %.0f GB", total*it.GPU.MemoryGB.InexactFloat64(), r.MinTotalVRAMGB)
				continue
			}
			x, stage, why, err := e.job(r, o, n, cache, cacheErr)
			if err != nil {
				return nil, err
			}
			if why != "" {
				lastStage, lastWhy = stage, why
				continue
			}
			out = append(out, x)
			added = true
		}
		if !added {
			if lastWhy == "" {
				lastStage, lastWhy = "fit", fmt.Sprintf("%g GPUs per instance is outside the GPU count bounds (multi_node: %v)", g, r.MultiNode)
			}
			reject(o, lastStage, "%s", lastWhy)
		}
	}
	return out, nil
}

// estimate runs the performance model for a job on n instances of o.
func (e *Engine) estimate(r Requirements, o *catalog.Offer, n int, cache map[estKey]*perf.Estimate, cacheErr map[estKey]error) (*perf.Estimate, error) {
	it := o.Instance
	g := int(it.GPUCount.IntPart())
	k := estKey{gpu: it.GPUID, count: g * n, nodes: n, link: it.GPUInterconnect, rdma: it.RDMA, net: it.NetworkGbps.InexactFloat64()}
	q := perf.Query{Benchmark: r.Workload.Benchmark, GPU: it.GPUID, Count: g * n, Nodes: n, GPUsPerNode: g,
		Fabric: perf.Fabric{Link: it.GPUInterconnect, NetworkGbps: k.net, RDMA: it.RDMA, Instance: true}}
	return cached(cache, cacheErr, k, func() (*perf.Estimate, error) {
		if r.Workload.Job != nil {
			q.Precision = r.Workload.Job.Precision
			return e.Perf.EstimateJob(*r.Workload.Job, q)
		}
		return e.Perf.Estimate(q)
	})
}

// job evaluates a finite job on n instances of o.
func (e *Engine) job(r Requirements, o *catalog.Offer, n int, cache map[estKey]*perf.Estimate, cacheErr map[estKey]error) (*cand, string, string, error) {
	it := o.Instance
	x := &cand{offer: o, instances: n, nodes: n}
	x.gpus = int(math.Round(it.GPUCount.InexactFloat64() * float64(n)))
	switch w := r.Workload; {
	case w.GPUHours > 0:
		scale := 1.0
		if w.GPUHoursOn != "" {
			ref, ok := e.Catalog.GPU(w.GPUHoursOn)
			if !ok {
				return nil, "", "", inputErr("workload.gpu_hours_on", "unknown GPU model %q", w.GPUHoursOn)
			}
			a, b := ref.FP16TFLOPS.InexactFloat64(), it.GPU.FP16TFLOPS.InexactFloat64()
			if a > 0 && b > 0 {
				scale = a / b
			}
		}
		gpus := it.GPUCount.InexactFloat64() * float64(n)
		x.hours = w.GPUHours * scale / gpus
		x.low, x.high = x.hours, x.hours
	default:
		est, err := e.estimate(r, o, n, cache, cacheErr)
		if err != nil {
			return nil, "fit", err.Error(), nil
		}
		if est.Memory != nil && !est.Memory.Fits {
			return nil, "fit", est.Memory.Note, nil
		}
		x.est = est
		switch {
		case est.Minutes > 0 && (w.Job != nil || est.Unit == "minutes"):
			x.hours, x.low, x.high = est.Minutes/60, est.MinutesLow/60, est.MinutesHigh/60
		case w.Samples > 0:
			x.hours = w.Samples / est.Throughput / 3600
			f := est.High / est.Throughput
			x.low, x.high = x.hours/f, x.hours*f
		default:
			return nil, "", "", inputErr("workload.samples", "%s is a throughput benchmark: give the work to do (samples, in %s × seconds)", w.Benchmark, est.Unit)
		}
	}
	if x.hours <= 0 || math.IsInf(x.hours, 0) || math.IsNaN(x.hours) {
		return nil, "fit", "no time estimate", nil
	}
	cur := r.Currency
	if cur == "" {
		cur = "USD"
	}
	eff, err := e.toCur(o.EffectiveHourly().InexactFloat64(), o.Price.Currency, cur)
	if err != nil {
		return nil, "", "", err
	}
	switch {
	case o.Billing == catalog.Spot:
		risk := spot.RiskFor(e.Catalog, o, 0)
		sp := spot.Analyze(spot.Job{Work: x.hours, Checkpoint: checkpointHours, Restart: restartHours}, risk)
		if math.IsInf(sp.ExpectedHours, 1) {
			return nil, "fit", fmt.Sprintf("interruptions every %.3g h are too frequent to finish", risk.MTBI), nil
		}
		f := sp.ExpectedHours / x.hours
		x.hours, x.low, x.high = sp.ExpectedHours, x.low*f, x.high*f
		x.cost = eff * x.hours * float64(n)
		x.spotPlan, x.spotRisk = &sp, &risk
		x.risk += 0.03
		if risk.Assumed {
			x.risk += 0.05
		}
	case o.Billing.IsCommitment():
		term := float64(o.Billing.TermHours())
		if term > 2*x.hours {
			return nil, "term", fmt.Sprintf("the %s term (%.0f h) is more than twice the job (%.3g h)", o.Billing, term, x.hours), nil
		}
		b, err := e.Pricing.JobCost(o, n, decimal.NewFromFloat(x.hours))
		if err != nil {
			return nil, "", "", err
		}
		if x.cost, err = e.toCur(b.Total().InexactFloat64(), b.Currency, cur); err != nil {
			return nil, "", "", err
		}
	case o.Billing == catalog.CapacityBlock:
		// Paid up front for the whole block, whole days (then weeks) long.
		block, ok := catalog.CapacityBlockHours(x.hours)
		if !ok {
			return nil, "fit", fmt.Sprintf("a capacity block lasts at most 182 days; the job needs %.3g h", x.hours), nil
		}
		x.cost = eff * block * float64(n)
	case o.Billing == catalog.FlexStart:
		if x.high > catalog.FlexStartMaxHours {
			return nil, "fit", fmt.Sprintf("a flex-start VM runs at most %d h; the job may need %.3g h", catalog.FlexStartMaxHours, x.high), nil
		}
		x.cost = eff * x.hours * float64(n)
		x.risk += 0.05 // the request queues until capacity is free
	default:
		x.cost = eff * x.hours * float64(n)
	}
	if d := r.DeadlineHours; d > 0 {
		if x.hours > d {
			return nil, "deadline", fmt.Sprintf("expected %.3g h, past the %.3g h deadline", x.hours, d), nil
		}
		x.miss = missProbability(x.hours, x.high, d)
	}
	e.commonRisk(r, x)
	return x, "", "", nil
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
	sigma := math.Log(high/t) / 1.2816
	z := math.Log(d/t) / sigma
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// confidencePenalty makes less direct estimates riskier.
var confidencePenalty = map[perf.Confidence]float64{perf.Measured: 0, perf.Interpolated: 0.02, perf.Transferred: 0.05, perf.SpecsOnly: 0.15}

func (e *Engine) commonRisk(r Requirements, x *cand) {
	x.risk += x.miss
	if x.est != nil {
		x.risk += confidencePenalty[x.est.Confidence]
	}
	if !e.Now.IsZero() && e.Now.Sub(x.offer.Source.AsOf) > staleAfter {
		x.stale = true
		x.risk += 0.05
	}
	if len(r.NearUsers) > 0 && inFold(r.NearUsers, x.offer.Region.Country) {
		x.nearBonus = true
	}
}

// service sizes and prices an inference service (or a cluster kept over a
// horizon) on o.
func (e *Engine) service(r Requirements, o *catalog.Offer, cache map[estKey]*perf.Estimate, cacheErr map[estKey]error) (*cand, string, error) {
	it := o.Instance
	g := int(it.GPUCount.IntPart())
	x := &cand{offer: o}
	inf := r.Workload.Inference
	if inf == nil {
		// A standing cluster of ClusterGPUs GPUs.
		if !it.GPUCount.Equal(it.GPUCount.Truncate(0)) {
			return nil, "a fraction of a GPU", nil
		}
		n := int(math.Ceil(float64(r.Workload.ClusterGPUs) / float64(g)))
		if n > 1 && !r.MultiNode {
			return nil, fmt.Sprintf("%d GPUs need %d instances (multi_node: false)", r.Workload.ClusterGPUs, n), nil
		}
		x.instances, x.nodes, x.gpus = n, n, n*g
		return e.priceService(r, o, x)
	}
	q := perf.Query{GPU: it.GPUID, Count: g, Nodes: 1, GPUsPerNode: g,
		Fabric: perf.Fabric{Link: it.GPUInterconnect, NetworkGbps: it.NetworkGbps.InexactFloat64(), RDMA: it.RDMA, Instance: true}}
	k := estKey{gpu: it.GPUID, count: g, nodes: 1, link: it.GPUInterconnect, rdma: it.RDMA, net: q.Fabric.NetworkGbps}
	est, err := cached(cache, cacheErr, k, func() (*perf.Estimate, error) {
		return e.Perf.EstimateJob(perf.Job{Kind: perf.LLMInference, Params: inf.Params, Tokens: 1, Precision: inf.Precision}, q)
	})
	if err != nil {
		return nil, err.Error(), nil
	}
	if est.Throughput <= 0 {
		return nil, "no throughput estimate", nil
	}
	n := int(math.Ceil(inf.TokensPerSecond / est.Throughput))
	if n < 1 {
		n = 1
	}
	if !r.MultiNode && r.MaxGPUs > 0 && n*g > r.MaxGPUs {
		return nil, fmt.Sprintf("needs %d× %s (%d GPUs) for %.0f tokens/s, above max_gpus %d", n, it.Name, n*g, inf.TokensPerSecond, r.MaxGPUs), nil
	}
	x.instances, x.nodes, x.gpus, x.est = n, n, n*g, est
	return e.priceService(r, o, x)
}

// priceService prices a service or cluster candidate over the horizon.
func (e *Engine) priceService(r Requirements, o *catalog.Offer, x *cand) (*cand, string, error) {
	n := x.instances
	months := r.HorizonMonths
	if months < 1 {
		months = 1
	}
	util := r.Utilization
	if util == 0 {
		util = 1
	}
	cur := r.Currency
	if cur == "" {
		cur = "USD"
	}
	eff, err := e.toCur(o.EffectiveHourly().InexactFloat64(), o.Price.Currency, cur)
	if err != nil {
		return nil, "", err
	}
	hours := 730 * float64(months)
	switch {
	case o.Billing == catalog.FlexStart:
		return nil, fmt.Sprintf("a flex-start VM runs at most %d days, not a standing service", catalog.FlexStartMaxHours/24), nil
	case o.Billing == catalog.CapacityBlock && hours > catalog.CapacityBlockMaxHours:
		return nil, fmt.Sprintf("a capacity block lasts at most 182 days, shorter than the %d-month horizon", months), nil
	case o.Billing.IsCommitment():
		termMonths := o.Billing.TermHours() / 730
		covered := ((months + termMonths - 1) / termMonths) * termMonths
		x.cost = eff * 730 * float64(covered) * float64(n)
	case o.Billing == catalog.Spot:
		risk := spot.RiskFor(e.Catalog, o, 0)
		sp := spot.Analyze(spot.Job{Work: 1000, Checkpoint: 0, Restart: restartHours}, risk)
		x.cost = eff * hours * util * float64(n) * (1 + sp.Overhead)
		x.spotPlan, x.spotRisk = &sp, &risk
		x.risk += 0.15 // a service on spot loses capacity when interrupted
		if risk.Assumed {
			x.risk += 0.05
		}
	default:
		x.cost = eff * hours * util * float64(n)
	}
	e.commonRisk(r, x)
	return x, "", nil
}

// noFeasible explains why every candidate failed its evaluation.
func (e *Engine) noFeasible(r Requirements, res *Result) error {
	by := map[string]int{}
	for _, x := range res.Rejected {
		by[x.Stage]++
	}
	switch {
	case by["deadline"] > 0:
		best := math.Inf(1)
		for _, x := range res.Rejected {
			if x.Stage != "deadline" {
				continue
			}
			var h float64
			if _, err := fmt.Sscanf(x.Reason, "expected %g h", &h); err == nil {
				best = math.Min(best, h)
			}
		}
		relax := ""
		if !math.IsInf(best, 1) {
			relax = fmt.Sprintf("the fastest plan takes about %.3g h: a deadline of %.3g h or more, more GPUs (max_gpus, multi_node: true) or a faster GPU would give plans", best, math.Ceil(best))
		}
		return &NoPlanError{Stage: "deadline", Constraint: fmt.Sprintf("finish within %.3g h", r.DeadlineHours), Relaxation: relax}
	case by["term"] > 0 && by["fit"] == 0:
		return &NoPlanError{Stage: "billing", Constraint: "commitment terms", Relaxation: "only commitments far longer than the job remained: allow on-demand or spot offers"}
	}
	sample := ""
	for _, x := range res.Rejected {
		if x.Stage == "fit" {
			sample = x.Reason
			break
		}
	}
	return &NoPlanError{Stage: "fit", Constraint: "the job must fit the GPUs (memory, GPU count)", Relaxation: "for example: " + sample + "; try more GPUs (min_gpus/max_gpus, multi_node: true) or GPUs with more memory"}
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
