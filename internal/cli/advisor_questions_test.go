package cli_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// questionPlan is the part of a recommend -o json plan these tests read.
type questionPlan struct {
	Offer    string   `json:"offer"`
	Provider string   `json:"provider"`
	Instance string   `json:"instance_type"`
	GPU      string   `json:"gpu"`
	GPUs     int      `json:"gpus"`
	Fabric   string   `json:"fabric"`
	Reasons  []string `json:"reasons"`
	Risks    []string `json:"risks"`
	Time     struct {
		Hours float64 `json:"hours"`
	} `json:"time"`
	Cost struct {
		Total      float64 `json:"total"`
		PerGPUHour float64 `json:"per_gpu_hour"`
	} `json:"cost"`
	Basis *struct {
		Precision   string   `json:"precision"`
		Scaling     float64  `json:"scaling_efficiency"`
		Assumptions []string `json:"assumptions"`
	} `json:"basis"`
	MemoryGB float64 `json:"gpu_memory_gb"`
}

type questionDoc struct {
	Plans    []questionPlan `json:"plans"`
	Rejected []struct {
		Offer  string `json:"offer"`
		Stage  string `json:"stage"`
		Reason string `json:"reason"`
	} `json:"rejected"`
}

// ask runs recommend on the embedded catalog with -o json and decodes the answer.
func ask(t *testing.T, args ...string) questionDoc {
	t.Helper()
	out, errOut, code := exec(t, true, nil, append(append([]string{"recommend"}, args...), "-o", "json")...)
	if code != 0 {
		t.Fatalf("recommend %v: exit %d\n%s%s", args, code, errOut, out)
	}
	var d questionDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("recommend %v: %v\n%s", args, err, out)
	}
	return d
}

// "Pre-train a 7B model on 300B tokens on 32 H100s: which cloud?" The same
// 4 × 8-H100 SXM cluster must scale alike on InfiniBand and on EFA at the
// same line rate, and the plan must say which fabric rate it assumed.
func TestQuestionMultiNodeFabricsScaleAlike(t *testing.T) {
	d := ask(t, "--workload", "transformer-train", "--params", "7e9", "--tokens", "3e11", "--gpu", "H100",
		"--min-gpus", "32", "--max-gpus", "32", "--multi-node", "--limit", "20")
	byFabric := map[string]float64{}
	for _, p := range d.Plans {
		if p.GPUs != 32 || !strings.Contains(p.GPU, "SXM") || !strings.Contains(p.Instance, "8") || p.Basis == nil {
			continue
		}
		if p.Basis.Scaling < 0.9 {
			t.Errorf("%s (%s): scaling %.2f on 4 nodes of 8 × H100 SXM; NDR InfiniBand or 3,200 Gb/s EFA all-reduce scales at 0.9 or better", p.Offer, p.Fabric, p.Basis.Scaling)
		}
		byFabric[p.Fabric] = p.Basis.Scaling
		if p.Fabric == "infiniband" && !strings.Contains(strings.Join(p.Basis.Assumptions, " "), "400 Gb/s") {
			t.Errorf("%s: the plan does not state the InfiniBand rate it assumed: %q", p.Offer, p.Basis.Assumptions)
		}
		if !strings.Contains(strings.Join(p.Reasons, " "), "GB/s") {
			t.Errorf("%s: the scaling reason does not state the all-reduce bandwidth: %q", p.Offer, p.Reasons)
		}
	}
	if byFabric["infiniband"] == 0 || byFabric["efa"] == 0 {
		t.Fatalf("want both InfiniBand and EFA plans among the answers, got %v", byFabric)
	}
	if byFabric["infiniband"] < byFabric["efa"]-1e-9 {
		t.Errorf("InfiniBand scales worse than EFA: %v", byFabric)
	}
}

