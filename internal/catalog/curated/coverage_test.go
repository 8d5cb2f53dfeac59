package curated_test

import (
	"testing"
)

// TestEmbeddedBillingCoverage checks the promises of the billing-model and
// spot coverage work on the embedded catalog: every spot offer has its
// on-demand sibling, at least 90% of spot offers carry interruption facts
// (a published band or a documented provider-level prior), and every
// provider that sells a billing model it has no price for says why.
func TestEmbeddedBillingCoverage(t *testing.T) {
	c := load(t)
	sp := c.SpotCoverage()
	if sp.Offers == 0 {
		t.Fatal("no spot offers")
	}
	if sp.WithSibling != sp.Offers {
		t.Errorf("%d of %d spot offers have an on-demand sibling", sp.WithSibling, sp.Offers)
	}
	if sp.Covered() < 0.9 {
		t.Errorf("interruption facts cover %.0f%% of spot offers, want >= 90%%", 100*sp.Covered())
	}
	for _, p := range []string{"aws", "azure", "gcp", "alibaba", "tencent"} {
		if _, ok := c.InterruptionPrior(p); !ok {
			t.Errorf("%s: no provider-level interruption prior", p)
		}
		sold := 0
		for _, m := range c.BillingModels(p) {
			if m.Sold {
				sold++
			}
		}
		if sold < 2 {
			t.Errorf("%s: %d billing models besides on-demand declared, want >= 2", p, sold)
		}
	}
	for _, g := range c.Gaps() {
		if g.Reason == "" {
			t.Errorf("gap %s/%s/%s/%s has no reason", g.Provider, g.InstanceName, g.Region, g.Billing)
		}
	}
}
