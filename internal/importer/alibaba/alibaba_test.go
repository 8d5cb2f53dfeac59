package alibaba

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
)

// The importer satisfies the shared interfaces.
var (
	_ importer.Importer = (*Importer)(nil)
	_ importer.Fetcher  = (*Importer)(nil)
)

var fixedNow = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

func testImporter() *Importer {
	return &Importer{Now: func() time.Time { return fixedNow }}
}

type wantOffer struct {
	id       string
	hourly   string
	monthly  string
	upfront  string
	currency string
	ref      string
	asOf     string
	notes    string // substring
}

func checkOffers(t *testing.T, got []*catalog.Offer, want []wantOffer) {
	t.Helper()
	if len(got) != len(want) {
		var ids []string
		for _, o := range got {
			ids = append(ids, o.ID())
		}
		t.Fatalf("got %d offers %v, want %d", len(got), ids, len(want))
	}
	dec := func(s string) decimal.Decimal {
		if s == "" {
			return decimal.Zero
		}
		return decimal.RequireFromString(s)
	}
	for n, w := range want {
		o := got[n]
		if o.ID() != w.id {
			t.Errorf("offer %d: id %s, want %s", n, o.ID(), w.id)
			continue
		}
		if o.Provider != "alibaba" {
			t.Errorf("%s: provider %q", w.id, o.Provider)
		}
		if !o.Price.Hourly.Equal(dec(w.hourly)) || !o.Price.Monthly.Equal(dec(w.monthly)) || !o.Price.Upfront.Equal(dec(w.upfront)) {
			t.Errorf("%s: price hourly %s monthly %s upfront %s, want %q %q %q", w.id, o.Price.Hourly, o.Price.Monthly, o.Price.Upfront, w.hourly, w.monthly, w.upfront)
		}
		if o.Price.Currency != w.currency {
			t.Errorf("%s: currency %q, want %q", w.id, o.Price.Currency, w.currency)
		}
		if o.Source.Kind != catalog.SourceOfficialAPI || o.Source.Ref != w.ref {
			t.Errorf("%s: source %v %q, want official-api %q", w.id, o.Source.Kind, o.Source.Ref, w.ref)
		}
		if w.asOf != "" && o.Source.AsOfString() != w.asOf {
			t.Errorf("%s: as of %s, want %s", w.id, o.Source.AsOfString(), w.asOf)
		}
		if !strings.Contains(o.Notes, w.notes) {
			t.Errorf("%s: notes %q, want them to contain %q", w.id, o.Notes, w.notes)
		}
		if !o.Billing.Valid() {
			t.Errorf("%s: invalid billing %q", w.id, o.Billing)
		}
	}
}

func TestParseBundle(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "bundle.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls int
	res, err := testImporter().Parse(context.Background(), f, func(int64, int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != "alibaba" {
		t.Errorf("source %q", res.Source)
	}
	if calls == 0 {
		t.Error("progress never called")
	}
	checkOffers(t, res.Offers, []wantOffer{
		{id: "alibaba/ecs.gn6i-c4g1.xlarge/ap-southeast-1/on-demand", hourly: "1.421", currency: "USD",
			ref: "DescribePrice ap-southeast-1 ecs.gn6i-c4g1.xlarge", asOf: "2025-03-04", notes: "OriginalPrice"},
		// Instance item of the itemised order, not the order total 9.6.
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/on-demand", hourly: "9.416", currency: "CNY",
			ref: "DescribePrice cn-hangzhou ecs.gn7i-c8g1.2xlarge", asOf: "2025-03-04"},
		// Latest per zone (h: 2.35 at 04:00, i: 2.12), lowest across zones;
		// the classic-network row (0.5) is not counted.
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/spot", hourly: "2.12", currency: "CNY",
			ref: "DescribeSpotPriceHistory cn-hangzhou ecs.gn7i-c8g1.2xlarge", notes: "cn-hangzhou-i"},
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/subscription-1m", monthly: "4152", currency: "CNY",
			ref: "DescribePrice cn-hangzhou ecs.gn7i-c8g1.2xlarge"},
		// OriginalPrice, not the TradePrice with the yearly promotion.
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/subscription-1y", upfront: "49824", currency: "CNY",
			ref: "DescribePrice cn-hangzhou ecs.gn7i-c8g1.2xlarge", notes: "买满1年,立享官网价格8.5折优惠"},
	})
	if got := res.Skipped.Total(); got != 2 {
		t.Errorf("skipped %d, want 2: %v", got, res.Skipped.Lines())
	}
	lines := strings.Join(res.Skipped.Lines(), "\n")
	for _, want := range []string{"API error InvalidInstanceType.NotSupported (e.g. cn-beijing ecs.gn7e-c16g1.4xlarge)", "spot row for classic network"} {
		if !strings.Contains(lines, want) {
			t.Errorf("skips %q lack %q", lines, want)
		}
	}
	// Effective hourly figures follow the catalog's term rules.
	for _, o := range res.Offers {
		if o.EffectiveHourly().Sign() <= 0 {
			t.Errorf("%s: effective hourly %s", o.ID(), o.EffectiveHourly())
		}
	}
}

