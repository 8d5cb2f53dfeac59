package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/gpuscout/gpuscout/internal/cli"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// jobCase is one request to a job endpoint, the status it must get and,
// for errors, the field the error must name.
type jobCase struct {
	name, target string
	status       int
	field        string
}

func jobCases() []jobCase {
	return []jobCase{
		{"cost on-demand", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&hours_per_day=8&days_per_month=22&storage_gb=2000&egress_gb=500&support=business", 200, ""},
		{"cost reserved", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront&months=12&utilization=0.6&start=2027-01&inter_region_gb=100&load_balancers=2", 200, ""},
		{"cost subscription cny", "/api/v1/cost?offer=tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m&months=3&currency=CNY&support=10%25", 200, ""},
		{"cost spot", "/api/v1/cost?offer=aws/g4dn.xlarge/us-east-1/spot&months=2&object_storage_gb=50", 200, ""},
		{"cost without offer", "/api/v1/cost", 400, "offer"},
		{"cost unknown offer", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/ondemand", 400, "offer"},
		{"cost hours over 24", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&hours_per_day=30", 400, "hours_per_day"},
		{"cost utilization over 1", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&utilization=1.5", 400, "utilization"},
		{"cost zero months", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&months=0", 400, "months"},
		{"cost unknown support", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&support=gold", 400, "support"},
		{"cost bad start", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&start=2027-13", 400, "start"},
		{"cost bad currency", "/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&currency=XYZ", 400, "currency"},

		{"estimate benchmark", "/api/v1/estimate?benchmark=resnet50-train-throughput&gpu=A100-SXM-80GB&count=8&precision=fp16", 200, ""},
		{"estimate samples", "/api/v1/estimate?benchmark=mlperf-inf-llama2-70b&gpu=H100-SXM-80GB&count=8&samples=1e9", 200, ""},
		{"estimate offer", "/api/v1/estimate?workload=transformer-train&params=7e9&tokens=1e12&offer=aws/p5.48xlarge/us-east-1/on-demand&instances=8", 200, ""},
		{"estimate cnn cny", "/api/v1/estimate?workload=cnn-train&images=1281167&epochs=90&offer=aws/p4d.24xlarge/us-east-1/on-demand&currency=CNY", 200, ""},
		{"estimate inference", "/api/v1/estimate?workload=llm-inference&params=70e9&tokens=1e9&gpu=H100-SXM-80GB&count=8&precision=fp8", 200, ""},
		{"estimate llm request", "/api/v1/estimate?workload=llm-inference&params=47e9&active_params=13e9&tokens=1e9&gpu=H100-SXM-80GB&count=4&input_tokens=293&output_tokens=293&max_batch=256", 200, ""},
		{"estimate bad max_batch", "/api/v1/estimate?workload=llm-inference&params=7e9&tokens=1e9&gpu=H100-SXM-80GB&max_batch=-1", 400, "max_batch"},
		{"estimate flops nodes", "/api/v1/estimate?workload=flops&flops=1e18&gpu=A100-SXM-80GB&count=16&nodes=2", 200, ""},
		{"estimate nothing", "/api/v1/estimate?gpu=T4", 400, "benchmark"},
		{"estimate both questions", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&workload=flops&flops=1e15&gpu=T4", 400, "workload"},
		{"estimate no gpu", "/api/v1/estimate?benchmark=mlperf-inf-resnet50", 400, "gpu"},
		{"estimate gpu and offer", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&gpu=T4&offer=aws/p4d.24xlarge/us-east-1/on-demand", 400, "offer"},
		{"estimate ambiguous gpu", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&gpu=A100", 400, "gpu"},
		{"estimate unknown gpu", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&gpu=H1000", 400, "gpu"},
		{"estimate unknown benchmark", "/api/v1/estimate?benchmark=resnet&gpu=T4", 400, "benchmark"},
		{"estimate bad precision", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&gpu=T4&precision=fp4", 400, "precision"},
		{"estimate unsized job", "/api/v1/estimate?workload=transformer-train&params=7e9&gpu=T4", 400, "tokens"},
		{"estimate zero count", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&gpu=T4&count=0", 400, "count"},
		{"estimate bad number", "/api/v1/estimate?workload=flops&flops=lots&gpu=T4", 400, "flops"},
		{"estimate unknown offer", "/api/v1/estimate?benchmark=mlperf-inf-resnet50&offer=aws/p9/us-east-1/on-demand", 400, "offer"},

		{"spot", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=12&trials=20000", 200, ""},
		{"spot deadline fallback", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/on-demand&work_hours=12&mtbi=4&checkpoint_minutes=10&deadline_hours=14&trials=20000", 200, ""},
		{"spot weibull cny", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=48&checkpoint_minutes=20&mtbi=10&weibull=0.7&seed=7&trials=5000&currency=CNY", 200, ""},
		{"spot with a provider prior", "/api/v1/spot?offer=gcp/a2-highgpu-1g/us-central1/spot&work_hours=12&trials=2000", 200, "mtbi_prior"},
		{"spot missed deadline", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=12&deadline_hours=6&trials=2000", 200, ""},
		{"spot without offer", "/api/v1/spot?work_hours=1", 400, "offer"},
		{"spot no spot price", "/api/v1/spot?offer=aws/p5.48xlarge/ap-northeast-2/on-demand&work_hours=1", 400, "offer"},
		{"spot negative work", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=-1", 400, "work_hours"},
		{"spot negative checkpoint", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=1&checkpoint_minutes=-5", 400, "checkpoint_minutes"},
		{"spot too many trials", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=1&trials=200001", 400, "trials"},
		{"spot too much work", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=1000&mtbi=1&trials=200000", 400, "trials"},
		{"spot never finishes", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=10&mtbi=0.1&checkpoint_minutes=1&restart_minutes=30", 400, "mtbi"},
		{"spot bad weibull", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=1&weibull=0", 400, "weibull"},
		{"spot bad seed", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=1&seed=-3", 400, "seed"},
		{"spot not a number", "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=NaN", 400, "work_hours"},

		{"history without database", "/api/v1/history?offer=aws/p5.48xlarge/us-east-1/on-demand", 404, ""},
		{"history without offer", "/api/v1/history", 400, "offer"},
		{"history bad offer", "/api/v1/history?offer=nope", 400, "offer"},
	}
}

// loadJobSpec parses and validates openapi.json.
func loadJobSpec(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(server.OpenAPI)
	if err != nil {
		t.Fatalf("openapi.json does not parse: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not valid OpenAPI: %v", err)
	}
	return doc
}

// jobConform GETs base+target and validates the status, content type and body
// against the spec's operation for the target's path, as
// TestAPIConformsToOpenAPI does. It returns the status and body.
func jobConform(t *testing.T, spec *openapi3.T, base, target string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+target, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	tmpl := strings.SplitN(target, "?", 2)[0]
	item := spec.Paths.Value(tmpl)
	if item == nil {
		t.Fatalf("%s is not in openapi.json", tmpl)
	}
	op := item.GetOperation("GET")
	if op == nil {
		t.Fatalf("GET %s is not in openapi.json", tmpl)
	}
	route := &routers.Route{Spec: spec, Path: tmpl, PathItem: item, Method: "GET", Operation: op}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: req, Route: route, Options: opts}
	if err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header, Body: io.NopCloser(bytes.NewReader(body)), Options: opts,
	}); err != nil {
		t.Fatalf("response (%d) does not match openapi.json: %v\n%s", resp.StatusCode, err, trim(body))
	}
	return resp.StatusCode, body
}

// TestJobAPIsConformToOpenAPI: every cost, estimate, spot and history
// answer, success or error, is what openapi.json says, and errors name the
// parameter at fault.
func TestJobAPIsConformToOpenAPI(t *testing.T) {
	spec := loadJobSpec(t)
	ts := httptest.NewServer(newServer(t))
	defer ts.Close()
	for _, c := range jobCases() {
		t.Run(c.name, func(t *testing.T) {
			status, body := jobConform(t, spec, ts.URL, c.target)
			if status != c.status {
				t.Fatalf("status %d, want %d: %s", status, c.status, trim(body))
			}
			if status == 200 {
				if c.field != "" && !strings.Contains(string(body), `"`+c.field+`"`) {
					t.Errorf("answer lacks %q: %s", c.field, trim(body))
				}
				return
			}
			var e struct {
				Error struct{ Code, Message, Field string }
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Message == "" {
				t.Fatalf("error body %s: %v", trim(body), err)
			}
			if e.Error.Field != c.field {
				t.Errorf("error field %q, want %q: %s", e.Error.Field, c.field, e.Error.Message)
			}
		})
	}
}

// jobCLI runs gpuscout over the embedded catalog without a database (or
// with db) and returns its standard output.
func jobCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	if !jobHasFlag(args, "--db") {
		args = append(args, "--db", filepath.Join(t.TempDir(), "none.db"))
	}
	code := cli.Main(context.Background(), args, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut},
		cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }, IsTTY: func() bool { return false }})
	if code != 0 {
		t.Fatalf("gpuscout %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.Bytes()
}

func jobHasFlag(args []string, f string) bool {
	for _, a := range args {
		if a == f {
			return true
		}
	}
	return false
}

// sameJobJSON fails unless a and b are the same JSON value.
func sameJobJSON(t *testing.T, what string, api, cliOut []byte) {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(api, &x); err != nil {
		t.Fatalf("%s: API body is not JSON: %v\n%s", what, err, trim(api))
	}
	if err := json.Unmarshal(cliOut, &y); err != nil {
		t.Fatalf("%s: CLI output is not JSON: %v\n%s", what, err, trim(cliOut))
	}
	a, _ := json.Marshal(x)
	c, _ := json.Marshal(y)
	if !bytes.Equal(a, c) {
		t.Fatalf("%s: API and CLI documents differ:\nAPI %s\nCLI %s", what, trim(a), trim(c))
	}
}

// TestJobAPIsMatchCLI: cost, estimate and spot return exactly the
// documents the CLI prints with -o json for the same question.
func TestJobAPIsMatchCLI(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct {
		target string
		args   []string
	}{
		{"/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront&months=2&start=2027-01&egress_gb=300",
			[]string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--months", "2", "--start", "2027-01", "--egress-gb", "300"}},
		{"/api/v1/cost?offer=aws/p4d.24xlarge/us-east-1/on-demand&hours_per_day=8&days_per_month=22&utilization=0.75&storage_gb=2000&object_storage_gb=10&egress_gb=500&inter_region_gb=20&load_balancers=1&instances=3&support=business&currency=EUR",
			[]string{"cost", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--hours-per-day", "8", "--days-per-month", "22", "--utilization", "0.75", "--storage-gb", "2000",
				"--object-storage-gb", "10", "--egress-gb", "500", "--inter-region-gb", "20", "--load-balancers", "1", "--instances", "3", "--support", "business", "--currency", "EUR"}},
		{"/api/v1/cost?offer=tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m&months=3&currency=CNY&support=10%25",
			[]string{"cost", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m", "--months", "3", "--currency", "CNY", "--support", "10%"}},
		{"/api/v1/estimate?workload=transformer-train&params=1e9&tokens=2e10&offer=aws/p5.48xlarge/us-east-1/on-demand&instances=2",
			[]string{"estimate", "--workload", "transformer-train", "--params", "1e9", "--tokens", "2e10", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--instances", "2"}},
		{"/api/v1/estimate?benchmark=mlperf-inf-llama2-70b&gpu=H100-SXM-80GB&count=8&samples=1e9&precision=fp8",
			[]string{"estimate", "--benchmark", "mlperf-inf-llama2-70b", "--gpu", "H100-SXM-80GB", "--count", "8", "--samples", "1e9", "--precision", "fp8"}},
		{"/api/v1/estimate?workload=cnn-train&images=1281167&epochs=90&gflops_per_image=4.1&offer=gcp/a2-highgpu-8g/us-central1/on-demand&currency=CNY",
			[]string{"estimate", "--workload", "cnn-train", "--images", "1281167", "--epochs", "90", "--gflops-per-image", "4.1", "--offer", "gcp/a2-highgpu-8g/us-central1/on-demand", "--currency", "CNY"}},
		{"/api/v1/estimate?workload=llm-inference&params=70e9&tokens=1e9&gpu=H100-SXM-80GB&count=8&precision=fp8&input_tokens=1000&output_tokens=250&max_batch=128",
			[]string{"estimate", "--workload", "llm-inference", "--params", "70e9", "--tokens", "1e9", "--gpu", "H100-SXM-80GB", "--count", "8", "--precision", "fp8",
				"--input-tokens", "1000", "--output-tokens", "250", "--max-batch", "128"}},
		{"/api/v1/estimate?workload=llm-inference&params=70e9&tokens=1e8&gpu=H100-SXM-80GB&count=8&input_tokens=32000&output_tokens=500&layers=80&kv_heads=64&head_dim=128&hidden_size=8192",
			[]string{"estimate", "--workload", "llm-inference", "--params", "70e9", "--tokens", "1e8", "--gpu", "H100-SXM-80GB", "--count", "8",
				"--input-tokens", "32000", "--output-tokens", "500", "--layers", "80", "--kv-heads", "64", "--head-dim", "128", "--hidden-size", "8192"}},
		{"/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=48&checkpoint_minutes=20&mtbi=10&deadline_hours=72&trials=10000&seed=7",
			[]string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--work-hours", "48", "--checkpoint-minutes", "20", "--mtbi", "10", "--deadline-hours", "72", "--trials", "10000", "--seed", "7"}},
		{"/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/on-demand&work_hours=12&restart_minutes=5&weibull=1.5&trials=3000&currency=JPY",
			[]string{"spot", "--offer", "aws/g4dn.xlarge/us-east-1/on-demand", "--work-hours", "12", "--restart-minutes", "5", "--weibull", "1.5", "--trials", "3000", "--currency", "JPY"}},
	} {
		rec := get(t, srv, c.target)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", c.target, rec.Code, trim(rec.Body.Bytes()))
		}
		sameJobJSON(t, c.target, rec.Body.Bytes(), jobCLI(t, append(c.args, "-o", "json")...))
	}
}

// TestSpotAPIIsReproducible: the same question gets the same simulation;
// another seed gets another.
func TestSpotAPIIsReproducible(t *testing.T) {
	srv := newServer(t)
	q := "/api/v1/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=24&mtbi=6&trials=5000"
	a, b := get(t, srv, q).Body.String(), get(t, srv, q).Body.String()
	if a != b {
		t.Fatal("the same spot question got two answers")
	}
	if c := get(t, srv, q+"&seed=2").Body.String(); c == a {
		t.Error("another seed should simulate other runs")
	}
	var doc document.SpotDoc
	if err := json.Unmarshal([]byte(a), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Simulated.Trials != 5000 || doc.Simulated.Seed != 1 || doc.Schema != document.SchemaSpot {
		t.Errorf("simulated %+v", doc.Simulated)
	}
}

// fakeJobHistory is a HistorySource over fixed documents.
type fakeJobHistory map[string]document.PriceHistory

func (f fakeJobHistory) PriceHistory(_ context.Context, id string) (document.PriceHistory, error) {
	if id == "aws/broken/us-east-1/on-demand" {
		return document.PriceHistory{}, &document.InputError{Field: "offer", Err: errors.New("cannot read this offer")}
	}
	if d, ok := f[id]; ok {
		return d, nil
	}
	return document.PriceHistory{Schema: document.SchemaPriceHistory, Offer: id, Points: []document.PricePoint{}}, nil
}

// TestHistoryAPIWithASource: with a history source, the endpoint returns
// its document; an offer with no price is a 404; a bad offer a 400. Every
// answer matches openapi.json.
func TestHistoryAPIWithASource(t *testing.T) {
	spec := loadJobSpec(t)
	id := "aws/p5.48xlarge/us-east-1/on-demand"
	src := fakeJobHistory{id: {Schema: document.SchemaPriceHistory, Offer: id, Points: []document.PricePoint{
		{Snapshot: 0, AsOf: "2026-07-20", Effective: "55.04", Currency: "USD", Source: "curated: test"},
		{Snapshot: 3, FetchedAt: "2026-11-02T10:00:00Z", AsOf: "2026-11-01", Effective: "49.5", Currency: "USD", Source: "offer.json"},
	}}}
	mux := http.NewServeMux()
	mux.Handle("GET /api/v1/history", newServer(t).PriceHistoryHandler(src))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	for target, want := range map[string]int{
		"/api/v1/history?offer=" + id:                            200,
		"/api/v1/history?offer=aws/p5.48xlarge/mars-1/on-demand": 404,
		"/api/v1/history?offer=aws/broken/us-east-1/on-demand":   400,
		"/api/v1/history?offer=aws//us-east-1/on-demand":         400,
	} {
		status, body := jobConform(t, spec, ts.URL, target)
		if status != want {
			t.Errorf("%s: status %d, want %d: %s", target, status, want, trim(body))
		}
		if status == 200 && !regexp.MustCompile(`"effective_hourly":\s*49.5`).Match(body) {
			t.Errorf("%s: %s", target, body)
		}
	}
	// The server's own route has no database yet: a 404 that says so.
	rec := get(t, newServer(t), "/api/v1/history?offer="+id)
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "no database of imported snapshots") {
		t.Errorf("history without a database: %d %s", rec.Code, rec.Body)
	}
}

// TestHistoryAPIMatchesCLI: over a database with two imported snapshots,
// the history the server answers from (cli.PriceHistorySource, what
// gpuscout serve wires in) is exactly gpuscout catalog history -o json.
func TestHistoryAPIMatchesCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	file := "../importer/aws/testdata/offer-small.json"
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(dir, "offer2.json")
	if err := os.WriteFile(second, []byte(strings.Replace(string(raw), "55.0400000000", "49.5000000000", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	jobCLI(t, "catalog", "import", "aws", "--file", file, "--db", db)
	jobCLI(t, "catalog", "import", "aws", "--file", second, "--db", db)
	src := cli.PriceHistorySource(cli.Env{Getenv: func(string) string { return "" }, Now: func() time.Time { return now }}, db, "")
	h := newServer(t).PriceHistoryHandler(src)
	id := "aws/p5.48xlarge/us-east-1/on-demand"
	rec := get(t, h, "/api/v1/history?offer="+id)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	sameJobJSON(t, "history", rec.Body.Bytes(), jobCLI(t, "catalog", "history", "--offer", id, "--db", db, "-o", "json"))
	var doc document.PriceHistory
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || len(doc.Points) != 3 || doc.Points[2].Effective != "49.5" {
		t.Errorf("want the curated price and two snapshots, the last at 49.5: %s", rec.Body)
	}
	if rec := get(t, h, "/api/v1/history?offer=aws/p5.48xlarge/mars-1/on-demand"); rec.Code != 404 {
		t.Errorf("an offer without prices: status %d", rec.Code)
	}
}

// TestSpotPageRendersInBothLanguages: the page shows the verdict, the
// expected and worst-case times and costs and the histogram's data, in
// English and in Chinese (in CNY, with the providers' Chinese terms).
func TestSpotPageRendersInBothLanguages(t *testing.T) {
	srv := newServer(t)
	target := "/spot?offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=24&mtbi=8&deadline_hours=30&trials=5000"
	en := get(t, srv, target, "Accept-Language", "en-US,en;q=0.9")
	body := en.Body.String()
	if en.Code != 200 {
		t.Fatalf("status %d: %s", en.Code, trim(en.Body.Bytes()))
	}
	for _, want := range []string{"Does spot pay for this job?", `data-verdict="`, "P95", "P99", "Checkpoint interval: auto", `data-chart="chart-spot"`,
		`<script type="application/json" id="chart-spot">{`, `data-option="spot&#43;fallback"`, "/api/v1/spot?", " USD"} {
		if !strings.Contains(body, want) {
			t.Errorf("en: %q missing", want)
		}
	}
	zh := get(t, srv, target, "Accept-Language", "zh-CN,zh;q=0.9")
	body = zh.Body.String()
	if zh.Code != 200 || !strings.Contains(body, `lang="zh-CN"`) {
		t.Fatalf("zh: status %d", zh.Code)
	}
	for _, want := range []string{"抢占式实例", "按量付费", "完成时间", " CNY", "检查点间隔"} {
		if !strings.Contains(body, want) {
			t.Errorf("zh: %q missing", want)
		}
	}
	// The empty form, and a bad question shown on the page.
	if rec := get(t, srv, "/spot?lang=en"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `name="work_hours"`) ||
		!strings.Contains(rec.Body.String(), `value="aws/g4dn.xlarge/us-east-1/spot"`) {
		t.Errorf("empty spot page: %d", rec.Code)
	}
	bad := get(t, srv, "/spot?offer=aws/p5.48xlarge/ap-northeast-2/on-demand&work_hours=1&lang=en")
	if bad.Code != 400 || !strings.Contains(bad.Body.String(), `data-error-field="offer"`) || !strings.Contains(bad.Body.String(), "no spot price") {
		t.Errorf("a bad question should show the error on the page: %d %s", bad.Code, trim(bad.Body.Bytes()))
	}
}

// TestSpotPageMatchesTheAPI: the page's percentiles are the API's simulation's.
func TestSpotPageMatchesTheAPI(t *testing.T) {
	srv := newServer(t)
	q := "offer=aws/g4dn.xlarge/us-east-1/spot&work_hours=24&mtbi=6&deadline_hours=40&trials=4000&currency=USD"
	var doc document.SpotDoc
	if err := json.Unmarshal(get(t, srv, "/api/v1/spot?"+q).Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	page := get(t, srv, "/spot?lang=en&"+q).Body.String()
	for label, n := range map[string]json.Number{"P50": doc.Simulated.P50Hours, "P99": doc.Simulated.P99Hours} {
		m := regexp.MustCompile(`data-figure="` + label + `">\s*<h3>` + label + `</h3>\s*<p class="big">([0-9.]+) h`).FindStringSubmatch(page)
		f, _ := n.Float64()
		if m == nil || m[1] != fmt.Sprintf("%.2f", f) {
			t.Errorf("%s: the page shows %v, the API %s", label, m, n)
		}
	}
	if !strings.Contains(page, `data-verdict="`+doc.Best+`"`) {
		t.Errorf("the page's verdict is not the API's %q", doc.Best)
	}
}

// TestSpotAnswerWallsAreTheDecisionsRuns: the runs the page draws its
// histogram from are the decision's own, spot alone and with the fallback.
func TestSpotAnswerWallsAreTheDecisionsRuns(t *testing.T) {
	d := newServer(t).Data()
	ans, err := document.AnswerSpot(d.Catalog, d.FX, document.SpotRequest{Offer: "aws/g4dn.xlarge/us-east-1/spot", WorkHours: 12, CheckpointMinutes: 10,
		RestartMinutes: 15, DeadlineHours: 14, MTBI: 4, Trials: 3000, Seed: 4, Weibull: 1, Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	walls, fallback := ans.Walls()
	if fallback == nil {
		t.Fatal("a deadline should simulate the fallback too")
	}
	for _, c := range []struct {
		name  string
		walls []float64
		sim   spot.SimResult
	}{{"spot", walls, ans.Decision.Spot}, {"spot+fallback", fallback, ans.Decision.Mix}} {
		if got := [3]float64{spot.Percentile(c.walls, 0.5), spot.Percentile(c.walls, 0.9), spot.Percentile(c.walls, 0.99)}; got != [3]float64{c.sim.P50Hours, c.sim.P90Hours, c.sim.P99Hours} {
			t.Errorf("%s: percentiles %v, the decision's %v %v %v", c.name, got, c.sim.P50Hours, c.sim.P90Hours, c.sim.P99Hours)
		}
	}
}

// TestEstimateTakesTheModelLayout: does an estimate size a long prompt's
// KV cache from the layout the user gives (a multi-head 70B model keeps
// eight times the cache of a grouped-query one with 8 KV heads), say the
// layout was given rather than assumed, and refuse a layout no model has?
func TestEstimateTakesTheModelLayout(t *testing.T) {
	srv := newServer(t)
	base := "/api/v1/estimate?workload=llm-inference&params=70e9&tokens=1e8&gpu=H100-SXM-80GB&count=8&input_tokens=32000&output_tokens=500"
	kv := func(target string) (float64, string) {
		t.Helper()
		rec := get(t, srv, target)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", target, rec.Code, trim(rec.Body.Bytes()))
		}
		var doc struct {
			Assumptions []string `json:"assumptions"`
			LLM         struct {
				KV float64 `json:"kv_cache_gb_per_request"`
			} `json:"llm_serving"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		return doc.LLM.KV, strings.Join(doc.Assumptions, "\n")
	}
	assumed, why := kv(base)
	if !strings.Contains(why, "Llama 3") {
		t.Errorf("without a layout the estimate should say it assumed a published one:\n%s", why)
	}
	gqa, why := kv(base + "&layers=80&kv_heads=8&head_dim=128&hidden_size=8192")
	if !strings.Contains(why, "as given") {
		t.Errorf("a given layout should be said to be given:\n%s", why)
	}
	mha, _ := kv(base + "&layers=80&kv_heads=64&head_dim=128&hidden_size=8192")
	// 2 · 80 layers · 8 heads · 128 · 2 bytes · 32,500 tokens = 10.65 GB.
	if math.Abs(gqa-10.65) > 0.01 || math.Abs(mha/gqa-8) > 0.01 {
		t.Errorf("KV cache per request: 8 KV heads %.2f GB (want 10.65), 64 heads %.2f GB (want 8×)", gqa, mha)
	}
	if assumed <= 0 {
		t.Errorf("assumed layout: KV cache %.2f GB", assumed)
	}
	for _, bad := range []string{"&kv_heads=-1", "&layers=x", "&experts=8", "&kv_heads=2000000"} {
		if rec := get(t, srv, base+bad); rec.Code != 400 {
			t.Errorf("%s: status %d, want 400", bad, rec.Code)
		}
	}
}

// TestSpotPageQuotesOnePrice: the spot page names the spot price twice,
// in its prices line and in its assumptions; both give the same digits
// (it read 1.3602 in one and 1.360 in the other), in both languages.
func TestSpotPageQuotesOnePrice(t *testing.T) {
	srv := newServer(t)
	const id = "aws/g4dn.xlarge/us-east-1/spot"
	for _, c := range []struct{ lang, prices, assumed string }{
		{"en", "Prices: " + id + " at ", "Spot price "},
		{"zh", "价格：" + id + " 为 ", "抢占式实例价格 "},
	} {
		body := get(t, srv, "/spot?offer="+id+"&work_hours=48&currency=CNY&lang="+c.lang).Body.String()
		i, j := strings.Index(body, c.prices), strings.Index(body, c.assumed)
		if i < 0 || j < 0 {
			t.Fatalf("%s: the page lacks the prices line (%d) or the assumption (%d)", c.lang, i, j)
		}
		first, _, _ := strings.Cut(strings.Fields(body[i+len(c.prices):])[0], "，")
		quoted := strings.Fields(body[j+len(c.assumed):])[0]
		if first != quoted {
			t.Errorf("%s: prices line %q, assumption %q", c.lang, first, quoted)
		}
	}
}
