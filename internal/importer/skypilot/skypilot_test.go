package skypilot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

var fixedNow = time.Date(2026, 5, 8, 12, 30, 0, 0, time.UTC)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func index(t *testing.T, cloud string, offers []*catalog.Offer) map[string]*catalog.Offer {
	t.Helper()
	m := map[string]*catalog.Offer{}
	for _, o := range offers {
		if _, dup := m[o.ID()]; dup {
			t.Errorf("duplicate offer %s", o.ID())
		}
		if o.Provider != cloud || !o.Billing.Valid() || o.Price.Currency != "USD" || !o.Price.Hourly.IsPositive() ||
			o.Source.Kind != catalog.SourceThirdParty || o.Source.FetchedAt != fixedNow || !strings.HasPrefix(o.Source.Ref, "skypilot-catalog vms.csv") {
			t.Errorf("bad offer %s: %+v", o.ID(), o)
		}
		m[o.ID()] = o
	}
	return m
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, cloud, file string
		count             int
		golden            map[string]string
		notes             map[string]string
		skipped           []string
	}{
		{
			name: "aws-vms.csv", cloud: "aws", count: 7,
			golden: map[string]string{
				"aws/p4d.24xlarge/us-east-1/on-demand":   "32.7726",
				"aws/p4d.24xlarge/us-east-1/spot":        "9.8311", // lowest of the zones
				"aws/p4d.24xlarge/us-west-2/spot":        "12.6245",
				"aws/g5.xlarge/us-east-1/spot":           "0.3018",
				"aws/g5.xlarge/ap-northeast-3/on-demand": "1.006",
			},
			notes: map[string]string{
				"aws/p4d.24xlarge/us-east-1/spot":      "lowest of 2 availability-zone prices",
				"aws/p4d.24xlarge/us-east-1/on-demand": "",
			},
			skipped: []string{
				"2 zone duplicates (e.g. p4d.24xlarge us-east-1b, p4d.24xlarge us-east-1c)",
				"1 no GPU (e.g. m5.large us-east-1)",
				"1 no price (e.g. p5.48xlarge eu-north-1)",
			},
		},
		{
			name: "lambda-crlf.csv", cloud: "lambda", count: 2,
			golden: map[string]string{
				"lambda/gpu_1x_a10/us-east-1/on-demand":       "0.75",
				"lambda/gpu_8x_h100_sxm5/us-east-1/on-demand": "23.92",
			},
			skipped: []string{"1 no GPU (e.g. cpu_4x_general europe-central-1)"},
		},
		{
			name: "gcp-vms.csv", cloud: "gcp", count: 2,
			golden: map[string]string{
				"gcp/g2-standard-4/us-central1/on-demand": "0.706832",
				"gcp/g2-standard-4/us-central1/spot":      "0.2827",
			},
			notes: map[string]string{"gcp/g2-standard-4/us-central1/spot": ""},
			skipped: []string{
				"2 zone duplicates (e.g. g2-standard-4 us-central1-b, g2-standard-4 us-central1-c)",
				"1 accelerator-only row (no instance type) (e.g. A100 us-central1)",
				"1 no GPU (e.g. a2-highgpu-1g us-central1)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp := &Importer{Cloud: tt.cloud, File: tt.name, Now: func() time.Time { return fixedNow }}
			res, err := imp.Parse(context.Background(), bytes.NewReader(readFixture(t, tt.name)), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Source != "skypilot" || imp.Name() != "skypilot" {
				t.Errorf("source %q name %q", res.Source, imp.Name())
			}
			m := index(t, tt.cloud, res.Offers)
			if len(res.Offers) != tt.count {
				t.Errorf("%d offers, want %d", len(res.Offers), tt.count)
			}
			for id, w := range tt.golden {
				o := m[id]
				if o == nil || !o.Price.Hourly.Equal(decimal.RequireFromString(w)) {
					t.Errorf("%s = %v, want %s", id, o, w)
				}
			}
			for id, w := range tt.notes {
				if o := m[id]; o == nil || o.Notes != w {
					t.Errorf("%s notes = %v, want %q", id, o, w)
				}
			}
			if got := strings.Join(res.Skipped.Lines(), "\n"); got != strings.Join(tt.skipped, "\n") {
				t.Errorf("skipped:\n%s\nwant:\n%s", got, strings.Join(tt.skipped, "\n"))
			}
			if ref := res.Offers[0].Source.Ref; ref != "skypilot-catalog vms.csv "+tt.name {
				t.Errorf("ref = %q", ref)
			}
		})
	}
}

