package curated

import (
	"bytes"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/shopspring/decimal"
)

// regenerate is what to run when the compiled catalog is stale.
const regenerate = "run `make catalog` (or `go generate ./internal/catalog/curated`) and commit " + CompiledFile

// TestCompiledIsCurrent holds the embedded compiled catalog equal to a
// fresh compilation of the CSV files, so that the CSV files stay the
// source of truth.
func TestCompiledIsCurrent(t *testing.T) {
	want, err := Compile(Embedded())
	if err != nil {
		t.Fatalf("the embedded CSV files do not compile: %v", err)
	}
	if !bytes.Equal([]byte(compiled), want) {
		t.Fatalf("%s is stale: it differs from a fresh compilation of data/ (%d bytes, fresh %d); %s",
			CompiledFile, len(compiled), len(want), regenerate)
	}
}

// TestCompiledDecodesToParse decodes the compiled catalog and compares it,
// record by record, with a fresh parse of the CSV files put in catalog
// order by catalog.New.
func TestCompiledDecodesToParse(t *testing.T) {
	got, gotFX, err := LoadData(Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Validated() {
		t.Fatalf("LoadData of the embedded catalog did not use the compiled form; %s", regenerate)
	}
	want, _, wantFX, err := loadCSV(Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.New(want); err != nil {
		t.Fatal(err)
	}
	want.Positions = nil // the compiled form keeps no file positions
	gc, err := catalog.New(got)
	if err != nil {
		t.Fatal(err)
	}
	wc, err := catalog.New(want) // already sorted: the order stays
	if err != nil {
		t.Fatal(err)
	}
	eq := func(name string, a, b any) {
		t.Helper()
		if !equalRecords(a, b) {
			t.Errorf("%s: the compiled form decodes to different records than the CSV files give; %s", name, regenerate)
		}
	}
	eq("providers", gc.Providers(), wc.Providers())
	eq("regions", gc.Regions(), wc.Regions())
	eq("gpus", gc.GPUs(), wc.GPUs())
	eq("instances", gc.Instances(), wc.Instances())
	eq("offers", gc.Offers(), wc.Offers())
	eq("claims", gc.Claims(), wc.Claims())
	eq("ancillary", got.Ancillary, want.Ancillary)
	eq("support", got.Support, want.Support)
	eq("onprem", got.OnPrem, want.OnPrem)
	eq("spot", got.Spot, want.Spot)
	eq("interruptions", got.Interrupt, want.Interrupt)
	eq("ecosystem", got.Ecosystem, want.Ecosystem)
	eq("billing", got.Billing, want.Billing)
	if a, b := gotFX.Currencies(), wantFX.Currencies(); !reflect.DeepEqual(a, b) {
		t.Errorf("fx currencies %v, CSV %v", a, b)
	}
	for _, cur := range wantFX.Currencies() {
		a, _ := gotFX.Rate(cur)
		b, _ := wantFX.Rate(cur)
		if !a.PerUSD.Equal(b.PerUSD) || !a.AsOf.Equal(b.AsOf) || a.Source != b.Source {
			t.Errorf("fx %s: %+v, CSV %+v", cur, a, b)
		}
	}
	// Indexes and links: every offer resolves to the same records.
	for _, o := range wc.Offers() {
		g, ok := gc.Offer(o.ID())
		if !ok {
			t.Fatalf("offer %s missing from the compiled catalog's index", o.ID())
		}
		if g.Instance == nil || g.Instance.ID() != o.Instance.ID() || g.Region == nil || g.Region.Key() != o.Region.Key() ||
			g.Instance.GPU == nil || g.Instance.GPU.ID != o.Instance.GPU.ID {
			t.Fatalf("offer %s is linked differently in the compiled catalog", o.ID())
		}
	}
	// Every name resolves to the same models in the same order (the first
	// is what a one-model question takes).
	csv, _, _, err := loadCSV(Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := catalog.New(csv)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range fresh.GPUs() {
		for _, q := range append([]string{g.ID, g.Family}, g.Aliases...) {
			a, errA := gc.LookupGPU(q)
			b, errB := fresh.LookupGPU(q)
			if (errA == nil) != (errB == nil) || len(a) != len(b) {
				t.Fatalf("LookupGPU(%q): compiled %d, %v; CSV %d, %v", q, len(a), errA, len(b), errB)
			}
			for i := range a {
				if a[i].ID != b[i].ID {
					t.Fatalf("LookupGPU(%q)[%d]: compiled %s, CSV %s; %s", q, i, a[i].ID, b[i].ID, regenerate)
				}
			}
		}
	}
}

// equalRecords compares lists of records by value, through pointers, but
// not the links the catalog resolves (an offer's instance type and region,
// an instance type's GPU), which New sets on both.
func equalRecords(a, b any) bool {
	return equalValue(reflect.ValueOf(a), reflect.ValueOf(b), 0)
}

var decimalType = reflect.TypeOf(decimal.Decimal{})
var timeType = reflect.TypeOf(time.Time{})

func equalValue(a, b reflect.Value, depth int) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Type() {
	case decimalType:
		return a.Interface().(decimal.Decimal).Equal(b.Interface().(decimal.Decimal)) &&
			a.Interface().(decimal.Decimal).Exponent() == b.Interface().(decimal.Decimal).Exponent() ||
			a.Interface().(decimal.Decimal).IsZero() && b.Interface().(decimal.Decimal).IsZero()
	case timeType:
		return a.Interface().(time.Time).Equal(b.Interface().(time.Time)) &&
			a.Interface().(time.Time).Location() == b.Interface().(time.Time).Location()
	}
	switch a.Kind() {
	case reflect.Pointer:
		if depth > 0 {
			return true // a link the catalog resolves
		}
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return equalValue(a.Elem(), b.Elem(), depth+1)
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !equalValue(a.Index(i), b.Index(i), depth) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !equalValue(a.Field(i), b.Field(i), depth) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int64, reflect.Int32:
		return a.Int() == b.Int()
	case reflect.Float64:
		return a.Float() == b.Float()
	}
	panic("equalValue: unhandled kind " + a.Kind().String() + " in " + a.Type().String())
}

// TestCompiledCoversEveryField fills every field of every record with a
// distinct value and requires the compiled form to carry it: a field
// added to a record and not to the codec fails here.
func TestCompiledCoversEveryField(t *testing.T) {
	n := 0
	var fill func(v reflect.Value, depth int)
	fill = func(v reflect.Value, depth int) {
		n++
		switch v.Type() {
		case decimalType:
			v.Set(reflect.ValueOf(decimal.New(int64(n), -int32(n%5))))
			return
		case timeType:
			v.Set(reflect.ValueOf(time.Date(2020, 1, n%28+1, 0, 0, 0, 0, time.UTC)))
			return
		}
		switch v.Kind() {
		case reflect.String:
			v.SetString("v" + strings.Repeat("x", n%7) + string(rune('a'+n%26)) + reflect.ValueOf(n).String())
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int:
			v.SetInt(int64(n) * 7)
		case reflect.Float64:
			v.SetFloat(float64(n) + 0.25)
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.String {
				v.Set(reflect.ValueOf([]string{"alias" + reflect.ValueOf(n).String(), "second"}))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i), depth+1)
				}
			}
		case reflect.Pointer:
			// a link the catalog resolves
		default:
			t.Fatalf("unhandled field kind %s", v.Kind())
		}
	}
	var d catalog.Data
	dv := reflect.ValueOf(&d).Elem()
	for i := 0; i < dv.NumField(); i++ {
		f := dv.Field(i)
		if !dv.Type().Field(i).IsExported() || f.Kind() != reflect.Slice {
			continue
		}
		for k := 0; k < 2; k++ {
			rec := reflect.New(f.Type().Elem().Elem())
			fill(rec.Elem(), 0)
			f.Set(reflect.Append(f, rec))
		}
	}
	rates := []fx.Rate{{Currency: "CNY", PerUSD: decimal.New(71, -1), AsOf: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), Source: "src"}}
	b, err := encodeCompiled(nil, d, rates)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := decodeCompiled(string(b))
	if err != nil {
		t.Fatal(err)
	}
	gv := reflect.ValueOf(got)
	for i := 0; i < dv.NumField(); i++ {
		if !dv.Type().Field(i).IsExported() || dv.Field(i).Kind() != reflect.Slice {
			continue
		}
		if !equalValue(gv.Field(i), dv.Field(i), 0) {
			t.Errorf("Data.%s: a field does not survive the compiled form: add it to codec.data in compiled.go", dv.Type().Field(i).Name)
		}
	}
}

