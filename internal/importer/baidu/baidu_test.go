package baidu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
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
	testAK = "f81d3b34e48048fbb2634dc7882d7e21"
	testSK = "sk+EXAMPLE/secret=0123456789abcdef"
	spec   = "bcc.hgn5IB.c116m978.8A100-80g"
)

// The worked example of Baidu's "生成认证字符串"
// (https://cloud.baidu.com/doc/Reference/s/wjwvz1xt2): BOS UploadPart
// with AK 32 × a, SK 32 × b at 2015-04-27T08:23:49Z. Signing the default
// headers gives signature d74a04...; signing host and x-bce-date gives
// 1b8de5a2... (both published on that page; the second also in its
// CanonicalRequest walk-through).
func TestSignPublishedExample(t *testing.T) {
	headers := map[string]string{"Host": "bj.bcebos.com", "Date": "Mon, 27 Apr 2015 16:23:49 +0800", "Content-Type": "text/plain",
		"Content-Length": "8", "Content-Md5": "NFzcPqhviddjRNnSOGo4rw==", "x-bce-date": "2015-04-27T08:23:49Z"}
	q := url.Values{"partNumber": {"9"}, "uploadId": {"a44cc9bab11cbd156984767aad637851"}}
	at := time.Date(2015, 4, 27, 8, 23, 49, 0, time.UTC)
	ak, sk := strings.Repeat("a", 32), strings.Repeat("b", 32)
	for _, c := range []struct {
		signed []string
		want   string
	}{
		{nil, "bce-auth-v1/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/2015-04-27T08:23:49Z/1800//d74a04362e6a848f5b39b15421cb449427f419c95a480fd6b8cf9fc783e2999e"},
		{[]string{"Host", "x-bce-date"}, "bce-auth-v1/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/2015-04-27T08:23:49Z/1800/host;x-bce-date/1b8de5a23a56eef657c69f94c621e7acd227d049a4ba577f537d5e5cebf0cf32"},
	} {
		if got := authorization(ak, sk, "PUT", "/v1/test/myfolder/readme.txt", q, headers, at, c.signed); got != c.want {
			t.Errorf("signed %v:\n got %s\nwant %s", c.signed, got, c.want)
		}
	}
	// The CanonicalQueryString and UriEncodeExceptSlash examples of the same page.
	if got := canonicalQuery(url.Values{"text": {""}, "text1": {"测试"}, "text10": {"test"}}); got != "text10=test&text1=%E6%B5%8B%E8%AF%95&text=" {
		t.Errorf("canonical query %s", got)
	}
	if got := uriEncode("/example/测试", true); got != "/example/%E6%B5%8B%E8%AF%95" {
		t.Errorf("uri %s", got)
	}
}

// verify recomputes a request's authorization.
func verify(r *http.Request) error {
	auth := r.Header.Get("Authorization")
	parts := strings.Split(auth, "/")
	if len(parts) != 6 || parts[0] != "bce-auth-v1" || parts[1] != testAK || parts[2] != "2026-12-01T03:04:05Z" || parts[3] != "1800" {
		return fmt.Errorf("authorization %q", auth)
	}
	names := strings.Split(parts[4], ";")
	headers := map[string]string{}
	for _, n := range names {
		if n == "host" {
			headers[n] = r.Host
		} else {
			headers[n] = r.Header.Get(n)
		}
	}
	if headers["x-bce-date"] == "" || r.Host == "" || !strings.Contains(parts[4], "host") {
		return fmt.Errorf("signed headers %q", parts[4])
	}
	if want := authorization(testAK, testSK, r.Method, r.URL.Path, r.URL.Query(), headers, fixedNow, names); want != auth {
		return fmt.Errorf("authorization %s, want %s", auth, want)
	}
	return nil
}

