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
// and Llama 3.1 70B: 80 layers, 8 KV heads of 128; Llama 3.1 405B: 126
// layers; Mixtral 8x7B: 46.7 B parameters, 12.9 B active, 32 layers, 8 KV
// heads of 128). Request lengths: MLPerf's Llama-2-70B logs report 80.15
// samples/s at 23,514.8 tokens/s (AMD, v4.1), 293 output tokens per
// request; AMD's vLLM runs state 128 in / 2048 out.
var llmShapes = []struct {
	match string
	shape LLMShape
}{
	{"mlperf-inf-llama2-70b", LLMShape{Params: 70e9, Layers: 80, KVHeads: 8, HeadDim: 128, InputTokens: 293, OutputTokens: 293,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_llama2")}}},
	{"mlperf-inf-mixtral-8x7b", LLMShape{Params: 46.7e9, ActiveParams: 12.9e9, Layers: 32, KVHeads: 8, HeadDim: 128, InputTokens: 293, OutputTokens: 293,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_mixtral")}}},
	{"vllm-llama3.1-70b", LLMShape{Params: 70.6e9, Layers: 80, KVHeads: 8, HeadDim: 128, InputTokens: 128, OutputTokens: 2048, TP: 8, MaxBatch: 256,
		Notes: []i18n.Msg{i18n.M("perf.as.shape_vllm")}}},
	{"vllm-llama3.1-405b", LLMShape{Params: 405e9, Layers: 126, KVHeads: 8, HeadDim: 128, InputTokens: 128, OutputTokens: 2048, TP: 8, MaxBatch: 256,
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
// interpolated from Llama 3.1 8B (32), 70B (80) and 405B (126) by size.
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
	return LLMShape{Params: params, Layers: int(math.Round(layers)), KVHeads: 8, HeadDim: 128, InputTokens: input, OutputTokens: output,
		Stack: "tensorrt-llm", Notes: []i18n.Msg{i18n.M("perf.as.shape_generic", int(math.Round(layers)))}}
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
	Prefill      float64 // s per output token per GPU: 2·active·input/output / peak
	DecodeFLOPs  float64 // s per output token per GPU: 2·active / peak
	DecodeMemory float64 // s per output token per GPU: (KV·context [+ weights/batch when capped]) / bandwidth
	// Capped is true when the serving software caps the batch below what
	// memory holds: each decode step then pays a read of the weights.
	Capped       bool
	PeakTFLOPS   float64
	PeakUsed     Precision
	BandwidthGBs float64
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
		return Roofline{}, fmt.Errorf("%s has no peak, bandwidth or memory figures", s.ID)
	}
	r := Roofline{PeakTFLOPS: peak, PeakUsed: used, BandwidthGBs: s.BandwidthGBs}
	wt := sh.Params * weightBytes(p)
	kvTok := sh.kvBytesPerToken(p)
	kvSeq := kvTok * (sh.InputTokens + sh.OutputTokens)
	r.WeightsGB, r.KVPerSeqGB = wt/1e9, kvSeq/1e9
	mem := s.MemoryGB * 1e9 * usableKV
	tp := sh.TP
	if tp <= 0 {
		// The smallest power of two leaving at least a tenth of memory for the KV cache.
		for tp = 1; float64(tp)*mem*0.9 < wt; tp *= 2 {
			if tp > 1024 {
				break
			}
		}
	}
	if tp > count {
		return r, fmt.Errorf("the %.0f GB of weights need %d GPUs per copy, more than the %d given", wt/1e9, tp, count)
	}
	r.TP, r.Replicas = tp, count/tp
	free := float64(tp)*mem - wt
	if free <= kvSeq {
		return r, fmt.Errorf("no room for the KV cache: %.0f GB of weights on %d × %.0f GB", wt/1e9, tp, s.MemoryGB)
	}
	r.Batch = math.Floor(free / kvSeq)
	if sh.MaxBatch > 0 && r.Batch > float64(sh.MaxBatch) {
		r.Batch = float64(sh.MaxBatch)
		r.Capped = true
	}
	act := sh.active()
	// Mixture-of-experts decoding reads every expert once the batch spreads
	// over them; a dense model reads its weights once per step.
	ctx := sh.InputTokens + sh.OutputTokens/2
	r.Prefill = 2 * act * sh.InputTokens / sh.OutputTokens / (peak * 1e12)
	r.DecodeFLOPs = 2 * act / (peak * 1e12)
	// Offline serving with in-flight batching fills memory with sequences:
	// the weights' read per step is then shared by hundreds of them and the
	// KV cache dominates decode traffic. A software cap on the batch (vLLM's
	// max_num_seqs) charges each step's weight read to fewer tokens.
	traffic := kvTok * ctx
	if r.Capped {
		traffic += wt / r.Batch
	}
	r.DecodeMemory = traffic / (s.BandwidthGBs * 1e9)
	return r, nil
}

// Eff is a pair of fitted efficiencies: the share of the tensor peak
// reached by prefill and compute-bound decoding, and the share of memory
// bandwidth reached by bandwidth-bound decoding.
type Eff struct {
	Compute   float64
	Bandwidth float64
	N         int      // calibration results behind it
	Source    string   // what it was fitted on, in English
	Why       i18n.Msg // Source as a message
}

// TokensPerGPU is the predicted generated tokens/s per GPU.
func (r Roofline) TokensPerGPU(e Eff) float64 {
	return 1 / (r.Prefill/e.Compute + math.Max(r.DecodeFLOPs/e.Compute, r.DecodeMemory/e.Bandwidth))
}

// llmRow is a calibration result prepared for the efficiency fit.
type llmRow struct {
	idx   int
	stack string
	roof  Roofline
	y     float64 // log measured tokens/s per GPU
}

// effGrid is the efficiency grid searched (log-spaced 2 %–100 %).
var effGrid = func() []float64 {
	var g []float64
	for v := math.Log(0.02); v <= 1e-9; v += math.Log(1.05) {
		g = append(g, math.Exp(v))
	}
	return append(g, 1)
}()

// fitEff fits one (compute, bandwidth) efficiency pair on rows by grid
// search of the squared log error, shrunk toward prior with weight lambda.
func fitEff(rows []llmRow, prior *Eff, lambda float64) Eff {
	best, bestErr := Eff{Compute: 0.4, Bandwidth: 0.4}, math.Inf(1)
	for _, c := range effGrid {
		for _, b := range effGrid {
			e := Eff{Compute: c, Bandwidth: b}
			sse := 0.0
			for _, r := range rows {
				d := r.y - math.Log(r.roof.TokensPerGPU(e))
				sse += d * d
			}
			if prior != nil {
				dc, db := math.Log(c/prior.Compute), math.Log(b/prior.Bandwidth)
				sse += lambda * (dc*dc + db*db)
			}
			if sse < bestErr {
				best, bestErr = e, sse
			}
		}
	}
	best.N = len(rows)
	return best
}

// effShrink weighs the all-stack efficiencies against a stack's own rows.
const effShrink = 0.5

// fitLLM fits the serving efficiencies: one pair on all LLM results, and
// one per serving stack shrunk toward it.
func (m *Model) fitLLM() { m.llmEff = fitLLMEff(m.points, m.specs, nil) }

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

// fitLLMEff fits the efficiencies on the LLM results not skipped.
func fitLLMEff(points []Point, specs map[string]Spec, skip func(i int) bool) map[string]Eff {
	out := map[string]Eff{}
	rows := llmRows(points, specs, skip)
	if len(rows) == 0 {
		return out
	}
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

// ValidateLLM scores the LLM roofline alone: each serving result is
// predicted from efficiencies fitted without it and without the other
// results of the same submitter on the same GPU and benchmark (a
// submission's own runs), so no scored row informs its own prediction.
func ValidateLLM(points []Point, specs map[string]Spec) []Result {
	var out []Result
	for _, r := range llmRows(points, specs, nil) {
		p := points[r.idx]
		effs := fitLLMEff(points, specs, func(i int) bool {
			q := points[i]
			return i == r.idx || (q.Submitter == p.Submitter && q.GPU == p.GPU && q.Benchmark == p.Benchmark)
		})
		e, ok := effs[r.stack]
		if !ok {
			if e, ok = effs[""]; !ok {
				continue
			}
		}
		pred := r.roof.TokensPerGPU(e) * float64(r.roof.TP*r.roof.Replicas)
		out = append(out, Result{Point: p, Predicted: pred, Confidence: Transferred, Err: pred/p.Value - 1})
	}
	return out
}

// LLMEfficiency returns the fitted serving efficiency of a stack
// ("tensorrt-llm", "vllm"; "" for all stacks together).
func (m *Model) LLMEfficiency(stack string) (Eff, bool) {
	if e, ok := m.llmEff[stack]; ok {
		return e, true
	}
	e, ok := m.llmEff[""]
	return e, ok
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
	eff, ok := m.LLMEfficiency(sh.Stack)
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
