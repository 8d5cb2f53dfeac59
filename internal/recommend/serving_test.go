package recommend_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
)

// serve asks for an 8B-style service at qps with the given request sizes
// on one GPU model, and returns the top plan.
func serve(t testing.TB, e *recommend.Engine, p *i18n.Printer, inf recommend.Inference, gpu string) *recommend.Plan {
	t.Helper()
	r := recommend.Requirements{Workload: recommend.Workload{Inference: &inf}, GPUs: []string{gpu}, HorizonMonths: 1, Limit: 3}
	res, err := e.Recommend(r, p)
	if err != nil || len(res.Plans) == 0 {
		t.Fatalf("%s: no plan: %v", p.Lang(), err)
	}
	return res.Plans[0]
}

// kvPerToken is the KV cache one token of context needs at 16 bits: K and
// V for every layer and KV head (the physical floor of the cache).
func kvPerToken(sh perf.LLMShape) float64 {
	return 2 * float64(sh.Layers*sh.KVHeads*sh.HeadDim) * 2
}

// TestLongContextServing asks the question: an 8B model at 5
// requests/s with 120,000-token prompts on H100. Each request's KV cache
// is 2·32·8·128·2 bytes × 120,200 tokens = 15.8 GB, so an 80 GB GPU holds
// at most four beside its share of the 16 GB of weights (three on one GPU,
// eight on a pair that splits the weights), not the 729 a 586-token
// request allows; the
// plan says so, states the layout it assumed, and puts the figures in its
// Serving block. A 100-token prompt gets a different answer.
func TestLongContextServing(t *testing.T) {
	e := engine(t)
	for _, p := range []*i18n.Printer{en, i18n.NewPrinter(i18n.ZH)} {
		long := serve(t, e, p, recommend.Inference{Params: 8e9, QPS: 5, InputTokens: 120000, OutputTokens: 200}, "H100")
		short := serve(t, e, p, recommend.Inference{Params: 8e9, QPS: 5, InputTokens: 100, OutputTokens: 200}, "H100")
		rf := long.Estimate.Roofline
		if rf == nil || math.Abs(rf.KVPerSeqGB-15.755) > 0.01 {
			t.Fatalf("%s: KV per request %+v, want 15.755 GB", p.Lang(), rf)
		}
		if rf.Batch < 1 || rf.Batch > 4*float64(rf.TP) {
			t.Errorf("%s: %v concurrent 120k-token requests on a copy of %d H100, want at most 4 a GPU", p.Lang(), rf.Batch, rf.TP)
		}
		if srf := short.Estimate.Roofline; srf == nil || srf.KVPerSeqGB >= rf.KVPerSeqGB/100 || srf.Batch <= 100*rf.Batch {
			t.Errorf("%s: 100-token prompts give the same KV cache or concurrency as 120k-token ones: %+v", p.Lang(), srf)
		}
		// Prefill attention: 2·32·120000²·4096 FLOPs is about twice the
		// 2·8e9·120000 of the weights.
		sv := long.Serving
		if sv == nil || sv.KVCacheGBPerRequest != rf.KVPerSeqGB || float64(sv.Concurrency) != rf.Batch || sv.TensorParallel != rf.TP || !sv.LayoutAssumed ||
			sv.PrefillAttentionShare < 0.6 || sv.TTFTMs <= 0 || sv.TPOTMs <= 0 || sv.ContextTokens != 120200 {
			t.Errorf("%s: serving block %+v", p.Lang(), sv)
		}
		all := strings.Join(long.Reasons, "\n")
		want := map[i18n.Lang][]string{i18n.EN: {"120200 tokens", "32 layers × 8 KV heads × 128", "--kv-heads", "quadratic"},
			i18n.ZH: {"120200 个 token", "32 层 × 8 个 KV 头 × 128", "KV 头数和头维度", "平方"}}[p.Lang()]
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: reasons lack %q:\n%s", p.Lang(), w, all)
			}
		}
	}
}

