package perf_test

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/perf"
)

var update = flag.Bool("update", false, "print recomputed validation bands; rewrite alpha_fitted.go")

func setup(t testing.TB) ([]perf.Point, map[string]perf.Spec, *perf.Model) {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	pts, skipped, err := perf.LoadEmbedded(perf.Lookup(ds.Catalog))
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) > 3 {
		t.Errorf("%d benchmark rows skipped (GPUs missing from the catalog): %v", len(skipped), skipped)
	}
	m, _, err := perf.New(ds.Catalog)
	if err != nil {
		t.Fatal(err)
	}
	return pts, perf.Specs(ds.Catalog), m
}

// TestLeaveOneOut fails when the model's cross-validated error regresses.
func TestLeaveOneOut(t *testing.T) {
	pts, specs, _ := setup(t)
	v := perf.Validate(pts, specs)
	predictable := 0.0
	n := 0
	for _, r := range v.Results {
		if !r.Point.IsTime() && r.Confidence != perf.SpecsOnly {
			predictable += math.Abs(r.Err)
			n++
		}
	}
	predictable /= float64(n)
	t.Logf("throughput rows: n=%d MAPE %.1f%% (median %.1f%%); predictable from other results: n=%d MAPE %.1f%%; time-to-train: n=%d MAPE %.1f%%",
		v.Throughput.N, 100*v.Throughput.MAPE, 100*v.Throughput.MedianAE, n, 100*predictable, v.Time.N, 100*v.Time.MAPE)
	if predictable > 0.10 {
		t.Errorf("LOO MAPE on throughput rows predictable from other results is %.1f%%, above 10%%", 100*predictable)
	}
	if v.Throughput.MAPE > 0.08 {
		t.Errorf("LOO MAPE on all throughput rows is %.1f%%, above the 8%% target", 100*v.Throughput.MAPE)
	}
	// The specs fallback: rows whose GPU had no other result for the workload.
	if v.NoGPUResult.MAPE > 0.30 {
		t.Errorf("LOO MAPE without a result on the GPU is %.1f%%, above 30%%", 100*v.NoGPUResult.MAPE)
	}
	// 80% intervals must hold about 80% of the held-out results.
	if in := v.Intervals["throughput"]; in.Coverage < 0.75 || in.Coverage > 0.85 {
		t.Errorf("80%% intervals cover %.0f%% of held-out throughput results, outside 75-85%%", 100*in.Coverage)
	}
	// The LLM roofline alone (cross-GPU), per GPU family: the 15% target.
	if v.LLMAll.N < 18 || v.LLMAll.MAPE > 0.15 {
		t.Errorf("LLM roofline LOO: n=%d MAPE %.1f%%, want at least 18 results under 15%%", v.LLMAll.N, 100*v.LLMAll.MAPE)
	}
	for f, s := range v.LLMFamily {
		if s.MAPE > 0.15 {
			t.Errorf("LLM roofline LOO on %s: MAPE %.1f%%, above 15%%", f, 100*s.MAPE)
		}
	}
	// Time to train (MLPerf Training) and sized training (published MFUs,
	// leave one publication out): the 12% target.
	if v.Time.N < 12 || v.Time.MAPE > 0.12 {
		t.Errorf("time-to-train LOO: n=%d MAPE %.1f%%, want at least 12 results under 12%%", v.Time.N, 100*v.Time.MAPE)
	}
	if v.MFUAll.N < 11 || v.MFUAll.MAPE > 0.12 {
		t.Errorf("MFU leave-one-publication-out: n=%d MAPE %.1f%%, want at least 11 figures under 12%%", v.MFUAll.N, 100*v.MFUAll.MAPE)
	}
	if v.Throughput.MedianAE > 0.06 {
		t.Errorf("LOO median error %.1f%%, above 6%%", 100*v.Throughput.MedianAE)
	}
}

// TestBands checks that the recorded uncertainty bands match a fresh
// validation.
func TestBands(t *testing.T) {
	pts, specs, _ := setup(t)
	got := perf.Validate(pts, specs).Bands()
	want := perf.ValidatedBands()
	for c, w := range want {
		if g, ok := got[c]; ok && math.Abs(g-w) > 0.01 {
			if *update {
				t.Logf("%s: %.3f", c, g)
				continue
			}
			t.Errorf("band %s: recorded %.3f, validation gives %.3f (update ValidatedBands)", c, w, g)
		}
	}
}

