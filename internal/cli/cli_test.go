package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
)

var update = flag.Bool("update", false, "rewrite golden files")

// now is the fixed date of every test run.
var now = time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)

func exec(t *testing.T, embedded bool, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	cat := os.DirFS("testdata/catalog")
	if embedded {
		cat = curated.Embedded()
	}
	return runCLI(cat, now, env, "", args...)
}

// runCLI runs gpuscout in process on the catalog cat, on the day now, with
// the environment env and standard input stdin (never a terminal).
func runCLI(cat fs.FS, now time.Time, env map[string]string, stdin string, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	e := cli.Env{
		Getenv:  func(k string) string { return env[k] },
		Now:     func() time.Time { return now },
		IsTTY:   func() bool { return false },
		Catalog: cat,
	}
	code := cli.Main(context.Background(), args, cli.IO{In: strings.NewReader(stdin), Out: &out, Err: &errOut}, e)
	return out.String(), errOut.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/cli -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from golden file (run with -update if the change is intended)\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// canonicalJSON re-indents JSON so that golden comparisons ignore layout.
func canonicalJSON(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, s)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b) + "\n"
}

func TestGolden(t *testing.T) {
	en := map[string]string{"LANG": "en_US.UTF-8"}
	zh := map[string]string{"LANG": "zh_CN.UTF-8"}
	tests := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"offers.txt", en, []string{"offers"}},
		{"offers-a100-8gpu.txt", en, []string{"offers", "--gpu", "A100", "--min-gpus", "8", "--per-provider", "1"}},
		{"offers-zh.txt", zh, []string{"offers", "--gpu", "A100", "--limit", "5"}},
		{"offers-cny-gpu-hour.txt", en, []string{"offers", "--currency", "CNY", "--per", "gpu-hour", "--sort", "gpu-price", "--billing", "on-demand"}},
		{"offers-fx-override.txt", en, []string{"offers", "--provider", "tencent", "--currency", "usd", "--fx", "CNY=7", "--limit", "3"}},
		{"offers-cheapest-region.txt", en, []string{"offers", "--cheapest-region", "--sort", "gpu-price"}},
		{"offers.json", en, []string{"offers", "--gpu", "A100", "-o", "json", "--limit", "3"}},
		{"offers.csv", en, []string{"offers", "-o", "csv", "--limit", "4"}},
		{"offers.md", en, []string{"offers", "-o", "markdown", "--billing", "reserved,spot"}},
		{"instances.txt", en, []string{"instances"}},
		{"instances-zh.txt", zh, []string{"instances", "--rdma"}},
		{"instances.json", en, []string{"instances", "--provider", "tencent", "-o", "json"}},
		{"gpus.txt", en, []string{"gpus"}},
		{"gpus.json", en, []string{"gpus", "A100", "-o", "json"}},
		{"stats.txt", en, []string{"catalog", "stats"}},
		{"stats.json", en, []string{"catalog", "stats", "-o", "json"}},
		{"sources.csv", en, []string{"catalog", "sources", "-o", "csv"}},
		{"claims.txt", en, []string{"catalog", "claims"}},
		{"claims.json", en, []string{"catalog", "claims", "-o", "json"}},
		{"validate.txt", en, []string{"catalog", "validate"}},
		{"cost-ondemand.txt", en, []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--hours-per-day", "8", "--days-per-month", "22", "--storage-gb", "2000", "--egress-gb", "500", "--support", "business"}},
		{"cost-reserved.txt", en, []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--months", "3", "--utilization", "0.6"}},
		{"cost-subscription-usd.txt", en, []string{"cost", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m", "--currency", "USD", "--months", "2"}},
		{"cost-zh.txt", zh, []string{"cost", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand", "--hours-per-day", "12"}},
		{"cost.json", en, []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--months", "2", "--start", "2027-01", "--egress-gb", "300", "-o", "json"}},
		{"tco.txt", en, []string{"tco", "--months", "36", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand", "--onprem", "H100"}},
		{"tco.json", en, []string{"tco", "--months", "12", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--onprem", "H100-SXM-80GB", "-o", "json"}},
		{"tco-file.txt", en, []string{"tco", "-f", "testdata/plans.yaml"}},
		{"estimate-benchmark.txt", en, []string{"estimate", "--benchmark", "resnet50-train-throughput", "--gpu", "A100-SXM-80GB", "--count", "8", "--precision", "fp16"}},
		{"estimate-offer.txt", en, []string{"estimate", "--workload", "cnn-train", "--images", "1281167", "--epochs", "90", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand"}},
		{"estimate-zh.txt", zh, []string{"estimate", "--benchmark", "mlperf-inf-resnet50", "--gpu", "T4", "--count", "4"}},
		{"estimate.json", en, []string{"estimate", "--workload", "transformer-train", "--params", "1e9", "--tokens", "2e10", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--instances", "2", "-o", "json"}},
		{"spot.txt", en, []string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "12", "--deadline-hours", "16", "--trials", "20000"}},
		{"spot-mtbi.txt", en, []string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/on-demand", "--work-hours", "12", "--mtbi", "4", "--checkpoint-minutes", "10", "--deadline-hours", "14", "--trials", "20000"}},
		{"spot-zh.txt", zh, []string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "8", "--checkpoint-minutes", "1", "--trials", "5000"}},
		{"spot.json", en, []string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "48", "--checkpoint-minutes", "20", "--mtbi", "10", "--deadline-hours", "72", "--trials", "10000", "--seed", "7", "-o", "json"}},
		{"cost-spot.txt", en, []string{"cost", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--months", "2"}},
		{"recommend.txt", en, []string{"recommend", "-f", "testdata/job.yaml"}},
		{"recommend-zh.txt", zh, []string{"recommend", "--workload", "transformer-train", "--params", "1e9", "--tokens", "2e10", "--max-gpus", "8", "--limit", "2"}},
		{"recommend.md", en, []string{"recommend", "--gpu-hours", "100", "--gpu-hours-on", "T4", "--limit", "2", "-o", "markdown"}},
		{"recommend.json", en, []string{"recommend", "--cluster-gpus", "8", "--horizon-months", "12", "--utilization", "0.7", "--limit", "2", "-o", "json"}},
		{"estimate-samples.txt", en, []string{"estimate", "--benchmark", "mlperf-inf-llama2-70b", "--gpu", "H100-SXM-80GB", "--count", "8", "--samples", "1e9"}},
		{"validate.json", en, []string{"catalog", "validate", "-o", "json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := exec(t, false, tt.env, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			if strings.HasSuffix(tt.name, ".json") {
				out = canonicalJSON(t, out)
			}
			golden(t, tt.name, out)
		})
	}
}

func TestErrors(t *testing.T) {
	broken := t.TempDir()
	if err := os.MkdirAll(filepath.Join(broken, "offers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "offers", "mine.csv"), []byte(
		"provider,instance_type,region,billing,hourly,currency,source_kind,source_ref,as_of\n"+
			"aws,p4d.24xlarge,us-east-1,spot,cheap,USD,user,my quote,2026-11-01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"unknown GPU suggests", []string{"offers", "--gpu", "A1000"}, 2, []string{`unknown GPU model "A1000"`, "did you mean A100"}},
		{"unknown provider suggests", []string{"offers", "--provider", "tencnet"}, 2, []string{`unknown provider "tencnet"`, "did you mean tencent"}},
		{"malformed --fx", []string{"offers", "--fx", "CNY:7"}, 2, []string{"want CUR=RATE", "Hint:"}},
		{"negative --fx", []string{"offers", "--fx", "CNY=-7"}, 2, []string{"not a positive number"}},
		{"unknown currency", []string{"offers", "--currency", "XYZ"}, 2, []string{`no exchange rate for currency "XYZ"`, "--fx XYZ=RATE"}},
		{"unknown billing", []string{"offers", "--billing", "monthly"}, 2, []string{`unknown billing model "monthly"`}},
		{"bad sort", []string{"offers", "--sort", "cheap"}, 2, []string{"unknown sort key"}},
		{"bad output", []string{"offers", "-o", "yaml"}, 2, []string{"unknown output format"}},
		{"bad lang", []string{"offers", "--lang", "fr"}, 2, []string{"unsupported language"}},
		{"unknown flag", []string{"offers", "--gpus", "A100"}, 2, []string{"unknown flag: --gpus", "--help"}},
		{"unknown command", []string{"offer"}, 2, []string{"unknown command"}},
		{"missing catalog dir", []string{"offers", "--catalog", "/nonexistent/dir"}, 2, []string{"is not a directory"}},
		{"broken catalog file", []string{"offers", "--catalog", broken}, 3, []string{"offers/mine.csv:2: field hourly: \"cheap\" is not a number"}},
		{"validate broken catalog", []string{"catalog", "validate", "--catalog", broken}, 3, []string{"catalog is invalid: 1 problem"}},
		{"bad verdict", []string{"catalog", "claims", "--verdict", "maybe"}, 2, []string{"unknown verdict"}},
		{"cost without offer", []string{"cost"}, 2, []string{"--offer is required"}},
		{"cost unknown offer", []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/ondemand"}, 2, []string{"did you mean aws/p4d.24xlarge/us-east-1/on-demand"}},
		{"cost negative hours", []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--hours-per-day", "-2"}, 2, []string{"hours_per_day: must be between 0 and 24"}},
		{"cost zero months", []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--months", "0"}, 2, []string{"months: the horizon must be at least 1 month"}},
		{"cost unknown support plan", []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--support", "gold"}, 2, []string{`no support plan "gold"`}},
		{"cost malformed yaml", []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "-f", "testdata/bad-usage.yaml"}, 3, []string{"testdata/bad-usage.yaml", "line 2", "storage_gbb"}},
		{"cost bad value in yaml", []string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "-f", "testdata/bad-usage-value.yaml"}, 3, []string{"testdata/bad-usage-value.yaml", "utilization"}},
		{"tco nothing", []string{"tco"}, 2, []string{"nothing to compare"}},
		{"spot without work", []string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "-1"}, 2, []string{"--work-hours must not be negative"}},
		{"spot negative checkpoint", []string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "1", "--checkpoint-minutes", "-5"}, 2, []string{"--checkpoint-minutes must not be negative"}},
		{"spot no spot price", []string{"spot", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--work-hours", "1"}, 2, []string{"no spot price for p5.48xlarge in us-east-1"}},
		{"spot without offer", []string{"spot", "--work-hours", "1"}, 2, []string{"--offer is required"}},
		{"recommend nothing", []string{"recommend"}, 2, []string{"describe the work"}},
		{"recommend impossible", []string{"recommend", "--workload", "transformer-train", "--params", "1e9", "--tokens", "1e12", "--deadline-hours", "1"}, 2, []string{"the deadline constraint", "the fastest plan takes about"}},
		{"recommend bad job file", []string{"recommend", "-f", "testdata/bad-job.yaml"}, 3, []string{"testdata/bad-job.yaml", "unknown field gpus"}},
		{"estimate unknown benchmark", []string{"estimate", "--benchmark", "resnet", "--gpu", "T4"}, 2, []string{`unknown benchmark "resnet"`, "did you mean"}},
		{"estimate without gpu", []string{"estimate", "--benchmark", "mlperf-inf-resnet50"}, 2, []string{"--gpu or --offer is required"}},
		{"estimate ambiguous gpu", []string{"estimate", "--benchmark", "mlperf-inf-resnet50", "--gpu", "A100"}, 2, []string{"matches A100-SXM4-40GB, A100-SXM4-80GB"}},
		{"estimate bad precision", []string{"estimate", "--benchmark", "mlperf-inf-resnet50", "--gpu", "T4", "--precision", "fp4"}, 2, []string{"unknown precision"}},
		{"estimate unsized job", []string{"estimate", "--workload", "transformer-train", "--gpu", "T4"}, 2, []string{"--params must be a positive number"}},
		{"estimate both", []string{"estimate", "--workload", "flops", "--benchmark", "x", "--gpu", "T4"}, 2, []string{"none of the others can be"}},
		{"tco bad plan file", []string{"tco", "-f", "testdata/bad-plans.yaml"}, 3, []string{"testdata/bad-plans.yaml", "plans[1].parts[0].offer", "unknown offer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := exec(t, false, nil, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, errOut)
				}
			}
		})
	}
}

// TestEmbeddedCatalog runs the commands a new user runs first on the real,
// embedded catalog.
func TestEmbeddedCatalog(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "catalog", "validate")
	if code != 0 || !strings.Contains(out, "Catalog OK") {
		t.Fatalf("catalog validate: exit %d\n%s%s", code, out, errOut)
	}

	out, errOut, code = exec(t, true, nil, "offers", "--gpu", "A100", "--residency", "cn-mainland", "--limit", "0", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Schema string `json:"schema"`
		Offers []struct {
			Provider  string                 `json:"provider"`
			Residency string                 `json:"residency"`
			GPU       struct{ Model string } `json:"gpu"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	providers := map[string]bool{}
	for _, o := range doc.Offers {
		providers[o.Provider] = true
		if o.Residency != "cn-mainland" || !strings.HasPrefix(o.GPU.Model, "A100") {
			t.Errorf("offer outside the filter: %+v", o)
		}
	}
	if doc.Schema != "gpuscout/offers@v1" || !providers["alibaba"] || !providers["tencent"] {
		t.Errorf("schema %q, providers %v: want Alibaba and Tencent A100 offers in mainland China", doc.Schema, providers)
	}

	out, _, code = exec(t, true, nil, "catalog", "stats", "-o", "json")
	var stats struct {
		Providers     int `json:"providers"`
		InstanceTypes int `json:"instance_types"`
		Offers        int `json:"offers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &stats) != nil || stats.Providers < 7 || stats.InstanceTypes < 150 || stats.Offers < 500 {
		t.Errorf("stats %+v (exit %d)", stats, code)
	}
}

// TestLanguageFromEnvironment checks that LANG picks Chinese and CNY.
func TestLanguageFromEnvironment(t *testing.T) {
	out, _, code := exec(t, false, map[string]string{"LANG": "zh_CN.UTF-8"}, "offers", "--limit", "1")
	if code != 0 || !strings.Contains(out, "云厂商") || !strings.Contains(out, "CNY/小时") {
		t.Errorf("zh output:\n%s", out)
	}
	out, _, _ = exec(t, false, map[string]string{"LANG": "zh_CN.UTF-8"}, "offers", "--limit", "1", "--lang", "en", "--currency", "USD")
	if !strings.Contains(out, "PROVIDER") || !strings.Contains(out, "USD/h") {
		t.Errorf("--lang en output:\n%s", out)
	}
}

// TestNothingPanics feeds odd arguments; every run must end with an exit code.
func TestNothingPanics(t *testing.T) {
	for _, args := range [][]string{
		{}, {"--help"}, {"offers", "--help"}, {"offers", "--min-gpus", "-1"}, {"offers", "--limit", "-3"},
		{"offers", "--gpu", ""}, {"offers", "--gpu", ",,,"}, {"offers", "--max-price", "1e308"}, {"gpus", "💥"},
		{"instances", "--status", "gone"}, {"catalog"}, {"catalog", "sources", "--kind", "rumour"}, {"version"},
		{"offers", "--fx", "=", "--fx", "CNY=1e-400"}, {"offers", "--per", "decade"},
	} {
		_, _, code := exec(t, false, nil, args...)
		if code < 0 || code > 3 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

// TestRecommendNeeds: the advisor's needs work from flags on the embedded
// catalog, and a JSON run with no feasible plan still writes the document
// with its rejections (exit 2).
func TestRecommendNeeds(t *testing.T) {
	type plan struct {
		Offer, Fabric, Billing, Region string
		Reasons                        []string
	}
	type doc struct {
		Schema      string
		Plans       []plan
		NoPlan      *struct{ Stage, Constraint string } `json:"no_plan"`
		Rejected    []struct{ Offer, Stage, Reason string }
		Constraints []struct {
			Stage   string
			Removed int
		}
	}
	run := func(args ...string) (doc, string, int) {
		t.Helper()
		out, errOut, code := exec(t, true, nil, append(args, "-o", "json")...)
		var d doc
		if out != "" {
			if err := json.Unmarshal([]byte(out), &d); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
		}
		return d, errOut, code
	}
	d, errOut, code := run("recommend", "--workload", "flops", "--flops", "1e19", "--precision", "fp64", "--fabric", "infiniband", "--multi-node", "--max-gpus", "64", "--limit", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, p := range d.Plans {
		if p.Fabric != "infiniband" {
			t.Errorf("%s: fabric %s", p.Offer, p.Fabric)
		}
	}
	d, _, code = run("recommend", "--params", "7e9", "--qps", "5", "--input-tokens", "500", "--output-tokens", "200", "--tpot-ms", "50",
		"--near-users", "Shanghai", "--residency", "cn-mainland", "--horizon-months", "6", "--mtbi", "12", "--limit", "2")
	if code != 0 || len(d.Plans) == 0 || !strings.Contains(d.Plans[0].Region, "shanghai") {
		t.Errorf("exit %d; plans %+v: want Shanghai first", code, d.Plans)
	}
	d, errOut, code = run("recommend", "--workload", "transformer-train", "--params", "1e9", "--tokens", "1e12", "--deadline-hours", "1")
	if code != 2 {
		t.Errorf("no plan: exit %d, want 2", code)
	}
	if d.Schema != "gpuscout/recommendation@v1" || d.NoPlan == nil || d.NoPlan.Stage != "deadline" || len(d.Rejected) == 0 || len(d.Plans) != 0 {
		t.Errorf("no-plan document: %+v", d)
	}
	if !strings.Contains(errOut, "deadline") {
		t.Errorf("stderr: %s", errOut)
	}
	_, errOut, code = exec(t, true, nil, "recommend", "--gpu-hours", "10", "--fabric", "myrinet")
	if code != 2 || !strings.Contains(errOut, `fabric: "myrinet"`) {
		t.Errorf("bad fabric: exit %d: %s", code, errOut)
	}
}
