package sqlite

import (
	"context"
	"database/sql"
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

// windowsResult is an import with the Linux and the Windows rate of one
// instance type, region and billing model (illustrative test prices).
func windowsResult(at time.Time) *importer.Result {
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "us-east-1.json", AsOf: at, FetchedAt: at}
	offer := func(inst, os, hourly string) *catalog.Offer {
		return &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: "us-east-1", Billing: catalog.OnDemand, OS: os,
			Price: catalog.Price{Hourly: decimal.RequireFromString(hourly), Currency: "USD"}, Source: src}
	}
	return &importer.Result{Source: "aws", Offers: []*catalog.Offer{
		offer("g4dn.xlarge", catalog.OSLinux, "0.526"), offer("g4dn.xlarge", catalog.OSWindows, "0.71"), offer("p5.48xlarge", catalog.OSLinux, "55.04"),
	}}
}

func renderOffers(offers []*catalog.Offer) string {
	var out []string
	for _, o := range offers {
		out = append(out, o.ID()+" "+o.Price.Hourly.String())
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestWindowsOffersStored: a Windows rate and the Linux rate of the same
// offer are two rows and two offers, read alike from the pack and from the
// rows, with their own history; a filtered read lists the Windows offer it
// left out under its own ID.
func TestWindowsOffersStored(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "w.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	s, err := db.SaveImport(ctx, windowsResult(at), "a", "us-east-1.json", at, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var format int
	if err := db.r.QueryRowContext(ctx, `SELECT format FROM snapshot_packs WHERE snapshot_id = ?`, s.ID).Scan(&format); err != nil || format != packPartsOS {
		t.Fatalf("pack format %d, %v; want %d", format, err, packPartsOS)
	}
	want := "aws/g4dn.xlarge/us-east-1/on-demand 0.526\naws/g4dn.xlarge/us-east-1/on-demand/windows 0.71\naws/p5.48xlarge/us-east-1/on-demand 55.04"
	offers, _, err := db.LatestOffers(ctx)
	if err != nil || renderOffers(offers) != want {
		t.Fatalf("from the pack (%v):\n%s\nwant:\n%s", err, renderOffers(offers), want)
	}
	im, err := db.LatestImportsWith(ctx, ReadOptions{ListLeftOut: true, Choose: func([]*catalog.DiscoveredInstance) OfferFilter {
		return func(_, instance string) bool { return instance == "p5.48xlarge" }
	}})
	if err != nil || len(im.LeftOut) != 1 || len(im.LeftOut[0].Offers) != 2 || im.LeftOut[0].Offers[1].ID("aws/g4dn.xlarge") != "aws/g4dn.xlarge/us-east-1/on-demand/windows" {
		t.Fatalf("left out %+v, %v", im.LeftOut, err)
	}
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	offers, _, err = db.LatestOffers(ctx)
	if err != nil || renderOffers(offers) != want {
		t.Fatalf("from the rows (%v):\n%s\nwant:\n%s", err, renderOffers(offers), want)
	}
	h, err := db.History(ctx, "aws/g4dn.xlarge/us-east-1/on-demand/windows")
	if err != nil || len(h) != 1 || h[0].Offer.OS != catalog.OSWindows || h[0].Offer.Price.Hourly.String() != "0.71" {
		t.Fatalf("Windows history %+v, %v", h, err)
	}
	if h, err = db.History(ctx, "aws/g4dn.xlarge/us-east-1/on-demand"); err != nil || len(h) != 1 || h[0].Offer.OS != catalog.OSLinux {
		t.Fatalf("Linux history %+v, %v", h, err)
	}
}

// TestMigrationKeepsOffersAsLinux builds a database as migration 3 left
// it, with a packed snapshot and one read from its rows, and opens it:
// migration 4 keeps every offer, as a Linux offer, read the same from
// pack and rows as before.
func TestMigrationKeepsOffersAsLinux(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))`}
	for v, name := range []string{"0001_init.sql", "0002_scopes_instances.sql", "0003_instance_packs.sql"} {
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		stmts = append(stmts, string(body), fmt.Sprintf(`INSERT INTO schema_migrations (version) VALUES (%d)`, v+1))
	}
	linux := regionResult("us-east-1", 3, "1.1").Offers
	blob, format, ok, err := pack(linux)
	if err != nil || !ok || format != packParts {
		t.Fatalf("pack of Linux offers: format %d, %v %v", format, ok, err)
	}
	stmts = append(stmts,
		`INSERT INTO snapshots (id, source, scope, fetched_at, checksum, offers, bands, skipped) VALUES (1, 'aws', 'aws:aws@us-east-1', '2026-11-01T00:00:00Z', 'a', 3, 0, 0), (2, 'aws', 'aws:aws@eu-west-1', '2026-11-02T00:00:00Z', 'b', 1, 0, 0)`,
		`INSERT INTO offers VALUES (1, 'aws', 'g5.0xlarge', 'us-east-1', 'on-demand', '1.1', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01'),
			(1, 'aws', 'g5.1xlarge', 'us-east-1', 'on-demand', '1.1', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01'),
			(1, 'aws', 'g5.2xlarge', 'us-east-1', 'on-demand', '1.1', '0', '0', 'USD', 'official-api', 'us-east-1.json', '2026-11-01'),
			(2, 'aws', 'g5.0xlarge', 'eu-west-1', 'on-demand', '1.2', '0', '0', 'USD', 'official-api', 'eu-west-1.json', '2026-11-01')`)
	for _, q := range stmts {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO snapshot_packs (snapshot_id, format, offers) VALUES (1, ?, ?)`, packParts, blob); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	db := open(t, path)
	if v, err := db.Version(ctx); err != nil || v < 4 {
		t.Fatalf("version %d, %v", v, err)
	}
	want := "aws/g5.0xlarge/eu-west-1/on-demand 1.2\naws/g5.0xlarge/us-east-1/on-demand 1.1\naws/g5.1xlarge/us-east-1/on-demand 1.1\naws/g5.2xlarge/us-east-1/on-demand 1.1"
	offers, _, err := db.LatestOffers(ctx)
	if err != nil || renderOffers(offers) != want {
		t.Fatalf("after migration (%v):\n%s\nwant:\n%s", err, renderOffers(offers), want)
	}
	var n, linuxRows int
	db.r.QueryRow(`SELECT count(*), sum(os = '') FROM offers`).Scan(&n, &linuxRows)
	if n != 4 || linuxRows != 4 {
		t.Fatalf("%d offer rows, %d of them Linux; want 4, 4", n, linuxRows)
	}
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	if offers, _, err = db.LatestOffers(ctx); err != nil || renderOffers(offers) != want {
		t.Fatalf("rows after migration (%v):\n%s", err, renderOffers(offers))
	}
	// A Windows rate saved after the migration joins the Linux one.
	if _, err := db.SaveImport(ctx, windowsResult(time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)), "c", "us-east-1.json", time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC), SaveOptions{AllowShrink: true}); err != nil {
		t.Fatal(err)
	}
	if h, err := db.History(ctx, "aws/g4dn.xlarge/us-east-1/on-demand/windows"); err != nil || len(h) != 1 {
		t.Fatalf("history %+v, %v", h, err)
	}
}

