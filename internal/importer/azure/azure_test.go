package azure

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/httpapi"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
	"github.com/shopspring/decimal"
)

var fixedNow = time.Date(2026, 5, 8, 12, 30, 0, 0, time.UTC)

func newImporter() *Importer {
	return &Importer{Now: func() time.Time { return fixedNow }}
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// want is an expected offer: ID and price parts.
type want struct {
	id, hourly, upfront string
}

func checkOffers(t *testing.T, got []*catalog.Offer, wants []want) {
	t.Helper()
	byID := map[string]*catalog.Offer{}
	for _, o := range got {
		if _, dup := byID[o.ID()]; dup {
			t.Errorf("duplicate offer %s", o.ID())
		}
		byID[o.ID()] = o
	}
	if len(got) != len(wants) {
		var ids []string
		for _, o := range got {
			ids = append(ids, o.ID())
		}
		t.Errorf("got %d offers, want %d: %v", len(got), len(wants), ids)
	}
	for _, w := range wants {
		o, ok := byID[w.id]
		if !ok {
			t.Errorf("missing offer %s", w.id)
			continue
		}
		if h := decimal.RequireFromString(w.hourly); !o.Price.Hourly.Equal(h) {
			t.Errorf("%s hourly = %s, want %s", w.id, o.Price.Hourly, h)
		}
		if u := decimal.RequireFromString(w.upfront); !o.Price.Upfront.Equal(u) {
			t.Errorf("%s upfront = %s, want %s", w.id, o.Price.Upfront, u)
		}
		if o.Price.Currency != "USD" || !o.Price.Monthly.IsZero() {
			t.Errorf("%s price = %+v", w.id, o.Price)
		}
		if o.Source.Kind != catalog.SourceOfficialAPI || o.Source.FetchedAt != fixedNow || o.Source.AsOfString() != "2026-05-08" || o.Source.Ref == "" {
			t.Errorf("%s source = %+v", w.id, o.Source)
		}
		if !o.Billing.Valid() {
			t.Errorf("%s billing %q not canonical", w.id, o.Billing)
		}
	}
}

var page1Offers = []want{
	{"azure/Standard_NC24ads_A100_v4/eastus/on-demand", "3.673", "0"},
	{"azure/Standard_NC24ads_A100_v4/eastus/spot", "0.7346", "0"},
	{"azure/Standard_NC24ads_A100_v4/eastus/savings-plan-1y-no-upfront", "2.4972327", "0"},
	{"azure/Standard_NC24ads_A100_v4/eastus/savings-plan-3y-no-upfront", "1.2849874", "0"},
	{"azure/Standard_NC24ads_A100_v4/eastus/reserved-1y-all-upfront", "0", "19960"},
	{"azure/Standard_NC24ads_A100_v4/eastus/reserved-3y-all-upfront", "0", "38406"},
	{"azure/Standard_NC24ads_A100_v4/eastus/on-demand/windows", "3.857", "0"},
}

var page2Offers = []want{
	{"azure/Standard_ND96isr_H100_v5/westeurope/on-demand", "98.32", "0"},
	{"azure/Standard_ND96isr_H100_v5/westeurope/savings-plan-1y-no-upfront", "69.8072", "0"},
	{"azure/Standard_ND96isr_H100_v5/westeurope/savings-plan-3y-no-upfront", "48.1768", "0"},
	{"azure/Standard_ND96isr_H100_v5/westeurope/on-demand/windows", "98.32", "0"},
	{"azure/Standard_NV6ads_A10_v5/westeurope/on-demand", "0.45", "0"},
}

func TestParse(t *testing.T) {
	p1, p2 := readFixture(t, "page1.json"), readFixture(t, "page2.json")
	tests := []struct {
		name      string
		imp       func(*Importer)
		input     []byte
		offers    []want
		skipLines []string
	}{
		{
			name:   "page 1",
			input:  p1,
			offers: page1Offers,
			skipLines: []string{
				"1 Low Priority (e.g. Standard_NC24ads_A100_v4 eastus)",
				"1 dev/test (e.g. Standard_NC24ads_A100_v4 eastus)",
				"1 size not selected (e.g. Standard_D2s_v3)",
			},
		},
		{
			name:   "page 2",
			input:  p2,
			offers: page2Offers,
			skipLines: []string{
				"1 reservation term not 1 or 3 years (e.g. 5 Years)",
				"1 superseded meter (a primary region or a later effectiveStartDate was kept) (e.g. azure/Standard_NV6ads_A10_v5/westeurope/on-demand)",
				"1 unit not 1 Hour (e.g. 1/Month)",
			},
		},
		{
			name:   "both pages concatenated",
			input:  append(append(append([]byte{}, p1...), '\n'), p2...),
			offers: append(append([]want{}, page1Offers...), page2Offers...),
		},
		{
			name:   "size filter",
			imp:    func(i *Importer) { i.SKUs = []string{"standard_nd96isr_h100_v5"} },
			input:  p2,
			offers: page2Offers[:4],
		},
		{
			name:   "region filter",
			imp:    func(i *Importer) { i.Regions = []string{"EastUS"} },
			input:  append(append([]byte{}, p1...), p2...),
			offers: page1Offers,
		},
		{
			name:  "empty page",
			input: []byte(`{"BillingCurrency":"USD","Items":[],"NextPageLink":null,"Count":0}`),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp := newImporter()
			if tt.imp != nil {
				tt.imp(imp)
			}
			res, err := imp.Parse(context.Background(), bytes.NewReader(tt.input), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Source != "azure" || imp.Name() != "azure" {
				t.Errorf("source = %q, name = %q", res.Source, imp.Name())
			}
			checkOffers(t, res.Offers, tt.offers)
			if tt.skipLines != nil {
				got := strings.Join(res.Skipped.Lines(), "\n")
				if got != strings.Join(tt.skipLines, "\n") {
					t.Errorf("skipped:\n%s\nwant:\n%s", got, strings.Join(tt.skipLines, "\n"))
				}
			}
			for i := 1; i < len(res.Offers); i++ {
				if res.Offers[i-1].ID() >= res.Offers[i].ID() {
					t.Errorf("offers not sorted: %s before %s", res.Offers[i-1].ID(), res.Offers[i].ID())
				}
			}
		})
	}
}

// TestWindowsMeters: a Windows product's pay-as-you-go and spot meters
// are Windows offers (prices here are test data); its savings-plan and
// reservation rates, which cover compute only, are skipped and counted.
func TestWindowsMeters(t *testing.T) {
	item := func(prod, meter, typ, term string, price float64, savings string) string {
		return fmt.Sprintf(`{"currencyCode":"USD","retailPrice":%g,"unitPrice":%g,"armRegionName":"eastus","effectiveStartDate":"2026-01-01T00:00:00Z",`+
			`"meterName":%q,"productName":%q,"skuName":%q,"serviceName":"Virtual Machines","unitOfMeasure":"1 Hour","type":%q,"reservationTerm":%q,`+
			`"isPrimaryMeterRegion":true,"armSkuName":"Standard_NV36ads_A10_v5"%s}`, price, price, meter, prod, meter, typ, term, savings)
	}
	sp := `,"savingsPlan":[{"unitPrice":2.1,"retailPrice":2.1,"term":"1 Year"}]`
	page := `{"Items":[` + strings.Join([]string{
		item("Virtual Machines NVadsA10v5 Series", "NV36ads A10 v5", "Consumption", "", 3.2, sp),
		item("Virtual Machines NVadsA10v5 Series Windows", "NV36ads A10 v5", "Consumption", "", 4.86, sp),
		item("Virtual Machines NVadsA10v5 Series Windows", "NV36ads A10 v5 Spot", "Consumption", "", 1.5, ""),
		item("Virtual Machines NVadsA10v5 Series Windows", "NV36ads A10 v5", "Reservation", "1 Year", 18000, ""),
	}, ",") + `],"NextPageLink":null}`
	res, err := newImporter().Parse(context.Background(), strings.NewReader(page), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkOffers(t, res.Offers, []want{
		{"azure/Standard_NV36ads_A10_v5/eastus/on-demand", "3.2", "0"},
		{"azure/Standard_NV36ads_A10_v5/eastus/savings-plan-1y-no-upfront", "2.1", "0"},
		{"azure/Standard_NV36ads_A10_v5/eastus/on-demand/windows", "4.86", "0"},
		{"azure/Standard_NV36ads_A10_v5/eastus/spot/windows", "1.5", "0"},
	})
	if got := strings.Join(res.Skipped.Lines(), "\n"); !strings.Contains(got, "2 Windows savings plan or reservation (covers compute only; the licence is charged apart)") {
		t.Errorf("skipped:\n%s", got)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, input, field string
		minOffset          int64
	}{
		{"not JSON", `<html>`, "", 0},
		{"array at top", `[1,2]`, "", 1},
		{"truncated", `{"Items":[{"armSkuName":"Standard_NC6"`, "Items[0]", 1},
		{"price is a string", `{"Items":[{"retailPrice":"cheap"}]}`, "Items[0]", 10},
		{"price wrong type", `{"Items":[{"retailPrice":true}]}`, "Items[0].retailPrice", 10},
		{"syntax error in item", `{"Items":[{"retailPrice":1,}]}`, "Items[0]", 20},
		{"Items not an array", `{"Items":{}}`, "Items", 1},
		{"NextPageLink not a string", `{"Items":[],"NextPageLink":5}`, "NextPageLink", 20},
		{"missing currency", `{"Items":[{"serviceName":"Virtual Machines","armSkuName":"Standard_NC6","armRegionName":"eastus","unitOfMeasure":"1 Hour","type":"Consumption","retailPrice":1}]}`, "Items[0].currencyCode", 10},
		{"savings plan price", `{"Items":[{"currencyCode":"USD","serviceName":"Virtual Machines","armSkuName":"Standard_NC6","armRegionName":"eastus","unitOfMeasure":"1 Hour","type":"Consumption","retailPrice":1,"savingsPlan":[{"retailPrice":"x","term":"1 Year"}]}]}`, "Items[0]", 10},
		{"empty input", ``, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newImporter().Parse(context.Background(), strings.NewReader(tt.input), nil)
			if err == nil {
				t.Fatalf("no error; %d offers", len(res.Offers))
			}
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a ParseError", err, err)
			}
			if pe.Source != "azure" || !strings.HasPrefix(pe.Field, tt.field) || pe.Offset < tt.minOffset {
				t.Errorf("ParseError = %+v (%v); want field %q, offset ≥ %d", pe, err, tt.field, tt.minOffset)
			}
			if res != nil {
				t.Errorf("partial result returned")
			}
		})
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := newImporter().Parse(ctx, bytes.NewReader(readFixture(t, "page1.json")), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// server serves page1 then page2, rewriting NextPageLink to itself, with
// optional misbehaviour per request number (1-based).
func server(t *testing.T, p1, p2 []byte, misbehave func(n int, w http.ResponseWriter, r *http.Request) bool) (*httptest.Server, *atomic.Int32, *[]string) {
	t.Helper()
	var n atomic.Int32
	var urls []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := int(n.Add(1))
		urls = append(urls, r.URL.String())
		if misbehave != nil && misbehave(k, w, r) {
			return
		}
		if r.URL.Path != "/api/retail/prices" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("$skip") == "" {
			w.Write(bytes.ReplaceAll(p1, []byte("https://prices.azure.com"), []byte(srv.URL)))
			return
		}
		w.Write(p2)
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &urls
}

func TestFetchPaging(t *testing.T) {
	srv, n, urls := server(t, readFixture(t, "page1.json"), readFixture(t, "page2.json"), nil)
	imp := newImporter()
	imp.BaseURL = srv.URL
	var progress int
	res, err := imp.Fetch(context.Background(), srv.Client(), func(int64, int) { progress++ })
	if err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 {
		t.Errorf("%d requests, want 2", n.Load())
	}
	checkOffers(t, res.Offers, append(append([]want{}, page1Offers...), page2Offers...))
	if progress < 2 {
		t.Errorf("progress called %d times", progress)
	}
	q := (*urls)[0]
	for _, part := range []string{"api-version=2023-01-01-preview", "currencyCode=%27USD%27", "$filter=serviceName%20eq%20%27Virtual%20Machines%27%20and%20%28startswith%28armSkuName%2C%27Standard_N%27%29%29"} {
		if !strings.Contains(q, part) {
			t.Errorf("first URL %s lacks %s", q, part)
		}
	}
	if !strings.HasPrefix(res.Offers[0].Source.Ref, srv.URL+"/api/retail/prices?") {
		t.Errorf("ref = %s", res.Offers[0].Source.Ref)
	}
}

func TestFetchRegionFilterInURL(t *testing.T) {
	srv, _, urls := server(t, readFixture(t, "page2.json"), nil, nil)
	imp := newImporter()
	imp.BaseURL = srv.URL
	imp.Regions = []string{"westeurope"}
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains((*urls)[0], "%28armRegionName%20eq%20%27westeurope%27%29") {
		t.Errorf("URL %s lacks the region filter", (*urls)[0])
	}
	checkOffers(t, res.Offers, page2Offers)
}

func TestFetch429ThenSuccess(t *testing.T) {
	srv, n, _ := server(t, readFixture(t, "page1.json"), readFixture(t, "page2.json"), func(k int, w http.ResponseWriter, r *http.Request) bool {
		if k == 1 || k == 3 {
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return true
		}
		return false
	})
	imp := newImporter()
	imp.BaseURL = srv.URL
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if n.Load() != 4 {
		t.Errorf("%d requests, want 4", n.Load())
	}
	checkOffers(t, res.Offers, append(append([]want{}, page1Offers...), page2Offers...))
}

func TestFetchFailures(t *testing.T) {
	p1, p2 := readFixture(t, "page1.json"), readFixture(t, "page2.json")
	tests := []struct {
		name      string
		misbehave func(k int, w http.ResponseWriter, r *http.Request) bool
		timeout   time.Duration
		check     func(t *testing.T, err error)
	}{
		{
			name: "broken payload on page 2",
			misbehave: func(k int, w http.ResponseWriter, r *http.Request) bool {
				if k == 2 {
					w.Write(p2[:len(p2)/2])
					return true
				}
				return false
			},
			check: func(t *testing.T, err error) {
				var pe *importer.ParseError
				if !errors.As(err, &pe) || pe.Source != "azure page 2" || pe.Offset == 0 {
					t.Errorf("err = %v, want a ParseError on page 2", err)
				}
			},
		},
		{
			name: "timeout",
			misbehave: func(k int, w http.ResponseWriter, r *http.Request) bool {
				if k == 2 {
					<-r.Context().Done()
					return true
				}
				return false
			},
			timeout: 300 * time.Millisecond,
			check: func(t *testing.T, err error) {
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("err = %v, want context.DeadlineExceeded", err)
				}
			},
		},
		{
			name: "not found",
			misbehave: func(k int, w http.ResponseWriter, r *http.Request) bool {
				http.NotFound(w, r)
				return true
			},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "404") {
					t.Errorf("err = %v, want 404", err)
				}
			},
		},
		{
			name: "server errors exhaust retries",
			misbehave: func(k int, w http.ResponseWriter, r *http.Request) bool {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "boom", http.StatusInternalServerError)
				return true
			},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "after 3 attempts") {
					t.Errorf("err = %v, want retries exhausted", err)
				}
			},
		},
		{
			name: "next link to another host",
			misbehave: func(k int, w http.ResponseWriter, r *http.Request) bool {
				w.Write(p1) // NextPageLink left pointing at prices.azure.com
				return true
			},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "leaves") {
					t.Errorf("err = %v, want a refused NextPageLink", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _, _ := server(t, p1, p2, tt.misbehave)
			imp := newImporter()
			imp.BaseURL = srv.URL
			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			res, err := imp.Fetch(ctx, srv.Client(), nil)
			if res != nil {
				t.Errorf("partial result with %d offers", len(res.Offers))
			}
			tt.check(t, err)
		})
	}
}

