package lineage

import (
	"os"
	"strings"
	"testing"
)

func TestParseKarpenterAzure(t *testing.T) {
	f, err := os.Open("testdata/karpenter-azure/zz_generated.pricing.go.excerpt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := ParseKarpenterAzure(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := tab.GeneratedAt.Format("2006-01-02T15:04:05Z07:00"); got != "2026-06-18T03:43:41Z" {
		t.Errorf("generated at %s", got)
	}
	// A price a user would check against the Azure pricing page.
	if p := tab.Prices["eastus"]["Standard_NC24ads_A100_v4"]; p.String() != "3.673" {
		t.Errorf("NC24ads_A100_v4 eastus = %s, want 3.673", p)
	}
	if len(tab.Prices) != 6 {
		t.Errorf("%d regions, want 6", len(tab.Prices))
	}
}

func TestParseKarpenterAzureErrors(t *testing.T) {
	const head = "// generated at 2026-06-18T03:43:41Z\nfunc init() {\n\tinitialOnDemandPrices[\"eastus\"] = map[string]float64{\n"
	for name, tc := range map[string]struct{ in, want string }{
		"bad entry":  {head + "\t\tStandard_X: 1,\n\t}\n}\n", "line 4"},
		"zero price": {head + "\t\t\"Standard_X\": 0.000000,\n\t}\n}\n", "not a positive number"},
		"duplicate":  {head + "\t\t\"Standard_X\": 1.0,\n\t\t\"Standard_X\": 2.0,\n\t}\n}\n", "listed twice"},
		"unclosed":   {head + "\t\t\"Standard_X\": 1.0,\n", "not closed"},
		"no stamp":   {"func init() {\n}\n", "generated at"},
		"bad stamp":  {"// generated at yesterday\n", "line 1"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseKarpenterAzure(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func FuzzParseKarpenterAzure(f *testing.F) {
	b, err := os.ReadFile("testdata/karpenter-azure/zz_generated.pricing.go.excerpt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("// generated at 2026-06-18T03:43:41Z\ninitialOnDemandPrices[\"x\"] = map[string]float64{\n\"a\": 1.5,\n}\n")
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := ParseKarpenterAzure(strings.NewReader(in))
		if err != nil {
			return
		}
		for region, sizes := range tab.Prices {
			for size, p := range sizes {
				if !p.IsPositive() {
					t.Fatalf("%s/%s: accepted price %s", region, size, p)
				}
			}
		}
	})
}
