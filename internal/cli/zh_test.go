package cli_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/i18n/zhcheck"
	"github.com/gpuscout/gpuscout/internal/perf"
)

// cliZhAllowed are the Latin-script words a Chinese CLI table may show:
// names, units and technical terms that have no Chinese form in use. Tokens
// with a digit, dot, underscore, slash or hyphen (offer IDs, regions, GPU
// models) and upper-case acronyms pass without listing.
var cliZhAllowed = map[string]bool{
	"gpuscout": true, "nvidia": true, "amd": true, "intel": true, "google": true, "cloud": true, "azure": true,
	"lambda": true, "oracle": true, "alibaba": true, "tencent": true, "nvswitch": true, "nvlink": true, "pcie": true, "infiniband": true,
	"efa": true, "rdma": true, "roce": true, "json": true, "csv": true, "api": true, "gib": true, "gb": true, "tb": true,
	"gbps": true, "tflops": true, "kw": true, "kwh": true, "h": true, "x": true, "gpu": true, "cpu": true, "vcpu": true, "hopper": true, "ampere": true, "ada": true,
	"blackwell": true, "volta": true, "turing": true, "lovelace": true, "sxm": true, "nvl": true, "hbm": true, "gddr": true,
	"dcgm": true, "smi": true, "ecb": true, "mig": true, "tpu": true, "mi": true, "erdma": true, "nvme": true, "ssd": true,
	"token": true, "tokens": true, "aws": true, "gcp": true, "oci": true, "fp": true, "bf": true, "int": true, "mfu": true,
	"ln": true, "daly": true, "young": true, // −ln in a formula; Daly's and Young's checkpoint intervals
	"usd": true, "cny": true, "eur": true, "w": true, "s": true, "ms": true, "tflop": true, "flops": true, "tb/s": true, "gb/s": true,
}

var (
	// cliCut is a word a narrow cell cut short ("Wi…").
	cliCut = regexp.MustCompile(`[A-Za-z]+…`)
)

// cliCatalogNames adds the embedded catalog's own names: region codes, GPU
// IDs, vendors, architectures, and the Latin words its Chinese texts keep.
func cliCatalogNames(t *testing.T, ecosystem bool) map[string]bool {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	names := zhcheck.Names{}
	add := names.Add
	c := ds.Catalog
	names.AddCatalog(c)
	for _, p := range c.Providers() {
		add(p.ID) // provider IDs appear inside offer IDs and as row keys
	}
	// The ecosystem facts' Chinese values keep product names (SageMaker,
	// Container Service for Kubernetes), as the web's check allows.
	for _, f := range c.Ecosystem() {
		if ecosystem {
			add(f.Key)
			add(f.ValueZH)
		}
	}
	// A source reference is quoted as published (the spot command's
	// interruption band cites the AWS Spot Instance Advisor feed).
	if b, ok := c.InterruptionBand("aws", "g4dn.xlarge", "us-east-1"); ok {
		add(b.Source.Ref)
	}
	// Commands quoted in hints.
	add("gpuscout catalog update --provider")
	add("gpuscout cost --offer ID -o json")
	add("gpuscout catalog claims -o markdown")
	add("--fabric") // the flag named by the estimate's fabric assumption
	add("business") // the support plan named by --support, as the provider names it
	// A published result's suite is a source name (NVIDIA
	// DeepLearningExamples, NGC pytorch), quoted as published.
	pts, _, err := perf.LoadEmbedded(perf.Lookup(c))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pts {
		add(p.Suite)
	}
	// Model and serving-software names the performance model's
	// assumptions name.
	add("Llama Mixtral vLLM TensorRT-LLM")
	// Product, benchmark and API names the claims' Chinese texts keep.
	add("Tesla Mellanox SQuAD MLPerf Inference Offline ImageNet DescribeSpotPriceHistory LightCC TACO Kit Train vGPU Linux")
	return names
}

// cliEnglishWords lists the words of text a Chinese table should not show
// (a word a narrow cell cut short passes).
func cliEnglishWords(text string, names map[string]bool) []string {
	return zhcheck.EnglishWords(cliCut.ReplaceAllString(text, " "), cliZhAllowed, names)
}

