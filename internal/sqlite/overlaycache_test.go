package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// overlayOffers are Linux offers of two instance types in two currencies,
// some with equal prices, with upfront and monthly parts.
func overlayOffers() ([]*catalog.Offer, []*catalog.DiscoveredInstance) {
	at := time.Date(2026, 12, 6, 7, 0, 0, 123, time.UTC)
	src := catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), FetchedAt: at}
	var offers []*catalog.Offer
	for i, p := range []string{"3.5", "0.25", "1.00", "0.25", "12", "0.1"} {
		o := &catalog.Offer{Provider: "aws", InstanceName: []string{"x.large", "y.large"}[i%2], RegionCode: fmt.Sprintf("r-%d", i%3),
			Billing: []catalog.Billing{catalog.OnDemand, catalog.Spot}[i/3], Price: catalog.Price{Hourly: decimal.RequireFromString(p), Currency: []string{"USD", "EUR"}[i%2]}, Source: src}
		if i == 4 {
			o.Billing, o.Price.Upfront, o.Price.Monthly = "reserved-1y-partial-upfront", decimal.RequireFromString("100.5"), decimal.RequireFromString("7")
		}
		if i == 1 {
			o.Stock = &catalog.Stock{State: catalog.StockLow, Seen: at}
		}
		offers = append(offers, o)
	}
	found := []*catalog.DiscoveredInstance{
		{Provider: "aws", Name: "y.large", GPUName: "A100", GPUCount: decimal.NewFromInt(8), GPUMemoryGiB: decimal.NewFromInt(40), VCPU: decimal.NewFromInt(96), MemoryGiB: decimal.RequireFromString("1152.5"), Source: src},
		{Provider: "aws", Name: "other.large", GPUName: "T4", GPUCount: decimal.NewFromInt(1), Source: src},
	}
	return offers, found
}

// TestOverlayGroupRoundTrip: what a group holds reads back as it was
// written: every offer once, cheapest first per currency, whatever the
// number a read takes at a time, the rows of later chunks read on demand,
// stock readings kept;
// the replaced IDs, the newest date, the descriptions of the group's own
// instance types; counts under a filter.
func TestOverlayGroupRoundTrip(t *testing.T) {
	offers, found := overlayOffers()
	// Enough offers for three chunks in one list.
	for i := 0; i < 2*overlayChunk+5; i++ {
		o := *offers[0]
		o.RegionCode = fmt.Sprintf("z-%03d", i)
		o.Price.Hourly = decimal.New(int64(i%7), -1).Add(decimal.NewFromInt(1))
		offers = append(offers, &o)
	}
	rows, ok := EncodeOverlayGroup("A100-SXM4-40GB", offers, []string{"aws/x.large/r-0/on-demand"}, found)
	if !ok {
		t.Fatal("not encoded")
	}
	for _, step := range []int{1, 7, 64, 1000} {
		loads := 0
		g, err := DecodeOverlayGroup("A100-SXM4-40GB", rows["A100-SXM4-40GB"], func(name string) ([]byte, error) {
			loads++
			b, ok := rows[name]
			if !ok {
				return nil, fmt.Errorf("no row %q", name)
			}
			return b, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g.Replaced, []string{"aws/x.large/r-0/on-demand"}) || !g.NewestAsOf.Equal(offers[0].Source.AsOf) {
			t.Errorf("replaced %v, newest %v", g.Replaced, g.NewestAsOf)
		}
		if len(g.Discovered) != 1 || fmt.Sprint(*g.Discovered[0]) != fmt.Sprint(*found[0]) {
			t.Errorf("discovered %+v, want only %+v", g.Discovered, found[0])
		}
		seen := map[string]bool{}
		for i := range g.Lists {
			l := &g.Lists[i]
			if l.Order != OrderPrice {
				continue
			}
			var last decimal.Decimal
			for l.Examined() < l.N {
				next, err := l.Next(step)
				if err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				for _, o := range next {
					if o.Price.Currency != l.Currency || o.EffectiveHourly().LessThan(last) {
						t.Errorf("step %d: %s %s %s out of order", step, o.ID(), o.Price.Currency, o.EffectiveHourly())
					}
					last = o.EffectiveHourly()
					if seen[o.ID()] {
						t.Errorf("step %d: %s twice", step, o.ID())
					}
					seen[o.ID()] = true
				}
			}
		}
		for _, o := range offers {
			if !seen[o.ID()] {
				t.Errorf("step %d: %s not read back", step, o.ID())
			}
		}
		if loads != 2 {
			t.Errorf("step %d: %d rows loaded, want the two further chunks", step, loads)
		}
	}
	// Every offer decoded matches the one written, field for field.
	g, err := DecodeOverlayGroup("A100-SXM4-40GB", rows["A100-SXM4-40GB"], func(name string) ([]byte, error) { return rows[name], nil })
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*catalog.Offer{}
	for _, o := range offers {
		byID[o.ID()] = o
	}
	for i := range g.Lists {
		l := &g.Lists[i]
		if l.Order != OrderPrice {
			continue
		}
		got, err := l.Next(l.N)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range got {
			if want := byID[o.ID()]; offerText(o) != offerText(want) {
				t.Errorf("%s:\n got %s\nwant %s", o.ID(), offerText(o), offerText(want))
			}
		}
	}
	// Counting under a filter: spot offers of y.large only.
	g, _ = DecodeOverlayGroup("A100-SXM4-40GB", rows["A100-SXM4-40GB"], func(name string) ([]byte, error) { return rows[name], nil })
	var names []string
	g.Instances(func(_, name string, _ int) { names = append(names, name) })
	g.Filter(KeyTest{Instance: func(i int) bool { return names[i] == "y.large" }, Region: func(string, string) bool { return true },
		Billing: func(code string) bool { return code == "spot" }})
	n := 0
	for i := range g.Lists {
		if g.Lists[i].Order != OrderPrice {
			continue
		}
		c, err := g.Lists[i].Count()
		if err != nil {
			t.Fatal(err)
		}
		n += c
	}
	if n != 2 {
		t.Errorf("count %d, want 2 (aws/y.large/r-0/spot, aws/y.large/r-2/spot)", n)
	}
}

// offerText is every field of an offer a read shows, decimals by value.
func offerText(o *catalog.Offer) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%v|%v", o.Provider, o.InstanceName, o.RegionCode, o.Billing, o.OS,
		o.Price.Hourly, o.Price.Upfront, o.Price.Monthly, o.Price.Currency, o.Notes, o.Source.Ref+" "+string(o.Source.Kind),
		o.Source.AsOf.Format(time.RFC3339Nano)+" "+o.Source.FetchedAt.Format(time.RFC3339Nano)+" "+o.Source.ReadOn.Format(time.RFC3339Nano), o.Stock)
}

