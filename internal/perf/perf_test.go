package perf_test

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/perf"
)

var update = flag.Bool("update", false, "print recomputed validation bands")

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
	if v.Throughput.MAPE > 0.12 {
		t.Errorf("LOO MAPE on all throughput rows is %.1f%%, above 12%%", 100*v.Throughput.MAPE)
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
	// 40% of 989.4 TFLOPS = 2.5329e16 FLOP/s → 1,658,202 s = 27,636.7 min.
	j, err := m.EstimateJob(perf.Job{Kind: perf.TransformerTrain, Params: 7e9, Tokens: 1e12}, perf.Query{GPU: "H100-SXM-80GB", Count: 64})
	if err != nil || math.Abs(j.Minutes-27636.7) > 0.1 {
		t.Errorf("transformer job: %v min, %v", j.Minutes, err)
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
