package document

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// This file answers the questions that gpuscout cost, estimate and spot ask
// and GET /api/v1/cost, /estimate and /spot ask the same way: each takes a
// plain request and returns the document, so the CLI and the API cannot
// drift apart. The faces only parse their input (flags, query parameters)
// and render the result.

// InputError is a mistake in a question's parameters. Field names the
// parameter as the API spells it (snake_case; the CLI's flag is the same
// name with dashes); Hint, when set, suggests a fix. The message is the
// CLI's.
type InputError struct {
	Field string
	Hint  string
	Err   error
	// Msg and HintMsg are Err and Hint as messages, when they are ours
	// (zero for an error passed through from elsewhere).
	Msg, HintMsg i18n.Msg
}

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

func inputErr(field, hint, format string, args ...any) error {
	return &InputError{Field: field, Hint: hint, Err: fmt.Errorf(format, args...)}
}

// inputMsg is an InputError whose message (key, args) and hint (a key, or
// "") are messages, so a page can show them in its language.
func inputMsg(field, hint, key string, args ...any) error {
	m := i18n.M(key, args...)
	e := &InputError{Field: field, Err: errors.New(m.String()), Msg: m}
	if hint != "" {
		e.HintMsg = i18n.M(hint)
		e.Hint = e.HintMsg.String()
	}
	return e
}

// ResolveOffer finds an offer by ID; an unknown ID is an InputError on
// field "offer" that suggests near IDs.
func ResolveOffer(c *catalog.Catalog, id string) (*catalog.Offer, error) {
	o, err := planfile.ResolveOffer(c, id)
	if err != nil {
		return nil, &InputError{Field: "offer", Err: err}
	}
	return o, nil
}

// CostRequest is one offer priced under a usage profile.
type CostRequest struct {
	Offer    *catalog.Offer
	Usage    pricing.Usage
	Currency string
	// Lang of the notes' text (English when empty).
	Lang i18n.Lang
}

// AnswerCost prices the request: the bill, the utilisation break-even of a
// commitment, in the request's currency. A bad usage field comes back as
// the engine's *pricing.FieldError.
func AnswerCost(e *pricing.Engine, t *fx.Table, req CostRequest) (Cost, error) {
	b, err := e.Cost(req.Offer, req.Usage)
	if err != nil {
		return Cost{}, err
	}
	be, ok, err := e.UtilizationBreakEven(req.Offer)
	if err != nil {
		return Cost{}, err
	}
	var bep *pricing.BreakEven
	if ok {
		bep = &be
	}
	return BuildCost(b, bep, req.Currency, t, i18n.NewPrinter(req.Lang))
}

// EstimateRequest is a benchmark or a sized job on a GPU or an offer.
type EstimateRequest struct {
	// Benchmark (a calibration benchmark) or Workload (transformer-train,
	// llm-inference, cnn-train, flops, embedding): exactly one.
	Benchmark, Workload string
	// GPU (a model name or alias) or Offer (an offer ID): exactly one.
	GPU, Offer string
	// Count GPUs on Nodes nodes (0: the fewest 8-GPU nodes); with an offer,
	// Instances of it.
	Count, Nodes, Instances int
	// Precision: fp32, tf32, fp16, bf16, fp8, int8; empty for the usual.
	Precision string
	// Samples of a throughput benchmark to do, for a time to finish.
	Samples float64
	// The size of a workload.
	Params, Tokens, Images, Epochs, GFLOPsPerImage, FLOPs float64
	// LLM inference request shape (optional): mean prompt and generated
	// tokens per request, active parameters (mixture of experts), batch cap.
	InputTokens, OutputTokens, ActiveParams float64
	MaxBatch                                int
	// The model's layout (optional; 0: interpolated between published
	// Llama 3 configurations of its size, and said so): layers, key/value
	// heads, head size, width, routed experts and experts per token. It
	// sizes the KV cache of each request, prefill attention and the
	// experts a decode step reads.
	Layers, KVHeads, HeadDim, Hidden, Experts, ExpertsPerToken int
	// Fabric between the nodes of a GPU count without an offer: tcp, efa,
	// infiniband, roce or erdma, at FabricGbps per node (0: 100 Gb/s for
	// TCP, one rail per GPU of the GPU's generation for RDMA). Empty: the
	// fabric of the GPU's published multi-node systems, else 100 Gb/s TCP.
	Fabric     string
	FabricGbps float64
	// Currency of the cost (with an offer).
	Currency string
	// Lang of the assumptions' text (English when empty).
	Lang i18n.Lang
}

