package pricing_test

import (
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
)

// BenchmarkCost36Months prices a 3-year reservation with storage, egress
// and support on the embedded catalog.
func BenchmarkCost36Months(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	o, ok := ds.Catalog.Offer("aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront")
	if !ok {
		b.Fatal("offer missing")
	}
	e := &pricing.Engine{Prices: ds.Catalog, FX: ds.FX}
	u := pricing.DefaultUsage()
	u.Months, u.StorageGB, u.EgressGB, u.SupportPlan = 36, decimal.NewFromInt(2000), decimal.NewFromInt(500), "business"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Cost(o, u); err != nil {
			b.Fatal(err)
		}
	}
}