// TestContextTooLong: a 70B model with 1M-token prompts on L40S. One
// request's KV cache (2·80·8·128·2 bytes × 1,001,000 = 328 GB) and the 140
// GB of 16-bit weights exceed even eight L40S (8 × 43.2 GB usable), so
// every L40S offer is rejected, saying the context does not fit.
func TestContextTooLong(t *testing.T) {
	e := engine(t)
	for _, p := range []*i18n.Printer{en, i18n.NewPrinter(i18n.ZH)} {
		inf := recommend.Inference{Params: 70e9, QPS: 0.1, InputTokens: 1e6, OutputTokens: 1000}
		res, err := e.Recommend(recommend.Requirements{Workload: recommend.Workload{Inference: &inf}, GPUs: []string{"L40S"}, HorizonMonths: 1}, p)
		if err == nil && len(res.Plans) > 0 {
			t.Fatalf("%s: a 1M-token context on L40S got a plan: %s", p.Lang(), strings.Join(res.Plans[0].Reasons, "\n"))
		}
		want := map[i18n.Lang]string{i18n.EN: "the context does not fit", i18n.ZH: "上下文放不下"}[p.Lang()]
		n := 0
		if err != nil && strings.Contains(err.Error(), want) {
			n++
		}
		if res != nil {
			for _, rj := range res.Rejected {
				if strings.Contains(rj.Reason, want) {
					n++
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no rejection says %q", p.Lang(), want)
		}
	}
}

// TestTensorParallelOverPCIe: a 70B model in 16 bits needs TP4 on L40S,
// whose cards talk over PCIe Gen4 (64 GB/s as the datasheet states, 25.6
// GB/s of all-reduce bus bandwidth). The plan charges and states the
// all-reduces: 2 per layer × 80 layers × (1.5 × 8,192 × 2 bytes / 25.6
// GB/s + 10 µs) = 1.75 ms per token at one request.
func TestTensorParallelOverPCIe(t *testing.T) {
	e := engine(t)
	for _, p := range []*i18n.Printer{en, i18n.NewPrinter(i18n.ZH)} {
		top := serve(t, e, p, recommend.Inference{Params: 70e9, QPS: 2, InputTokens: 2000, OutputTokens: 300}, "L40S")
		all := strings.Join(top.Reasons, "\n")
		want := map[i18n.Lang][]string{i18n.EN: {"TP4 over PCIe Gen4", "all-reduces add 1.75 ms per token"},
			i18n.ZH: {"TP4 经 PCIe 第 4 代", "每 token 增加 1.75 毫秒"}}[p.Lang()]
		for _, w := range want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: reasons lack %q:\n%s", p.Lang(), w, all)
			}
		}
		if sv := top.Serving; sv == nil || sv.Link != "pcie-gen4" || math.Abs(sv.AllReduceMsPerToken-1.7536) > 1e-3 || sv.TensorParallel != 4 {
			t.Errorf("%s: serving block %+v", p.Lang(), sv)
		}
	}
}

// TestMoEServing: Mixtral 8x7B (46.7 B parameters, 12.9 B active, 8
// experts, 2 per token) at 20 requests/s on H100. At the batch memory
// holds, a decode step reads nearly every expert: the plan says how many,
// and names expert parallelism.
func TestMoEServing(t *testing.T) {
	e := engine(t)
	for _, p := range []*i18n.Printer{en, i18n.NewPrinter(i18n.ZH)} {
		top := serve(t, e, p, recommend.Inference{Params: 46.7e9, ActiveParams: 12.9e9, Experts: 8, ExpertsPerToken: 2, Layers: 32, KVHeads: 8, HeadDim: 128, Hidden: 4096,
			QPS: 20, InputTokens: 1000, OutputTokens: 300}, "H100")
		sv := top.Serving
		if sv == nil || sv.ExpertsReadShare < 0.99 || sv.LayoutAssumed || sv.Layers != 32 {
			t.Fatalf("%s: serving block %+v", p.Lang(), sv)
		}
		all := strings.Join(top.Reasons, "\n")
		want := map[i18n.Lang]string{i18n.EN: "expert parallelism", i18n.ZH: "专家并行"}[p.Lang()]
		if !strings.Contains(all, want) {
			t.Errorf("%s: reasons lack %q:\n%s", p.Lang(), want, all)
		}
	}
}

