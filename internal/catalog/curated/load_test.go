package curated_test

import (
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/shopspring/decimal"
)

func load(t *testing.T) *catalog.Catalog {
	t.Helper()
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatalf("embedded catalog is invalid: %v", err)
	}
	return ds.Catalog
}

// TestEmbeddedCatalogIsValid validates every curated record: loading runs
// the full validation (required fields, units, IDs, prices, sources).
func TestEmbeddedCatalogIsValid(t *testing.T) {
	c := load(t)
	for _, o := range c.Offers() {
		if (o.Source.AsOf.IsZero() && !o.Source.Undated()) || o.Source.Ref == "" {
			t.Errorf("%s has no source, or neither an as-of date nor the day an undated source was read", o.ID())
		}
	}
}

// TestEmbeddedCoverage checks the catalog's breadth: providers, instance
// types and offers, and the billing models of the clouds of the seed
// articles (docs/catalog-coverage.md lists what no source could give).
func TestEmbeddedCoverage(t *testing.T) {
	c := load(t)
	s := c.Stats()
	if s.Providers < 7 || s.InstanceTypes < 150 || s.Offers < 500 {
		t.Errorf("catalog has %d providers, %d instance types, %d offers; want at least 7, 150, 500", s.Providers, s.InstanceTypes, s.Offers)
	}
	minOther := map[string]int{"aws": 2, "azure": 1, "gcp": 2, "tencent": 1, "alibaba": 0}
	for p, want := range minOther {
		ps := s.ByProvider[p]
		if ps == nil {
			t.Errorf("provider %s missing", p)
			continue
		}
		hasOD, other := false, 0
		for _, b := range ps.Billing {
			if b == catalog.OnDemand {
				hasOD = true
			} else {
				other++
			}
		}
		if !hasOD || other < want {
			t.Errorf("%s billing models %v: want on-demand and at least %d others", p, ps.Billing, want)
		}
	}
	// Required instance families from each cloud.
	families := map[string][]string{
		"aws":     {"p3", "p3dn", "p4d", "p4de", "p5", "p5e", "p5en", "g4dn", "g4ad", "g5", "g5g", "g6", "g6e", "gr6"},
		"alibaba": {"gn6i", "gn6v", "gn7", "gn7i", "gn7e", "gn8is"},
		"tencent": {"GN7", "GN8", "GN10X", "GN10Xp", "GT4", "PNV4", "HCCPNV4h", "HCCG5v"},
		"gcp":     {"a2", "a3", "g2"},
	}
	have := map[string]bool{}
	for _, it := range c.Instances() {
		have[it.Provider+"/"+strings.ToLower(it.Family)] = true
		have[it.Provider+"/"+strings.ToLower(strings.SplitN(it.Name, ".", 2)[0])] = true
		have[it.Provider+"/"+strings.ToLower(strings.SplitN(it.Name, "-", 2)[0])] = true
		if it.Provider == "alibaba" {
			n := strings.TrimPrefix(it.Name, "ecs.")
			have["alibaba/"+strings.SplitN(n, "-", 2)[0]] = true
		}
	}
	for p, fams := range families {
		for _, f := range fams {
			if !have[p+"/"+strings.ToLower(f)] {
				t.Errorf("no %s instance of family %s", p, f)
			}
		}
	}
}

// TestSeedArticleErrorsAreCorrected checks the facts that the seed articles
// got wrong, in the data and in the claims list.
func TestSeedArticleErrorsAreCorrected(t *testing.T) {
	c := load(t)
	for _, it := range c.Instances() {
		switch {
		case it.Provider == "alibaba" && strings.HasPrefix(it.Name, "ecs.gn7i-"):
			if it.GPU.Family != "A10" {
				t.Errorf("%s has %s; gn7i is an A10 24 GB family", it.ID(), it.GPUID)
			}
		case it.Provider == "tencent" && strings.HasPrefix(it.Name, "GN10Xp."):
			if it.GPU.Family != "V100" {
				t.Errorf("%s has %s; GN10Xp is a V100 family", it.ID(), it.GPUID)
			}
		}
	}
	wrong := 0
	var gn7i bool
	for _, cl := range c.Claims() {
		if cl.Verdict == "wrong" {
			wrong++
			if strings.Contains(cl.Quote, "gn7i") {
				gn7i = true
			}
		}
	}
	if wrong < 3 || !gn7i {
		t.Errorf("claims: %d wrong, gn7i claim listed: %v", wrong, gn7i)
	}
}

