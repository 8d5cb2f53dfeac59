package tencent

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
	"os"
	"path/filepath"
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
		if o.Provider != "tencent" {
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
	}
}

func TestParseBundle(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "bundle.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	calls := 0
	res, err := testImporter().Parse(context.Background(), f, func(int64, int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != "tencent" || calls == 0 {
		t.Errorf("source %q, %d progress calls", res.Source, calls)
	}
	const inq = "InquiryPriceRunInstances ap-guangzhou GN7.2XLARGE32"
	checkOffers(t, res.Offers, []wantOffer{
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/on-demand", hourly: "8.68", currency: "CNY", ref: inq, asOf: "2025-03-04", notes: "list price"},
		// Spot: the discounted unit price.
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/spot", hourly: "1.74", currency: "CNY", ref: inq},
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/subscription-1m", monthly: "4380", currency: "CNY", ref: inq},
		// OriginalPrice of the year, not the discounted 44676.
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/subscription-1y", upfront: "52560", currency: "CNY", ref: inq},
		// Lowest across zones on sale: ap-shanghai-3, not the sold-out -4.
		{id: "tencent/GN7.2XLARGE32/ap-shanghai/on-demand", hourly: "8.5", currency: "CNY",
			ref: "DescribeZoneInstanceConfigInfos ap-shanghai GN7.2XLARGE32", notes: "ap-shanghai-3"},
		{id: "tencent/GT4.4XLARGE96/ap-shanghai/on-demand", hourly: "28.5", currency: "CNY",
			ref: "DescribeZoneInstanceConfigInfos ap-shanghai GT4.4XLARGE96"},
		{id: "tencent/PNV4.7XLARGE116/ap-singapore/on-demand", hourly: "3.24", currency: "USD",
			ref: "InquiryPriceRunInstances ap-singapore PNV4.7XLARGE116"},
	})
	if got := res.Skipped.Total(); got != 3 {
		t.Errorf("skipped %d, want 3: %v", got, res.Skipped.Lines())
	}
	lines := strings.Join(res.Skipped.Lines(), "\n")
	for _, want := range []string{
		"API error InvalidParameterValue.InstanceTypeNotSupported (e.g. ap-beijing GN10Xp.2XLARGE40)",
		"not on sale in zone (SOLD_OUT) (e.g. ap-shanghai-4 GN7.2XLARGE32)",
		`unsupported charge type "PREPAID" in zone listing`,
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("skips %q lack %q", lines, want)
		}
	}
}

// samplesDir holds the Tencent CLI documentation examples (see its
// SOURCES.md), outside the module.
const samplesDir = "../../../../shared/data/pricing-samples/tencent"

func TestParseRealSamples(t *testing.T) {
	if _, err := os.Stat(samplesDir); err != nil {
		t.Skipf("real Tencent samples not available (%v); they live in shared/data/pricing-samples/tencent", err)
	}
	read := func(name string) json.RawMessage {
		b, err := os.ReadFile(filepath.Join(samplesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The samples are bare responses; wrap them in a bundle with the
	// requests their documentation pages describe.
	bundle := []map[string]any{
		{"action": "InquiryPriceRunInstances", "region": "ap-guangzhou", "instanceType": "S5.MEDIUM4",
			"response": read("inquiry-price-run-instances-ex1-default.json")},
		{"action": "InquiryPriceRunInstances", "region": "ap-guangzhou", "instanceType": "S5.16XLARGE256",
			"chargeType": "PREPAID", "period": 1, "response": read("inquiry-price-run-instances-ex2-prepaid.json")},
		{"action": "InquiryPriceRunInstances", "region": "ap-shanghai", "instanceType": "S5.LARGE8",
			"chargeType": "POSTPAID_BY_HOUR", "response": read("inquiry-price-run-instances-ex3-postpaid-by-hour.json")},
		{"action": "DescribeZoneInstanceConfigInfos", "response": read("describe-zone-instance-config-infos-ex1.json")},
		{"action": "DescribeReservedInstancesOfferings", "region": "ap-guangzhou", "response": read("describe-reserved-instances-offerings-ex1.json")},
	}
	in, err := json.Marshal(bundle)
	if err != nil {
		t.Fatal(err)
	}
	res, err := testImporter().Parse(context.Background(), bytes.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkOffers(t, res.Offers, []wantOffer{
		// Zone listing: region from the zone ap-guangzhou-2; Discount is a string there.
		{id: "tencent/S2.SMALL1/ap-guangzhou/on-demand", hourly: "0.15", currency: "CNY",
			ref: "DescribeZoneInstanceConfigInfos ap-guangzhou S2.SMALL1", notes: "0.07/h second step, 0.05/h third step"},
		// Example 1: tiered price 0.2 / 0.12 / 0.1, list price not the 0.08 discounted one.
		{id: "tencent/S5.16XLARGE256/ap-guangzhou/subscription-1m", monthly: "8884.5", currency: "CNY",
			ref: "InquiryPriceRunInstances ap-guangzhou S5.16XLARGE256"},
		{id: "tencent/S5.LARGE8/ap-shanghai/on-demand", hourly: "16.09", currency: "CNY",
			ref: "InquiryPriceRunInstances ap-shanghai S5.LARGE8", notes: "list price (UnitPrice)"},
		{id: "tencent/S5.MEDIUM4/ap-guangzhou/on-demand", hourly: "0.2", currency: "CNY",
			ref: "InquiryPriceRunInstances ap-guangzhou S5.MEDIUM4", notes: "0.2/h first step, 0.12/h second step, 0.1/h third step"},
	})
	if lines := strings.Join(res.Skipped.Lines(), ";"); lines != "1 unsupported action (e.g. DescribeReservedInstancesOfferings)" {
		t.Errorf("skips %q", lines)
	}
}

func TestParseMalformed(t *testing.T) {
	inq := func(charge, body string) string {
		return `[{"action":"InquiryPriceRunInstances","region":"ap-guangzhou","instanceType":"GN7.2XLARGE32","chargeType":"` + charge + `","response":` + body + `}]`
	}
	zone := func(row string) string {
		return `[{"action":"DescribeZoneInstanceConfigInfos","region":"ap-guangzhou","response":{"Response":{"InstanceTypeQuotaSet":[` + row + `]}}}]`
	}
	cases := []struct {
		name, in, field string
	}{
		{"empty", ``, ""},
		{"not json", `<html>`, ""},
		{"object not array", `{"Response":{}}`, ""},
		{"truncated", `[{"action":"InquiryPriceRunInstances"`, ""},
		{"trailing data", `[]x`, ""},
		{"period wrong type", `[{"action":"InquiryPriceRunInstances","period":"one"}]`, "[0].period"},
		{"missing response", `[{"action":"InquiryPriceRunInstances","region":"r","instanceType":"t"}]`, "[0].response"},
		{"bad fetchedAt", `[{"action":"InquiryPriceRunInstances","fetchedAt":"2025","response":{}}]`, "[0].fetchedAt"},
		{"missing region", `[{"action":"InquiryPriceRunInstances","instanceType":"t","response":{}}]`, "[0].region"},
		{"missing instance type", `[{"action":"InquiryPriceRunInstances","region":"r","response":{}}]`, "[0].instanceType"},
		{"no Response wrapper", inq("POSTPAID_BY_HOUR", `{"Price":{"InstancePrice":{"UnitPrice":1,"ChargeUnit":"HOUR"}}}`), "[0].response.Response"},
		{"no InstancePrice", inq("POSTPAID_BY_HOUR", `{"Response":{"Price":{"BandwidthPrice":{}}}}`), "[0].response.Response.Price.InstancePrice"},
		{"no UnitPrice", inq("POSTPAID_BY_HOUR", `{"Response":{"Price":{"InstancePrice":{"ChargeUnit":"HOUR"}}}}`), "[0].response.Response.Price.InstancePrice.UnitPrice"},
		{"negative UnitPrice", inq("POSTPAID_BY_HOUR", `{"Response":{"Price":{"InstancePrice":{"UnitPrice":-2,"ChargeUnit":"HOUR"}}}}`), "[0].response.Response.Price.InstancePrice.UnitPrice"},
		{"UnitPrice not a number", inq("POSTPAID_BY_HOUR", `{"Response":{"Price":{"InstancePrice":{"UnitPrice":"cheap","ChargeUnit":"HOUR"}}}}`), "[0].response"},
		{"UnitPrice object", inq("POSTPAID_BY_HOUR", `{"Response":{"Price":{"InstancePrice":{"UnitPrice":{},"ChargeUnit":"HOUR"}}}}`), "[0].response"},
		{"no OriginalPrice", inq("PREPAID", `{"Response":{"Price":{"InstancePrice":{"DiscountPrice":1}}}}`), "[0].response.Response.Price.InstancePrice.OriginalPrice"},
		{"no spot price", inq("SPOTPAID", `{"Response":{"Price":{"InstancePrice":{"ChargeUnit":"HOUR"}}}}`), "[0].response.Response.Price.InstancePrice.UnitPrice"},
		{"zone row without type", zone(`{"Zone":"ap-guangzhou-3","InstanceChargeType":"POSTPAID_BY_HOUR","Price":{"UnitPrice":1,"ChargeUnit":"HOUR"}}`), "[0].response.Response.InstanceTypeQuotaSet[0].InstanceType"},
		{"zone row without zone", zone(`{"InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR","Price":{"UnitPrice":1,"ChargeUnit":"HOUR"}}`), "[0].response.Response.InstanceTypeQuotaSet[0].Zone"},
		{"zone row without price", zone(`{"Zone":"ap-guangzhou-3","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR"}`), "[0].response.Response.InstanceTypeQuotaSet[0].Price"},
		{"zone row Status wrong type", zone(`{"Zone":"z-1","InstanceType":"T","Status":5}`), "[0].response"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := testImporter().Parse(context.Background(), strings.NewReader(c.in), nil)
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want *importer.ParseError", err, err)
			}
			if pe.Source != "tencent" {
				t.Errorf("source %q", pe.Source)
			}
			if c.field != "" && !strings.HasPrefix(pe.Field, c.field) {
				t.Errorf("field %q, want %q", pe.Field, c.field)
			}
		})
	}
}

func TestParseSkips(t *testing.T) {
	in := `[
	 {"action":"InquiryPriceRunInstances","region":"r","instanceType":"T","chargeType":"POSTPAID_BY_HOUR","response":{"Response":{"Price":{"InstancePrice":{"UnitPrice":1,"ChargeUnit":"abc"}}}}},
	 {"action":"InquiryPriceRunInstances","region":"r","instanceType":"T","chargeType":"PREPAID","period":3,"response":{"Response":{"Price":{"InstancePrice":{"OriginalPrice":3}}}}},
	 {"action":"InquiryPriceRunInstances","region":"r","instanceType":"T","chargeType":"CDHPAID","response":{"Response":{"Price":{"InstancePrice":{"UnitPrice":1}}}}},
	 {"action":"InquiryPriceRunInstances","region":"r","instanceType":"T","chargeType":"POSTPAID_BY_HOUR","response":{"Response":{"Price":{"InstancePrice":{"UnitPrice":0,"ChargeUnit":"HOUR"}}}}},
	 {"action":"DescribeZoneInstanceConfigInfos","region":"r","response":{"Response":{"Error":{"Code":"InvalidFilter","Message":"bad"}}}}
	]`
	res, err := testImporter().Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 0 || res.Skipped.Total() != 5 {
		t.Errorf("%d offers, skips %v", len(res.Offers), res.Skipped.Lines())
	}
}

func TestCurrency(t *testing.T) {
	for _, c := range []struct {
		imp  Importer
		want string
	}{
		{Importer{}, "CNY"},
		{Importer{Endpoint: "https://cvm.tencentcloudapi.com/"}, "CNY"},
		{Importer{Endpoint: "https://cvm.intl.tencentcloudapi.com/"}, "USD"},
		{Importer{Endpoint: "https://cvm.intl.tencentcloudapi.com/", Currency: "CNY"}, "CNY"},
		{Importer{Currency: "USD"}, "USD"},
	} {
		if got := c.imp.currency(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.imp, got, c.want)
		}
	}
}

func TestSignDocumentedExample(t *testing.T) {
	// The worked example of Tencent Cloud's "Signature v3" documentation:
	// DescribeInstances on cvm.tencentcloudapi.com at 1551113065, with the
	// documentation's masked credentials used literally as the key.
	const (
		secretID  = "AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******"
		secretKey = "Gu5t9xGARNpq86cd98joQYCN3*******"
		payload   = `{"Limit": 1, "Filters": [{"Values": ["\u672a\u547d\u540d"], "Name": "instance-name"}]}`
	)
	s := signTC3(secretID, secretKey, "cvm", "cvm.tencentcloudapi.com", []byte(payload), 1551113065)
	wantCanonical := "POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n" +
		"35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064"
	if s.canonical != wantCanonical {
		t.Errorf("canonical request\n%s\nwant\n%s", s.canonical, wantCanonical)
	}
	wantSTS := "TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031"
	if s.stringToSign != wantSTS {
		t.Errorf("string to sign\n%s\nwant\n%s", s.stringToSign, wantSTS)
	}
	wantAuth := "TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, " +
		"SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c"
	if s.auth != wantAuth {
		t.Errorf("authorization\n%s\nwant\n%s", s.auth, wantAuth)
	}
}

// verifyTC3 recomputes a received request's signature the way the API
// does, independently of signTC3.
func verifyTC3(r *http.Request, body []byte, secretID, secretKey string) error {
	ts := r.Header.Get("X-TC-Timestamp")
	var sec int64
	if _, err := fmt.Sscan(ts, &sec); err != nil {
		return fmt.Errorf("X-TC-Timestamp %q", ts)
	}
	date := time.Unix(sec, 0).UTC().Format(time.DateOnly)
	h := sha256.Sum256(body)
	canonical := strings.Join([]string{"POST", "/", "", "content-type:" + r.Header.Get("Content-Type"), "host:" + r.Host, "",
		"content-type;host", hex.EncodeToString(h[:])}, "\n")
	ch := sha256.Sum256([]byte(canonical))
	sts := "TC3-HMAC-SHA256\n" + ts + "\n" + date + "/cvm/tc3_request\n" + hex.EncodeToString(ch[:])
	mac := func(k []byte, m string) []byte { x := hmac.New(sha256.New, k); x.Write([]byte(m)); return x.Sum(nil) }
	key := mac(mac(mac([]byte("TC3"+secretKey), date), "cvm"), "tc3_request")
	want := fmt.Sprintf("TC3-HMAC-SHA256 Credential=%s/%s/cvm/tc3_request, SignedHeaders=content-type;host, Signature=%x",
		secretID, date, mac(key, sts))
	if got := r.Header.Get("Authorization"); got != want {
		return fmt.Errorf("Authorization\n%s\nwant\n%s", got, want)
	}
	return nil
}

const (
	testSecretID  = "AKIDtestSecretId0000"
	testSecretKey = "tEsTsEcReTkEy/+=value"
)

func fetchImporter(url string) *Importer {
	return &Importer{
		Endpoint:      url + "/",
		Regions:       []string{"ap-guangzhou"},
		InstanceTypes: []string{"GN7.2XLARGE32"},
		ImageID:       "img-eb30mz89",
		SecretID:      testSecretID,
		SecretKey:     testSecretKey,
		Now:           func() time.Time { return fixedNow },
		RetryWait:     time.Millisecond,
	}
}

func TestFetch(t *testing.T) {
	var mu sync.Mutex
	var actions []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/" {
			t.Errorf("%s %s", r.Method, r.URL.Path)
		}
		if err := verifyTC3(r, body, testSecretID, testSecretKey); err != nil {
			t.Error(err)
			fmt.Fprint(w, `{"Response":{"Error":{"Code":"AuthFailure.SignatureFailure","Message":"bad signature"},"RequestId":"x"}}`)
			return
		}
		for k, want := range map[string]string{"X-TC-Version": "2017-03-12", "X-TC-Region": "ap-guangzhou",
			"X-TC-Timestamp": fmt.Sprint(fixedNow.Unix()), "Content-Type": "application/json; charset=utf-8"} {
			if got := r.Header.Get(k); got != want {
				t.Errorf("%s: %q, want %q", k, got, want)
			}
		}
		action := r.Header.Get("X-TC-Action")
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("body %s: %v", body, err)
		}
		mu.Lock()
		actions = append(actions, action)
		mu.Unlock()
		switch action {
		case "DescribeZoneInstanceConfigInfos":
			fs, _ := json.Marshal(req["Filters"])
			switch string(fs) {
			case `[{"Name":"instance-charge-type","Values":["POSTPAID_BY_HOUR"]},{"Name":"instance-type","Values":["GN7.2XLARGE32"]}]`:
				fmt.Fprint(w, `{"Response":{"InstanceTypeQuotaSet":[
				 {"Status":"SELL","Zone":"ap-guangzhou-6","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR","Price":{"UnitPrice":8.68,"UnitPriceDiscount":8.68,"Discount":"100.000000","ChargeUnit":"HOUR"},"Gpu":1},
				 {"Status":"SELL","Zone":"ap-guangzhou-3","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR","Price":{"UnitPrice":8.68,"UnitPriceDiscount":8.68,"Discount":"100.000000","ChargeUnit":"HOUR"},"Gpu":1},
				 {"Status":"SOLD_OUT","Zone":"ap-guangzhou-1","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR","Price":{"UnitPrice":8.68,"ChargeUnit":"HOUR"},"Gpu":1}],
				 "RequestId":"z1"}}`)
			case `[{"Name":"instance-charge-type","Values":["SPOTPAID"]},{"Name":"instance-type","Values":["GN7.2XLARGE32"]}]`:
				fmt.Fprint(w, `{"Response":{"InstanceTypeQuotaSet":[
				 {"Status":"SELL","Zone":"ap-guangzhou-3","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"SPOTPAID","Price":{"UnitPrice":8.68,"UnitPriceDiscount":1.9,"Discount":"22","ChargeUnit":"HOUR"}},
				 {"Status":"SELL","Zone":"ap-guangzhou-6","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"SPOTPAID","Price":{"UnitPrice":8.68,"UnitPriceDiscount":1.74,"Discount":"20","ChargeUnit":"HOUR"}}],
				 "RequestId":"z2"}}`)
			default:
				t.Errorf("filters %s", fs)
			}
		case "InquiryPriceRunInstances":
			pl, _ := json.Marshal(req["Placement"])
			if string(pl) != `{"Zone":"ap-guangzhou-3"}` || req["ImageId"] != "img-eb30mz89" || req["InstanceChargeType"] != "PREPAID" || req["InstanceType"] != "GN7.2XLARGE32" {
				t.Errorf("inquiry %s", body)
			}
			prepaid, _ := req["InstanceChargePrepaid"].(map[string]any)
			switch prepaid["Period"] {
			case 1.0:
				fmt.Fprint(w, `{"Response":{"Price":{"InstancePrice":{"OriginalPrice":4380,"DiscountPrice":4380,"Discount":100},"BandwidthPrice":{"ChargeUnit":"GB","UnitPrice":0.8}},"RequestId":"i1"}}`)
			case 12.0:
				fmt.Fprint(w, `{"Response":{"Error":{"Code":"InvalidPeriod","Message":"period not offered"},"RequestId":"i2"}}`)
			default:
				t.Errorf("period %v", prepaid["Period"])
			}
		default:
			t.Errorf("action %q", action)
		}
	}))
	defer srv.Close()
	var last int
	res, err := fetchImporter(srv.URL).Fetch(context.Background(), srv.Client(), func(_ int64, n int) { last = n })
	if err != nil {
		t.Fatal(err)
	}
	checkOffers(t, res.Offers, []wantOffer{
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/on-demand", hourly: "8.68", currency: "CNY",
			ref: "DescribeZoneInstanceConfigInfos ap-guangzhou GN7.2XLARGE32", asOf: "2025-03-04"},
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/spot", hourly: "1.74", currency: "CNY",
			ref: "DescribeZoneInstanceConfigInfos ap-guangzhou GN7.2XLARGE32", notes: "ap-guangzhou-6"},
		{id: "tencent/GN7.2XLARGE32/ap-guangzhou/subscription-1m", monthly: "4380", currency: "CNY",
			ref: "InquiryPriceRunInstances ap-guangzhou GN7.2XLARGE32"},
	})
	if last != 3 {
		t.Errorf("last progress %d records", last)
	}
	if lines := strings.Join(res.Skipped.Lines(), ";"); !strings.Contains(lines, "API error InvalidPeriod") {
		t.Errorf("skips %q", lines)
	}
	if strings.Join(actions, ",") != "DescribeZoneInstanceConfigInfos,DescribeZoneInstanceConfigInfos,InquiryPriceRunInstances,InquiryPriceRunInstances" {
		t.Errorf("actions %v", actions)
	}
}

