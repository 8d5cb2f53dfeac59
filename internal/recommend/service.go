package recommend

import (
	"errors"
	"fmt"
	"math"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// Inference-sizing assumptions, each named in the plans that use them.
const (
	// defaultHeads: Llama 2 and Llama 3 70B (and most large open models)
	// have 64 attention heads.
	defaultHeads = 64
	// decodeBandwidthShare: decoding reads every weight once per token;
	// 80% of the peak memory bandwidth is taken as reachable.
	decodeBandwidthShare = 0.8
	// prefillMFU: prompt processing is compute-bound; 50% of the dense
	// peak is assumed.
	prefillMFU = 0.5
	// refTPOT is MLPerf Inference's server-scenario time-per-output-token
	// bound for Llama 2 70B (200 ms); the offline throughput the model
	// carries is taken as reachable within it.
	refTPOT = 0.2
)

// infSizing is how an inference service was sized.
type infSizing struct {
	TP, Replicas        int     // tensor-parallel group and replicas per instance
	PerInstance         float64 // output tokens/s per instance within the budgets
	TPOTFloorMs, TTFTMs float64 // best-case latencies
	PrefillShare        float64 // instances' worth of prefill work
	// KVGBPerRequest is one request's KV cache at the stated context;
	// Concurrency the requests whose KV caches fit one tensor-parallel
	// group beside the weights.
	KVGBPerRequest, Concurrency float64
	// AllReduceMs is what the all-reduces of a group over PCIe add per
	// token at batch 1, AllReduceBatchMs per decode step at the assumed
	// batch; Link the link (nil: NVLink-class, or no tensor parallelism).
	AllReduceMs, AllReduceBatchMs float64
	Link                          *perf.TPLink
}

// service sizes and prices an inference service (or a cluster kept over a
// horizon) on o. A non-empty key is the rejection reason.
func (x *run) service(o *catalog.Offer) (*cand, string, []any, error) {
	r := x.r
	it := o.Instance
	g := int(it.GPUCount.IntPart())
	c := &cand{offer: o, detail: &detail{}}
	inf := r.Workload.Inference
	if inf == nil {
		n := int(math.Ceil(float64(r.Workload.ClusterGPUs) / float64(g)))
		if n > 1 && !r.MultiNode {
			return nil, "rec.rej.cluster_multinode", []any{r.Workload.ClusterGPUs, n}, nil
		}
		if n > 1 && !hasRDMA(it) && !r.AllowNoRDMA {
			return nil, "rec.rej.no_rdma_multinode", []any{n, x.fabricName(it.RDMA)}, nil
		}
		c.instances, c.nodes, c.gpus = n, n, n*g
		return x.priceService(o, c)
	}
	if inf.Precision == perf.FP8 && !it.GPU.FP8TFLOPS.IsPositive() {
		return nil, "rec.rej.no_fp8", []any{it.GPUID}, nil
	}
	q := perf.Query{GPU: it.GPUID, Count: g, Nodes: 1, GPUsPerNode: g,
		Fabric: perf.Fabric{Link: it.GPUInterconnect, NetworkGbps: it.NetworkGbps.InexactFloat64(), RDMA: it.RDMA, Instance: true}}
	job := inf.job()
	k := estKey{gpu: it.GPUID, count: g, nodes: 1, link: it.GPUInterconnect, rdma: it.RDMA, net: q.Fabric.NetworkGbps, bench: fmt.Sprintf("%+v", job)}
	est, err := cached(x.cache, x.cacheErr, k, func() (*perf.Estimate, error) {
		return x.e.Perf.EstimateJob(job, q)
	})
	var ctxErr *perf.ContextError
	if errors.As(err, &ctxErr) {
		return nil, "rec.rej.kv_context", []any{inf.InputTokens + inf.OutputTokens, ctxErr.KVGB, ctxErr.WeightsGB, ctxErr.GPUs, ctxErr.UsableGB}, nil
	}
	if err != nil {
		// The model's own memory rule: weights at the precision + 20%.
		prec := inf.Precision
		if prec == "" {
			prec = perf.FP16
		}
		need := inf.Params * bytesPerParam(prec) * 1.2 / 1e9
		usable := it.GPU.MemoryGB.InexactFloat64() * 0.9
		if need > float64(g)*usable {
			return nil, "rec.rej.memory", []any{need, g, usable}, nil
		}
		return nil, "rec.rej.no_estimate", []any{perf.ErrorMsg(err)}, nil
	}
	if est.Throughput <= 0 {
		return nil, "rec.rej.no_time", nil, nil
	}
	// Tensor-parallel group: the memory need, rounded up to a size that
	// divides the attention heads and fits one instance.
	need := 1
	if est.Memory != nil && est.Memory.Group > 1 {
		need = est.Memory.Group
	}
	rf := est.Roofline
	if rf != nil && rf.TP > need {
		need = rf.TP // one request's KV cache at this context needs the larger group
	}
	heads := inf.Heads
	if heads == 0 {
		heads = defaultHeads
	}
	tp := 0
	for t := need; t <= g; t++ {
		if heads%t == 0 {
			tp = t
			break
		}
	}
	if tp == 0 {
		return nil, "rec.rej.tp_group", []any{need, heads, g}, nil
	}
	s := infSizing{TP: tp, Replicas: g / tp}
	s.PerInstance = est.Throughput * float64(s.Replicas*tp) / float64(g)
	// Latency: decoding reads the weights and the request's KV cache once
	// per token (memory-bound); the first token waits for the prompt's
	// prefill (compute-bound, attention quadratic in the prompt). Over
	// PCIe both wait for the tensor-parallel all-reduces.
	prec := est.Precision
	// A mixture of experts reads its active experts' weights per token at best.
	weightsGB := inf.active() * bytesPerParam(prec) / 1e9
	var arTok, arPrefill float64 // s of all-reduces per token at batch 1, and per prefill
	if rf != nil {
		s.KVGBPerRequest = rf.KVPerSeqGB
		weightsGB += rf.KVPerSeqGB * (inf.InputTokens + inf.OutputTokens/2) / math.Max(1, inf.InputTokens+inf.OutputTokens)
		free := float64(tp)*it.VRAMPerGPUGB().InexactFloat64()*0.9 - inf.Params*bytesPerParam(prec)/1e9
		s.Concurrency = math.Max(0, math.Floor(free/rf.KVPerSeqGB))
		if link := perf.TPLinkOf(perf.SpecOf(it.GPU), it.GPUInterconnect, tp); link.PCIe && tp > 1 {
			tr := *rf
			tr.TP, tr.Link = tp, link
			arTok, arPrefill = tr.AllReduceStep(1), tr.PrefillAllReduce()
			s.AllReduceMs, s.AllReduceBatchMs, s.Link = 1000*arTok, 1000*tr.AllReduceStep(rf.Batch), &link
		}
	}
	bw := it.GPU.BandwidthGBs.InexactFloat64()
	if bw > 0 {
		s.TPOTFloorMs = 1000*weightsGB/float64(tp)/(bw*decodeBandwidthShare) + 1000*arTok
	}
	if b := inf.TPOTMs; b > 0 {
		if s.TPOTFloorMs == 0 {
			return nil, "rec.rej.no_bandwidth", []any{it.GPUID}, nil
		}
		if s.TPOTFloorMs > b {
			return nil, "rec.rej.tpot", []any{s.TPOTFloorMs, b, tp}, nil
		}
		if b/1000 < refTPOT {
			f := (b/1000 - s.TPOTFloorMs/1000) / (refTPOT - s.TPOTFloorMs/1000)
			s.PerInstance *= math.Max(0, math.Min(1, f))
		}
	}
	peak := densePeak(it.GPU, prec)
	n := inf.OutputRate() / s.PerInstance
	if inf.QPS > 0 {
		if peak <= 0 {
			return nil, "rec.rej.no_peak", []any{it.GPUID}, nil
		}
		flops := 2 * inf.active() * inf.InputTokens
		if rf != nil {
			flops = rf.Shape.PrefillFLOPs(inf.InputTokens)
		}
		s.TTFTMs = 1000*flops/(float64(tp)*peak*1e12*prefillMFU) + 1000*arPrefill
		if b := inf.TTFTMs; b > 0 && s.TTFTMs > b {
			return nil, "rec.rej.ttft", []any{s.TTFTMs, b, tp}, nil
		}
		s.PrefillShare = inf.QPS * flops / (float64(g) * peak * 1e12 * prefillMFU)
		if rf == nil {
			n += s.PrefillShare
		} // else the roofline's throughput already spends each request's prefill at its prompt
	}
	ni := int(math.Ceil(n - 1e-9))
	if ni < 1 {
		ni = 1
	}
	if ni > 1 && !r.MultiNode && r.MaxGPUs > 0 && ni*g > r.MaxGPUs {
		return nil, "rec.rej.service_max_gpus", []any{ni, it.Name, ni * g, inf.OutputRate(), r.MaxGPUs}, nil
	}
	c.base = ni
	if r.HA {
		ni++
	}
	c.instances, c.nodes, c.gpus, c.est, c.inf = ni, ni, ni*g, est, &s
	return x.priceService(o, c)
}

// bytesPerParam is the weight size at a precision (the model's own rule).
func bytesPerParam(p perf.Precision) float64 {
	switch p {
	case perf.FP8, perf.INT8, perf.LowBest:
		return 1
	case perf.FP32, perf.TF32:
		return 4
	}
	return 2
}

// densePeak is the GPU's dense tensor peak (TFLOPS) for prefill at p.
func densePeak(g *catalog.GPU, p perf.Precision) float64 {
	if (p == perf.FP8 || p == perf.LowBest) && g.FP8TFLOPS.IsPositive() {
		return g.FP8TFLOPS.InexactFloat64()
	}
	if p == perf.INT8 && g.INT8TOPS.IsPositive() {
		return g.INT8TOPS.InexactFloat64()
	}
	if g.FP16TFLOPS.IsPositive() {
		return g.FP16TFLOPS.InexactFloat64()
	}
	return g.FP32TFLOPS.InexactFloat64()
}

// priceService prices a service or cluster candidate over the horizon.
func (x *run) priceService(o *catalog.Offer, c *cand) (*cand, string, []any, error) {
	r := x.r
	n := c.instances
	if c.base == 0 {
		c.base = n
	}
	months := max(1, r.HorizonMonths)
	util := r.Utilization
	if util == 0 {
		util = 1
	}
	eff, err := x.rate(o)
	if err != nil {
		return nil, "", nil, err
	}
	hours := 730 * float64(months)
	switch {
	case o.Billing == catalog.FlexStart:
		return nil, "rec.rej.flex_start_service", []any{catalog.FlexStartMaxHours / 24}, nil
	case o.Billing == catalog.CapacityBlock && hours > catalog.CapacityBlockMaxHours:
		return nil, "rec.rej.capacity_block_service", []any{months}, nil
	case o.Billing.IsCommitment() && o.Billing.TermHours()/730 > 2*months:
		return nil, "rec.rej.term_service", []any{x.p.Billing(string(o.Billing), o.Billing.Family()), o.Billing.TermHours() / 730, months}, nil
	case o.Billing.IsCommitment():
		termMonths := o.Billing.TermHours() / 730
		terms := (months + termMonths - 1) / termMonths
		c.terms = terms
		c.unitCost = eff * 730 * float64(terms*termMonths)
	case o.Billing == catalog.Spot:
		risk := spot.RiskFor(x.e.Catalog, o, r.MTBIHours)
		sp := spot.Analyze(spot.Job{Work: 1000, Checkpoint: 0, Restart: restartHours}, risk)
		c.unitCost = eff * hours * util * (1 + sp.Overhead)
		c.spotPlan, c.spotRisk = &sp, &risk
		c.risk += 0.15 // a service on spot loses capacity when interrupted
		if risk.Assumed {
			c.risk += 0.05
		}
	default:
		c.unitCost = eff * hours * util
	}
	c.cost = c.unitCost * float64(n)
	if w := x.overBudget(c); w != nil {
		return nil, w.key, w.args, nil
	}
	x.commonRisk(c)
	return c, "", nil, nil
}
