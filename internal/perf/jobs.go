package perf

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// JobKind is a generic, sized workload.
type JobKind string

// Sized job kinds.
const (
	// TransformerTrain trains a transformer of Params parameters on Tokens
	// tokens: about 6·Params·Tokens FLOPs.
	TransformerTrain JobKind = "transformer-train"
	// LLMInference generates Tokens output tokens with a model of Params
	// parameters (batched, offline throughput).
	LLMInference JobKind = "llm-inference"
	// CNNTrain trains a CNN on Images images for Epochs epochs.
	CNNTraining JobKind = "cnn-train"
	// FLOPJob runs a fixed number of floating-point operations (HPC).
	FLOPJob JobKind = "flops"
	// Embedding runs Tokens input tokens through an encoder of Params
	// parameters (embeddings, classification, reranking: a batch job
	// sized by what goes in, with nothing generated).
	Embedding JobKind = "embedding"
)

// JobKinds lists the sized job kinds.
func JobKinds() []JobKind {
	return []JobKind{TransformerTrain, LLMInference, CNNTraining, FLOPJob, Embedding}
}

// Job is a sized workload.
type Job struct {
	Kind      JobKind   `json:"kind"`
	Params    float64   `json:"params,omitempty"` // model parameters (transformer-train, llm-inference)
	Tokens    float64   `json:"tokens,omitempty"` // training tokens, or output tokens to generate
	Images    float64   `json:"images,omitempty"` // dataset images (cnn-train)
	Epochs    float64   `json:"epochs,omitempty"`
	GFLOPs    float64   `json:"gflops_per_image,omitempty"` // forward GFLOPs per image (cnn-train; ResNet-50 is 4.1)
	FLOPs     float64   `json:"flops,omitempty"`            // total FLOPs (flops jobs)
	Precision Precision `json:"precision,omitempty"`
	// Method is how a transformer-train job trains: full, lora or qlora
	// ("" = full).
	Method Method `json:"method,omitempty"`
	// LLM inference request shape (optional): mean prompt and generated
	// tokens per request, active parameters of a mixture of experts, and a
	// cap on concurrent sequences per model copy.
	InputTokens  float64 `json:"input_tokens,omitempty"`
	OutputTokens float64 `json:"output_tokens,omitempty"`
	ActiveParams float64 `json:"active_params,omitempty"`
	MaxBatch     int     `json:"max_batch,omitempty"`
	// The model's layout where the user knows it (0: assumed from a
	// published model of the same size): layers, KV heads and their size
	// (grouped- or multi-query attention), width d_model, and a mixture
	// of experts' routed experts and experts per token.
	Layers          int `json:"layers,omitempty"`
	KVHeads         int `json:"kv_heads,omitempty"`
	HeadDim         int `json:"head_dim,omitempty"`
	Hidden          int `json:"hidden_size,omitempty"`
	Experts         int `json:"experts,omitempty"`
	ExpertsPerToken int `json:"experts_per_token,omitempty"`
}

// ValidateShape checks an LLM's layout fields: none negative, experts per
// token fewer than the experts, and experts only with active parameters.
// Errors name the flags; validating callers wrap them with their field.
func ValidateShape(layers, kvHeads, headDim, hidden, experts, perToken int, params, active float64) error {
	for _, f := range []struct {
		name string
		v    int
	}{{"layers", layers}, {"kv-heads", kvHeads}, {"head-dim", headDim}, {"hidden-size", hidden}, {"experts", experts}, {"experts-per-token", perToken}} {
		if f.v < 0 || f.v > 1<<20 {
			return fmt.Errorf("--%s must be a whole number from 0 to %d", f.name, 1<<20)
		}
	}
	switch {
	case (experts > 0) != (perToken > 0):
		return fmt.Errorf("--experts and --experts-per-token go together")
	case experts > 0 && perToken >= experts:
		return fmt.Errorf("--experts-per-token (%d) must be fewer than --experts (%d)", perToken, experts)
	case experts > 0 && !(active > 0 && active < params):
		return fmt.Errorf("--experts needs --active-params below --params")
	}
	return nil
}

