package aws

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/importertest"
	"github.com/shopspring/decimal"
)

var now = func() time.Time { return time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) }

func offers(res *importer.Result) map[string]string {
	out := map[string]string{}
	for _, o := range res.Offers {
		out[o.ID()] = o.Price.Hourly.String() + "+" + o.Price.Upfront.String()
	}
	return out
}

func TestOfferJSON(t *testing.T) {
	raw, err := os.ReadFile("testdata/offer-small.json")
	if err != nil {
		t.Fatal(err)
	}
	// Whole, and one byte at a time (every buffer boundary).
	for name, r := range map[string]func() *bytes.Reader{"whole": func() *bytes.Reader { return bytes.NewReader(raw) }} {
		for _, oneByte := range []bool{false, true} {
			var rd interface{ Read([]byte) (int, error) } = r()
			if oneByte {
				rd = iotest.OneByteReader(r())
			}
			res, err := (&Offers{Ref: "offer-small.json", Now: now}).Parse(context.Background(), rd, nil)
			if err != nil {
				t.Fatalf("%s oneByte=%v: %v", name, oneByte, err)
			}
			got := offers(res)
			want := map[string]string{
				"aws/p5.48xlarge/us-east-1/on-demand":                 "55.04+0",
				"aws/g5.xlarge/us-east-1/on-demand":                   "1.006+0",
				"aws/g5.xlarge/us-east-1/reserved-1y-partial-upfront": "0.294+2580",
			}
			if len(got) != len(want) {
				t.Errorf("offers %v, want %v", got, want)
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			skips := strings.Join(res.Skipped.Lines(), "; ")
			for _, w := range []string{"Capacity Block SKU", "convertible reservation"} {
				if !strings.Contains(skips, w) {
					t.Errorf("skips %q lack %q", skips, w)
				}
			}
			if o := res.Offers[0]; !o.Source.AsOf.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) || o.Source.FetchedAt != now() {
				t.Errorf("source %+v", o.Source)
			}
		}
	}
}

func TestOfferErrorsNameOffset(t *testing.T) {
	raw, _ := os.ReadFile("testdata/offer-small.json")
	for name, in := range map[string][]byte{
		"truncated": raw[:len(raw)/2],
		"bad price": bytes.Replace(raw, []byte(`"55.0400000000"`), []byte(`"fifty"`), 1),
		"not json":  []byte("{\"products\" : [1, 2"),
		"empty":     nil,
		"bad comma": bytes.Replace(raw, []byte(`"offerCode" : "AmazonEC2",`), []byte(`"offerCode" : "AmazonEC2";`), 1),
	} {
		_, err := (&Offers{Ref: "f.json"}).Parse(context.Background(), bytes.NewReader(in), nil)
		var pe *importer.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "f.json") {
			t.Errorf("%s: err = %v", name, err)
			continue
		}
		if name == "bad price" && (!strings.Contains(err.Error(), "field terms.OnDemand.SKUGPUOD1") || pe.Offset == 0) {
			t.Errorf("bad price: %v", err)
		}
	}
}

func TestOfferCancel(t *testing.T) {
	raw, _ := os.ReadFile("testdata/offer-small.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := bytes.Repeat([]byte(" "), 0)
	_ = big
	// Many products so the cancellation check runs.
	var b bytes.Buffer
	b.WriteString(`{"products": {`)
	for i := 0; i < 10000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"S` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `": {"attributes": {"instanceType": "m5.large"}}`)
	}
	b.WriteString(`}}`)
	_, err := (&Offers{}).Parse(ctx, &b, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	_ = raw
}

func TestOfferCSV(t *testing.T) {
	csv := `"FormatVersion","v1.0"