// TestOverlayGroupRefusesWhatItCannotHold: notes, an undated source, a
// Windows rate or a price beyond 18 digits keep the
// group from being written (reads then take the full way).
func TestOverlayGroupRefusesWhatItCannotHold(t *testing.T) {
	for name, change := range map[string]func(o *catalog.Offer){
		"notes":   func(o *catalog.Offer) { o.Notes = "x" },
		"undated": func(o *catalog.Offer) { o.Source.ReadOn = time.Now() },
		"windows": func(o *catalog.Offer) { o.OS = catalog.OSWindows },
		"digits":  func(o *catalog.Offer) { o.Price.Hourly = decimal.RequireFromString("1234567890.1234567890") },
	} {
		offers, found := overlayOffers()
		change(offers[2])
		if _, ok := EncodeOverlayGroup("g", offers, nil, found); ok {
			t.Errorf("%s: encoded", name)
		}
	}
}

// FuzzDecodeOverlayGroup: a damaged cache row (any bytes) is an error,
// never a panic or a hang, whatever a read then asks of it.
func FuzzDecodeOverlayGroup(f *testing.F) {
	offers, found := overlayOffers()
	rows, _ := EncodeOverlayGroup("g", offers, []string{"aws/x.large/r-0/on-demand"}, found)
	f.Add(rows["g"], rows[overlayRow("g", 'k', 0, 0)])
	f.Add([]byte{overlayGroupVersion}, []byte{})
	f.Add([]byte{overlayGroupVersion, 1, 1, 'a', 1, 0, 0, 0, 0, 0, 1, 0, 200, 1, 0}, []byte{0, 0, 0})
	f.Fuzz(func(t *testing.T, head, keys []byte) {
		g, err := DecodeOverlayGroup("g", head, func(name string) ([]byte, error) { return keys, nil })
		if err != nil {
			return
		}
		g.Filter(KeyTest{Instance: func(int) bool { return true }, Region: func(string, string) bool { return true }, Billing: func(string) bool { return true }})
		for i := range g.Lists {
			l := &g.Lists[i]
			l.Count()
			for k := 0; k < 4 && l.Examined() < l.N; k++ {
				if _, err := l.Next(3); err != nil {
					break
				}
			}
		}
	})
}

