package spot_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

type priorFacts struct{ prior *catalog.InterruptionBand }

func (priorFacts) SpotFacts(string) (*catalog.SpotFacts, bool) { return nil, false }
func (priorFacts) InterruptionBand(string, string, string) (*catalog.InterruptionBand, bool) {
	return nil, false
}
func (f priorFacts) InterruptionPrior(string) (*catalog.InterruptionBand, bool) {
	return f.prior, f.prior != nil
}

func TestRiskForUsesAndNamesTheProviderPrior(t *testing.T) {
	o := &catalog.Offer{Provider: "acme", InstanceName: "big8", RegionCode: "us-east", Billing: catalog.Spot}
	src := catalog.Source{Kind: catalog.SourceOfficialDoc, Ref: "https://example.com/spot", AsOf: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)}
	rated := &catalog.InterruptionBand{Provider: "acme", InstanceName: "*", Region: "*", Band: "<10%", HighPct: decimal.NewFromInt(10), Source: src}
	r := spot.RiskFor(priorFacts{rated}, o, 0)
	if r.Prior == nil || !r.Prior.Rated || r.Assumed {
		t.Fatalf("rated prior: %+v", r)
	}
	if want := spot.MTBIFromMonthlyFraction(0.10); math.Abs(r.MTBI-want) > 1e-9 {
		t.Errorf("MTBI = %v, want %v", r.MTBI, want)
	}
	if !strings.Contains(r.Source, "prior") || !strings.Contains(r.Source, "<10%") {
		t.Errorf("source %q does not name the prior", r.Source)
	}
	unrated := &catalog.InterruptionBand{Provider: "acme", InstanceName: "*", Region: "*", Band: "no rate published", Source: src}
	r = spot.RiskFor(priorFacts{unrated}, o, 0)
	if r.Prior == nil || r.Prior.Rated || !r.Assumed || r.MTBI != spot.DefaultMTBI {
		t.Errorf("unrated prior: %+v", r)
	}
	mtbi := &catalog.InterruptionBand{Provider: "acme", InstanceName: "*", Region: "*", Band: "24 h", MTBIHours: decimal.NewFromInt(24), Source: src}
	if r = spot.RiskFor(priorFacts{mtbi}, o, 0); r.MTBI != 24 || r.Assumed {
		t.Errorf("mtbi prior: %+v", r)
	}
	if r = spot.RiskFor(priorFacts{}, o, 0); r.Prior != nil || !r.Assumed {
		t.Errorf("no prior: %+v", r)
	}
}

// TestUndatedPriorSaysUndated: a prior whose source shows no date is cited
// as undated (read …), never "as of" an empty date.
func TestUndatedPriorSaysUndated(t *testing.T) {
	o := &catalog.Offer{Provider: "acme", InstanceName: "big8", RegionCode: "us-east", Billing: catalog.Spot}
	src := catalog.Source{Kind: catalog.SourceOfficialDoc, Ref: "https://example.com/spot", ReadOn: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)}
	b := &catalog.InterruptionBand{Provider: "acme", InstanceName: "*", Region: "*", Band: "<10%", HighPct: decimal.NewFromInt(10), Source: src}
	r := spot.RiskFor(priorFacts{b}, o, 0)
	if !strings.Contains(r.Source, "undated (read 2026-12-03)") || strings.Contains(r.Source, "as of") {
		t.Errorf("source %q: want undated (read 2026-12-03), no as-of", r.Source)
	}
	if r.Prior == nil || r.Prior.AsOf != "" || r.Prior.ReadOn != "2026-12-03" {
		t.Errorf("prior %+v: want no as-of and read on 2026-12-03", r.Prior)
	}
}
