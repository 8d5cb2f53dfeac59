package lineage

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// What does an a2-highgpu-1g cost in us-central1 on demand and on a 1-year
// commitment, and from which build? The file's hour, and its month_1y over
// 730 hours, dated by the file's own generated stamp; no spot row (the
// catalog keeps the later build's spot prices), and no row where a listing
// does not name the region.
func TestCyclenerdGCPRows(t *testing.T) {
	m := rowsByKey(t, cyclenerdGCP(), "testdata/cyclenerd-gcp")
	if len(m) != 748 {
		t.Errorf("got %d rows, want 748", len(m))
	}
	for key, want := range map[string]string{
		"a2-highgpu-1g/us-central1/on-demand":    "3.673385",
		"a2-highgpu-1g/us-central1/committed-1y": "2.314207", // 1689.3711392 / 730
		"a2-highgpu-1g/me-west1/committed-1y":    "2.545628", // 1858.308075 / 730 = 2.5456275
	} {
		r, ok := m[key]
		if !ok || r.Hourly != want || r.AsOf != "2026-07-30" {
			t.Errorf("%s = %+v, want %s as of 2026-07-30", key, r, want)
		}
	}
	for key, r := range m {
		if r.Billing == "spot" {
			t.Errorf("%s: spot generated", key)
		}
		if strings.HasPrefix(key, "a3-megagpu-8g/us-central1/") || key == "a3-highgpu-1g/us-central1/on-demand" {
			t.Errorf("%s: generated, but no price in the file or priced from a later source", key)
		}
	}
}

// A cost that is not a positive number is an error naming the type and
// region; a region one listing leaves out gives no row.
func TestCyclenerdGCPRejects(t *testing.T) {
	head := "---\nabout:\n  generated: Thu Jul 30 06:13:17 2026\ncompute:\n  instance:\n    a2-highgpu-1g:\n      cost:\n"
	list := "NAME;CPUS;SHARED_CPU;MEMORY_GB;DEPRECATED;ZONE\na2-highgpu-1g;12;False;85.00;;us-central1\n"
	fsys := func(cost string) fstest.MapFS {
		return fstest.MapFS{
			"pricing.yml":                    {Data: []byte(head + cost)},
			"machinetyperegion-ccf1eea5.csv": {Data: []byte(list)},
			"machinetyperegion-0026ae3a.csv": {Data: []byte(list)},
		}
	}
	if _, err := cyclenerdGCP().Generate(fsys("        us-central1:\n          hour: -1\n")); err == nil || !strings.Contains(err.Error(), "a2-highgpu-1g/us-central1") {
		t.Errorf("negative hour: got %v, want an error naming the offer", err)
	}
	rows, err := cyclenerdGCP().Generate(fsys("        us-central1:\n          hour: 3.5\n        us-east1:\n          hour: 3.6\n"))
	if err != nil || len(rows) != 1 || rows[0].Region != "us-central1" {
		t.Errorf("got %+v, %v; want one us-central1 row", rows, err)
	}
}

// FuzzCyclenerdPricing: any pricing.yml text parses or is an error, never a
// panic.
func FuzzCyclenerdPricing(f *testing.F) {
	if b, err := os.ReadFile("testdata/cyclenerd-gcp/pricing.yml"); err == nil && len(b) > 4000 {
		f.Add(string(b[:4000]))
	}
	f.Add("about:\n  generated: Thu Jul 30 06:13:17 2026\ncompute:\n  instance:\n    x:\n      cost:\n        r: 1\n")
	f.Add("- [")
	f.Fuzz(func(t *testing.T, text string) {
		_, _, _ = parseCyclenerdPricing([]byte(text))
	})
}
