package server_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// BenchmarkOffersPageUncached renders the offers explorer without the
// response cache (a unique, ignored parameter per request): the server CPU
// of one uncached page. It reports the HTML and gzip bytes.
func BenchmarkOffersPageUncached(b *testing.B) {
	for _, c := range []struct{ name, url string }{
		{"filtered", "/offers?gpu=A100,H100&min_gpus=8&lang=en"},
		{"default", "/offers?lang=en"},
		{"all-regions", "/offers?lang=zh&cheapest_region=false"},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := newServer(&testing.T{})
			var raw, gz int
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest("GET", fmt.Sprintf("%s&nocache=%d", c.url, i), nil)
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
				raw = rec.Body.Len()
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			req := httptest.NewRequest("GET", c.url, nil)
			req.Header.Set("Accept-Encoding", "gzip")
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			gz = rec.Body.Len()
			if rec.Header().Get("Content-Encoding") != "gzip" {
				b.Fatal("page not gzipped")
			}
			var buf bytes.Buffer
			zr, _ := gzip.NewReader(rec.Body)
			buf.ReadFrom(zr)
			b.ReportMetric(float64(raw), "html-bytes")
			b.ReportMetric(float64(gz), "gzip-bytes")
		})
	}
}

// cpuTime is the process's user and system CPU time so far: the server's
// work per page, whatever else the machine is doing.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
