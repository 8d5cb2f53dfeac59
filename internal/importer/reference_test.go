package importer_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// embeddedChecker is a checker over the embedded catalog, as the import
// command builds it.
func embeddedChecker(t *testing.T) (importer.Checker, *catalog.Catalog) {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	c := ds.Catalog
	toUSD := func(a decimal.Decimal, cur string) (decimal.Decimal, bool) {
		v, err := ds.FX.Convert(a, cur, "USD")
		return v, err == nil
	}
	gpuOf := func(p, in string) (string, decimal.Decimal, bool) {
		it, ok := c.Instance(p + "/" + in)
		if !ok || it.GPUID == "" {
			return "", decimal.Zero, false
		}
		return it.GPUID, it.GPUCount, true
	}
	return importer.Checker{File: "answer.json", ToUSD: toUSD, Currencies: ds.FX.Currencies(), GPUOf: gpuOf,
		Reference: importer.NewPriceReference(c.Offers(), gpuOf, toUSD)}, c
}

// TestEveryCuratedPricePassesTheReference: no price the curated catalog
// publishes (spot prices 90% off included) would be skipped as
// implausible, had it come from an import.
func TestEveryCuratedPricePassesTheReference(t *testing.T) {
	chk, c := embeddedChecker(t)
	judged := 0
	for _, o := range c.Offers() {
		if _, ok := chk.Reference.Median(mustGPU(c, o)); ok {
			judged++
		}
		if reason, id, err := chk.CheckOffer(o); err != nil || reason == importer.SkipBelowReference {
			t.Errorf("%s: %q %v", id, reason, err)
		}
	}
	if judged < len(c.Offers())*9/10 {
		t.Errorf("only %d of %d curated offers have a reference", judged, len(c.Offers()))
	}
}

func mustGPU(c *catalog.Catalog, o *catalog.Offer) string {
	it, ok := c.Instance(o.Provider + "/" + o.InstanceName)
	if !ok {
		return ""
	}
	return it.GPUID
}

// TestEightA100AtNineCentsIsSkipped is the price that got in: 8×A100 at
// 0.09 USD an hour (0.011 per GPU-hour, above the old 0.01 floor). It is
// skipped with its reason and count; a real spot price of the same type
// is kept; an answer in which most prices are that low is refused whole.
func TestEightA100AtNineCentsIsSkipped(t *testing.T) {
	chk, _ := embeddedChecker(t)
	offer := func(region, price string, b catalog.Billing) *catalog.Offer {
		return &catalog.Offer{Provider: "aws", InstanceName: "p4d.24xlarge", RegionCode: region, Billing: b,
			Price: catalog.Price{Hourly: decimal.RequireFromString(price), Currency: "USD"}}
	}
	res := &importer.Result{Offers: []*catalog.Offer{offer("us-east-1", "0.09", catalog.OnDemand)}}
	for i, r := range []string{"us-west-2", "eu-west-1", "ap-northeast-1", "eu-central-1", "ap-southeast-1", "us-east-2", "ca-central-1", "sa-east-1", "ap-south-1", "eu-north-1"} {
		price := "21.97"
		b := catalog.OnDemand
		if i%2 == 0 {
			price, b = "4.40", catalog.Spot // 80% off: kept
		}
		res.Offers = append(res.Offers, offer(r, price, b))
	}
	if err := chk.Check(res); err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 10 || res.Skipped.Count(importer.SkipBelowReference) != 1 {
		t.Fatalf("kept %d, skipped %v", len(res.Offers), res.Skipped.Lines())
	}
	if ex := res.Skipped.Examples(importer.SkipBelowReference); len(ex) != 1 || ex[0] != "aws/p4d.24xlarge/us-east-1/on-demand" {
		t.Errorf("example %v", ex)
	}

	bad := &importer.Result{}
	for _, r := range []string{"us-east-1", "us-west-2", "eu-west-1"} {
		bad.Offers = append(bad.Offers, offer(r, "0.09", catalog.OnDemand))
	}
	bad.Offers = append(bad.Offers, offer("us-east-2", "21.97", catalog.OnDemand))
	err := chk.Check(bad)
	var be *importer.BelowReferenceError
	if !errorsAs(err, &be) || be.Skipped != 3 || be.Offers != 4 || !strings.Contains(err.Error(), "nothing was stored") {
		t.Fatalf("an answer mostly below its GPUs' references: %v", err)
	}
}

func errorsAs(err error, target **importer.BelowReferenceError) bool {
	be, ok := err.(*importer.BelowReferenceError)
	if ok {
		*target = be
	}
	return ok
}