func TestFetchRepeatedLink(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"Items":[],"NextPageLink":"` + srv.URL + `/api/retail/prices?$skip=100"}`))
	}))
	defer srv.Close()
	imp := newImporter()
	imp.BaseURL = srv.URL
	_, err := imp.Fetch(context.Background(), srv.Client(), nil)
	var loop *httpapi.PageLoopError
	if !errors.As(err, &loop) || loop.Page != 3 || !strings.Contains(err.Error(), "azure prices: page 3 points back to a page already read") {
		t.Fatalf("err = %v, want a paging loop error", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"page1.json", "page2.json"} {
		for _, s := range importertest.Seeds(readFixture(f, name), "Items") {
			f.Add(s)
		}
	}
	f.Add([]byte(`{"Items":[{"retailPrice":1e400,"type":"Consumption"}]}`))
	f.Add([]byte(`{}{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := newImporter().Parse(context.Background(), bytes.NewReader(data), nil)
		if err != nil {
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		for _, o := range res.Offers {
			if !o.Billing.Valid() || o.InstanceName == "" || o.RegionCode == "" {
				t.Fatalf("bad offer %+v", o)
			}
		}
	})
}

func TestParseAcceptsByteOrderMark(t *testing.T) {
	plain, err := newImporter().Parse(context.Background(), bytes.NewReader(readFixture(t, "page1.json")), nil)
	if err != nil {
		t.Fatal(err)
	}
	withBOM := append([]byte("\xEF\xBB\xBF"), readFixture(t, "page1.json")...)
	res, err := newImporter().Parse(context.Background(), bytes.NewReader(withBOM), nil)
	if err != nil {
		t.Fatalf("a file with a UTF-8 BOM: %v", err)
	}
	if len(res.Offers) != len(plain.Offers) || len(res.Offers) == 0 {
		t.Errorf("%d offers with a BOM, %d without", len(res.Offers), len(plain.Offers))
	}
}

