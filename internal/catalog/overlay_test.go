package catalog_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
)

func imported(p, inst, region string, b catalog.Billing, price catalog.Price) *catalog.Offer {
	return &catalog.Offer{Provider: p, InstanceName: inst, RegionCode: region, Billing: b, Price: price, Source: catalogtest.Src()}
}

func known(codes ...string) catalog.CurrencyKnown {
	return func(c string) bool {
		for _, k := range codes {
			if c == k {
				return true
			}
		}
		return false
	}
}

// TestImportsWithUnusableDataAreRejected: one bad stored record is left
// out and named, never a failed catalog; the rest of the import is used,
// and where the bad record replaced a curated one the curated one stands.
func TestImportsWithUnusableDataAreRejected(t *testing.T) {
	offers := []*catalog.Offer{
		// replaces the curated 20 USD/h offer, but nothing converts XYZ
		imported("acme", "big8", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("19"), Currency: "XYZ"}),
		// a good import that must still be used
		imported("acme", "small1", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("0.9"), Currency: "USD"}),
		// a spot price above on-demand fails validation
		imported("acme", "small1", "us-east", catalog.Spot, catalog.Price{Hourly: D("5"), Currency: "USD"}),
		// outside the catalog's coverage: dropped quietly, not a warning,
		// whatever the currency
		imported("acme", "nosuch", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("1"), Currency: "XYZ"}),
	}
	bands := []*catalog.InterruptionBand{
		{Provider: "acme", InstanceName: "big8", Region: "us-east", Band: "10-5%", LowPct: D("10"), HighPct: D("5"), Period: "month", Source: catalogtest.Src()},
		{Provider: "acme", InstanceName: "small1", Region: "us-east", Band: "<5%", LowPct: D("0"), HighPct: D("5"), Period: "month", Source: catalogtest.Src()},
	}
	c, rep, err := catalog.NewWithImports(catalogtest.Data(), offers, bands, known("USD", "CNY"))
	if err != nil {
		t.Fatalf("one bad stored record failed the whole catalog: %v", err)
	}
	want := map[string]catalog.RejectReason{
		"acme/big8/us-east/on-demand": catalog.RejectCurrency,
		"acme/small1/us-east/spot":    catalog.RejectInvalid,
		"acme/big8/us-east":           catalog.RejectInvalid,
	}
	if len(rep.Rejected) != len(want) {
		t.Fatalf("rejected %v, want %d records", rep.Rejected, len(want))
	}
	for _, r := range rep.Rejected {
		if want[r.Record] != r.Reason {
			t.Errorf("rejected %s for %s, want %q", r.Record, r.Reason, want[r.Record])
		}
		if r.Reason == catalog.RejectCurrency && r.Detail != "XYZ" {
			t.Errorf("currency rejection detail %q, want XYZ", r.Detail)
		}
		if r.Reason == catalog.RejectInvalid && r.Detail == "" {
			t.Errorf("%s rejected without saying why", r.Record)
		}
	}
	if o, ok := c.Offer("acme/big8/us-east/on-demand"); !ok || o.Price.Currency != "USD" || !o.Price.Hourly.Equal(D("20")) {
		t.Errorf("the curated offer should stand when its import is rejected: %+v", o)
	}
	if o, ok := c.Offer("acme/small1/us-east/on-demand"); !ok || !o.Price.Hourly.Equal(D("0.9")) {
		t.Errorf("the good import is not used: %+v", o)
	}
	if _, ok := c.Offer("acme/small1/us-east/spot"); ok {
		t.Error("the invalid spot offer is in the catalog")
	}
	if _, ok := c.InterruptionBand("acme", "big8", "us-east"); ok {
		t.Error("the invalid band (high below low) is in the catalog")
	}
	if _, ok := c.InterruptionBand("acme", "small1", "us-east"); !ok {
		t.Error("the valid band is not in the catalog")
	}
	if len(rep.Dropped) != 1 || rep.Dropped[0].Record != "acme/nosuch/us-east/on-demand" {
		t.Errorf("dropped %v", rep.Dropped)
	}
	// Every row of a query can be priced now, in any known currency.
	rows, err := c.QueryOffers(catalog.OfferQuery{Currency: "USD", FX: fixedFX{}})
	if err != nil || len(rows) == 0 {
		t.Fatalf("query after rejection: %d rows, %v", len(rows), err)
	}
}