// applyShape sets the layout fields a user gave on a shape.
func applyShape(sh *LLMShape, layers, kvHeads, headDim, hidden, experts, perToken int) {
	if layers > 0 {
		sh.Layers = layers
	}
	if kvHeads > 0 {
		sh.KVHeads = kvHeads
	}
	if headDim > 0 {
		sh.HeadDim = headDim
	}
	if hidden > 0 {
		sh.Hidden = hidden
	}
	if experts > 0 {
		sh.Experts, sh.TopK = experts, perToken
	}
}

// Default LLM request shape: the Llama-2-70B MLPerf set's 293 generated
// tokens per request, with as many prompt tokens (the calibration shape).
const defaultLLMTokens = 293

// Assumed efficiencies of sized jobs, each stated in every estimate.
const (
	// trainMFU is the model-FLOPs utilisation of large transformer training
	// in BF16: Meta reports 38–43 % on 8,192–16,384 H100 for Llama 3 405B
	// (The Llama 3 Herd of Models, 2024, table 4).
	trainMFU = 0.40
	// hpcEfficiency is the share of the peak a FLOP-count job sustains (an
	// assumption; dense linear algebra reaches more, sparse codes far less).
	hpcEfficiency = 0.5
	// resnet50GFLOPs is ResNet-50's forward cost per 224×224 image (He et al. 2015: 3.8–4.1 GFLOPs).
	resnet50GFLOPs = 4.1
)

// Validate checks that the job's size fields are set for its kind.
func (j Job) Validate() error {
	pos := func(name string, v float64) error {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%s job: --%s must be a positive number", j.Kind, name)
		}
		return nil
	}
	if _, err := ParseMethod(string(j.Method)); err != nil {
		return err
	}
	if j.Method != "" && j.Method != Full && j.Kind != TransformerTrain {
		return fmt.Errorf("%s job: --method %s applies to transformer-train jobs only", j.Kind, j.Method)
	}
	if j.ActiveParams < 0 || j.ActiveParams > j.Params && j.Params > 0 {
		return fmt.Errorf("%s job: --active-params must be positive and at most --params", j.Kind)
	}
	if err := ValidateShape(j.Layers, j.KVHeads, j.HeadDim, j.Hidden, j.Experts, j.ExpertsPerToken, j.Params, j.ActiveParams); err != nil {
		return fmt.Errorf("%s job: %w", j.Kind, err)
	}
	switch j.Kind {
	case TransformerTrain:
		if err := pos("params", j.Params); err != nil {
			return err
		}
		return pos("tokens", j.Tokens)
	case LLMInference:
		if err := pos("params", j.Params); err != nil {
			return err
		}
		return pos("tokens", j.Tokens)
	case CNNTraining:
		if err := pos("images", j.Images); err != nil {
			return err
		}
		return pos("epochs", j.Epochs)
	case FLOPJob:
		return pos("flops", j.FLOPs)
	case Embedding:
		if err := pos("params", j.Params); err != nil {
			return err
		}
		return pos("tokens", j.Tokens)
	}
	return fmt.Errorf("unknown job kind %q (use transformer-train, llm-inference, cnn-train, embedding or flops)", j.Kind)
}

// EstimateJob estimates how long a sized job takes on q's GPUs.
func (m *Model) EstimateJob(j Job, q Query) (*Estimate, error) {
	if err := j.Validate(); err != nil {
		return nil, err
	}
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
	switch j.Kind {
	case TransformerTrain:
		return m.transformerTrain(j, q, spec)
	case LLMInference:
		return m.llmInference(j, q, spec)
	case CNNTraining:
		return m.cnnTrain(j, q)
	case Embedding:
		return m.embedding(j, q)
	default:
		return m.flopJob(j, q, spec)
	}
}

