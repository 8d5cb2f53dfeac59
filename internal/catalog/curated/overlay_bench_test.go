package curated_test

import (
	"os"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// BenchmarkLoadOverlay measures what `catalog validate --catalog DIR`
// does with a big overlay: parse the embedded CSVs with DIR's files over
// them, then validate and index the result. DIR comes from
// GPUSCOUT_BENCH_OVERLAY (for example `go run ./bench/genoverlay -o DIR
// -offers 1000000`); without it the benchmark is skipped.
func BenchmarkLoadOverlay(b *testing.B) {
	dir := os.Getenv("GPUSCOUT_BENCH_OVERLAY")
	if dir == "" {
		b.Skip("GPUSCOUT_BENCH_OVERLAY is not set (a directory from bench/genoverlay)")
	}
	b.ReportAllocs()
	for b.Loop() {
		d, _, err := curated.LoadCSV(curated.Embedded(), os.DirFS(dir))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := catalog.New(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPriceOrderOverlay measures Catalog.PriceOrder (the server's
// price order of a big catalog, 4 bytes per offer) over the overlay in
// GPUSCOUT_BENCH_OVERLAY, per currency and sort key.
func BenchmarkPriceOrderOverlay(b *testing.B) {
	dir := os.Getenv("GPUSCOUT_BENCH_OVERLAY")
	if dir == "" {
		b.Skip("GPUSCOUT_BENCH_OVERLAY is not set (a directory from bench/genoverlay)")
	}
	ds, err := curated.Load(curated.Embedded(), os.DirFS(dir))
	if err != nil {
		b.Fatal(err)
	}
	for _, cur := range []string{"USD", "CNY"} {
		for _, key := range []catalog.SortKey{catalog.SortPrice, catalog.SortGPUPrice} {
			b.Run(cur+"/"+string(key), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ds.Catalog.PriceOrder(cur, ds.FX, key); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