// AnswerEstimate estimates throughput and time to finish, priced through
// the cost engine when the request names an offer. It returns the model's
// estimate too, for tables.
func AnswerEstimate(c *catalog.Catalog, m *perf.Model, e *pricing.Engine, t *fx.Table, req EstimateRequest) (Estimate, *perf.Estimate, error) {
	switch {
	case req.Benchmark == "" && req.Workload == "":
		return Estimate{}, nil, inputMsg("benchmark", "doc.hint.bench", "doc.err.bench_or_workload")
	case req.Benchmark != "" && req.Workload != "":
		return Estimate{}, nil, inputMsg("workload", "", "doc.err.bench_and_workload")
	case req.GPU != "" && req.Offer != "":
		return Estimate{}, nil, inputMsg("offer", "", "doc.err.gpu_and_offer")
	}
	if req.Count < 1 || req.Instances < 1 || req.Nodes < 0 {
		field := "count"
		if req.Count >= 1 {
			field = "instances"
			if req.Instances >= 1 {
				field = "nodes"
			}
		}
		return Estimate{}, nil, inputMsg(field, "", "doc.err.counts")
	}
	q := perf.Query{Benchmark: req.Benchmark, Count: req.Count, Nodes: req.Nodes}
	if req.Precision != "" {
		p, err := perf.ParsePrecision(req.Precision)
		if err != nil {
			return Estimate{}, nil, &InputError{Field: "precision", Err: err}
		}
		q.Precision = p
	}
	var off *catalog.Offer
	switch {
	case req.Offer != "":
		var err error
		if off, err = ResolveOffer(c, req.Offer); err != nil {
			return Estimate{}, nil, err
		}
		it := off.Instance
		if !it.GPUCount.Equal(it.GPUCount.Truncate(0)) {
			return Estimate{}, nil, inputMsg("offer", "", "doc.err.fraction", it.ID())
		}
		per := int(it.GPUCount.IntPart())
		q.GPU, q.Count, q.Nodes, q.GPUsPerNode = it.GPUID, per*req.Instances, req.Instances, per
		q.Fabric = perf.Fabric{Link: it.GPUInterconnect, NetworkGbps: it.NetworkGbps.InexactFloat64(), RDMA: it.RDMA, Instance: true}
	case req.GPU != "":
		gs, err := c.LookupGPU(req.GPU)
		if err != nil {
			return Estimate{}, nil, &InputError{Field: "gpu", Err: err}
		}
		if len(gs) > 1 {
			var ids []string
			for _, g := range gs {
				ids = append(ids, g.ID)
			}
			return Estimate{}, nil, inputMsg("gpu", "doc.hint.variant", "doc.err.gpu_ambiguous", req.GPU, strings.Join(ids, ", "))
		}
		q.GPU = gs[0].ID
		f, err := ParseFabric(req.Fabric, req.FabricGbps)
		if err != nil {
			return Estimate{}, nil, err
		}
		q.Fabric = f
	default:
		return Estimate{}, nil, inputMsg("gpu", "", "doc.err.gpu_required")
	}
	var est *perf.Estimate
	var err error
	if req.Workload != "" {
		j := perf.Job{Kind: perf.JobKind(req.Workload), Params: req.Params, Tokens: req.Tokens, Images: req.Images, Epochs: req.Epochs,
			GFLOPs: req.GFLOPsPerImage, FLOPs: req.FLOPs, Precision: q.Precision,
			InputTokens: req.InputTokens, OutputTokens: req.OutputTokens, ActiveParams: req.ActiveParams, MaxBatch: req.MaxBatch,
			Layers: req.Layers, KVHeads: req.KVHeads, HeadDim: req.HeadDim, Hidden: req.Hidden, Experts: req.Experts,
			ExpertsPerToken: req.ExpertsPerToken}
		if err := j.Validate(); err != nil {
			e := &InputError{Field: jobField(j), Hint: "see gpuscout estimate --help for the size flags of each workload.", Err: err,
				HintMsg: i18n.M("doc.hint.size")}
			switch j.Kind { // perf.Job.Validate's sentences, as messages
			case perf.TransformerTrain, perf.LLMInference, perf.CNNTraining, perf.FLOPJob, perf.Embedding:
				e.Msg = i18n.M("doc.err.size", string(j.Kind), e.Field)
			default:
				e.Msg = i18n.M("doc.err.kind", string(j.Kind))
			}
			if e.Msg.String() != err.Error() {
				e.Msg = i18n.Msg{} // the engine said something else: keep its words
			}
			return Estimate{}, nil, e
		}
		est, err = m.EstimateJob(j, q)
	} else {
		est, err = m.Estimate(q)
		if err == nil && req.Samples > 0 {
			if est.Throughput <= 0 {
				return Estimate{}, nil, inputMsg("samples", "", "doc.err.samples", req.Benchmark)
			}
			f := est.High / est.Throughput
			est.Minutes = req.Samples / est.Throughput / 60
			est.MinutesLow, est.MinutesHigh = est.Minutes/f, est.Minutes*f
		}
	}
	if err != nil {
		var ub *perf.ErrUnknownBenchmark
		if errors.As(err, &ub) {
			return Estimate{}, nil, &InputError{Field: "benchmark", Hint: "list them with gpuscout perf benchmarks.", Err: err}
		}
		return Estimate{}, nil, &InputError{Err: err}
	}
	var cost *Cost
	if off != nil && est.Minutes > 0 {
		hours := decimal.NewFromFloat(est.Minutes / 60)
		b, err := e.JobCost(off, req.Instances, hours)
		if err != nil {
			return Estimate{}, nil, err
		}
		d, err := BuildCost(b, nil, req.Currency, t, i18n.NewPrinter(req.Lang))
		if err != nil {
			return Estimate{}, nil, err
		}
		cost = &d
	}
	doc := BuildEstimate(est, cost, i18n.NewPrinter(req.Lang))
	if off != nil {
		doc.Offer = &CostOffer{ID: off.ID(), Provider: off.Provider, InstanceType: off.InstanceName, Region: off.RegionCode,
			Billing: string(off.Billing), OriginalCurrency: off.Price.Currency}
		doc.Instances = req.Instances
	}
	return doc, est, nil
}

