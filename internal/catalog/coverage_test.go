package catalog_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
)

func TestSpotWithoutOnDemandSiblingIsRejected(t *testing.T) {
	d := catalogtest.Data()
	orphan := &catalog.Offer{Provider: "acme", InstanceName: "small1", RegionCode: "eu-west", Billing: catalog.Spot,
		Price: catalog.Price{Hourly: D("0.4"), Currency: "USD"}, Source: catalogtest.Src()}
	d.Offers = append(d.Offers, orphan)
	d.Positions = map[any]catalog.Position{orphan: {File: "offers/acme.csv", Line: 9}}
	_, err := catalog.New(d)
	var ve *catalog.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("New = %v, want a validation error", err)
	}
	msg := err.Error()
	for _, want := range []string{"offers/acme.csv:9", "acme/small1/eu-west/spot", "billing", "on-demand"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not name %q", msg, want)
		}
	}
}

func TestGapsAndSpotCoverage(t *testing.T) {
	d := catalogtest.Data()
	d.Billing = []*catalog.BillingModel{
		{Provider: "acme", Billing: catalog.Spot, Sold: true, GapReason: "no feed", GapReasonZH: "无来源", Source: catalogtest.Src()},
		{Provider: "panda", Billing: catalog.Subscription1y, Sold: true, GapReason: "no yearly price", GapReasonZH: "无包年价格", Source: catalogtest.Src()},
		{Provider: "panda", Billing: catalog.Subscription1m, Sold: true, Source: catalogtest.Src()},
	}
	d.Interrupt = []*catalog.InterruptionBand{
		{Provider: "acme", InstanceName: catalog.AnyInstance, Region: catalog.AnyInstance, Band: "<10%", BandZH: "<10%", HighPct: D("10"), Source: catalogtest.Src()},
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	gaps := c.Gaps()
	got := map[string]string{}
	for _, g := range gaps {
		got[g.Provider+"/"+g.InstanceName+"/"+g.Region+"/"+string(g.Billing)] = g.Reason
	}
	want := map[string]string{
		// acme sells spot: every on-demand offer without a spot sibling is a gap
		"acme/big8/eu-west/spot":   "no feed",
		"acme/small1/us-east/spot": "no feed",
		"acme/slice/us-east/spot":  "no feed",
		// panda has 包月 but not 包年
		"panda/gpu.8x80/cn-north/subscription-1y": "no yearly price",
	}
	if len(got) != len(want) {
		t.Errorf("gaps = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("gap %s: reason %q, want %q", k, got[k], v)
		}
	}
	s := c.StatsWithCoverage()
	if s.Gaps != 4 || s.ByProvider["panda"].GapsByBilling[catalog.Subscription1y] != 1 || s.ByProvider["panda"].OffersByBilling[catalog.Subscription1m] != 1 {
		t.Errorf("stats gaps = %d, panda = %+v", s.Gaps, s.ByProvider["panda"])
	}
	sp := s.Spot
	if sp.Offers != 1 || sp.WithSibling != 1 || sp.Prior != 1 || sp.PriorRated != 1 || sp.Band != 0 || sp.Covered() != 1 {
		t.Errorf("spot coverage = %+v", sp)
	}
	if pr, ok := c.InterruptionPrior("acme"); !ok || !pr.IsPrior() {
		t.Error("acme prior not found")
	}
	if _, ok := c.InterruptionBand("acme", "big8", "us-east"); ok {
		t.Error("a prior must not answer as a published band")
	}
}

func TestPriorMustBeProviderWide(t *testing.T) {
	d := catalogtest.Data()
	d.Interrupt = []*catalog.InterruptionBand{
		{Provider: "acme", InstanceName: catalog.AnyInstance, Region: "us-east", Band: "<10%", Source: catalogtest.Src()},
	}
	if _, err := catalog.New(d); err == nil || !strings.Contains(err.Error(), "provider-level prior") {
		t.Errorf("New = %v, want a provider-level prior error", err)
	}
}

func TestBillingModelValidation(t *testing.T) {
	d := catalogtest.Data()
	d.Billing = []*catalog.BillingModel{{Provider: "acme", Billing: "yearly", Sold: true, Source: catalogtest.Src()}}
	if _, err := catalog.New(d); err == nil || !strings.Contains(err.Error(), "canonical billing code") {
		t.Errorf("New = %v, want a billing code error", err)
	}
	d.Billing = []*catalog.BillingModel{{Provider: "acme", Billing: catalog.Spot, Sold: true, GapReason: "no feed", Source: catalogtest.Src()}}
	if _, err := catalog.New(d); err == nil || !strings.Contains(err.Error(), "gap_reason_zh") {
		t.Errorf("New = %v, want a missing Chinese reason error", err)
	}
}
