package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// instancePath is the OpenAPI template of the one-instance endpoint.
const instancePath = "/api/v1/instances/{provider}/{name}"

// TestCatalogAPIConformsToOpenAPI validates the providers, regions and
// instance endpoints' answers, success and error, against openapi.json, as
// TestAPIConformsToOpenAPI does for the others.
func TestCatalogAPIConformsToOpenAPI(t *testing.T) {
	srv := newServer(t)
	doc, err := openapi3.NewLoader().LoadFromData(server.OpenAPI)
	if err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not valid OpenAPI: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for _, c := range []apiCase{
		{"providers", "GET", "/api/v1/providers", nil, 200},
		{"providers category", "GET", "/api/v1/providers?category=support", nil, 200},
		{"providers unknown category", "GET", "/api/v1/providers?category=catering", nil, 400},
		{"regions", "GET", "/api/v1/regions", nil, 200},
		{"regions filtered", "GET", "/api/v1/regions?provider=alibaba,tencent&residency=cn-mainland", nil, 200},
		{"regions repeated country", "GET", "/api/v1/regions?country=de&country=FR", nil, 200},
		{"regions none", "GET", "/api/v1/regions?provider=lambda&residency=cn-mainland", nil, 200},
		{"regions unknown provider", "GET", "/api/v1/regions?provider=awz", nil, 400},
		{"regions bad country", "GET", "/api/v1/regions?country=USA", nil, 400},
		{"instance", "GET", "/api/v1/instances/aws/g6e.8xlarge", nil, 200},
		{"instance CNY", "GET", "/api/v1/instances/gcp/a3-highgpu-8g?currency=CNY", nil, 200},
		{"instance subscription", "GET", "/api/v1/instances/tencent/GT4.4XLARGE96?currency=EUR", nil, 200},
		{"instance fractional GPU", "GET", "/api/v1/instances/" + fractionalInstance(t, srv), nil, 200},
		{"instance bad currency", "GET", "/api/v1/instances/aws/g6e.8xlarge?currency=XYZ", nil, 400},
		{"instance unknown", "GET", "/api/v1/instances/aws/p5.48xlarg", nil, 404},
		{"instance unknown provider", "GET", "/api/v1/instances/amazon/p5.48xlarge", nil, 404},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, ts.URL+c.target, nil)
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
			var pathParams map[string]string
			if rest, ok := strings.CutPrefix(path, "/api/v1/instances/"); ok {
				tmpl = instancePath
				prov, name, _ := strings.Cut(rest, "/")
				pathParams = map[string]string{"provider": prov, "name": name}
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
			opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
			in := &openapi3filter.RequestValidationInput{Request: req, Route: route, PathParams: pathParams, Options: opts}
			if err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(body)), Options: opts,
			}); err != nil {
				t.Fatalf("response does not match openapi.json: %v\n%s", err, trim(body))
			}
		})
	}
}

// fractionalInstance finds an instance type with a fraction of a GPU (no
// estimates) and returns "provider/name".
func fractionalInstance(t *testing.T, srv *server.Server) string {
	t.Helper()
	for _, it := range srv.Data().Catalog.Instances() {
		if !it.GPUCount.Equal(it.GPUCount.Truncate(0)) {
			return it.Provider + "/" + url.PathEscape(it.Name)
		}
	}
	t.Skip("the catalog has no fractional-GPU instance type")
	return ""
}

// runCLI runs gpuscout with args and returns its standard output.
func runCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli.Main(context.Background(), append(args, "--db", t.TempDir()+"/none.db"),
		cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut},
		cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }, IsTTY: func() bool { return false }})
	if code != 0 {
		t.Fatalf("gpuscout %v: exit %d: %s", args, code, errOut.String())
	}
	return out.Bytes()
}

// sameJSON compares two JSON texts by value.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, trim(a))
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, trim(b))
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}

