package server_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/server"
)

// BenchmarkExplorerOverlay renders the offers explorer, uncached, on the
// big overlay in GPUSCOUT_BENCH_OVERLAY (bench/genoverlay): the first
// page of a load (which makes what a load computes once) is reported as
// first-ms, then every page after it.
func BenchmarkExplorerOverlay(b *testing.B) {
	dir := os.Getenv("GPUSCOUT_BENCH_OVERLAY")
	if dir == "" {
		b.Skip("GPUSCOUT_BENCH_OVERLAY is not set (a directory from bench/genoverlay)")
	}
	load := loadCatalog(curated.Embedded(), os.DirFS(dir))
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		b.Fatal(err)
	}
	get := func(u string) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
		if rec.Code != 200 {
			b.Fatalf("%s: status %d", u, rec.Code)
		}
	}
	start := time.Now()
	get("/offers?lang=en&nocache=first")
	first := time.Since(start)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		get(fmt.Sprintf("/offers?lang=en&nocache=%d", i))
	}
	b.ReportMetric(float64(first.Milliseconds()), "first-ms")
}
