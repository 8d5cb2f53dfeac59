package huawei

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
)

var (
	_ importer.Importer = (*Importer)(nil)
	_ importer.Fetcher  = (*Importer)(nil)
)

var fixedNow = time.Date(2026, 12, 1, 3, 4, 5, 0, time.UTC)

const (
	testAK = "HPUAEXAMPLEAK1234567"
	testSK = "sk/EXAMPLE+secret=key0123456789abcdefghij"
)

// The published signing vectors of Huawei's Go SDK:
// huaweicloud/huaweicloud-sdk-go-v3 core/auth/signer/signer_test.go@d546e7ae9f66859e912961e4d88932d963edf2a4
// (TestSigner_Sign: AK "AccessKey", SK "SecretKey", X-Sdk-Date
// 20060102T150405Z; the TEST_UNDERSCORE header is not signed, so the
// signed headers are x-sdk-date alone; test2's body is the SDK's JSON
// encoding of {Name: "test", Id: 1}, which ends with a newline).
func TestSignPublishedExamples(t *testing.T) {
	for _, c := range []struct {
		method string
		q      url.Values
		body   []byte
		want   string
	}{
		{"GET", url.Values{"limit": {"1"}}, nil,
			"SDK-HMAC-SHA256 Access=AccessKey, SignedHeaders=x-sdk-date, Signature=5a2ce64c865e0e6046321c6f3d5a77ba8413eeaf355c3166c03d58d02ac79624"},
		{"POST", url.Values{"key": {"value"}}, []byte("{\"Name\":\"test\",\"Id\":1}\n"),
			"SDK-HMAC-SHA256 Access=AccessKey, SignedHeaders=x-sdk-date, Signature=cecc2af119b18ab70b4d094c0750f3b42c02f254903179a0fc2cc72fc9db4f59"},
	} {
		got := authorization("AccessKey", "SecretKey", c.method, "/path", c.q, map[string]string{"X-Sdk-Date": "20060102T150405Z"}, c.body, "20060102T150405Z")
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.method, got, c.want)
		}
	}
}

// TestSigner_canonicalQueryString of the same file.
func TestCanonicalQueryPublishedExample(t *testing.T) {
	q := url.Values{"limit": {"1"}, "enable": {"true"}, "test": {"一 (&=?!#%.*)"}, "path": {"/tmp/123"}, "multi": {"3", "1", "2"}}
	want := "enable=true&limit=1&multi=1&multi=2&multi=3&path=%2Ftmp%2F123&test=%E4%B8%80%20%28%26%3D%3F%21%23%25.%2A%29"
	if got := canonicalQuery(q); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := canonicalURI("/v1/abc/cloudservers/flavors"); got != "/v1/abc/cloudservers/flavors/" {
		t.Errorf("uri %s", got)
	}
}

// verify recomputes a request's signature from its Authorization header.
func verify(r *http.Request, body []byte) error {
	auth := r.Header.Get("Authorization")
	prefix := "SDK-HMAC-SHA256 Access=" + testAK + ", SignedHeaders="
	if !strings.HasPrefix(auth, prefix) {
		return fmt.Errorf("authorization %q", auth)
	}
	rest := strings.TrimPrefix(auth, prefix)
	names, sig, ok := strings.Cut(rest, ", Signature=")
	if !ok {
		return fmt.Errorf("authorization %q", auth)
	}
	headers := map[string]string{}
	for _, n := range strings.Split(names, ";") {
		if n == "host" {
			headers[n] = r.Host
		} else {
			headers[n] = r.Header.Get(n)
		}
	}
	if headers["x-sdk-date"] != "20261201T030405Z" {
		return fmt.Errorf("x-sdk-date %q", headers["x-sdk-date"])
	}
	// The official Go SDK signs the request definition's Content-Type,
	// its User-Agent and X-Sdk-Date, on GETs and POSTs alike, and not Host
	// (core/auth/signer SignedHeaders over the request's header params).
	if names != "content-type;user-agent;x-sdk-date" || headers["content-type"] != "application/json" ||
		!strings.HasPrefix(headers["user-agent"], "huaweicloud-usdk-go/3.0;") {
		return fmt.Errorf("signed headers %s (%v), want the SDK's content-type;user-agent;x-sdk-date", names, headers)
	}
	canonical, _ := canonicalRequest(r.Method, r.URL.Path, r.URL.Query(), headers, body)
	m := hmac.New(sha256.New, []byte(testSK))
	m.Write([]byte(stringToSign(canonical, headers["x-sdk-date"])))
	if want := hex.EncodeToString(m.Sum(nil)); want != sig {
		return fmt.Errorf("signature %s, want %s", sig, want)
	}
	return nil
}

