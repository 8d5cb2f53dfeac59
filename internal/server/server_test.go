package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// now pins the clock so freshness badges and advisor dates are stable.
var now = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

// loadEmbedded loads the real embedded catalog, as gpuscout serve does
// without a database.
func loadEmbedded(ctx context.Context) (*server.Data, error) {
	return loadCatalog(curated.Embedded(), nil)(ctx)
}

// loadCatalog is a server's Load of the catalog in base with overlay
// (nil: none) over it, as gpuscout serve --catalog builds it.
func loadCatalog(base, overlay fs.FS) func(context.Context) (*server.Data, error) {
	return func(context.Context) (*server.Data, error) {
		ds, err := curated.Load(base, overlay)
		if err != nil {
			return nil, err
		}
		m, _, err := perf.New(ds.Catalog)
		if err != nil {
			return nil, err
		}
		return &server.Data{Catalog: ds.Catalog, FX: ds.FX, Perf: m,
			Pricing: &pricing.Engine{Prices: ds.Catalog, FX: ds.FX, Spot: spot.CostHook{Facts: ds.Catalog}}}, nil
	}
}

var (
	sharedOnce sync.Once
	sharedSrv  *server.Server
	sharedErr  error
)

// newServer returns one server over the embedded catalog for all tests that
// only read.
func newServer(t testing.TB) *server.Server {
	t.Helper()
	sharedOnce.Do(func() {
		sharedSrv, sharedErr = server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now }})
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedSrv
}

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// apiCase is one request and the status it must get.
type apiCase struct {
	name, method, target string
	body                 []byte
	status               int
}

func apiCases(t *testing.T) []apiCase {
	return []apiCase{
		{"offers default", "GET", "/api/v1/offers", nil, 200},
		{"offers filtered", "GET", "/api/v1/offers?gpu=A100,H100&min_gpus=8&billing=on-demand&per=gpu-hour&sort=gpu-price&limit=5&currency=CNY", nil, 200},
		{"offers repeated params", "GET", "/api/v1/offers?gpu=A100&gpu=H100&provider=aws&provider=gcp&cheapest_region=true", nil, 200},
		{"offers china residency", "GET", "/api/v1/offers?residency=cn-mainland&per_provider=2", nil, 200},
		{"offers fabric and order", "GET", "/api/v1/offers?interconnect=nvswitch&rdma=true&order=vram&desc=true&per=year&min_price=1000", nil, 200},
		{"offers bad order", "GET", "/api/v1/offers?order=colour", nil, 400},
		{"offers none", "GET", "/api/v1/offers?gpu=H100&max_price=0.0001", nil, 200},
		{"offer by id", "GET", "/api/v1/offers/aws/p5.48xlarge/us-east-1/on-demand?currency=EUR", nil, 200},
		{"gpus", "GET", "/api/v1/gpus", nil, 200},
		{"gpus family", "GET", "/api/v1/gpus?gpu=H100", nil, 200},
		{"instances", "GET", "/api/v1/instances?provider=tencent", nil, 200},
		{"stats", "GET", "/api/v1/catalog/stats", nil, 200},
		{"sources", "GET", "/api/v1/catalog/sources", nil, 200},
		{"tco", "GET", "/api/v1/tco?offer=aws/p5.48xlarge/us-east-1/on-demand&offer=gcp/a3-highgpu-8g/us-central1/committed-3y&onprem=H100&months=36", nil, 200},
		{"recommend yaml", "POST", "/api/v1/recommend", readExample(t, "distributed-training.yaml"), 200},
		{"recommend json zh", "POST", "/api/v1/recommend?lang=zh", []byte(`{"workload":{"inference":{"params":7e9,"tokens_per_second":1000}},"horizon_months":12,"location":{"residency":["cn-mainland"]},"currency":"CNY"}`), 200},
		{"unknown gpu", "GET", "/api/v1/offers?gpu=H1000", nil, 400},
		{"bad number", "GET", "/api/v1/offers?min_gpus=eight", nil, 400},
		{"bad billing", "GET", "/api/v1/offers?billing=monthly-ish", nil, 400},
		{"offers windows", "GET", "/api/v1/offers?os=windows", nil, 200},
		{"bad os", "GET", "/api/v1/offers?os=macos", nil, 400},
		{"bad currency", "GET", "/api/v1/offers?currency=XYZ", nil, 400},
		{"unknown offer", "GET", "/api/v1/offers/aws/p5.48xlarge/mars-1/on-demand", nil, 404},
		{"tco nothing", "GET", "/api/v1/tco", nil, 400},
		{"recommend bad yaml", "POST", "/api/v1/recommend", []byte("workload: [unclosed"), 400},
		{"recommend impossible", "POST", "/api/v1/recommend", []byte(`{"workload":{"job":{"kind":"transformer-train","params":7e9,"tokens":1e12}},"gpu":{"min_gpus":100000}}`), 422},
		{"recommend too large", "POST", "/api/v1/recommend", bytes.Repeat([]byte("#"), 2<<20), 413},
	}
}