// TestOverlayCacheMigrationKeepsEverything: a database as migration 5
// left it gains the overlay cache table and loses nothing; the cache is
// saved, read back, kept from a read-only copy's writers, and cleared by
// an import and by a deletion.
func TestOverlayCacheMigrationKeepsEverything(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))`}
	for v, name := range []string{"0001_init.sql", "0002_scopes_instances.sql", "0003_instance_packs.sql", "0004_offer_os.sql", "0005_offer_stock.sql"} {
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(body), fmt.Sprintf(`INSERT INTO schema_migrations (version) VALUES (%d)`, v+1))
	}
	stmts = append(stmts,
		`INSERT INTO snapshots (id, source, scope, fetched_at, checksum, offers, bands, skipped) VALUES (1, 'aws', 'aws:aws@us-east-1', '2026-11-01T00:00:00Z', 'a', 2, 0, 0)`,
		`INSERT INTO offers VALUES (1, 'aws', 'g4dn.xlarge', 'us-east-1', 'on-demand', '', '0.526', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01', 'available', '2026-11-01T00:00:00Z'),
			(1, 'aws', 'p5.48xlarge', 'us-east-1', 'on-demand', '', '55.04', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01', '', '')`)
	for _, q := range stmts {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db := open(t, path)
	if v, err := db.Version(ctx); err != nil || v != 6 {
		t.Fatalf("version %d, %v", v, err)
	}
	offers, _, err := db.LatestOffers(ctx)
	if err != nil || renderOffers(offers) != "aws/g4dn.xlarge/us-east-1/on-demand 0.526\naws/p5.48xlarge/us-east-1/on-demand 55.04" {
		t.Fatalf("after migration (%v):\n%s", err, renderOffers(offers))
	}
	for _, o := range offers {
		if (o.Stock != nil) != (o.InstanceName == "g4dn.xlarge") {
			t.Errorf("%s: stock reading %+v", o.ID(), o.Stock)
		}
	}
	key, err := db.OverlayKey(ctx)
	if err != nil || key != "1@2026-11-01T00:00:00Z#a" {
		t.Fatalf("key %q, %v", key, err)
	}
	save := func(db *DB) bool {
		t.Helper()
		w, err := db.WatchChanges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		saved, err := db.SaveOverlayCache(ctx, w, key, []byte("usable"), map[string][]byte{"g": []byte("row")})
		if err != nil {
			t.Fatal(err)
		}
		return saved
	}
	if !save(db) {
		t.Fatal("not saved")
	}
	header, rows, found, err := db.OverlayCache(ctx, key, []string{"g", "h"})
	if err != nil || !found || string(header) != "usable" || len(rows) != 1 || string(rows["g"]) != "row" {
		t.Fatalf("read back: %q %v %v %v", header, rows, found, err)
	}
	// Changed by another connection while a read built its rows: not saved.
	w, err := db.WatchChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other := open(t, path)
	if _, err := other.w.ExecContext(ctx, `UPDATE snapshots SET ref = 'x'`); err != nil {
		t.Fatal(err)
	}
	if saved, err := db.SaveOverlayCache(ctx, w, key, []byte("usable"), nil); saved || err != nil {
		t.Errorf("saved over a change: %v %v", saved, err)
	}
	w.Close()
	// A read-only copy writes nothing.
	pub := filepath.Join(t.TempDir(), "pub.db")
	if err := db.Publish(ctx, pub); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, pub)
	if err != nil {
		t.Fatal(err)
	}
	if save(ro) {
		t.Error("a read-only database saved the cache")
	}
	if _, _, found, _ := ro.OverlayCache(ctx, key, nil); !found {
		t.Error("the published copy lost the cache")
	}
	ro.Close()
	// An import, and a deletion, clear it.
	res := result(1, "1.5")
	if _, err := db.SaveImport(ctx, res, "b", "offer.json", time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, found, _ := db.OverlayCache(ctx, key, nil); found {
		t.Error("an import left the cache")
	}
	save(db)
	if _, err := db.DeleteSnapshot(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, found, _ := db.OverlayCache(ctx, key, nil); found {
		t.Error("a deletion left the cache")
	}
}

// TestOverlayGroupOrders: each offer is kept once in each order, the
// per-GPU order by price divided by the instance type's GPU count.
func TestOverlayGroupOrders(t *testing.T) {
	offers, found := overlayOffers()
	for i, o := range offers {
		o.Instance = &catalog.InstanceType{Provider: o.Provider, Name: o.InstanceName, GPUCount: decimal.NewFromInt(int64(1 + 7*(i%2)))}
	}
	rows, ok := EncodeOverlayGroup("g", offers, nil, found)
	if !ok {
		t.Fatal("not encoded")
	}
	g, err := DecodeOverlayGroup("g", rows["g"], func(name string) ([]byte, error) { return rows[name], nil })
	if err != nil {
		t.Fatal(err)
	}
	gpus := map[string]int64{}
	for _, o := range offers {
		gpus[o.InstanceName] = o.Instance.GPUCount.IntPart()
	}
	for _, order := range []Order{OrderPrice, OrderGPUPrice} {
		n := 0
		for i := range g.Lists {
			l := &g.Lists[i]
			if l.Order != order {
				continue
			}
			got, err := l.Next(l.N)
			if err != nil {
				t.Fatal(err)
			}
			n += len(got)
			for k := 1; k < len(got); k++ {
				a, b := got[k-1].EffectiveHourly(), got[k].EffectiveHourly()
				if order == OrderGPUPrice {
					a, b = a.Div(decimal.NewFromInt(gpus[got[k-1].InstanceName])), b.Div(decimal.NewFromInt(gpus[got[k].InstanceName]))
				}
				if b.LessThan(a) {
					t.Errorf("order %d: %s (%s) after %s (%s)", order, got[k].ID(), b, got[k-1].ID(), a)
				}
			}
		}
		if n != len(offers) {
			t.Errorf("order %d holds %d offers, want %d", order, n, len(offers))
		}
	}
}