// "I need NVLink between GPUs" must keep the 8 × H100 SXM nodes whose
// interconnect the catalog leaves blank (an HGX board is NVSwitch), and
// an impossible interconnect question must say what to relax.
func TestQuestionInterconnectNVLink(t *testing.T) {
	d := ask(t, "--workload", "transformer-train", "--params", "7e9", "--tokens", "3e11", "--gpu", "H100",
		"--min-gpus", "32", "--max-gpus", "32", "--multi-node", "--interconnect", "nvlink", "--limit", "20")
	seen := map[string]bool{}
	for _, p := range d.Plans {
		seen[p.Provider] = true
	}
	// Crusoe's 8 × H100 SXM node is sold only through reservations with no
	// published price, so it has no offer to plan; OCI's and CoreWeave's do.
	for _, want := range []string{"oci", "coreweave", "aws", "azure"} {
		if !seen[want] {
			t.Errorf("--interconnect nvlink dropped %s's 8 × H100 SXM nodes; plans from %v", want, seen)
		}
	}
	for _, lang := range []string{"en", "zh"} {
		out, errOut, code := exec(t, true, nil, "recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "3e11",
			"--gpu", "T4", "--interconnect", "nvlink", "--lang", lang)
		if code == 0 {
			t.Fatalf("T4 with NVLink: want no plan, got\n%s", out)
		}
		msg := errOut + out
		if strings.Contains(msg, ": \n") || strings.HasSuffix(strings.TrimSpace(strings.SplitN(msg, "\n", 2)[0]), ":") || strings.Contains(msg, "：\n") {
			t.Errorf("%s: blank suggested fix:\n%s", lang, msg)
		}
		if !strings.Contains(msg, "--interconnect") {
			t.Errorf("%s: the fix does not name the flag to relax:\n%s", lang, msg)
		}
	}
}

// "Serve a 70B model at 2,000 tokens/s on older GPUs (V100, A10, T4)"
// without --precision: the weights stay in the model's native 16 bits
// (140 GB), and the plan says so; FP8 on a GPU without FP8 is refused.
func TestQuestionInferenceDefaultsTo16Bit(t *testing.T) {
	d := ask(t, "--params", "70e9", "--tokens-per-second", "2000", "--gpu", "T4,A10,V100", "--horizon-months", "1", "--limit", "5")
	if len(d.Plans) == 0 {
		t.Fatal("no plan")
	}
	for _, p := range d.Plans {
		// 140 GB of weights + 20% over GPUs of at most 32 GB: at least 6 GPUs.
		if p.GPUs < 6 {
			t.Errorf("%s: %d GPUs of %.0f GB hold 70B parameters only in 8 bits", p.Offer, p.GPUs, p.MemoryGB)
		}
		if !strings.Contains(strings.Join(p.Reasons, " "), "native 16-bit") {
			t.Errorf("%s: the plan does not state the weights' precision: %q", p.Offer, p.Reasons)
		}
	}
	for _, lang := range []string{"en", "zh"} {
		out, errOut, code := exec(t, true, nil, "recommend", "--params", "8e9", "--tokens-per-second", "500", "--gpu", "T4",
			"--precision", "fp8", "--horizon-months", "1", "--lang", lang)
		if code == 0 {
			t.Fatalf("%s: FP8 on T4 must not be planned:\n%s", lang, out)
		}
		if !strings.Contains(errOut+out, "FP8") || !strings.Contains(errOut+out, "INT8") {
			t.Errorf("%s: the refusal does not say T4 lacks FP8 and INT8 weights would run:\n%s", lang, errOut)
		}
	}
	// 8-bit when asked: INT8 weights on T4 are half the memory.
	d16 := ask(t, "--params", "8e9", "--tokens-per-second", "500", "--gpu", "T4", "--horizon-months", "1", "--limit", "1")
	d8 := ask(t, "--params", "8e9", "--tokens-per-second", "500", "--gpu", "T4", "--precision", "int8", "--horizon-months", "1", "--limit", "1")
	if len(d16.Plans) == 0 || len(d8.Plans) == 0 {
		t.Fatal("no plan for an 8B model on T4")
	}
	if !strings.Contains(strings.Join(d8.Plans[0].Reasons, " "), "Weights in int8") {
		t.Errorf("int8 plan does not state its weights: %q", d8.Plans[0].Reasons)
	}
}

