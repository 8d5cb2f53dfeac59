package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func post(h http.Handler, target, ctype, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", target, strings.NewReader(body))
	req.Header.Set("Content-Type", ctype)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestHostileJobBodies (issue 25 item 4): a YAML job with 90,000 keys cost
// 21.8 s of CPU on POST /api/v1/recommend and /advisor; it is refused now,
// before it is decoded (a bound on the bytes the refusal allocates: an
// ordinary advisor request allocates about 1 MB), with a message in the
// request's language, and /advisor answers a form over the body limit with
// 413 like the API. The time is BenchmarkHostileJobBodies's.
func TestHostileJobBodies(t *testing.T) {
	srv := newServer(t)
	var keys strings.Builder
	for i := range 90000 {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	var flow strings.Builder
	flow.WriteString("name: {")
	for i := 0; flow.Len() < 60000; i++ {
		fmt.Fprintf(&flow, "k%d: 1, ", i)
	}
	flow.WriteString("z: 1}\n")
	for _, c := range []struct {
		name, target, ctype, body string
		status                    int
		want                      string
	}{
		{"API 90k keys en", "/api/v1/recommend?lang=en", "application/yaml", keys.String(), 413, "The job description is over 65536 bytes"},
		{"API 90k keys zh", "/api/v1/recommend?lang=zh", "application/yaml", keys.String(), 413, "作业描述超过 65536 字节"},
		{"API flow map", "/api/v1/recommend?lang=en", "application/yaml", flow.String(), 400, "more than 2000 keys, values and list items"},
		{"advisor flow map zh", "/advisor?lang=zh", "application/x-www-form-urlencoded", url.Values{"job": {flow.String()}}.Encode(), 400, "键、值和列表项超过 2000 个"},
		{"advisor oversize form en", "/advisor?lang=en", "application/x-www-form-urlencoded", "job=" + strings.Repeat("a", 2<<20), 413, "The form is over 1048576 bytes."},
		{"advisor oversize form zh", "/advisor?lang=zh", "application/x-www-form-urlencoded", "job=" + strings.Repeat("a", 2<<20), 413, "表单超过 1048576 字节。"},
	} {
		var rec *httptest.ResponseRecorder
		b := allocBytes(func() { rec = post(srv, c.target, c.ctype, c.body) })
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%s: status %d, want %d with %q: %.300s", c.name, rec.Code, c.status, c.want, rec.Body)
		}
		// the oversize forms are read up to the limit (1 MiB) and the
		// recorder keeps the body, so their bound is the same with room
		if b > maxRefusalBytes {
			t.Errorf("%s: refusing allocated %d bytes, want at most %d", c.name, b, maxRefusalBytes)
		}
	}
}

// BenchmarkHostileJobBodies measures refusing a 60 KB YAML flow mapping
// (over the node limit) on POST /api/v1/recommend.
func BenchmarkHostileJobBodies(b *testing.B) {
	srv := newServer(b)
	var flow strings.Builder
	flow.WriteString("name: {")
	for i := 0; flow.Len() < 60000; i++ {
		fmt.Fprintf(&flow, "k%d: 1, ", i)
	}
	flow.WriteString("z: 1}\n")
	body := flow.String()
	b.ReportAllocs()
	for b.Loop() {
		if rec := post(srv, "/api/v1/recommend?lang=en", "application/yaml", body); rec.Code != 400 {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