// Answer shapes: the response models of huaweicloud/huaweicloud-sdk-go-v3
// services/bss/v2/model (ListOnDemandResourceRatingsResponse,
// DemandProductRatingResult, ListRateOnPeriodDetailResponse,
// OfficialWebsiteRatingResult, PeriodProductOfficialRatingResult) and
// services/ecs/v2/model (Flavor, FlavorExtraSpec) @0281b9734f0f95ed5565729e54d96e9820262426,
// the IAM KeystoneListProjectsResponse of core/auth/internal; error bodies
// {"error_code","error_msg"} per https://support.huaweicloud.com/bpconsole_faq/csdp_apifaq_00001.md
// (APIG.0308 throttling). Prices are illustrative.
const (
	projectsBody = `{"links":{"self":"https://iam.myhuaweicloud.com/v3/projects"},"projects":[{"domain_id":"d1","is_domain":false,"parent_id":"d1","name":"%s","description":"","id":"proj-%s","enabled":true}]}`
	flavorsBody  = `{"flavors":[
{"id":"c7.large.2","name":"c7.large.2","vcpus":"2","ram":4096,"disk":"0","os_extra_specs":{"ecs:performancetype":"computingv3","cond:operation:status":"normal"}},
{"id":"p2s.2xlarge.8","name":"p2s.2xlarge.8","vcpus":"8","ram":65536,"disk":"0","os_extra_specs":{"ecs:performancetype":"gpu","ecs:generation":"p2s","pci_passthrough:alias":"nvidia-v100-pcie-32gb:1","cond:operation:status":"normal"}},
{"id":"p2v.8xlarge.8","name":"p2v.8xlarge.8","vcpus":"32","ram":262144,"os_extra_specs":{"ecs:performancetype":"gpu","cond:operation:status":"abandon"}},
{"id":"pi9.9xlarge.9","name":"pi9.9xlarge.9","vcpus":"36","ram":262144,"os_extra_specs":{"ecs:performancetype":"gpu","cond:operation:status":"normal"}}]}`
	onDemandBody = `{"amount":10.1,"discount_amount":0,"official_website_amount":10.1,"measure_id":1,"currency":"CNY","product_rating_results":[{"id":"1","product_id":"OFFI-example","amount":10.1,"discount_amount":0,"official_website_amount":10.1,"measure_id":1}]}`
	monthBody    = `{"currency":"CNY","official_website_rating_result":{"official_website_amount":5300,"measure_id":1,"product_rating_results":[{"id":"1","product_id":"OFFI-m","official_website_amount":5300,"measure_id":1}]},"optional_discount_rating_results":[]}`
	yearBody     = `{"currency":"CNY","official_website_rating_result":{"official_website_amount":5406000,"measure_id":3,"product_rating_results":[{"id":"1","product_id":"OFFI-y","official_website_amount":5406000,"measure_id":3}]}}`
)

type fake struct {
	mu       sync.Mutex
	t        *testing.T
	requests []string
	// override answers a request before the default handler (nil: none).
	override func(w http.ResponseWriter, r *http.Request, body []byte) bool
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	if err := verify(r, body); err != nil {
		f.t.Error(err)
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error_msg":"Incorrect IAM authentication information: verify aksk signature fail","error_code":"APIG.0301","request_id":"r1"}`)
		return
	}
	if f.override != nil && f.override(w, r, body) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/v3/projects":
		n := r.URL.Query().Get("name")
		fmt.Fprintf(w, projectsBody, n, n)
	case strings.HasSuffix(r.URL.Path, "/cloudservers/flavors"):
		fmt.Fprint(w, flavorsBody)
	case r.URL.Path == "/v2/bills/ratings/on-demand-resources":
		var req struct {
			ProjectID    string           `json:"project_id"`
			ProductInfos []map[string]any `json:"product_infos"`
		}
		if err := json.Unmarshal(body, &req); err != nil || len(req.ProductInfos) != 1 {
			f.t.Errorf("body %s", body)
		}
		pi := req.ProductInfos[0]
		if pi["cloud_service_type"] != "hws.service.type.ec2" || pi["resource_type"] != "hws.resource.type.vm" ||
			pi["resource_spec"] != "p2s.2xlarge.8.linux" || pi["usage_factor"] != "Duration" || pi["usage_value"] != 1.0 ||
			pi["usage_measure_id"] != 4.0 || pi["subscription_num"] != 1.0 || !strings.HasPrefix(req.ProjectID, "proj-") {
			f.t.Errorf("on-demand body %s", body)
		}
		fmt.Fprint(w, onDemandBody)
	case r.URL.Path == "/v2/bills/ratings/period-resources/subscribe-rate":
		var req struct {
			ProductInfos []map[string]any `json:"product_infos"`
		}
		_ = json.Unmarshal(body, &req)
		switch req.ProductInfos[0]["period_type"] {
		case 2.0:
			fmt.Fprint(w, monthBody)
		case 3.0:
			fmt.Fprint(w, yearBody)
		default:
			f.t.Errorf("period body %s", body)
		}
	default:
		f.t.Errorf("unexpected %s %s", r.Method, r.URL)
		w.WriteHeader(http.StatusNotFound)
	}
}

