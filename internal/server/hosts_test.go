package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/server"
)

func serverWith(t *testing.T, cfg server.Config) *server.Server {
	t.Helper()
	cfg.Load, cfg.Now = loadEmbedded, func() time.Time { return now }
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func getHost(srv *server.Server, host, target string, hdr ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", target, nil)
	req.Host = host
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// TestAllowedHosts (issue 25 item 5): a server on loopback answers only its
// own names, so a page on another site cannot read it through DNS
// rebinding; other hosts get 421 with a message in their language, and
// /healthz answers any host (probes use the pod's IP).
func TestAllowedHosts(t *testing.T) {
	srv := serverWith(t, server.Config{Hosts: server.DefaultHostPolicy("127.0.0.1:8080")})
	for _, host := range []string{"127.0.0.1:8080", "localhost:8080", "LOCALHOST", "[::1]:8080", "localhost."} {
		if rec := getHost(srv, host, "/api/v1/gpus?gpu=H100"); rec.Code != 200 {
			t.Errorf("Host %s: status %d", host, rec.Code)
		}
	}
	for _, c := range []struct{ host, target, want string }{
		{"rebind.attacker.example:8080", "/api/v1/gpus?lang=en", `This server does not answer for host \"rebind.attacker.example\"`},
		{"rebind.attacker.example", "/offers?lang=zh", `此服务器不响应主机 "rebind.attacker.example"`},
		{"10.1.2.3", "/metrics", "does not answer for host"},
		{"", "/about", "does not answer"},
	} {
		rec := getHost(srv, c.host, c.target)
		if rec.Code != 421 || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("Host %q %s: status %d, body %.200s", c.host, c.target, rec.Code, rec.Body)
		}
	}
	if rec := getHost(srv, "10.42.0.7:8080", "/healthz"); rec.Code != 200 {
		t.Errorf("/healthz from a probe: status %d", rec.Code)
	}

	named := serverWith(t, server.Config{Hosts: server.ParseHostPolicy("gpuscout.example.com, *.internal.example")})
	for host, want := range map[string]int{"gpuscout.example.com": 200, "GPUSCOUT.example.com:443": 200, "a.internal.example": 200,
		"internal.example": 421, "example.com": 421, "gpuscout.example.com.evil": 421} {
		if rec := getHost(named, host, "/api/v1/catalog/stats"); rec.Code != want {
			t.Errorf("--allowed-hosts: Host %s: status %d, want %d", host, rec.Code, want)
		}
	}
	for _, addr := range []string{":8080", "0.0.0.0:8080", "[::]:8080"} {
		if p := server.DefaultHostPolicy(addr); !p.Any {
			t.Errorf("%s: default policy %+v, want any host", addr, p)
		}
	}
	if p := server.ParseHostPolicy("*"); !p.Any {
		t.Errorf("* is not any host")
	}
}

// TestMetricsAccess (issue 25 item 5): /metrics can be switched off (404)
// or served only with a bearer token (401 otherwise, in the request's
// language).
func TestMetricsAccess(t *testing.T) {
	off := serverWith(t, server.Config{Metrics: server.MetricsOff})
	if rec := get(t, off, "/metrics"); rec.Code != 404 || strings.Contains(rec.Body.String(), "gpuscout_http_requests_total") {
		t.Errorf("metrics off: status %d", rec.Code)
	}
	tok := serverWith(t, server.Config{Metrics: server.MetricsToken, MetricsToken: "s3cret-token"})
	for _, c := range []struct {
		hdr  []string
		code int
		want string
	}{
		{nil, 401, "The metrics need a bearer token"},
		{[]string{"Authorization", "Bearer wrong", "Accept-Language", "zh-CN"}, 401, "读取指标需要持有者令牌"},
		{[]string{"Authorization", "s3cret-token"}, 401, "bearer token"},
		{[]string{"Authorization", "Bearer s3cret-token"}, 200, "gpuscout_http_requests_total"},
	} {
		rec := get(t, tok, "/metrics", c.hdr...)
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%v: status %d, body %.200s", c.hdr, rec.Code, rec.Body)
		}
		if c.code == 401 && rec.Header().Get("WWW-Authenticate") == "" {
			t.Errorf("%v: no WWW-Authenticate", c.hdr)
		}
	}
	if _, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Metrics: server.MetricsToken}); err == nil {
		t.Errorf("metrics by token without a token: no error")
	}
	var doc map[string]any
	if rec := get(t, tok, "/healthz"); rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &doc) != nil {
		t.Errorf("/healthz: status %d", rec.Code)
	}
}
