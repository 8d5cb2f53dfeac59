package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// stockResult is a live import with a stock reading on each offer
// (illustrative test prices, not any provider's).
func stockResult(at time.Time) *importer.Result {
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "instance-types", AsOf: at, FetchedAt: at}
	offer := func(region string, st catalog.StockState) *catalog.Offer {
		return &catalog.Offer{Provider: "lambda", InstanceName: "gpu_8x_h100_sxm5", RegionCode: region, Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: decimal.RequireFromString("10.00"), Currency: "USD"}, Source: src,
			Stock: &catalog.Stock{State: st, Seen: at}}
	}
	return &importer.Result{Source: "lambda", Offers: []*catalog.Offer{offer("us-east-1", catalog.StockAvailable), offer("us-west-1", catalog.StockNone)}}
}

// A user who asks "where can I launch now" after a live import gets each
// offer's reading and when it was seen, back from the database.
func TestStockStoredAndRead(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "s.db"))
	at := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	if _, err := db.SaveImport(ctx, stockResult(at), "a", "instance-types", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	offers, _, err := db.LatestOffers(ctx)
	if err != nil || len(offers) != 2 {
		t.Fatalf("%d offers, %v", len(offers), err)
	}
	got := map[string]string{}
	for _, o := range offers {
		if o.Stock == nil {
			t.Fatalf("%s lost its stock reading", o.ID())
		}
		got[o.RegionCode] = fmt.Sprintf("%s %s", o.Stock.State, o.Stock.Seen.Format(time.RFC3339))
	}
	if got["us-east-1"] != "available 2026-12-06T05:00:00Z" || got["us-west-1"] != "none 2026-12-06T05:00:00Z" {
		t.Errorf("stock read back: %v", got)
	}
	h, err := db.History(ctx, "lambda/gpu_8x_h100_sxm5/us-east-1/on-demand")
	if err != nil || len(h) != 1 || !h[0].Offer.Stock.Available() {
		t.Errorf("history %+v, %v", h, err)
	}
	// A damaged stored reading is no reading, never a failed read.
	if _, err := db.w.ExecContext(ctx, `UPDATE offers SET stock = 'plenty' WHERE region = 'us-west-1'`); err != nil {
		t.Fatal(err)
	}
	offers, _, err = db.LatestOffers(ctx)
	if err != nil || len(offers) != 2 {
		t.Fatalf("%d offers, %v", len(offers), err)
	}
	for _, o := range offers {
		if o.RegionCode == "us-west-1" && o.Stock != nil {
			t.Errorf("damaged reading kept: %+v", o.Stock)
		}
	}
}

