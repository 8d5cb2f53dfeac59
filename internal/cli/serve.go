package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/web"
)

// serveOptions are the flags of `gpuscout serve`.
type serveOptions struct {
	addr         string
	watch        time.Duration
	logJSON      bool
	quietLog     bool
	allowedHosts string
	metrics      string
	memoryLimit  string
	staleAfter   time.Duration
	drainDelay   time.Duration
}

// metricsTokenEnv names the environment variable that holds the bearer
// token of --metrics token (kept off the command line, which ps shows).
const metricsTokenEnv = "GPUSCOUT_METRICS_TOKEN"

func (a *app) serveCmd() *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web UI and the JSON API",
		Long: `Serve the web UI (offers explorer, TCO comparison, advisor, GPU specs, sources) and the
JSON API under /api/v1, documented at /api/v1/openapi.json. The API returns the same documents
as the CLI's -o json.

The server reads the embedded catalog overlaid with the newest imported snapshots in the
database, and reloads when the database changes (after catalog import or update) or on
SIGHUP, without dropping requests. It listens on localhost by default; put it behind a
reverse proxy with TLS before exposing it.

Probes: /livez (200 while the process serves; touches no data), /readyz (503 until data is
loaded and once shutdown begins; reports the served snapshot, its age and, with --stale-after,
whether the prices are older than the refresh schedule) and /healthz (the same JSON status).

It answers only the Host headers --allowed-hosts names (421 otherwise; the probes answer any):
by default, on a loopback address, that address, localhost, 127.0.0.1 and [::1]; on every
interface (:8080, 0.0.0.0:8080), any host — name the hosts a proxy or cluster uses to restrict
it. --metrics off hides /metrics; --metrics token serves it only to requests with
"Authorization: Bearer $GPUSCOUT_METRICS_TOKEN". --memory-limit sets the Go heap's soft limit
(auto: twice the loaded data plus 128 MiB, at least 192 MiB), so that bursts of large answers
make the collector work harder rather than the process grow.`,
		Example: `  # The web UI on http://127.0.0.1:8080
  gpuscout serve

  # On every interface, port 9000, JSON logs
  gpuscout serve --addr :9000 --log-json

  # Behind a proxy that forwards gpuscout.example.com; metrics for a scraper with a token
  GPUSCOUT_METRICS_TOKEN=… gpuscout serve --addr 0.0.0.0:8080 --allowed-hosts gpuscout.example.com --metrics token

  # The API from a script
  curl 'http://127.0.0.1:8080/api/v1/offers?gpu=H100&min_gpus=8&per=gpu-hour&limit=5'
  curl -X POST --data-binary @examples/distributed-training.yaml http://127.0.0.1:8080/api/v1/recommend`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runServe(cmd.Context(), o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; :0 picks a free port)")
	f.DurationVar(&o.watch, "watch", 30*time.Second, "how often to check the database for new imports (0 = never)")
	f.BoolVar(&o.logJSON, "log-json", false, "write the access log as JSON lines")
	f.BoolVar(&o.quietLog, "quiet", false, "no access log, only errors")
	f.StringVar(&o.allowedHosts, "allowed-hosts", "", "Host headers to answer, comma-separated (* = any; default: the --addr host and localhost on loopback, any on every interface)")
	f.StringVar(&o.memoryLimit, "memory-limit", "auto", "soft limit of the Go heap: auto (twice the loaded data plus 128 MiB, at least 192 MiB), off, or a size such as 512MiB; $GOMEMLIMIT wins when set")
	f.DurationVar(&o.staleAfter, "stale-after", 0, "call the served prices stale in /readyz and /healthz when the snapshot is older than this (the refresh schedule plus the update's time, e.g. 7h; 0 = never)")
	f.DurationVar(&o.drainDelay, "drain-delay", 0, "on SIGTERM, answer /readyz with 503 and keep serving this long before closing the listener (e.g. 5s behind a load balancer)")
	f.StringVar(&o.metrics, "metrics", "on", "who may read /metrics: on (anyone), off, or token (Authorization: Bearer $"+metricsTokenEnv+")")
	return cmd
}