func fetchImporter(base string, regions ...string) *Importer {
	return &Importer{IAMEndpoint: base, ECSEndpoint: base, BSSEndpoint: base, Regions: regions,
		InstanceTypes: []string{"p2s.2xlarge.8", "p2v.8xlarge.8"}, AccessKey: testAK, SecretKey: testSK,
		Now: func() time.Time { return fixedNow }, RetryWait: time.Millisecond}
}

func offerMap(res *importer.Result) map[string]*catalog.Offer {
	m := map[string]*catalog.Offer{}
	for _, o := range res.Offers {
		m[o.ID()] = o
	}
	return m
}

func TestFetch(t *testing.T) {
	f := &fake{t: t}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var progress int
	res, err := fetchImporter(srv.URL, "cn-north-4").Fetch(context.Background(), srv.Client(), func(int64, int) { progress++ })
	if err != nil {
		t.Fatal(err)
	}
	got := offerMap(res)
	want := map[string]string{
		"huawei/p2s.2xlarge.8/cn-north-4/on-demand":       "hourly 10.1",
		"huawei/p2s.2xlarge.8/cn-north-4/subscription-1m": "monthly 5300",
		"huawei/p2s.2xlarge.8/cn-north-4/subscription-1y": "upfront 54060",
	}
	if len(got) != len(want) {
		t.Fatalf("offers %v", got)
	}
	for id, w := range want {
		o := got[id]
		if o == nil {
			t.Fatalf("no %s", id)
		}
		p := map[string]string{"hourly": o.Price.Hourly.String(), "monthly": o.Price.Monthly.String(), "upfront": o.Price.Upfront.String()}
		kind, v, _ := strings.Cut(w, " ")
		if p[kind] != v || o.Price.Currency != "CNY" {
			t.Errorf("%s: %+v, want %s", id, o.Price, w)
		}
		if o.Source.Kind != catalog.SourceOfficialAPI || !o.Source.FetchedAt.Equal(fixedNow) || o.Source.AsOf.Format("2006-01-02") != "2026-12-01" ||
			!strings.HasPrefix(o.Source.Ref, "BSS List") {
			t.Errorf("%s: source %+v", id, o.Source)
		}
	}
	lines := strings.Join(res.Skipped.Lines(), "; ")
	for _, s := range []string{"GPU flavor not in the catalog (e.g. cn-north-4 pi9.9xlarge.9)", "flavor withdrawn"} {
		if !strings.Contains(lines, s) {
			t.Errorf("skips %q lack %q", lines, s)
		}
	}
	if len(f.requests) != 5 || progress == 0 {
		t.Errorf("requests %v, progress %d", f.requests, progress)
	}
}

// One region whose flavor list ECS declines (not opened for the account)
// is skipped and counted; the other region's prices are kept.
func TestFetchPartialRegion(t *testing.T) {
	f := &fake{t: t, override: func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if r.URL.Path == "/v1/proj-ap-southeast-1/cloudservers/flavors" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"message":"The region is not supported.","code":"Ecs.0005"}}`)
			return true
		}
		return false
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	res, err := fetchImporter(srv.URL, "ap-southeast-1", "cn-north-4").Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 3 {
		t.Errorf("%d offers", len(res.Offers))
	}
	if lines := strings.Join(res.Skipped.Lines(), "; "); !strings.Contains(lines, "1 API error Ecs.0005 (e.g. ap-southeast-1)") {
		t.Errorf("skips %q", lines)
	}
}

func TestFetchAuthErrorStops(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"error_msg":"Incorrect IAM authentication information: ak `+testAK+` not exist","error_code":"APIG.0301","request_id":"0b9e"}`)
	}))
	defer srv.Close()
	_, err := fetchImporter(srv.URL, "cn-north-4", "cn-east-3").Fetch(context.Background(), srv.Client(), nil)
	var ae *APIError
	if !errors.As(err, &ae) || !ae.Fatal() || ae.Code != "APIG.0301" {
		t.Fatalf("error %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "Incorrect IAM authentication information") || strings.Contains(msg, testAK) || strings.Contains(msg, testSK) {
		t.Errorf("message %q", msg)
	}
	if calls != 1 {
		t.Errorf("%d calls; a refused key must stop at once", calls)
	}
}