func (m *Model) transformerTrain(j Job, q Query, s Spec) (*Estimate, error) {
	p := j.Precision
	if p == "" {
		p = FP16
	}
	peak, used, note, ok := s.PeakFor(p)
	if !ok {
		return nil, msgErr("perf.err.no_peak", q.GPU)
	}
	mfu, mfuWhy := trainMFU, i18n.M("perf.as.mfu_default")
	if m.mfu.Total > 0 {
		mfu, mfuWhy = m.mfu.For(s.Arch)
	}
	e := &Estimate{Benchmark: string(j.Kind), Class: LLMTrain, GPU: q.GPU, Count: q.Count, Nodes: q.Nodes, Precision: p,
		Unit: "tokens/s", Confidence: SpecsOnly}
	if note.Key != "" {
		e.Assumptions = append(e.Assumptions, note)
	}
	if used == FP8 {
		mfu, mfuWhy = 0.3, i18n.M("perf.as.mfu_fp8")
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.fp8_training"))
	}
	e.MFU, e.MFUSource = mfu, mfuWhy.String()
	// Full training: 6 FLOPs per parameter and token (forward 2, backward
	// 4). Adapters on frozen weights skip the weights' gradients: the
	// backward pass still propagates activations' gradients (2), so about
	// 4 (an assumption; adapter FLOPs are under 1%).
	fpt := 6.0
	if j.Method == LoRA || j.Method == QLoRA {
		fpt = 4
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.lora_flops", strings.ToUpper(string(j.Method))))
	}
	// A mixture of experts computes with its active parameters; its memory
	// holds all of them.
	work := j.Params
	if j.ActiveParams > 0 {
		work = j.ActiveParams
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.moe", j.Params, j.ActiveParams))
	}
	flops := fpt * work * j.Tokens
	rate := float64(q.Count) * peak * 1e12 * mfu
	if q.Nodes > 1 && (q.Fabric.RDMA == "" || q.Fabric.RDMA == "none") && q.Fabric.Instance {
		rate *= 0.7
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.no_rdma"))
	}
	e.Throughput = rate / (fpt * work)
	e.PerGPU = e.Throughput / float64(q.Count)
	e.Minutes = flops / rate / 60
	e.Efficiency = mfu
	e.Assumptions = append(e.Assumptions,
		i18n.M("perf.as.train_flops", fpt, work, j.Tokens, flops),
		i18n.M("perf.as.mfu", 100*mfu, used, peak, mfuWhy))
	e.Memory = m.memoryCheck(Benchmark{Name: string(j.Kind), Class: LLMTrain, Params: j.Params, Method: j.Method}, Query{Count: q.Count, Precision: p}, s)
	if e.Memory != nil && e.Memory.Group > 1 {
		e.Memory.Note += " (sharded data parallel, e.g. FSDP or ZeRO-3)"
	}
	// The 80 % interval is the published MFUs' leave-one-publication-out
	// error; FP8 (an assumption, no calibration) keeps the wide ×/÷ 1.5.
	f := 1.5
	if w, ok := m.Bands[MFUBand]; ok && used != FP8 && m.mfu.Total > 0 {
		f = math.Exp(w)
	}
	e.MinutesLow, e.MinutesHigh = e.Minutes/f, e.Minutes*f
	e.Low, e.High = e.Throughput/f, e.Throughput*f
	e.Assumptions = append(e.Assumptions, i18n.M("perf.as.mfu_band", f))
	return e, nil
}