func TestEveryBenchmarkOnEveryGPU(t *testing.T) {
	_, specs, m := setup(t)
	failed := 0
	for _, b := range m.Benchmarks() {
		for id, s := range specs {
			if len(s.Peak) == 0 {
				continue // no published throughput figures at all
			}
			e, err := m.Estimate(perf.Query{Benchmark: b, GPU: id, Count: 8})
			if err != nil {
				failed++
				t.Logf("%s on %s: %v", b, id, err)
				continue
			}
			v := e.Throughput
			if perf.Describe(b).Time {
				v = e.Minutes
			}
			if !(v > 0) || math.IsInf(v, 0) || e.Confidence == "" {
				t.Errorf("%s on %s: %+v", b, id, e)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d benchmark × GPU pairs could not be estimated", failed)
	}
}

func TestHandCheckedParts(t *testing.T) {
	_, _, m := setup(t)
	// A published result comes back as measured: 8×H100 SXM ResNet-50
	// inference, four results (703,770–706,858 samples/s), median 705,074.
	e, err := m.Estimate(perf.Query{Benchmark: "mlperf-inf-resnet50", GPU: "H100-SXM-80GB", Count: 8})
	if err != nil || e.Confidence != perf.Measured || math.Abs(e.Throughput-705073.5) > 1 {
		t.Errorf("measured: %+v %v", e, err)
	}
	// Inference replicas scale linearly: 16 GPUs on two nodes is twice 8.
	e16, _ := m.Estimate(perf.Query{Benchmark: "mlperf-inf-resnet50", GPU: "H100-SXM-80GB", Count: 16})
	if e16.Nodes != 2 || e16.Efficiency != 1 {
		t.Errorf("16 GPUs: nodes %d efficiency %v", e16.Nodes, e16.Efficiency)
	}
	// Training scales sub-linearly, and worse over PCIe than NVSwitch.
	sxm, _ := m.Estimate(perf.Query{Benchmark: "resnet50-train-throughput", GPU: "A100-SXM4-80GB", Count: 8, Precision: perf.FP16})
	pcie, _ := m.Estimate(perf.Query{Benchmark: "resnet50-train-throughput", GPU: "A100-SXM4-80GB", Count: 8, Precision: perf.FP16,
		Fabric: perf.Fabric{Link: "pcie"}})
	if !(sxm.Efficiency < 1 && pcie.Efficiency < sxm.Efficiency) {
		t.Errorf("efficiency NVSwitch %.3f, PCIe %.3f", sxm.Efficiency, pcie.Efficiency)
	}
	// Memory: Llama-2-70B in FP8 (70 GB × 1.2 = 84 GB) needs 2 H100 80 GB
	// (72 GB usable each) and 4 L4 (21.6 GB usable each).
	for gpu, want := range map[string]int{"H100-SXM-80GB": 2, "L4": 4, "MI300X": 1} {
		e, err := m.Estimate(perf.Query{Benchmark: "mlperf-inf-llama2-70b", GPU: gpu, Count: 8})
		if err != nil || e.Memory == nil || e.Memory.Group != want {
			t.Errorf("%s: memory %+v %v, want groups of %d", gpu, e.Memory, err, want)
		}
	}
	// A sized transformer job: 6 × 7e9 × 1e12 = 4.2e22 FLOPs on 64 H100 at
	// the fitted Hopper MFU of 989.4 TFLOPS. The published MFUs (Llama 3:
	// 38–43 %; OPT, MegaScale on Ampere: 47 %, 55 %) put Hopper near 42 %.
	j, err := m.EstimateJob(perf.Job{Kind: perf.TransformerTrain, Params: 7e9, Tokens: 1e12}, perf.Query{GPU: "H100-SXM-80GB", Count: 64})
	if err != nil || j.MFU < 0.38 || j.MFU > 0.47 || j.MFUSource == "" ||
		math.Abs(j.Minutes-4.2e22/(64*989.4e12*j.MFU)/60) > 0.1 || !(j.TimeP10() < j.Minutes && j.Minutes < j.TimeP90()) {
		t.Errorf("transformer job: %v min at MFU %v (%s), %v", j.Minutes, j.MFU, j.MFUSource, err)
	}
	// A FLOP-count job: 1e18 FLOPs on 4 A100 FP32 (19.5 TFLOPS) at 50% =
	// 3.9e13 FLOP/s → 25,641 s = 427.35 min.
	h, err := m.EstimateJob(perf.Job{Kind: perf.FLOPJob, FLOPs: 1e18}, perf.Query{GPU: "A100-SXM4-80GB", Count: 4})
	if err != nil || math.Abs(h.Minutes-427.35) > 0.01 {
		t.Errorf("flops job: %v min, %v", h.Minutes, err)
	}
	// Does not fit: a 70B model's training state on one 80 GB GPU.
	tr, _ := m.EstimateJob(perf.Job{Kind: perf.TransformerTrain, Params: 70e9, Tokens: 1e9}, perf.Query{GPU: "H100-SXM-80GB", Count: 1})
	if tr.Memory == nil || tr.Memory.Fits || !strings.Contains(tr.Memory.Note, "does not fit") {
		t.Errorf("memory: %+v", tr.Memory)
	}
}

// TestRoofline checks the LLM roofline's arithmetic by hand.
func TestRoofline(t *testing.T) {
	_, specs, m := setup(t)
	sh, ok := perf.ShapeOf("mlperf-inf-llama2-70b")
	if !ok {
		t.Fatal("no llama2-70b shape")
	}
	// FP8 on one MI300X: 70 GB of weights fit (172.8 GB usable); KV is
	// 2·80·8·128 = 163,840 bytes per token, 96.0 MB per 586-token request:
	// floor((172.8 − 70) GB / 96.01 MB) = 1,070 sequences.
	r, err := perf.RooflineOf(sh, specs["MI300X"], perf.FP8, 1)
	if err != nil || r.TP != 1 || r.Batch != 1070 || math.Abs(r.WeightsGB-70) > 1e-9 {
		t.Errorf("MI300X FP8: %+v %v", r, err)
	}
	// Prefill: (2·70e9·293 + causal attention 2·80·293²·8,192)/293 FLOPs
	// per output token at 2,614.9 TFLOPS = 53.69 µs.
	if math.Abs(r.Prefill-53.69e-6) > 0.01e-6 {
		t.Errorf("prefill %g s", r.Prefill)
	}
	// FP16 on H100 80 GB: 140 GB of weights need 4 GPUs (2 × 64.8 GB < 140).
	r16, err := perf.RooflineOf(sh, specs["H100-SXM-80GB"], perf.FP16, 8)
	if err != nil || r16.TP != 4 || r16.Replicas != 2 || r16.PeakUsed != perf.FP16 {
		t.Errorf("H100 FP16: %+v %v", r16, err)
	}
	// INT4: 35 GB, one H100; the products run at the FP16 peak.
	r4, err := perf.RooflineOf(sh, specs["H100-SXM-80GB"], perf.INT4, 1)
	if err != nil || r4.TP != 1 || r4.WeightsGB != 35 || r4.PeakUsed != perf.FP16 {
		t.Errorf("H100 INT4: %+v %v", r4, err)
	}
	// More bandwidth never makes serving slower: H200 ≥ H100 at the same FLOPs.
	e, _ := m.LLMEfficiency("tensorrt-llm")
	h100, _ := perf.RooflineOf(sh, specs["H100-SXM-80GB"], perf.FP8, 8)
	h200, _ := perf.RooflineOf(sh, specs["H200-SXM-141GB"], perf.FP8, 8)
	if h200.TokensPerGPU(e) < h100.TokensPerGPU(e) {
		t.Errorf("H200 %.0f < H100 %.0f tokens/s per GPU", h200.TokensPerGPU(e), h100.TokensPerGPU(e))
	}
	// The power term: H100 NVL (400 W for 1,670 TFLOPS FP8) is power-limited,
	// H100 SXM (700 W for 1,979) is the reference; a positive exponent slows
	// the NVL's compute and leaves the SXM's alone.
	nvl, _ := perf.RooflineOf(sh, specs["H100-NVL-94GB"], perf.FP8, 8)
	pe := perf.Eff{Compute: 0.5, Bandwidth: 0.5, Power: 1}
	if f := nvl.PowerFactor(pe); math.Abs(f-(400/1670.5)/(700/1978.9)) > 1e-3 {
		t.Errorf("H100 NVL power factor %.3f, want %.3f", f, (400/1670.5)/(700/1978.9))
	}
	if f := h100.PowerFactor(pe); f != 1 {
		t.Errorf("H100 SXM power factor %.3f, want 1", f)
	}
	if nvl.TokensPerGPU(pe) >= nvl.TokensPerGPU(perf.Eff{Compute: 0.5, Bandwidth: 0.5}) {
		t.Error("the power term does not slow a power-limited GPU")
	}
	// Too little memory is an error, not a guess.
	if _, err := perf.RooflineOf(perf.GenericShape(405e9, 128, 128), specs["L4"], perf.FP16, 8); err == nil {
		t.Error("405B FP16 on 8 L4 accepted")
	}
	// INT4 weights: 70B × 0.5 byte × 1.2 = 42 GB fits one H100 (72 GB usable).
	j4, err := m.EstimateJob(perf.Job{Kind: perf.LLMInference, Params: 70e9, Tokens: 1e9, Precision: perf.INT4}, perf.Query{GPU: "H100-SXM-80GB", Count: 1})
	if err != nil || j4.Memory == nil || !j4.Memory.Fits || j4.Memory.Group != 1 || math.Abs(j4.Memory.NeedGB-42) > 1e-9 {
		t.Errorf("int4 job memory: %+v %v", j4.Memory, err)
	}
	// A sized job: a P10 ≤ P50 ≤ P90 time, the efficiency and its source.
	j, err := m.EstimateJob(perf.Job{Kind: perf.LLMInference, Params: 8e9, Tokens: 1e9, Precision: perf.FP8}, perf.Query{GPU: "H100-SXM-80GB", Count: 1})
	if err != nil || j.ServingEff == nil || j.ServingEff.Source == "" || j.Roofline == nil ||
		!(j.TimeP10() < j.TimeP50() && j.TimeP50() < j.TimeP90()) {
		t.Errorf("llm job: %+v %v", j, err)
	}
}

func TestPrecisionLabels(t *testing.T) {
	for label, want := range map[string]perf.Precision{
		"INT8 (TensorRT)": perf.INT8, "FP8 (TensorRT-LLM)": perf.FP8, "AMP (FP16 mixed)": perf.FP16, "TF32": perf.TF32,
		"FP32": perf.FP32, "mixed (BF16/FP16; FP8 for LLMs on Hopper/Blackwell)": perf.FP16,
	} {
		if got, err := perf.ParsePrecisionLabel(label, "x"); err != nil || got != want {
			t.Errorf("%q → %s, %v", label, got, err)
		}
	}
	if got, _ := perf.ParsePrecisionLabel("submitter-chosen (TensorRT)", "mlperf-inf-bert-99.9"); got != perf.Low16 {
		t.Errorf("99.9 → %s", got)
	}
	if _, err := perf.ParsePrecision("fp4"); err == nil {
		t.Error("fp4 accepted")
	}
	if p, err := perf.ParsePrecision("INT4"); err != nil || p != perf.INT4 {
		t.Errorf("int4: %v %v", p, err)
	}
}

func FuzzParseMFU(f *testing.F) {
	f.Add("model,params,gpu_arch,peak_tflops,gpus,precision,fabric,mfu,source,note\nx,1e9,Hopper,989,8,bf16,,0.4,src,\n")
	f.Add("model\n\"")
	f.Fuzz(func(t *testing.T, in string) {
		pts, err := perf.ParseMFU(strings.NewReader(in), "fuzz.csv")
		if err == nil {
			for _, p := range pts {
				if !(p.MFU > 0 && p.MFU <= 1) || p.GPUs < 1 || !(p.Params > 0) || p.Source == "" {
					t.Fatalf("accepted a bad row: %+v", p)
				}
			}
		}
	})
}

func TestParseMFUErrors(t *testing.T) {
	_, err := perf.ParseMFU(strings.NewReader("model,params,gpu_arch,peak_tflops,gpus,precision,fabric,mfu,source,note\nx,1e9,Hopper,989,8,bf16,,1.7,src,\n"), "m.csv")
	if err == nil || !strings.Contains(err.Error(), "m.csv:2: field mfu") {
		t.Errorf("got %v", err)
	}
}

func FuzzParseBenchmarks(f *testing.F) {
	f.Add("benchmark,workload_kind,metric,unit,value,accelerator,accelerator_count,nodes,precision,system,submitter,suite_version,source\nx,throughput,m,samples/s,1,T4,1,1,INT8,s,s,v,src\n")
	f.Add("benchmark\n\"")
	lookup := func(name string) (string, error) { return name, nil }
	f.Fuzz(func(t *testing.T, in string) {
		pts, _, err := perf.ParseBenchmarks(strings.NewReader(in), "fuzz.csv", lookup)
		if err == nil {
			for _, p := range pts {
				if !(p.Value > 0) || p.Count < 1 || p.Nodes < 1 || p.Nodes > p.Count {
					t.Fatalf("accepted a bad row: %+v", p)
				}
			}
		}
	})
}

// BenchmarkFit is one fit of the model on the embedded data (Validate does
// one per result).
func BenchmarkFit(b *testing.B) {
	pts, specs, _ := setup(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		perf.Fit(pts, specs)
	}
}

// BenchmarkLLMJob is one sized LLM serving estimate by the roofline.
func BenchmarkLLMJob(b *testing.B) {
	_, _, m := setup(b)
	j := perf.Job{Kind: perf.LLMInference, Params: 70e9, Tokens: 1e9, Precision: perf.FP8}
	q := perf.Query{GPU: "H100-SXM-80GB", Count: 8}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := m.EstimateJob(j, q); err != nil {
			b.Fatal(err)
		}
	}
}
