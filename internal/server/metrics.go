package server

import (
	"bufio"
	"fmt"
	"net/http"
	rtmetrics "runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// latencyBuckets are the upper bounds, in seconds, of the request latency
// histogram: from a cache hit (tens of µs) to an uncached explorer page
// under load (seconds).
var latencyBuckets = [...]float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// statusClasses are the status class labels by status/100.
var statusClasses = [...]string{"0xx", "1xx", "2xx", "3xx", "4xx", "5xx"}

// routeStats are one route's counters, updated without a lock.
type routeStats struct {
	byClass [len(statusClasses)]atomic.Uint64
	// buckets[i] counts requests no slower than latencyBuckets[i] and
	// slower than the bound before (not cumulative; serve sums them).
	buckets  [len(latencyBuckets)]atomic.Uint64
	count    atomic.Uint64
	sumNanos atomic.Uint64
}

// metrics counts requests by route and status class, their latency, the
// response cache, catalog loads and the loaded data's age, in the
// Prometheus text format. Requests update atomic counters in a route table
// that is copied only when a route is first seen, so counting takes no lock
// under any load.
type metrics struct {
	// cacheHits and cacheMisses read the response cache's counters.
	cacheHits, cacheMisses func() uint64
	mu                     sync.Mutex // serialises adding a route
	routes                 atomic.Pointer[map[string]*routeStats]
	reloads                atomic.Uint64
	reloadFailures         atomic.Uint64
	// loaded and snapshot are Unix times (seconds) of the served data's
	// load and of its snapshot's writing (0: the embedded catalog).
	loaded, snapshot atomic.Int64
	offers           atomic.Int64
}

func newMetrics() *metrics {
	m := &metrics{}
	m.routes.Store(&map[string]*routeStats{})
	return m
}

// route returns the counters of route, adding them the first time.
func (m *metrics) route(route string) *routeStats {
	if rs, ok := (*m.routes.Load())[route]; ok {
		return rs
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := *m.routes.Load()
	if rs, ok := old[route]; ok {
		return rs
	}
	next := make(map[string]*routeStats, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	rs := &routeStats{}
	next[route] = rs
	m.routes.Store(&next)
	return rs
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	rs := m.route(route)
	class := status / 100
	if class < 0 || class >= len(statusClasses) {
		class = 0
	}
	rs.byClass[class].Add(1)
	sec := d.Seconds()
	for i, le := range latencyBuckets {
		if sec <= le {
			rs.buckets[i].Add(1)
			break
		}
	}
	rs.count.Add(1)
	rs.sumNanos.Add(uint64(d))
}

// loadedData records a successful load of d.
func (m *metrics) loadedData(d *Data) {
	m.reloads.Add(1)
	m.loaded.Store(d.Loaded.Unix())
	if !d.SnapshotTime.IsZero() {
		m.snapshot.Store(d.SnapshotTime.Unix())
	} else {
		m.snapshot.Store(0)
	}
	m.offers.Store(int64(d.facts.offers))
}

// runtimeSamples are the runtime/metrics the exposition reports.
var runtimeSamples = []struct{ name, metric, help, typ string }{
	{"/sched/goroutines:goroutines", "go_goroutines", "Goroutines that currently exist.", "gauge"},
	{"/memory/classes/heap/objects:bytes", "go_memstats_heap_alloc_bytes", "Bytes of allocated heap objects.", "gauge"},
	{"/memory/classes/total:bytes", "go_memstats_sys_bytes", "Bytes of memory obtained from the OS.", "gauge"},
	{"/gc/cycles/total:gc-cycles", "go_gc_cycles_total", "Completed GC cycles.", "counter"},
}

func (m *metrics) serve(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	b := bufio.NewWriter(w)
	defer b.Flush()
	routes := *m.routes.Load()
	names := make([]string, 0, len(routes))
	for r := range routes {
		names = append(names, r)
	}
	slices.Sort(names)
	family := func(name, typ, help string) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
	}
	family("gpuscout_http_requests_total", "counter", "HTTP requests served, by route pattern and status class.")
	for _, r := range names {
		for c := range statusClasses {
			if n := routes[r].byClass[c].Load(); n > 0 {
				fmt.Fprintf(b, "gpuscout_http_requests_total{route=%s,status=%q} %d\n", strconv.Quote(r), statusClasses[c], n)
			}
		}
	}
	family("gpuscout_http_request_duration_seconds", "histogram", "Time to serve a request, by route pattern.")
	for _, r := range names {
		rs := routes[r]
		// count first: a request counted between the reads below shows in
		// a later scrape, never as buckets over the count
		count := rs.count.Load()
		sum := time.Duration(rs.sumNanos.Load()).Seconds()
		var cum uint64
		for i, le := range latencyBuckets {
			cum += rs.buckets[i].Load()
			cum = min(cum, count)
			fmt.Fprintf(b, "gpuscout_http_request_duration_seconds_bucket{route=%s,le=%q} %d\n", strconv.Quote(r), strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(b, "gpuscout_http_request_duration_seconds_bucket{route=%s,le=\"+Inf\"} %d\n", strconv.Quote(r), count)
		fmt.Fprintf(b, "gpuscout_http_request_duration_seconds_sum{route=%s} %g\n", strconv.Quote(r), sum)
		fmt.Fprintf(b, "gpuscout_http_request_duration_seconds_count{route=%s} %d\n", strconv.Quote(r), count)
	}
	family("gpuscout_http_request_seconds_total", "counter", "Time spent serving requests, by route pattern (the histogram's sum; kept for existing dashboards).")
	for _, r := range names {
		fmt.Fprintf(b, "gpuscout_http_request_seconds_total{route=%s} %g\n", strconv.Quote(r), time.Duration(routes[r].sumNanos.Load()).Seconds())
	}
	family("gpuscout_response_cache_total", "counter", "Cacheable GET requests, by result (hit or miss).")
	fmt.Fprintf(b, "gpuscout_response_cache_total{result=\"hit\"} %d\n", m.cacheHits())
	fmt.Fprintf(b, "gpuscout_response_cache_total{result=\"miss\"} %d\n", m.cacheMisses())
	family("gpuscout_catalog_reloads_total", "counter", "Catalog loads since start.")
	fmt.Fprintf(b, "gpuscout_catalog_reloads_total %d\n", m.reloads.Load())
	family("gpuscout_catalog_reload_failures_total", "counter", "Catalog reloads that failed (the previous data kept serving).")
	fmt.Fprintf(b, "gpuscout_catalog_reload_failures_total %d\n", m.reloadFailures.Load())
	family("gpuscout_data_loaded_timestamp_seconds", "gauge", "When the served data was loaded (Unix time).")
	fmt.Fprintf(b, "gpuscout_data_loaded_timestamp_seconds %d\n", m.loaded.Load())
	family("gpuscout_snapshot_timestamp_seconds", "gauge", "When the served price snapshot was written (Unix time; 0 when only the embedded catalog is served).")
	fmt.Fprintf(b, "gpuscout_snapshot_timestamp_seconds %d\n", m.snapshot.Load())
	family("gpuscout_catalog_offers", "gauge", "Offers in the served catalog.")
	fmt.Fprintf(b, "gpuscout_catalog_offers %d\n", m.offers.Load())
	samples := make([]rtmetrics.Sample, len(runtimeSamples))
	for i, rs := range runtimeSamples {
		samples[i].Name = rs.name
	}
	rtmetrics.Read(samples)
	for i, rs := range runtimeSamples {
		if samples[i].Value.Kind() != rtmetrics.KindUint64 {
			continue
		}
		family(rs.metric, rs.typ, rs.help)
		fmt.Fprintf(b, "%s %d\n", rs.metric, samples[i].Value.Uint64())
	}
}