// jobField names the size parameter perf.Job.Validate complains about
// first (it checks in this order).
func jobField(j perf.Job) string {
	bad := func(v float64) bool { return !(v > 0) || math.IsInf(v, 0) }
	switch j.Kind {
	case perf.TransformerTrain, perf.LLMInference:
		if bad(j.Params) {
			return "params"
		}
		return "tokens"
	case perf.CNNTraining:
		if bad(j.Images) {
			return "images"
		}
		return "epochs"
	case perf.FLOPJob:
		return "flops"
	}
	return "workload"
}

// SpotRequest is a job of WorkHours on a spot offer.
type SpotRequest struct {
	// Offer is the spot offer, or any offer of the same instance type and region.
	Offer             string
	WorkHours         float64
	CheckpointMinutes float64 // to write one checkpoint
	RestartMinutes    float64 // from an interruption to working again
	DeadlineHours     float64 // 0: none
	MTBI              float64 // mean hours between interruptions; 0: from the catalog
	Trials            int
	Seed              uint64
	Weibull           float64 // shape of the time between interruptions; 1 = exponential
	Currency          string
	// MaxSteps, when positive, refuses a simulation expected to take more
	// than this many steps (trials × the checkpoints and interruptions of
	// one run): the server's bound on the work one request may ask for.
	MaxSteps float64
}

// SpotAnswer is the spot document and what it was computed from.
type SpotAnswer struct {
	Doc         SpotDoc
	SpotOffer   *catalog.Offer
	OnDemand    *catalog.Offer
	Job         spot.Job
	Risk        spot.Risk
	Decision    spot.Decision
	Assumptions []string
	SimConfig   spot.SimConfig // the spot-only simulation (prices and overhead set)
}

// MaxSpotTrials is the most Monte Carlo trials a spot question may ask for.
const MaxSpotTrials = 10_000_000

