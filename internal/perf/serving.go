package perf

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// The serving physics of an LLM beyond its weights: the KV cache at the
// request's context, prefill attention (quadratic in the prompt), the
// tensor-parallel all-reduces by the link they cross, and which experts a
// mixture of experts reads at a batch. docs/performance-model.md states
// each model with its sources.

// busShare is the share of a link's bidirectional figure that a ring
// all-reduce reaches as bus bandwidth (NCCL's busbw): about 0.38–0.41 on
// 8×A100 and 8×H100 NVSwitch systems (see intraBusBW); PCIe groups are
// taken to reach the same share of their x16 link.
const busShare = 0.4

// allReduceLatency is the fixed cost of one small all-reduce inside a node
// (an assumption: the order of NCCL's small-message all-reduce time).
const allReduceLatency = 10e-6

// actBytes is the size of an activation element exchanged by the
// all-reduces: 16-bit, whatever the weights' precision.
const actBytes = 2

// parseInterconnect reads a datasheet's interconnect line ("NVLink bridge
// (2 GPUs) or PCIe Gen4") into the PCIe generation (0: not stated) and how
// many cards an NVLink bridge joins (0: no bridge).
func parseInterconnect(s string) (gen, bridge int) {
	l := strings.ToLower(s)
	if i := strings.Index(l, "pcie gen"); i >= 0 && i+8 < len(l) {
		if d := l[i+8]; d >= '1' && d <= '9' {
			gen = int(d - '0')
		}
	}
	if strings.Contains(l, "bridge") {
		bridge = 2
		if strings.Contains(l, "4-way") {
			bridge = 4
		}
	}
	return gen, bridge
}

// pcieGBs is a x16 link's bidirectional bandwidth as GPU datasheets state
// it: Gen3 32 GB/s, Gen4 64 GB/s, Gen5 128 GB/s (doubling per generation).
func pcieGBs(gen int) float64 {
	return 32 * math.Pow(2, float64(gen-3))
}

// TPLink is the link a tensor-parallel group's all-reduces cross.
type TPLink struct {
	GBs    float64 // the vendor's bidirectional figure
	BusGBs float64 // all-reduce bus bandwidth: busShare × GBs
	PCIe   bool
	Gen    int      // PCIe generation (PCIe links)
	Name   i18n.Msg // "PCIe Gen4", "NVLink/NVSwitch"…
}

// TPLinkOf is the link of a tensor-parallel group of tp GPUs of spec s in
// an instance whose GPUs are joined by link (catalog.Link*; "" = the GPU's
// usual). NVLink bridges join two cards (four on H200 NVL): a larger group
// crosses PCIe. A card without a stated PCIe generation is taken as Gen4.
func TPLinkOf(s Spec, link string, tp int) TPLink {
	nv := false
	switch link {
	case catalog.LinkNVSwitch, catalog.LinkXGMI:
		nv = true
	case catalog.LinkNVLink:
		nv = s.BridgeGPUs == 0 || tp <= s.BridgeGPUs
	case "":
		nv = s.SXM
	}
	if nv && s.LinkGBs > 0 {
		return TPLink{GBs: s.LinkGBs, BusGBs: busShare * s.LinkGBs, Name: linkName(link, s)}
	}
	gen := s.PCIeGen
	if gen < 3 {
		gen = 4
	}
	g := pcieGBs(gen)
	return TPLink{GBs: g, BusGBs: busShare * g, PCIe: true, Gen: gen, Name: i18n.M("perf.link.pcie_gen", gen)}
}

// ringAllReduce is the time of one ring all-reduce of msg bytes over n
// GPUs: each GPU sends and receives 2(n−1)/n of the message (NCCL's ring
// algorithm), at the bus bandwidth, plus a fixed latency.
func ringAllReduce(msg float64, n int, busGBs float64) float64 {
	if n < 2 || busGBs <= 0 {
		return 0
	}
	return 2*float64(n-1)/float64(n)*msg/(busGBs*1e9) + allReduceLatency
}

// hidden is the model width d_model: the shape's, else the generic one
// for its size.
func (s LLMShape) hidden() float64 {
	if s.Hidden > 0 {
		return float64(s.Hidden)
	}
	return float64(genericHidden(s.Params))
}

// genericHidden is the model width assumed for a size, interpolated by
// size between published Llama configurations: Llama 3.2 1B (1.24 B
// parameters, d_model 2,048), Llama 3 8B (4,096), Llama 3 70B (8,192)
// and Llama 3.1 405B (16,384), rounded to a multiple of 128.
func genericHidden(params float64) int {
	var d float64
	switch {
	case params <= 8e9:
		d = 4096 * math.Pow(params/8e9, math.Log(2)/math.Log(8/1.24))
	case params <= 70e9:
		d = 4096 * math.Pow(params/8e9, math.Log(2)/math.Log(70.0/8))
	default:
		d = 8192 * math.Pow(params/70e9, math.Log(2)/math.Log(405.0/70))
	}
	return max(128, int(math.Round(d/128))*128)
}

// PrefillAttnFLOPs is the attention FLOPs of a causal prefill of n prompt
// tokens: per layer, QKᵀ and the weighted sum of V are 2·n²·d_model FLOPs
// each over the whole square, half of it under the causal mask, so
// 2·layers·n²·d_model (the count FlashAttention's benchmarks use,
// 4·n²·d per layer halved for causal; PaLM appendix B counts the same
// terms per token).
func (s LLMShape) PrefillAttnFLOPs(n float64) float64 {
	return 2 * float64(s.Layers) * n * n * s.hidden()
}

// PrefillFLOPs is the FLOPs of one request's prefill: 2 per active
// parameter and prompt token, plus the attention.
func (s LLMShape) PrefillFLOPs(n float64) float64 {
	return 2*s.active()*n + s.PrefillAttnFLOPs(n)
}

