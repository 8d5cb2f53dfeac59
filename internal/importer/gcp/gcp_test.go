package gcp

import (
	"bytes"
	"context"
	"errors"
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

func index(t *testing.T, offers []*catalog.Offer) map[string]*catalog.Offer {
	t.Helper()
	m := map[string]*catalog.Offer{}
	for _, o := range offers {
		if _, dup := m[o.ID()]; dup {
			t.Errorf("duplicate offer %s", o.ID())
		}
		if !o.Billing.Valid() || o.Price.Currency != "USD" || o.Source.Kind != catalog.SourceOfficialAPI || o.Source.FetchedAt != fixedNow {
			t.Errorf("bad offer %s: %+v", o.ID(), o)
		}
		m[o.ID()] = o
	}
	return m
}

// golden hourly prices assembled from the fixtures:
// core × vCPU + RAM × GiB + GPU × count.
var fixtureGolden = map[string]string{
	"gcp/a2-highgpu-1g/us-central1/on-demand":    "3.673385", // 12×0.031611 + 85×0.004237 + 2.933908
	"gcp/a2-highgpu-2g/us-central1/on-demand":    "7.34677",
	"gcp/a2-highgpu-8g/us-east1/on-demand":       "29.38708",
	"gcp/a2-megagpu-16g/us-central1/on-demand":   "55.739504",
	"gcp/a2-ultragpu-1g/us-central1/on-demand":   "5.027702", // 12×0.031611 + 170×0.004237 + 3.92808
	"gcp/a2-ultragpu-8g/us-central1/on-demand":   "40.221616",
	"gcp/a2-highgpu-1g/us-east1/spot":            "1.39171",  // 12×0.00948 + 85×0.00127 + 1.17
	"gcp/a2-highgpu-1g/us-central1/committed-1y": "2.314207", // 12×0.019915 + 85×0.002669 + 1.848362
	"gcp/g2-standard-4/us-central1/on-demand":    "0.706824",
	"gcp/g2-standard-8/us-central1/on-demand":    "0.853608", // 8×0.024988 + 32×0.002927 + 0.56004
	"gcp/g2-standard-96/us-central1/on-demand":   "8.003136",
}

func TestParse(t *testing.T) {
	p1, p2 := readFixture(t, "skus-page1.json"), readFixture(t, "skus-page2.json")
	both := append(append([]byte{}, p1...), p2...)
	tests := []struct {
		name    string
		imp     func(*Importer)
		input   []byte
		count   int
		golden  map[string]string
		absent  []string
		skipped map[string]int
	}{
		{
			name:   "both pages",
			input:  both,
			count:  42, // on-demand 17 us-central1 + 5 us-east1; spot 5+5; committed-1y 5+5
			golden: fixtureGolden,
			absent: []string{"gcp/a2-ultragpu-1g/us-east1/on-demand", "gcp/a3-highgpu-8g/us-central1/on-demand", "gcp/g2-standard-4/europe-west1/on-demand"},
			skipped: map[string]int{
				"incomplete price components": 29,
				"not Compute":                 2,
				"excluded variant (custom, sole tenancy, reserved, workstation ...)": 1,
			},
		},
		{
			name:  "page 1 only",
			input: p1,
			count: 34,
			golden: map[string]string{
				"gcp/a2-highgpu-1g/us-central1/on-demand": "3.673385",
			},
		},
		{
			name: "region filter and custom table",
			imp: func(i *Importer) {
				i.Regions = []string{"us-east1"}
				i.Machines = []Machine{{Name: "a2-custom-6", Family: "A2", VCPU: 6, MemGiB: decimal.RequireFromString("42.5"), GPU: "a-100", GPUCount: 1}}
			},
			input: both,
			count: 3,
			golden: map[string]string{
				// 6×0.031611 + 42.5×0.004237 + 2.933908
				"gcp/a2-custom-6/us-east1/on-demand": "3.3036465",
			},
		},
		{
			name:  "AsOf override",
			imp:   func(i *Importer) { i.AsOf = time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC) },
			input: p1,
			count: 34,
		},
		{
			name:  "empty",
			input: []byte(`{"skus":[],"nextPageToken":""}`),
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
			if res.Source != "gcp" || imp.Name() != "gcp" {
				t.Errorf("source %q name %q", res.Source, imp.Name())
			}
			m := index(t, res.Offers)
			if len(res.Offers) != tt.count {
				t.Errorf("%d offers, want %d; skipped: %v", len(res.Offers), tt.count, res.Skipped.Lines())
			}
			for id, w := range tt.golden {
				o, ok := m[id]
				if !ok {
					t.Errorf("missing %s", id)
					continue
				}
				if !o.Price.Hourly.Equal(decimal.RequireFromString(w)) {
					t.Errorf("%s = %s, want %s", id, o.Price.Hourly, w)
				}
				if !o.Price.Upfront.IsZero() || !o.Price.Monthly.IsZero() {
					t.Errorf("%s has upfront/monthly parts", id)
				}
			}
			for _, id := range tt.absent {
				if _, ok := m[id]; ok {
					t.Errorf("unexpected offer %s", id)
				}
			}
			lines := strings.Join(res.Skipped.Lines(), "\n")
			for reason, n := range tt.skipped {
				if !strings.Contains(lines, strings.TrimSpace(strings.Join([]string{itoa(n), reason}, " "))) {
					t.Errorf("skipped lines lack %d %q:\n%s", n, reason, lines)
				}
			}
			for _, o := range res.Offers {
				want := "2026-05-01"
				if !imp.AsOf.IsZero() {
					want = "2025-01-02"
				}
				if o.Source.AsOfString() != want {
					t.Errorf("%s as of %s, want %s", o.ID(), o.Source.AsOfString(), want)
					break
				}
			}
		})
	}
}

