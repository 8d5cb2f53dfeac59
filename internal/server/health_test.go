package server_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/server"
)

// probeAllocs is the allocations one request to path costs the server,
// averaged over runs (the recorder and request are made outside).
func probeAllocs(t *testing.T, h http.Handler, path string) float64 {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	return leastAllocs(func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: status %d", path, rec.Code)
		}
	})
}

// TestProbesDoNoCatalogWork: can a Kubernetes probe with a 1 s timeout
// fail because the catalog is big? Not if no probe walks the catalog. The
// catalog statistics allocate per provider and billing model (over a
// hundred allocations on the embedded catalog, and time in proportion to
// the offers: 1,340 allocations per /healthz before); the probes' figures
// are computed once per load, so a probe costs a few dozen allocations
// (most of them the recorder's) whatever the catalog's size.
func TestProbesDoNoCatalogWork(t *testing.T) {
	srv := newServer(t)
	for path, most := range map[string]float64{"/livez": 16, "/readyz": 40, "/healthz": 60} {
		if got := probeAllocs(t, srv, path); got > most {
			t.Errorf("%s: %.0f allocations per request, want at most %.0f (no catalog work per probe)", path, got, most)
		}
	}
}

// TestReadyzReportsSnapshotAndStaleness: what is served, how old is it,
// and did the refresh schedule slip? A server of the embedded catalog
// alone counts its age from the newest price and, with StaleAfter, says
// the prices are stale; a snapshot counts from when it was written.
func TestReadyzReportsSnapshotAndStaleness(t *testing.T) {
	written := now.Add(-90 * time.Minute)
	for _, c := range []struct {
		name      string
		snapshot  string
		at        time.Time
		stale     bool
		wantAge   int64
		wantShown string
	}{
		{name: "embedded", stale: true, wantShown: "embedded"},
		{name: "fresh snapshot", snapshot: "/snapshot/gpuscout.db", at: written, stale: false, wantAge: 90 * 60, wantShown: "/snapshot/gpuscout.db"},
		{name: "old snapshot", snapshot: "/snapshot/gpuscout.db", at: now.Add(-8 * time.Hour), stale: true, wantAge: 8 * 3600, wantShown: "/snapshot/gpuscout.db"},
	} {
		t.Run(c.name, func(t *testing.T) {
			load := func(ctx context.Context) (*server.Data, error) {
				d, err := loadEmbedded(ctx)
				if err == nil {
					d.Snapshot, d.SnapshotTime = c.snapshot, c.at
				}
				return d, err
			}
			srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }, StaleAfter: 7 * time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{"/readyz", "/healthz"} {
				rec := get(t, srv, path)
				var doc struct {
					Status, Snapshot, NewestPrice string
					AgeSeconds                    int64 `json:"age_seconds"`
					Stale                         bool
					StaleAfter                    string `json:"stale_after"`
					Offers                        int
				}
				if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil {
					t.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
				}
				if doc.Snapshot != c.wantShown || doc.Stale != c.stale || doc.StaleAfter != "7h0m0s" || doc.Offers < 1000 {
					t.Errorf("%s: %s", path, rec.Body)
				}
				if c.wantAge > 0 && doc.AgeSeconds != c.wantAge {
					t.Errorf("%s: age %d s, want %d s", path, doc.AgeSeconds, c.wantAge)
				}
				if c.snapshot == "" && doc.AgeSeconds < 24*3600 {
					t.Errorf("%s: the embedded catalog's age %d s should count from its newest price", path, doc.AgeSeconds)
				}
				if rec.Header().Get("Cache-Control") != "no-store" {
					t.Errorf("%s: a probe answer must not be cached", path)
				}
			}
		})
	}
}

// TestLivezAnswersAnyHost: probes address the pod's IP, which no
// --allowed-hosts lists.
func TestLivezAnswersAnyHost(t *testing.T) {
	srv, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now },
		Hosts: server.ParseHostPolicy("gpuscout.example.com")})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/livez", "/readyz", "/healthz"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = "10.42.0.7:8080"
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Errorf("%s from a probe's address: %d", path, rec.Code)
		}
	}
	if rec := get(t, srv, "/livez"); strings.TrimSpace(rec.Body.String()) != "ok" {
		t.Errorf("/livez: %q", rec.Body)
	}
}

// TestReadyzDrainsOnShutdown: once told to stop, is the replica taken out
// of the Service before its listener closes? /readyz answers 503 during
// the drain delay while /livez and ordinary requests are still served.
func TestReadyzDrainsOnShutdown(t *testing.T) {
	srv, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now },
		DrainDelay: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	base := "http://" + (<-addrc).String()
	status := func(path string) int {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("/readyz"); got != 200 {
		t.Fatalf("/readyz before shutdown: %d", got)
	}
	cancel()
	deadline := time.Now().Add(10 * time.Second) // a cap only a hang reaches
	for status("/readyz") != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("/readyz never answered 503 after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := status("/livez"); got != 200 {
		t.Errorf("/livez while draining: %d", got)
	}
	if got := status("/api/v1/gpus"); got != 200 {
		t.Errorf("a request while draining: %d", got)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestFooterSaysWhichPricesAreServed: does a page say whether it shows a
// published price snapshot (and when it was written) or only the prices
// built into the binary, as a fresh install serves before its first
// update? In English and Chinese.
func TestFooterSaysWhichPricesAreServed(t *testing.T) {
	written := time.Date(2026, 12, 2, 5, 17, 0, 0, time.UTC)
	for _, c := range []struct {
		at     time.Time
		en, zh string
	}{
		{time.Time{}, "No price snapshot loaded: these are the prices built into this gpuscout binary.", "未加载价格快照：以下是本 gpuscout 程序内置的价格。"},
		{written, "Price snapshot written 2026-12-02 05:17 UTC.", "价格快照写入于 2026-12-02 05:17（UTC）。"},
	} {
		load := func(ctx context.Context) (*server.Data, error) {
			d, err := loadEmbedded(ctx)
			if err == nil && !c.at.IsZero() {
				d.Snapshot, d.SnapshotTime = "/snapshot/gpuscout.db", c.at
			}
			return d, err
		}
		srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		for lang, want := range map[string]string{"en": c.en, "zh": c.zh} {
			body := get(t, srv, "/about?lang="+lang).Body.String()
			if !strings.Contains(body, "<span data-snapshot>"+want+"</span>") {
				t.Errorf("%s: the footer lacks %q", lang, want)
			}
		}
	}
}