// TestPackTurnsToOSFormatMidway: a pack is built as the offers come, so
// the first Windows offer may arrive after many Linux ones in several
// instance types; every offer packed before it is rewritten with the
// Linux operating system, and the pack reads as the rows do.
func TestPackTurnsToOSFormatMidway(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "m.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "offers.json", AsOf: at, FetchedAt: at}
	res := &importer.Result{Source: "aws"}
	add := func(inst, region string, billing catalog.Billing, os, hourly string) {
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: region, Billing: billing, OS: os,
			Price: catalog.Price{Hourly: decimal.RequireFromString(hourly), Currency: "USD"}, Source: src})
	}
	for i, inst := range []string{"g4dn.xlarge", "g5.xlarge", "p5.48xlarge"} {
		for j, region := range []string{"us-east-1", "us-west-2", "eu-west-1", "ap-northeast-1"} {
			add(inst, region, catalog.OnDemand, catalog.OSLinux, decimal.NewFromInt(int64(100*i+j+1)).Div(decimal.NewFromInt(1000)).String())
		}
	}
	add("g5.xlarge", "us-east-1", catalog.OnDemand, catalog.OSWindows, "1.19")
	add("g6.xlarge", "us-east-1", catalog.OnDemand, catalog.OSLinux, "0.805")
	add("g6.xlarge", "us-east-1", catalog.OnDemand, catalog.OSWindows, "0.989")
	s, err := db.SaveImport(ctx, res, "all", "offers.json", at, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var format int
	if err := db.r.QueryRowContext(ctx, `SELECT format FROM snapshot_packs WHERE snapshot_id = ?`, s.ID).Scan(&format); err != nil || format != packPartsOS {
		t.Fatalf("pack format %d, %v; want %d", format, err, packPartsOS)
	}
	// The pack itself decodes (a damaged one would be read from the rows
	// unnoticed).
	blob, bformat, ok, err := pack(res.Offers)
	if err != nil || !ok || bformat != packPartsOS {
		t.Fatalf("pack: format %d, ok %v, %v", bformat, ok, err)
	}
	p, err := readParts(blob, at, int64(bformat))
	if err != nil {
		t.Fatal(err)
	}
	var decoded []*catalog.Offer
	for i := range p.parts {
		os, err := p.offers(&p.parts[i], nil, newDecodeCache())
		if err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		decoded = append(decoded, os...)
	}
	if got, want := renderOffers(decoded), renderOffers(res.Offers); got != want {
		t.Fatalf("decoded pack:\n%s\nwant:\n%s", got, want)
	}
	fromPack, _, err := db.LatestOffers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := renderOffers(fromPack), renderOffers(res.Offers); got != want {
		t.Fatalf("from the pack:\n%s\nwant:\n%s", got, want)
	}
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	fromRows, _, err := db.LatestOffers(ctx)
	if err != nil || renderOffers(fromRows) != renderOffers(fromPack) {
		t.Fatalf("rows differ from the pack (%v):\n%s", err, renderOffers(fromRows))
	}
}