// "LoRA-tune Llama-2-70B on one 8 × H100 node": the catalog's own MLPerf
// LoRA benchmark and a sized LoRA job both fit (frozen 16-bit weights, not
// 16 bytes/parameter of Adam state), and the plan states the memory rule.
func TestQuestionLoRA70BFitsOneNode(t *testing.T) {
	d := ask(t, "--benchmark", "mlperf-train-llama2-70b-lora", "--gpu", "H100", "--min-gpus", "8", "--max-gpus", "8", "--limit", "3")
	if len(d.Plans) == 0 {
		t.Fatal("the MLPerf Llama-2-70B LoRA benchmark has no plan on 8 × H100")
	}
	// Full fine-tuning (16 bytes/parameter, about 1.3 TB) does not fit 640 GB.
	if out, _, code := exec(t, true, nil, "recommend", "--workload", "transformer-train", "--params", "70e9", "--tokens", "2e8", "--gpu", "H100",
		"--min-gpus", "8", "--max-gpus", "8"); code == 0 {
		t.Errorf("full fine-tuning of 70B planned on 8 × H100:\n%s", out)
	}
	for _, m := range []string{"lora", "qlora"} {
		d := ask(t, "--workload", "transformer-train", "--params", "70e9", "--tokens", "2e8", "--method", m, "--gpu", "H100", "--min-gpus", "8", "--max-gpus", "8", "--limit", "1")
		if len(d.Plans) == 0 {
			t.Fatalf("%s 70B: no plan on 8 × H100", m)
		}
		text := strings.Join(d.Plans[0].Reasons, " ")
		if !strings.Contains(text, "Training memory: "+map[string]string{"lora": "LoRA", "qlora": "QLoRA"}[m]) {
			t.Errorf("%s: the plan does not state the method's memory: %q", m, d.Plans[0].Reasons)
		}
	}
	d = ask(t, "-f", "../../examples/lora-70b.yaml")
	if len(d.Plans) == 0 || d.Plans[0].GPUs != 8 {
		t.Errorf("examples/lora-70b.yaml: want an 8-GPU plan, got %+v", d.Plans)
	}
	out, errOut, code := exec(t, true, nil, "recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e9", "--method", "adapter")
	if code == 0 || !strings.Contains(errOut+out, "full, lora or qlora") {
		t.Errorf("--method adapter: want a usage error naming full, lora, qlora; exit %d\n%s", code, errOut)
	}
}

// "Serve a 671B mixture of experts with 37B active parameters": memory
// from all 671B (no 8 × 80 GB node holds 671 GB of FP8 weights + 20%),
// time from the 37B active ones (faster than a dense 671B), both stated.
func TestQuestionMixtureOfExperts(t *testing.T) {
	args := []string{"--params", "671e9", "--qps", "2", "--input-tokens", "1000", "--output-tokens", "500", "--precision", "fp8", "--horizon-months", "1", "--limit", "20"}
	moe := ask(t, append(args, "--active-params", "37e9")...)
	if len(moe.Plans) == 0 {
		t.Fatal("no plan for the 671B MoE")
	}
	for _, p := range moe.Plans {
		if float64(p.GPUs)*p.MemoryGB*0.9 < 671*1.2 {
			t.Errorf("%s: %d × %.0f GB cannot hold 671B parameters in 8 bits", p.Offer, p.GPUs, p.MemoryGB)
		}
		if !strings.Contains(strings.Join(p.Reasons, " "), "6.71e+11 parameters") || !strings.Contains(strings.Join(p.Reasons, " "), "3.7e+10 active") {
			t.Errorf("%s: the plan does not state total and active parameters: %q", p.Offer, p.Reasons)
		}
	}
	dense := ask(t, args...)
	if len(dense.Plans) > 0 && dense.Plans[0].Cost.Total < moe.Plans[0].Cost.Total {
		t.Errorf("a dense 671B (%.0f) is cheaper to serve than a 37B-active MoE (%.0f)", dense.Plans[0].Cost.Total, moe.Plans[0].Cost.Total)
	}
	train := ask(t, "--workload", "transformer-train", "--params", "671e9", "--active-params", "37e9", "--tokens", "1e10", "--method", "lora", "--gpu", "H200", "--multi-node", "--limit", "1")
	if len(train.Plans) == 0 || !strings.Contains(strings.Join(train.Plans[0].Reasons, " "), "1.48e+21 FLOPs") {
		t.Errorf("MoE LoRA training: want 4 × 37B × 1e10 = 1.48e+21 FLOPs stated, got %+v", train.Plans)
	}
	if d := ask(t, "-f", "../../examples/moe-671b.yaml"); len(d.Plans) == 0 {
		t.Error("examples/moe-671b.yaml: no plan")
	}
}

// "My job needs at least 24 GB per GPU": a 4 GB slice of an A10 is not a
// 24 GB GPU, in recommend as in offers; slices are printed as fractions.
func TestQuestionMinVRAMCountsSlicesAsSold(t *testing.T) {
	d := ask(t, "--gpu-hours", "10", "--min-vram", "24", "--gpu", "A10", "--limit", "50")
	for _, p := range d.Plans {
		if p.MemoryGB < 24 {
			t.Errorf("%s: %.0f GB per GPU as sold, below --min-vram 24", p.Offer, p.MemoryGB)
		}
	}
	out, errOut, code := exec(t, true, nil, "offers", "--min-vram", "24", "--gpu", "A10", "-o", "json")
	if code != 0 {
		t.Fatalf("offers: exit %d: %s", code, errOut)
	}
	for _, bad := range []string{"NV6ads_A10", "NV12ads_A10", "NV18ads_A10", "vws-m4", "vws-m8."} {
		if strings.Contains(out, bad) {
			t.Errorf("offers --min-vram 24 lists the slice %s", bad)
		}
	}
	slices := ask(t, "--gpu-hours", "0.1", "--gpu", "A10", "--provider", "azure", "--limit", "20")
	frac := false
	for _, p := range slices.Plans {
		text := strings.Join(p.Reasons, " ")
		if strings.Contains(text, "(0× ") {
			t.Errorf("%s: a slice shown as 0 GPUs: %s", p.Offer, p.Reasons[0])
		}
		if strings.Contains(p.Instance, "NV6ads_A10") {
			frac = true
			if !strings.Contains(text, "(1/6× A10)") || p.MemoryGB != 4 {
				t.Errorf("%s: want 1/6× A10 with 4 GB, got %q, %.0f GB", p.Offer, p.Reasons[0], p.MemoryGB)
			}
		}
	}
	if !frac {
		t.Error("no A10 slice among the plans for a 0.1 GPU-hour job")
	}
}

