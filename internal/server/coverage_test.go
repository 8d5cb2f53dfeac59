package server_test

import (
	"strings"
	"testing"
)

// TestAboutShowsBillingCoverage: the About page carries the provider ×
// billing-model matrix, the spot coverage line and the reasons for missing
// prices, in English and Chinese.
func TestAboutShowsBillingCoverage(t *testing.T) {
	srv := newServer(t)
	for _, tt := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"Billing models and coverage gaps", "data-coverage", "subscription-1y", "Spot offers:", "WHY NO PRICE", "coverage gaps in all"}},
		{"zh", []string{"计费方式与覆盖缺口", "包年", "竞价/抢占式报价", "缺少价格的原因", "覆盖缺口", "未编造价格"}},
	} {
		rec := get(t, srv, "/about?lang="+tt.lang)
		body := rec.Body.String()
		if rec.Code != 200 {
			t.Fatalf("%s: status %d", tt.lang, rec.Code)
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: about page lacks %q", tt.lang, w)
			}
		}
	}
}
