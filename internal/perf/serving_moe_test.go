package perf_test

import (
	"math"
	"testing"

	"github.com/gpuscout/gpuscout/internal/perf"
)

// TestExpertCoverage checks the expert coverage by hand: a decode step of
// B sequences reads 1 − (1 − k/E)^B of the routed experts. DeepSeek-V3
// (config.json: 256 routed experts, 8 per token; 671 B parameters, 37 B
// active) at batch 32 reads 1 − (1 − 1/32)^32 = 63.8 % of them; one
// sequence reads the active parameters only; Mixtral 8x7B at a batch of
// 10,000 reads all 46.7 B.
func TestExpertCoverage(t *testing.T) {
	ds := perf.LLMShape{Params: 671e9, ActiveParams: 37e9, Experts: 256, TopK: 8, Layers: 61, KVHeads: 128, HeadDim: 128}
	if s := ds.ExpertShare(32); math.Abs(s-(1-math.Pow(31.0/32, 32))) > 1e-12 || math.Abs(s-0.638) > 1e-3 {
		t.Errorf("DeepSeek-V3 expert share at batch 32: %.4f", s)
	}
	if p := ds.ParamsReadPerStep(1); math.Abs(p-37e9) > 1 {
		t.Errorf("one sequence reads %.4g parameters, want the 37e9 active", p)
	}
	// At batch 32: 37e9 + 634e9 · (256 · 0.638 − 8) / 248.
	if p, want := ds.ParamsReadPerStep(32), 37e9+634e9*(256*(1-math.Pow(31.0/32, 32))-8)/248; math.Abs(p/want-1) > 1e-12 {
		t.Errorf("DeepSeek-V3 at batch 32 reads %.4g parameters, want %.4g", p, want)
	}
	mix, ok := perf.ShapeOf("mlperf-inf-mixtral-8x7b")
	if !ok {
		t.Fatal("no Mixtral shape")
	}
	if s := mix.ExpertShare(1); s != 0.25 {
		t.Errorf("Mixtral, one sequence: %.3f of the experts, want 2/8", s)
	}
	if p := mix.ParamsReadPerStep(1e4); math.Abs(p-46.7e9) > 1e3 {
		t.Errorf("Mixtral at batch 10,000 reads %.4g parameters, want all 46.7e9", p)
	}
	// A dense model reads all its weights at any batch.
	if p := perf.GenericShape(8e9, 100, 100).ParamsReadPerStep(7); p != 8e9 {
		t.Errorf("dense 8B reads %.4g parameters per step", p)
	}
}