func TestParseDefaults(t *testing.T) {
	// No currency in the response: the configured fallback; no fetchedAt:
	// the clock; period defaults to 1.
	in := `[{"action":"DescribePrice","region":"cn-shanghai","instanceType":"ecs.gn6v-c8g1.2xlarge","priceUnit":"Month",
	  "response":{"PriceInfo":{"Price":{"OriginalPrice":"7000.5"}}}},
	 {"action":"DescribePrice","region":"cn-shanghai","instanceType":"ecs.gn6v-c8g1.2xlarge","priceUnit":"Month","period":3,
	  "response":{"PriceInfo":{"Price":{"OriginalPrice":20000}}}},
	 {"action":"DescribePrice","region":"cn-shanghai","instanceType":"ecs.gn6v-c8g1.2xlarge","priceUnit":"Week",
	  "response":{"PriceInfo":{"Price":{"OriginalPrice":2000}}}},
	 {"action":"DescribeInstanceTypes","region":"cn-shanghai","response":{}}]`
	imp := testImporter()
	imp.Currency = "USD"
	res, err := imp.Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkOffers(t, res.Offers, []wantOffer{{id: "alibaba/ecs.gn6v-c8g1.2xlarge/cn-shanghai/subscription-1m", monthly: "7000.5",
		currency: "USD", ref: "DescribePrice cn-shanghai ecs.gn6v-c8g1.2xlarge", asOf: "2025-03-04"}})
	if res.Offers[0].Source.FetchedAt != fixedNow {
		t.Errorf("fetched at %v", res.Offers[0].Source.FetchedAt)
	}
	if res.Skipped.Total() != 3 {
		t.Errorf("skips %v", res.Skipped.Lines())
	}
}

