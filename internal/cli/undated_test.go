package cli_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
)

// undatedID is the offer the undated test catalog marks undated: AWS
// p5.48xlarge on demand in us-east-1, 55.04 USD/h, the same price as the
// dated us-west-2 offer, whose ID sorts after it.
const (
	undatedID     = "aws/p5.48xlarge/us-east-1/on-demand"
	undatedReadOn = "2026-12-01"
)

// undatedCatalog is testdata/catalog with undatedID undated.
func undatedCatalog(t *testing.T) fs.FS {
	t.Helper()
	cat, err := catalogtest.WithUndatedOffer(os.DirFS("testdata/catalog"), "aws.csv", undatedID, undatedReadOn)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestUndatedOfferInEveryCLIFace: an offer whose source shows no date is
// shown as undated (read …) in the offers table in both languages, has
// as_of null, read_on and undated in JSON, sorts after the dated offer of
// the same price, and counts as not fresh in catalog stats.
func TestUndatedOfferInEveryCLIFace(t *testing.T) {
	cat := undatedCatalog(t)
	run := func(lang string, args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(cat, now, map[string]string{"LANG": lang}, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	for _, tt := range []struct{ lang, want string }{
		{"en_US.UTF-8", "undated (read " + undatedReadOn + ")"},
		{"zh_CN.UTF-8", "无日期（" + undatedReadOn + " 读取）"},
	} {
		out := run(tt.lang, "offers", "--provider", "aws", "--gpu", "H100", "--billing", "on-demand", "--currency", "USD")
		lines := strings.Split(out, "\n")
		west, east := -1, -1
		for i, l := range lines {
			if strings.Contains(l, "us-west-2") && strings.Contains(l, "55.04") {
				west = i
			}
			if strings.Contains(l, "us-east-1") && strings.Contains(l, "55.04") {
				east = i
				if !strings.Contains(l, tt.want) {
					t.Errorf("%s: undated row %q does not say %q", tt.lang, l, tt.want)
				}
			}
		}
		if west < 0 || east < 0 || west > east {
			t.Errorf("%s: the dated us-west-2 row (line %d) must come before the undated us-east-1 row of the same price (line %d):\n%s", tt.lang, west, east, out)
		}
	}

	var offers struct {
		Offers []struct {
			ID     string         `json:"id"`
			Source map[string]any `json:"source"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(run("en", "offers", "--provider", "aws", "--gpu", "H100", "--billing", "on-demand", "-o", "json")), &offers); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range offers.Offers {
		ids = append(ids, o.ID)
		if o.ID != undatedID {
			if _, ok := o.Source["undated"]; ok || o.Source["as_of"] == nil {
				t.Errorf("dated %s: source %v", o.ID, o.Source)
			}
			continue
		}
		if v, ok := o.Source["as_of"]; !ok || v != nil {
			t.Errorf("%s: as_of = %v (present %v), want null", o.ID, v, ok)
		}
		if o.Source["read_on"] != undatedReadOn || o.Source["undated"] != true {
			t.Errorf("%s: source %v, want read_on %s and undated true", o.ID, o.Source, undatedReadOn)
		}
	}
	if got := strings.Join(ids, " "); !strings.Contains(got, "aws/p5.48xlarge/us-west-2/on-demand "+undatedID) {
		t.Errorf("JSON order %s: the dated offer must precede the undated one of the same price", got)
	}

	// Freshness: the row was dated 2026-07-20 (fresh on the test day);
	// undated, it counts as not fresh and has no age.
	type stats struct {
		Offers     int     `json:"offers"`
		FreshShare float64 `json:"fresh_share"`
		Undated    int     `json:"undated_offers"`
		ByProvider map[string]struct {
			Undated *int `json:"undated_offers"`
		} `json:"by_provider"`
	}
	var base, got stats
	baseOut, _, _ := runCLI(os.DirFS("testdata/catalog"), now, nil, "", "catalog", "stats", "-o", "json")
	if err := json.Unmarshal([]byte(baseOut), &base); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(run("en", "catalog", "stats", "-o", "json")), &got); err != nil {
		t.Fatal(err)
	}
	fresh := func(s stats) int { return int(s.FreshShare*float64(s.Offers) + 0.5) }
	if got.Offers != base.Offers || fresh(got) != fresh(base)-1 {
		t.Errorf("stats: %d offers, %d fresh; want %d offers, %d fresh (the undated one not fresh)", got.Offers, fresh(got), base.Offers, fresh(base)-1)
	}
	if base.Undated != 0 || got.Undated != 1 || got.ByProvider["aws"].Undated == nil || *got.ByProvider["aws"].Undated != 1 {
		t.Errorf("undated_offers: base %d, got %d, aws %v; want 0, 1, 1", base.Undated, got.Undated, got.ByProvider["aws"].Undated)
	}
	for _, tt := range []struct{ lang, want string }{
		{"en_US.UTF-8", "undated offers (the source shows no date; counted as not fresh, left out of the median age): 1"},
		{"zh_CN.UTF-8", "无日期的报价（来源未注明日期；计为不新鲜，不计入日期中位数）：1 条"},
	} {
		for _, o := range []string{"table", "markdown"} {
			if out := run(tt.lang, "catalog", "stats", "-o", o); !strings.Contains(out, tt.want) {
				t.Errorf("catalog stats -o %s (%s) lacks %q:\n%s", o, tt.lang, tt.want, out)
			}
		}
	}
	for _, tt := range []struct{ lang, want string }{
		{"en_US.UTF-8", "undated (read " + undatedReadOn + ")"},
		{"zh_CN.UTF-8", "无日期（" + undatedReadOn + " 读取）"},
	} {
		if out := run(tt.lang, "cost", "--offer", undatedID); !strings.Contains(out, tt.want) {
			t.Errorf("cost (%s) does not show %q:\n%s", tt.lang, tt.want, out)
		}
	}
	if out := run("en", "catalog", "validate"); !strings.Contains(out, "1 offer(s) have undated prices") {
		t.Errorf("catalog validate does not count the undated price:\n%s", out)
	}
	if out := run("en", "catalog", "validate", "-o", "json"); !strings.Contains(out, undatedID) || !strings.Contains(out, "undated (read "+undatedReadOn+")") {
		t.Errorf("catalog validate does not warn of the undated price:\n%s", out)
	}
	if out := run("en", "catalog", "sources", "-o", "csv"); !strings.Contains(out, "undated (read "+undatedReadOn+")") {
		t.Errorf("catalog sources does not show the undated record:\n%s", out)
	}
}