func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }

func TestClassify(t *testing.T) {
	tests := []struct {
		desc, group, comp string
	}{
		{"A2 Instance Core running in Americas", "CPU", "core:a2"},
		{"A2 Instance Ram running in Americas", "RAM", "ram:a2"},
		{"Spot Preemptible G2 Instance Core running in Iowa", "CPU", "core:g2"},
		{"Preemptible A2 Instance Ram running in EMEA", "RAM", "ram:a2"},
		{"Commitment v1: A3 Cpu in Americas for 3 Year", "CPU", "core:a3"},
		{"N1 Predefined Instance Core running in Americas", "CPU", "core:n1"},
		{"Nvidia Tesla A100 GPU running in Americas", "GPU", "gpu:a100"},
		{"Nvidia Tesla A100 80GB GPU running in EMEA", "GPU", "gpu:a10080gb"},
		{"NVIDIA H100 80GB GPU running in Americas", "GPU", "gpu:h10080gb"},
		{"Nvidia Tesla T4 GPU attached to Spot Preemptible VMs running in Virginia", "GPU", "gpu:t4"},
		{"Commitment v1: Nvidia L4 GPU running in APAC for 1 Year", "GPU", "gpu:l4"},
		{"Custom Instance Core running in Americas", "CPU", ""},
		{"Nvidia Tesla T4 Virtual Workstation GPU running in Americas", "GPU", ""},
		{"Reserved A2 Instance Core running in Americas", "CPU", ""},
		{"Compute optimized Core running in Americas", "CPU", ""},
		{"Network Internet Egress from Americas", "Network", ""},
		{"GPU", "GPU", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		comp, reason := classify(tt.desc, tt.group)
		if comp != tt.comp || (comp == "") == (reason == "") {
			t.Errorf("classify(%q) = %q, %q; want %q", tt.desc, comp, reason, tt.comp)
		}
	}
}

func TestDefaultMachines(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range DefaultMachines() {
		if seen[m.Name] || m.VCPU <= 0 || !m.MemGiB.IsPositive() || m.GPUCount <= 0 || m.Family == "" || m.GPU == "" {
			t.Errorf("bad machine %+v", m)
		}
		seen[m.Name] = true
	}
	for _, n := range []string{"a2-highgpu-1g", "a2-highgpu-8g", "a2-ultragpu-8g", "a3-highgpu-8g", "g2-standard-4", "g2-standard-96"} {
		if !seen[n] {
			t.Errorf("default table lacks %s", n)
		}
	}
}

// TestParseRealSample parses the opencost excerpt of a real SKU list.
func TestParseRealSample(t *testing.T) {
	path := "../../../../shared/data/pricing-samples/gcp/cloudbilling-compute-skus-a100-excerpt.json"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("real sample not available (%v)", err)
	}
	res, err := newImporter().Parse(context.Background(), bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := index(t, res.Offers)
	// a2-highgpu-1/2/4/8g and a2-megagpu-16g in us-central1, us-east1, us-west1.
	if len(res.Offers) != 15 {
		t.Errorf("%d offers, want 15", len(res.Offers))
	}
	for id, w := range map[string]string{
		"gcp/a2-highgpu-1g/us-central1/on-demand": "3.673385", // host 0.739477 ≈ SkyPilot's 0.73948, + 2.933908
		"gcp/a2-highgpu-8g/us-west1/on-demand":    "29.38708",
	} {
		o := m[id]
		if o == nil || !o.Price.Hourly.Equal(decimal.RequireFromString(w)) {
			t.Errorf("%s = %v, want %s", id, o, w)
			continue
		}
		if o.Source.AsOfString() != "2023-03-24" {
			t.Errorf("%s as of %s, want 2023-03-24", id, o.Source.AsOfString())
		}
	}
	// The A100 80GB SKU is not in the excerpt: ultragpu sizes are incomplete.
	if !strings.Contains(strings.Join(res.Skipped.Lines(), "\n"), "12 incomplete price components") {
		t.Errorf("skipped: %v", res.Skipped.Lines())
	}
}

func TestParseErrors(t *testing.T) {
	const okSKU = `"description":"A2 Instance Core running in Americas","category":{"resourceFamily":"Compute","resourceGroup":"CPU","usageType":"OnDemand"},"serviceRegions":["us-central1"]`
	tests := []struct {
		name, input, field string
	}{
		{"not JSON", `nope`, ""},
		{"truncated", `{"skus":[{"skuId":"x"`, "skus[0]"},
		{"skus not an array", `{"skus":"x"}`, "skus"},
		{"wrong type", `{"skus":[{"serviceRegions":"us-central1"}]}`, "skus[0].serviceRegions"},
		{"units not an integer", `{"skus":[{` + okSKU + `,"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"startUsageAmount":0,"unitPrice":{"currencyCode":"USD","units":"1.5","nanos":0}}]}}]}]}`, "skus[0].pricingInfo[].pricingExpression.tieredRates[0].unitPrice.units"},
		{"units not a number", `{"skus":[{` + okSKU + `,"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"unitPrice":{"currencyCode":"USD","units":"two"}}]}}]}]}`, "skus[0]"},
		{"nanos out of range", `{"skus":[{` + okSKU + `,"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"unitPrice":{"currencyCode":"USD","units":"0","nanos":1000000000}}]}}]}]}`, "skus[0].pricingInfo[].pricingExpression.tieredRates[0].unitPrice.nanos"},
		{"missing currency", `{"skus":[{` + okSKU + `,"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"unitPrice":{"units":"1"}}]}}]}]}`, "skus[0].pricingInfo[].pricingExpression.tieredRates[].unitPrice.currencyCode"},
		{"bad effectiveTime", `{"skus":[{` + okSKU + `,"pricingInfo":[{"effectiveTime":"yesterday"}]}]}`, "skus[0].pricingInfo[0].effectiveTime"},
		{"empty", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := newImporter().Parse(context.Background(), strings.NewReader(tt.input), nil)
			if res != nil {
				t.Errorf("partial result")
			}
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			if pe.Source != "gcp" || !strings.HasPrefix(pe.Field, tt.field) || (tt.input != "" && pe.Offset == 0) {
				t.Errorf("ParseError %+v (%v), want field %q and an offset", pe, err, tt.field)
			}
		})
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newImporter().Parse(ctx, bytes.NewReader(readFixture(t, "skus-page1.json")), nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestFetch(t *testing.T) {
	p1, p2 := readFixture(t, "skus-page1.json"), readFixture(t, "skus-page2.json")
	const key = "AIza-test-key"
	tests := []struct {
		name    string
		apiKey  string
		handler func(k int, w http.ResponseWriter, r *http.Request)
		check   func(t *testing.T, res *importer.Result, err error, requests int)
	}{
		{
			name:   "paging",
			apiKey: key,
			handler: func(k int, w http.ResponseWriter, r *http.Request) {
				q := r.URL.Query()
				if r.URL.Path != "/v1/services/6F81-5844-456A/skus" || q.Get("key") != key || q.Get("pageSize") != "5000" {
					http.Error(w, "bad request "+r.URL.String(), http.StatusBadRequest)
					return
				}
				switch q.Get("pageToken") {
				case "":
					w.Write(p1)
				case "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA":
					w.Write(p2)
				default:
					http.Error(w, "bad token", http.StatusBadRequest)
				}
			},
			check: func(t *testing.T, res *importer.Result, err error, requests int) {
				if err != nil {
					t.Fatal(err)
				}
				if requests != 2 {
					t.Errorf("%d requests, want 2", requests)
				}
				m := index(t, res.Offers)
				if len(m) != 42 {
					t.Errorf("%d offers, want 42", len(m))
				}
				for id, w := range fixtureGolden {
					if o := m[id]; o == nil || !o.Price.Hourly.Equal(decimal.RequireFromString(w)) {
						t.Errorf("%s = %v, want %s", id, o, w)
					}
				}
				if ref := res.Offers[0].Source.Ref; strings.Contains(ref, key) || !strings.HasSuffix(ref, "/v1/services/6F81-5844-456A/skus") {
					t.Errorf("ref = %s", ref)
				}
			},
		},
		{
			name: "no API key",
			check: func(t *testing.T, res *importer.Result, err error, requests int) {
				if err == nil || !strings.Contains(err.Error(), "GOOGLE_API_KEY") || requests != 0 {
					t.Errorf("err = %v after %d requests, want one naming GOOGLE_API_KEY", err, requests)
				}
			},
		},
		{
			name:   "403 does not leak the key",
			apiKey: key,
			handler: func(k int, w http.ResponseWriter, r *http.Request) {
				http.Error(w, "API key not valid", http.StatusForbidden)
			},
			check: func(t *testing.T, res *importer.Result, err error, requests int) {
				if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "403") {
					t.Errorf("err = %v", err)
				}
			},
		},
		{
			name:   "broken second page",
			apiKey: key,
			handler: func(k int, w http.ResponseWriter, r *http.Request) {
				if k == 1 {
					w.Write(p1)
					return
				}
				w.Write(p2[:len(p2)/3])
			},
			check: func(t *testing.T, res *importer.Result, err error, requests int) {
				var pe *importer.ParseError
				if !errors.As(err, &pe) || pe.Source != "gcp page 2" || res != nil {
					t.Errorf("err = %v, res = %v; want a ParseError on page 2 and no result", err, res)
				}
			},
		},
		{
			name:   "429 then success",
			apiKey: key,
			handler: func(k int, w http.ResponseWriter, r *http.Request) {
				if k == 1 {
					w.Header().Set("Retry-After", "0")
					http.Error(w, "quota", http.StatusTooManyRequests)
					return
				}
				w.Write(p2)
			},
			check: func(t *testing.T, res *importer.Result, err error, requests int) {
				if err != nil || requests != 2 || len(res.Offers) != 8 {
					t.Errorf("err = %v, %d requests, res = %v", err, requests, res)
				}
			},
		},
		{
			name:   "repeated page token",
			apiKey: key,
			handler: func(k int, w http.ResponseWriter, r *http.Request) {
				w.Write([]byte(`{"skus":[],"nextPageToken":"same"}`))
			},
			check: func(t *testing.T, res *importer.Result, err error, requests int) {
				var loop *httpapi.PageLoopError
				if !errors.As(err, &loop) || requests != 2 || !strings.Contains(err.Error(), "gcp skus: page 3 points back to a page already read") {
					t.Errorf("err = %v after %d requests, want a paging loop error", err, requests)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tt.handler(int(n.Add(1)), w, r)
			}))
			defer srv.Close()
			imp := newImporter()
			imp.BaseURL = srv.URL
			imp.APIKey = tt.apiKey
			res, err := imp.Fetch(context.Background(), srv.Client(), nil)
			tt.check(t, res, err, int(n.Load()))
		})
	}
}

func TestFetchTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer srv.Close()
	imp := newImporter()
	imp.BaseURL, imp.APIKey = srv.URL, "k"
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := imp.Fetch(ctx, srv.Client(), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"skus-page1.json", "skus-page2.json"} {
		for _, s := range importertest.Seeds(readFixture(f, name), "skus") {
			f.Add(s)
		}
	}
	// A machine priced from its three parts, stripped to the fields read.
	rate := func(desc, usage, unit, nanos string) string {
		return `{"description":"` + desc + `","category":{"resourceFamily":"Compute","usageType":"` + usage + `"},"serviceRegions":["us-central1"],` +
			`"pricingInfo":[{"pricingExpression":{"usageUnit":"` + unit + `","tieredRates":[{"unitPrice":{"currencyCode":"USD","units":"0","nanos":` + nanos + `}}]}}]}`
	}
	f.Add([]byte(`{"skus":[` + rate("A2 Instance Core running in Americas", "OnDemand", "h", "31611000") + `,` +
		rate("A2 Instance Ram running in Americas", "OnDemand", "GiBy.h", "4237000") + `,` +
		rate("Nvidia Tesla A100 GPU running in Americas", "OnDemand", "h", "933000000") + `]}`))
	f.Add([]byte(`{"skus":[{"description":"A2 Instance Core running in X","category":{"resourceFamily":"Compute","usageType":"OnDemand"},"serviceRegions":["r"],"pricingInfo":[{"pricingExpression":{"usageUnit":"h","tieredRates":[{"unitPrice":{"currencyCode":"USD","units":"9223372036854775807","nanos":-999999999}}]}}]}]}`))
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
			if !o.Billing.Valid() || o.InstanceName == "" || o.RegionCode == "" || o.Price.Currency == "" {
				t.Fatalf("bad offer %+v", o)
			}
		}
	})
}

