package perf

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// LLMShape describes an LLM serving workload in enough detail for a
// roofline: the model's size and attention layout, the mean request, the
// serving software and how the model is split.
type LLMShape struct {
	Params       float64 // total parameters (the weights that must be held)
	ActiveParams float64 // parameters used per token (mixture of experts); 0 = Params
	Layers       int
	KVHeads      int // key/value heads (grouped-query attention)
	HeadDim      int
	// Hidden is the model width d_model (0: the generic width for Params).
	Hidden int
	// Experts and TopK are a mixture of experts' routed experts per layer
	// and experts per token (0: Mixtral's 8 and 2).
	Experts, TopK int
	// Link is the interconnect of the GPUs a tensor-parallel group spans
	// (catalog.Link*; "" = the GPU's usual).
	Link         string
	InputTokens  float64 // mean prompt length per request
	OutputTokens float64 // mean generated tokens per request
	// MaxBatch caps the concurrent sequences per model copy (0: memory decides).
	MaxBatch int
	// TP is the tensor-parallel group size (0: the smallest power of two that fits).
	TP int
	// Stack is the serving software: "tensorrt-llm" or "vllm"; efficiency is fitted per stack.
	Stack string
	// Notes say where the shape's figures come from.
	Notes []i18n.Msg
}

// active is the parameter count that does the work of one token.
func (s LLMShape) active() float64 {
	if s.ActiveParams > 0 {
		return s.ActiveParams
	}
	return s.Params
}

// kvBytesPerToken is the KV-cache size of one token of context.
func (s LLMShape) kvBytesPerToken(p Precision) float64 {
	return 2 * float64(s.Layers*s.KVHeads*s.HeadDim) * kvElemBytes(p)
}

// weightBytes is the bytes per parameter of weights at a precision:
// FP16/BF16 2, FP8/INT8 1, INT4 0.5, FP32/TF32 4.
func weightBytes(p Precision) float64 {
	switch p {
	case INT4:
		return 0.5
	case FP8, INT8, LowBest:
		return 1
	case FP32, TF32:
		return 4
	}
	return 2
}

// kvElemBytes is the KV-cache element size: FP8 with 8-bit and 4-bit
// weights (as TensorRT-LLM and vLLM FP8-KV runs do), else FP16.
func kvElemBytes(p Precision) float64 {
	switch p {
	case FP8, INT8, INT4, LowBest:
		return 1
	case FP32, TF32:
		return 4
	}
	return 2
}

// computePrecision is the tensor-core format the matrix products run in:
// INT4 weight-only quantisation dequantises to FP16 (W4A16).
func computePrecision(p Precision) Precision {
	if p == INT4 {
		return FP16
	}
	return p
}