// TestProvidersAPIMatchesCLI: /api/v1/providers is the document of
// gpuscout providers -o json, with and without a category.
func TestProvidersAPIMatchesCLI(t *testing.T) {
	srv := newServer(t)
	for target, args := range map[string][]string{
		"/api/v1/providers":                     {"providers", "-o", "json"},
		"/api/v1/providers?category=compliance": {"providers", "--category", "compliance", "-o", "json"},
	} {
		rec := get(t, srv, target)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
		}
		if cliDoc := runCLI(t, args...); !sameJSON(t, rec.Body.Bytes(), cliDoc) {
			t.Errorf("%s and gpuscout %v differ:\nAPI %s\nCLI %s", target, args, trim(rec.Body.Bytes()), trim(cliDoc))
		}
	}
	var doc struct {
		Schema string
		Facts  []struct{ Provider, Category, Value, ValueZH string }
	}
	json.Unmarshal(get(t, srv, "/api/v1/providers").Body.Bytes(), &doc)
	if doc.Schema != "gpuscout/providers@v1" || len(doc.Facts) < 20 {
		t.Fatalf("schema %q with %d facts", doc.Schema, len(doc.Facts))
	}
	rec := get(t, srv, "/api/v1/providers?category=catering")
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"field": "category"`) || !strings.Contains(rec.Body.String(), "ml-platform") {
		t.Errorf("unknown category: %d %s", rec.Code, rec.Body)
	}
}

// TestRegionsAPI: filters work and the offer counts add up to what the
// offers document lists by default.
func TestRegionsAPI(t *testing.T) {
	srv := newServer(t)
	type region struct {
		Provider, Code, Country, Residency string
		NameEN                             string `json:"name_en"`
		NameZH                             string `json:"name_zh"`
		Offers                             int
	}
	read := func(target string) []region {
		t.Helper()
		rec := get(t, srv, target)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
		}
		var doc struct {
			Schema  string
			Regions []region
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || doc.Schema != "gpuscout/regions@v1" {
			t.Fatalf("%s: %v, schema %q", target, err, doc.Schema)
		}
		return doc.Regions
	}
	all := read("/api/v1/regions")
	sum := 0
	for _, r := range all {
		sum += r.Offers
	}
	var offers struct{ Total int }
	json.Unmarshal(get(t, srv, "/api/v1/offers?limit=1").Body.Bytes(), &offers)
	if len(all) < 100 || sum != offers.Total {
		t.Errorf("%d regions with %d offers; the offers document lists %d", len(all), sum, offers.Total)
	}
	cn := read("/api/v1/regions?residency=cn-mainland&provider=alibaba&provider=tencent")
	if len(cn) < 5 {
		t.Fatalf("only %d Alibaba and Tencent regions in mainland China", len(cn))
	}
	for _, r := range cn {
		if r.Country != "CN" || (r.Provider != "alibaba" && r.Provider != "tencent") || r.NameZH == "" {
			t.Errorf("filtered region %+v", r)
		}
	}
	for _, r := range read("/api/v1/regions?country=de") {
		if r.Country != "DE" {
			t.Errorf("country=de returned %+v", r)
		}
	}
	if got := read("/api/v1/regions?provider=lambda&residency=cn-mainland"); len(got) != 0 {
		t.Errorf("Lambda has no mainland China region, got %v", got)
	}
	rec := get(t, srv, "/api/v1/regions?provider=awz")
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "did you mean aws") {
		t.Errorf("unknown provider: %d %s", rec.Code, rec.Body)
	}
}

// TestInstanceAPI: one instance type with every price in every region and
// billing model, in the requested currency, and benchmark estimates with
// their bands; an unknown name gets a 404 with suggestions.
func TestInstanceAPI(t *testing.T) {
	srv := newServer(t)
	rec := get(t, srv, "/api/v1/instances/aws/g6e.8xlarge?currency=CNY")
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	var doc struct {
		Schema, Currency string
		Instance         struct{ ID, Provider string }
		GPU              struct{ ID string }
		Offers           []struct {
			ID, Region, Billing string
			Price               struct{ Currency string }
		}
		Estimates []struct {
			Benchmark  string
			Confidence string
			Throughput struct{ Value, Low, High float64 }
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "gpuscout/instance@v1" || doc.Currency != "CNY" || doc.Instance.ID != "aws/g6e.8xlarge" || doc.GPU.ID != "L40S" {
		t.Fatalf("document head: %+v", doc)
	}
	regions, billing := map[string]bool{}, map[string]bool{}
	for _, o := range doc.Offers {
		if !strings.HasPrefix(o.ID, "aws/g6e.8xlarge/") || o.Price.Currency != "CNY" {
			t.Errorf("offer %s priced in %s", o.ID, o.Price.Currency)
		}
		regions[o.Region], billing[o.Billing] = true, true
	}
	if len(regions) < 3 || len(billing) < 6 || len(doc.Offers) != instanceOffers(t, "aws/g6e.8xlarge") {
		t.Errorf("%d offers over %d regions and %d billing models", len(doc.Offers), len(regions), len(billing))
	}
	if len(doc.Estimates) < 3 {
		t.Fatalf("only %d estimates", len(doc.Estimates))
	}
	for _, e := range doc.Estimates {
		if !(e.Throughput.Low <= e.Throughput.Value && e.Throughput.Value <= e.Throughput.High && e.Throughput.Value > 0) || e.Confidence == "" {
			t.Errorf("estimate %+v has no sensible band", e)
		}
	}
	// The API's offers are the offers document's rows for the same offers.
	one := get(t, srv, "/api/v1/offers/"+doc.Offers[0].ID+"?currency=CNY")
	var od struct{ Offers []json.RawMessage }
	json.Unmarshal(one.Body.Bytes(), &od)
	var full struct{ Offers []json.RawMessage }
	json.Unmarshal(rec.Body.Bytes(), &full)
	if len(od.Offers) != 1 || !sameJSON(t, od.Offers[0], full.Offers[0]) {
		t.Errorf("instance offer row differs from the offers document's:\n%s\n%s", od.Offers, full.Offers[0])
	}
	rec = get(t, srv, "/api/v1/instances/aws/g6e.8xlarg")
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "did you mean aws/g6e.8xlarge") {
		t.Errorf("unknown instance: %d %s", rec.Code, rec.Body)
	}
	if rec := get(t, srv, "/api/v1/instances/aws/G6E.8XLARGE"); rec.Code != 200 {
		t.Errorf("instance names should match regardless of case: %d", rec.Code)
	}
}

// TestCatalogPagesRenderInBothLanguages: the providers and instance pages
// in English and Chinese, with the providers' Chinese terms.
func TestCatalogPagesRenderInBothLanguages(t *testing.T) {
	srv := newServer(t)
	pages := map[string][2][]string{
		"/providers": {
			{"Cloud providers compared", "ML platform", "Amazon SageMaker AI", "Regions for users in China", `aria-current="page">Providers`},
			{"云厂商对比", "机器学习平台", "全托管的机器学习模型构建", "面向中国用户的地域", `aria-current="page">云厂商`, "亚马逊云科技"},
		},
		"/instances/aws/g6e.8xlarge": {
			{"Prices by region and billing model", "reserved-1y-no-upfront", "USD per instance-hour", "Performance estimates", "US East (N. Virginia)", `data-chart="chart-instance"`},
			{"按地域与计费方式的价格", "按量付费", "预留实例", "CNY / 实例·小时", "性能估计", "显存", "美国东部（弗吉尼亚北部）", `data-chart="chart-instance"`},
		},
		"/instances/tencent/GT4.4XLARGE96": {
			{"subscription-1m", "on-demand"},
			{"包月", "按量付费", "腾讯云"},
		},
	}
	for target, want := range pages {
		for i, lang := range []string{"en-US,en;q=0.9", "zh-CN,zh;q=0.9"} {
			rec := get(t, srv, target, "Accept-Language", lang)
			body := rec.Body.String()
			if rec.Code != 200 {
				t.Errorf("%s (%s): status %d", target, lang, rec.Code)
				continue
			}
			for _, s := range want[i] {
				if !strings.Contains(body, s) {
					t.Errorf("%s (%s): %q missing", target, lang, s)
				}
			}
		}
	}
	body := get(t, srv, "/instances/aws/g6e.8xlarge?lang=en").Body.String()
	if want := instanceOffers(t, "aws/g6e.8xlarge"); !strings.Contains(body, `<script type="application/json" id="chart-instance">{`) || strings.Count(body, `data-offer="aws/g6e.8xlarge/`) != want {
		t.Errorf("the instance page should list all %d prices and embed the chart data", want)
	}
	rec := get(t, srv, "/instances/aws/g6e.8xlarg?lang=en")
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "did you mean aws/g6e.8xlarge") || !strings.Contains(rec.Body.String(), `role="alert"`) {
		t.Errorf("unknown instance page: %d %s", rec.Code, trim(rec.Body.Bytes()))
	}
}