"Publication Date","2026-11-01T00:00:00Z"
"SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate","StartingRange","EndingRange","Unit","PricePerUnit","Currency","RelatedTo","LeaseContractLength","PurchaseOption","OfferingClass","Instance Type","Instance Family","Tenancy","Operating System","Pre Installed S/W","Region Code","CapacityStatus","operation","usageType"
"G1","JRTCKXETXF","G1.J.6Y","OnDemand","$1.006 per hour","2026-10-01","0","Inf","Hrs","1.0060000000","USD",,,,,"g5.xlarge","GPU instance","Shared","Linux","NA","us-east-1","Used","RunInstances","BoxUsage:g5.xlarge"
"G1","HU7G6KETJZ","G1.H.2T","Reserved","Upfront Fee","2026-10-01",,,"Quantity","2580","USD",,"1yr","Partial Upfront","standard","g5.xlarge","GPU instance","Shared","Linux","NA","us-east-1","Used","RunInstances","BoxUsage:g5.xlarge"
"G1","HU7G6KETJZ","G1.H.6Y","Reserved","per hour","2026-10-01","0","Inf","Hrs","0.2940000000","USD",,"1yr","Partial Upfront","standard","g5.xlarge","GPU instance","Shared","Linux","NA","us-east-1","Used","RunInstances","BoxUsage:g5.xlarge"
"W1","JRTCKXETXF","W1.J.6Y","OnDemand","win","2026-10-01","0","Inf","Hrs","2.0","USD",,,,,"g5.xlarge","GPU instance","Shared","Windows","NA","us-east-1","Used","RunInstances:0002","BoxUsage:g5.xlarge"
`
	res, err := (&Offers{Now: now}).Parse(context.Background(), strings.NewReader(csv), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := offers(res)
	if got["aws/g5.xlarge/us-east-1/on-demand"] != "1.006+0" || got["aws/g5.xlarge/us-east-1/reserved-1y-partial-upfront"] != "0.294+2580" ||
		got["aws/g5.xlarge/us-east-1/on-demand/windows"] != "2+0" || len(got) != 3 {
		t.Errorf("offers %v", got)
	}
	_, err = (&Offers{Ref: "x.csv"}).Parse(context.Background(), strings.NewReader(strings.Replace(csv, `"1.0060000000"`, `"abc"`, 1)), nil)
	if err == nil || !strings.Contains(err.Error(), "x.csv (line 4): field PricePerUnit") {
		t.Errorf("bad price: %v", err)
	}
}

// TestOfferWindows: the licence-included Windows SKU of an offer file
// (JSON, and the same rows as CSV) becomes Windows offers beside the Linux
// ones; bring-your-own-licence, SQL Server and other operating systems are
// skipped and counted.
func TestOfferWindows(t *testing.T) {
	raw, err := os.ReadFile("testdata/offer-windows.json")
	if err != nil {
		t.Fatal(err)
	}
	const header = `"SKU","OfferTermCode","RateCode","TermType","PriceDescription","EffectiveDate","StartingRange","EndingRange","Unit","PricePerUnit","Currency","RelatedTo","LeaseContractLength","PurchaseOption","OfferingClass","Instance Type","Instance Family","Tenancy","Operating System","License Model","Pre Installed S/W","Region Code","CapacityStatus","operation","usageType"`
	row := func(sku, term, os, licence, pre, op, price, lease, option string) string {
		tt := "OnDemand"
		if lease != "" {
			tt = "Reserved"
		}
		return strings.Join([]string{`"` + sku + `"`, `"` + term + `"`, `"` + sku + ".x" + `"`, `"` + tt + `"`, `"test data"`, `"2026-10-01"`, `"0"`, `"Inf"`, `"Hrs"`,
			`"` + price + `"`, `"USD"`, ``, `"` + lease + `"`, `"` + option + `"`, `"standard"`, `"g4dn.xlarge"`, `"GPU instance"`, `"Shared"`,
			`"` + os + `"`, `"` + licence + `"`, `"` + pre + `"`, `"us-east-1"`, `"Used"`, `"` + op + `"`, `"BoxUsage:g4dn.xlarge"`}, ",")
	}
	csvFile := strings.Join([]string{`"FormatVersion","v1.0"`, `"Publication Date","2026-11-01T00:00:00Z"`, header,
		row("LNX", "JRTCKXETXF", "Linux", "No License required", "NA", "RunInstances", "0.5260000000", "", ""),
		row("WIN", "JRTCKXETXF", "Windows", "No License required", "NA", "RunInstances:0002", "0.7100000000", "", ""),
		row("WIN", "4NA7Y494T4", "Windows", "No License required", "NA", "RunInstances:0002", "0.5150000000", "1yr", "No Upfront"),
		row("BYOL", "JRTCKXETXF", "Windows", "Bring your own license", "NA", "RunInstances:0800", "0.5260000000", "", ""),
		row("WSQL", "JRTCKXETXF", "Windows", "No License required", "SQL Std", "RunInstances:0006", "1.2200000000", "", ""),
		row("RHEL", "JRTCKXETXF", "RHEL", "No License required", "NA", "RunInstances:0010", "0.5860000000", "", ""),
	}, "\n") + "\n"
	for name, in := range map[string][]byte{"json": raw, "csv": []byte(csvFile)} {
		res, err := (&Offers{Ref: "offer-windows", Now: now}).Parse(context.Background(), bytes.NewReader(in), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := offers(res)
		want := map[string]string{
			"aws/g4dn.xlarge/us-east-1/on-demand":                      "0.526+0",
			"aws/g4dn.xlarge/us-east-1/on-demand/windows":              "0.71+0",
			"aws/g4dn.xlarge/us-east-1/reserved-1y-no-upfront/windows": "0.515+0",
		}
		if len(got) != len(want) {
			t.Errorf("%s: offers %v, want %v", name, got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", name, k, got[k], v)
			}
		}
		skips := strings.Join(res.Skipped.Lines(), "; ")
		for _, w := range []string{"1 Windows, bring your own licence", "1 pre-installed software", "1 not Linux or Windows"} {
			if !strings.Contains(skips, w) {
				t.Errorf("%s: skips %q lack %q", name, skips, w)
			}
		}
	}
}

func TestRealSamples(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "data", "pricing-samples", "aws")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("skipping: %s not available", dir)
	}
	open := func(name string) *os.File {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	res, err := (&Offers{Now: now}).Parse(context.Background(), open("ec2-offer-us-east-1-p4d-excerpt.json"), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := offers(res)
	if got["aws/p4d.24xlarge/us-east-1/on-demand"] != "32.7726+0" {
		t.Errorf("p4d on-demand = %q, want 32.7726 (offers %v)", got["aws/p4d.24xlarge/us-east-1/on-demand"], got)
	}
	if !strings.Contains(strings.Join(res.Skipped.Lines(), ";"), "Capacity Block") {
		t.Errorf("the $0 Capacity Block SKU is not reported: %v", res.Skipped.Lines())
	}
	if _, err := (&Offers{}).Parse(context.Background(), open("ec2-offer-file-sample.csv"), nil); err != nil {
		t.Errorf("CSV sample: %v", err)
	}
	if _, err := (&SavingsPlans{}).Parse(context.Background(), open("savingsplan-ap-east-2-sample.csv"), nil); err != nil {
		t.Errorf("savings plan sample: %v", err)
	}
	if _, err := (&SpotHistory{}).Parse(context.Background(), open("describe-spot-price-history-m5.large.json"), nil); err != nil {
		t.Errorf("spot history sample: %v", err)
	}
	if _, err := (&SpotAdvisor{}).Parse(context.Background(), open("spot-advisor-data-excerpt.json"), nil); err != nil {
		t.Errorf("spot advisor sample: %v", err)
	}
}

func TestSpotHistory(t *testing.T) {
	f, _ := os.Open("testdata/spot-history.json")
	defer f.Close()
	res, err := (&SpotHistory{Now: now}).Parse(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	// us-east-1a latest 9.8634, us-east-1b 8.5 → region 8.5; Windows (test
	// data) 1.0 a Windows offer of its own; the local zone and m5 are skipped.
	if got := offers(res); len(got) != 2 || got["aws/p4d.24xlarge/us-east-1/spot"] != "8.5+0" || got["aws/p4d.24xlarge/us-east-1/spot/windows"] != "1+0" {
		t.Errorf("offers %v; skipped %v", got, res.Skipped.Lines())
	}
}

func TestSavingsPlans(t *testing.T) {
	f, _ := os.Open("testdata/savings.csv")
	defer f.Close()
	res, err := (&SavingsPlans{Now: now}).Parse(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := offers(res)
	want := map[string]string{"aws/p5.48xlarge/us-east-1/savings-plan-1y-no-upfront": "29.9+0", "aws/p5.48xlarge/us-east-1/savings-plan-3y-all-upfront": "20.1+0"}
	// The Windows rate (test data, operation RunInstances:0002) is an offer
	// of its own; Windows with SQL Server (RunInstances:0006) is skipped.
	if len(got) != 3 || got["aws/p5.48xlarge/us-east-1/savings-plan-1y-no-upfront"] != want["aws/p5.48xlarge/us-east-1/savings-plan-1y-no-upfront"] ||
		got["aws/p5.48xlarge/us-east-1/savings-plan-3y-all-upfront"] != want["aws/p5.48xlarge/us-east-1/savings-plan-3y-all-upfront"] ||
		got["aws/p5.48xlarge/us-east-1/savings-plan-1y-no-upfront/windows"] != "33.5+0" {
		t.Errorf("offers %v", got)
	}
	if skips := strings.Join(res.Skipped.Lines(), "; "); !strings.Contains(skips, "1 not plain Linux or licence-included Windows") {
		t.Errorf("skips %q", skips)
	}
}

func TestSpotAdvisor(t *testing.T) {
	f, _ := os.Open("testdata/advisor.json")
	defer f.Close()
	res, err := (&SpotAdvisor{Now: now}).Parse(context.Background(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range res.Bands {
		got[b.InstanceName+"/"+b.Region] = b.Band + " " + b.LowPct.String() + "-" + b.HighPct.String()
	}
	want := map[string]string{"p4d.24xlarge/us-east-1": "15-20% 15-20", "g5.xlarge/us-east-1": "<5% 0-5", "p5.48xlarge/eu-west-1": ">20% 20-0"}
	if len(got) != len(want) {
		t.Errorf("bands %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func TestFetchRetries(t *testing.T) {
	raw, _ := os.ReadFile("testdata/offer-small.json")
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Write(raw)
	}))
	defer srv.Close()
	res, err := (&Offers{URL: srv.URL + "/index.json", Now: now}).Fetch(context.Background(), srv.Client(), nil)
	if err != nil || len(res.Offers) != 3 || calls != 2 {
		t.Errorf("fetch: %v, %d offers, %d calls", err, len(res.Offers), calls)
	}
	// A broken payload fails the whole fetch.
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(raw[:len(raw)/3]) }))
	defer bad.Close()
	if _, err := (&Offers{URL: bad.URL}).Fetch(context.Background(), bad.Client(), nil); err == nil {
		t.Error("truncated payload accepted")
	}
	// A timeout.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	defer slow.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := (&Offers{URL: slow.URL}).Fetch(ctx, slow.Client(), nil); err == nil {
		t.Error("no timeout")
	}
}

func TestBandLabels(t *testing.T) {
	for in, want := range map[string][2]string{"<5%": {"0", "5"}, "5-10%": {"5", "10"}, ">20%": {"20", "0"}} {
		lo, hi, err := parseBand(in)
		if err != nil || lo.String() != want[0] || hi.String() != want[1] {
			t.Errorf("%s → %s %s %v", in, lo, hi, err)
		}
	}
	if _, _, err := parseBand("lots"); err == nil {
		t.Error("bad label accepted")
	}
	_ = decimal.Zero
}

// offerSeeds cuts an offer file into one small file per SKU (its product
// and its terms), so that the fuzzer's minimisation stays fast.
func offerSeeds(t testing.TB, raw []byte) [][]byte {
	var file struct {
		Products map[string]json.RawMessage
		Terms    map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for sku, p := range file.Products {
		terms := map[string]map[string]json.RawMessage{}
		for kind, bySKU := range file.Terms {
			if tm, ok := bySKU[sku]; ok {
				terms[kind] = map[string]json.RawMessage{sku: tm}
			}
		}
		doc, err := json.Marshal(map[string]any{"publicationDate": "2026-11-01T00:00:00Z", "products": map[string]json.RawMessage{sku: p}, "terms": terms})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, importertest.Seeds(doc, "")...)
	}
	return out
}

func FuzzOffers(f *testing.F) {
	raw, err := os.ReadFile("testdata/offer-small.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range offerSeeds(f, raw) {
		f.Add(s)
	}
	f.Add([]byte(`{"products":{"a":{"attributes":{"instanceType":"p4d.24xlarge","instanceFamily":"GPU instance"}}},"terms":{"OnDemand":{"a":{}}}}`))
	f.Add([]byte("\"SKU\",\"x\"\n"))
	f.Add([]byte(`{"a":"\\`))
	f.Fuzz(func(t *testing.T, in []byte) {
		res, err := (&Offers{}).Parse(context.Background(), bytes.NewReader(in), nil)
		if err == nil {
			for _, o := range res.Offers {
				if o.Price.Hourly.IsNegative() || o.Price.Upfront.IsNegative() {
					t.Fatalf("negative price accepted: %v", o.ID())
				}
			}
		}
	})
}