func TestFetchWithoutImageSkipsSubscriptions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-TC-Action") != "DescribeZoneInstanceConfigInfos" {
			t.Errorf("action %s", r.Header.Get("X-TC-Action"))
		}
		fmt.Fprint(w, `{"Response":{"InstanceTypeQuotaSet":[],"RequestId":"z"}}`)
	}))
	defer srv.Close()
	imp := fetchImporter(srv.URL)
	imp.ImageID = ""
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Join(res.Skipped.Lines(), ";"); !strings.Contains(lines, "subscriptions not fetched") {
		t.Errorf("skips %q", lines)
	}
}

func TestFetchAuthError(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		fmt.Fprint(w, `{"Response":{"Error":{"Code":"AuthFailure.SecretIdNotFound","Message":"The SecretId is not found, please ensure that your SecretId is correct."},"RequestId":"c0ffee"}}`)
	}))
	defer srv.Close()
	_, err := fetchImporter(srv.URL).Fetch(context.Background(), srv.Client(), nil)
	var ae *APIError
	if !errors.As(err, &ae) || !ae.Fatal() || ae.Code != "AuthFailure.SecretIdNotFound" {
		t.Fatalf("error %v, want a fatal AuthFailure APIError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "AuthFailure.SecretIdNotFound") || !strings.Contains(msg, "The SecretId is not found") || !strings.Contains(msg, "c0ffee") {
		t.Errorf("unclear error %q", msg)
	}
	if strings.Contains(msg, testSecretKey) {
		t.Errorf("error %q reveals the secret key", msg)
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
			fmt.Fprint(w, `{"Response":{"Error":{"Code":"RequestLimitExceeded","Message":"slow down"},"RequestId":"r1"}}`)
		case 2:
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, `<html>bad gateway</html>`)
		default:
			fmt.Fprint(w, `{"Response":{"InstanceTypeQuotaSet":[{"Status":"SELL","Zone":"ap-guangzhou-3","InstanceType":"GN7.2XLARGE32","InstanceChargeType":"POSTPAID_BY_HOUR","Price":{"UnitPrice":8.68,"ChargeUnit":"HOUR"}}],"RequestId":"ok"}}`)
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
	srv.Close()
	imp := fetchImporter(url)
	imp.Attempts = 2
	_, err := imp.Fetch(context.Background(), http.DefaultClient, nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), testSecretKey) {
		t.Errorf("error %q reveals the secret key", err)
	}
}