// Hostile strings planted in a custom catalog.
const (
	xssScript = `<script>alert(1)</script>`
	xssAttr   = `"><img src=x onerror=alert(1)>`
)

// csvField quotes s for CSV.
func csvField(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// hostileServer serves the embedded catalog plus a provider whose names,
// region, instance types, notes, ecosystem facts and sources are markup.
func hostileServer(t *testing.T) (*server.Server, string, string) {
	t.Helper()
	base := curated.Embedded()
	appendTo := func(name, row string) *fstest.MapFile {
		b, err := fs.ReadFile(base, name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(b, []byte("\n")) {
			b = append(b, '\n')
		}
		return &fstest.MapFile{Data: append(b, row+"\n"...)}
	}
	region := "r" + xssAttr
	inst := "x" + xssScript
	inst2 := "y" + xssAttr
	// The --catalog loader refuses such identifiers (only letters, digits
	// and . _ - + :), so the files carry placeholders and the hostile ids
	// are planted after parsing: the pages must escape them however they
	// arrive.
	ids := map[string]string{"evil-inst": inst, "evil-inst2": inst2, "evil-region": region}
	ref := csvField(xssAttr + " " + xssScript)
	overlay := fstest.MapFS{
		"providers.csv": appendTo("providers.csv", "evil,"+csvField("Evil "+xssScript)+","+csvField(xssAttr)+",https://example.com/,https://example.com/p,user,"+ref+",2026-11-01,"), // read_on empty: dated
		"regions.csv":   appendTo("regions.csv", "evil,evil-region,"+csvField(xssScript)+","+csvField(xssAttr)+",US,us,user,"+ref+",2026-11-01,,,,"),
		"ecosystem.csv": appendTo("ecosystem.csv", "evil,ml-platform,"+csvField(xssScript)+","+csvField(xssAttr)+","+csvField(xssScript)+",user,"+ref+",2026-11-01,"+csvField(xssAttr)+","),
		"instances/evil.csv": &fstest.MapFile{Data: []byte("provider,instance_type,family,gpu,gpu_count,gpu_memory_gb,vcpu,memory_gib,gpu_interconnect,gpu_interconnect_gbs,network_gbps,rdma,local_storage,status,source_kind,source_ref,as_of,notes\n" +
			"evil,evil-inst," + csvField(xssAttr) + ",H100-SXM-80GB,8,640,192,2048,nvswitch,900,3200,efa," + csvField(xssScript) + ",current,user," + ref + ",2026-11-01," + csvField(xssScript+xssAttr) + "\n" +
			"evil,evil-inst2,y,H100-SXM-80GB,1,80,24,256,,,,,,current,user," + ref + ",2026-11-01," + csvField(xssAttr) + "\n")},
		"offers/evil.csv": &fstest.MapFile{Data: []byte("provider,instance_type,region,billing,hourly,upfront,monthly,currency,source_kind,source_ref,as_of,notes\n" +
			"evil,evil-inst,evil-region,on-demand,0.5,,,USD,user," + ref + ",2026-11-01," + csvField(xssScript) + "\n" +
			"evil,evil-inst,evil-region,spot,0.2,,,USD,user," + ref + ",2026-11-01," + csvField(xssAttr) + "\n" +
			"evil,evil-inst2,evil-region,on-demand,0.1,,,USD,user," + ref + ",2026-11-01,\n")},
	}
	load := func(context.Context) (*server.Data, error) {
		d, rates, err := curated.LoadData(base, overlay)
		if err != nil {
			return nil, err
		}
		plant := func(s *string) {
			if v, ok := ids[*s]; ok {
				*s = v
			}
		}
		for _, r := range d.Regions {
			plant(&r.Code)
		}
		for _, it := range d.Instances {
			plant(&it.Name)
		}
		for _, o := range d.Offers {
			plant(&o.InstanceName)
			plant(&o.RegionCode)
		}
		c, err := catalog.New(d)
		if err != nil {
			return nil, err
		}
		m, _, err := perf.New(c)
		if err != nil {
			return nil, err
		}
		return &server.Data{Catalog: c, FX: rates, Perf: m,
			Pricing: &pricing.Engine{Prices: c, FX: rates, Spot: spot.CostHook{Facts: c}}}, nil
	}
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return srv, "evil/" + inst + "/" + region + "/on-demand", inst
}

// TestCatalogPagesEscapeHostileData: names, notes and sources from a
// catalog (which users can extend with their own files and imports) never
// reach a page as markup: in text, attributes, URLs and chart JSON alike.
func TestCatalogPagesEscapeHostileData(t *testing.T) {
	srv, offerID, inst := hostileServer(t)
	if _, ok := srv.Data().Catalog.Offer(offerID); !ok {
		t.Fatalf("the hostile offer %q did not load", offerID)
	}
	targets := []string{
		"/offers?provider=evil&lang=en",
		"/offers?provider=evil&lang=zh&cheapest_region=false&cols=provider,instance,region,interconnect,rdma,source,as_of",
		"/instances/evil/" + url.PathEscape(inst) + "?lang=en",
		"/instances/evil/" + url.PathEscape(inst) + "?lang=zh",
		"/instances/evil/" + url.PathEscape("y"+xssAttr) + "?lang=en",
		"/instances/evil/" + url.PathEscape(inst+"z") + "?lang=en", // 404 with suggestions
		"/providers?lang=en",
		"/providers?lang=zh",
		"/compare?offer=" + url.QueryEscape(xssAttr) + "&lang=en",
		"/compare?offer=" + url.QueryEscape(xssScript) + "&onprem=" + url.QueryEscape(xssAttr),
		"/compare?offer=" + url.QueryEscape(offerID) + "&lang=en",
		"/about?lang=en",
		"/nope/" + url.PathEscape(xssScript),
	}
	for _, target := range targets {
		rec := get(t, srv, target)
		body := rec.Body.String()
		if rec.Code >= 500 || len(body) < 200 {
			t.Errorf("%s: status %d, %d bytes", target, rec.Code, len(body))
			continue
		}
		for _, raw := range []string{"<script>alert", "<img src=x", `"><img`, "onerror=alert(1)>"} {
			if i := strings.Index(body, raw); i >= 0 {
				t.Errorf("%s: unescaped %q at %d: …%s…", target, raw, i, body[max(0, i-120):min(len(body), i+80)])
			}
		}
		// The hostile data did reach the page, escaped.
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") && !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("%s: no escaped hostile string on the page; the test is not testing anything", target)
		}
	}
	// The instance page's chart and its links are there, escaped.
	body := get(t, srv, "/instances/evil/"+url.PathEscape(inst)+"?lang=en").Body.String()
	if !strings.Contains(body, `id="chart-instance">{`) || !strings.Contains(body, `\u003e\u003cimg src=x`) {
		t.Error("the instance page's chart JSON should carry the hostile region name escaped")
	}
	if strings.Contains(body, `href="/compare?offer=evil/x<`) {
		t.Error("an offer link carries raw markup")
	}
	// The API returns the names as data, and a page for a real offer links
	// where the API says.
	rec := get(t, srv, "/api/v1/instances/evil/"+url.PathEscape(inst))
	var doc struct{ Offers []struct{ ID string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || rec.Code != 200 || len(doc.Offers) != 2 || doc.Offers[0].ID != offerID {
		t.Errorf("API: %d %v %s", rec.Code, err, trim(rec.Body.Bytes()))
	}
	if strings.Contains(rec.Body.String(), "<script>") {
		t.Error("API JSON should escape markup (\\u003c)")
	}
}

// instanceOffers counts the embedded catalog's offers of one instance type
// (provider/instance_type), every region and billing model: what its page
// and API document must list.
func instanceOffers(t *testing.T, id string) int {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range ds.Catalog.Offers() {
		if o.Provider+"/"+o.InstanceName == id {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no offer of %s in the embedded catalog", id)
	}
	return n
}
