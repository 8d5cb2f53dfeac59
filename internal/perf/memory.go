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

// memoryCheck sizes a benchmark's model against the GPUs:
//
//	training:  16 bytes per parameter (FP16 weights and gradients, FP32
//	           master weights and two Adam moments) × 1.2 for activations
//	inference: weights at the precision × 1.2 for KV cache and activations
//
// When it does not fit one GPU, the model is split over a group of
// ceil(need / usable) GPUs (tensor parallel or sharded data parallel).
func (m *Model) memoryCheck(b Benchmark, q Query, s Spec) *MemoryCheck {
	if b.Params == 0 || s.MemoryGB <= 0 {
		return nil
	}
	per := 2.0 * 8 // bytes per parameter in mixed-precision Adam training
	what := "mixed-precision Adam training state (16 bytes/parameter)"
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