// Answer shapes: ListFlavorSpecResult / ZoneResourceDetailSpec /
// BccResources / FlavorGroup / BccFlavor and GetPriceBySpecResult /
// SpecIdPrices / SpecPrices of baidubce/bce-sdk-go
// services/bcc/api/model.go@7ff91c2dff2d62e8da37ba28063a1e2d8de16bcb, the
// flavorSpec example of https://cloud.baidu.com/doc/BCC/s/imqoohncm and
// the error body {"code","message","requestId"} of bce/response.go.
// Prices are illustrative.
const flavorsBody = `{"zoneResources":[
{"zoneName":"cn-bj-a","ebcResources":{"customFlavors":[],"flavorGroups":[]},"bccResources":{"flavorGroups":[
 {"groupId":"gpuHGN5","flavors":[{"specId":"hgn5IB","cpuCount":116,"memoryCapacityInGB":978,"ephemeralDiskCount":1,"gpuCardType":"A100-80g","gpuCardCount":8,"productType":"PrePaid","spec":"` + spec + `"}]},
 {"groupId":"g5","flavors":[{"specId":"g5","cpuCount":2,"memoryCapacityInGB":8,"gpuCardCount":0,"spec":"bcc.g5.c2m8"}]},
 {"groupId":"gpuGN5","flavors":[{"specId":"gn5","cpuCount":8,"memoryCapacityInGB":32,"gpuCardType":"V100-32g","gpuCardCount":"1","spec":"bcc.gn5.c8m32.1v100-32g"}]}]}},
{"zoneName":"cn-bj-d","bccResources":{"flavorGroups":[{"groupId":"gpuHGN5","flavors":[{"specId":"hgn5IB","gpuCardType":"A100-80g","gpuCardCount":8,"spec":"` + spec + `"}]}]}}]}`

func priceBody(v string) string {
	return `{"price":[{"specId":"hgn5IB","specPrices":[{"spec":"` + spec + `","status":"available","specPrice":"` + v + `"}]}]}`
}

func server(t *testing.T, override func(w http.ResponseWriter, r *http.Request, body map[string]any) bool) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if err := verify(r); err != nil {
			t.Error(err)
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"code":"SignatureDoesNotMatch","message":"bad","requestId":"r"}`)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		if override != nil && override(w, r, body) {
			return
		}
		// An endpoint with a region path segment (/{region}) routes by
		// the rest of the path.
		path := r.URL.Path
		for _, reg := range []string{"/bj", "/gz"} {
			path = strings.TrimPrefix(path, reg)
		}
		switch path {
		case "/v2/instance/flavorSpec":
			fmt.Fprint(w, flavorsBody)
		case "/v2/instance/price":
			if body["spec"] != spec || body["specId"] != "hgn5IB" || body["paymentTiming"] != "Prepaid" || body["purchaseCount"] != 1.0 {
				t.Errorf("price body %v", body)
			}
			prices := map[string]string{"cn-bj-a 1": "98000", "cn-bj-a 12": "999600", "cn-bj-d 1": "97000.5", "cn-bj-d 12": "1000000"}
			fmt.Fprint(w, priceBody(prices[fmt.Sprintf("%v %v", body["zoneName"], body["purchaseLength"])]))
		default:
			t.Errorf("unexpected %s", r.URL)
			w.WriteHeader(http.StatusNotFound)
		}
	})), &calls
}

func fetchImporter(base string, regions ...string) *Importer {
	return &Importer{Endpoint: base, Regions: regions, InstanceTypes: []string{spec}, AccessKeyID: testAK, SecretAccessKey: testSK,
		Now: func() time.Time { return fixedNow }, RetryWait: time.Millisecond}
}

func TestFetch(t *testing.T) {
	srv, calls := server(t, nil)
	defer srv.Close()
	res, err := fetchImporter(srv.URL, "bj").Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 2 || calls.Load() != 5 {
		t.Fatalf("%d offers after %d calls", len(res.Offers), calls.Load())
	}
	m, y := res.Offers[0], res.Offers[1]
	if m.ID() != "baidu/"+spec+"/bj/subscription-1m" || m.Price.Monthly.String() != "97000.5" || !strings.Contains(m.Notes, "cn-bj-d") || m.Price.Currency != "CNY" {
		t.Errorf("month %s %+v %s", m.ID(), m.Price, m.Notes)
	}
	if y.ID() != "baidu/"+spec+"/bj/subscription-1y" || y.Price.Upfront.String() != "999600" || !strings.Contains(y.Notes, "cn-bj-a") {
		t.Errorf("year %s %+v %s", y.ID(), y.Price, y.Notes)
	}
	if m.Source.Kind != catalog.SourceOfficialAPI || !m.Source.FetchedAt.Equal(fixedNow) || m.Source.Ref != "BCC GetPriceBySpec bj "+spec {
		t.Errorf("source %+v", m.Source)
	}
	if lines := strings.Join(res.Skipped.Lines(), "; "); !strings.Contains(lines, "GPU spec not in the catalog (e.g. bj bcc.gn5.c8m32.1v100-32g)") {
		t.Errorf("skips %q", lines)
	}
}

// A region whose flavor list the API declines is skipped and counted;
// the other region is priced.
func TestFetchPartialRegion(t *testing.T) {
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) bool {
		if strings.HasPrefix(r.URL.Path, "/gz/") {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":"Instance.NotSupportInstanceTypeException","message":"not support the instance type.","requestId":"q"}`)
			return true
		}
		return false
	})
	defer srv.Close()
	res, err := fetchImporter(srv.URL+"/{region}", "gz", "bj").Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 2 {
		t.Errorf("%d offers", len(res.Offers))
	}
	if lines := strings.Join(res.Skipped.Lines(), "; "); !strings.Contains(lines, "1 API error Instance.NotSupportInstanceTypeException (e.g. gz)") {
		t.Errorf("skips %q", lines)
	}
}

