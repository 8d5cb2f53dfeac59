package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// "What is the cheapest half GPU-hour?" A Radeon Pro V520 is the cheapest
// GPU in the catalog but AMD's ROCm list leaves it out: no PyTorch build
// runs on it, so it is not an ML plan unless the user names it, and the
// rejection says why in both languages.
func TestNoMLStackKeptOutOfMLPlans(t *testing.T) {
	type plan struct {
		GPU string `json:"gpu"`
	}
	type rej struct {
		Stage, Reason string
	}
	var doc struct {
		Plans    []plan `json:"plans"`
		Rejected []rej  `json:"rejected"`
	}
	for _, lang := range []string{"en", "zh"} {
		out, errOut, code := exec(t, true, nil, "recommend", "--gpu-hours", "0.5", "--priority", "cost", "-o", "json", "--lang", lang)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		doc.Plans, doc.Rejected = nil, nil
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range doc.Plans {
			if p.GPU == "Radeon-Pro-V520" {
				t.Errorf("%s: a Radeon Pro V520 plan is offered for an ML job", lang)
			}
		}
		want := map[string]string{"en": "Radeon-Pro-V520 is not on AMD's ROCm supported-GPU list", "zh": "Radeon-Pro-V520 不在 AMD ROCm 支持的 GPU 列表中"}[lang]
		found := false
		for _, r := range doc.Rejected {
			if r.Stage == "ml" && strings.Contains(r.Reason, want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no rejection at stage ml saying %q", lang, want)
		}
	}
	// Named, it is considered.
	out, errOut, code := exec(t, true, nil, "recommend", "--gpu-hours", "0.5", "--priority", "cost", "--gpu", "V520", "-o", "json")
	if code != 0 {
		t.Fatalf("--gpu V520: exit %d: %s", code, errOut)
	}
	doc.Plans = nil
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Plans) == 0 || doc.Plans[0].GPU != "Radeon-Pro-V520" {
		t.Errorf("--gpu V520: plans %v, want the V520 first", doc.Plans)
	}
	if !strings.Contains(out, "Radeon-Pro-V520 is on no ML software support list of its vendor") {
		t.Errorf("--gpu V520: the plan does not warn that no ML stack supports it")
	}
}

// "Which GPUs run CUDA or ROCm?" gpus -o json carries each GPU's stack
// and the vendor list it comes from.
func TestGPUsShowMLSupport(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "gpus", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		GPUs []struct {
			ID        string `json:"id"`
			MLSupport *struct {
				Stack, Detail, Source string
			} `json:"ml_support"`
		} `json:"gpus"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"H100-SXM-80GB": "cuda", "MI300X": "rocm", "Radeon-Pro-V520": "none", "T4": "cuda"}
	for _, g := range doc.GPUs {
		if g.MLSupport == nil || g.MLSupport.Source == "" {
			t.Errorf("%s: no ML support with a source", g.ID)
			continue
		}
		if w, ok := want[g.ID]; ok && g.MLSupport.Stack != w {
			t.Errorf("%s: stack %q, want %q", g.ID, g.MLSupport.Stack, w)
		}
	}
}