func (m *Model) llmInference(j Job, q Query, s Spec) (*Estimate, error) {
	// The model's native 16-bit weights unless a precision is asked for:
	// quantising is the user's choice, not the model's default.
	p := j.Precision
	if p == "" {
		p = FP16
	}
	if p == FP8 && s.Peak[FP8] <= 0 {
		return nil, fmt.Errorf("%s has no FP8 support: use int8 (8-bit weights, 16-bit compute) or fp16", q.GPU)
	}
	mem := m.memoryCheck(Benchmark{Name: string(j.Kind), Class: LLMInfer, Params: j.Params}, Query{Count: q.Count, Precision: p}, s)
	e := &Estimate{Benchmark: string(j.Kind), Class: LLMInfer, GPU: q.GPU, Count: q.Count, Nodes: q.Nodes, Precision: p, Unit: "tokens/s",
		Memory: mem, Efficiency: 1}
	in, out := j.InputTokens, j.OutputTokens
	if in <= 0 {
		in = defaultLLMTokens
	}
	if out <= 0 {
		out = defaultLLMTokens
	}
	// A mixture of experts' layers and width follow its active size
	// (Mixtral 8x7B, 12.9 B active: 32 layers of 4,096 like an 8B model).
	sized := j.Params
	if j.ActiveParams > 0 {
		sized = j.ActiveParams
	}
	sh := GenericShape(sized, in, out)
	sh.Params, sh.ActiveParams, sh.MaxBatch, sh.Link = j.Params, j.ActiveParams, j.MaxBatch, q.Fabric.Link
	applyShape(&sh, j.Layers, j.KVHeads, j.HeadDim, j.Hidden, j.Experts, j.ExpertsPerToken)
	if j.Layers > 0 || j.KVHeads > 0 || j.HeadDim > 0 || j.Hidden > 0 {
		sh.Notes = []i18n.Msg{i18n.M("perf.as.shape_given", sh.Layers, sh.Hidden, sh.KVHeads, sh.HeadDim)}
	}
	if s.Arch == "CDNA" {
		sh.Stack = "vllm"
	}
	r, err := RooflineOf(sh, s, p, q.Count)
	if err != nil {
		if mem != nil {
			mem.Fits = false
			mem.Note = err.Error()
		}
		return e, err
	}
	eff, ok := m.LLMEfficiency(sh.Stack)
	if !ok {
		return nil, fmt.Errorf("llm-inference needs LLM serving calibration results")
	}
	if sh.TP <= 0 {
		r = bestGroup(r, sh, s, p, q.Count, eff)
	}
	if mem != nil && r.TP > mem.Group {
		// One request's KV cache at this context needs a larger group.
		mem.Group = r.TP
	}
	if j.InputTokens <= 0 || j.OutputTokens <= 0 {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.requests", in, out))
	}
	e.Assumptions = append(e.Assumptions, sh.Notes...)
	e.Roofline, e.ServingEff = &r, &eff
	e.PerGPU = r.TokensPerGPU(eff) * float64(r.TP*r.Replicas) / float64(q.Count)
	e.Throughput = e.PerGPU * float64(q.Count)
	e.Confidence = Transferred
	e.Assumptions = append(e.Assumptions,
		i18n.M("perf.as.roofline_upto", r.TP, r.Replicas, r.Batch, r.WeightsGB, r.KVPerSeqGB),
		i18n.M("perf.as.decode", r.decodeLimiterMsg(), r.PeakUsed, r.PeakTFLOPS, r.BandwidthGBs),
		i18n.M("perf.as.stack_eff", i18n.M("perf.as.stack."+sh.Stack), 100*eff.Compute, 100*eff.Bandwidth, eff.Why))
	e.Assumptions = append(e.Assumptions, r.servingNotes()...)
	if p == INT4 {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.int4"))
	}
	for _, pt := range m.points {
		if Describe(pt.Benchmark).Class == LLMInfer && !pt.IsTime() {
			e.Basis = append(e.Basis, pt)
		}
	}
	w, ok := m.Bands[LLMRoofline]
	if !ok {
		w = 0.3
	}
	f := math.Exp(w)
	e.Low, e.High = e.Throughput/f, e.Throughput*f
	e.Minutes = j.Tokens / e.Throughput / 60
	e.MinutesLow, e.MinutesHigh = e.Minutes/f, e.Minutes*f
	e.Assumptions = append(e.Assumptions, i18n.M("perf.as.roofline_band", f))
	return e, nil
}

func (m *Model) cnnTrain(j Job, q Query) (*Estimate, error) {
	g := j.GFLOPs
	if g <= 0 {
		g = resnet50GFLOPs
	}
	ref, err := m.Estimate(Query{Benchmark: "resnet50-train-throughput", GPU: q.GPU, Precision: j.Precision, Count: q.Count,
		Nodes: q.Nodes, GPUsPerNode: q.GPUsPerNode, Fabric: q.Fabric})
	if err != nil {
		return nil, wrapMsg("perf.err.cnn_calib", err)
	}
	scale := resnet50GFLOPs / g
	e := *ref
	e.Benchmark, e.Unit = string(j.Kind), "images/s"
	e.Throughput, e.Low, e.High, e.PerGPU = ref.Throughput*scale, ref.Low*scale, ref.High*scale, ref.PerGPU*scale
	if scale != 1 && (e.Confidence == Measured || e.Confidence == Interpolated) {
		e.Confidence = Transferred
	}
	if scale != 1 {
		e.Assumptions = append(e.Assumptions, i18n.M("perf.as.cnn_scaled", resnet50GFLOPs, g))
	}
	e.Minutes = j.Images * j.Epochs / e.Throughput / 60
	f := e.High / e.Throughput
	e.MinutesLow, e.MinutesHigh = e.Minutes/f, e.Minutes*f
	return &e, nil
}