func TestParseMalformed(t *testing.T) {
	price := func(body string) string {
		return `[{"action":"DescribePrice","region":"cn-hangzhou","instanceType":"ecs.x","priceUnit":"Hour","response":` + body + `}]`
	}
	spot := func(row string) string {
		return `[{"action":"DescribeSpotPriceHistory","region":"cn-hangzhou","response":{"Currency":"CNY","SpotPrices":{"SpotPriceType":[` + row + `]}}}]`
	}
	cases := []struct {
		name, in, field string
	}{
		{"empty", ``, ""},
		{"not json", `hello`, ""},
		{"object not array", `{"action":"DescribePrice"}`, ""},
		{"truncated", `[{"action":"DescribePrice","region":"cn-hangzhou"`, ""},
		{"trailing data", `[] []`, ""},
		{"entry wrong type", `[{"action":1}]`, "[0].action"},
		{"missing region", `[{"action":"DescribePrice","instanceType":"ecs.x","response":{}}]`, "[0].region"},
		{"missing response", `[{"action":"DescribePrice","region":"r","instanceType":"ecs.x"}]`, "[0].response"},
		{"missing instance type", `[{"action":"DescribePrice","region":"r","response":{}}]`, "[0].instanceType"},
		{"bad fetchedAt", `[{"action":"DescribePrice","region":"r","instanceType":"ecs.x","fetchedAt":"yesterday","response":{}}]`, "[0].fetchedAt"},
		{"missing PriceInfo", price(`{"RequestId":"x"}`), "[0].response.PriceInfo.Price"},
		{"missing OriginalPrice", price(`{"PriceInfo":{"Price":{"TradePrice":1,"Currency":"CNY"}}}`), "[0].response.PriceInfo.Price.OriginalPrice"},
		{"price not a number", price(`{"PriceInfo":{"Price":{"OriginalPrice":"abc","Currency":"CNY"}}}`), "[0].response"},
		{"price huge exponent", price(`{"PriceInfo":{"Price":{"OriginalPrice":1e999999999,"Currency":"CNY"}}}`), "[0].response"},
		{"negative price", price(`{"PriceInfo":{"Price":{"OriginalPrice":-1,"Currency":"CNY"}}}`), "[0].response.PriceInfo.Price.OriginalPrice"},
		{"currency wrong type", price(`{"PriceInfo":{"Price":{"OriginalPrice":1,"Currency":5}}}`), "[0].response.PriceInfo.Price.Currency"},
		{"missing SpotPrices", `[{"action":"DescribeSpotPriceHistory","region":"r","response":{"Currency":"CNY"}}]`, "[0].response.SpotPrices"},
		{"spot bad timestamp", spot(`{"ZoneId":"z","InstanceType":"ecs.x","Timestamp":"noon","SpotPrice":1}`), "[0].response.SpotPrices.SpotPriceType[0].Timestamp"},
		{"spot missing zone", spot(`{"InstanceType":"ecs.x","Timestamp":"2025-01-01T00:00:00Z","SpotPrice":1}`), "[0].response.SpotPrices.SpotPriceType[0].ZoneId"},
		{"spot missing type", spot(`{"ZoneId":"z","Timestamp":"2025-01-01T00:00:00Z","SpotPrice":1}`), "[0].response.SpotPrices.SpotPriceType[0].InstanceType"},
		{"spot missing price", spot(`{"ZoneId":"z","InstanceType":"ecs.x","Timestamp":"2025-01-01T00:00:00Z"}`), "[0].response.SpotPrices.SpotPriceType[0].SpotPrice"},
		{"spot negative", spot(`{"ZoneId":"z","InstanceType":"ecs.x","Timestamp":"2025-01-01T00:00:00Z","SpotPrice":-0.1}`), "[0].response.SpotPrices.SpotPriceType[0].SpotPrice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := testImporter().Parse(context.Background(), strings.NewReader(c.in), nil)
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want *importer.ParseError", err, err)
			}
			if pe.Source != "alibaba" {
				t.Errorf("source %q", pe.Source)
			}
			if c.field != "" && !strings.HasPrefix(pe.Field, c.field) {
				t.Errorf("field %q, want %q", pe.Field, c.field)
			}
		})
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := testImporter().Parse(ctx, strings.NewReader(`[{"action":"x","region":"r","response":{}}]`), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

// docParams is the worked example of Alibaba Cloud's RPC signature
// documentation ("Request signature", DescribeRegions with AccessKeyId
// testid and secret testsecret).
var docParams = map[string]string{
	"Timestamp":        "2016-02-23T12:46:24Z",
	"Format":           "XML",
	"AccessKeyId":      "testid",
	"Action":           "DescribeRegions",
	"SignatureMethod":  "HMAC-SHA1",
	"SignatureNonce":   "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
	"Version":          "2014-05-26",
	"SignatureVersion": "1.0",
}

func TestSignDocumentedExample(t *testing.T) {
	const wantSTS = "GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML" +
		"%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf" +
		"%26SignatureVersion%3D1.0%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26"
	if got := stringToSign("GET", docParams); got != wantSTS {
		t.Errorf("StringToSign\n got %s\nwant %s", got, wantSTS)
	}
	if got := sign("GET", docParams, "testsecret"); got != "OLeaidS1JvxuMvnyHOwuJ+uX5qY=" {
		t.Errorf("signature %s, want the documented OLeaidS1JvxuMvnyHOwuJ+uX5qY=", got)
	}
	q := signedQuery("GET", docParams, "testsecret")
	if !strings.HasSuffix(q, "&Signature=OLeaidS1JvxuMvnyHOwuJ%2BuX5qY%3D") {
		t.Errorf("query %s", q)
	}
}

func TestPercentEncode(t *testing.T) {
	for in, want := range map[string]string{
		"a b":                  "a%20b",
		"a*b":                  "a%2Ab",
		"a~b":                  "a~b",
		"a+b":                  "a%2Bb",
		"/":                    "%2F",
		"-_.":                  "-_.",
		"2016-02-23T12:46:24Z": "2016-02-23T12%3A46%3A24Z",
		"包月":                   "%E5%8C%85%E6%9C%88",
	} {
		if got := percentEncode(in); got != want {
			t.Errorf("percentEncode(%q) = %q, want %q", in, got, want)
		}
	}
}

// refEncode is an independent percent-encoder for the server side of the
// tests: RFC 3986 unreserved characters stay, every other byte is %XY.
func refEncode(s string) string {
	var sb strings.Builder
	for _, c := range []byte(s) {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, "%%%02X", c)
		}
	}
	return sb.String()
}