// FuzzServingContext is a property over generated services: a longer
// context never needs less KV memory per request (and never less than
// the cache's physical floor, 2·layers·KV heads·head size·2 bytes per
// token), never leaves room for more concurrent requests, and the
// requests assumed concurrent fit beside the weights.
func FuzzServingContext(f *testing.F) {
	e := engine(f)
	f.Add(8.0, 100.0, 200.0, 32000.0)
	f.Add(8.0, 4000.0, 500.0, 120000.0)
	f.Add(70.0, 500.0, 100.0, 16000.0)
	f.Add(3.0, 10.0, 10.0, 60000.0)
	f.Fuzz(func(t *testing.T, bParams, in, out, in2 float64) {
		if !(bParams >= 1 && bParams <= 70 && in >= 1 && out >= 1 && out <= 4000 && in2 > in && in2 <= 200000) {
			t.Skip()
		}
		params := math.Round(bParams) * 1e9
		var prev *perf.Roofline
		for _, n := range []float64{math.Round(in), math.Round(in2)} {
			inf := recommend.Inference{Params: params, QPS: 1, InputTokens: n, OutputTokens: math.Round(out)}
			res, err := e.Recommend(recommend.Requirements{Workload: recommend.Workload{Inference: &inf}, GPUs: []string{"H100"}, HorizonMonths: 1, Limit: 1}, en)
			if err != nil || len(res.Plans) == 0 || res.Plans[0].Estimate.Roofline == nil {
				return // no plan at this context: nothing to compare
			}
			top := res.Plans[0]
			rf := top.Estimate.Roofline
			sh := perf.GenericShape(params, n, math.Round(out))
			floor := kvPerToken(sh) * (n + math.Round(out)) / 1e9
			if rf.KVPerSeqGB < floor*0.999 {
				t.Errorf("%gB, %g+%g tokens: KV %.4g GB per request, below the cache's floor %.4g GB", bParams, n, out, rf.KVPerSeqGB, floor)
			}
			free := float64(rf.TP)*top.Offer.Instance.VRAMPerGPUGB().InexactFloat64()*0.9 - rf.WeightsGB
			if rf.Batch*rf.KVPerSeqGB > free*1.001 {
				t.Errorf("%gB, %g tokens: %v requests × %.3g GB exceed the %.3g GB left beside the weights", bParams, n, rf.Batch, rf.KVPerSeqGB, free)
			}
			if prev != nil && prev.TP == rf.TP {
				if rf.KVPerSeqGB < prev.KVPerSeqGB {
					t.Errorf("%gB: a longer context needs less KV memory (%.4g < %.4g GB)", bParams, rf.KVPerSeqGB, prev.KVPerSeqGB)
				}
				if rf.Batch > prev.Batch {
					t.Errorf("%gB: a longer context leaves room for more requests (%v > %v)", bParams, rf.Batch, prev.Batch)
				}
			}
			prev = rf
		}
	})
}

// TestLayoutInJobFile: a job file states a mixture of experts' layout,
// and an impossible one (8 experts per token of 8) is refused by field.
func TestLayoutInJobFile(t *testing.T) {
	r, err := jobfile.Read(strings.NewReader("workload: {inference: {params: 46.7e9, active_params: 12.9e9, qps: 1, input_tokens: 100, output_tokens: 100,\n" +
		"  layers: 32, kv_heads: 8, head_dim: 128, hidden_size: 4096, experts: 8, experts_per_token: 2}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if i := r.Workload.Inference; i.Layers != 32 || i.KVHeads != 8 || i.HeadDim != 128 || i.Hidden != 4096 || i.Experts != 8 || i.ExpertsPerToken != 2 {
		t.Errorf("layout read as %+v", i)
	}
	_, err = jobfile.Read(strings.NewReader("workload: {inference: {params: 46.7e9, active_params: 12.9e9, qps: 1, input_tokens: 100, output_tokens: 100, experts: 8, experts_per_token: 8}}\n"))
	var ie *recommend.InputError
	if !errors.As(err, &ie) || ie.Field != "workload.inference" || !strings.Contains(err.Error(), "fewer than --experts") {
		t.Errorf("8 of 8 experts per token: %v", err)
	}
}