func TestFetchThrottlingRetries(t *testing.T) {
	n := 0
	f := &fake{t: t}
	f.override = func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if r.URL.Path == "/v2/bills/ratings/on-demand-resources" && n < 2 {
			n++
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error_msg":"The throttling threshold has been reached: policy user over ratelimit,limit:5,time:1 second","error_code":"APIG.0308"}`)
			return true
		}
		return false
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	imp := fetchImporter(srv.URL, "cn-north-4")
	imp.Billings = []catalog.Billing{catalog.OnDemand}
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 || n != 2 {
		t.Errorf("%d offers after %d throttled answers", len(res.Offers), n)
	}
}

// Server errors on every price inquiry fail the fetch: nothing partial is
// returned.
func TestFetchServerErrorsFail(t *testing.T) {
	f := &fake{t: t}
	f.override = func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if strings.HasPrefix(r.URL.Path, "/v2/bills") {
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, `<html>bad gateway</html>`)
			return true
		}
		return false
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	imp := fetchImporter(srv.URL, "cn-north-4")
	imp.Attempts = 2
	_, err := imp.Fetch(context.Background(), srv.Client(), nil)
	var fe *importer.FailureError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v, want a FailureError", err)
	}
	if !strings.Contains(err.Error(), "HTTP502") {
		t.Errorf("message %q", err)
	}
}

func TestFetchNetworkErrorHidesSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	base := srv.URL
	srv.Close()
	imp := fetchImporter(base, "cn-north-4")
	imp.Attempts = 1
	_, err := imp.Fetch(context.Background(), http.DefaultClient, nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{testSK, testAK, "Signature="} {
		if strings.Contains(err.Error(), s) {
			t.Errorf("%q contains %q", err, s)
		}
	}
}