// decodeAttnFLOPs is the attention FLOPs of one generated token at a
// context of ctx tokens: 4·layers·ctx·d_model.
func (s LLMShape) decodeAttnFLOPs(ctx float64) float64 {
	return 4 * float64(s.Layers) * ctx * s.hidden()
}

// KVBytesPerRequest is the KV cache of one full request (prompt and
// output) at precision p: 2 (K and V) · layers · KV heads · head size ·
// element bytes per token.
func (s LLMShape) KVBytesPerRequest(p Precision) float64 {
	return s.kvBytesPerToken(p) * (s.InputTokens + s.OutputTokens)
}

// moe is true when the shape is a mixture of experts.
func (s LLMShape) moe() bool { return s.ActiveParams > 0 && s.ActiveParams < s.Params }

// Default expert layout of a mixture of experts that does not state its
// own: Mixtral 8x7B's 8 experts, 2 per token (its config.json:
// num_local_experts 8, num_experts_per_tok 2).
const (
	defaultExperts = 8
	defaultTopK    = 2
)

// experts is the routed experts per layer and experts per token; assumed
// is true when they are Mixtral's defaults.
func (s LLMShape) experts() (e, k float64, assumed bool) {
	if s.Experts > 0 && s.TopK > 0 && s.TopK < s.Experts {
		return float64(s.Experts), float64(s.TopK), false
	}
	return defaultExperts, defaultTopK, true
}

// ExpertShare is the expected share of a layer's routed experts that a
// decode step of batch sequences reads when each token picks k of E
// experts uniformly: 1 − (1 − k/E)^batch (at batch 1 exactly k/E; 1 for a
// dense model).
func (s LLMShape) ExpertShare(batch float64) float64 {
	if !s.moe() {
		return 1
	}
	e, k, _ := s.experts()
	return 1 - math.Pow(1-k/e, math.Max(1, batch))
}

// ParamsReadPerStep is the parameters a decode step of batch sequences
// reads: the shared weights (attention, embeddings, shared experts) once,
// and each routed expert some token picked. With P total and A active
// parameters and k of E experts per token, an expert holds (P−A)/(E−k)
// and the shared part is A − k·(P−A)/(E−k), so the step reads
// A + (P−A)·(E·share − k)/(E − k): A at batch 1, P once every expert is
// hit.
func (s LLMShape) ParamsReadPerStep(batch float64) float64 {
	if !s.moe() {
		return s.Params
	}
	e, k, _ := s.experts()
	a := s.ActiveParams
	return a + (s.Params-a)*(e*s.ExpertShare(batch)-k)/(e-k)
}

// ContextError says that a request's KV cache does not fit beside the
// weights on the GPUs given: the context is too long for them.
type ContextError struct {
	KVGB      float64 // KV cache of one request
	WeightsGB float64
	GPUs      int
	UsableGB  float64 // usable memory per GPU
}

func (e *ContextError) Error() string {
	return fmt.Sprintf("one request's KV cache (%.1f GB) does not fit beside the %.0f GB of weights on %d × %.0f GB usable", e.KVGB, e.WeightsGB, e.GPUs, e.UsableGB)
}

// Msg is the error as a message.
func (e *ContextError) Msg() i18n.Msg {
	return i18n.M("perf.context_too_long", e.KVGB, e.WeightsGB, e.GPUs, e.UsableGB)
}

// AllReduceStep is the time a decode step of batch sequences spends in
// the tensor-parallel all-reduces: two per layer (after attention and
// after the MLP), each of batch · d_model 16-bit activations.
func (r Roofline) AllReduceStep(batch float64) float64 {
	return 2 * float64(r.Shape.Layers) * ringAllReduce(batch*r.Shape.hidden()*actBytes, r.TP, r.Link.BusGBs)
}

// PrefillAllReduce is the time one request's prefill spends in the
// all-reduces: two per layer of prompt · d_model activations.
func (r Roofline) PrefillAllReduce() float64 {
	return 2 * float64(r.Shape.Layers) * ringAllReduce(r.Shape.InputTokens*r.Shape.hidden()*actBytes, r.TP, r.Link.BusGBs)
}

// servingNotes are the assumptions a sized serving estimate states about
// its context, link and experts.
func (r Roofline) servingNotes() []i18n.Msg {
	sh := r.Shape
	in := sh.InputTokens
	var out []i18n.Msg
	out = append(out, i18n.M("perf.as.prefill_attn", in, sh.PrefillAttnFLOPs(in)/1e12, 100*sh.PrefillAttnFLOPs(in)/sh.PrefillFLOPs(in)))
	if r.TP > 1 && r.Link.PCIe {
		out = append(out, i18n.M("perf.as.tp_allreduce", r.TP, r.Link.Name, 1000*r.AllReduceStep(r.Batch), r.Batch,
			1000*r.AllReduceStep(1), r.Link.BusGBs, r.Link.GBs))
	}
	if sh.moe() {
		e, k, assumed := sh.experts()
		out = append(out, i18n.M("perf.as.moe_coverage", r.Batch, 100*r.ExpertShare, int(e), int(k), r.WeightsReadGB, r.ActiveWeightsGB))
		if assumed {
			out = append(out, i18n.M("perf.as.moe_experts_assumed", defaultExperts, defaultTopK))
		}
	}
	return out
}

// ID names the link for documents: "pcie-gen4", or "nvlink" for an
// NVLink, NVSwitch or Infinity Fabric group.
func (l TPLink) ID() string {
	if l.PCIe {
		return fmt.Sprintf("pcie-gen%d", l.Gen)
	}
	return "nvlink"
}
