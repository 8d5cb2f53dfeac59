package server

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// HostPolicy says which Host headers the server answers: a page or API
// answer for any other host is refused with 421, so that a web page on
// another site cannot reach a local server through DNS rebinding.
type HostPolicy struct {
	// Any accepts every Host.
	Any bool
	// Hosts are host names or IP addresses, compared without the port and
	// case-insensitively; "*.example.com" accepts the subdomains of
	// example.com.
	Hosts []string
}

// DefaultHostPolicy is the policy for a server listening on addr: on a
// loopback address, the address itself and localhost, 127.0.0.1 and [::1];
// on every interface (":8080", "0.0.0.0:8080", "[::]:8080") any host,
// since the names a proxy or a cluster reaches it by cannot be known (set
// --allowed-hosts to restrict them); on one other address, that address.
func DefaultHostPolicy(addr string) HostPolicy {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	host = strings.Trim(host, "[]")
	ip := net.ParseIP(host)
	switch {
	case host == "" || (ip != nil && ip.IsUnspecified()):
		return HostPolicy{Any: true}
	case strings.EqualFold(host, "localhost") || (ip != nil && ip.IsLoopback()):
		return HostPolicy{Hosts: dedupe([]string{host, "localhost", "127.0.0.1", "::1"})}
	}
	return HostPolicy{Hosts: []string{host}}
}

// ParseHostPolicy reads --allowed-hosts: "*" for any host, else a comma-
// separated list of host names or addresses (ports are ignored).
func ParseHostPolicy(s string) HostPolicy {
	var p HostPolicy
	for _, h := range strings.Split(s, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if h == "*" {
			return HostPolicy{Any: true}
		}
		p.Hosts = append(p.Hosts, hostOnly(h))
	}
	return p
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if k := strings.ToLower(s); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// hostOnly is a Host header's host: without the port and the brackets of
// an IPv6 address, lower case, without a trailing dot.
func hostOnly(h string) string {
	if host, _, err := net.SplitHostPort(h); err == nil {
		h = host
	}
	return strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
}

// allows reports whether the policy accepts a Host header.
func (p HostPolicy) allows(host string) bool {
	if p.Any {
		return true
	}
	h := hostOnly(host)
	if h == "" {
		return false
	}
	for _, a := range p.Hosts {
		a = hostOnly(a)
		if a == h || (strings.HasPrefix(a, "*.") && strings.HasSuffix(h, a[1:])) {
			return true
		}
	}
	return false
}

// hostCheck refuses requests for a host the policy does not accept with
// 421 Misdirected Request. /healthz answers any host (as /livez and /readyz,
// which are answered before this check): probes address the server by
// whatever IP they see.
func (s *Server) hostCheck(next http.Handler) http.Handler {
	if s.cfg.Hosts.Any || len(s.cfg.Hosts.Hosts) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" || s.cfg.Hosts.allows(r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		msg := i18n.NewPrinter(requestLang(r)).T("web.limit.host", hostOnly(r.Host))
		w.Header().Set("Cache-Control", "no-store")
		if strings.HasPrefix(r.URL.Path, "/api/") {
			s.writeError(w, r, &apiError{Status: http.StatusMisdirectedRequest, Code: "misdirected", Field: "Host", Message: msg})
			return
		}
		http.Error(w, msg, http.StatusMisdirectedRequest)
	})
}

// MetricsAccess says who may read /metrics.
type MetricsAccess int

const (
	// MetricsOpen serves /metrics to anyone (the default).
	MetricsOpen MetricsAccess = iota
	// MetricsOff answers /metrics with 404.
	MetricsOff
	// MetricsToken serves /metrics to requests carrying
	// "Authorization: Bearer <Config.MetricsToken>".
	MetricsToken
)

// serveMetrics guards the metrics endpoint by the configured access.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	switch s.cfg.Metrics {
	case MetricsOff:
		s.pageNotFound(w, r)
		return
	case MetricsToken:
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || s.cfg.MetricsToken == "" || subtle.ConstantTimeCompare([]byte(got), []byte(s.cfg.MetricsToken)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="gpuscout metrics"`)
			w.Header().Set("Cache-Control", "no-store")
			http.Error(w, i18n.NewPrinter(requestLang(r)).T("web.limit.metrics"), http.StatusUnauthorized)
			return
		}
	}
	s.metrics.serve(w, r)
}
