package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestWindowsRatesEndToEnd imports an AWS offer file that carries a
// licence-included Windows SKU (test data, illustrative prices), then asks
// what a user would: the Windows rates, the default listing (Linux only)
// and a Windows workstation's plan, in English and Chinese.
func TestWindowsRatesEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	if out, errOut, code := exec(t, true, nil, "offers", "--os", "windows", "--db", db); code != 0 ||
		!strings.Contains(out, "The catalog has no Windows rate") {
		t.Fatalf("before any import: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := exec(t, true, nil, "catalog", "import", "aws", "--file", "../importer/aws/testdata/offer-windows.json", "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	var doc struct {
		Offers []struct{ ID, OS string }
	}
	out, errOut, code := exec(t, true, nil, "offers", "--os", "windows", "--gpu", "T4", "--db", db, "-o", "json")
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if len(doc.Offers) != 2 || doc.Offers[0].ID != "aws/g4dn.xlarge/us-east-1/reserved-1y-no-upfront/windows" || doc.Offers[0].OS != "windows" ||
		doc.Offers[1].ID != "aws/g4dn.xlarge/us-east-1/on-demand/windows" {
		t.Errorf("Windows offers %+v", doc.Offers)
	}
	out, _, _ = exec(t, true, nil, "offers", "--gpu", "T4", "--limit", "0", "--db", db, "-o", "json")
	if json.Unmarshal([]byte(out), &doc) != nil || len(doc.Offers) == 0 {
		t.Fatalf("default listing:\n%s", out)
	}
	for _, o := range doc.Offers {
		if o.OS != "linux" || strings.HasSuffix(o.ID, "/windows") {
			t.Errorf("the default listing shows %s (%s)", o.ID, o.OS)
		}
	}
	out, _, _ = exec(t, true, nil, "offers", "--os", "windows", "--gpu", "T4", "--db", db, "-o", "csv")
	if !strings.HasSuffix(strings.SplitN(out, "\n", 2)[0], ",OS") || !strings.Contains(out, ",windows\n") {
		t.Errorf("CSV without the OS column:\n%s", out)
	}
	for lang, want := range map[string][]string{
		"en": {"0.7100", "Windows rates: the Windows licence is included in each price"},
		"zh": {"按量付费", "Windows 价格：每个价格都含 Windows 许可证"},
	} {
		out, _, code := exec(t, true, nil, "offers", "--os", "windows", "--gpu", "T4", "--db", db, "--lang", lang)
		for _, w := range want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("%s: exit %d, no %q in\n%s", lang, code, w, out)
			}
		}
	}
	// A T4 Windows workstation, 200 GPU-hours, cheapest first.
	for lang, want := range map[string]string{"en": "Windows rate, licence included", "zh": "Windows 价格，含 Windows 许可证"} {
		out, errOut, code := exec(t, true, nil, "recommend", "--os", "windows", "--gpu", "T4", "--max-gpus", "1", "--provider", "aws", "--gpu-hours", "200",
			"--priority", "cost", "--db", db, "--lang", lang, "-o", "json")
		var rec struct {
			Plans []struct {
				Offer, OS       string
				Reasons         []string
				PriceLowerBound bool `json:"price_lower_bound"`
			}
		}
		if code != 0 || json.Unmarshal([]byte(out), &rec) != nil || len(rec.Plans) == 0 {
			t.Fatalf("%s: exit %d\n%s%s", lang, code, out, errOut)
		}
		if rec.Plans[0].Offer != "aws/g4dn.xlarge/us-east-1/on-demand/windows" || rec.Plans[0].OS != "windows" || !strings.Contains(strings.Join(rec.Plans[0].Reasons, "\n"), want) {
			t.Errorf("%s: top plan %s:\n%s", lang, rec.Plans[0].Offer, strings.Join(rec.Plans[0].Reasons, "\n"))
		}
		// A plan at a Windows rate is a price; one at the Linux rate is a
		// lower bound, and says so in JSON.
		for _, pl := range rec.Plans {
			if pl.PriceLowerBound != (pl.OS != "windows") {
				t.Errorf("%s: %s (os %s): price_lower_bound %v", lang, pl.Offer, pl.OS, pl.PriceLowerBound)
			}
		}
	}
	// In the table, a lower bound's total reads "≥ …"; a Windows rate's does not.
	out, errOut, code = exec(t, true, nil, "recommend", "--os", "windows", "--gpu", "T4", "--max-gpus", "1", "--provider", "aws", "--gpu-hours", "200",
		"--priority", "cost", "--db", db)
	if code != 0 {
		t.Fatalf("table: exit %d\n%s%s", code, out, errOut)
	}
	var first, bound bool
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "1 ") && !strings.Contains(line, "≥") {
			first = true
		}
		if strings.Contains(line, "g4dn") && strings.Contains(line, "≥ ") {
			bound = true
		}
	}
	if !first || !bound {
		t.Errorf("table: first plan a price %v, some plan a lower bound %v:\n%s", first, bound, out)
	}
	if out, errOut, code := exec(t, true, nil, "catalog", "history", "--offer", "aws/g4dn.xlarge/us-east-1/on-demand/windows", "--db", db); code != 0 || !strings.Contains(out, "0.71") {
		t.Errorf("history of the Windows rate: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := exec(t, true, nil, "offers", "--os", "macos", "--db", db); code != 2 || !strings.Contains(errOut, `unknown operating system "macos"`) {
		t.Errorf("--os macos: exit %d\n%s", code, errOut)
	}
}