// TestChineseTablesShowNoEnglish runs every table command with --lang zh
// and fails on an English word outside the allowlist: a Chinese reader sees
// Chinese labels, enum values, notes and hints. rightsize is not checked
// yet: its report is written in English by internal/rightsize.
func TestChineseTablesShowNoEnglish(t *testing.T) {
	names, ecoNames := cliCatalogNames(t, false), cliCatalogNames(t, true)
	commands := [][]string{
		{"offers", "--gpu", "A100", "--limit", "5"},
		{"gpus"},
		{"instances", "--provider", "aws"},
		{"providers"},
		{"catalog", "stats"},
		{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand"},
		{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--months", "6", "--utilization", "0.5", "--storage-gb", "500", "--support", "business"},
		{"tco", "--months", "36", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--onprem", "H100"},
		{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "24"},
		{"estimate", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e11", "--offer", "aws/p5.48xlarge/us-east-1/on-demand"},
		{"estimate", "--workload", "llm-inference", "--params", "70e9", "--tokens", "1e9", "--gpu", "H100-SXM-80GB", "--count", "8"},
		{"estimate", "--benchmark", "bert-large-pretrain-seq128-throughput", "--gpu", "A10", "--count", "16"},
		{"catalog", "claims"},
		{"estimate", "--workload", "cnn-train", "--images", "1.28e6", "--epochs", "90", "--gflops-per-image", "8", "--gpu", "A100-SXM4-80GB", "--count", "8"},
		{"estimate", "--workload", "flops", "--flops", "1e18", "--gpu", "A100-SXM4-80GB", "--count", "4"},
		{"estimate", "--workload", "llm-inference", "--params", "70e9", "--tokens", "1e9", "--precision", "int4", "--offer", "aws/g6e.48xlarge/us-east-1/on-demand"},
		{"estimate", "--benchmark", "mlperf-train-bert", "--gpu", "H100-SXM-80GB", "--count", "64"},
	}
	for _, args := range commands {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, errOut, code := exec(t, true, nil, append(args, "--lang", "zh")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			allowed := names
			if args[0] == "providers" {
				allowed = ecoNames
			}
			if w := cliEnglishWords(out+errOut, allowed); len(w) > 0 {
				t.Errorf("shows English: %v\n%s%s", w, out, errOut)
			}
		})
	}
}

// TestRightsizeChineseLabels checks the rightsize report in Chinese, its
// labels and the engine's sentences (recommendations, reasons, figures,
// caveats, notes and bad-line reasons): no English word outside the
// allowlist, and the report's own labels present.
func TestRightsizeChineseLabels(t *testing.T) {
	names := cliCatalogNames(t, false)
	names["gzip"] = true // the compression format's name
	for _, args := range [][]string{
		{"--metrics", rsData + "idle-nights-8xa100.csv.gz", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand"},
		{"--metrics", rsData + "idle-nights-8xa100.csv.gz", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront"},
		{"--metrics", rsData + "two-of-eight-l40s.csv", "--offer", "aws/g6e.48xlarge/us-east-1/on-demand"},
		{"--metrics", rsData + "bursty-h100-noheader.csv.gz", "--offer", "aws/p5.4xlarge/us-east-1/on-demand"},
		{"--metrics", rsData + "steady-8xa100-malformed.prom.gz", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--currency", "CNY"},
	} {
		t.Run(filepath.Base(args[1]), func(t *testing.T) {
			out, errOut, code := exec(t, false, nil, append([]string{"rightsize", "--catalog", rsCatalog, "--lang", "zh"}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range []string{"监控数据：", "样本数", "显存峰值 GiB", "全部", "当前："} {
				if !strings.Contains(out, want) {
					t.Errorf("missing %q:\n%s", want, out)
				}
			}
			// A bad line's quoted text is the user's own data, not ours.
			text := quoted.ReplaceAllString(out+errOut, `""`)
			if w := cliEnglishWords(text, names); len(w) > 0 {
				t.Errorf("shows English: %v\n%s%s", w, out, errOut)
			}
		})
	}
}

var quoted = regexp.MustCompile(`"[^"\n]*"`)

// TestJSONSentencesFollowLang: -o json keeps the engine's sentences in
// English by default and writes them in Chinese with --lang zh, as the
// advisor's reasons and the API (?lang=zh) do.
func TestJSONSentencesFollowLang(t *testing.T) {
	est := []string{"estimate", "--benchmark", "bert-large-pretrain-seq128-throughput", "--gpu", "A10", "--count", "16", "-o", "json"}
	rs := []string{"rightsize", "--catalog", rsCatalog, "--metrics", rsData + "two-of-eight-l40s.csv", "--offer", "aws/g6e.48xlarge/us-east-1/on-demand", "-o", "json"}
	for _, tc := range []struct {
		embedded bool // the embedded catalog (rightsize names its own)
		args     []string
		en, zh   string
	}{
		{true, est, "per-GPU throughput from specs", "单卡吞吐由规格推算"},
		{false, rs, "did substantial work", "承担了实际负载"},
	} {
		en, errOut, code := exec(t, tc.embedded, map[string]string{"LANG": "en_US.UTF-8"}, tc.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		zh, errOut, code := exec(t, tc.embedded, nil, append(tc.args, "--lang", "zh")...)
		if code != 0 {
			t.Fatalf("%v --lang zh: exit %d: %s", tc.args, code, errOut)
		}
		if !strings.Contains(en, tc.en) || strings.Contains(en, tc.zh) {
			t.Errorf("%s -o json: want English %q", tc.args[0], tc.en)
		}
		if !strings.Contains(zh, tc.zh) || strings.Contains(zh, tc.en) {
			t.Errorf("%s -o json --lang zh: want Chinese %q", tc.args[0], tc.zh)
		}
	}
}