// The encoder calibration: MLPerf Inference BERT-Large (340 M parameters)
// at the 99.9 % accuracy target (FP16, or FP8 where it meets the target),
// offline, on SQuAD v1.1 sequences padded to 384 tokens.
const (
	encoderBench  = "mlperf-inf-bert-99.9"
	encoderParams = 340e6
	encoderSeq    = 384
)

// embedding times an encoder batch job from the BERT-Large calibration:
// tokens/s = samples/s × 384 × 340 M / parameters (the work per token
// grows with the parameters; attention over longer sequences is not
// modelled).
func (m *Model) embedding(j Job, q Query) (*Estimate, error) {
	ref, err := m.Estimate(Query{Benchmark: encoderBench, GPU: q.GPU, Count: q.Count, Nodes: q.Nodes, GPUsPerNode: q.GPUsPerNode, Fabric: q.Fabric})
	if err != nil {
		return nil, wrapMsg("perf.err.embed_calib", err)
	}
	scale := encoderSeq * encoderParams / j.Params
	e := *ref
	e.Benchmark, e.Unit, e.Class = string(j.Kind), "tokens/s", BERTInfer
	e.Throughput, e.Low, e.High, e.PerGPU = ref.Throughput*scale, ref.Low*scale, ref.High*scale, ref.PerGPU*scale
	if j.Params != encoderParams && (e.Confidence == Measured || e.Confidence == Interpolated) {
		e.Confidence = Transferred
	}
	e.Assumptions = append(append([]i18n.Msg(nil), ref.Assumptions...), i18n.M("perf.as.embedding", j.Params, j.Tokens))
	e.Memory = m.memoryCheck(Benchmark{Name: string(j.Kind), Class: BERTInfer, Params: j.Params}, Query{Count: q.Count, Precision: FP16}, m.specs[q.GPU])
	e.Minutes = j.Tokens / e.Throughput / 60
	f := e.High / e.Throughput
	e.MinutesLow, e.MinutesHigh = e.Minutes/f, e.Minutes*f
	return &e, nil
}

func (m *Model) flopJob(j Job, q Query, s Spec) (*Estimate, error) {
	p := j.Precision
	if p == "" {
		p = FP32
	}
	peak, used, note, ok := s.PeakFor(p)
	if !ok {
		return nil, msgErr("perf.err.no_peak", q.GPU)
	}
	e := &Estimate{Benchmark: string(j.Kind), GPU: q.GPU, Count: q.Count, Nodes: q.Nodes, Precision: p, Unit: "TFLOP/s", Confidence: SpecsOnly}
	if note.Key != "" {
		e.Assumptions = append(e.Assumptions, note)
	}
	e.Throughput = float64(q.Count) * peak * hpcEfficiency
	e.PerGPU = e.Throughput / float64(q.Count)
	e.Minutes = j.FLOPs / (e.Throughput * 1e12) / 60
	e.Efficiency = hpcEfficiency
	e.Assumptions = append(e.Assumptions, i18n.M("perf.as.hpc", 100*hpcEfficiency, used, peak), i18n.M("perf.as.no_fp64"))
	m.band(e)
	return e, nil
}

// bestGroup is the tensor-parallel layout of count GPUs that serves the
// most tokens per second, from r (the smallest group that holds the
// weights and one request's KV cache) up to all of them in groups twice as
// large: a larger group holds a larger batch and may serve more even with
// fewer copies. Serving engineers choose the layout that way; taking the
// smallest group alone made a longer prompt, which forces a larger group,
// look faster than a shorter one on the same GPUs.
func bestGroup(r Roofline, sh LLMShape, s Spec, p Precision, count int, eff Eff) Roofline {
	served := func(x Roofline) float64 { return x.TokensPerGPU(eff) * float64(x.TP*x.Replicas) }
	best, bestTokens := r, served(r)
	for tp := r.TP * 2; tp <= count; tp *= 2 {
		sh.TP = tp
		x, err := RooflineOf(sh, s, p, count)
		if err != nil {
			continue
		}
		if t := served(x); t > bestTokens {
			best, bestTokens = x, t
		}
	}
	return best
}