// TestAPIConformsToOpenAPI sends every kind of request and validates the
// status, content type and body against the published OpenAPI document.
func TestAPIConformsToOpenAPI(t *testing.T) {
	srv := newServer(t)
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(server.OpenAPI)
	if err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not valid OpenAPI: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range apiCases(t) {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ts.URL+c.target, bytes.NewReader(c.body))
			req.Header.Set("Content-Type", "application/yaml")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, c.status, trim(body))
			}
			path := strings.SplitN(c.target, "?", 2)[0]
			tmpl := path
			if strings.HasPrefix(path, "/api/v1/offers/") {
				tmpl = "/api/v1/offers/{id}"
			}
			item := doc.Paths.Value(tmpl)
			if item == nil {
				t.Fatalf("%s is not in openapi.json", tmpl)
			}
			op := item.GetOperation(c.method)
			if op == nil {
				t.Fatalf("%s %s is not in openapi.json", c.method, tmpl)
			}
			route := &routers.Route{Spec: doc, Path: tmpl, PathItem: item, Method: c.method, Operation: op}
			in := &openapi3filter.RequestValidationInput{Request: req, Route: route,
				Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
			if tmpl == "/api/v1/offers/{id}" {
				in.PathParams = map[string]string{"id": strings.TrimPrefix(path, "/api/v1/offers/")}
			}
			if err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(body)),
				Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
			}); err != nil {
				t.Fatalf("response does not match openapi.json: %v\n%s", err, trim(body))
			}
		})
	}
}

func trim(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

func get(t *testing.T, h http.Handler, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestOffersAPIMatchesCLI: the API returns exactly the document that
// gpuscout offers -o json prints for the same query.
func TestOffersAPIMatchesCLI(t *testing.T) {
	srv := newServer(t)
	rec := get(t, srv, "/api/v1/offers?gpu=A100,H100&min_gpus=8&per=gpu-hour&sort=gpu-price&cheapest_region=true&per_provider=2&limit=10&currency=CNY")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var out, errOut bytes.Buffer
	code := cli.Main(context.Background(), []string{"offers", "--gpu", "A100,H100", "--min-gpus", "8", "--per", "gpu-hour", "--sort", "gpu-price",
		"--cheapest-region", "--per-provider", "2", "--limit", "10", "--currency", "CNY", "-o", "json", "--db", t.TempDir() + "/none.db"},
		cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut},
		cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }, IsTTY: func() bool { return false }})
	if code != 0 {
		t.Fatalf("cli exit %d: %s", code, errOut.String())
	}
	var api, cliDoc any
	if err := json.Unmarshal(rec.Body.Bytes(), &api); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &cliDoc); err != nil {
		t.Fatal(err)
	}
	// next (the URL of the following page) is the API's own: a CLI run
	// has no URL to page with.
	if m, ok := api.(map[string]any); ok {
		if _, ok := m["next"]; !ok {
			t.Errorf("limit=10 of more matches: no next link")
		}
		delete(m, "next")
	}
	a, _ := json.Marshal(api)
	c, _ := json.Marshal(cliDoc)
	if !bytes.Equal(a, c) {
		t.Fatalf("API and CLI documents differ:\nAPI %s\nCLI %s", trim(a), trim(c))
	}
	if !strings.Contains(string(a), `"currency":"CNY"`) || !strings.Contains(string(a), `"per_usd"`) {
		t.Fatalf("the document should be in CNY with the rate used: %s", trim(a))
	}
}

