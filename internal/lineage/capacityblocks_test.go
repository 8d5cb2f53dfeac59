package lineage

import (
	"os"
	"strings"
	"testing"
)

func TestParseCapacityBlocksExcerpt(t *testing.T) {
	f, err := os.Open("testdata/capacity-blocks-aws/pricing.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := ParseCapacityBlocks(f)
	if err != nil {
		t.Fatal(err)
	}
	if tab.LastUpdated != "2026-07-22T07:14:56Z" {
		t.Errorf("last_updated = %s", tab.LastUpdated)
	}
	found := false
	for _, r := range tab.Rates {
		if r.InstanceType == "p5.48xlarge" && r.RegionCode == "us-east-1" {
			found = true
			if r.Hourly != "41.528" || r.AcceleratorHourly != "5.191" {
				t.Errorf("p5.48xlarge us-east-1 = %s (%s per GPU), want 41.528 (5.191) as the 2026-07-22 table shows", r.Hourly, r.AcceleratorHourly)
			}
		}
	}
	if !found {
		t.Error("no p5.48xlarge us-east-1 rate")
	}
}

func TestParseCapacityBlocksErrorsNameTheField(t *testing.T) {
	const ok = `{"metadata":{"last_updated":"2026-07-22T07:14:56Z"},"instance_types":{"p5.48xlarge":{"accelerator_count":8,"pricing":[%s]}}}`
	for _, tc := range []struct{ doc, want string }{
		{`{"instance_types":{}}`, "metadata.last_updated"},
		{strings.Replace(ok, "%s", `{"region_code":"us-east-1","accelerator_hourly_rate_usd":5}`, 1), "p5.48xlarge: pricing[0].hourly_rate_usd: missing"},
		{strings.Replace(ok, "%s", `{"region_code":"us-east-1","hourly_rate_usd":-1,"accelerator_hourly_rate_usd":5}`, 1), "pricing[0].hourly_rate_usd"},
		{strings.Replace(ok, "%s", `{"region_code":"US East","hourly_rate_usd":1,"accelerator_hourly_rate_usd":5}`, 1), "pricing[0].region_code"},
		{strings.Replace(ok, "%s", `{"region_code":"us-east-1","hourly_rate_usd":1,"accelerator_hourly_rate_usd":"x"}`, 1), "capacity blocks"},
		{strings.Replace(strings.Replace(ok, "%s", `{"region_code":"us-east-1","hourly_rate_usd":1,"accelerator_hourly_rate_usd":1},{"region_code":"us-east-1","hourly_rate_usd":1,"accelerator_hourly_rate_usd":1}`, 1), "", "", 1), "listed twice"},
		{strings.Replace(strings.Replace(ok, "%s", "", 1), `"accelerator_count":8,`, "", 1), "accelerator_count"},
	} {
		_, err := ParseCapacityBlocks(strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to name %q", tc.doc, err, tc.want)
		}
	}
}

func FuzzParseCapacityBlocks(f *testing.F) {
	b, err := os.ReadFile("testdata/capacity-blocks-aws/pricing.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add(`{"metadata":{"last_updated":"2026-07-22T07:14:56Z"},"instance_types":{"a":{"accelerator_count":1,"pricing":[{"region_code":"b","hourly_rate_usd":1e3,"accelerator_hourly_rate_usd":1}]}}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		tab, err := ParseCapacityBlocks(strings.NewReader(doc))
		if err != nil {
			return
		}
		for _, r := range tab.Rates {
			if !validToken(r.InstanceType) || !validToken(r.RegionCode) || r.Hourly == "" || r.AcceleratorHourly == "" {
				t.Fatalf("accepted a bad rate %+v", r)
			}
		}
	})
}
