package server

import (
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// BenchmarkOffersSearchOverlay measures offers searches as the API runs
// them (parse, runCounted) on the big overlay in GPUSCOUT_BENCH_OVERLAY
// (`go run ./bench/genoverlay -o DIR -offers 1000000`), after the price
// orders they read are made: the work per uncached request.
func BenchmarkOffersSearchOverlay(b *testing.B) {
	dir := os.Getenv("GPUSCOUT_BENCH_OVERLAY")
	if dir == "" {
		b.Skip("GPUSCOUT_BENCH_OVERLAY is not set (a directory from bench/genoverlay)")
	}
	ds, err := curated.Load(curated.Embedded(), os.DirFS(dir))
	if err != nil {
		b.Fatal(err)
	}
	d := &Data{Catalog: ds.Catalog, FX: ds.FX}
	for _, c := range []struct{ name, query string }{
		{"first-50", "limit=50"},
		{"all-5000", "limit=0"},
		{"gpu-a100", "gpu=A100&limit=20"},
		{"cheapest-region", "cheapest_region=1&limit=50"},
		{"order-provider", "order=provider&limit=100"},
		{"order-price-cny", "order=price&currency=CNY&limit=100&offset=1000"},
		{"max-price-spot", "max_price=3&billing=spot&limit=50"},
	} {
		v, _ := url.ParseQuery(c.query)
		s, err := d.parseOfferSearch(v, 100)
		if err != nil {
			b.Fatal(err)
		}
		s.Now = time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
		if _, _, _, err := d.runCounted(s); err != nil { // the price orders it reads
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, _, err := d.runCounted(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