// verifySignature recomputes the signature of a received request the way
// the API does.
func verifySignature(r *http.Request, secret string) error {
	q := r.URL.Query()
	got := q.Get("Signature")
	var keys []string
	for k := range q {
		if k != "Signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var pairs []string
	for _, k := range keys {
		pairs = append(pairs, refEncode(k)+"="+refEncode(q.Get(k)))
	}
	sts := r.Method + "&%2F&" + refEncode(strings.Join(pairs, "&"))
	m := hmac.New(sha1.New, []byte(secret+"&"))
	m.Write([]byte(sts))
	if want := base64.StdEncoding.EncodeToString(m.Sum(nil)); got != want {
		return fmt.Errorf("signature %q, want %q", got, want)
	}
	return nil
}

const (
	testKeyID  = "LTAI5tTestKeyId"
	testSecret = "s3cr3t-Value/with+chars*~"
)

func fetchImporter(url string) *Importer {
	n := 0
	var mu sync.Mutex
	return &Importer{
		Endpoint:        url + "/",
		Regions:         []string{"cn-hangzhou"},
		InstanceTypes:   []string{"ecs.gn7i-c8g1.2xlarge"},
		AccessKeyID:     testKeyID,
		AccessKeySecret: testSecret,
		Now:             func() time.Time { return fixedNow },
		Nonce: func() string {
			mu.Lock()
			defer mu.Unlock()
			n++
			return fmt.Sprintf("nonce-%d", n)
		},
		RetryWait: time.Millisecond,
	}
}

func TestFetch(t *testing.T) {
	var mu sync.Mutex
	var nonces []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		if err := verifySignature(r, testSecret); err != nil {
			t.Error(err)
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"Code":"SignatureDoesNotMatch","Message":"bad"}`)
			return
		}
		q := r.URL.Query()
		for k, want := range map[string]string{
			"Format": "JSON", "Version": "2014-05-26", "AccessKeyId": testKeyID, "SignatureMethod": "HMAC-SHA1",
			"SignatureVersion": "1.0", "Timestamp": "2025-03-04T05:06:07Z", "RegionId": "cn-hangzhou",
			"InstanceType": "ecs.gn7i-c8g1.2xlarge",
		} {
			if got := q.Get(k); got != want {
				t.Errorf("%s=%q, want %q", k, got, want)
			}
		}
		mu.Lock()
		nonces = append(nonces, q.Get("SignatureNonce"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch q.Get("Action") + " " + q.Get("PriceUnit") {
		case "DescribePrice Hour":
			if q.Get("ResourceType") != "instance" || q.Get("Period") != "1" {
				t.Errorf("query %v", q)
			}
			fmt.Fprint(w, `{"RequestId":"a","PriceInfo":{"Price":{"OriginalPrice":9.6,"TradePrice":8.0,"Currency":"CNY","DetailInfos":{"DetailInfo":[{"Resource":"instanceType","OriginalPrice":9.416}]}},"Rules":{"Rule":[]}}}`)
		case "DescribePrice Month":
			fmt.Fprint(w, `{"RequestId":"b","PriceInfo":{"Price":{"OriginalPrice":4152,"TradePrice":4152,"Currency":"CNY"},"Rules":{"Rule":[]}}}`)
		case "DescribePrice Year":
			// Not offered: skipped, not fatal.
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"RequestId":"c","HostId":"ecs.aliyuncs.com","Code":"InvalidParameter.PriceUnit","Message":"not offered"}`)
		case "DescribeSpotPriceHistory ":
			if q.Get("NetworkType") != "vpc" || q.Get("OSType") != "linux" || q.Get("StartTime") != "2025-03-03T05:06:07Z" || q.Get("EndTime") != "2025-03-04T05:06:07Z" {
				t.Errorf("spot query %v", q)
			}
			switch q.Get("Offset") {
			case "":
				fmt.Fprint(w, `{"RequestId":"d","NextOffset":1,"Currency":"CNY","SpotPrices":{"SpotPriceType":[{"ZoneId":"cn-hangzhou-h","InstanceType":"ecs.gn7i-c8g1.2xlarge","Timestamp":"2025-03-04T04:00:00Z","NetworkType":"vpc","SpotPrice":2.35,"OriginPrice":9.416}]}}`)
			case "1":
				fmt.Fprint(w, `{"RequestId":"e","NextOffset":2,"Currency":"CNY","SpotPrices":{"SpotPriceType":[{"ZoneId":"cn-hangzhou-i","InstanceType":"ecs.gn7i-c8g1.2xlarge","Timestamp":"2025-03-04T03:00:00Z","NetworkType":"vpc","SpotPrice":2.12,"OriginPrice":9.416}]}}`)
			default:
				fmt.Fprint(w, `{"RequestId":"f","NextOffset":2,"Currency":"CNY","SpotPrices":{"SpotPriceType":[]}}`)
			}
		default:
			t.Errorf("unexpected request %v", q)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	res, err := fetchImporter(srv.URL).Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkOffers(t, res.Offers, []wantOffer{
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/on-demand", hourly: "9.416", currency: "CNY",
			ref: "DescribePrice cn-hangzhou ecs.gn7i-c8g1.2xlarge", asOf: "2025-03-04"},
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/spot", hourly: "2.12", currency: "CNY",
			ref: "DescribeSpotPriceHistory cn-hangzhou ecs.gn7i-c8g1.2xlarge"},
		{id: "alibaba/ecs.gn7i-c8g1.2xlarge/cn-hangzhou/subscription-1m", monthly: "4152", currency: "CNY",
			ref: "DescribePrice cn-hangzhou ecs.gn7i-c8g1.2xlarge"},
	})
	if res.Offers[0].Source.FetchedAt != fixedNow {
		t.Errorf("fetched at %v", res.Offers[0].Source.FetchedAt)
	}
	if lines := strings.Join(res.Skipped.Lines(), ";"); !strings.Contains(lines, "API error InvalidParameter.PriceUnit") {
		t.Errorf("skips %q", lines)
	}
	seen := map[string]bool{}
	for _, n := range nonces {
		if seen[n] {
			t.Errorf("nonce %s reused", n)
		}
		seen[n] = true
	}
	if len(nonces) != 6 {
		t.Errorf("%d requests, want 6", len(nonces))
	}
}