func FuzzSpot(f *testing.F) {
	raw, _ := os.ReadFile("testdata/spot-history.json")
	for _, s := range importertest.Seeds(raw, "SpotPriceHistory") {
		f.Add(s)
	}
	adv, _ := os.ReadFile("testdata/advisor.json")
	for _, s := range importertest.Seeds(adv, "") {
		f.Add(s)
	}
	sp, _ := os.ReadFile("testdata/savings.csv")
	lines := strings.SplitAfter(string(sp), "\n")
	for i := 0; i+6 < len(lines); i += 3 {
		f.Add([]byte(strings.Join(lines[:6], "") + strings.Join(lines[6+i:min(6+i+3, len(lines))], "")))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		(&SpotHistory{}).Parse(context.Background(), bytes.NewReader(in), nil)
		(&SpotAdvisor{}).Parse(context.Background(), bytes.NewReader(in), nil)
		(&SavingsPlans{}).Parse(context.Background(), bytes.NewReader(in), nil)
	})
}

// TestHugeKeysAndValuesStopEarly: a key, a product or a CSV row of a GiB
// is an error after a few MiB are read, never a GiB held in memory.
func TestHugeKeysAndValuesStopEarly(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name string
		in   *importertest.Endless
		want string
	}{
		{"1 GiB key", &importertest.Endless{Prefix: `{"products":{"`, Fill: 'a', N: gib, Suffix: `":{}}}`}, "string longer than"},
		{"1 GiB top-level key", &importertest.Endless{Prefix: `{"`, Fill: 'a', N: gib, Suffix: `":1}`}, "string longer than"},
		{"1 GiB product", &importertest.Endless{Prefix: `{"products":{"S":{"attributes":{"instanceFamily":"GPU instance","x":"`, Fill: 'a', N: gib, Suffix: `"}}}}`}, "value longer than"},
		{"1 GiB terms", &importertest.Endless{Prefix: `{"products":{"S":{"attributes":{"instanceType":"p5.48xlarge","instanceFamily":"GPU instance","operatingSystem":"Linux","tenancy":"Shared","regionCode":"us-east-1"}}},"terms":{"OnDemand":{"S":{"x":"`, Fill: 'a', N: gib, Suffix: `"}}}}`}, "value longer than"},
		{"1 GiB of nested brackets", &importertest.Endless{Prefix: `{"products":{"S":`, Fill: '[', N: gib, Suffix: ``}, "value longer than"},
		{"1 GiB CSV row", &importertest.Endless{Prefix: "SKU,OfferTermCode\n", Fill: 'a', N: gib, Suffix: "\n"}, "longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := (&Offers{Ref: "big.json"}).Parse(context.Background(), tc.in, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "big.json") {
				t.Fatalf("error %v, want %q naming the file", err, tc.want)
			}
			if tc.in.Served > 16<<20 {
				t.Errorf("read %d MiB before failing", tc.in.Served>>20)
			}
		})
	}
	// Skipped values are not held at all: a 64 MiB string in a key the
	// parser does not read is skipped in constant memory.
	in := &importertest.Endless{Prefix: `{"disclaimer":"`, Fill: 'a', N: 64 << 20, Suffix: `","products":{}}`}
	if _, err := (&Offers{}).Parse(context.Background(), in, nil); err != nil {
		t.Fatal(err)
	}
	// The spot files, decoded whole, are bounded too.
	big := &importertest.Endless{Prefix: `{"SpotPriceHistory":[{"AvailabilityZone":"`, Fill: 'a', N: gib, Suffix: `"}]}`}
	if _, err := (&SpotHistory{}).Parse(context.Background(), big, nil); err == nil || !strings.Contains(err.Error(), "MiB") || big.Served > 40<<20 {
		t.Errorf("huge spot history: %v after %d MiB", err, big.Served>>20)
	}
}