// TestStockMigrationKeepsEveryOffer builds a database as migration 4 left
// it (a packed snapshot with a Windows rate, and one read from its rows)
// and opens it: migration 5 keeps every offer and figure, with no stock
// reading, read the same from pack and rows.
func TestStockMigrationKeepsEveryOffer(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))`}
	for v, name := range []string{"0001_init.sql", "0002_scopes_instances.sql", "0003_instance_packs.sql", "0004_offer_os.sql"} {
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(body), fmt.Sprintf(`INSERT INTO schema_migrations (version) VALUES (%d)`, v+1))
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	blob, format, ok, err := pack(windowsResult(at).Offers)
	if err != nil || !ok || format != packPartsOS {
		t.Fatalf("pack: format %d, %v %v", format, ok, err)
	}
	stmts = append(stmts,
		`INSERT INTO snapshots (id, source, scope, fetched_at, checksum, offers, bands, skipped) VALUES (1, 'aws', 'aws:aws@us-east-1', '2026-11-01T00:00:00Z', 'a', 3, 0, 0), (2, 'aws', 'aws:aws@eu-west-1', '2026-11-02T00:00:00Z', 'b', 1, 0, 0)`,
		`INSERT INTO offers VALUES (1, 'aws', 'g4dn.xlarge', 'us-east-1', 'on-demand', '', '0.526', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01'),
			(1, 'aws', 'g4dn.xlarge', 'us-east-1', 'on-demand', 'windows', '0.71', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01'),
			(1, 'aws', 'p5.48xlarge', 'us-east-1', 'on-demand', '', '55.04', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01'),
			(2, 'aws', 'g5.0xlarge', 'eu-west-1', 'on-demand', '', '1.2', '0', '0', 'USD', 'official-api', 'eu-west-1.json', '2026-11-01')`)
	for _, q := range stmts {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO snapshot_packs (snapshot_id, format, offers) VALUES (1, ?, ?)`, format, blob); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db := open(t, path)
	if v, err := db.Version(ctx); err != nil || v < 5 {
		t.Fatalf("version %d, %v", v, err)
	}
	want := "aws/g4dn.xlarge/us-east-1/on-demand 0.526\naws/g4dn.xlarge/us-east-1/on-demand/windows 0.71\naws/g5.0xlarge/eu-west-1/on-demand 1.2\naws/p5.48xlarge/us-east-1/on-demand 55.04"
	check := func(from string) {
		t.Helper()
		offers, _, err := db.LatestOffers(ctx)
		if err != nil || renderOffers(offers) != want {
			t.Fatalf("%s after migration (%v):\n%s\nwant:\n%s", from, err, renderOffers(offers), want)
		}
		for _, o := range offers {
			if o.Stock != nil {
				t.Errorf("%s: %s gained a stock reading %+v", from, o.ID(), o.Stock)
			}
		}
	}
	check("pack")
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	check("rows")
	// A live import after the migration keeps its readings beside them.
	now := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	if _, err := db.SaveImport(ctx, stockResult(now), "c", "instance-types", now, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	offers, _, err := db.LatestOffers(ctx)
	n := 0
	for _, o := range offers {
		if o.Stock != nil {
			n++
		}
	}
	if err != nil || len(offers) != 6 || n != 2 {
		t.Errorf("%d offers, %d with a reading, %v", len(offers), n, err)
	}
}

// A source that lists offers only where it saw capacity (Lambda's regions
// with capacity) shrinks when capacity does: fewer regions with the same
// instance types is a new reading, stored; losing most of its instance
// types is still refused.
func TestCapacityShrinkCountsInstanceTypes(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "c.db"))
	answer := func(at time.Time, types []string, regions ...string) *importer.Result {
		res := &importer.Result{Source: "lambda", ListsCapacity: true}
		src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "instance-types", AsOf: at, FetchedAt: at}
		for _, it := range types {
			for _, r := range regions {
				res.Offers = append(res.Offers, &catalog.Offer{Provider: "lambda", InstanceName: it, RegionCode: r, Billing: catalog.OnDemand,
					Price: catalog.Price{Hourly: decimal.RequireFromString("1.00"), Currency: "USD"}, Source: src,
					Stock: &catalog.Stock{State: catalog.StockAvailable, Seen: at}})
			}
		}
		return res
	}
	t1 := time.Date(2026, 12, 6, 5, 0, 0, 0, time.UTC)
	types := []string{"gpu_1x_a", "gpu_1x_b", "gpu_1x_c"}
	if _, err := db.SaveImport(ctx, answer(t1, types, "us-east-1", "us-west-1", "us-south-1", "europe-central-1"), "a", "instance-types", t1, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	// Capacity left three of four regions: 3 offers instead of 12.
	t2 := t1.Add(time.Hour)
	if _, err := db.SaveImport(ctx, answer(t2, types, "us-east-1"), "b", "instance-types", t2, SaveOptions{}); err != nil {
		t.Fatalf("capacity shrinking was refused: %v", err)
	}
	// One of three types left: a truncated answer, refused.
	t3 := t2.Add(time.Hour)
	var se *ShrinkError
	if _, err := db.SaveImport(ctx, answer(t3, types[:1], "us-east-1", "us-west-1", "us-south-1", "europe-central-1"), "c", "instance-types", t3, SaveOptions{}); !errors.As(err, &se) {
		t.Errorf("losing two of three types: %v, want a ShrinkError", err)
	}
}