// FuzzDecodeCompiled feeds any bytes to the decoder: an error or a
// catalog, never a panic.
func FuzzDecodeCompiled(f *testing.F) {
	f.Add(compiled[:min(len(compiled), 512)])
	f.Add(compiledMagic + "\x00\x00\x01\x03abc\x01\x02\x03\x01\x00")
	f.Fuzz(func(t *testing.T, s string) {
		if !strings.HasPrefix(s, compiledMagic) {
			s = compiledMagic + s
		}
		_, _, _ = decodeCompiled(s)
	})
}

// TestStaleCompiledIsNotUsed: where a CSV file differs in size from the one
// compiled (edited without `make catalog`), the CSV files are read.
func TestStaleCompiledIsNotUsed(t *testing.T) {
	files := fstest.MapFS{}
	err := fs.WalkDir(Embedded(), ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Embedded(), p)
		if p == "providers.csv" {
			b = append(b, "\n"...) // a blank line: the same catalog, another size
		}
		files[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := LoadData(embeddedFS{files}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Validated() {
		t.Error("a stale compiled catalog was used")
	}
	if _, _, ok := OfferDates(embeddedFS{files}); ok {
		t.Error("OfferDates read a stale compiled catalog")
	}
	all, byProvider, ok := OfferDates(Embedded())
	if !ok {
		t.Fatal("OfferDates cannot read the compiled catalog")
	}
	c, err := LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(c.Catalog.Offers()) {
		t.Fatalf("OfferDates: %d offers, the catalog %d", len(all), len(c.Catalog.Offers()))
	}
	n := 0
	for i, o := range c.Catalog.Offers() {
		if !all[i].AsOf.Equal(o.Source.AsOf) || !all[i].ReadOn.Equal(o.Source.ReadOn) {
			t.Fatalf("OfferDates[%d] %v/%v, offer %s %v/%v", i, all[i].AsOf, all[i].ReadOn, o.ID(), o.Source.AsOf, o.Source.ReadOn)
		}
		if i == 0 || o.Provider != c.Catalog.Offers()[i-1].Provider {
			n += len(byProvider[o.Provider])
		}
	}
	if n != len(all) {
		t.Errorf("OfferDates by provider holds %d offers, of %d", n, len(all))
	}
}

// OfferFreshness measures what catalog.MeasureSourceFreshness measures on
// the dates OfferDates reads, on several days (some before the catalog's
// dates, so that ages clamp at zero).
func TestOfferFreshnessIsMeasure(t *testing.T) {
	all, byProvider, ok := OfferDates(Embedded())
	if !ok {
		t.Fatal("OfferDates cannot read the compiled catalog")
	}
	for _, now := range []time.Time{time.Date(2026, 12, 4, 9, 30, 0, 0, time.UTC), time.Date(2031, 2, 28, 0, 0, 0, 0, time.UTC),
		time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 31, 23, 59, 59, 0, time.FixedZone("CST", 8*3600))} {
		gotAll, gotBy, n, ok := OfferFreshness(Embedded(), now)
		if !ok || n != len(all) {
			t.Fatalf("OfferFreshness: ok %v, %d offers, want %d", ok, n, len(all))
		}
		if want := catalog.MeasureSourceFreshness(all, now); !reflect.DeepEqual(gotAll, want) {
			t.Errorf("%v: all %+v, want %+v", now, gotAll, want)
		}
		if len(gotBy) != len(byProvider) {
			t.Errorf("%d providers, want %d", len(gotBy), len(byProvider))
		}
		for p, s := range byProvider {
			if want := catalog.MeasureSourceFreshness(s, now); !reflect.DeepEqual(gotBy[p], want) {
				t.Errorf("%v: %s %+v, want %+v", now, p, gotBy[p], want)
			}
		}
	}
	if _, _, _, ok := OfferFreshness(os.DirFS("data"), time.Now()); ok {
		t.Error("OfferFreshness read a file system that is not the embedded one")
	}
}

func BenchmarkOfferFreshness(b *testing.B) {
	now := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, ok := OfferFreshness(Embedded(), now); !ok {
			b.Fatal("not read")
		}
	}
}