// A Savings Plans file cut short must be refused with its line, never
// read as a smaller file: cut at a field boundary, the EC2 Instance plan's
// lower rate and the 3-year plan would vanish; cut inside the last field,
// the last rate would lose digits.
func TestTruncatedCSVRefused(t *testing.T) {
	full, err := os.ReadFile("testdata/savings.csv")
	if err != nil {
		t.Fatal(err)
	}
	s := string(full)
	atField := s[:strings.Index(s, "BBB,BBB.1,Hrs,2026-10-01T00:00:00Z,29.9,")+len("BBB,BBB.1,Hrs,2026-10-01T00:00:00Z,29.9")] + "\n"
	lastDigits := strings.TrimSuffix(s, "\n")
	lastDigits = lastDigits[:len(lastDigits)-3]
	for name, tc := range map[string]struct{ in, want string }{
		"field boundary":   {atField, "line 8"},
		"no final newline": {lastDigits, "line 13"},
	} {
		_, err := (&SavingsPlans{Ref: "sp.csv", Now: now}).Parse(context.Background(), strings.NewReader(tc.in), nil)
		if err == nil || !strings.Contains(err.Error(), "sp.csv ("+tc.want+")") {
			t.Errorf("%s: err = %v, want a refusal at %s", name, err, tc.want)
		}
	}
	off := `"FormatVersion","v1.0"
"SKU","OfferTermCode","TermType","Unit","PricePerUnit","Currency","Instance Type","Tenancy","Operating System","Region Code"
"G1","J","OnDemand","Hrs","1.006","USD","g5.xlarge","Shared","Linux","us-east-1"
"G2","J","OnDemand","Hrs","2.0"
`
	if _, err := (&Offers{Ref: "o.csv", Now: now}).Parse(context.Background(), strings.NewReader(off), nil); err == nil || !strings.Contains(err.Error(), "o.csv (line 4)") {
		t.Errorf("offer file cut at a field boundary: err = %v", err)
	}
	if _, err := (&Offers{Ref: "o.csv", Now: now}).Parse(context.Background(), strings.NewReader(strings.TrimSuffix(off, "\n")), nil); err == nil || !strings.Contains(err.Error(), "without a newline") {
		t.Errorf("offer file without a final newline: err = %v", err)
	}
}

// A negative (or above 100 %) Spot Advisor saving is skipped and counted,
// never stored.
func TestSpotAdvisorNegativeSavingSkipped(t *testing.T) {
	in := `{"ranges":[{"index":0,"label":"<5%","max":5}],"spot_advisor":{"us-east-1":{"Linux":{"p4d.24xlarge":{"s":-40,"r":0},"g5.xlarge":{"s":70,"r":0}}}}}`
	res, err := (&SpotAdvisor{Now: now}).Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Bands) != 1 || res.Bands[0].InstanceName != "g5.xlarge" || !strings.Contains(strings.Join(res.Skipped.Lines(), ";"), "saving outside 0-100%") {
		t.Errorf("bands %d, skipped %v", len(res.Bands), res.Skipped.Lines())
	}
}
