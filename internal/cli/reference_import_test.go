package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportJudgesPricesAgainstTheirGPU is the question "can one bad row
// make 8×A100 cost 9 cents an hour?": a SkyPilot AWS file prices
// p4d.24xlarge at 0.09 USD an hour in one region (0.011 per GPU-hour,
// above the fixed 0.01 floor). That row is skipped with its reason and
// count, in English and Chinese, and the cheapest A100 offer stays a real
// one. A later file in which most rows are that low is refused whole and
// the first snapshot stays current.
func TestImportJudgesPricesAgainstTheirGPU(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	write := func(name string, prices map[string]string) string {
		var b strings.Builder
		b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n")
		for _, r := range []string{"us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-1", "ap-southeast-1", "ap-southeast-2", "ca-central-1", "sa-east-1", "ap-south-1", "eu-north-1"} {
			p := prices[r]
			if p == "" {
				p = "32.7726"
			}
			fmt.Fprintf(&b, "p4d.24xlarge,A100,8.0,96.0,1152.0,%s,%s,,\n", p, r)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	one := write("vms.csv", map[string]string{"us-east-1": "0.09"})
	for i, lang := range []string{"en", "zh"} {
		args := []string{"--lang", lang, "catalog", "import", "skypilot", "--cloud", "aws", "--file", one, "--db", db}
		if i > 0 {
			args = append(args, "--allow-shrink")
		}
		out, errOut, code := exec(t, true, nil, args...)
		want := map[string]string{"en": "1 price below 1/30 of its GPU's median price per GPU-hour in the catalog (not plausible) (e.g. aws/p4d.24xlarge/us-east-1/on-demand)",
			"zh": "1 每 GPU 小时价格低于目录中该 GPU 中位价的 1/30（不可信） (e.g. aws/p4d.24xlarge/us-east-1/on-demand)"}[lang]
		if code != 0 || !strings.Contains(out+errOut, want) {
			t.Fatalf("%s: exit %d, want %q in\n%s%s", lang, code, want, out, errOut)
		}
	}
	out, errOut, code := exec(t, true, nil, "offers", "--gpu", "A100", "--provider", "aws", "--region", "us-east-1", "--db", db, "-o", "csv", "--limit", "0")
	if code != 0 || strings.Contains(out, ",0.09,") || !strings.Contains(out, "p4d.24xlarge") {
		t.Errorf("offers after the import: exit %d\n%s%s", code, out, errOut)
	}
	many := write("vms2.csv", map[string]string{"us-east-1": "0.09", "us-east-2": "0.08", "us-west-2": "0.07", "eu-west-1": "0.1"})
	for _, lang := range []string{"en", "zh"} {
		_, errOut, code = exec(t, true, nil, "--lang", lang, "catalog", "import", "skypilot", "--cloud", "aws", "--file", many, "--db", db)
		want := map[string]string{"en": "3 of 12 offers are priced below 1/30", "zh": "12 条报价中有 3 条"}[lang]
		if code != 2 && code != 3 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, want %q in\n%s", lang, code, want, errOut)
		}
	}
	out, _, code = exec(t, true, nil, "catalog", "history", "--offer", "aws/p4d.24xlarge/us-east-2/on-demand", "--db", db, "-o", "json")
	if code != 0 || !strings.Contains(out, "32.7726") || strings.Contains(out, "0.08") {
		t.Errorf("history after the refused file:\n%s", out)
	}
}