// TestAPIErrorsNameTheField: a user who mistypes gets the field, the
// reason and a suggestion, as JSON.
func TestAPIErrorsNameTheField(t *testing.T) {
	srv := newServer(t)
	for target, want := range map[string][2]string{
		"/api/v1/offers?gpu=H1000":                 {"gpu", "did you mean H100"},
		"/api/v1/offers?min_gpus=-1":               {"min_gpus", "non-negative"},
		"/api/v1/offers?currency=XYZ":              {"currency", "XYZ"},
		"/api/v1/tco?offer=aws/p5.48xlarge/x/spot": {"offer", "aws/p5.48xlarge"},
		"/api/v1/tco?onprem=T4":                    {"onprem", "T4"},
		"/api/v1/offers?limit=many":                {"limit", "whole number"},
	} {
		rec := get(t, srv, target)
		if rec.Code != 400 {
			t.Errorf("%s: status %d, want 400", target, rec.Code)
			continue
		}
		var body struct {
			Error struct{ Code, Message, Field string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatalf("%s: error body is not JSON: %v", target, err)
		}
		if body.Error.Field != want[0] || !strings.Contains(body.Error.Message, want[1]) || body.Error.Code != "bad_request" {
			t.Errorf("%s: got %+v, want field %q and message containing %q", target, body.Error, want[0], want[1])
		}
	}
}

// TestTCOAPIRanksPlans: the API's comparison names the cheapest plan and a
// buy-vs-rent break-even, in the requested currency.
func TestTCOAPIRanksPlans(t *testing.T) {
	srv := newServer(t)
	rec := get(t, srv, "/api/v1/tco?offer=aws/p5.48xlarge/us-east-1/on-demand&onprem=H100&months=36&currency=USD")
	var doc struct {
		Currency string
		Months   int
		Cheapest string
		Plans    []struct {
			Name    string
			Total   float64
			Monthly []struct{ Amount float64 }
		}
		BreakEven []struct{ Kind, Text string } `json:"break_even"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Plans) != 2 || doc.Months != 36 || len(doc.Plans[0].Monthly) != 36 {
		t.Fatalf("want 2 plans over 36 months, got %+v", doc)
	}
	// Renting an 8×H100 on demand around the clock for three years costs
	// more than buying and hosting the server.
	if !strings.HasPrefix(doc.Cheapest, "buy ") {
		t.Errorf("cheapest = %q, want the on-premises plan", doc.Cheapest)
	}
	if len(doc.BreakEven) == 0 {
		t.Error("no break-even point reported")
	}
}

// TestSecurityHeadersAndLimits: every response carries the security headers;
// the static bundle is cached; bodies over the limit are refused.
func TestSecurityHeadersAndLimits(t *testing.T) {
	srv := newServer(t)
	for _, target := range []string{"/offers", "/api/v1/gpus", "/nope"} {
		rec := get(t, srv, target)
		h := rec.Header()
		if !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'self'") || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: missing security headers: %v", target, h)
		}
	}
	rec := get(t, srv, "/static/app.css")
	if rec.Code != 200 || !strings.Contains(rec.Header().Get("Cache-Control"), "max-age") {
		t.Errorf("static asset: status %d, headers %v", rec.Code, rec.Header())
	}
}

// TestPagesRenderInBothLanguages: each page renders in English and Chinese,
// the language follows ?lang, the cookie and Accept-Language, and prices
// default to CNY in Chinese.
func TestPagesRenderInBothLanguages(t *testing.T) {
	srv := newServer(t)
	pages := map[string][2]string{
		"/offers?gpu=H100&min_gpus=8":                                    {"GPU offers across clouds", "各云厂商 GPU 报价"},
		"/compare?offer=aws/p5.48xlarge/us-east-1/on-demand&onprem=H100": {"Total cost over time", "总拥有成本"},
		"/advisor?example=distributed-training":                          {"Ranked plans", "推荐方案"},
		"/gpus":                                                          {"GPU models", "GPU 型号"},
		"/about":                                                         {"Where the figures come from", "数据出处"},
	}
	for target, want := range pages {
		en := get(t, srv, target, "Accept-Language", "en-US,en;q=0.9")
		if en.Code != 200 || !strings.Contains(en.Body.String(), want[0]) {
			t.Errorf("%s (en): status %d, %q missing", target, en.Code, want[0])
		}
		zh := get(t, srv, target, "Accept-Language", "zh-CN,zh;q=0.9")
		if zh.Code != 200 || !strings.Contains(zh.Body.String(), want[1]) || !strings.Contains(zh.Body.String(), `lang="zh-CN"`) {
			t.Errorf("%s (zh): status %d, %q missing", target, zh.Code, want[1])
		}
	}
	// ?lang sets a cookie that later requests follow.
	rec := get(t, srv, "/gpus?lang=zh")
	var cookie *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "lang" {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != "zh" {
		t.Fatalf("no lang cookie set: %v", rec.Result().Cookies())
	}
	rec = get(t, srv, "/offers?gpu=A100", "Cookie", "lang=zh")
	body := rec.Body.String()
	if !strings.Contains(body, "报价") || !strings.Contains(body, "CNY / 实例·小时") {
		t.Errorf("Chinese offers page should price in CNY: %s", trim([]byte(body)))
	}
	if !strings.Contains(body, "按量付费") {
		t.Error("billing models should use the providers' Chinese terms (按量付费)")
	}
}

// TestOffersPageShowsTheCheapestRegionAndChart: by default the page lists
// each instance and billing model once and embeds the chart data.
func TestOffersPageShowsTheCheapestRegionAndChart(t *testing.T) {
	srv := newServer(t)
	body := get(t, srv, "/offers?gpu=H100&min_gpus=8&billing=on-demand&provider=lambda&lang=en").Body.String()
	if n := strings.Count(body, `data-offer="lambda/gpu_8x_h100_sxm5/`); n != 1 {
		t.Errorf("the 8×H100 Lambda on-demand offer should appear once (cheapest region), got %d rows", n)
	}
	if !strings.Contains(body, `data-chart="chart-offers"`) || !strings.Contains(body, `<script type="application/json" id="chart-offers">{`) {
		t.Error("the offers chart and its data are missing")
	}
	all := get(t, srv, "/offers?gpu=H100&min_gpus=8&billing=on-demand&provider=lambda&cheapest_region=false&lang=en").Body.String()
	if n := strings.Count(all, `data-offer="lambda/gpu_8x_h100_sxm5/`); n < 2 {
		t.Errorf("every region should be listed when asked, got %d rows", n)
	}
	bad := get(t, srv, "/offers?gpu=H1000&lang=en")
	if bad.Code != 400 || !strings.Contains(bad.Body.String(), "did you mean H100") || !strings.Contains(bad.Body.String(), `data-error-field="gpu"`) {
		t.Errorf("a bad filter should show the error on the page: %d %s", bad.Code, trim(bad.Body.Bytes()))
	}
}

// TestAdvisorPageRunsAPostedJob: the form posts YAML and gets ranked plans
// with reasons; a broken job shows the parser's error.
func TestAdvisorPageRunsAPostedJob(t *testing.T) {
	srv := newServer(t)
	form := url.Values{"job": {string(readExample(t, "inference-china.yaml"))}}
	req := httptest.NewRequest("POST", "/advisor?lang=zh", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `class="plan card"`) || !strings.Contains(body, "CNY") {
		t.Fatalf("status %d; want ranked plans in CNY: %s", rec.Code, trim([]byte(body)))
	}
	plans := regexp.MustCompile(`data-plan="([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(plans) == 0 {
		t.Fatal("no plan cards")
	}
	for _, m := range plans {
		parts := strings.Split(m[1], "/")
		if len(parts) != 4 || !(parts[0] == "alibaba" || parts[0] == "tencent" || strings.HasPrefix(parts[2], "cn-")) {
			t.Errorf("an inference service restricted to mainland China got plan %s", m[1])
		}
	}
	// The share link reproduces the plans with a GET.
	share := regexp.MustCompile(`href="(/advisor\?[^"]+)" data-share`).FindStringSubmatch(body)
	if share == nil {
		t.Fatal("no share link")
	}
	again := get(t, srv, html.UnescapeString(share[1]))
	if again.Code != 200 || regexp.MustCompile(`data-plan="([^"]+)"`).FindString(again.Body.String()) != regexp.MustCompile(`data-plan="([^"]+)"`).FindString(body) {
		t.Errorf("the shared advisor link shows different plans (status %d)", again.Code)
	}
	form = url.Values{"job": {"workload: {job: {kind: transformer-train, params: -5}}"}}
	req = httptest.NewRequest("POST", "/advisor", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), `role="alert"`) {
		t.Errorf("a broken job should show an error: %d", rec.Code)
	}
}