// "Keep 16 A100s for three years": every plan's JSON states its rate per
// GPU-hour (not 0 because a cluster has no finishing time).
func TestQuestionClusterPerGPUHour(t *testing.T) {
	for _, args := range [][]string{
		{"--cluster-gpus", "16", "--gpu", "A100", "--horizon-months", "36", "--multi-node", "--limit", "5"},
		{"--params", "8e9", "--tokens-per-second", "500", "--horizon-months", "1", "--limit", "5"},
	} {
		d := ask(t, args...)
		for _, p := range d.Plans {
			if !(p.Cost.PerGPUHour > 0) {
				t.Errorf("%v: %s: per_gpu_hour %v", args, p.Offer, p.Cost.PerGPUHour)
			}
		}
	}
}

// "8 × H100 for one month": a 1-year or 3-year commitment is more than
// twice the horizon and is dropped (with its reason listed, however many
// offers the GPU and provider filters removed); a term longer than the
// horizon but within twice is charged in full, and said so.
func TestQuestionCommitmentLongerThanHorizon(t *testing.T) {
	d := ask(t, "--cluster-gpus", "8", "--gpu", "H100", "--horizon-months", "1", "--provider", "aws,gcp,azure", "--limit", "60")
	for _, p := range d.Plans {
		if strings.Contains(p.Offer, "-1y") || strings.Contains(p.Offer, "-3y") {
			t.Errorf("%s: a multi-year term planned for a 1-month horizon (%.0f)", p.Offer, p.Cost.Total)
		}
	}
	found := false
	for _, r := range d.Rejected {
		if strings.Contains(r.Offer, "reserved-3y") && strings.Contains(r.Reason, "more than twice the 1-month horizon") {
			found = true
		}
	}
	if !found {
		t.Errorf("the 3-year reservations' rejection is not listed (%d rejections listed)", len(d.Rejected))
	}
	d = ask(t, "--cluster-gpus", "8", "--gpu", "H100", "--horizon-months", "7", "--limit", "80")
	seen := false
	for _, p := range d.Plans {
		if !strings.Contains(p.Offer, "-1y") {
			continue
		}
		seen = true
		text := strings.Join(p.Reasons, " ")
		if !strings.Contains(text, "the whole term is charged") {
			t.Errorf("%s: a 12-month term on a 7-month horizon without saying the whole term is charged: %q", p.Offer, p.Reasons)
		}
		if strings.Contains(text, "Below") && !strings.Contains(text, "over your 7 month(s)") {
			t.Errorf("%s: the break-even ignores the horizon: %q", p.Offer, p.Reasons)
		}
	}
	if !seen {
		t.Error("no 1-year commitment among the plans for a 7-month horizon")
	}
}