func TestFetchAuthErrorStops(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"code":"AccessDenied","message":"Access denied for `+testAK+`.","requestId":"7d2"}`)
	}))
	defer srv.Close()
	_, err := fetchImporter(srv.URL, "bj", "gz").Fetch(context.Background(), srv.Client(), nil)
	var ae *APIError
	if !errors.As(err, &ae) || !ae.Fatal() || ae.Code != "AccessDenied" {
		t.Fatalf("error %v", err)
	}
	if strings.Contains(err.Error(), testAK) || strings.Contains(err.Error(), testSK) || !strings.Contains(err.Error(), "request 7d2") {
		t.Errorf("message %q", err)
	}
	if calls.Load() != 1 {
		t.Errorf("%d calls", calls.Load())
	}
}

func TestFetchThrottlingRetries(t *testing.T) {
	var n atomic.Int32
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) bool {
		if r.URL.Path == "/v2/instance/price" && n.Add(1) <= 2 {
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"code":"RequestLimitExceeded","message":"too many requests","requestId":"t"}`)
			return true
		}
		return false
	})
	defer srv.Close()
	imp := fetchImporter(srv.URL, "bj")
	imp.Billings = []catalog.Billing{catalog.Subscription1m}
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err != nil || len(res.Offers) != 1 {
		t.Fatalf("%v, %v", err, res)
	}
}