// parseMemoryLimit reads --memory-limit: -1 for auto, 0 for off, else
// bytes ("512MiB", "1GiB", "300MB" or a plain number of bytes).
func parseMemoryLimit(s string) (int64, error) {
	switch strings.ToLower(s) {
	case "auto", "":
		return -1, nil
	case "off", "0":
		return 0, nil
	}
	units := []struct {
		suffix string
		mult   int64
	}{{"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10}, {"gb", 1e9}, {"mb", 1e6}, {"kb", 1e3}, {"b", 1}}
	num, mult := strings.ToLower(s), int64(1)
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = n, u.mult
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, &localError{key: "cli.serve.memory", args: []any{s}, exit: ExitUsage}
	}
	return n * mult, nil
}

// loadServerData loads the catalog afresh for the server.
func (a *app) loadServerData(context.Context) (*server.Data, error) {
	a.ds = nil
	ds, err := a.data()
	if err != nil {
		return nil, err
	}
	m, err := a.perfModel(ds.Catalog)
	if err != nil {
		return nil, err
	}
	d := &server.Data{Catalog: ds.Catalog, FX: ds.FX, Pricing: a.engine(ds.Catalog), Perf: m, Loaded: a.env.Now()}
	if t := a.dbModTime(); !t.IsZero() {
		d.Snapshot, d.SnapshotTime = a.dbPath(), t
	}
	if ds.Imports != nil {
		d.Imported = ds.Imports.Replaced + ds.Imports.Added + ds.Imports.Unchanged
		d.Rejected = ds.Imports.Rejected
	}
	return d, nil
}

func (a *app) runServe(ctx context.Context, o *serveOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if !web.HasAssets() {
		fmt.Fprintln(a.io.Err, "gpuscout: warning: this build has no web assets (run make assets); the pages load without script or styles")
	}
	level := slog.LevelInfo
	if o.quietLog {
		level = slog.LevelWarn
	}
	var h slog.Handler = slog.NewTextHandler(a.io.Err, &slog.HandlerOptions{Level: level})
	if o.logJSON {
		h = slog.NewJSONHandler(a.io.Err, &slog.HandlerOptions{Level: level})
	}
	logger := slog.New(h)
	cfg := server.Config{Load: a.loadServerData, Logger: logger, Now: a.env.Now, History: a.historySource(),
		Hosts: server.DefaultHostPolicy(o.addr), StaleAfter: o.staleAfter, DrainDelay: o.drainDelay}
	if o.allowedHosts != "" {
		cfg.Hosts = server.ParseHostPolicy(o.allowedHosts)
	}
	switch o.metrics {
	case "on":
	case "off":
		cfg.Metrics = server.MetricsOff
	case "token":
		cfg.Metrics, cfg.MetricsToken = server.MetricsToken, a.env.Getenv(metricsTokenEnv)
		if cfg.MetricsToken == "" {
			return &localError{key: "cli.serve.no_token", args: []any{metricsTokenEnv}, exit: ExitUsage}
		}
	default:
		return &localError{key: "cli.serve.metrics", args: []any{o.metrics}, exit: ExitUsage}
	}
	limit, err := parseMemoryLimit(o.memoryLimit)
	if err != nil {
		return err
	}
	srv, err := server.New(ctx, cfg)
	if err != nil {
		return err
	}
	if a.env.Getenv("GOMEMLIMIT") == "" && limit != 0 {
		if limit < 0 { // auto: from the data just loaded
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			limit = max(192<<20, 2*int64(ms.HeapAlloc)+128<<20)
		}
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go a.watchReload(ctx, srv, logger, o.watch)
	return srv.ListenAndServe(ctx, o.addr, func(addr net.Addr) {
		d := srv.Data()
		fmt.Fprintf(a.io.Out, "gpuscout: serving %d offers (newest price %s) on http://%s/  (Ctrl-C stops)\n",
			d.Catalog.Stats().Offers, d.Catalog.Stats().NewestAsOf.Format("2006-01-02"), addr)
	})
}

// watchReload reloads the server's data on SIGHUP and when the database file
// changes.
func (a *app) watchReload(ctx context.Context, srv *server.Server, log *slog.Logger, every time.Duration) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	var tick <-chan time.Time
	if every > 0 {
		t := time.NewTicker(every)
		defer t.Stop()
		tick = t.C
	}
	last := a.dbModTime()
	reload := func(why string) {
		if err := srv.Reload(ctx); err != nil {
			log.Error("reload failed; still serving the previous data", "why", why, "err", err)
			return
		}
		log.Info("reloaded", "why", why, "offers", srv.Data().Catalog.Stats().Offers)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			last = a.dbModTime()
			reload("SIGHUP")
		case <-tick:
			if m := a.dbModTime(); !m.Equal(last) {
				last = m
				reload("database changed")
			}
		}
	}
}

func (a *app) dbModTime() time.Time {
	p := a.dbPath()
	if p == "" {
		return time.Time{}
	}
	var newest time.Time
	for _, f := range []string{p, p + "-wal"} { // WAL mode writes the -wal file first
		if st, err := os.Stat(f); err == nil && st.ModTime().After(newest) {
			newest = st.ModTime()
		}
	}
	return newest
}