// AnswerSpot decides between spot, on-demand and spot with an on-demand
// fallback for the request.
func AnswerSpot(c *catalog.Catalog, t *fx.Table, req SpotRequest) (*SpotAnswer, error) {
	if req.Offer == "" {
		return nil, inputMsg("offer", "doc.hint.spot_offer", "doc.err.offer_required")
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"work-hours", req.WorkHours}, {"checkpoint-minutes", req.CheckpointMinutes}, {"restart-minutes", req.RestartMinutes},
		{"deadline-hours", req.DeadlineHours}, {"mtbi", req.MTBI}} {
		if v.v < 0 || math.IsNaN(v.v) || math.IsInf(v.v, 0) {
			return nil, inputMsg(strings.ReplaceAll(v.name, "-", "_"), "", "doc.err.negative", v.name)
		}
	}
	if req.Trials < 1 || req.Trials > MaxSpotTrials {
		return nil, inputMsg("trials", "", "doc.err.trials")
	}
	if req.Weibull <= 0 {
		return nil, inputMsg("weibull", "", "doc.err.weibull")
	}
	off, err := ResolveOffer(c, req.Offer)
	if err != nil {
		return nil, err
	}
	sp, od, err := SpotPair(c, off)
	if err != nil {
		return nil, err
	}
	conv := func(x *catalog.Offer) (float64, error) {
		v, err := t.Convert(x.EffectiveHourly(), x.Price.Currency, req.Currency)
		return v.InexactFloat64(), err
	}
	spPrice, err := conv(sp)
	if err != nil {
		return nil, err
	}
	odPrice, err := conv(od)
	if err != nil {
		return nil, err
	}
	j := spot.Job{Work: req.WorkHours, Checkpoint: req.CheckpointMinutes / 60, Restart: req.RestartMinutes / 60, Deadline: req.DeadlineHours}
	r := spot.RiskFor(c, sp, req.MTBI)
	r.WeibullK = req.Weibull
	if req.MaxSteps > 0 {
		if err := checkSimSize(j, r, req.Trials, req.MaxSteps); err != nil {
			return nil, err
		}
	}
	var assumptions []string
	if r.Assumed {
		assumptions = append(assumptions, r.Source)
	}
	assumptions = append(assumptions, "interruption notice: "+r.NoticeNote,
		fmt.Sprintf("spot price %s %s/h as of %s (%s); prices are taken as constant over the job", decimal.NewFromFloat(spPrice).Round(4), req.Currency, sp.Source.AsOfString(), sp.Source.Kind),
		"all wall time on spot is billed, restarts included (conservative)")
	if req.Weibull != 1 {
		assumptions = append(assumptions, fmt.Sprintf("Weibull inter-arrival times, shape %.3g: the analytic expectation assumes exponential and differs from the simulation", req.Weibull))
	}
	cfg := spot.SimConfig{Trials: req.Trials, Seed: req.Seed}
	d := spot.Decide(j, r, spPrice, odPrice, req.Currency, cfg)
	// The configuration Decide ran its spot-only simulation with.
	cfg.SpotPrice, cfg.OnDemandPrice, cfg.Overhead = spPrice, odPrice, d.Plan.Overhead
	doc := BuildSpot(sp.ID(), od.ID(), req.Currency, j, r, d, req.Trials, req.Seed, spPrice, odPrice, assumptions)
	return &SpotAnswer{Doc: doc, SpotOffer: sp, OnDemand: od, Job: j, Risk: r, Decision: d, Assumptions: assumptions, SimConfig: cfg}, nil
}

// checkSimSize refuses a simulation expected to take more than max steps:
// each run of the job takes about one step per checkpoint and one per
// interruption over its expected wall time, and there are two simulations
// when a deadline asks for the fallback too.
func checkSimSize(j spot.Job, r spot.Risk, trials int, max float64) error {
	p := spot.Analyze(j, r)
	hours := p.ExpectedHours
	if math.IsInf(hours, 1) || math.IsNaN(hours) {
		return inputMsg("mtbi", "doc.hint.never_finishes", "doc.err.never_finishes")
	}
	per := 1.0
	if p.Interval > 0 {
		per += hours / p.Interval
	}
	if r.MTBI > 0 && !math.IsInf(r.MTBI, 1) {
		per += hours / r.MTBI
	}
	steps := per * float64(trials)
	if j.Deadline > 0 {
		steps *= 2
	}
	if steps > max {
		return inputErr("trials", "use fewer trials, or the CLI (gpuscout spot) for simulations this large.",
			"the simulation would take about %.3g steps, over the server's limit of %.3g", steps, max)
	}
	return nil
}

