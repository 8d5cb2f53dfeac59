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

// BenchmarkStats measures Catalog.Stats on the embedded catalog: counts,
// the billing-model coverage gaps and the spot coverage (catalog stats, the
// About page and every page header use it).
func BenchmarkStats(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if s := ds.Catalog.Stats(); s.Offers == 0 {
			b.Fatal("no offers")
		}
	}
}

// BenchmarkStatsWithCoverage adds the coverage gaps and spot coverage to
// Stats (catalog stats, its API and the About page).
func BenchmarkStatsWithCoverage(b *testing.B) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if s := ds.Catalog.StatsWithCoverage(); s.Spot.Offers == 0 {
			b.Fatal("no spot offers")
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
