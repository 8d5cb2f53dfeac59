package sqlite

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// packedOffers is the gob format's (packGob) offers in columns: strings
// as indexes into Strings, money as integer coefficients with exponents.
type packedOffers struct {
	Strings                                   []string
	Provider, Instance, Region, Billing, Curr []uint32
	Kind, Ref, AsOf                           []uint32
	HourlyC, UpfrontC, MonthlyC               []int64
	HourlyE, UpfrontE, MonthlyE               []int32
}

// packGobForTest writes offers in the gob format (packGob) that
// databases written before the per-instance-type packs hold; reads
// no longer decode it and fall back to the offer rows.
func packGobForTest(t testing.TB, offers []*catalog.Offer) []byte {
	p := &packedOffers{}
	index := map[string]uint32{}
	str := func(s string) uint32 {
		i, seen := index[s]
		if !seen {
			i = uint32(len(p.Strings))
			index[s] = i
			p.Strings = append(p.Strings, s)
		}
		return i
	}
	for _, o := range offers {
		p.Provider, p.Instance, p.Region = append(p.Provider, str(o.Provider)), append(p.Instance, str(o.InstanceName)), append(p.Region, str(o.RegionCode))
		p.Billing, p.Curr = append(p.Billing, str(string(o.Billing))), append(p.Curr, str(o.Price.Currency))
		p.Kind, p.Ref, p.AsOf = append(p.Kind, str(string(o.Source.Kind))), append(p.Ref, str(o.Source.Ref)), append(p.AsOf, str(o.Source.AsOfString()))
		for _, f := range []struct {
			d decimal.Decimal
			c *[]int64
			e *[]int32
		}{{o.Price.Hourly, &p.HourlyC, &p.HourlyE}, {o.Price.Upfront, &p.UpfrontC, &p.UpfrontE}, {o.Price.Monthly, &p.MonthlyC, &p.MonthlyE}} {
			*f.c, *f.e = append(*f.c, f.d.Coefficient().Int64()), append(*f.e, f.d.Exponent())
		}
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPackFormatsReadAlike checks that every stored form of a snapshot
// gives the same offers, counts and left-out IDs, filtered or not: the
// per-instance-type pack, the gob pack of older databases, a pack whose
// header is intact but one body damaged, and the offer rows. An import
// that prices an offer twice keeps its last price in every form.
func TestPackFormatsReadAlike(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "us-east-1.json", AsOf: at}
	offer := func(inst, region string, billing catalog.Billing, p catalog.Price) *catalog.Offer {
		return &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: region, Billing: billing, Price: p, Source: src}
	}
	usd := func(h string) catalog.Price {
		return catalog.Price{Hourly: decimal.RequireFromString(h), Currency: "USD"}
	}
	res := &importer.Result{Source: "skypilot", Offers: []*catalog.Offer{
		offer("p5.48xlarge", "us-east-1", catalog.OnDemand, usd("55.0400")),
		offer("g5.xlarge", "us-east-1", catalog.OnDemand, usd("1.006")),
		offer("p5.48xlarge", "us-east-1", "reserved-1y-partial-upfront", catalog.Price{Hourly: decimal.RequireFromString("17.2"), Upfront: decimal.RequireFromString("150672.5"), Currency: "USD"}),
		offer("g5.xlarge", "eu-west-1", "subscription-1m", catalog.Price{Monthly: decimal.RequireFromString("512.33"), Currency: "CNY"}),
		offer("p5.48xlarge", "us-east-1", catalog.OnDemand, usd("54.00")), // the same offer again: this price stands
		offer("g5.xlarge", "us-west-2", catalog.Spot, usd("0.3017")),
	}}
	s, err := db.SaveImport(ctx, res, "a", "f", at, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	render := func(filtered bool) string {
		t.Helper()
		opt := ReadOptions{ListLeftOut: true}
		if filtered {
			opt.Choose = func([]*catalog.DiscoveredInstance) OfferFilter {
				return func(_, inst string) bool { return inst == "g5.xlarge" }
			}
		}
		im, err := db.LatestImportsWith(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range im.Offers {
			out = append(out, fmt.Sprintf("%s %s %s %s %s %s %s %s %s", o.ID(), o.Price.Hourly, o.Price.Upfront, o.Price.Monthly, o.Price.Currency,
				o.Source.Kind, o.Source.Ref, o.Source.AsOfString(), o.Source.FetchedAt.Format(time.RFC3339)))
		}
		sort.Strings(out)
		var left []string
		for _, g := range im.LeftOut {
			for _, lo := range g.Offers {
				left = append(left, g.Provider+"/"+g.InstanceType+"/"+lo.Region+"/"+lo.Billing+" "+lo.Currency)
			}
		}
		sort.Strings(left)
		return fmt.Sprintf("offers:\n%s\ncounts: %v\nleft out: %s", strings.Join(out, "\n"), im.OfferCounts, strings.Join(left, ", "))
	}
	var blob []byte
	if err := db.r.QueryRowContext(ctx, `SELECT offers FROM snapshot_packs WHERE snapshot_id = ?`, s.ID).Scan(&blob); err != nil {
		t.Fatal(err)
	}
	p, err := readParts(blob, at, packParts)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{}
	for _, pt := range p.parts {
		sizes[pt.instance] = pt.n
	}
	if len(p.parts) != 2 || sizes["p5.48xlarge"] != 2 || sizes["g5.xlarge"] != 3 {
		t.Fatalf("pack parts %+v, want p5.48xlarge with 2 offers and g5.xlarge with 3", p.parts)
	}
	damaged := append([]byte(nil), blob...)
	body := len(damaged) - len(p.parts[1].body) // the last part's body
	for i := body; i < len(damaged); i++ {
		damaged[i] = 0xff
	}
	forms := []struct {
		name   string
		format int
		blob   []byte
	}{{"parts", packParts, blob}, {"gob", packGob, packGobForTest(t, res.Offers[1:])}, {"damaged body", packParts, damaged}, {"rows", 0, nil}}
	var want [2]string
	for _, f := range forms {
		if f.blob == nil {
			if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
				t.Fatal(err)
			}
		} else if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET format = ?, offers = ?`, f.format, f.blob); err != nil {
			t.Fatal(err)
		}
		for i, filtered := range []bool{false, true} {
			got := render(filtered)
			if want[i] == "" {
				want[i] = got
				continue
			}
			if got != want[i] {
				t.Errorf("%s (filtered %v):\n%s\nwant (from the pack):\n%s", f.name, filtered, got, want[i])
			}
		}
	}
	for _, w := range []string{"aws/p5.48xlarge/us-east-1/on-demand 54 0 0 USD", "counts: map[aws/g5.xlarge:3 aws/p5.48xlarge:2]"} {
		if !strings.Contains(want[0], w) {
			t.Errorf("unfiltered read lacks %q:\n%s", w, want[0])
		}
	}
	if !strings.HasSuffix(want[1], "left out: aws/p5.48xlarge/us-east-1/on-demand USD, aws/p5.48xlarge/us-east-1/reserved-1y-partial-upfront USD") {
		t.Errorf("filtered read:\n%s", want[1])
	}
}

// FuzzReadParts feeds arbitrary bytes to the pack decoders (offers and
// instances): they must return an error or records, never panic nor
// allocate beyond the input.
func FuzzReadParts(f *testing.F) {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}
	blob, _, _, err := pack([]*catalog.Offer{
		{Provider: "aws", InstanceName: "g5.xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand, Price: catalog.Price{Hourly: decimal.RequireFromString("1.006"), Currency: "USD"}, Source: src},
		{Provider: "aws", InstanceName: "p5.48xlarge", RegionCode: "us-east-1", Billing: "reserved-1y-all-upfront", Price: catalog.Price{Upfront: decimal.RequireFromString("300000"), Currency: "USD"}, Source: src},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(blob)
	winBlob, format, _, err := pack([]*catalog.Offer{
		{Provider: "aws", InstanceName: "g5.xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand, Price: catalog.Price{Hourly: decimal.RequireFromString("1.006"), Currency: "USD"}, Source: src},
		{Provider: "aws", InstanceName: "g5.xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand, OS: catalog.OSWindows, Price: catalog.Price{Hourly: decimal.RequireFromString("1.19"), Currency: "USD"}, Source: src},
	})
	if err != nil || format != packPartsOS {
		f.Fatalf("pack with a Windows offer: format %d, %v", format, err)
	}
	f.Add(winBlob)
	f.Add([]byte{0x00, 0xff})
	f.Add([]byte{})
	machines, _ := packInstances([]*catalog.DiscoveredInstance{{Provider: "aws", Name: "g6f.xlarge", GPUName: "L4", GPUCount: decimal.RequireFromString("0.125"),
		VCPU: decimal.NewFromInt(4), MemoryGiB: decimal.NewFromInt(16), Source: src}})
	f.Add(machines)
	f.Fuzz(func(t *testing.T, b []byte) {
		if d, err := unpackInstances(b, at); err == nil && len(d) > len(b) {
			t.Fatalf("%d instances from %d bytes", len(d), len(b))
		}
		for _, format := range []int64{packParts, packPartsOS} {
			fuzzParts(t, b, at, format)
		}
	})
}

// fuzzParts decodes b as a pack of one format, checking that keys and
// offers agree.
func fuzzParts(t *testing.T, b []byte, at time.Time, format int64) {
	p, err := readParts(b, at, format)
	if err != nil {
		return
	}
	{
		for i := range p.parts {
			pt := &p.parts[i]
			n := 0
			kerr := p.keys(pt, func(string, string, string, string) { n++ })
			offers, oerr := p.offers(pt, nil, newDecodeCache())
			if (kerr == nil) != (oerr == nil) {
				t.Fatalf("part %d: keys says %v, offers says %v", i, kerr, oerr)
			}
			if oerr == nil && (len(offers) != pt.n || n != pt.n) {
				t.Fatalf("part %d: %d offers, %d keys, header says %d", i, len(offers), n, pt.n)
			}
		}
	}
}

// TestInstancePacksReadAsTheRows: the machines two snapshots describe
// read the same from their packed copies, from the rows (databases
// written before the packs, NULL) and past a damaged pack, the newer
// snapshot's description winning.
func TestInstancePacksReadAsTheRows(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}
	machine := func(name, gpu, count, mem string) *catalog.DiscoveredInstance {
		return &catalog.DiscoveredInstance{Provider: "aws", Name: name, GPUName: gpu, GPUCount: decimal.RequireFromString(count),
			GPUMemoryGiB: decimal.RequireFromString(mem), VCPU: decimal.NewFromInt(8), MemoryGiB: decimal.RequireFromString("61.5"), Source: src}
	}
	east := regionResult("us-east-1", 1, "1")
	east.Instances = []*catalog.DiscoveredInstance{machine("g6f.xlarge", "L4", "0.125", "2.75"), machine("p4d.24xlarge", "A100", "8", "40")}
	west := regionResult("us-west-2", 1, "1")
	west.Instances = []*catalog.DiscoveredInstance{machine("p4d.24xlarge", "A100", "8", "39.5")}
	for i, res := range []*importer.Result{east, west} {
		if _, err := db.SaveImport(ctx, res, fmt.Sprint(i), "f", at.Add(time.Duration(i)*time.Hour), SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	render := func() string {
		im, err := db.LatestImports(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range im.Instances {
			out = append(out, fmt.Sprintf("%s %s %s %s %s %s %s %s %s %s", d.ID(), d.GPUName, d.GPUCount, d.GPUMemoryGiB, d.VCPU, d.MemoryGiB,
				d.Source.Kind, d.Source.Ref, d.Source.AsOfString(), d.Source.FetchedAt.Format(time.RFC3339)))
		}
		sort.Strings(out)
		return strings.Join(out, "\n")
	}
	packed := render()
	if !strings.Contains(packed, "aws/p4d.24xlarge A100 8 39.5 8 61.5") || !strings.Contains(packed, "aws/g6f.xlarge L4 0.125 2.75") {
		t.Fatalf("packed instances:\n%s", packed)
	}
	if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET instances = x'05ff' WHERE snapshot_id = 1`); err != nil {
		t.Fatal(err)
	}
	if got := render(); got != packed {
		t.Errorf("a damaged pack:\n%s\nwant\n%s", got, packed)
	}
	if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET instances = NULL`); err != nil {
		t.Fatal(err)
	}
	if got := render(); got != packed {
		t.Errorf("from the rows:\n%s\nwant\n%s", got, packed)
	}
}

// FuzzPackVarints: the pack reader's varints (with their one-byte fast
// path) read what encoding/binary writes, and fail where it fails.
func FuzzPackVarints(f *testing.F) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 127, 128, 1 << 40, -1 << 62} {
		f.Add(v, []byte{})
	}
	f.Add(int64(5), []byte{0x80})
	f.Fuzz(func(t *testing.T, v int64, tail []byte) {
		b := binary.AppendUvarint(binary.AppendVarint(nil, v), uint64(v))
		r := &packReader{b: append(b, tail...)}
		if got := r.varint(); got != v || r.err != nil {
			t.Fatalf("varint %d read as %d (%v)", v, got, r.err)
		}
		if got := r.uvarint(); got != uint64(v) || r.err != nil {
			t.Fatalf("uvarint %d read as %d (%v)", uint64(v), got, r.err)
		}
		_, n := binary.Uvarint(tail)
		r.uvarint()
		if (n <= 0) != (r.err != nil) {
			t.Fatalf("tail %x: encoding/binary reads %d bytes, the pack reader's error is %v", tail, n, r.err)
		}
	})
}
