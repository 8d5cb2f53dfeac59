package server_test

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/server"
)

// sampleLine is one sample of the text format: name, labels, value.
var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (\S+)$`)

// parseExposition reads the Prometheus text format strictly: every sample
// belongs to a family whose HELP and TYPE came before it, and every value
// is a number. It returns the samples by name+labels.
func parseExposition(t *testing.T, text string) map[string]float64 {
	t.Helper()
	typed := map[string]string{}
	helped := map[string]bool{}
	out := map[string]float64{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			helped[strings.SplitN(rest, " ", 2)[0]] = true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			f := strings.Fields(rest)
			if len(f) != 2 || !helped[f[0]] {
				t.Fatalf("line %d: TYPE without HELP before it: %q", i+1, line)
			}
			typed[f[0]] = f[1]
			continue
		}
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %d: not a sample: %q", i+1, line)
		}
		family := m[1]
		if typed[family] == "" {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				if base, ok := strings.CutSuffix(family, suffix); ok && typed[base] == "histogram" {
					family = base
				}
			}
		}
		if typed[family] == "" {
			t.Fatalf("line %d: sample of %s before its HELP and TYPE", i+1, m[1])
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("line %d: value %q: %v", i+1, m[3], err)
		}
		out[m[1]+m[2]] = v
	}
	return out
}

// TestMetricsByRoutePattern: can an SRE tell which route is slow or
// failing, see failed reloads and the data's age from /metrics? Requests
// are counted by the route pattern they matched (every route, not a
// hand-kept list), the latency histogram's buckets are cumulative and end
// at +Inf = count, a failed reload is counted, and the loaded data's time
// is a gauge.
func TestMetricsByRoutePattern(t *testing.T) {
	fail := false
	loads := 0
	load := func(ctx context.Context) (*server.Data, error) {
		if fail {
			return nil, errors.New("database locked")
		}
		loads++
		d, err := loadEmbedded(ctx)
		if err == nil {
			d.Loaded = now
		}
		return d, err
	}
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/claims", "/claims", "/api/v1/offers/aws/p5.48xlarge/us-east-1/on-demand", "/api/v1/offers/nope/x/y/z", "/healthz"} {
		get(t, srv, target)
	}
	fail = true
	if err := srv.Reload(context.Background()); err == nil {
		t.Fatal("the reload should fail")
	}
	got := parseExposition(t, get(t, srv, "/metrics").Body.String())
	for key, want := range map[string]float64{
		`gpuscout_http_requests_total{route="GET /claims",status="2xx"}`:                2,
		`gpuscout_http_requests_total{route="GET /api/v1/offers/{id...}",status="2xx"}`: 1,
		`gpuscout_http_requests_total{route="GET /api/v1/offers/{id...}",status="4xx"}`: 1,
		`gpuscout_http_requests_total{route="GET /healthz",status="2xx"}`:               1,
		`gpuscout_http_request_duration_seconds_count{route="GET /claims"}`:             2,
		`gpuscout_http_request_duration_seconds_bucket{route="GET /claims",le="+Inf"}`:  2,
		`gpuscout_catalog_reloads_total`:                                                1,
		`gpuscout_catalog_reload_failures_total`:                                        1,
		`gpuscout_data_loaded_timestamp_seconds`:                                        float64(now.Unix()),
		`gpuscout_snapshot_timestamp_seconds`:                                           0,
	} {
		if v, ok := got[key]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", key, v, ok, want)
		}
	}
	for key := range got {
		if strings.Contains(key, `route="other"`) {
			t.Errorf("a request counted under \"other\": %s", key)
		}
	}
	if got["gpuscout_catalog_offers"] < 1000 || got["go_goroutines"] < 1 {
		t.Errorf("offers %v, goroutines %v", got["gpuscout_catalog_offers"], got["go_goroutines"])
	}
	// buckets are cumulative, in order, and end at the count
	body := get(t, srv, "/metrics").Body.String()
	prev, prevLE := -1.0, 0.0
	for _, line := range strings.Split(body, "\n") {
		m := sampleLine.FindStringSubmatch(line)
		if m == nil || m[1] != "gpuscout_http_request_duration_seconds_bucket" || !strings.Contains(m[2], `route="GET /claims"`) {
			continue
		}
		le := regexp.MustCompile(`le="([^"]*)"`).FindStringSubmatch(m[2])[1]
		v, _ := strconv.ParseFloat(m[3], 64)
		bound, _ := strconv.ParseFloat(strings.Replace(le, "+Inf", "Inf", 1), 64)
		if v < prev || (prev >= 0 && bound <= prevLE) {
			t.Errorf("buckets not cumulative or not in order at le=%s: %v after %v", le, v, prev)
		}
		prev, prevLE = v, bound
	}
	if prev != 2 {
		t.Errorf("the last bucket of GET /claims is %v, want the count 2", prev)
	}
}