// TestReloadSwapsDataAtomically: requests during reloads always see a whole
// catalog; a failed reload keeps serving the previous data.
func TestReloadSwapsDataAtomically(t *testing.T) {
	var calls atomic.Int32
	fail := atomic.Bool{}
	load := func(ctx context.Context) (*server.Data, error) {
		calls.Add(1)
		if fail.Load() {
			return nil, errors.New("database locked")
		}
		return loadEmbedded(ctx)
	}
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Data()
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var bad atomic.Int32
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if rec := get(t, srv, "/api/v1/offers?gpu=H100&limit=3"); rec.Code != 200 {
					bad.Add(1)
				}
			}
		}()
	}
	for i := 0; i < 3; i++ {
		if err := srv.Reload(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if bad.Load() > 0 {
		t.Fatalf("%d requests failed during reloads", bad.Load())
	}
	if srv.Data() == before {
		t.Fatal("reload did not swap the data")
	}
	fail.Store(true)
	current := srv.Data()
	if err := srv.Reload(context.Background()); err == nil || !strings.Contains(err.Error(), "database locked") {
		t.Fatalf("reload error = %v", err)
	}
	if srv.Data() != current || get(t, srv, "/healthz").Code != 200 {
		t.Fatal("a failed reload must keep the previous data")
	}
	if !strings.Contains(get(t, srv, "/metrics").Body.String(), "gpuscout_catalog_reloads_total 4") {
		t.Error("metrics should count 4 successful loads")
	}
}

// TestListenAndServeShutsDownGracefully: a request in flight when the
// server is told to stop still completes.
func TestListenAndServeShutsDownGracefully(t *testing.T) {
	srv := newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a }) }()
	addr := <-addrc
	resp, err := http.Get("http://" + addr.String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var health map[string]any
	json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if health["status"] != "ok" || health["offers"].(float64) < 1000 {
		t.Fatalf("healthz = %v", health)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("server did not stop")
	}
	if _, err := http.Get("http://" + addr.String() + "/healthz"); err == nil {
		t.Fatal("server still answers after shutdown")
	}
}