func TestFetchConfigAndPlan(t *testing.T) {
	for name, imp := range map[string]*Importer{
		"no keys":    {Regions: []string{"r"}, InstanceTypes: []string{"t"}},
		"no regions": {AccessKey: "a", SecretKey: "b", InstanceTypes: []string{"t"}},
		"no types":   {AccessKey: "a", SecretKey: "b", Regions: []string{"r"}},
	} {
		if _, err := imp.Fetch(context.Background(), http.DefaultClient, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	imp := &Importer{Regions: []string{"cn-north-4", "cn-east-3"}, InstanceTypes: []string{"a", "b"}}
	imp.LoadEnv(func(k string) string { return map[string]string{EnvAccessKey: "ak", EnvSecretKey: "sk"}[k] })
	if imp.AccessKey != "ak" || imp.SecretKey != "sk" {
		t.Error("LoadEnv")
	}
	plan := strings.Join(imp.Plan(), "\n")
	for _, s := range []string{"GET https://iam.myhuaweicloud.com/v3/projects?name=cn-east-3", "GET https://ecs.cn-north-4.myhuaweicloud.com/v1/{project_id}/cloudservers/flavors",
		"ListOnDemandResourceRatings", "period_type 3 × 1", "at most 16 requests"} {
		if !strings.Contains(plan, s) {
			t.Errorf("plan lacks %q:\n%s", s, plan)
		}
	}
	if strings.Contains(plan, "sk") && strings.Contains(plan, "ak") && strings.Contains(plan, "Access=") {
		t.Error("plan shows credentials")
	}
}

const bundle = `[
{"action":"ListOnDemandResourceRatings","region":"cn-north-4","flavor":"p2s.2xlarge.8","fetchedAt":"2026-11-30T01:00:00Z","response":` + onDemandBody + `},
{"action":"ListRateOnPeriodDetail","region":"cn-north-4","flavor":"p2s.2xlarge.8","periodType":2,"periodNum":1,"response":` + monthBody + `},
{"action":"ListRateOnPeriodDetail","region":"cn-north-4","flavor":"p2s.2xlarge.8","periodType":3,"periodNum":3,"response":{"currency":"USD","official_website_rating_result":{"official_website_amount":"12000.5"}}},
{"action":"ListRateOnPeriodDetail","region":"cn-north-4","flavor":"p2s.2xlarge.8","periodType":0,"periodNum":1,"response":` + monthBody + `},
{"action":"ListOnDemandResourceRatings","region":"cn-north-4","flavor":"p2s.2xlarge.8","response":{"official_website_amount":0.5}},
{"action":"ListOnDemandResourceRatings","region":"cn-east-3","flavor":"p2s.2xlarge.8","response":{"error_code":"CBC.0100","error_msg":"Invalid parameter."}},
{"action":"ListOnDemandResourceRatings","region":"cn-east-3","flavor":"p2s.4xlarge.8","response":{"official_website_amount":1,"measure_id":9}}
]`

func TestParseBundle(t *testing.T) {
	imp := &Importer{Now: func() time.Time { return fixedNow }}
	res, err := imp.Parse(context.Background(), strings.NewReader(bundle), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := offerMap(res)
	if len(got) != 3 {
		t.Fatalf("offers %v", got)
	}
	od := got["huawei/p2s.2xlarge.8/cn-north-4/on-demand"]
	if od.Price.Hourly.String() != "10.1" || od.Source.AsOf.Format("2006-01-02") != "2026-11-30" {
		t.Errorf("on-demand %+v %+v", od.Price, od.Source)
	}
	if o := got["huawei/p2s.2xlarge.8/cn-north-4/subscription-3y"]; o == nil || o.Price.Upfront.String() != "12000.5" || o.Price.Currency != "USD" {
		t.Errorf("3y %+v", o)
	}
	lines := strings.Join(res.Skipped.Lines(), "; ")
	for _, s := range []string{"unsupported period type 0 × 1", importer.SkipDuplicate, "API error CBC.0100 (e.g. cn-east-3 p2s.2xlarge.8)", "unknown measure_id 9"} {
		if !strings.Contains(lines, s) {
			t.Errorf("skips %q lack %q", lines, s)
		}
	}
}

func TestParseMalformed(t *testing.T) {
	for _, c := range []struct{ name, in, field string }{
		{"not an array", `{}`, ""},
		{"no region", `[{"action":"ListOnDemandResourceRatings","flavor":"f","response":{}}]`, "[0].region"},
		{"no flavor", `[{"action":"ListOnDemandResourceRatings","region":"r","response":{}}]`, "[0].flavor"},
		{"no response", `[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f"}]`, "[0].response"},
		{"bad time", `[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f","fetchedAt":"noon","response":{}}]`, "[0].fetchedAt"},
		{"no price", `[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f","response":{"currency":"CNY"}}]`, "[0].response.official_website_amount"},
		{"negative", `[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f","response":{"product_rating_results":[{"official_website_amount":-1}]}}]`, "[0].response.product_rating_results[0].official_website_amount"},
		{"no period result", `[{"action":"ListRateOnPeriodDetail","region":"r","flavor":"f","periodType":2,"periodNum":1,"response":{"currency":"CNY"}}]`, "[0].response.official_website_rating_result"},
		{"not a number", `[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f","response":{"official_website_amount":"ten"}}]`, "[0].response"},
		{"trailing", `[]x`, ""},
	} {
		_, err := (&Importer{}).Parse(context.Background(), strings.NewReader(c.in), nil)
		var pe *importer.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a ParseError", c.name, err)
			continue
		}
		if !strings.HasPrefix(pe.Field, c.field) || (c.field == "" && pe.Field != "") {
			t.Errorf("%s: field %q, want %q (%v)", c.name, pe.Field, c.field, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f","response":{"currency":"CNY","official_website_amount":1.5,"measure_id":1}}]`))
	f.Add([]byte(`[{"action":"ListRateOnPeriodDetail","region":"r","flavor":"f","periodType":3,"periodNum":1,"response":{"official_website_rating_result":{"official_website_amount":"9","measure_id":3}}}]`))
	f.Add([]byte(`[{"action":"ListOnDemandResourceRatings","region":"r","flavor":"f","response":{"error_code":"CBC.0100","error_msg":"x"}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := (&Importer{Now: func() time.Time { return fixedNow }}).Parse(context.Background(), bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if o.Price.Hourly.IsNegative() || o.Price.Monthly.IsNegative() || o.Price.Upfront.IsNegative() || o.Provider != "huawei" {
				t.Fatalf("bad offer %+v", o)
			}
		}
	})
}
