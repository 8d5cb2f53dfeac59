package curated_test

import (
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// BenchmarkLoadEmbedded measures parsing and validating the whole embedded
// catalog: the fixed cost of every CLI command.
func BenchmarkLoadEmbedded(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := curated.LoadEmbedded(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueryA100 measures an in-process `offers --gpu A100` query in
// USD, sorted by price, on the loaded catalog.
func BenchmarkQueryA100(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	c := ds.Catalog
	b.ReportAllocs()
	for b.Loop() {
		gs, err := c.LookupGPU("A100")
		if err != nil {
			b.Fatal(err)
		}
		q := catalog.OfferQuery{Currency: "USD", FX: ds.FX}
		for _, g := range gs {
			q.GPUs = append(q.GPUs, g.ID)
		}
		rows, err := c.QueryOffers(q)
		if err != nil || len(rows) == 0 {
			b.Fatal(err, len(rows))
		}
	}
}

// BenchmarkFreshness measures computing the price freshness of every offer
// (overall and per provider), which each web page's footer does.
func BenchmarkFreshness(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		if all, _ := ds.Catalog.Freshness(now); all.Offers == 0 {
			b.Fatal("no offers")
		}
	}
}
