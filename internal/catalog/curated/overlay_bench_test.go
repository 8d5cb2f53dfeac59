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