// SpotPair finds the spot and on-demand offers of an offer's instance type
// and region.
func SpotPair(c *catalog.Catalog, o *catalog.Offer) (sp, od *catalog.Offer, err error) {
	base := o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/"
	sp, _ = c.Offer(base + string(catalog.Spot))
	od, _ = c.Offer(base + string(catalog.OnDemand))
	if sp == nil {
		var ids []string
		for _, x := range c.Offers() {
			if x.Billing == catalog.Spot && x.Provider == o.Provider && x.InstanceName == o.InstanceName {
				ids = append(ids, x.ID())
			}
		}
		e := inputMsg("offer", "doc.hint.spot_list", "doc.err.no_spot", o.InstanceName, o.RegionCode).(*InputError)
		if len(ids) > 0 {
			e.HintMsg = i18n.M("doc.hint.spot_elsewhere", fmt.Sprint(ids))
			e.Hint = e.HintMsg.String()
		}
		return nil, nil, e
	}
	if od == nil {
		return nil, nil, inputMsg("offer", "doc.hint.same_region", "doc.err.no_ondemand", o.InstanceName, o.RegionCode)
	}
	return sp, od, nil
}

// Walls runs the answer's simulations again — same trials, same seed, so
// the same runs — and returns every run's wall hours, sorted: on spot
// alone, and with the on-demand fallback (nil without a deadline, when the
// decision has no fallback option).
func (a *SpotAnswer) Walls() (spotOnly, fallback []float64) {
	cfg := a.SimConfig
	interval := a.Decision.Plan.Interval
	spotOnly = spot.SimulateWalls(a.Job, a.Risk, interval, cfg)
	if a.Job.Deadline > 0 && cfg.OnDemandPrice > 0 {
		// As spot.Decide sets up its fallback run.
		cfg.Fallback = true
		if cfg.OnDemandRestart == 0 {
			cfg.OnDemandRestart = a.Job.Restart
		}
		fallback = spot.SimulateWalls(a.Job, a.Risk, interval, cfg)
	}
	return spotOnly, fallback
}

// FabricNames lists the values --fabric accepts, in the order help lists them.
func FabricNames() []string {
	return []string{"tcp", catalog.RDMAEFA, catalog.RDMAInfiniBand, catalog.RDMARoCE, catalog.RDMAERDMA}
}

// MaxFabricGbps bounds --fabric-gbps: 100 Tb/s per node, far above any
// node built (a DGX B200 has 8 × 400 Gb/s).
const MaxFabricGbps = 100000

// ParseFabric turns --fabric and --fabric-gbps into the model's fabric.
// An empty kind is the zero fabric (the model assumes one and says which).
func ParseFabric(kind string, gbps float64) (perf.Fabric, error) {
	if gbps < 0 || gbps > MaxFabricGbps || gbps != gbps {
		return perf.Fabric{}, inputMsg("fabric-gbps", "", "doc.err.fabric_gbps", float64(MaxFabricGbps))
	}
	kind = strings.ToLower(strings.TrimSpace(kind))
	switch kind {
	case "":
		if gbps > 0 {
			return perf.Fabric{}, inputMsg("fabric-gbps", "", "doc.err.fabric_gbps_alone")
		}
		return perf.Fabric{}, nil
	case "tcp":
		if gbps == 0 {
			gbps = 100
		}
		return perf.Fabric{NetworkGbps: gbps, RDMA: catalog.RDMANone}, nil
	}
	fabrics := FabricNames()
	for _, f := range fabrics {
		if kind == f {
			// Instance: the rate, when not given, is the GPU generation's
			// rail rate (one NIC per GPU), as for an offer that states none.
			return perf.Fabric{NetworkGbps: gbps, RDMA: kind, Instance: true}, nil
		}
	}
	return perf.Fabric{}, inputMsg("fabric", "", "doc.err.fabric", kind, strings.Join(fabrics, ", "))
}
