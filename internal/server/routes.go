package server

import (
	_ "embed"
	"fmt"
	"net/http"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuscout/gpuscout/internal/web"
)

// OpenAPI is the API's OpenAPI 3.1 description, served at /api/v1/openapi.json.
//
//go:embed openapi.json
var OpenAPI []byte

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	// API
	mux.HandleFunc("GET /api/v1/offers", s.cached(s.api(s.apiOffers)))
	mux.HandleFunc("GET /api/v1/offers/{id...}", s.cached(s.api(s.apiOffer)))
	mux.HandleFunc("GET /api/v1/gpus", s.cached(s.api(s.apiGPUs)))
	mux.HandleFunc("GET /api/v1/instances", s.cached(s.api(s.apiInstances)))
	mux.HandleFunc("GET /api/v1/catalog/stats", s.cached(s.api(s.apiStats)))
	mux.HandleFunc("GET /api/v1/catalog/sources", s.cached(s.api(s.apiSources)))
	mux.HandleFunc("GET /api/v1/tco", s.cached(s.api(s.apiTCO)))
	mux.HandleFunc("POST /api/v1/recommend", s.apiRecommend)
	s.catalogRoutes(mux)
	s.jobRoutes(mux)
	mux.HandleFunc("GET /api/v1/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Write(OpenAPI)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, &apiError{Status: http.StatusNotFound, Code: "not_found",
			Message: fmt.Sprintf("no API endpoint %s %s", r.Method, r.URL.Path), Hint: "see /api/v1/openapi.json"})
	})
	// Operations
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /metrics", s.serveMetrics)
	// Web UI
	mux.Handle("GET /static/", http.StripPrefix("/static/", web.Precompressed(web.Static())))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/static/favicon.svg", http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET /{$}", s.cached(s.pageOffers))
	mux.HandleFunc("GET /offers", s.cached(s.pageOffers))
	mux.HandleFunc("GET /offers.csv", s.cached(s.offersCSV))
	mux.HandleFunc("GET /compare", s.cached(s.pageCompare))
	mux.HandleFunc("GET /advisor", s.cached(s.pageAdvisor))
	mux.HandleFunc("POST /advisor", s.pageAdvisor)
	mux.HandleFunc("GET /gpus", s.cached(s.pageGPUs))
	mux.HandleFunc("GET /about", s.cached(s.pageAbout))
	mux.HandleFunc("/", s.pageNotFound)
	return s.probes(s.recoverer(s.headers(s.accessLog(s.hostCheck(s.guard(compress(mux)))))))
}

// headers sets security headers on every response. The pages load only
// their own script and stylesheet; charts draw from inline JSON data, which
// is not script.
func (s *Server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic into a 500 and logs the stack.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				s.writeError(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// accessLog logs each request and counts it in the metrics.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		d := time.Since(start)
		s.metrics.observe(routeOf(r.URL.Path), sw.status, d)
		s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", sw.status, "bytes", sw.bytes, "duration_ms", float64(d.Microseconds())/1000)
	})
}

// routeOf maps a path to a low-cardinality label for metrics.
func routeOf(path string) string {
	switch {
	case strings.HasPrefix(path, "/api/v1/offers/"):
		return "/api/v1/offers/{id}"
	case strings.HasPrefix(path, "/static/"):
		return "/static"
	case strings.HasPrefix(path, "/api/v1/instances/"):
		return "/api/v1/instances/{provider}/{name}"
	case strings.HasPrefix(path, "/instances/"):
		return "/instances/{provider}/{name}"
	}
	for _, p := range []string{"/api/v1/offers", "/api/v1/gpus", "/api/v1/instances", "/api/v1/catalog/stats", "/api/v1/catalog/sources",
		"/api/v1/tco", "/api/v1/recommend", "/api/v1/providers", "/api/v1/regions", "/providers", "/api/v1/cost", "/api/v1/estimate", "/api/v1/spot", "/api/v1/history", "/spot", "/api/v1/openapi.json", "/healthz", "/metrics", "/", "/offers", "/offers.csv", "/compare", "/advisor", "/gpus", "/about"} {
		if path == p {
			return p
		}
	}
	return "other"
}

// metrics counts requests by route and status class, and their total time,
// in the Prometheus text format.
type metrics struct {
	// cacheHits and cacheMisses read the response cache's counters.
	cacheHits, cacheMisses func() uint64
	mu                     sync.Mutex
	requests               map[[2]string]uint64
	seconds                map[string]float64
	reloads                atomic.Uint64
}

func newMetrics() *metrics {
	return &metrics{requests: map[[2]string]uint64{}, seconds: map[string]float64{}}
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	m.mu.Lock()
	m.requests[[2]string{route, fmt.Sprintf("%dxx", status/100)}]++
	m.seconds[route] += d.Seconds()
	m.mu.Unlock()
}

func (m *metrics) serve(w http.ResponseWriter, _ *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	fmt.Fprintln(w, "# HELP gpuscout_http_requests_total HTTP requests served, by route and status class.")
	fmt.Fprintln(w, "# TYPE gpuscout_http_requests_total counter")
	keys := make([][2]string, 0, len(m.requests))
	for k := range m.requests {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
	for _, k := range keys {
		fmt.Fprintf(w, "gpuscout_http_requests_total{route=%q,status=%q} %d\n", k[0], k[1], m.requests[k])
	}
	fmt.Fprintln(w, "# HELP gpuscout_http_request_seconds_total Time spent serving requests, by route.")
	fmt.Fprintln(w, "# TYPE gpuscout_http_request_seconds_total counter")
	routes := make([]string, 0, len(m.seconds))
	for r := range m.seconds {
		routes = append(routes, r)
	}
	sort.Strings(routes)
	for _, r := range routes {
		fmt.Fprintf(w, "gpuscout_http_request_seconds_total{route=%q} %g\n", r, m.seconds[r])
	}
	fmt.Fprintln(w, "# HELP gpuscout_response_cache_total Cacheable GET requests, by result (hit or miss).")
	fmt.Fprintln(w, "# TYPE gpuscout_response_cache_total counter")
	fmt.Fprintf(w, "gpuscout_response_cache_total{result=\"hit\"} %d\n", m.cacheHits())
	fmt.Fprintf(w, "gpuscout_response_cache_total{result=\"miss\"} %d\n", m.cacheMisses())
	fmt.Fprintln(w, "# HELP gpuscout_catalog_reloads_total Catalog loads since start.")
	fmt.Fprintln(w, "# TYPE gpuscout_catalog_reloads_total counter")
	fmt.Fprintf(w, "gpuscout_catalog_reloads_total %d\n", m.reloads.Load())
}
