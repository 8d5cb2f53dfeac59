package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "I typed 1e30 tokens by mistake": an absurd size is refused at the flag
// the user set, named as they wrote it, with exit 2 and in their language,
// not as an engine error about utilization with exit 1.
func TestAbsurdSizesRefusedAtTheFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e30"}, "--tokens 1e+30 is beyond any real job: it takes at most 1e+17"},
		{[]string{"recommend", "--workload", "transformer-train", "--params", "1e30", "--tokens", "1e12"}, "--params 1e+30 is beyond any real job"},
		{[]string{"recommend", "--params", "7e9", "--qps", "1e12", "--input-tokens", "100", "--output-tokens", "100"}, "--qps 1e+12 is beyond any real job"},
		{[]string{"recommend", "--cluster-gpus", "8", "--hours", "1e9"}, "--hours 1e+09 is beyond any real job"},
		{[]string{"recommend", "--cluster-gpus", "100000000"}, "--cluster-gpus 100000000 is beyond any real job"},
		{[]string{"recommend", "--gpu-hours", "NaN"}, "--gpu-hours NaN is beyond any real job"},
		{[]string{"estimate", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e30", "--gpu", "H100"}, "--tokens 1e+30 is beyond any real job"},
		{[]string{"estimate", "--benchmark", "resnet50-train-throughput", "--gpu", "H100", "--count", "100000000"}, "--count 100000000 is beyond any real job"},
		{[]string{"recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e30", "--lang", "zh"}, "--tokens 1e+30 超出任何实际作业的规模"},
	} {
		_, errOut, code := exec(t, false, nil, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// "Which ecosystems can I ask for?" An unknown --ecosystem value is
// refused with the list, exit 2, instead of a filter that empties the
// answer.
func TestUnknownEcosystemListsTheValid(t *testing.T) {
	for lang, want := range map[string]string{"en": `"kubernets" is not an ecosystem category: use acceleration,`, "zh": `"kubernets" 不是生态类别：请用 acceleration,`} {
		_, errOut, code := exec(t, false, nil, "recommend", "--gpu-hours", "10", "--ecosystem", "kubernets", "--lang", lang)
		if code != 2 || !strings.Contains(errOut, want) || !strings.Contains(errOut, "kubernetes") {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", lang, code, errOut, want)
		}
	}
}

// "My job file has a typo on line 2": the error names the file and line 2.
func TestJobFileSyntaxErrorLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "job.yaml")
	if err := os.WriteFile(file, []byte("name: train\nworkload: {gpu_hours: 10\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := exec(t, false, nil, "recommend", "-f", file)
	if code != 3 || !strings.Contains(errOut, file+": line 2:") {
		t.Errorf("exit %d, stderr %q; want exit 3 and %q", code, errOut, file+": line 2:")
	}
}

// "What if my cluster runs on plain TCP?" estimate --fabric takes the
// fabric kinds and refuses others with the list.
func TestEstimateFabricFlag(t *testing.T) {
	_, errOut, code := exec(t, true, nil, "estimate", "--benchmark", "bert-large-pretrain-seq128-throughput", "--gpu", "A100-SXM-80GB",
		"--count", "32", "--nodes", "4", "--precision", "fp16", "--fabric", "myrinet")
	if code != 2 || !strings.Contains(errOut, `unknown --fabric "myrinet": use one of tcp, efa, infiniband, roce, erdma`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	out, errOut, code := exec(t, true, nil, "estimate", "--benchmark", "bert-large-pretrain-seq128-throughput", "--gpu", "A100-SXM-80GB",
		"--count", "32", "--nodes", "4", "--precision", "fp16", "-o", "json")
	if code != 0 || !strings.Contains(out, "interpolated between published multi-node results") {
		t.Errorf("exit %d, stderr %q, out %.300q: want the interpolation named", code, errOut, out)
	}
}
