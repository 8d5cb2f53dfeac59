package perf_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/i18n/zhcheck"
	"github.com/gpuscout/gpuscout/internal/perf"
)

// TestAssumptionsInBothLanguages renders every assumption the model
// writes (every benchmark on every GPU, one node and several, and every
// sized job kind) in English and Chinese: each is a known message whose
// arguments fit its format, and the Chinese one shows no English word but
// names, units and IDs.
func TestAssumptionsInBothLanguages(t *testing.T) {
	_, specs, m := setup(t)
	en, zh := i18n.NewPrinter(i18n.EN), i18n.NewPrinter(i18n.ZH)
	names := zhcheck.Names{}
	for _, s := range specs {
		names.Add(s.Arch)
	}
	names.Add("PCIe NVSwitch NVLink InfiniBand Infinity Fabric xGMI vLLM Llama Mixtral MLPerf Inference ROCm Apr TensorRT FLOPs GFLOPs token")
	seen := map[string]bool{}
	check := func(what string, e *perf.Estimate) {
		t.Helper()
		for _, a := range e.Assumptions {
			seen[a.Key] = true
			e, z := en.M(a), zh.M(a)
			for _, s := range []string{e, z} {
				if strings.Contains(s, "%!") || strings.Contains(s, "perf.as.") || s == a.Key {
					t.Errorf("%s: %s renders badly: %q", what, a.Key, s)
				}
			}
			if !strings.ContainsFunc(z, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
				t.Errorf("%s: %s has no Chinese: %q", what, a.Key, z)
			}
			if w := zhcheck.EnglishWords(z, names); len(w) > 0 {
				t.Errorf("%s: %s shows English %v: %q", what, a.Key, w, z)
			}
		}
	}
	for _, b := range m.Benchmarks() {
		for id, s := range specs {
			if len(s.Peak) == 0 {
				continue
			}
			for _, n := range []int{1, 16} {
				fabrics := []perf.Fabric{{}, {NetworkGbps: 100, Instance: true}, {NetworkGbps: 400, RDMA: "efa", Instance: true}}
				for _, f := range fabrics {
					e, err := m.Estimate(perf.Query{Benchmark: b, GPU: id, Count: n, Fabric: f})
					if err == nil {
						check(b+" on "+id, e)
					}
				}
			}
		}
	}
	jobs := []perf.Job{
		{Kind: perf.TransformerTrain, Params: 7e9, Tokens: 1e11},
		{Kind: perf.TransformerTrain, Params: 70e9, Tokens: 1e11, Precision: perf.FP8},
		{Kind: perf.LLMInference, Params: 70e9, Tokens: 1e9},
		{Kind: perf.LLMInference, Params: 70e9, Tokens: 1e9, Precision: perf.INT4},
		{Kind: perf.LLMInference, Params: 46.7e9, ActiveParams: 12.9e9, Tokens: 1e9, InputTokens: 8000, OutputTokens: 500},
		{Kind: perf.CNNTraining, Images: 1e6, Epochs: 1, GFLOPs: 8},
		{Kind: perf.FLOPJob, FLOPs: 1e18},
	}
	for _, j := range jobs {
		for id, s := range specs {
			if len(s.Peak) == 0 {
				continue
			}
			for _, n := range []int{1, 3, 16} {
				e, err := m.EstimateJob(j, perf.Query{GPU: id, Count: n, Fabric: perf.Fabric{NetworkGbps: 100, Instance: true}})
				if err == nil {
					check(string(j.Kind)+" on "+id, e)
				}
			}
		}
	}
	for _, k := range []string{"perf.as.peak_fallback", "perf.as.from_specs", "perf.as.intra", "perf.as.inter", "perf.as.mfu", "perf.as.roofline_upto", "perf.as.tt_fitted",
		"perf.as.tp_allreduce", "perf.as.moe_coverage", "perf.as.moe_experts_assumed", "perf.as.prefill_attn"} {
		if !seen[k] {
			t.Errorf("no estimate wrote %s: the test no longer covers it", k)
		}
	}
}