// TestHugeRecordStopsEarly: one record of a GiB is an error after a few
// MiB are read, never a GiB held in memory.
func TestHugeRecordStopsEarly(t *testing.T) {
	in := &importertest.Endless{Prefix: `{"skus":[{"description":"`, Fill: 'a', N: 1 << 30, Suffix: `"}]`}
	_, err := newImporter().Parse(context.Background(), in, nil)
	if err == nil || !strings.Contains(err.Error(), "longer than 16 MiB") {
		t.Fatalf("error %v", err)
	}
	if in.Served > 20<<20 {
		t.Errorf("read %d MiB before failing", in.Served>>20)
	}
}

// A user's import sends the Cloud Billing API the requests it always
// has: the key first, then pageSize, currencyCode and pageToken, in that
// order, so a recorded request log or quota report reads the same.
func TestFetchRequestsAsBefore(t *testing.T) {
	p1, p2 := readFixture(t, "skus-page1.json"), readFixture(t, "skus-page2.json")
	var uris []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uris = append(uris, r.URL.RequestURI())
		if r.Header.Get("Accept") != "application/json" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		if r.URL.Query().Get("pageToken") == "" {
			w.Write(p1)
			return
		}
		w.Write(p2)
	}))
	defer srv.Close()
	imp := newImporter()
	imp.BaseURL = srv.URL
	imp.APIKey = "AIza key/+="
	imp.Currency = "eur"
	if _, err := imp.Fetch(context.Background(), srv.Client(), nil); err != nil {
		t.Fatal(err)
	}
	const path = "/v1/services/6F81-5844-456A/skus?key=AIza+key%2F%2B%3D&pageSize=5000&currencyCode=EUR"
	want := []string{path, path + "&pageToken=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA"}
	if strings.Join(uris, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests\n%s\nwant\n%s", strings.Join(uris, "\n"), strings.Join(want, "\n"))
	}
}

// A refused request names Google's own status and message (the error
// envelope of https://cloud.google.com/apis/design/errors), and never the
// key, even when the answer echoes it.
func TestFetchErrorEnvelope(t *testing.T) {
	const key = "AIzaSyEchoedKey0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":400,"message":"API key not valid: ` + key + `. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}`))
	}))
	defer srv.Close()
	imp := newImporter()
	imp.BaseURL = srv.URL
	imp.APIKey = key
	_, err := imp.Fetch(context.Background(), srv.Client(), nil)
	var ae *importer.APIError
	if !errors.As(err, &ae) || ae.Code != "INVALID_ARGUMENT" || ae.HTTPStatus != 400 {
		t.Fatalf("err = %v, want INVALID_ARGUMENT (HTTP 400)", err)
	}
	if msg := err.Error(); strings.Contains(msg, key) || !strings.HasPrefix(msg, "gcp: page 1: skus: HTTP 400 Bad Request: INVALID_ARGUMENT: API key not valid") {
		t.Errorf("err = %s", msg)
	}
}