// TestParseRealSamples parses the saved skypilot-catalog files.
func TestParseRealSamples(t *testing.T) {
	dir := "../../../../shared/data/pricing-samples/skypilot/"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("real samples not available (%v)", err)
	}
	tests := []struct {
		file, cloud string
		count       int
		golden      map[string]string
		skipped     string
	}{
		{
			file: "v7-lambda-vms.csv", cloud: "lambda", count: 18 * 17, // 18 GPU types × 17 regions, CRLF
			golden: map[string]string{
				"lambda/gpu_8x_h100_sxm5/europe-central-1/on-demand": "23.92",
				"lambda/gpu_1x_a10/me-west-1/on-demand":              "0.75",
			},
			skipped: "17 no GPU (e.g. cpu_4x_general ",
		},
		{
			file: "v6-oci-vms-excerpt-eu-amsterdam-1.csv", cloud: "oci", count: 11,
			golden: map[string]string{
				"oci/BM.GPU4.8/eu-amsterdam-1/on-demand":        "24.4",
				"oci/BM.GPU.A100-v2.8/eu-amsterdam-1/on-demand": "32",
				"oci/VM.GPU.A10.1/eu-amsterdam-1/on-demand":     "2",
			},
			skipped: "14 no GPU",
		},
		{
			// A2 rows carry the host price only, with empty accelerator columns.
			file: "v7-gcp-vms-excerpt-a2.csv", cloud: "gcp", count: 0,
			skipped: "107 no GPU (e.g. a2-highgpu-1g",
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(dir + tt.file)
			if err != nil {
				t.Skipf("sample not available (%v)", err)
			}
			imp := &Importer{Cloud: tt.cloud, File: tt.file, Now: func() time.Time { return fixedNow }}
			res, err := imp.Parse(context.Background(), bytes.NewReader(b), nil)
			if err != nil {
				t.Fatal(err)
			}
			m := index(t, tt.cloud, res.Offers)
			if len(res.Offers) != tt.count {
				t.Errorf("%d offers, want %d", len(res.Offers), tt.count)
			}
			for id, w := range tt.golden {
				if o := m[id]; o == nil || !o.Price.Hourly.Equal(decimal.RequireFromString(w)) {
					t.Errorf("%s = %v, want %s", id, o, w)
				}
			}
			for _, o := range res.Offers {
				if o.Billing != catalog.OnDemand {
					t.Errorf("unexpected %s (no spot prices in these samples)", o.ID())
				}
			}
			if got := strings.Join(res.Skipped.Lines(), "\n"); !strings.HasPrefix(got, tt.skipped) {
				t.Errorf("skipped %q, want prefix %q", got, tt.skipped)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const hdr = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,SpotPrice\n"
	tests := []struct {
		name, input string
		line        int
		field       string
	}{
		{"empty file", "", 1, ""},
		{"missing Region column", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price\n", 1, "Region"},
		{"bad price", hdr + "g5.xlarge,A10G,1,4,16,1.006,us-east-1,\np3.2xlarge,V100,1,8,61,abc,us-east-1,\n", 3, "Price"},
		{"negative spot", hdr + "g5.xlarge,A10G,1,4,16,1.006,us-east-1,-1\n", 2, "SpotPrice"},
		{"bad count", hdr + "g5.xlarge,A10G,one,4,16,1.006,us-east-1,\n", 2, "AcceleratorCount"},
		{"bad vCPUs", hdr + "g5.xlarge,A10G,1,four,16,1.006,us-east-1,\n", 2, "vCPUs"},
		{"empty region", hdr + "g5.xlarge,A10G,1,4,16,1.006,,\n", 2, "Region"},
		{"field count", hdr + "g5.xlarge,A10G,1,4,16,1.006,us-east-1\n", 2, "record"},
		{"bare quote", hdr + "g5.x\"large,A10G,1,4,16,1.006,us-east-1,\n", 2, ""},
		{"CRLF bad price", strings.ReplaceAll(hdr, "\n", "\r\n") + "a.x,A10,1,4,16,1,r,\r\nb.x,A10,1,4,16,x,r,\r\n", 3, "Price"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			imp := &Importer{Cloud: "aws", File: "vms.csv", Now: func() time.Time { return fixedNow }}
			res, err := imp.Parse(context.Background(), strings.NewReader(tt.input), nil)
			if res != nil {
				t.Errorf("partial result")
			}
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			if pe.Source != "skypilot vms.csv" || pe.Line != tt.line || pe.Field != tt.field {
				t.Errorf("ParseError %+v (%v), want line %d field %q", pe, err, tt.line, tt.field)
			}
		})
	}
}

func TestParseNeedsCloud(t *testing.T) {
	_, err := (&Importer{}).Parse(context.Background(), bytes.NewReader(readFixture(t, "aws-vms.csv")), nil)
	if err == nil || !strings.Contains(err.Error(), "Cloud") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := (&Importer{Cloud: "aws"}).Parse(ctx, bytes.NewReader(readFixture(t, "aws-vms.csv")), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestFetch(t *testing.T) {
	body := readFixture(t, "lambda-crlf.csv")
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		switch r.URL.Path {
		case "/catalogs/v7/lambda/vms.csv":
			w.Write(body)
		case "/catalogs/v7/slow/vms.csv":
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	newImp := func(cloud string) *Importer {
		return &Importer{Cloud: cloud, BaseURL: srv.URL + "/", Now: func() time.Time { return fixedNow }}
	}

	res, err := newImp("lambda").Fetch(context.Background(), srv.Client(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := index(t, "lambda", res.Offers)
	if o := m["lambda/gpu_8x_h100_sxm5/us-east-1/on-demand"]; o == nil || !o.Price.Hourly.Equal(decimal.RequireFromString("23.92")) {
		t.Errorf("h100 offer = %v", o)
	}
	if ref := res.Offers[0].Source.Ref; ref != "skypilot-catalog vms.csv "+srv.URL+"/catalogs/v7/lambda/vms.csv" {
		t.Errorf("ref = %q", ref)
	}

	if _, err := newImp("nebius").Fetch(context.Background(), srv.Client(), nil); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("missing file: err = %v", err)
	}
	n := len(paths)
	if _, err := newImp("../etc").Fetch(context.Background(), srv.Client(), nil); err == nil || len(paths) != n {
		t.Errorf("bad cloud name: err = %v, requests %d", err, len(paths)-n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := newImp("slow").Fetch(ctx, srv.Client(), nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout: err = %v", err)
	}
	if u := (&Importer{Cloud: "aws"}).URL(); u != "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v7/aws/vms.csv" {
		t.Errorf("default URL = %s", u)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"aws-vms.csv", "lambda-crlf.csv", "gcp-vms.csv"} {
		f.Add(readFixture(f, name))
	}
	f.Add([]byte("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region\nx,A,1e9999,1,1,1e-9999,r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := (&Importer{Cloud: "aws", Now: func() time.Time { return fixedNow }}).Parse(context.Background(), bytes.NewReader(data), nil)
		if err != nil {
			var pe *importer.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a ParseError", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, o := range res.Offers {
			if seen[o.ID()] || !o.Billing.Valid() || o.InstanceName == "" || o.RegionCode == "" || !o.Price.Hourly.IsPositive() {
				t.Fatalf("bad offer %+v", o)
			}
			seen[o.ID()] = true
		}
	})
}

// TestDescribesMachines checks the machine descriptions a vms.csv gives:
// one per GPU instance type, with the GPU name, count (fractions too),
// one GPU's memory from GpuInfo, vCPUs and memory, and the offers' source.
func TestDescribesMachines(t *testing.T) {
	imp := &Importer{Cloud: "aws", File: "aws-new-types.csv", Now: func() time.Time { return fixedNow }}
	res, err := imp.Parse(context.Background(), bytes.NewReader(readFixture(t, "aws-new-types.csv")), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*catalog.DiscoveredInstance{}
	for _, d := range res.Instances {
		if got[d.Name] != nil {
			t.Errorf("%s described twice", d.Name)
		}
		got[d.Name] = d
	}
	if len(got) != 3 {
		t.Fatalf("described %d instance types, want 3 (g5.xlarge, g6f.xlarge, g3.4xlarge)", len(got))
	}
	g6f := got["g6f.xlarge"]
	if g6f == nil || g6f.Provider != "aws" || g6f.GPUName != "L4" || g6f.GPUCount.String() != "0.125" || g6f.VCPU.String() != "4" ||
		g6f.MemoryGiB.String() != "16" || g6f.GPUMemoryGiB.Round(2).String() != "2.79" || g6f.Source.Kind != catalog.SourceThirdParty ||
		!strings.Contains(g6f.Source.Ref, "aws-new-types.csv") {
		t.Errorf("g6f.xlarge: %+v", g6f)
	}
	if g3 := got["g3.4xlarge"]; g3 == nil || g3.GPUName != "M60" || g3.GPUMemoryGiB.String() != "8" {
		t.Errorf("g3.4xlarge: %+v", g3)
	}
	// No GpuInfo: memory unknown (0).
	if gpuMemoryGiB("").IsPositive() || !gpuMemoryGiB("{'MemoryInfo': {'SizeInMiB': 81920}}").Equal(decimal.NewFromInt(80)) {
		t.Error("gpuMemoryGiB")
	}
}

// A vms.csv whose last line lost its end (and so maybe digits of its last
// price) is refused with its line.
func TestUnterminatedFileRefused(t *testing.T) {
	in := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region\n" +
		"gpu_1x_a100,A100,1,30,200,1.29,us-east-1\n" +
		"gpu_8x_h100,H100,8,208,1800,23.9,us-ea"
	_, err := (&Importer{Cloud: "lambda", File: "vms.csv"}).Parse(context.Background(), strings.NewReader(in), nil)
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "without a newline") {
		t.Errorf("err = %v", err)
	}
}

// A vms.csv far beyond any real one is refused with a clear error naming
// the line and the field instead of taking memory: too many instance
// types, type and region pairs, or rows of further zones.
func TestRecordCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region\n")
	for n := 0; n <= MaxInstanceTypes; n++ {
		fmt.Fprintf(&b, "gpu_1x_a100_%d,A100,1,30,200,1.29,us-east-1\n", n)
	}
	_, err := (&Importer{Cloud: "lambda", File: "vms.csv"}).Parse(context.Background(), strings.NewReader(b.String()), nil)
	if want := fmt.Sprintf("(line %d): field InstanceType: more than %d GPU instance types", MaxInstanceTypes+2, MaxInstanceTypes); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %q", err, want)
	}
	for _, tt := range []struct {
		lim  limits
		rows func(n int) string
		want string
	}{
		{limits{offers: 10}, func(n int) string { return fmt.Sprintf("gpu_1x_a100,A100,1,30,200,1.29,r%d,\n", n) },
			"(line 7): field Region: more than 5 instance type and region pairs (10 offers)"},
		{limits{zoneRows: 3}, func(n int) string { return fmt.Sprintf("gpu_1x_a100,A100,1,30,200,1.29,us-east-1,z%d\n", n) },
			"(line 6): field AvailabilityZone: more than 3 rows of further availability zones"},
	} {
		var b strings.Builder
		b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,AvailabilityZone\n")
		for n := 0; n < 20; n++ {
			b.WriteString(tt.rows(n))
		}
		_, err := (&Importer{Cloud: "lambda", File: "vms.csv", limits: tt.lim}).Parse(context.Background(), strings.NewReader(b.String()), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want %q", tt.lim, err, tt.want)
		}
	}
}

// TestCloudMustMatchTheRows: a file of another cloud is refused at its
// first row, naming the line, the field and what the rows look like.
func TestCloudMustMatchTheRows(t *testing.T) {
	aws, err := os.ReadFile("testdata/aws-vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	lambda, err := os.ReadFile("testdata/lambda-crlf.csv")
	if err != nil {
		t.Fatal(err)
	}
	gcp, err := os.ReadFile("testdata/gcp-vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cloud string
		file  []byte
		want  string // "" accepted
	}{
		{"lambda", aws, `(line 2): field InstanceType: "m5.large" is not named like lambda's instance types (such as gpu_1x_a100_sxm4); it is named like an aws instance type`},
		{"aws", lambda, `(line 2): field InstanceType: "cpu_4x_general" is not named like aws's instance types (such as p4d.24xlarge); it is named like a lambda instance type`},
		{"azure", gcp, `field InstanceType: "a2-highgpu-1g" is not named like azure's instance types (such as Standard_NC24ads_A100_v4); it is named like a gcp instance type`},
		{"oci", aws, `"m5.large" is not named like oci's instance types (such as BM.GPU.H100.8)`},
		{"aws", aws, ""},
		{"lambda", lambda, ""},
		{"gcp", gcp, ""},
		{"vast", aws, ""}, // a cloud whose names are not checked
	} {
		_, err := (&Importer{Cloud: tt.cloud}).Parse(context.Background(), bytes.NewReader(tt.file), nil)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("--cloud %s: %v", tt.cloud, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("--cloud %s: err = %v, want %q", tt.cloud, err, tt.want)
		}
	}
}

// TestDuplicateRowsKeepTheFirst: a row repeating an instance type, region
// and zone is skipped and counted under the one duplicate rule (the first
// is kept, even when the later one is cheaper); other zones of the region
// still give the lowest price.
func TestDuplicateRowsKeepTheFirst(t *testing.T) {
	const in = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,AvailabilityZone,SpotPrice\n" +
		"g5.xlarge,A10G,1,4,16,1.006,us-east-1,us-east-1a,0.5\n" +
		"g5.xlarge,A10G,1,4,16,0.001,us-east-1,us-east-1a,0.001\n" + // the same zone again, cheaper: skipped
		"g5.xlarge,A10G,1,4,16,1.006,us-east-1,us-east-1b,0.4\n" + // another zone: the lowest spot wins
		"p3.2xlarge,V100,1,8,61,3.06,us-west-2,,\n" +
		"p3.2xlarge,V100,1,8,61,0.01,us-west-2,,\n" // no zone, repeated: skipped
	res, err := (&Importer{Cloud: "aws"}).Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range res.Offers {
		got[o.ID()] = o.Price.Hourly.String()
	}
	want := map[string]string{"aws/g5.xlarge/us-east-1/on-demand": "1.006", "aws/g5.xlarge/us-east-1/spot": "0.4",
		"aws/p3.2xlarge/us-west-2/on-demand": "3.06"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("offers %v, want %v", got, want)
	}
	want2 := "2 " + importer.SkipDuplicate
	if lines := strings.Join(res.Skipped.Lines(), "\n"); !strings.Contains(lines, want2) {
		t.Errorf("skips do not count two duplicates (%q):\n%s", want2, lines)
	}
}

// FuzzParseNumber: the parser's figures are what decimal.NewFromString
// reads (the same value, accepted and refused alike), by its fast path for
// plain decimals or its fallback.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"32.7726", "1.2340", "0", "0.0", "007", ".5", "5.", "1e3", "-1", "+2", "123456789012345678", "1234567890123456789",
		"99999999999999999999999.5", "1e-9999", "nan", "", "1.2.3", "0x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := parseNumber(s)
		d, err := decimal.NewFromString(s)
		if ok != (err == nil) {
			t.Fatalf("%q: parsed %v, decimal %v", s, ok, err)
		}
		if ok && !n.dec().Equal(d) {
			t.Fatalf("%q: %s, decimal %s", s, n.dec(), d)
		}
		if ok && n.big == nil && (n.dec().Exponent() != d.Exponent()) {
			t.Fatalf("%q: exponent %d, decimal %d", s, n.dec().Exponent(), d.Exponent())
		}
	})
}

// TestPriceListBecomesOneOffer: "where can I launch Lambda's 8×H100 and
// at what price?" SkyPilot's Lambda file lists every type in every region
// at Lambda's one price list, which is not capacity. With the catalog's
// ANY region a type whose regions all give one price is one offer there
// (saying in how many regions the file listed it), in ID order; a type
// whose regions differ keeps its regions; without AnyRegion nothing is
// folded.
func TestPriceListBecomesOneOffer(t *testing.T) {
	const in = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		"gpu_8x_h100_sxm5,H100,8,208,1800,23.92,us-east-1,,\n" +
		"gpu_8x_h100_sxm5,H100,8,208,1800,23.92,asia-northeast-1,,\n" +
		"gpu_8x_h100_sxm5,H100,8,208,1800,23.92,us-west-1,,\n" +
		"gpu_1x_a10,A10,1,30,200,0.75,us-east-1,,\n" +
		"gpu_1x_a10,A10,1,30,200,0.80,us-west-1,,\n"
	res, err := (&Importer{Cloud: "lambda", AnyRegion: "ANY", Now: func() time.Time { return fixedNow }}).Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range res.Offers {
		ids = append(ids, o.ID()+" "+o.Price.Hourly.String())
	}
	want := []string{"lambda/gpu_1x_a10/us-east-1/on-demand 0.75", "lambda/gpu_1x_a10/us-west-1/on-demand 0.8",
		"lambda/gpu_8x_h100_sxm5/ANY/on-demand 23.92"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("offers\n%v\nwant\n%v", ids, want)
	}
	for _, o := range res.Offers {
		if o.RegionCode == "ANY" && !strings.Contains(o.Notes, "all 3 regions") {
			t.Errorf("%s: note %q does not say the file listed it in 3 regions", o.ID(), o.Notes)
		}
	}
	if lines := strings.Join(res.Skipped.Lines(), "\n"); !strings.Contains(lines, "3 "+SkipPriceList) {
		t.Errorf("the folded rows are not counted:\n%s", lines)
	}
	plain, err := (&Importer{Cloud: "lambda", Now: func() time.Time { return fixedNow }}).Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Offers) != 5 {
		t.Errorf("without AnyRegion: %d offers, want the file's 5", len(plain.Offers))
	}
}

// TestPriceListOffersStayInIDOrder: wherever the ANY region sorts among
// a type's regions, and with one billing model folded and the other not,
// the offers come out in ID order (the snapshot store packs them so).
func TestPriceListOffersStayInIDOrder(t *testing.T) {
	const in = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n" +
		"x_1x_a10,A10,1,30,200,0.75,AA,,0.30\n" +
		"x_1x_a10,A10,1,30,200,0.75,ZZ,,0.20\n" +
		"x_1x_a10,A10,1,30,200,0.75,BB,,0.25\n"
	res, err := (&Importer{Cloud: "lambda", AnyRegion: "ANY", Now: func() time.Time { return fixedNow }}).Parse(context.Background(), strings.NewReader(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range res.Offers {
		ids = append(ids, o.ID())
	}
	want := []string{"lambda/x_1x_a10/AA/spot", "lambda/x_1x_a10/ANY/on-demand", "lambda/x_1x_a10/BB/spot", "lambda/x_1x_a10/ZZ/spot"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("offers %v, want %v", ids, want)
	}
}
