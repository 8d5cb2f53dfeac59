package perf_test

import (
	"math"
	"testing"

	"github.com/gpuscout/gpuscout/internal/perf"
)

// TestPrefillAttention: Llama 3 8B (32 layers, d_model 4,096) prefilling
// a 32,768-token prompt does 2·8e9·32,768 = 5.24e14 FLOPs in its weights
// and 2·32·32,768²·4,096 = 2.81e14 in causal attention: the roofline's
// prefill counts both, not only the first.
func TestPrefillAttention(t *testing.T) {
	_, specs, _ := setup(t)
	sh := perf.GenericShape(8e9, 32768, 256)
	if sh.Layers != 32 {
		t.Fatalf("8B layers %d, want 32 (Llama 3 8B)", sh.Layers)
	}
	r, err := perf.RooflineOf(sh, specs["H100-SXM-80GB"], perf.FP16, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Prefill * 256 * r.PeakTFLOPS * 1e12
	want := 2*8e9*32768 + 2*32*32768.0*32768*4096
	if math.Abs(got/want-1) > 1e-6 {
		t.Errorf("prefill FLOPs per request %.4g, want %.4g (weights + causal attention)", got, want)
	}
}

// TestTensorParallelOverPCIe: a 70B model in 8 bits on two RTX A6000.
// Bridged by NVLink (112.5 GB/s) the pair's all-reduces are in the fitted
// efficiency; over PCIe Gen4 each decode step waits 2 × 80 all-reduces of
// batch × 8,192 × 2 bytes at 25.6 GB/s, so fewer tokens per second.
func TestTensorParallelOverPCIe(t *testing.T) {
	_, _, m := setup(t)
	job := perf.Job{Kind: perf.LLMInference, Params: 70e9, Tokens: 1e9, Precision: perf.INT8, InputTokens: 2000, OutputTokens: 300}
	est := func(link string) *perf.Estimate {
		e, err := m.EstimateJob(job, perf.Query{GPU: "RTX-A6000", Count: 2, Fabric: perf.Fabric{Link: link, Instance: true}})
		if err != nil || e.Roofline == nil || e.Roofline.TP != 2 {
			t.Fatalf("%s: %+v %v", link, e, err)
		}
		return e
	}
	nv, pcie := est("nvlink"), est("pcie")
	if pcie.Throughput >= nv.Throughput {
		t.Errorf("TP2 over PCIe %.0f tokens/s, over an NVLink bridge %.0f: PCIe must be slower", pcie.Throughput, nv.Throughput)
	}
}

// TestMoEDecodeReadsExperts: Mixtral 8x7B at the batch memory holds hits
// nearly all of its 8 experts, so a decode step reads about 46.7 B
// parameters, not the 12.9 B active: per token it moves more bytes than a
// dense 12.9 B model of the same layout would.
func TestMoEDecodeReadsExperts(t *testing.T) {
	_, specs, _ := setup(t)
	moe, ok := perf.ShapeOf("mlperf-inf-mixtral-8x7b")
	if !ok {
		t.Fatal("no Mixtral shape")
	}
	dense := moe
	dense.Params, dense.ActiveParams = 12.9e9, 0
	rm, err := perf.RooflineOf(moe, specs["H100-SXM-80GB"], perf.FP8, 1)
	if err != nil {
		t.Fatal(err)
	}
	rd, err := perf.RooflineOf(dense, specs["H100-SXM-80GB"], perf.FP8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rm.DecodeMemory <= rd.DecodeMemory {
		t.Errorf("Mixtral decode traffic per token %.3g s ≤ a dense 12.9B's %.3g s", rm.DecodeMemory, rd.DecodeMemory)
	}
}

// FuzzPrefillTime is a property over generated LLM services: a longer
// prompt never takes less prefill work, and its work per prompt token
// grows (attention is quadratic in the prompt); the job's time for the
// same output never falls.
func FuzzPrefillTime(f *testing.F) {
	_, specs, m := setup(f)
	f.Add(8.0, 128.0, 32000.0, 200.0)
	f.Add(70.0, 1000.0, 8000.0, 500.0)
	f.Add(1.0, 10.0, 100000.0, 10.0)
	f.Fuzz(func(t *testing.T, bParams, in1, in2, out float64) {
		if !(bParams >= 0.5 && bParams <= 405 && in1 >= 1 && in2 > in1+1 && in2 <= 1e6 && out >= 1 && out <= 1e4) {
			t.Skip()
		}
		params, in1, in2, out := bParams*1e9, math.Round(in1), math.Round(in2), math.Round(out)
		flops := func(in float64) (float64, bool) {
			r, err := perf.RooflineOf(perf.GenericShape(params, in, out), specs["H200-SXM-141GB"], perf.FP8, 64)
			return r.Prefill * out * r.PeakTFLOPS * 1e12, err == nil
		}
		f1, ok1 := flops(in1)
		f2, ok2 := flops(in2)
		if !ok1 || !ok2 {
			return
		}
		if !(f2 > f1) || !(f2/in2 > f1/in1) {
			t.Errorf("%gB: prefill of %g tokens %.4g FLOPs (%.4g per token), of %g tokens %.4g (%.4g per token)", bParams, in1, f1, f1/in1, in2, f2, f2/in2)
		}
		job := func(in float64) *perf.Estimate {
			e, err := m.EstimateJob(perf.Job{Kind: perf.LLMInference, Params: params, Tokens: 1e8, Precision: perf.FP8, InputTokens: in, OutputTokens: out},
				perf.Query{GPU: "H200-SXM-141GB", Count: 8})
			if err != nil {
				return nil
			}
			return e
		}
		if e1, e2 := job(in1), job(in2); e1 != nil && e2 != nil && e2.Minutes < e1.Minutes*(1-1e-9) {
			t.Errorf("%gB: %g prompt tokens take %.4g min, fewer than %g tokens' %.4g", bParams, in2, e2.Minutes, in1, e1.Minutes)
		}
	})
}

// FuzzTPOverPCIe is a property: on the same GPUs, a tensor-parallel group
// whose all-reduces cross PCIe never makes more tokens per second than
// the same group over NVLink/NVSwitch, and makes fewer once it spans more
// than one GPU.
func FuzzTPOverPCIe(f *testing.F) {
	_, _, m := setup(f)
	f.Add(70.0, uint8(0), uint8(2), 2000.0, 300.0)
	f.Add(34.0, uint8(1), uint8(1), 500.0, 500.0)
	f.Add(180.0, uint8(2), uint8(3), 128.0, 2048.0)
	gpus := []string{"RTX-A6000", "A100-PCIe-80GB", "A40", "H100-PCIe-80GB"}
	f.Fuzz(func(t *testing.T, bParams float64, gi, ci uint8, in, out float64) {
		if !(bParams >= 1 && bParams <= 400 && in >= 1 && in <= 1e5 && out >= 1 && out <= 1e4) {
			t.Skip()
		}
		gpu, count := gpus[int(gi)%len(gpus)], 1<<(int(ci)%4)
		job := perf.Job{Kind: perf.LLMInference, Params: bParams * 1e9, Tokens: 1e9, Precision: perf.INT8, InputTokens: math.Round(in), OutputTokens: math.Round(out)}
		est := func(link string) *perf.Estimate {
			e, err := m.EstimateJob(job, perf.Query{GPU: gpu, Count: count, Fabric: perf.Fabric{Link: link, Instance: true}})
			if err != nil || e.Roofline == nil {
				return nil
			}
			return e
		}
		nv, pcie := est("nvswitch"), est("pcie")
		if nv == nil || pcie == nil {
			return
		}
		if pcie.Throughput > nv.Throughput*(1+1e-9) || (pcie.Roofline.TP > 1 && pcie.Throughput >= nv.Throughput) {
			t.Errorf("%gB on %d× %s (TP%d): %.4g tokens/s over PCIe, %.4g over NVSwitch", bParams, count, gpu, pcie.Roofline.TP, pcie.Throughput, nv.Throughput)
		}
	})
}

// FuzzMoEBytesPerStep is a property over generated mixtures of experts:
// the weights a decode step reads grow with the batch, one sequence reads
// only the active parameters, and no batch reads more than the whole
// model. The batch is set by the serving software's cap (0: what memory
// holds).
func FuzzMoEBytesPerStep(f *testing.F) {
	_, specs, _ := setup(f)
	f.Add(46.7, 12.9, uint16(1), uint16(64))
	f.Add(671.0, 37.0, uint16(4), uint16(0))
	f.Add(141.0, 39.0, uint16(2), uint16(3))
	f.Fuzz(func(t *testing.T, bTotal, bActive float64, b1, b2 uint16) {
		if !(bTotal >= 1 && bTotal <= 2000 && bActive > 0 && bActive < bTotal && b1 >= 1 && (b2 == 0 || b2 > b1)) {
			t.Skip()
		}
		sh := perf.GenericShape(bActive*1e9, 500, 200)
		sh.Params, sh.ActiveParams = bTotal*1e9, bActive*1e9
		weights := func(batch uint16) (float64, float64, bool) {
			s := sh
			s.MaxBatch = int(batch)
			r, err := perf.RooflineOf(s, specs["H200-SXM-141GB"], perf.FP8, 64)
			if err != nil {
				return 0, 0, false
			}
			ctx := s.InputTokens + s.OutputTokens/2
			kv := r.KVPerSeqGB * 1e9 * ctx / (s.InputTokens + s.OutputTokens)
			return (r.DecodeMemory*r.BandwidthGBs*1e9 - kv) * r.Batch, r.Batch, true
		}
		w1, n1, ok1 := weights(b1)
		w2, n2, ok2 := weights(b2)
		if !ok1 || !ok2 {
			return
		}
		total, active := sh.Params, sh.ActiveParams // FP8: one byte a parameter
		for _, c := range []struct{ w, n float64 }{{w1, n1}, {w2, n2}} {
			if c.w > total*(1+1e-9) || c.w < active*(1-1e-9) {
				t.Errorf("%g/%gB at batch %v: %.4g bytes of weights per step, outside [%.4g, %.4g]", bTotal, bActive, c.n, c.w, active, total)
			}
		}
		if n1 == 1 && math.Abs(w1/active-1) > 1e-6 {
			t.Errorf("%g/%gB: one sequence reads %.4g bytes of weights, want the %.4g active", bTotal, bActive, w1, active)
		}
		if n2 >= n1 && w2 < w1*(1-1e-9) {
			t.Errorf("%g/%gB: batch %v reads %.4g bytes, fewer than batch %v's %.4g", bTotal, bActive, n2, w2, n1, w1)
		}
	})
}