// llmShapes are the shapes of the LLM benchmarks in the calibration data.
// Model layouts are from the models' published configurations (Llama 2 70B
// and Llama 3.1 70B: 80 layers, d_model 8,192, 8 KV heads of 128; Llama
// 3.1 405B: 126 layers, d_model 16,384; Mixtral 8x7B: 46.7 B parameters,
// 12.9 B active, 32 layers, d_model 4,096, 8 KV heads of 128, 8 experts,
// 2 per token). Request lengths: MLPerf's Llama-2-70B logs report 80.15
// samples/s at 23,514.8 tokens/s (AMD, v4.1), 293 output tokens per
// request; AMD's vLLM runs state 128 in / 2048 out.
var llmShapes = []struct {
	match string
	shape LLMShape
}{
	{"mlperf-inf-llama2-70b", LLMShape{Params: 70e9, Layers: 80, KVHeads: 8, HeadDim: 128, Hidden: 8192, InputTokens: 293, OutputTokens: 293,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_llama2")}}},
	{"mlperf-inf-mixtral-8x7b", LLMShape{Params: 46.7e9, ActiveParams: 12.9e9, Layers: 32, KVHeads: 8, HeadDim: 128, Hidden: 4096, Experts: 8, TopK: 2, InputTokens: 293, OutputTokens: 293,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_mixtral")}}},
	{"vllm-llama3.1-70b", LLMShape{Params: 70.6e9, Layers: 80, KVHeads: 8, HeadDim: 128, Hidden: 8192, InputTokens: 128, OutputTokens: 2048, TP: 8, MaxBatch: 256,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_vllm")}}},
	{"vllm-llama3.1-405b", LLMShape{Params: 405e9, Layers: 126, KVHeads: 8, HeadDim: 128, Hidden: 16384, InputTokens: 128, OutputTokens: 2048, TP: 8, MaxBatch: 256,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_vllm")}}},
}

// ShapeOf returns the LLM shape of a calibration benchmark, if known.
func ShapeOf(bench string) (LLMShape, bool) {
	n := strings.ToLower(bench)
	for _, s := range llmShapes {
		if strings.HasPrefix(n, s.match) {
			sh := s.shape
			sh.Stack = "tensorrt-llm"
			if strings.HasPrefix(n, "vllm") {
				sh.Stack = "vllm"
			}
			return sh, true
		}
	}
	return LLMShape{}, false
}

// stackOf is the serving software of a calibration result.
func stackOf(p Point) string {
	if strings.Contains(strings.ToLower(p.PrecisionAs+" "+p.Benchmark), "vllm") {
		return "vllm"
	}
	return "tensorrt-llm"
}

// GenericShape is the shape assumed for a sized LLM job: Llama-3-style
// grouped-query attention (8 KV heads of 128) with the layer count
// interpolated from Llama 3.1 8B (32), 70B (80) and 405B (126) by size,
// and the width by genericHidden.
func GenericShape(params, input, output float64) LLMShape {
	layers := 32.0
	switch {
	case params <= 8e9:
		layers = 32 * math.Pow(params/8e9, 0.4)
	case params <= 70e9:
		layers = 32 * math.Pow(params/8e9, math.Log(80.0/32)/math.Log(70.0/8))
	default:
		layers = 80 * math.Pow(params/70e9, math.Log(126.0/80)/math.Log(405.0/70))
	}
	if layers < 1 {
		layers = 1
	}
	d := genericHidden(params)
	return LLMShape{Params: params, Layers: int(math.Round(layers)), KVHeads: 8, HeadDim: 128, Hidden: d, InputTokens: input, OutputTokens: output,
		Stack: "tensorrt-llm", Notes: []i18n.Msg{i18n.M("perf.as.shape_generic", int(math.Round(layers)), d)}}
}

// Roofline is the bound of an LLM serving workload on one GPU model:
// seconds per generated token per GPU at 100 % efficiency, split into
// prefill (tensor FLOPs), decode compute (tensor FLOPs) and decode memory
// traffic (weights once per step, plus each sequence's KV cache).
type Roofline struct {
	TP           int     // GPUs per model copy
	Replicas     int     // model copies on the GPUs asked for
	Batch        float64 // concurrent sequences per copy
	WeightsGB    float64
	KVPerSeqGB   float64 // KV cache of one full request
	Prefill      float64 // s per output token per GPU: (2·active·input + attention)/output / peak
	DecodeFLOPs  float64 // s per output token per GPU: (2·active + 4·layers·context·d_model) / peak
	DecodeMemory float64 // s per output token per GPU: (KV·context + weights read per step/batch) / bandwidth
	// Comm is s per output token per GPU in tensor-parallel all-reduces
	// (decode steps and the request's prefill), by the group's link.
	Comm float64
	// Link is the link the tensor-parallel group's all-reduces cross.
	Link TPLink
	// ExpertShare is the share of routed experts a decode step at Batch
	// reads (1 for a dense model); WeightsReadGB the weights it reads and
	// ActiveWeightsGB those of the active parameters alone.
	ExpertShare, WeightsReadGB, ActiveWeightsGB float64
	// Shape is the workload the roofline is of.
	Shape LLMShape
	// Capped is true when the serving software caps the batch below what
	// memory holds: each step's read of the weights is then shared by fewer
	// sequences.
	Capped       bool
	PeakTFLOPS   float64
	PeakUsed     Precision
	BandwidthGBs float64
	// PowerRatio is the GPU's board power per dense TFLOPS of the peak used,
	// relative to refWattsPerTFLOPS (1 or more: power does not limit the
	// tensor cores; 0: the power limit is unknown).
	PowerRatio float64
}

// DecodeLimiter names the resource that bounds decoding.
func (r Roofline) DecodeLimiter() string {
	if r.DecodeMemory >= r.DecodeFLOPs {
		return "memory bandwidth"
	}
	return "tensor FLOPs"
}

// decodeLimiterMsg is DecodeLimiter as a message.
func (r Roofline) decodeLimiterMsg() i18n.Msg {
	if r.DecodeMemory >= r.DecodeFLOPs {
		return i18n.M("perf.as.limiter.memory")
	}
	return i18n.M("perf.as.limiter.flops")
}

// usableKV is the share of GPU memory the KV cache and weights may use
// (the rest: activations, CUDA graphs, fragmentation; an assumption).
const usableKV = 0.9

// RooflineOf computes the roofline of a shape on count GPUs of spec s at
// precision p (weights: FP16, FP8, INT8 or INT4).
func RooflineOf(sh LLMShape, s Spec, p Precision, count int) (Roofline, error) {
	if sh.Params <= 0 || sh.OutputTokens <= 0 || sh.Layers <= 0 {
		return Roofline{}, fmt.Errorf("LLM shape needs parameters, layers and output tokens")
	}
	peak, used, _, ok := s.PeakFor(computePrecision(p))
	if !ok || s.BandwidthGBs <= 0 || s.MemoryGB <= 0 {
		return Roofline{}, msgErr("perf.err.no_roofline", s.ID)
	}
	r := Roofline{PeakTFLOPS: peak, PeakUsed: used, BandwidthGBs: s.BandwidthGBs, Shape: sh}
	r.PowerRatio = powerRatio(s)
	wt := sh.Params * weightBytes(p)
	kvTok := sh.kvBytesPerToken(p)
	kvSeq := kvTok * (sh.InputTokens + sh.OutputTokens)
	r.WeightsGB, r.KVPerSeqGB = wt/1e9, kvSeq/1e9
	mem := s.MemoryGB * 1e9 * usableKV
	tp := sh.TP
	if tp <= 0 {
		// The smallest power of two leaving at least a tenth of memory for
		// the KV cache, and room for one request's.
		for tp = 1; float64(tp)*mem*0.9 < wt || float64(tp)*mem-wt <= kvSeq; tp *= 2 {
			if tp > 1024 {
				break
			}
		}
	}
	if tp > count {
		if float64(count)*mem*0.9 >= wt {
			return r, &ContextError{KVGB: kvSeq / 1e9, WeightsGB: wt / 1e9, GPUs: count, UsableGB: mem / 1e9}
		}
		return r, fmt.Errorf("the %.0f GB of weights need %d GPUs per copy, more than the %d given", wt/1e9, tp, count)
	}
	r.TP, r.Replicas = tp, count/tp
	r.Link = TPLinkOf(s, sh.Link, tp)
	free := float64(tp)*mem - wt
	if free <= kvSeq {
		return r, &ContextError{KVGB: kvSeq / 1e9, WeightsGB: wt / 1e9, GPUs: tp, UsableGB: mem / 1e9}
	}
	r.Batch = math.Floor(free / kvSeq)
	if sh.MaxBatch > 0 && r.Batch > float64(sh.MaxBatch) {
		r.Batch = float64(sh.MaxBatch)
		r.Capped = true
	}
	act := sh.active()
	ctx := sh.InputTokens + sh.OutputTokens/2
	r.Prefill = sh.PrefillFLOPs(sh.InputTokens) / sh.OutputTokens / (peak * 1e12)
	r.DecodeFLOPs = (2*act + sh.decodeAttnFLOPs(ctx)) / (peak * 1e12)
	// Each decode step reads the weights once for the whole batch (a
	// mixture of experts: the experts some sequence picked) and each
	// sequence's KV cache.
	r.ExpertShare = sh.ExpertShare(r.Batch)
	read := sh.ParamsReadPerStep(r.Batch) * weightBytes(p)
	r.WeightsReadGB, r.ActiveWeightsGB = read/1e9, act*weightBytes(p)/1e9
	r.DecodeMemory = (kvTok*ctx + read/r.Batch) / (s.BandwidthGBs * 1e9)
	// All-reduces across PCIe: the group waits for them (not overlapped);
	// a copy of TP GPUs makes Batch tokens per step. The efficiencies are
	// fitted on NVLink, NVSwitch and Infinity Fabric systems, so the time
	// of all-reduces over those links is already inside them.
	if r.Link.PCIe {
		r.Comm = (r.AllReduceStep(r.Batch)/r.Batch + r.PrefillAllReduce()/sh.OutputTokens) * float64(tp)
	}
	return r, nil
}

// Eff is a pair of fitted efficiencies: the share of the tensor peak
// reached by prefill and compute-bound decoding, and the share of memory
// bandwidth reached by bandwidth-bound decoding.
type Eff struct {
	Compute   float64
	Bandwidth float64
	// Power is the exponent of the power-limit term: a GPU whose board
	// power per peak TFLOPS is below the reference reaches its compute
	// efficiency times PowerRatio^Power (0: no power term).
	Power float64
	// Terms multiplies the roofline's tokens/s: the fitted workload term of
	// the benchmark and the software-round term of the stack (0 means 1).
	Terms  float64
	N      int      // calibration results behind it
	Source string   // what it was fitted on, in English
	Why    i18n.Msg // Source as a message
}

// refWattsPerTFLOPS is the board power per dense 8-bit TFLOPS at which the
// tensor cores are taken to hold their boost clock under a sustained
// load: H100/H200 SXM at 700 W for 1,979 TFLOPS (an assumption; parts
// with less power per TFLOPS, such as H100 NVL at 400 W, clock lower).
const refWattsPerTFLOPS = 700.0 / 1978.9

// powerRatio is a GPU's board power per dense 8-bit TFLOPS (twice the
// 16-bit figure where no 8-bit one is published) relative to
// refWattsPerTFLOPS; 0 when the power limit or peak is unknown.
func powerRatio(s Spec) float64 {
	p8 := math.Max(s.Peak[FP8], s.Peak[INT8])
	if p8 <= 0 {
		p8 = 2 * s.Peak[FP16]
	}
	if s.TDPW <= 0 || p8 <= 0 {
		return 0
	}
	return s.TDPW / p8 / refWattsPerTFLOPS
}

// PowerFactor is the share of the compute efficiency a power-limited GPU keeps.
func (r Roofline) PowerFactor(e Eff) float64 {
	if r.PowerRatio <= 0 || r.PowerRatio >= 1-1e-9 || e.Power == 0 {
		return 1
	}
	return math.Pow(r.PowerRatio, e.Power)
}

// TokensPerGPU is the predicted generated tokens/s per GPU.
func (r Roofline) TokensPerGPU(e Eff) float64 {
	c := e.Compute * r.PowerFactor(e)
	t := 1 / (r.Prefill/c + math.Max(r.DecodeFLOPs/c, r.DecodeMemory/e.Bandwidth) + r.Comm)
	if e.Terms > 0 {
		t *= e.Terms
	}
	return t
}

// llmRow is a calibration result prepared for the efficiency fit.
type llmRow struct {
	idx   int
	stack string
	roof  Roofline
	y     float64 // log measured tokens/s per GPU
	adj   float64 // log workload and software-round terms (fitted)
}

// effCoarse is the first efficiency grid searched (log-spaced 2 %–100 %,
// steps of ×1.25); the best point is then refined in steps of ×1.05
// within one coarse step.
var effCoarse = func() []float64 {
	var g []float64
	for v := math.Log(0.02); v <= 1e-9; v += math.Log(1.25) {
		g = append(g, math.Exp(v))
	}
	return append(g, 1)
}()

// fine is the refined grid around v: ×1.05 steps within ×/÷ 1.25, capped at 1.
func fine(v float64) []float64 {
	var g []float64
	for x := v / 1.25; x <= v*1.25*1.0001; x *= 1.05 {
		if x <= 1 {
			g = append(g, x)
		}
	}
	return g
}

// powerGrid are the power-term exponents searched (0: no power term).
var powerGrid = []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5}

// fitEff fits one (compute, bandwidth) efficiency pair on rows by grid
// search of the squared log error, shrunk toward prior with weight lambda.
// Without a prior the power-term exponent is searched too; with one it is
// the prior's.
func fitEff(rows []llmRow, prior *Eff, lambda float64) Eff {
	best, bestErr := Eff{Compute: 0.4, Bandwidth: 0.4}, math.Inf(1)
	powers := powerGrid
	if prior != nil {
		powers = []float64{prior.Power}
	}
	try := func(e Eff) {
		sse := 0.0
		for _, r := range rows {
			d := r.y - r.adj - math.Log(r.roof.TokensPerGPU(e))
			sse += d * d
		}
		if prior != nil {
			dc, db := math.Log(e.Compute/prior.Compute), math.Log(e.Bandwidth/prior.Bandwidth)
			sse += lambda * (dc*dc + db*db)
		}
		if sse < bestErr {
			best, bestErr = e, sse
		}
	}
	for _, pw := range powers {
		for _, c := range effCoarse {
			for _, b := range effCoarse {
				try(Eff{Compute: c, Bandwidth: b, Power: pw})
			}
		}
	}
	coarse := best
	for _, c := range fine(coarse.Compute) {
		for _, b := range fine(coarse.Bandwidth) {
			try(Eff{Compute: c, Bandwidth: b, Power: coarse.Power})
		}
	}
	best.N = len(rows)
	return best
}

// effShrink weighs the all-stack efficiencies against a stack's own rows.
const effShrink = 0.5

// llmFit is the fitted LLM serving model: efficiencies per stack, and
// shrunk log terms per benchmark (the workload: request lengths the result
// files do not state) and per serving-software round (stack and benchmark
// round: TensorRT-LLM in MLPerf v4.0 vs v4.1).
type llmFit struct {
	eff   map[string]Eff
	bench map[string]float64
	round map[string]float64
	// rounds lists the round keys seen per "stack|benchmark" and per "stack|".
	rounds map[string]map[string]bool
}

// llmTermShrink is the pseudo-count pulling benchmark and round terms to 0.
const llmTermShrink = 1.0

// benchKey is the workload term's key: the benchmark as run by one stack.
func benchKey(p Point) string { return stackOf(p) + "|" + p.Benchmark }

// roundKey is the software round of a result: its stack and suite version.
func roundKey(p Point) string { return stackOf(p) + "|" + p.Suite }

// adj is the fitted log term of a result's benchmark and software round.
func (f llmFit) adj(p Point) float64 {
	return f.bench[benchKey(p)] + f.round[roundKey(p)]
}

// latestRound is the newest software round (by name: "MLPerf Inference
// v4.1" after "v4.0") of a stack among the fitted results, restricted to a
// benchmark's results when bench is not empty; ok is false when none.
func (f llmFit) latestRound(stack, bench string) (key string, ok bool) {
	for k := range f.rounds[stack+"|"+bench] {
		if !ok || k > key {
			key, ok = k, true
		}
	}
	return key, ok
}

// forQuery is the efficiency of a stack for a benchmark ("" for a sized
// job) with its workload term and the term of the stack's latest round.
func (f llmFit) forQuery(stack, bench string) (Eff, bool) {
	e, ok := f.eff[stack]
	if !ok {
		if e, ok = f.eff[""]; !ok {
			return e, false
		}
	}
	lg := f.bench[stack+"|"+bench]
	rk, rok := f.latestRound(stack, bench)
	if !rok {
		rk, rok = f.latestRound(stack, "")
	}
	if rok {
		lg += f.round[rk]
	}
	e.Terms = math.Exp(lg)
	parts := i18n.Semi{e.Why}
	if e.Terms != 1 {
		round := strings.TrimPrefix(rk, stack+"|")
		if bench != "" && f.bench[stack+"|"+bench] != 0 {
			parts = append(parts, i18n.M("perf.as.eff_terms_bench", bench, round, e.Terms))
		} else {
			parts = append(parts, i18n.M("perf.as.eff_terms_round", round, e.Terms))
		}
	}
	if e.Power > 0 {
		parts = append(parts, i18n.M("perf.as.eff_power", refWattsPerTFLOPS, refWattsPerTFLOPS, e.Power))
	}
	if len(parts) > 1 {
		e.Why = i18n.M("perf.as.eff_parts", i18n.Semi(parts))
		e.Source = e.Why.String()
	}
	return e, true
}

// llmFit fits the serving efficiencies and terms on all LLM results, once,
// on first use: most commands (offers, a GPU-hours plan, a CNN estimate)
// never ask, and the fit is about a third of the whole model's.
func (m *Model) llmFit() *llmFit {
	m.llmOnce.Do(func() { m.llm = fitLLMEff(m.points, m.specs, nil) })
	return &m.llm
}

// llmRows prepares the LLM serving results with a known shape; skip
// leaves out results by index.
func llmRows(points []Point, specs map[string]Spec, skip func(i int) bool) []llmRow {
	var rows []llmRow
	for i, p := range points {
		if p.IsTime() || Describe(p.Benchmark).Class != LLMInfer || (skip != nil && skip(i)) {
			continue
		}
		sh, ok := ShapeOf(p.Benchmark)
		s, ok2 := specs[p.GPU]
		if !ok || !ok2 {
			continue
		}
		r, err := RooflineOf(sh, s, p.Precision, p.Count)
		if err != nil {
			continue
		}
		rows = append(rows, llmRow{idx: i, stack: stackOf(p), roof: r, y: math.Log(p.Value / float64(r.TP*r.Replicas))})
	}
	return rows
}

// fitEffs fits one efficiency pair on all rows and one per stack shrunk toward it.
func fitEffs(rows []llmRow) map[string]Eff {
	out := map[string]Eff{}
	all := fitEff(rows, nil, 0)
	all.Why = i18n.M("perf.as.eff_all", len(rows))
	all.Source = all.Why.String()
	out[""] = all
	by := map[string][]llmRow{}
	for _, r := range rows {
		by[r.stack] = append(by[r.stack], r)
	}
	var stacks []string
	for s := range by {
		stacks = append(stacks, s)
	}
	sort.Strings(stacks)
	for _, s := range stacks {
		e := fitEff(by[s], &all, effShrink)
		e.Why = i18n.M("perf.as.eff_stack", len(by[s]), i18n.M("perf.as.stack."+s))
		e.Source = e.Why.String()
		out[s] = e
	}
	return out
}

// fitLLMEff fits the efficiencies and terms on the LLM results not skipped,
// alternating between the efficiencies and the shrunk mean residuals.
func fitLLMEff(points []Point, specs map[string]Spec, skip func(i int) bool) llmFit {
	f := llmFit{eff: map[string]Eff{}, bench: map[string]float64{}, round: map[string]float64{}, rounds: map[string]map[string]bool{}}
	rows := llmRows(points, specs, skip)
	if len(rows) == 0 {
		return f
	}
	for _, r := range rows {
		p := points[r.idx]
		for _, k := range []string{r.stack + "|" + p.Benchmark, r.stack + "|"} {
			if f.rounds[k] == nil {
				f.rounds[k] = map[string]bool{}
			}
			f.rounds[k][roundKey(p)] = true
		}
	}
	for it := 0; it < 3; it++ {
		for i := range rows {
			rows[i].adj = f.adj(points[rows[i].idx])
		}
		f.eff = fitEffs(rows)
		res := make([]float64, len(rows))
		for i, r := range rows {
			e := f.eff[r.stack]
			res[i] = r.y - math.Log(r.roof.TokensPerGPU(e))
		}
		for pass := 0; pass < 3; pass++ {
			bs, bn := map[string]float64{}, map[string]float64{}
			for i, r := range rows {
				p := points[r.idx]
				bs[benchKey(p)] += res[i] - f.round[roundKey(p)]
				bn[benchKey(p)]++
			}
			for k := range bs {
				f.bench[k] = bs[k] / (bn[k] + llmTermShrink)
			}
			rs, rn := map[string]float64{}, map[string]float64{}
			for i, r := range rows {
				p := points[r.idx]
				rs[roundKey(p)] += res[i] - f.bench[benchKey(p)]
				rn[roundKey(p)]++
			}
			for k := range rs {
				f.round[k] = rs[k] / (rn[k] + llmTermShrink)
			}
		}
	}
	return f
}

// ValidateLLM scores the LLM roofline alone: each serving result is
// predicted from efficiencies fitted without it and without the other
// results of the same submitter on the same GPU and benchmark (a
// submission's own runs), so no scored row informs its own prediction.
func ValidateLLM(points []Point, specs map[string]Spec) []Result {
	var out []Result
	for _, r := range llmRows(points, specs, nil) {
		p := points[r.idx]
		f := fitLLMEff(points, specs, func(i int) bool {
			q := points[i]
			return i == r.idx || (q.Submitter == p.Submitter && q.GPU == p.GPU && q.Benchmark == p.Benchmark)
		})
		e, ok := f.eff[r.stack]
		if !ok {
			if e, ok = f.eff[""]; !ok {
				continue
			}
		}
		pred := r.roof.TokensPerGPU(e) * math.Exp(f.adj(p)) * float64(r.roof.TP*r.roof.Replicas)
		out = append(out, Result{Point: p, Predicted: pred, Confidence: Transferred, Err: pred/p.Value - 1})
	}
	return out
}

// LLMEfficiency returns the fitted serving efficiency of a stack
// ("tensorrt-llm", "vllm"; "" for all stacks together), with the term of
// the stack's latest software round: what a sized serving job gets.
func (m *Model) LLMEfficiency(stack string) (Eff, bool) {
	return m.llmFit().forQuery(stack, "")
}

// llmThroughput estimates an LLM serving benchmark by the roofline and the
// fitted serving efficiency of its stack; ok is false when the benchmark
// has no known shape or the model has no LLM calibration.
func (m *Model) llmThroughput(e *Estimate, q Query) (perGPU float64, ok bool) {
	if e.Class != LLMInfer {
		return 0, false
	}
	sh, ok := ShapeOf(q.Benchmark)
	if !ok {
		return 0, false
	}
	if m.specs[q.GPU].Arch == "CDNA" {
		sh.Stack = "vllm" // AMD GPUs: TensorRT-LLM does not run there; the calibrated AMD results are vLLM's
	}
	eff, ok := m.llmFit().forQuery(sh.Stack, q.Benchmark)
	if !ok {
		return 0, false
	}
	r, err := RooflineOf(sh, m.specs[q.GPU], q.Precision, q.Count)
	if err != nil {
		return 0, false
	}
	e.Confidence = SpecsOnly
	for _, p := range m.points {
		if p.Benchmark == q.Benchmark && !p.IsTime() {
			e.Confidence = Transferred
			e.Basis = append(e.Basis, p)
		}
	}
	if e.Confidence == SpecsOnly {
		for _, p := range m.points {
			if Describe(p.Benchmark).Class == LLMInfer && stackOf(p) == sh.Stack && !p.IsTime() {
				e.Basis = append(e.Basis, p)
			}
		}
	}
	e.Roofline, e.ServingEff = &r, &eff
	e.Assumptions = append(e.Assumptions, sh.Notes...)
	e.Assumptions = append(e.Assumptions,
		i18n.M("perf.as.roofline", r.TP, r.Replicas, r.Batch, r.WeightsGB, r.KVPerSeqGB),
		i18n.M("perf.as.decode", r.decodeLimiterMsg(), r.PeakUsed, r.PeakTFLOPS, r.BandwidthGBs),
		i18n.M("perf.as.stack_eff", i18n.M("perf.as.stack."+sh.Stack), 100*eff.Compute, 100*eff.Bandwidth, eff.Why))
	if r.Replicas*r.TP < q.Count {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.idle_gpus", q.Count-r.Replicas*r.TP, q.Count))
	}
	return r.TokensPerGPU(eff) * float64(r.TP*r.Replicas) / float64(q.Count), true
}