// "Run 10 GPU-hours on T4G" / "on AMD only": the plan warns that the host
// is ARM, or that the GPU needs ROCm, in both languages; an impossible
// deadline is answered in hours and days with the GPUs that would meet it;
// hints name flags, not job-file keys.
func TestQuestionPlatformCaveatsAndDeadlineAnswer(t *testing.T) {
	for _, c := range []struct{ gpu, en, zh string }{{"T4G", "ARM host", "ARM 架构"}, {"MI300X", "ROCm", "ROCm"}} {
		for lang, want := range map[string]string{"en": c.en, "zh": c.zh} {
			out, errOut, code := exec(t, true, nil, "recommend", "--gpu-hours", "10", "--gpu", c.gpu, "--limit", "1", "--lang", lang)
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", c.gpu, lang, code, errOut)
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s (%s): no %q caveat:\n%s", c.gpu, lang, want, out)
			}
		}
	}
	out, errOut, _ := exec(t, true, nil, "recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "3e11", "--gpu", "H100",
		"--max-gpus", "8", "--deadline-hours", "24")
	msg := errOut + out
	for _, want := range []string{"days)", "× H100", "--multi-node", "--max-gpus"} {
		if !strings.Contains(msg, want) {
			t.Errorf("impossible deadline: want %q in\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "e+0") || strings.Contains(msg, "multi_node: true") {
		t.Errorf("impossible deadline: exponent or job-file key in\n%s", msg)
	}
}

// "Serve a 70B model at 4 requests/s": the plan says how much memory the
// KV cache has left after the weights and how many requests that holds.
func TestQuestionKVCacheHeadroom(t *testing.T) {
	d := ask(t, "--params", "70e9", "--qps", "4", "--input-tokens", "1000", "--output-tokens", "250", "--horizon-months", "1", "--limit", "3")
	for _, p := range d.Plans {
		if !strings.Contains(strings.Join(p.Reasons, " "), "KV cache: about") {
			t.Errorf("%s: no KV-cache headroom note: %q", p.Offer, p.Reasons)
		}
	}
}

// A program reading `recommend -o json` gets JSON on standard output for
// every error: an unknown GPU, a bad flag, a malformed job file; with
// --lang zh the hint is Chinese.
func TestQuestionJSONErrors(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yaml"
	if err := os.WriteFile(bad, []byte("workload:\n  gpu_hours: many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"recommend", "--gpu", "NOPE", "--gpu-hours", "1", "-o", "json"}, "NOPE"},
		{[]string{"recommend", "--bogus", "-o", "json"}, "--bogus"},
		{[]string{"recommend", "-f", bad, "-o", "json"}, "line 2: `many` is not a number"},
		{[]string{"recommend", "--bogus", "-o", "json", "--lang", "zh"}, "--help 运行"},
	} {
		out, _, code := exec(t, true, nil, c.args...)
		if code == 0 {
			t.Errorf("%v: exit 0", c.args)
		}
		var doc struct {
			Schema string `json:"schema"`
			Error  string `json:"error"`
			Hint   string `json:"hint"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Errorf("%v: stdout is not JSON: %v\n%s", c.args, err, out)
			continue
		}
		if doc.Schema != "gpuscout/error@v1" || !strings.Contains(doc.Error+" "+doc.Hint, c.want) {
			t.Errorf("%v: got %+v, want %q", c.args, doc, c.want)
		}
	}
}

// "Embed one billion tokens with a 335M encoder": an encoder batch job is
// sized by its input tokens (minutes on one modern GPU), not as generation.
func TestQuestionBatchEmbeddings(t *testing.T) {
	d := ask(t, "--workload", "embedding", "--params", "335e6", "--tokens", "1e9", "--gpu", "H100", "--limit", "3")
	if len(d.Plans) == 0 {
		t.Fatal("no plan")
	}
	p := d.Plans[0]
	if p.Time.Hours > 2 || p.GPUs > 8 {
		t.Errorf("%s: %.1f h on %d GPUs for 1B encoder tokens; MLPerf BERT-Large puts an H100 at millions of tokens/s", p.Offer, p.Time.Hours, p.GPUs)
	}
	if p.Basis == nil || !strings.Contains(strings.Join(p.Basis.Assumptions, " "), "encoder batch job") {
		t.Errorf("%s: the basis does not say how the encoder job was timed", p.Offer)
	}
	if d := ask(t, "-f", "../../examples/batch-embeddings.yaml"); len(d.Plans) == 0 {
		t.Error("examples/batch-embeddings.yaml: no plan")
	}
}

// "Keep 8 A100s for three years at 80% utilisation": when pay-as-you-go
// wins, the top plan names the cheapest commitment it beat, its total and
// its break-even, and the assumption that only used hours are billed.
func TestQuestionStandingClusterNamesBestCommitment(t *testing.T) {
	d := ask(t, "--cluster-gpus", "8", "--gpu", "A100", "--horizon-months", "36", "--utilization", "0.8", "--limit", "3")
	if len(d.Plans) == 0 {
		t.Fatal("no plan")
	}
	top := d.Plans[0]
	text := strings.Join(top.Reasons, " ")
	if strings.Contains(top.Offer, "reserved") || strings.Contains(top.Offer, "committed") || strings.Contains(top.Offer, "savings") || strings.Contains(top.Offer, "subscription") {
		t.Skipf("a commitment won (%s)", top.Offer)
	}
	if !strings.Contains(text, "The cheapest commitment it beat:") || !strings.Contains(text, "billed only for the hours used") {
		t.Errorf("%s: the top plan does not name the commitment it beat: %q", top.Offer, top.Reasons)
	}
}

// "Keep 16 H100s for a year on at most 70,000 EUR a month": the budget is
// a hard limit in the output currency; every plan keeps within it and says
// so, the plans over it are rejected with the figure, and a budget nothing
// meets names the cheapest plan's cost, in English and Chinese.
func TestQuestionBudget(t *testing.T) {
	args := []string{"--cluster-gpus", "16", "--gpu", "H100", "--horizon-months", "12", "--multi-node", "--currency", "EUR", "--budget-period", "month"}
	d := ask(t, append(args, "--budget", "70000", "--limit", "10")...)
	if len(d.Plans) == 0 {
		t.Fatal("no plan within 70,000 EUR a month")
	}
	for _, p := range d.Plans {
		if month := p.Cost.Total / 12; month > 70000*1.0001 {
			t.Errorf("%s: %.0f EUR a month, over the 70,000 EUR budget", p.Offer, month)
		}
	}
	if !strings.Contains(strings.Join(d.Plans[0].Reasons, " "), "Within your budget:") {
		t.Errorf("the top plan does not say it is within the budget: %q", d.Plans[0].Reasons)
	}
	over := 0
	for _, r := range d.Rejected {
		if r.Stage == "budget" {
			over++
			if !strings.Contains(r.Reason, "EUR a month, over the budget of 70,000 EUR") {
				t.Errorf("%s: budget rejection without the figures: %q", r.Offer, r.Reason)
			}
		}
	}
	if over == 0 {
		t.Error("no plan rejected by a 70,000 EUR monthly budget for 16 H100s")
	}
	for lang, want := range map[string]string{"en": "the cheapest plan that meets every other constraint costs", "zh": "满足其他所有约束的最便宜方案花费"} {
		out, errOut, code := exec(t, true, nil, append([]string{"recommend", "--lang", lang, "--budget", "2000"}, args...)...)
		if code == 0 {
			t.Fatalf("%s: 16 H100s planned within 2,000 EUR a month:\n%s", lang, out)
		}
		if !strings.Contains(errOut, want) || !strings.Contains(errOut, "EUR") || !strings.Contains(errOut, "--budget") {
			t.Errorf("%s: the refusal does not name the cheapest cost and --budget:\n%s", lang, errOut)
		}
	}
	// An hourly budget bounds the rate of all the plan's GPUs while they run.
	h := ask(t, "--gpu-hours", "100", "--budget", "2", "--budget-period", "hour", "--limit", "20")
	for _, p := range h.Plans {
		if rate := p.Cost.PerGPUHour * float64(max(1, p.GPUs)); rate > 2.0001 {
			t.Errorf("%s: %.2f USD an hour, over the 2 USD hourly budget", p.Offer, rate)
		}
	}
	if out, errOut, code := exec(t, true, nil, "recommend", "--gpu-hours", "10", "--budget-period", "week"); code == 0 || !strings.Contains(errOut, "total, month, hour") {
		t.Errorf("--budget-period week: want a usage error naming total, month, hour; exit %d\n%s%s", code, errOut, out)
	}
	dir := t.TempDir()
	job := dir + "/budget.yaml"
	if err := os.WriteFile(job, []byte("workload:\n  gpu_hours: 100\nbudget: 2\nbudget_period: hour\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if y := ask(t, "-f", job, "--limit", "20"); len(y.Plans) != len(h.Plans) {
		t.Errorf("budget in a job file: %d plans, with flags %d", len(y.Plans), len(h.Plans))
	}
}

// "8 × H100 for exactly two weeks, starting within 7 days, no
// interruption": no marketplace host without an SLA, no spot and no
// queued flex-start (each rejected with its reason); capacity reserved
// ahead ranks first, an AWS Capacity Block booked for 14 days (not 21)
// and saying how much of it is usable; pay-as-you-go plans say their
// capacity is not reserved.
func TestQuestionGuaranteedTwoWeeks(t *testing.T) {
	d := ask(t, "-f", "../../examples/guaranteed-two-weeks.yaml", "--limit", "30")
	if len(d.Plans) == 0 {
		t.Fatal("no plan")
	}
	top := d.Plans[0]
	if !strings.HasSuffix(top.Offer, "/capacity-block") {
		t.Errorf("top plan %s: want capacity reserved ahead (a Capacity Block) first", top.Offer)
	}
	for _, p := range d.Plans {
		text := strings.Join(p.Reasons, " ")
		switch {
		case p.Provider == "vast", strings.HasSuffix(p.Offer, "/spot"), strings.HasSuffix(p.Offer, "/flex-start"):
			t.Errorf("%s planned for guaranteed capacity", p.Offer)
		case strings.HasSuffix(p.Offer, "/capacity-block"):
			if !strings.Contains(text, "reserved ahead for 14 day(s)") || strings.Contains(text, "21 day") {
				t.Errorf("%s: want a 14-day block for a 336-hour job: %q", p.Offer, p.Reasons)
			}
			if !strings.Contains(text, "335.5 h of the 336.0 h held are usable") {
				t.Errorf("%s: the block's usable hours are not stated: %q", p.Offer, p.Reasons)
			}
		case strings.HasSuffix(p.Offer, "/on-demand"):
			if !strings.Contains(strings.Join(p.Risks, " "), "capacity is not reserved") {
				t.Errorf("%s: pay-as-you-go without the capacity risk: %q", p.Offer, p.Risks)
			}
		}
		if p.Time.Hours < 335.9 || p.Time.Hours > 336.1 {
			t.Errorf("%s: held %.2f h, want 336", p.Offer, p.Time.Hours)
		}
	}
	var vast, flex bool
	for _, r := range d.Rejected {
		if strings.HasPrefix(r.Offer, "vast/") && strings.Contains(r.Reason, "no SLA") {
			vast = true
		}
		if strings.HasSuffix(r.Offer, "/flex-start") && strings.Contains(r.Reason, "no start date is guaranteed") && strings.Contains(r.Reason, "at most 7 days") {
			flex = true
		}
	}
	if !vast || !flex {
		t.Errorf("rejections must say why Vast (no SLA: %v) and GCP flex-start (queued, 7 days: %v) were refused", vast, flex)
	}
	if out, errOut, code := exec(t, true, nil, "recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e9", "--hours", "336"); code == 0 || !strings.Contains(errOut, "cluster") {
		t.Errorf("--hours without --cluster-gpus: want a usage error; exit %d\n%s%s", code, errOut, out)
	}
	// Past 14 days AWS sells blocks in weeks: a 340-hour hold is booked
	// for 21 days, and the plan says why.
	long := ask(t, "--cluster-gpus", "8", "--gpu", "H100", "--hours", "340", "--provider", "aws", "--limit", "40")
	seen := false
	for _, p := range long.Plans {
		if strings.HasSuffix(p.Offer, "/capacity-block") {
			seen = true
			if text := strings.Join(p.Reasons, " "); !strings.Contains(text, "the 14.2 days needed are sold as 21 days") {
				t.Errorf("%s: a 340-hour block without the 7-day step explained: %q", p.Offer, p.Reasons)
			}
		}
	}
	if !seen {
		t.Error("no Capacity Block plan for 8 × H100 held 340 hours on AWS")
	}
	out, errOut, code := exec(t, true, nil, "recommend", "--cluster-gpus", "8", "--gpu", "H100", "--hours", "336", "--start-within-days", "7", "--lang", "zh", "--limit", "1")
	if code != 0 || !strings.Contains(out, "容量块：提前预留 14 天") {
		t.Errorf("zh: want the 14-day Capacity Block; exit %d\n%s%s", code, errOut, out)
	}
}

// "Serve an 8B assistant to users in Frankfurt and Virginia": one plan
// per place, each in a region within 2,000 km of its users and sized for
// its share of the load, with the sum stated; loads per place come from
// flags (Place=N) or the job file; a load that does not add up is refused.
func TestQuestionUsersInTwoPlaces(t *testing.T) {
	type located struct {
		questionPlan
		ForUsers string `json:"for_users"`
		Country  string `json:"country"`
	}
	var doc struct {
		Plans []located `json:"plans"`
		Notes []string  `json:"notes"`
	}
	for _, args := range [][]string{
		{"--params", "8e9", "--qps", "4", "--input-tokens", "1000", "--output-tokens", "250", "--near-users", "Frankfurt=3,Virginia=1", "--horizon-months", "12", "--limit", "4"},
		{"-f", "../../examples/two-city-service.yaml"},
	} {
		out, errOut, code := exec(t, true, nil, append(append([]string{"recommend"}, args...), "-o", "json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		byPlace := map[string][]located{}
		for _, p := range doc.Plans {
			byPlace[p.ForUsers] = append(byPlace[p.ForUsers], p)
		}
		if len(byPlace["Frankfurt"]) == 0 || len(byPlace["Virginia"]) == 0 || len(byPlace) != 2 {
			t.Fatalf("%v: want plans for Frankfurt and for Virginia, got %v", args, byPlace)
		}
		for _, p := range byPlace["Virginia"] {
			if p.Country != "US" {
				t.Errorf("%v: %s serves Virginia from %s", args, p.Offer, p.Country)
			}
			if !strings.Contains(p.Reasons[0], "1 requests/s of the load") {
				t.Errorf("%v: %s: want Virginia's 1 request/s stated first: %q", args, p.Offer, p.Reasons[0])
			}
		}
		for _, p := range byPlace["Frankfurt"] {
			if p.Country == "US" {
				t.Errorf("%v: %s serves Frankfurt from the US", args, p.Offer)
			}
			if !strings.Contains(strings.Join(p.Reasons, " "), "3 requests/s need") {
				t.Errorf("%v: %s: not sized for Frankfurt's 3 requests/s: %q", args, p.Offer, p.Reasons)
			}
		}
		if len(doc.Notes) == 0 || !strings.Contains(doc.Notes[0], "one plan per place") || !strings.Contains(doc.Notes[0], "together") {
			t.Errorf("%v: no note stating each place's plan and the sum: %q", args, doc.Notes)
		}
	}
	out, errOut, code := exec(t, true, nil, "recommend", "--params", "8e9", "--qps", "4", "--input-tokens", "1000", "--output-tokens", "250",
		"--near-users", "Frankfurt=3,Virginia=3", "--horizon-months", "12", "--lang", "zh")
	if code == 0 || !strings.Contains(errOut, "6") {
		t.Errorf("loads of 6 for a 4 requests/s target: want an error; exit %d\n%s%s", code, errOut, out)
	}
	out, _, code = exec(t, true, nil, "recommend", "--params", "8e9", "--qps", "4", "--input-tokens", "1000", "--output-tokens", "250",
		"--near-users", "Frankfurt,Virginia", "--horizon-months", "12", "--lang", "zh", "--limit", "2")
	if code != 0 || !strings.Contains(out, "用户分布在 2 个地方") || !strings.Contains(out, "平均分配") {
		t.Errorf("zh: want the per-place answer with equal shares; exit %d\n%s", code, out)
	}
	// A job is one deployment: the answer says so rather than pretend.
	out, _, code = exec(t, true, nil, "recommend", "--gpu-hours", "10", "--near-users", "Frankfurt,Virginia", "--limit", "1")
	if code != 0 || !strings.Contains(out, "this answer is one deployment for all of them") {
		t.Errorf("a job for users in two places: want the one-answer statement; exit %d\n%s", code, out)
	}
}

// A program reading `recommend -o json --lang zh` gets the error message
// itself in Chinese (not only the hint): a bad requirement, an unknown
// GPU, a bad flag, a job file's wrong value.
func TestQuestionJSONErrorsInChinese(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yaml"
	if err := os.WriteFile(bad, []byte("workload:\n  gpu_hours: many\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--gpu-hours", "1", "--utilization", "3"}, "须为 0 到 1 之间的比例"},
		{[]string{"--gpu", "NOPE", "--gpu-hours", "1"}, "未知的GPU 型号 \"NOPE\""},
		{[]string{"--bogus"}, "未知参数：--bogus"},
		{[]string{"-f", bad}, "第 2 行：`many` 不是数字"},
		{[]string{"--cluster-gpus", "8", "--hours", "336", "--horizon-months", "1"}, "只能给一个"},
		{[]string{"--gpu-hours", "1", "--budget-period", "week", "--budget", "5"}, "请用 total, month, hour"},
	} {
		out, _, code := exec(t, true, nil, append(append([]string{"recommend"}, c.args...), "-o", "json", "--lang", "zh")...)
		var doc struct {
			Schema, Error string
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || code == 0 {
			t.Errorf("%v: exit %d, stdout not an error document: %v\n%s", c.args, code, err, out)
			continue
		}
		if !strings.Contains(doc.Error, c.want) {
			t.Errorf("%v: error %q, want %q", c.args, doc.Error, c.want)
		}
	}
}

// "How long does one billion tokens through a 335M encoder take on one
// H100?" — gpuscout estimate takes the embedding workload as recommend
// does, lists it in its help, and states the basis in Chinese too.
func TestQuestionEstimateEmbedding(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "estimate", "--workload", "embedding", "--params", "335e6", "--tokens", "1e9", "--gpu", "H100-SXM-80GB", "--lang", "zh", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Time struct {
			Hours float64 `json:"hours"`
		} `json:"time"`
		Assumptions []string `json:"assumptions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if !(doc.Time.Hours > 0 && doc.Time.Hours < 2) || !strings.Contains(strings.Join(doc.Assumptions, " "), "编码器批处理作业") {
		t.Errorf("embedding estimate: %.2f h, assumptions %q", doc.Time.Hours, doc.Assumptions)
	}
	help, _, _ := exec(t, true, nil, "estimate", "--help")
	if !strings.Contains(help, "--workload embedding") {
		t.Error("estimate --help does not show the embedding workload")
	}
}
