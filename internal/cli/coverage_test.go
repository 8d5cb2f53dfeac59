package cli_test

import (
	"strings"
	"testing"
)

// TestCoverageInStatsAndTCO checks, on the embedded catalog, that catalog
// stats shows the billing-model matrix and spot coverage, and that tco names
// the 包年包月 models a provider sells but the catalog cannot price, in
// English and Chinese.
func TestCoverageInStatsAndTCO(t *testing.T) {
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"Billing models", "✗", "Spot offers:", "with an on-demand sibling", "coverage gaps",
			"alibaba/ecs.gn7i-c8g1.2xlarge/cn-beijing: subscription-1m is sold but the catalog has no price for it",
			"subscription-1y beats on-demand for GT4.4XLARGE96", "utilisation"}},
		{"zh", []string{"计费方式", "包月", "包3年", "竞价/抢占式报价", "覆盖缺口", "厂商出售包年", "年付折扣规则"}},
	} {
		out, errOut, code := exec(t, true, nil, "--lang", tt.lang, "catalog", "stats")
		if code != 0 {
			t.Fatalf("%s stats: exit %d: %s", tt.lang, code, errOut)
		}
		out2, errOut, code := exec(t, true, nil, "--lang", tt.lang, "tco", "--months", "12",
			"--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1y",
			"--offer", "alibaba/ecs.gn7i-c8g1.2xlarge/cn-beijing/on-demand")
		if code != 0 {
			t.Fatalf("%s tco: exit %d: %s", tt.lang, code, errOut)
		}
		all := out + out2
		for _, w := range tt.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: output lacks %q", tt.lang, w)
			}
		}
	}
}

// TestRecommendNamesUnpricedSubscriptions: a steady 24/7 service in
// mainland China weighs Tencent's subscriptions (with their break-even
// utilisation) and says which Alibaba 包年包月 models it could not weigh.
func TestRecommendNamesUnpricedSubscriptions(t *testing.T) {
	out, errOut, code := exec(t, true, nil, "recommend", "--residency", "cn-mainland", "--cluster-gpus", "1",
		"--horizon-months", "12", "--utilization", "1", "--gpu", "T4,A10", "--limit", "20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"tencent/", "subscription-1y", "utilisation, on-demand would be cheaper than this commitment",
		"alibaba/", "subscription-1m is sold but the catalog has no price for it"} {
		if !strings.Contains(out, w) {
			t.Errorf("recommend output lacks %q", w)
		}
	}
}

// TestSpotNamesTheProviderPrior: a spot offer without a published band is
// answered from its provider's documented prior, named in both languages.
func TestSpotNamesTheProviderPrior(t *testing.T) {
	for lang, want := range map[string][]string{
		"en": {"Prior: nothing is published for this instance type in this region", "24 h (preemptible maximum run time)"},
		"zh": {"先验：该实例规格在该地域没有公布的中断数据", "抢占式虚拟机最长运行 24 小时"},
	} {
		out, errOut, code := exec(t, true, nil, "--lang", lang, "spot", "--offer", "gcp/a2-highgpu-1g/us-central1/spot", "--work-hours", "12", "--trials", "2000")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", lang, code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: spot output lacks %q", lang, w)
			}
		}
	}
}