func TestFetchAuthError(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"RequestId":"7A2B","HostId":"ecs.aliyuncs.com","Code":"InvalidAccessKeyId.NotFound","Message":"Specified access key is not found.","Recommend":"https://api.aliyun.com/troubleshoot"}`)
	}))
	defer srv.Close()
	_, err := fetchImporter(srv.URL).Fetch(context.Background(), srv.Client(), nil)
	if err == nil {
		t.Fatal("no error")
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "InvalidAccessKeyId.NotFound" || !ae.Fatal() {
		t.Fatalf("error %v, want a fatal InvalidAccessKeyId.NotFound APIError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "InvalidAccessKeyId.NotFound") || !strings.Contains(msg, "Specified access key is not found.") {
		t.Errorf("unclear error %q", msg)
	}
	if strings.Contains(msg, testSecret) {
		t.Errorf("error %q reveals the secret", msg)
	}
	if calls != 1 {
		t.Errorf("%d calls; an auth error must stop at once", calls)
	}
}

func TestFetchRetries(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		switch calls {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `<html>busy</html>`)
		case 2:
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"Code":"Throttling.User","Message":"Request was denied due to user flow control."}`)
		default:
			fmt.Fprint(w, `{"RequestId":"a","PriceInfo":{"Price":{"OriginalPrice":9.416,"Currency":"CNY"}}}`)
		}
	}))
	defer srv.Close()
	imp := fetchImporter(srv.URL)
	imp.Billings = []catalog.Billing{catalog.OnDemand}
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 3 || len(res.Offers) != 1 {
		t.Errorf("%d calls, %d offers", calls, len(res.Offers))
	}
}

func TestFetchNetworkErrorHidesSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	url := srv.URL
	srv.Close() // nothing listens any more
	imp := fetchImporter(url)
	imp.Attempts = 2
	_, err := imp.Fetch(context.Background(), http.DefaultClient, nil)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, s := range []string{testSecret, "Signature=", testKeyID} {
		if strings.Contains(msg, s) {
			t.Errorf("error %q contains %q", msg, s)
		}
	}
}

