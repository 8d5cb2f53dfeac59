package cli_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// englishRun is four or more ASCII words in a row: an English sentence
// (or most of one) left in a Chinese answer. Offer IDs, flags, units and
// GPU names are single tokens and do not match.
var englishRun = regexp.MustCompile(`[A-Za-z]+(?:[ ,;:][A-Za-z]+){3,}`)

// "你们推荐什么？" Every kind of plan, rendered in Chinese, gives its
// reasons, risks and rejections in Chinese: spot priors, estimation
// failures, commitments, terms and the ML-support filter included.
func TestZhReasonsHaveNoEnglish(t *testing.T) {
	cases := [][]string{
		{"--gpu-hours", "0.5", "--priority", "cost"},
		{"--gpu-hours", "100", "--interruptible"},
		{"--workload", "transformer-train", "--params", "7e9", "--tokens", "1e11", "--interruptible"},
		{"--workload", "transformer-train", "--params", "7e9", "--tokens", "1e11", "--method", "lora"},
		{"--params", "8e9", "--qps", "5", "--input-tokens", "1000", "--output-tokens", "200", "--horizon-months", "12"},
		{"--params", "70e9", "--tokens-per-second", "2000", "--horizon-months", "36"},
		{"--cluster-gpus", "64", "--horizon-months", "36", "--multi-node"},
		{"--cluster-gpus", "8", "--hours", "336", "--start-within-days", "7"},
		{"--benchmark", "resnet50-train-throughput", "--size", "1e9", "--interruptible"},
		{"--workload", "flops", "--flops", "1e18", "--precision", "fp64"},
		{"--workload", "cnn-train", "--images", "1.28e6", "--epochs", "90", "--deadline-hours", "24"},
		{"--workload", "embedding", "--params", "335e6", "--tokens", "1e10"},
		{"--gpu-hours", "2000", "--horizon-months", "12", "--utilization", "0.5"},
	}
	type plan struct {
		Offer   string            `json:"offer"`
		Reasons []json.RawMessage `json:"reasons"`
		Risks   []json.RawMessage `json:"risks"`
	}
	var doc struct {
		Plans    []plan `json:"plans"`
		Rejected []struct {
			Offer, Reason string
		} `json:"rejected"`
	}
	for _, c := range cases {
		args := append([]string{"recommend", "--lang", "zh", "-o", "json", "--limit", "8"}, c...)
		out, errOut, code := exec(t, true, nil, args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c, code, errOut)
			continue
		}
		doc.Plans, doc.Rejected = nil, nil
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		check := func(where, text string) {
			if m := englishRun.FindString(text); m != "" {
				t.Errorf("%s: %s has English %q in %q", strings.Join(c, " "), where, m, text)
			}
		}
		for _, p := range doc.Plans {
			for _, r := range append(append([]json.RawMessage(nil), p.Reasons...), p.Risks...) {
				var s string
				if json.Unmarshal(r, &s) != nil {
					s = string(r)
				}
				check(p.Offer, s)
			}
		}
		for _, r := range doc.Rejected {
			check("rejected "+r.Offer, r.Reason)
		}
	}
}

// "我写错了训练方法": an unknown --method is refused in Chinese, exit 2.
func TestZhUnknownMethod(t *testing.T) {
	_, errOut, code := exec(t, false, nil, "recommend", "--workload", "transformer-train", "--params", "7e9", "--tokens", "1e11", "--method", "foo", "--lang", "zh")
	if code != 2 || !strings.Contains(errOut, `未知的训练方法 "foo"（可选 full、lora 或 qlora）`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
