package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/server"
)

// fuzzRoutes are the server's GET routes, a path per pattern.
var fuzzRoutes = []string{
	"/", "/offers", "/offers.csv", "/compare", "/advisor", "/gpus", "/about", "/providers", "/spot", "/claims",
	"/estimate", "/rightsize", "/instances/acme/big8", "/healthz", "/metrics", "/favicon.ico", "/static/app.css",
	"/api/v1/offers", "/api/v1/offers/acme/big8/us-east/on-demand", "/api/v1/gpus", "/api/v1/instances",
	"/api/v1/instances/acme/big8", "/api/v1/catalog/stats", "/api/v1/catalog/sources", "/api/v1/tco",
	"/api/v1/providers", "/api/v1/regions", "/api/v1/cost", "/api/v1/estimate", "/api/v1/spot",
	"/api/v1/history", "/api/v1/openapi.json", "/api/v1/nope", "/nope",
}

// maxFuzzResponse bounds any answer on the fixture catalog (the largest,
// the OpenAPI document and the explorer, are well under it).
const maxFuzzResponse = 4 << 20

// FuzzRoutes throws random paths and query strings at every route (issue
// 25): no answer may be a 5xx (a bad request is the caller's fault) and no
// answer may grow past maxFuzzResponse, whatever the query asks for.
func FuzzRoutes(f *testing.F) {
	for i, q := range []string{
		"", "lang=zh", "page=0", "page=-1", "page=1.5", "page=abc", "page=99999999999999999999", "limit=0", "limit=-1",
		"offset=99999999999", "gpu=A100&gpu=A100&gpu=A100", "gpu=" + strings.Repeat("A,", 200), "offer=" + strings.Repeat("x", 300),
		"offer=acme/big8/us-east/on-demand&offer=acme/small1/us-east/on-demand&months=240&onprem=A100",
		"offer=acme/big8/us-east/spot&work_hours=1e308&trials=200000", "currency=XXX", "per=gpu-hour&order=vram&desc=true",
		"cols=provider,nope&col=%00", "q=%3Cscript%3E&size=1000000", "job=" + url.QueryEscape("a: &a [*a, *a]"),
		"form=1&kind=train&size_b=1e308&tokens_b=-1", "workload=transformer-train&params=7e9&tokens=1e12&gpu=A100",
		"zz=" + strings.Repeat("J", 4000), "lang=xx&currency=cny&min_gpus=NaN&max_price=1e-400", "%zz=%", "a;b=c",
	} {
		f.Add(uint8(i), "", q)
	}
	f.Add(uint8(18), "/../../etc/passwd", "")
	f.Add(uint8(20), "x/"+strings.Repeat("y", 300), "")
	f.Add(uint8(12), "%2F..%2F", "lang=zh")
	srv, err := server.New(context.Background(), server.Config{Load: loadFixture, Now: func() time.Time { return now }, MaxBody: 64 << 10})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, route uint8, suffix, rawQuery string) {
		path := fuzzRoutes[int(route)%len(fuzzRoutes)] + suffix
		req := httptest.NewRequest("GET", "/", nil)
		req.URL = &url.URL{Path: path, RawQuery: rawQuery}
		req.RequestURI = req.URL.RequestURI()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("GET %q ? %q: status %d: %.500s", path, rawQuery, rec.Code, rec.Body)
		}
		if rec.Code == http.StatusOK && rec.Body.Len() == 0 && req.URL.Path != "/favicon.ico" {
			t.Fatalf("GET %q ? %q: 200 with an empty body", path, rawQuery)
		}
		if n := rec.Body.Len(); n > maxFuzzResponse {
			t.Fatalf("GET %q ? %q: %d bytes", path, rawQuery, n)
		}
	})
}