func TestFetchConfig(t *testing.T) {
	for name, imp := range map[string]*Importer{
		"no keys":    {Regions: []string{"r"}, InstanceTypes: []string{"t"}},
		"no regions": {AccessKeyID: "a", AccessKeySecret: "b", InstanceTypes: []string{"t"}},
		"no types":   {AccessKeyID: "a", AccessKeySecret: "b", Regions: []string{"r"}},
	} {
		if _, err := imp.Fetch(context.Background(), http.DefaultClient, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	imp := &Importer{}
	imp.LoadEnv(func(k string) string { return map[string]string{EnvAccessKeyID: "id", EnvAccessKeySecret: "sec"}[k] })
	if imp.AccessKeyID != "id" || imp.AccessKeySecret != "sec" {
		t.Errorf("LoadEnv: %q", imp.AccessKeyID)
	}
	if imp.Name() != "alibaba" {
		t.Errorf("name %q", imp.Name())
	}
}

func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "bundle.json")); err == nil {
		for _, s := range importertest.Seeds(b, "") {
			f.Add(s)
		}
	}
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"action":"DescribeSpotPriceHistory","region":"r","response":{"Currency":"CNY","SpotPrices":{"SpotPriceType":[{"ZoneId":"z","InstanceType":"ecs.x","Timestamp":"2025-01-01T00:00:00Z","SpotPrice":"1e3"}]}}}]`))
	f.Add([]byte(`[{"action":"DescribePrice","region":"r","instanceType":"ecs.x","priceUnit":"Year","response":{"PriceInfo":{"Price":{"OriginalPrice":"0.1","DetailInfos":{"DetailInfo":[{"Resource":"instanceType","OriginalPrice":null}]}}}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := testImporter().Parse(context.Background(), bytes.NewReader(data), nil)
		if err != nil {
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *importer.ParseError", err)
			}
			return
		}
		for _, o := range res.Offers {
			if o.Price.Hourly.IsNegative() || o.Price.Monthly.IsNegative() || o.Price.Upfront.IsNegative() || o.Price.Currency == "" || !o.Billing.Valid() {
				t.Fatalf("bad offer %+v", o)
			}
		}
	})
}

// TestFetchBlanketFailure: a server that refuses or breaks on every call
// fails the fetch (with the server's message, without the secret) after a
// few requests, instead of returning an empty result.
func TestFetchBlanketFailure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		maxCall int
		want    string
	}{
		{"403 without an API code", http.StatusForbidden, `<html>Forbidden: quota for ` + testSecret + `</html>`, 1, "Forbidden"},
		{"401", http.StatusUnauthorized, `{"Code":"Whatever","Message":"go away"}`, 1, "go away"},
		{"500 on every call", http.StatusInternalServerError, `oops`, 60, "requests failed"},
		{"API code on every call", http.StatusBadRequest, `{"Code":"InvalidParameter","Message":"no"}`, 60, "requests failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.WriteHeader(tc.status)
				fmt.Fprint(w, tc.body)
			}))
			defer srv.Close()
			imp := fetchImporter(srv.URL)
			imp.Regions = []string{"cn-hangzhou", "cn-beijing", "cn-shanghai"}
			imp.InstanceTypes = []string{"ecs.a", "ecs.b", "ecs.c", "ecs.d", "ecs.e"}
			res, err := imp.Fetch(context.Background(), srv.Client(), nil)
			if err == nil {
				t.Fatalf("no error; %d offers", len(res.Offers))
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), testSecret) {
				t.Errorf("error %q: want %q, without the secret", err, tc.want)
			}
			if n := int(calls.Load()); n > tc.maxCall {
				t.Errorf("%d requests, want at most %d", n, tc.maxCall)
			}
		})
	}
}

// TestHugeRecordStopsEarly: one record of a GiB is an error after a few
// MiB are read, never a GiB held in memory.
func TestHugeRecordStopsEarly(t *testing.T) {
	in := &importertest.Endless{Prefix: `[{"action":"DescribePrice","region":"`, Fill: 'a', N: 1 << 30, Suffix: `"}]`}
	_, err := testImporter().Parse(context.Background(), in, nil)
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Fatalf("error %v", err)
	}
	if in.Served > 20<<20 {
		t.Errorf("read %d MiB before failing", in.Served>>20)
	}
}
