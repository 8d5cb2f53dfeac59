package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestUndatedPricesSaySo: a price whose source shows no date is never shown
// "as of" the day it was read — in the table (both languages), in JSON and
// in the freshness summary.
func TestEmbeddedUndatedPricesSaySo(t *testing.T) {
	args := []string{"offers", "--provider", "vast", "--gpu", "H100", "--limit", "3"}
	out, errOut, code := exec(t, true, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "undated (read 2026-12-03)") || strings.Contains(out, " 2026-12-03\n") {
		t.Errorf("English table does not mark the Vast prices undated:\n%s", out)
	}
	zh, _, _ := exec(t, true, nil, append(args, "--lang", "zh")...)
	if !strings.Contains(zh, "无日期（2026-12-03 读取）") {
		t.Errorf("Chinese table does not mark the Vast prices undated:\n%s", zh)
	}
	js, _, _ := exec(t, true, nil, append(args, "-o", "json")...)
	var doc struct {
		Offers []struct {
			ID     string `json:"id"`
			Source struct {
				AsOf    string `json:"as_of"`
				ReadOn  string `json:"read_on"`
				Undated bool   `json:"undated"`
			} `json:"source"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Offers) == 0 {
		t.Fatal("no Vast H100 offers")
	}
	for _, o := range doc.Offers {
		if o.Source.AsOf != "" || !o.Source.Undated || o.Source.ReadOn != "2026-12-03" {
			t.Errorf("%s: source as_of %q undated %v read_on %q; want undated, read 2026-12-03", o.ID, o.Source.AsOf, o.Source.Undated, o.Source.ReadOn)
		}
	}
	stats, _, _ := exec(t, true, nil, "catalog", "stats")
	if !strings.Contains(stats, "undated offers (the source shows no date; counted as not fresh, left out of the median age): ") {
		t.Errorf("catalog stats does not count undated prices:\n%s", stats)
	}
}

// TestRecommendOnUndatedPricesSaysSo: when every price behind the plans is
// undated, the advisor's closing line says so instead of printing an empty
// date range ("Prices as of  to .").
func TestRecommendOnUndatedPricesSaysSo(t *testing.T) {
	args := []string{"recommend", "--provider", "hyperstack", "--gpu", "H100", "--gpu-hours", "100"}
	out, errOut, code := exec(t, true, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "as of  to") || !strings.Contains(out, "The prices behind these plans are undated") {
		t.Errorf("English summary does not say the prices are undated:\n%s", out)
	}
	zh, _, _ := exec(t, true, nil, append(args, "--lang", "zh")...)
	if strings.Contains(zh, "价格日期  至") || !strings.Contains(zh, "这些方案所用价格均无日期") {
		t.Errorf("Chinese summary does not say the prices are undated:\n%s", zh)
	}
}
