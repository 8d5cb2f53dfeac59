// Package server is gpuscout's HTTP face: a versioned JSON API under /api/v1
// that returns the same documents as the CLI's -o json, and the web UI pages
// rendered from templates parsed at start-up. It uses only net/http.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/web"
)

// Data is everything a request reads: one consistent catalog with its FX
// table, cost engine and performance model. A reload swaps it whole, so a
// request never sees half of an import.
type Data struct {
	Catalog *catalog.Catalog
	FX      *fx.Table
	Pricing *pricing.Engine
	Perf    *perf.Model
	// Imported is the number of offers that came from imported snapshots.
	Imported int
	// Rejected are imported records left out because their data is
	// unusable; pages show a notice and offers documents a warnings field.
	Rejected []catalog.Rejection
	// Loaded is when this data was loaded.
	Loaded time.Time
	// Snapshot names the price snapshot served (the database's path);
	// empty when only the embedded catalog is served.
	Snapshot string
	// SnapshotTime is when the snapshot was last written (the database
	// file's modification time); zero for the embedded catalog, whose age
	// counts from its newest price.
	SnapshotTime time.Time
	// facts are the probes' figures, computed once per load.
	facts snapshotFacts
	// regionList holds the explorer's region datalist per language,
	// rendered once per load (template.HTML by i18n.Lang).
	regionList sync.Map
	// footer holds what every page derives from the catalog alone: the
	// footer's figures (footerFigures by day, "2006-01-02") and the
	// explorer's option lists ("choices"), computed once per load.
	footer sync.Map
	// offerIdx is the explorer's per-load index (see offerIndex), made
	// at the first request.
	indexOnce sync.Once
	offerIdx  *offerIndex
	// storedRows bounds the catalogs whose priced rows the index keeps
	// (see storedRowsMax): 0 is the default, a negative value keeps none
	// (tests take the big-catalog path on a small catalog with it).
	storedRows int
}

// footerFigures are the catalog figures every page shows.
type footerFigures struct {
	stats         catalog.Stats
	fresh         catalog.Freshness
	currentOffers int
}

// Loader loads fresh Data (the embedded catalog overlaid with imports).
type Loader func(ctx context.Context) (*Data, error)

// Config configures a Server.
type Config struct {
	// Load loads the data at start and on every Reload.
	Load Loader
	// Logger receives the access log and errors; nil discards them.
	Logger *slog.Logger
	// Now is the clock (tests pin it); nil means time.Now.
	Now func() time.Time
	// MaxBody caps request bodies, bytes (default 1 MiB).
	MaxBody int64
	// History answers /api/v1/history; nil (no database) answers 404.
	History HistorySource
	// Hosts are the Host headers answered (zero value: any); see
	// DefaultHostPolicy.
	Hosts HostPolicy
	// Metrics says who may read /metrics; MetricsToken is the bearer
	// token MetricsToken access asks for.
	Metrics      MetricsAccess
	MetricsToken string
	// StaleAfter is how old the served prices may get before /readyz and
	// /healthz say they are stale (the refresh schedule plus the update's
	// own time); zero never calls them stale.
	StaleAfter time.Duration
	// DrainDelay is how long ListenAndServe keeps serving, with /readyz
	// answering 503, after it is told to stop and before it closes the
	// listener: time for a load balancer to take the replica out.
	DrainDelay time.Duration
}

// Server serves the API and the web UI.
type Server struct {
	cfg     Config
	log     *slog.Logger
	data    atomic.Pointer[Data]
	reload  sync.Mutex
	pages   *web.Pages
	metrics *metrics
	cache   *responseCache
	handler http.Handler
	// draining is set once shutdown begins: /readyz answers 503.
	draining atomic.Bool
}

// New loads the data once and parses the templates; it fails if either fails.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Load == nil {
		return nil, errors.New("server: no data loader")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 1 << 20
	}
	if cfg.Metrics == MetricsToken && cfg.MetricsToken == "" {
		return nil, errors.New("server: metrics by token, but no token")
	}
	pages, err := web.Parse()
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s := &Server{cfg: cfg, log: cfg.Logger, pages: pages, metrics: newMetrics(), cache: newResponseCache(2048, 4<<20, 64<<20)}
	s.metrics.cacheHits, s.metrics.cacheMisses = s.cache.hits.Load, s.cache.misses.Load
	if err := s.Reload(ctx); err != nil {
		return nil, err
	}
	s.handler = s.routes()
	return s, nil
}

// Reload loads the data again and swaps it in; on error the old data stays.
func (s *Server) Reload(ctx context.Context) error {
	s.reload.Lock()
	defer s.reload.Unlock()
	d, err := s.cfg.Load(ctx)
	if err != nil {
		s.metrics.reloadFailures.Add(1)
		return fmt.Errorf("server: load data: %w", err)
	}
	if d.Loaded.IsZero() {
		d.Loaded = s.cfg.Now()
	}
	d.facts = computeFacts(d) // once per load: probes never walk the catalog
	s.data.Store(d)
	go d.warmExplorer() // the default explorer pages' index, off the first request's clock
	s.cache.clear()
	s.metrics.loadedData(d)
	return nil
}

// Data returns the data requests currently read.
func (s *Server) Data() *Data { return s.data.Load() }

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// ListenAndServe serves on addr until ctx ends, then shuts down gracefully:
// /readyz answers 503 from then on, the listener stays open for
// Config.DrainDelay, and requests in flight may finish for up to ten seconds. ready, when not
// nil, receives the bound address (useful with port 0).
func (s *Server) ListenAndServe(ctx context.Context, addr string, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	hs := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnContext:       withOneWriteConn,
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(oneWriteListener{ln}) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	if s.cfg.DrainDelay > 0 {
		select {
		case err := <-errc:
			return err
		case <-time.After(s.cfg.DrainDelay):
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}
