package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vmsFile writes a lambda vms.csv of types×2 regions, priced on demand
// and spot at price, with a repeated row (a duplicate), a row priced
// below 0.01 USD and a CPU row; tail is appended as the last row.
func vmsFile(t *testing.T, dir, name string, types int, price, tail string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n")
	b.WriteString("cpu_4x_general,,,4.0,16.0,0.2,us-east-1,,\n")
	for i := 0; i < types; i++ {
		for _, r := range []string{"us-east-1", "us-west-1"} {
			fmt.Fprintf(&b, "gpu_1x_a100_b%d,A100,1.0,30.0,200.0,%s,%s,,0.5\n", i, price, r)
		}
	}
	b.WriteString("gpu_1x_a100_b0,A100,1.0,30.0,200.0,0.10,us-east-1,,0.05\n") // the same type and region again
	b.WriteString("gpu_1x_a10_cheap,A10,1.0,30.0,200.0,0.001,us-east-1,,\n")   // below 0.01 USD per GPU-hour
	b.WriteString(tail)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStreamedSkyPilotImport imports a SkyPilot file through the streamed
// path: the offers, skips (the duplicate under the one rule, the checker's
// price floor, the rows of Lambda's one price list folded into its ANY
// region) and discovered types are reported as before; a later file
// with a bad last row names its line and field, in English and Chinese,
// and stores nothing: the first snapshot stays current.
func TestStreamedSkyPilotImport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	good := vmsFile(t, dir, "vms.csv", 300, "1.29", "")
	out, errOut, code := exec(t, true, nil, "catalog", "import", "skypilot", "--cloud", "lambda", "--file", good, "--db", db, "-o", "json")
	var doc struct {
		Snapshot   int64    `json:"snapshot"`
		Scope      string   `json:"scope"`
		Offers     int      `json:"offers"`
		Skipped    []string `json:"skipped"`
		Discovered []string `json:"discovered_instance_types"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	if doc.Offers != 600 || doc.Scope != "skypilot:lambda" || doc.Snapshot != 1 {
		t.Errorf("import: %+v", doc)
	}
	skips := strings.Join(doc.Skipped, "\n")
	for _, want := range []string{"1 duplicate offer (the first one was kept) (e.g. gpu_1x_a100_b0 us-east-1)", "1 price below 0.01 USD per GPU-hour (e.g. lambda/gpu_1x_a10_cheap/ANY/on-demand)", "1 no GPU",
		"601 one price in every region (one offer in the price-list region)"} {
		if !strings.Contains(skips, want) {
			t.Errorf("skips lack %q:\n%s", want, skips)
		}
	}
	history := func() string {
		out, errOut, code := exec(t, true, nil, "catalog", "history", "--offer", "lambda/gpu_1x_a100_b0/ANY/on-demand", "--db", db, "-o", "json")
		if code != 0 {
			t.Fatalf("history: exit %d %s", code, errOut)
		}
		return out
	}
	if h := history(); !strings.Contains(h, `"effective_hourly": 1.29`) || strings.Contains(h, "0.1,") {
		t.Errorf("history after the import (the first row of the pair kept):\n%s", h)
	}
	// A later file, cheaper, whose last row is broken: refused whole.
	bad := vmsFile(t, dir, "vms2.csv", 300, "0.99", "gpu_1x_a100_b1,A100,1.0,30.0,200.0,x,us-east-1,,\n")
	for _, lang := range []string{"en", "zh"} {
		_, errOut, code = exec(t, true, nil, "--lang", lang, "catalog", "import", "skypilot", "--cloud", "lambda", "--file", bad, "--db", db)
		if code == 0 || !strings.Contains(errOut, "line 605") || !strings.Contains(errOut, "Price") || !strings.Contains(errOut, `"x" is not a number`) {
			t.Errorf("%s: bad row: exit %d\n%s", lang, code, errOut)
		}
		if lang == "zh" && !strings.Contains(errOut, "未保存任何内容") {
			t.Errorf("zh: the error is not in Chinese:\n%s", errOut)
		}
	}
	out, _, _ = exec(t, true, nil, "catalog", "snapshots", "--db", db, "-o", "json")
	if strings.Count(out, `"Source"`) != 1 {
		t.Errorf("snapshots after the refused file:\n%s", out)
	}
	if h := history(); strings.Count(h, `"snapshot"`) != 1 || !strings.Contains(h, `"effective_hourly": 1.29`) {
		t.Errorf("history after the refused file:\n%s", h)
	}
}