func TestFetchConfig(t *testing.T) {
	for name, imp := range map[string]*Importer{
		"no keys":    {Regions: []string{"r"}},
		"no regions": {SecretID: "a", SecretKey: "b"},
	} {
		if _, err := imp.Fetch(context.Background(), http.DefaultClient, nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	imp := &Importer{}
	imp.LoadEnv(func(k string) string { return map[string]string{EnvSecretID: "id", EnvSecretKey: "key"}[k] })
	if imp.SecretID != "id" || imp.SecretKey != "key" || imp.Name() != "tencent" {
		t.Errorf("LoadEnv/Name: %+v", imp)
	}
	if got := chunks([]string{"a", "b", "c", "d", "e", "f"}); len(got) != 2 || len(got[0]) != 5 {
		t.Errorf("chunks %v", got)
	}
}

func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "bundle.json")); err == nil {
		for _, s := range importertest.Seeds(b, "") {
			f.Add(s)
		}
	}
	for _, name := range []string{"inquiry-price-run-instances-ex1-default.json", "describe-zone-instance-config-infos-ex1.json"} {
		if b, err := os.ReadFile(filepath.Join(samplesDir, name)); err == nil {
			for _, s := range importertest.Seeds([]byte(`[{"action":"`+map[bool]string{true: "InquiryPriceRunInstances", false: "DescribeZoneInstanceConfigInfos"}[strings.HasPrefix(name, "inquiry")]+
				`","region":"ap-guangzhou","instanceType":"S5.MEDIUM4","response":`+string(b)+`}]`), "") {
				if len(s) <= 2*importertest.MaxSeed {
					f.Add(s)
				}
			}
		}
	}
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"action":"InquiryPriceRunInstances","region":"r","instanceType":"t","chargeType":"PREPAID","period":12,"response":{"Response":{"Price":{"InstancePrice":{"OriginalPrice":"1e5"}}}}}]`))
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
		{"403 without an API error", http.StatusForbidden, `Forbidden for ` + testSecretKey, 1, "Forbidden"},
		{"401", http.StatusUnauthorized, `nope`, 1, "HTTP401"},
		{"502 on every call", http.StatusBadGateway, `bad gateway`, 60, "requests failed"},
		{"API error on every call", http.StatusOK, `{"Response":{"Error":{"Code":"InvalidParameter","Message":"no"},"RequestId":"r"}}`, 60, "requests failed"},
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
			imp.Regions = []string{"ap-guangzhou", "ap-shanghai", "ap-beijing", "ap-chengdu", "ap-nanjing"}
			res, err := imp.Fetch(context.Background(), srv.Client(), nil)
			if err == nil {
				t.Fatalf("no error; %d offers", len(res.Offers))
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), testSecretKey) {
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
	in := &importertest.Endless{Prefix: `[{"action":"InquiryPriceRunInstances","region":"`, Fill: 'a', N: 1 << 30, Suffix: `"}]`}
	_, err := testImporter().Parse(context.Background(), in, nil)
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Fatalf("error %v", err)
	}
	if in.Served > 20<<20 {
		t.Errorf("read %d MiB before failing", in.Served>>20)
	}
}

// A second price for the same offer (same region, type and charge type)
// is a duplicate: the first is kept and the duplicate counted, so a 0.01
// CNY copy appended to a bundle cannot win silently.
func TestDuplicateKeepsTheFirstAndCounts(t *testing.T) {
	entry := func(price string) string {
		return `{"action": "InquiryPriceRunInstances", "region": "ap-guangzhou", "instanceType": "GN7.2XLARGE32", "chargeType": "POSTPAID_BY_HOUR",
		"fetchedAt": "2025-03-04T05:06:07Z", "response": {"Response": {"Price": {"InstancePrice": {"UnitPrice": ` + price + `, "ChargeUnit": "HOUR"}}, "RequestId": "r"}}}`
	}
	res, err := testImporter().Parse(context.Background(), strings.NewReader("["+entry("8.68")+","+entry("0.01")+"]"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Offers) != 1 || res.Offers[0].Price.Hourly.String() != "8.68" {
		for _, o := range res.Offers {
			t.Errorf("kept %s at %s", o.ID(), o.Price.Hourly)
		}
	}
	if lines := strings.Join(res.Skipped.Lines(), "\n"); !strings.Contains(lines, "1 "+importer.SkipDuplicate) {
		t.Errorf("duplicate not counted: %q", lines)
	}
}