// TestSharedGPUSpecsCovered checks that every GPU of the researched spec
// table in ../shared/data is in the catalog with the same memory.
func TestSharedGPUSpecsCovered(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", "..", "shared", "data", "gpu-specs.csv"))
	if err != nil {
		t.Skipf("skipping: ../shared/data/gpu-specs.csv not available (%v)", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	c := load(t)
	for _, r := range rows[1:] {
		name, variant, mem := r[0], r[1], r[4]
		gs, err := c.LookupGPU(name)
		if err != nil {
			t.Errorf("%s %s: %v", name, variant, err)
			continue
		}
		found := false
		for _, g := range gs {
			if mem == "" || g.MemoryGB.Equal(decimal.RequireFromString(mem)) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %s (%s GB) has no catalog GPU with that memory", name, variant, mem)
		}
	}
}

func overlay(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for k, v := range files {
		m[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return m
}

const offerHeader = "provider,instance_type,region,billing,hourly,upfront,monthly,currency,source_kind,source_ref,as_of,notes\n"

func TestOverlayAddsUserOffers(t *testing.T) {
	ds, err := curated.Load(curated.Embedded(), overlay(map[string]string{
		"offers/mine.csv": offerHeader + "aws,p4d.24xlarge,us-east-1,on-demand,15.5,,,USD,user,negotiated contract 2026,2026-11-01,\n",
	}))
	if err == nil {
		// The embedded aws file already has this offer: a duplicate is an error.
		t.Fatalf("duplicate offer in overlay accepted: %d offers", len(ds.Catalog.Offers()))
	}
	if !strings.Contains(err.Error(), "offers/mine.csv:2") || !strings.Contains(err.Error(), "duplicate offer") {
		t.Errorf("error %v does not name offers/mine.csv:2 and the duplicate", err)
	}
	// Replacing the provider's file keeps only the user's offers for it.
	ds, err = curated.Load(curated.Embedded(), overlay(map[string]string{
		"offers/lambda-skypilot.csv": offerHeader + "lambda,gpu_8x_a100,us-east-1,on-demand,9.99,,,USD,user,quote from sales,2026-11-01,\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	o, ok := ds.Catalog.Offer("lambda/gpu_8x_a100/us-east-1/on-demand")
	if !ok || !o.Price.Hourly.Equal(decimal.RequireFromString("9.99")) || o.Source.Kind != catalog.SourceUser {
		t.Errorf("user offer not loaded: %+v", o)
	}
}

// TestRegionCoordinatesAndFP64: every region documented to one city has
// coordinates, and the FP64 peaks carry their datasheet source.
func TestRegionCoordinatesAndFP64(t *testing.T) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	c := ds.Catalog
	for _, key := range []string{"aws/us-east-1", "tencent/ap-shanghai", "tencent/ap-beijing", "alibaba/cn-shanghai", "azure/westeurope"} {
		prov, code, _ := strings.Cut(key, "/")
		found := false
		for _, r := range c.Regions() {
			if r.Provider == prov && r.Code == code {
				found = true
				if !r.HasCoords || r.City == "" {
					t.Errorf("%s: no coordinates", key)
				}
			}
		}
		if !found {
			t.Errorf("%s: region missing", key)
		}
	}
	for id, want := range map[string]float64{"A100-SXM4-80GB": 9.7, "H100-SXM-80GB": 34, "H800-SXM-80GB": 1, "MI300X": 81.7} {
		g, ok := c.GPU(id)
		if !ok {
			t.Fatalf("%s missing", id)
		}
		if got := g.FP64TFLOPS.InexactFloat64(); got != want || !strings.Contains(g.FP64Source, "http") {
			t.Errorf("%s: FP64 %.1f (source %q), want %.1f with a datasheet URL", id, got, g.FP64Source, want)
		}
	}
	if g, _ := c.GPU("L40S"); g.FP64TFLOPS.IsPositive() {
		t.Error("L40S: NVIDIA publishes no FP64 peak for it; none should be recorded")
	}
}

func TestBrokenFilesNameFileLineAndField(t *testing.T) {
	tests := []struct {
		name, file, content, want string
	}{
		{"not a number", "offers/x.csv", offerHeader + "aws,p4d.24xlarge,us-east-1,spot,abc,,,USD,user,r,2026-01-01,\n", "offers/x.csv:2: field hourly: \"abc\" is not a number"},
		{"bad date", "offers/x.csv", offerHeader + "aws,p4d.24xlarge,eu-west-3,spot,1,,,USD,user,r,01/02/2026,\n", "offers/x.csv:2: field as_of: date \"01/02/2026\" is not YYYY-MM-DD"},
		{"unknown column", "offers/x.csv", "provider,instance,region\n", "offers/x.csv:1: field instance: unknown column"},
		{"missing column", "offers/x.csv", "provider,instance_type,region,billing,hourly\n", "offers/x.csv:1: field currency: missing required column"},
		{"wrong field count", "offers/x.csv", offerHeader + "aws,p4d.24xlarge,us-east-1\n", "offers/x.csv:2: wrong number of fields"},
		{"bad quote", "offers/x.csv", offerHeader + "aws,\"p4d,us\"x,1,2,3,4,5,6,7,8,9,10\n", "offers/x.csv:2: malformed CSV"},
		{"unknown GPU", "instances/x.csv", "provider,instance_type,gpu,gpu_count,gpu_memory_gb,status,source_kind,source_ref,as_of\naws,z1,A1000,1,40,current,user,r,2026-01-01\n", "instances/x.csv:2: aws/z1: field gpu: unknown GPU model \"A1000\""},
		{"bad fraction", "instances/x.csv", "provider,instance_type,gpu,gpu_count,gpu_memory_gb,status,source_kind,source_ref,as_of\naws,z1,A10,1/0,24,current,user,r,2026-01-01\n", "instances/x.csv:2: field gpu_count"},
		{"spot above on-demand", "offers/x.csv", offerHeader + "aws,p4d.24xlarge,us-east-1,spot,999,,,USD,user,r,2026-01-01,\n", "offers/x.csv:2: aws/p4d.24xlarge/us-east-1/spot: field price: effective 999 USD/h is above the on-demand"},
		{"empty file", "offers/x.csv", "", "offers/x.csv:1: empty file"},
		{"latitude without longitude", "regions.csv", "provider,code,country,residency,source_kind,source_ref,as_of,city,lat,lon\naws,us-east-1,US,us,user,r,2026-01-01,Ashburn,39.04,\n",
			"regions.csv:2: field lon: give both lat and lon, or neither"},
		{"latitude out of range", "regions.csv", "provider,code,country,residency,source_kind,source_ref,as_of,city,lat,lon\naws,us-east-1,US,us,user,r,2026-01-01,Ashburn,139.04,-77.49\n",
			"regions.csv:2: field lat: \"139.04\" is outside -90..90 degrees"},
		{"FP64 not a number", "gpus.csv", "id,vendor,family,memory_gb,fp64_tflops,source_kind,source_ref,as_of\nA100-SXM4-40GB,NVIDIA,A100,40,fast,user,r,2026-01-01\n",
			"gpus.csv:2: field fp64_tflops: \"fast\" is not a number"},
		{"spot without on-demand", "offers/x.csv", offerHeader + "aws,p5.48xlarge,af-south-1,spot,20,,,USD,user,r,2026-01-01,\n",
			"offers/x.csv:2: aws/p5.48xlarge/af-south-1/spot: field billing: spot offer without an on-demand offer"},
		{"sold not yes or no", "billing_models.csv", "provider,billing,sold,source_kind,source_ref,as_of\naws,spot,maybe,user,r,2026-01-01\n",
			"billing_models.csv:2: field sold: \"maybe\" is not yes or no"},
		{"unknown billing model", "billing_models.csv", "provider,billing,sold,source_kind,source_ref,as_of\naws,yearly,yes,user,r,2026-01-01\n",
			"billing_models.csv:2: aws/yearly: field billing"},
		{"as_of and read_on", "offers/x.csv", offerHeader[:len(offerHeader)-1] + ",read_on\n" + "aws,p4d.24xlarge,eu-west-3,on-demand,30,,,USD,user,r,2026-01-01,,2026-12-03\n",
			"offers/x.csv:2: aws/p4d.24xlarge/eu-west-3/on-demand: field read_on: set only for an undated source"},
		{"neither as_of nor read_on", "offers/x.csv", offerHeader[:len(offerHeader)-1] + ",read_on\n" + "aws,p4d.24xlarge,eu-west-3,on-demand,30,,,USD,user,r,,,\n",
			"offers/x.csv:2: aws/p4d.24xlarge/eu-west-3/on-demand: field as_of: every figure needs an as-of date, or read_on for an undated source"},
		{"bad read_on", "offers/x.csv", offerHeader[:len(offerHeader)-1] + ",read_on\n" + "aws,p4d.24xlarge,eu-west-3,on-demand,30,,,USD,user,r,,,3 Dec 2026\n",
			"offers/x.csv:2: field read_on: date \"3 Dec 2026\" is not YYYY-MM-DD"},
		{"half a prior", "interruptions.csv", "provider,instance_type,region,band,source_kind,source_ref,as_of\naws,*,us-east-1,<10%,user,r,2026-01-01\n",
			"interruptions.csv:2: aws/*/us-east-1: field region: a provider-level prior"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := curated.Load(curated.Embedded(), overlay(map[string]string{tt.file: tt.content}))
			var ve *catalog.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a validation error", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error does not contain %q:\n%v", tt.want, err)
			}
		})
	}
}

// fuzzBase is a tiny valid catalog, so that each fuzz run parses little
// besides the fuzzed file.
func fuzzBase() fstest.MapFS {
	src := ",user,fuzz fixture,2026-01-01"
	return overlay(map[string]string{
		"providers.csv": "id,name_en,name_zh,source_kind,source_ref,as_of\naws,AWS,亚马逊云科技" + src + "\n",
		"regions.csv":   "provider,code,name_en,country,residency,source_kind,source_ref,as_of\naws,us-east-1,US East,US,us" + src + "\n",
		"gpus.csv":      "id,vendor,family,memory_gb,source_kind,source_ref,as_of\nA100-SXM4-40GB,NVIDIA,A100,40" + src + "\n",
		"instances/aws.csv": "provider,instance_type,gpu,gpu_count,gpu_memory_gb,status,source_kind,source_ref,as_of\n" +
			"aws,p4d.24xlarge,A100-SXM4-40GB,8,320,current" + src + "\n",
		"offers/aws.csv": offerHeader + "aws,p4d.24xlarge,us-east-1,on-demand,21.957642,,,USD" + src + ",\n",
	})
}

func FuzzLoadOffers(f *testing.F) {
	f.Add([]byte(offerHeader + "aws,p4d.24xlarge,us-east-1,spot,1,,,USD,user,r,2026-01-01,\n"))
	f.Add([]byte(offerHeader + "aws,p4d.24xlarge,us-east-1,subscription-1m,,,\"1,000\",USD,user,r,2026-01-01,\n"))
	f.Add([]byte(offerHeader + "aws,p4d.24xlarge,us-east-1,reserved-3y-partial-upfront,1.5,9e9,,USD,user,r,2026-01-01,\n"))
	f.Add([]byte("provider\n\"\n"))
	f.Add([]byte(offerHeader[:len(offerHeader)-1] + ",os\n" + "aws,p4d.24xlarge,us-east-1,on-demand,40,,,USD,user,r,2026-01-01,,windows\naws,p4d.24xlarge,us-east-1,spot,1,,,USD,user,r,2026-01-01,,Linux\n"))
	f.Add([]byte("\ufeff" + offerHeader + "#comment\n,,,,,,,,,,,\n"))
	base := fuzzBase()
	if _, err := curated.Load(base, nil); err != nil {
		f.Fatalf("fuzz base catalog is invalid: %v", err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ds, err := curated.Load(base, fstest.MapFS{"offers/fuzz.csv": &fstest.MapFile{Data: data}})
		if err == nil && ds == nil {
			t.Fatal("nil dataset without error")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
		if err == nil {
			for _, o := range append(ds.Catalog.Offers(), ds.Catalog.OffersOS(catalog.OSWindows)...) {
				if o.EffectiveHourly().IsNegative() {
					t.Fatalf("accepted a negative price: %s", o.ID())
				}
				if o.OS != catalog.OSLinux && o.OS != catalog.OSWindows {
					t.Fatalf("accepted operating system %q: %s", o.OS, o.ID())
				}
			}
		}
	})
}

// TestHostileCatalogRejected: a --catalog directory with path-like ids,
// absurd lengths, control characters or prices nothing can convert is
// rejected with file:line and field, and the error does not echo a huge
// value back.
func TestHostileCatalogRejected(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	row := func(inst, notes string) string {
		return offerHeader + "aws," + inst + ",us-east-1,spot,1,,,USD,user,r,2026-01-01," + notes + "\n"
	}
	tests := []struct {
		name, file, content, want string
	}{
		{"dot-dot id", "offers/x.csv", row("../../etc/passwd", ""), `offers/x.csv:2: field instance_type: identifier "../../etc/passwd" may hold only letters, digits`},
		{"dot-dot inside id", "offers/x.csv", row("p4d..24xlarge", ""), `offers/x.csv:2: field instance_type: identifier "p4d..24xlarge"`},
		{"slash in provider id", "providers.csv", "id,name_en,name_zh,source_kind,source_ref,as_of\nev/il,Evil,恶意,user,r,2026-01-01\n", `providers.csv:2: field id: identifier "ev/il"`},
		{"space in region code", "regions.csv", "provider,code,name_en,country,residency,source_kind,source_ref,as_of\naws,us east,US,US,us,user,r,2026-01-01\n", `regions.csv:2: field code: identifier "us east"`},
		{"100k-char id", "offers/x.csv", row(long, ""), "offers/x.csv:2: field instance_type: identifier is 100000 bytes long; at most 128"},
		{"100k-char notes", "offers/x.csv", row("p4d.24xlarge", long), "offers/x.csv:2: field notes: is 100000 characters long; at most 4096"},
		{"100k-char column name", "offers/x.csv", long + "\n", "offers/x.csv:1: field xxxxxxxx"},
		{"escape sequence", "providers.csv", "id,name_en,name_zh,source_kind,source_ref,as_of\nevil,\x1b[31mEvil,恶意,user,r,2026-01-01\n", "providers.csv:2: field name_en: contains the control character U+001B"},
		{"NUL byte", "offers/x.csv", row("p4d.24xlarge", "a\x00b"), "offers/x.csv:2: field notes: contains the control character U+0000"},
		{"newline in quoted field", "offers/x.csv", row("p4d.24xlarge", "\"two\nlines\""), "offers/x.csv:2: field notes: contains the control character U+000A"},
		{"invalid UTF-8", "offers/x.csv", row("p4d.24xlarge", "\xff\xfe"), "offers/x.csv:2: field notes: not valid UTF-8"},
		{"currency without a rate", "offers/x.csv", offerHeader + "aws,p4d.24xlarge,us-east-1,spot,1,,,XYZ,user,r,2026-01-01,\n", `offers/x.csv:2: field currency: no exchange rate for "XYZ" in fx.csv`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := curated.Load(curated.Embedded(), overlay(map[string]string{tt.file: tt.content}))
			var ve *catalog.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a validation error", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error does not contain %q:\n%.2000s", tt.want, msg)
			}
			if len(msg) > 8000 {
				t.Errorf("error is %d bytes: a hostile value is echoed whole", len(msg))
			}
			if strings.ContainsAny(msg, "\x00\x1b") {
				t.Errorf("error echoes control characters: %q", msg)
			}
		})
	}
}

// catalogFiles are the files FuzzLoadCatalogFile writes its input to, one
// per format the loader reads.
var catalogFiles = []string{"providers.csv", "regions.csv", "gpus.csv", "instances/fuzz.csv", "offers/fuzz.csv", "claims.csv",
	"fx.csv", "ancillary.csv", "support.csv", "onprem.csv", "spot.csv", "interruptions.csv", "ecosystem.csv"}

// FuzzLoadCatalogFile feeds arbitrary bytes to the --catalog reader as any
// of its files. It must never panic; an accepted catalog holds no id with
// "..", a slash or a control character; a rejected one names the file
// and line of every problem, in a message of bounded size.
func FuzzLoadCatalogFile(f *testing.F) {
	base := fuzzBase()
	for i, name := range catalogFiles {
		if mf, ok := base[name]; ok {
			f.Add(uint8(i), mf.Data)
		}
	}
	f.Add(uint8(5), []byte("id,seed,quote,subject,field,claimed,verdict,actual,evidence,as_of\nc1,s,\"q\tq\",aws/p4d.24xlarge,gpu,A100,right,A100,e,2026-01-01\n"))
	f.Add(uint8(6), []byte("currency,per_usd,as_of,source_ref\nUSD,1,2026-01-01,r\nCNY,7.1,2026-01-01,r\n"))
	f.Add(uint8(11), []byte("provider,instance_type,region,band,low_pct,high_pct,source_kind,source_ref,as_of\naws,p4d.24xlarge,us-east-1,<5%,0,5,user,r,2026-01-01\n"))
	f.Add(uint8(4), []byte(offerHeader+"aws,../p4d,us-east-1,spot,1,,,USD,user,r,2026-01-01,\x1b\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := catalogFiles[int(which)%len(catalogFiles)]
		over := fstest.MapFS{name: &fstest.MapFile{Data: data}}
		if name != "fx.csv" {
			over["fx.csv"] = &fstest.MapFile{Data: []byte("currency,per_usd,as_of,source_ref\nUSD,1,2026-01-01,r\n")}
		}
		ds, err := curated.Load(base, over)
		if err != nil {
			var ve *catalog.ValidationError
			if errors.As(err, &ve) {
				for _, p := range ve.Problems {
					if p.Pos.File == "" {
						t.Fatalf("problem without a file: %v", p)
					}
				}
			}
			if n := len(err.Error()); n > 64<<10 {
				t.Fatalf("error message is %d bytes", n)
			}
			return
		}
		check := func(id string) {
			if strings.Contains(id, "..") || strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("accepted id %q", id)
			}
		}
		for _, o := range ds.Catalog.Offers() {
			check(o.ID())
			if strings.Count(o.ID(), "/") != 3 {
				t.Fatalf("offer id %q does not split into provider/instance/region/billing", o.ID())
			}
		}
		for _, it := range ds.Catalog.Instances() {
			check(it.ID())
		}
		for _, g := range ds.Catalog.GPUs() {
			check(g.ID)
		}
	})
}