func TestFetchServerErrorsFail(t *testing.T) {
	srv, _ := server(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) bool {
		if r.URL.Path == "/v2/instance/price" {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"code":"InternalError","message":"We encountered an internal error.","requestId":"e"}`)
			return true
		}
		return false
	})
	defer srv.Close()
	imp := fetchImporter(srv.URL, "bj")
	imp.Attempts = 2
	_, err := imp.Fetch(context.Background(), srv.Client(), nil)
	var fe *importer.FailureError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "InternalError") {
		t.Fatalf("error %v", err)
	}
}

func TestFetchConfigAndPlan(t *testing.T) {
	for name, imp := range map[string]*Importer{
		"no keys":    {Regions: []string{"bj"}, InstanceTypes: []string{"t"}},
		"no regions": {AccessKeyID: "a", SecretAccessKey: "b", InstanceTypes: []string{"t"}},
		"no types":   {AccessKeyID: "a", SecretAccessKey: "b", Regions: []string{"bj"}},
	} {
		if _, err := imp.Fetch(context.Background(), http.DefaultClient, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	imp := &Importer{Regions: []string{"bj", "gz"}, InstanceTypes: []string{spec}}
	imp.LoadEnv(func(k string) string { return map[string]string{EnvAccessKeyID: "ak", EnvSecretAccessKey: "sk"}[k] })
	if imp.AccessKeyID != "ak" || imp.SecretAccessKey != "sk" {
		t.Error("LoadEnv")
	}
	plan := strings.Join(imp.Plan(), "\n")
	for _, s := range []string{"GET https://bcc.gz.baidubce.com/v2/instance/flavorSpec", "POST https://bcc.{region}.baidubce.com/v2/instance/price", "purchaseLength 12"} {
		if !strings.Contains(plan, s) {
			t.Errorf("plan lacks %q:\n%s", s, plan)
		}
	}
}

const bundle = `[
{"action":"GetPriceBySpec","region":"bj","zone":"cn-bj-a","spec":"` + spec + `","paymentTiming":"Prepaid","purchaseLength":1,"fetchedAt":"2026-11-30T00:00:00Z","response":{"price":[{"specId":"hgn5IB","specPrices":[{"spec":"` + spec + `","status":"available","specPrice":"98000"}]}]}},
{"action":"GetPriceBySpec","region":"bj","zone":"cn-bj-a","spec":"` + spec + `","paymentTiming":"Prepaid","purchaseLength":1,"response":{"price":[{"specId":"hgn5IB","specPrices":[{"spec":"` + spec + `","specPrice":"1"}]}]}},
{"action":"GetPriceBySpec","region":"bj","zone":"cn-bj-a","spec":"` + spec + `","paymentTiming":"Prepaid","purchaseLength":36,"response":{"price":[{"specPrices":[{"spec":"` + spec + `","specPrice":2500000}]}]}},
{"action":"GetPriceBySpec","region":"bj","zone":"cn-bj-a","spec":"` + spec + `","paymentTiming":"Postpaid","purchaseLength":1,"response":{"price":[]}},
{"action":"GetPriceBySpec","region":"bj","zone":"cn-bj-a","spec":"` + spec + `","paymentTiming":"Prepaid","purchaseLength":5,"response":{"price":[]}},
{"action":"GetPriceBySpec","region":"gz","zone":"cn-gz-c","spec":"` + spec + `","paymentTiming":"Prepaid","purchaseLength":1,"response":{"code":"Instance.NotSupportInstanceTypeException","message":"no"}},
{"action":"GetPriceBySpec","region":"gz","zone":"cn-gz-c","spec":"other","paymentTiming":"Prepaid","purchaseLength":1,"response":{"price":[{"specPrices":[{"spec":"` + spec + `","specPrice":"3"}]}]}}
]`

func TestParseBundle(t *testing.T) {
	res, err := (&Importer{Now: func() time.Time { return fixedNow }}).Parse(context.Background(), strings.NewReader(bundle), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 2 {
		t.Fatalf("offers %v", res.Offers)
	}
	if o := res.Offers[0]; o.Billing != catalog.Subscription1m || o.Price.Monthly.String() != "98000" || o.Source.AsOf.Format("2006-01-02") != "2026-11-30" {
		t.Errorf("1m %+v", o)
	}
	if o := res.Offers[1]; o.Billing != catalog.Subscription3y || o.Price.Upfront.String() != "2500000" {
		t.Errorf("3y %+v", o)
	}
	lines := strings.Join(res.Skipped.Lines(), "; ")
	for _, s := range []string{importer.SkipDuplicate, "unsupported payment timing Postpaid", "unsupported purchase length 5 months",
		"API error Instance.NotSupportInstanceTypeException", "no price for the spec in the answer"} {
		if !strings.Contains(lines, s) {
			t.Errorf("skips %q lack %q", lines, s)
		}
	}
}

func TestParseMalformed(t *testing.T) {
	e := func(resp string) string {
		return `[{"action":"GetPriceBySpec","region":"bj","zone":"z","spec":"s","paymentTiming":"Prepaid","purchaseLength":1,"response":` + resp + `}]`
	}
	for _, c := range []struct{ name, in, field string }{
		{"not an array", `{}`, ""},
		{"no zone", `[{"action":"GetPriceBySpec","region":"bj","spec":"s","response":{}}]`, "[0].zone"},
		{"no response", `[{"action":"GetPriceBySpec","region":"bj","zone":"z","spec":"s"}]`, "[0].response"},
		{"bad time", `[{"action":"GetPriceBySpec","region":"bj","zone":"z","spec":"s","fetchedAt":"x","response":{}}]`, "[0].fetchedAt"},
		{"no price", e(`{"price":[{"specPrices":[{"spec":"s"}]}]}`), "[0].response.price[0].specPrices[0].specPrice"},
		{"negative", e(`{"price":[{"specPrices":[{"spec":"s","specPrice":"-2"}]}]}`), "[0].response.price[0].specPrices[0].specPrice"},
		{"not a number", e(`{"price":[{"specPrices":[{"spec":"s","specPrice":"cheap"}]}]}`), "[0].response"},
		{"trailing", `[] []`, ""},
	} {
		_, err := (&Importer{}).Parse(context.Background(), strings.NewReader(c.in), nil)
		var pe *importer.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: %v, want a ParseError", c.name, err)
			continue
		}
		if !strings.HasPrefix(pe.Field, c.field) || c.field == "" && pe.Field != "" {
			t.Errorf("%s: field %q, want %q (%v)", c.name, pe.Field, c.field, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`[{"action":"GetPriceBySpec","region":"bj","zone":"z","spec":"s","paymentTiming":"Prepaid","purchaseLength":1,"response":{"price":[{"specPrices":[{"spec":"s","specPrice":"5"}]}]}}]`))
	f.Add([]byte(`[{"action":"GetPriceBySpec","region":"bj","zone":"z","spec":"s","paymentTiming":"Prepaid","purchaseLength":12,"response":{"code":"X","message":"y"}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := (&Importer{Now: func() time.Time { return fixedNow }}).Parse(context.Background(), bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		for _, o := range res.Offers {
			if o.Price.Monthly.IsNegative() || o.Price.Upfront.IsNegative() || o.Provider != "baidu" {
				t.Fatalf("bad offer %+v", o)
			}
		}
	})
}
