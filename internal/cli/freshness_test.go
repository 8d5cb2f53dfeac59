package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFreshnessShown checks that catalog stats and version say, in English
// and Chinese, how many prices are within 12 months and their median age,
// and that stats names the refresh command for a provider without a public
// price file. The fixture's 20 offers: 11 within 12 months of the pinned
// day (55%), median age 315 days.
func TestFreshnessShown(t *testing.T) {
	en := map[string]string{"LANG": "en_US.UTF-8"}
	zh := map[string]string{"LANG": "zh_CN.UTF-8"}
	for _, tt := range []struct {
		env  map[string]string
		args []string
		want []string
	}{
		{en, []string{"catalog", "stats"}, []string{"MEDIAN AGE (DAYS)", "PRICED ≤12 MO", "prices within 12 months: 55% of 20 offers; median age 315 days",
			"tencent publishes no public price file", "gpuscout catalog update --provider tencent",
			"providers with a public price file: 91.7% of their 12 offers priced within 12 months (no public price file: tencent)"}},
		{zh, []string{"catalog", "stats"}, []string{"价格日期中位数", "12 个月内定价占比", "共 20 条报价中占 55%", "tencent 没有公开的价格文件", "TENCENTCLOUD_SECRET_ID",
			"有公开价格文件的厂商：其报价中 91.7%（共 12 条）在 12 个月内定价（没有公开价格文件：tencent）"}},
		{en, []string{"version"}, []string{"prices: 55% within 12 months, median age 315 days"}},
		{zh, []string{"version"}, []string{"价格：12 个月内的占 55%，价格日期中位数 315 天前"}},
	} {
		out, errOut, code := exec(t, false, tt.env, tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %v: output lacks %q:\n%s", tt.env["LANG"], tt.args, w, out)
			}
		}
	}
	out, _, _ := exec(t, false, en, "version", "-o", "json")
	var v struct {
		FreshShare float64 `json:"fresh_share"`
		Median     int     `json:"median_age_days"`
		By         map[string]struct {
			Share float64 `json:"fresh_share"`
		} `json:"freshness_by_provider"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.FreshShare != 0.55 || v.Median != 315 || v.By["tencent"].Share != 0 {
		t.Errorf("version JSON freshness = %+v", v)
	}
	// The stats JSON carries the same figure for the providers with a
	// public price file (11 of the fixture's 12 non-Tencent offers).
	out, _, _ = exec(t, false, en, "catalog", "stats", "-o", "json")
	var st struct {
		Files *struct {
			Offers  int      `json:"offers"`
			Fresh   int      `json:"fresh"`
			Without []string `json:"without"`
		} `json:"public_price_files"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Files == nil || st.Files.Offers != 12 || st.Files.Fresh != 11 || strings.Join(st.Files.Without, ",") != "tencent" {
		t.Errorf("stats JSON public_price_files = %+v", st.Files)
	}
}