// TestHugeRecordStopsEarly: one record of a GiB is an error after a few
// MiB are read, never a GiB held in memory.
func TestHugeRecordStopsEarly(t *testing.T) {
	in := &importertest.Endless{Prefix: `{"Items":[{"armSkuName":"`, Fill: 'a', N: 1 << 30, Suffix: `"}]`}
	_, err := newImporter().Parse(context.Background(), in, nil)
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Fatalf("error %v", err)
	}
	if in.Served > 20<<20 {
		t.Errorf("read %d MiB before failing", in.Served>>20)
	}
}

// A user's import asks Azure for exactly the pages Azure links to: the
// first query keeps %20 for spaces and its parameter order, and
// NextPageLink is followed as written (not re-encoded), so the API sees
// the request its own link describes.
func TestFetchFollowsNextPageLinkAsWritten(t *testing.T) {
	p1 := readFixture(t, "page1.json")
	srv, _, urls := server(t, p1, readFixture(t, "page2.json"), nil)
	imp := newImporter()
	imp.BaseURL = srv.URL
	if _, err := imp.Fetch(context.Background(), srv.Client(), nil); err != nil {
		t.Fatal(err)
	}
	const first = "/api/retail/prices?api-version=2023-01-01-preview&currencyCode=%27USD%27&$filter=serviceName%20eq%20%27Virtual%20Machines%27%20and%20%28startswith%28armSkuName%2C%27Standard_N%27%29%29"
	var page struct{ NextPageLink string }
	if err := json.Unmarshal(p1, &page); err != nil {
		t.Fatal(err)
	}
	second := strings.TrimPrefix(page.NextPageLink, "https://prices.azure.com")
	if len(*urls) != 2 || (*urls)[0] != first || (*urls)[1] != second {
		t.Errorf("requests %q, want %q then %q", *urls, first, second)
	}
}

// A page far larger than any real one is refused as too large, with no
// partial result, rather than held without bound.
func TestFetchRefusesHugePage(t *testing.T) {
	srv, _, _ := server(t, nil, nil, func(k int, w http.ResponseWriter, r *http.Request) bool {
		w.Write(bytes.Repeat([]byte(" "), httpapi.DefaultMaxBody+1))
		return true
	})
	imp := newImporter()
	imp.BaseURL = srv.URL
	res, err := imp.Fetch(context.Background(), srv.Client(), nil)
	var big *httpapi.BodyLimitError
	if !errors.As(err, &big) || res != nil {
		t.Fatalf("err = %v, res = %v; want a BodyLimitError and no result", err, res)
	}
}
