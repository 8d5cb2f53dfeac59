package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// discardWriter is a ResponseWriter that keeps nothing, so that a
// benchmark measures the server's own work per response.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return io.Discard.Write(b) }
func (w *discardWriter) WriteHeader(int)             {}

// cachedAPITarget is bench/http.sh's API query.
const cachedAPITarget = "/api/v1/offers?gpu=A100,H100&min_gpus=8&per=gpu-hour&sort=gpu-price&limit=50"

// BenchmarkCachedAPIHit measures one cache hit of bench/http.sh's API
// query through every middleware (no compression asked, as wrk asks),
// without the network: the server's share of the cached API's cost.
func BenchmarkCachedAPIHit(b *testing.B) {
	srv := newServer(b)
	req := httptest.NewRequest("GET", cachedAPITarget, nil)
	srv.ServeHTTP(httptest.NewRecorder(), req)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		w := &discardWriter{h: http.Header{}}
		for pb.Next() {
			clear(w.h)
			srv.ServeHTTP(w, req)
		}
	})
}

// TestCachedAPIHitAllocations: does a cache hit do per-request work beyond
// writing the bytes (parsing the query, building the cache key, header
// values, log records)? It allocated 35 times per hit, which with 64
// connections kept the cached API at 0.69–0.79× nginx's requests per
// second; now at most a few times.
func TestCachedAPIHitAllocations(t *testing.T) {
	srv := newServer(t)
	req := httptest.NewRequest("GET", cachedAPITarget, nil)
	srv.ServeHTTP(httptest.NewRecorder(), req)
	w := &discardWriter{h: http.Header{}}
	got := leastAllocs(func() {
		clear(w.h)
		srv.ServeHTTP(w, req)
	})
	t.Logf("%.0f allocations per cache hit", got)
	if got > maxHitAllocs {
		t.Errorf("a cache hit allocates %.0f times, want at most %d", got, maxHitAllocs)
	}
}

const maxHitAllocs = 4