// TestResponseCache: a repeated GET is replayed from the cache with the same
// body; the language is part of the key; a reload empties the cache.
func TestResponseCache(t *testing.T) {
	srv, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	target := "/api/v1/offers?gpu=L40S&limit=3"
	first := get(t, srv, target)
	second := get(t, srv, target)
	if first.Header().Get("X-Cache") != "" || second.Header().Get("X-Cache") != "hit" {
		t.Fatalf("X-Cache: first %q, second %q", first.Header().Get("X-Cache"), second.Header().Get("X-Cache"))
	}
	if first.Body.String() != second.Body.String() || second.Header().Get("Content-Type") != first.Header().Get("Content-Type") {
		t.Fatal("the cached response differs from the first")
	}
	en := get(t, srv, "/gpus", "Accept-Language", "en")
	zh := get(t, srv, "/gpus", "Accept-Language", "zh-CN")
	if zh.Header().Get("X-Cache") == "hit" || !strings.Contains(zh.Body.String(), "GPU 型号") || strings.Contains(en.Body.String(), "GPU 型号") {
		t.Fatal("a page cached in one language was served in another")
	}
	if bad := get(t, srv, "/api/v1/offers?gpu=H1000"); get(t, srv, "/api/v1/offers?gpu=H1000").Header().Get("X-Cache") == "hit" || bad.Code != 400 {
		t.Fatal("errors must not be cached")
	}
	if err := srv.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if get(t, srv, target).Header().Get("X-Cache") == "hit" {
		t.Fatal("a reload must empty the cache")
	}
	if m := get(t, srv, "/metrics").Body.String(); !strings.Contains(m, `gpuscout_response_cache_total{result="hit"} 1`) {
		t.Errorf("metrics should count one cache hit:\n%s", m)
	}
}

// TestPrettyJSON: API documents are compact unless ?pretty asks for the
// indented form the CLI prints; both parse to the same document.
func TestPrettyJSON(t *testing.T) {
	srv := newServer(t)
	compact := get(t, srv, "/api/v1/offers?gpu=T4&limit=2").Body.Bytes()
	pretty := get(t, srv, "/api/v1/offers?gpu=T4&limit=2&pretty").Body.Bytes()
	if bytes.Contains(compact, []byte("\n  ")) || !bytes.Contains(pretty, []byte("\n  \"schema\"")) {
		t.Fatalf("compact %q…, pretty %q…", trim(compact), trim(pretty))
	}
	var a, b any
	if json.Unmarshal(compact, &a) != nil || json.Unmarshal(pretty, &b) != nil {
		t.Fatal("not JSON")
	}
	// next keeps ?pretty for the following page; the rest is the same.
	delete(a.(map[string]any), "next")
	delete(b.(map[string]any), "next")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("?pretty changed the document")
	}
}
