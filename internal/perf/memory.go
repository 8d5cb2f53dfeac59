package perf

import (
	"fmt"
	"math"
)

// MemoryCheck says whether a model fits in GPU memory and how it is split.
type MemoryCheck struct {
	NeedGB   float64 // memory the job needs in all
	PerGPUGB float64 // usable memory per GPU
	Group    int     // GPUs that must share one model copy (tensor parallel / sharded)
	Fits     bool
	Note     string
}

// usableShare is the share of GPU memory a job can use (framework,
// CUDA context and fragmentation take the rest; an assumption).
const usableShare = 0.9

// bytesPerParam for inference weights by precision.
func bytesPerParam(p Precision) float64 {
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

// Memory per parameter of each training method (assumptions, stated in
// every estimate that uses them):
//
//	full:  16 bytes (16-bit weights and gradients, FP32 master weights and
//	       two Adam moments)
//	lora:  2 bytes of frozen 16-bit weights + adapters of adapterShare of
//	       the parameters at 16 bytes each (trained like full weights)
//	qlora: 0.5 byte of frozen 4-bit NF4 weights + about 0.03 for their
//	       quantisation constants (double-quantised, Dettmers et al. 2023)
//	       + the same adapters
const (
	fullBytes    = 16.0
	adapterShare = 0.01 // rank-16 adapters on every linear layer are 0.2-1% of a 7-70B model
	nf4Bytes     = 0.53
)

// trainBytes is the training memory per parameter of a method, and its description.
func trainBytes(m Method) (float64, string) {
	switch m {
	case LoRA:
		per := 2 + adapterShare*fullBytes
		return per, fmt.Sprintf("LoRA: frozen 16-bit weights 2 bytes/parameter + adapters (%.0f%% of the parameters at 16 bytes) = %.2g bytes/parameter", 100*adapterShare, per)
	case QLoRA:
		per := nf4Bytes + adapterShare*fullBytes
		return per, fmt.Sprintf("QLoRA: frozen 4-bit weights %.2g bytes/parameter + adapters (%.0f%% of the parameters at 16 bytes) = %.2g bytes/parameter", nf4Bytes, 100*adapterShare, per)
	}
	return fullBytes, "mixed-precision Adam training state (16 bytes/parameter)"
}

// memoryCheck sizes a benchmark's model against the GPUs:
//
//	training:  the method's bytes per parameter (trainBytes) × 1.2 for
//	           activations
//	inference: weights at the precision × 1.2 for KV cache and activations
//
// When it does not fit one GPU, the model is split over a group of
// ceil(need / usable) GPUs (tensor parallel or sharded data parallel).
func (m *Model) memoryCheck(b Benchmark, q Query, s Spec) *MemoryCheck {
	if b.Params == 0 || s.MemoryGB <= 0 {
		return nil
	}
	per, what := trainBytes(b.Method)
	if !b.Class.Training() {
		per = bytesPerParam(q.Precision)
		what = fmt.Sprintf("%s weights (%.3g byte/parameter)", q.Precision, per)
	}
	need := b.Params * per * 1.2 / 1e9
	usable := s.MemoryGB * usableShare
	g := int(math.Ceil(need / usable))
	if g < 1 {
		g = 1
	}
	mc := &MemoryCheck{NeedGB: need, PerGPUGB: usable, Group: g, Fits: g <= q.Count}
	switch {
	case !mc.Fits:
		mc.Note = fmt.Sprintf("does not fit: %s needs about %.0f GB (%s + 20%%), more than %d × %.0f GB usable", b.Name, need, what, q.Count, usable)
	case g > 1:
		mc.Note = fmt.Sprintf("the model is split over groups of %d GPUs (about %.0f GB: %s + 20%%)", g, need, what)
	default:
		mc.Note = fmt.Sprintf("fits one GPU (about %.2g GB of %.0f GB usable)", need, usable)
	}
	return mc
}