// TestCuratedFigureContradictedByImportIsRejected: a newer imported
// on-demand price below a curated spot price leaves the curated spot offer
// out (named), instead of failing the catalog.
func TestCuratedFigureContradictedByImportIsRejected(t *testing.T) {
	offers := []*catalog.Offer{imported("acme", "big8", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("7"), Currency: "USD"})}
	c, rep, err := catalog.NewWithImports(catalogtest.Data(), offers, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rep.Rejected {
		ids = append(ids, r.Record)
		if !strings.Contains(r.Detail, "curated") {
			t.Errorf("%s: detail %q should say the curated figure was contradicted", r.Record, r.Detail)
		}
	}
	if strings.Join(ids, ",") != "acme/big8/us-east/spot,acme/big8/us-east/reserved-1y-partial-upfront" {
		t.Errorf("rejected %v, want the curated spot (8 USD/h) and reserved (13 USD/h effective) offers, above the imported 7 USD/h on-demand", ids)
	}
	if o, _ := c.Offer("acme/big8/us-east/on-demand"); !o.Price.Hourly.Equal(D("7")) {
		t.Errorf("imported on-demand price not used: %s", o.Price.Hourly)
	}
}

// TestInvalidCuratedDataStillFails: only imports are worked around; a
// broken curated catalog is still an error.
func TestInvalidCuratedDataStillFails(t *testing.T) {
	d := catalogtest.Data()
	d.Offers[0].Price.Currency = "usd"
	if _, _, err := catalog.NewWithImports(d, nil, nil, nil); err == nil {
		t.Fatal("invalid curated data accepted")
	}
}

// TestRepeatedImportReplacesEarlier: an import that prices an offer twice
// keeps the later price (counted as a replacement), an import of a curated
// offer replaces it in place, the catalog's index finds each offer by ID,
// and duplicated curated offers still fail validation with imports.
func TestRepeatedImportReplacesEarlier(t *testing.T) {
	offers := []*catalog.Offer{
		imported("acme", "small1", "eu-west", catalog.OnDemand, catalog.Price{Hourly: D("1.5"), Currency: "USD"}),
		imported("acme", "big8", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("19"), Currency: "USD"}),
		imported("acme", "small1", "eu-west", catalog.OnDemand, catalog.Price{Hourly: D("1.2"), Currency: "USD"}),
		imported("acme", "big8", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("18"), Currency: "USD"}),
	}
	d := catalogtest.Data()
	nCurated := len(d.Offers)
	c, rep, err := catalog.NewWithImports(d, offers, nil, known("USD"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added != 1 || rep.Replaced != 3 || len(rep.Rejected) != 0 {
		t.Errorf("added %d, replaced %d, rejected %v; want 1 added, 3 replaced, none rejected", rep.Added, rep.Replaced, rep.Rejected)
	}
	if len(c.Offers()) != nCurated+1 {
		t.Errorf("%d offers, want %d", len(c.Offers()), nCurated+1)
	}
	for id, want := range map[string]string{"acme/small1/eu-west/on-demand": "1.2", "acme/big8/us-east/on-demand": "18", "acme/big8/us-east/spot": "8"} {
		o, ok := c.Offer(id)
		if !ok || o.Price.Hourly.String() != want {
			t.Errorf("Offer(%s) = %v, %v; want hourly %s", id, o, ok, want)
		}
	}
	for i, o := range c.Offers() {
		if got, ok := c.Offer(o.ID()); !ok || got != o {
			t.Errorf("offer %d (%s) not indexed by its ID", i, o.ID())
		}
	}
	d = catalogtest.Data()
	d.Offers = append(d.Offers, d.Offers[0])
	if _, _, err := catalog.NewWithImports(d, offers, nil, known("USD")); err == nil || !strings.Contains(err.Error(), "duplicate offer") {
		t.Errorf("duplicated curated offer with imports: %v, want a duplicate offer error", err)
	}
}
