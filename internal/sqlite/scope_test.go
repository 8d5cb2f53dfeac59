package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
	_ "modernc.org/sqlite"
)

// regionResult is an AWS offer-file import of one region: n offers.
func regionResult(region string, n int, price string) *importer.Result {
	res := &importer.Result{Source: "aws"}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "aws", InstanceName: "g5." + decimal.NewFromInt(int64(i)).String() + "xlarge",
			RegionCode: region, Billing: catalog.OnDemand, Price: catalog.Price{Hourly: decimal.RequireFromString(price), Currency: "USD"},
			Source: catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: region + ".json", AsOf: at, FetchedAt: at}})
	}
	return res
}

func pricesByRegion(t *testing.T, db *DB) map[string]string {
	t.Helper()
	offers, _, err := db.LatestOffers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	counts := map[string]int{}
	for _, o := range offers {
		out[o.RegionCode] = o.Price.Hourly.String()
		counts[o.RegionCode]++
	}
	for r, n := range counts {
		out[r] += "×" + decimal.NewFromInt(int64(n)).String()
	}
	return out
}

func TestRegionsOfOneSourceDoNotHideEachOther(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	east, err := db.SaveImport(ctx, regionResult("us-east-1", 10, "1.5"), "a", "us-east-1.json", at, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A much smaller region after a bigger one is not a shrink: another scope.
	if _, err := db.SaveImport(ctx, regionResult("eu-west-1", 2, "1.7"), "b", "eu-west-1.json", at, SaveOptions{}); err != nil {
		t.Fatalf("second region refused: %v", err)
	}
	got := pricesByRegion(t, db)
	if got["us-east-1"] != "1.5×10" || got["eu-west-1"] != "1.7×2" || len(got) != 2 {
		t.Fatalf("both regions' prices should be listed: %v", got)
	}
	// Re-importing one region replaces only that scope.
	if _, err := db.SaveImport(ctx, regionResult("us-east-1", 9, "1.4"), "c", "us-east-1.json", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	got = pricesByRegion(t, db)
	if got["us-east-1"] != "1.4×9" || got["eu-west-1"] != "1.7×2" {
		t.Fatalf("re-import of us-east-1: %v", got)
	}
	// The shrink guard compares with the same scope only.
	var se *ShrinkError
	_, err = db.SaveImport(ctx, regionResult("us-east-1", 3, "1.4"), "d", "us-east-1.json", at, SaveOptions{})
	if !errors.As(err, &se) || se.Before != 9 || se.After != 3 || se.Scope != "aws:aws@us-east-1" {
		t.Fatalf("shrunken us-east-1: %v", err)
	}
	if _, err := db.SaveImport(ctx, regionResult("eu-west-1", 1, "1.8"), "e", "eu-west-1.json", at, SaveOptions{}); err != nil {
		t.Fatalf("eu-west-1 at half its size is allowed: %v", err)
	}
	// Rollback by scope brings back that scope's previous snapshot only.
	removed, current, err := db.Rollback(ctx, "aws:aws@us-east-1")
	if err != nil || removed.Scope != "aws:aws@us-east-1" || current.ID != east.ID {
		t.Fatalf("rollback: removed %+v current %+v, %v", removed, current, err)
	}
	got = pricesByRegion(t, db)
	if got["us-east-1"] != "1.5×10" || got["eu-west-1"] != "1.8×1" {
		t.Fatalf("after rollback: %v", got)
	}
	// Rollback by source undoes the newest import of the source.
	removed, _, err = db.Rollback(ctx, "aws")
	if err != nil || removed.Scope != "aws:aws@eu-west-1" {
		t.Fatalf("rollback aws: %+v, %v", removed, err)
	}
	if got = pricesByRegion(t, db); got["eu-west-1"] != "1.7×2" {
		t.Fatalf("after rollback of the source: %v", got)
	}
}

func TestSkyPilotCloudsAreSeparateScopes(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	cloud := func(provider string, regions ...string) *importer.Result {
		res := &importer.Result{Source: "skypilot"}
		for _, r := range regions {
			res.Offers = append(res.Offers, &catalog.Offer{Provider: provider, InstanceName: "x", RegionCode: r, Billing: catalog.OnDemand,
				Price: catalog.Price{Hourly: decimal.NewFromInt(2), Currency: "USD"}, Source: catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}})
		}
		return res
	}
	if _, err := db.SaveImport(ctx, cloud("lambda", "us-east-1", "us-west-1", "us-south-1"), "a", "vms.csv", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveImport(ctx, cloud("aws", "us-east-1"), "b", "vms.csv", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	// SkyPilot is scoped by cloud, not region: a cloud's file replaces
	// that cloud's previous file whole.
	if _, err := db.SaveImport(ctx, cloud("lambda", "us-east-1", "us-west-1"), "c", "vms.csv", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	offers, _, err := db.LatestOffers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, o := range offers {
		n[o.Provider]++
	}
	if n["lambda"] != 2 || n["aws"] != 1 {
		t.Fatalf("offers by provider %v", n)
	}
}

// TestMigrationGivesOldSnapshotsTheirScope builds a database as the first
// schema left it (two AWS regions stored as one source, the first hidden)
// and checks that opening it migrates the snapshots to their scopes, so
// both regions are read.
func TestMigrationGivesOldSnapshotsTheirScope(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	body, err := migrations.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')))`,
		string(body),
		`INSERT INTO schema_migrations (version) VALUES (1)`,
		`INSERT INTO snapshots (id, source, fetched_at, checksum, offers, bands, skipped) VALUES (1, 'aws', '2026-11-01T00:00:00Z', 'a', 1, 0, 0), (2, 'aws', '2026-11-02T00:00:00Z', 'b', 1, 0, 0), (3, 'aws', '2026-11-03T00:00:00Z', 'c', 1, 0, 0)`,
		`INSERT INTO offers VALUES (1, 'aws', 'g5.xlarge', 'us-east-1', 'on-demand', '1.1', '0', '0', 'USD', 'official-api', 'r', '2026-11-01'),
			(2, 'aws', 'g5.xlarge', 'eu-west-1', 'on-demand', '1.2', '0', '0', 'USD', 'official-api', 'r', '2026-11-01'),
			(3, 'aws', 'g5.xlarge', 'us-east-1', 'on-demand', '1.0', '0', '0', 'USD', 'official-api', 'r', '2026-11-01')`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db := open(t, path)
	snaps, err := db.Snapshots(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 3 || snaps[0].Scope != "aws:aws@us-east-1" || snaps[1].Scope != "aws:aws@eu-west-1" {
		t.Fatalf("scopes after migration: %+v", snaps)
	}
	if got := pricesByRegion(t, db); got["us-east-1"] != "1×1" || got["eu-west-1"] != "1.2×1" {
		t.Fatalf("reads after migration: %v", got)
	}
}

func TestDescribedInstancesAreStored(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	res := regionResult("us-east-1", 1, "1")
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "us-east-1.json", AsOf: at}
	res.Instances = []*catalog.DiscoveredInstance{{Provider: "aws", Name: "g6f.xlarge", GPUName: "L4", GPUCount: decimal.RequireFromString("0.125"),
		VCPU: decimal.NewFromInt(4), MemoryGiB: decimal.NewFromInt(16), Source: src}}
	s, err := db.SaveImport(ctx, res, "a", "f", at, SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	im, err := db.LatestImports(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Instances) != 1 || im.Instances[0].Name != "g6f.xlarge" || im.Instances[0].GPUCount.String() != "0.125" ||
		im.Instances[0].Source.Kind != catalog.SourceOfficialAPI || im.Instances[0].MemoryGiB.String() != "16" {
		t.Fatalf("instances %+v", im.Instances)
	}
	if _, err := db.DeleteSnapshot(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if im, _ = db.LatestImports(ctx); len(im.Instances) != 0 {
		t.Fatalf("instances left after removing the snapshot: %+v", im.Instances)
	}
}

// TestPackedOffersReadAsTheRows checks that a snapshot's packed copy and
// its offer rows give the same offers, and that a damaged pack falls back
// to the rows.
func TestPackedOffersReadAsTheRows(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "us-east-1.json", AsOf: at}
	res := &importer.Result{Source: "aws", Offers: []*catalog.Offer{
		{Provider: "aws", InstanceName: "p5.48xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand, Price: catalog.Price{Hourly: decimal.RequireFromString("55.0400"), Currency: "USD"}, Source: src},
		{Provider: "aws", InstanceName: "p5.48xlarge", RegionCode: "us-east-1", Billing: "reserved-1y-partial-upfront", Price: catalog.Price{Hourly: decimal.RequireFromString("17.2"), Upfront: decimal.RequireFromString("150672.5"), Currency: "USD"}, Source: src},
		{Provider: "aws", InstanceName: "g5.xlarge", RegionCode: "us-east-1", Billing: "subscription-1m", Price: catalog.Price{Monthly: decimal.RequireFromString("512.33"), Currency: "CNY"}, Source: catalog.Source{Kind: catalog.SourceThirdParty, Ref: "other", AsOf: at.AddDate(0, 0, -3)}},
	}}
	if _, err := db.SaveImport(ctx, res, "a", "f", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	render := func() []string {
		im, err := db.LatestImports(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range im.Offers {
			out = append(out, fmt.Sprintf("%s %s %s %s %s %s %s %s %s", o.ID(), o.Price.Hourly, o.Price.Upfront, o.Price.Monthly, o.Price.Currency,
				o.Source.Kind, o.Source.Ref, o.Source.AsOfString(), o.Source.FetchedAt.Format(time.RFC3339)))
		}
		sort.Strings(out)
		return out
	}
	packed := render()
	if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET offers = x'00ff'`); err != nil {
		t.Fatal(err)
	}
	damaged := render()
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	rows := render()
	if strings.Join(packed, "\n") != strings.Join(rows, "\n") || strings.Join(damaged, "\n") != strings.Join(rows, "\n") || len(rows) != 3 {
		t.Fatalf("packed:\n%s\ndamaged pack:\n%s\nrows:\n%s", strings.Join(packed, "\n"), strings.Join(damaged, "\n"), strings.Join(rows, "\n"))
	}
}

// TestFilteredReadLoadsOnlyKeptOffers checks that LatestImportsWhere loads
// only the offers of the instance types its filter keeps, the same from
// packs and from rows, while counting every offer of every type once
// (an offer priced by two scopes counts once).
func TestFilteredReadLoadsOnlyKeptOffers(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}
	offer := func(inst, region, price string) *catalog.Offer {
		return &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: region, Billing: catalog.OnDemand,
			Price: catalog.Price{Hourly: decimal.RequireFromString(price), Currency: "USD"}, Source: src}
	}
	// Two scopes (two regions' files) that both price p4d and g5.xlarge
	// in us-east-1.
	east := &importer.Result{Source: "aws", Offers: []*catalog.Offer{offer("p4d.24xlarge", "us-east-1", "32.77"), offer("g5.xlarge", "us-east-1", "1.006"),
		offer("g5.2xlarge", "us-east-1", "1.212")}}
	west := &importer.Result{Source: "aws", Offers: []*catalog.Offer{offer("p4d.24xlarge", "us-east-1", "30.00"), offer("p4d.24xlarge", "us-west-2", "32.77"),
		offer("g5.xlarge", "us-west-2", "1.006"), offer("g5.xlarge", "us-east-1", "1.1")}}
	east.Instances = []*catalog.DiscoveredInstance{{Provider: "aws", Name: "p4d.24xlarge", GPUName: "A100"}}
	if _, err := db.SaveImport(ctx, east, "a", "us-east-1.json", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveImport(ctx, west, "b", "us-west-2.json", at.Add(time.Hour), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	var described []string
	var leftOut []string
	read := func() (string, map[string]int) {
		im, err := db.LatestImportsWith(ctx, ReadOptions{Choose: func(found []*catalog.DiscoveredInstance) OfferFilter {
			described = nil
			for _, f := range found {
				described = append(described, f.ID())
			}
			return func(provider, inst string) bool { return inst == "p4d.24xlarge" }
		}, ListLeftOut: true})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, o := range im.Offers {
			out = append(out, o.ID()+" "+o.Price.Hourly.String())
		}
		sort.Strings(out)
		leftOut = nil
		for _, g := range im.LeftOut {
			for _, lo := range g.Offers {
				leftOut = append(leftOut, g.Provider+"/"+g.InstanceType+"/"+lo.Region+"/"+lo.Billing)
			}
		}
		sort.Strings(leftOut)
		return strings.Join(out, ", "), im.OfferCounts
	}
	want := "aws/p4d.24xlarge/us-east-1/on-demand 30, aws/p4d.24xlarge/us-west-2/on-demand 32.77"
	wantCounts := map[string]int{"aws/p4d.24xlarge": 2, "aws/g5.xlarge": 2, "aws/g5.2xlarge": 1}
	check := func(how string) {
		t.Helper()
		got, counts := read()
		if got != want {
			t.Fatalf("%s: offers %s, want %s", how, got, want)
		}
		if fmt.Sprint(counts) != fmt.Sprint(wantCounts) {
			t.Fatalf("%s: counts %v, want %v", how, counts, wantCounts)
		}
		if strings.Join(described, ",") != "aws/p4d.24xlarge" {
			t.Fatalf("%s: the filter was chosen from %v", how, described)
		}
		if got, want := strings.Join(leftOut, ", "), "aws/g5.2xlarge/us-east-1/on-demand, aws/g5.xlarge/us-east-1/on-demand, aws/g5.xlarge/us-west-2/on-demand"; got != want {
			t.Fatalf("%s: left out %s, want %s", how, got, want)
		}
	}
	check("packs")
	if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET offers = x'00ff'`); err != nil {
		t.Fatal(err)
	}
	check("damaged packs")
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	check("rows")
	// No filter: every offer, the newer scope's price where both have one.
	im, err := db.LatestImports(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Offers) != 5 {
		t.Fatalf("unfiltered read: %d offers, want 5", len(im.Offers))
	}
}

// TestFilteredReadMatchesFullRead: a filtered read without the list of
// offers left out (which copies only the kept instance types out of a
// one-snapshot database) gives the offers and counts of a full read,
// filtered afterwards: from packs, damaged packs and rows, with one
// snapshot, with two, and after the second is rolled back or deleted.
func TestFilteredReadMatchesFullRead(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	src := catalog.Source{Kind: catalog.SourceThirdParty, Ref: "vms.csv", AsOf: at}
	offer := func(inst, region string, b catalog.Billing, price string) *catalog.Offer {
		return &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: region, Billing: b,
			Price: catalog.Price{Hourly: decimal.RequireFromString(price), Currency: "USD"}, Source: src}
	}
	east := &importer.Result{Source: "aws", Offers: []*catalog.Offer{offer("g5.xlarge", "us-east-1", catalog.OnDemand, "1.006"),
		offer("p4d.24xlarge", "us-east-1", catalog.OnDemand, "32.77"), offer("g5.2xlarge", "us-east-1", catalog.OnDemand, "1.212"),
		offer("p4d.24xlarge", "us-east-1", catalog.Spot, "12.5"), offer("g5.xlarge", "us-east-1", catalog.Spot, "0.45")}}
	west := &importer.Result{Source: "aws", Offers: []*catalog.Offer{offer("p4d.24xlarge", "us-west-2", catalog.OnDemand, "33"),
		offer("g5.xlarge", "us-west-2", catalog.OnDemand, "1.1")}}
	keep := func(_, inst string) bool { return inst == "p4d.24xlarge" }
	render := func(im *Imports, filter bool) string {
		var out []string
		for _, o := range im.Offers {
			if !filter || keep(o.Provider, o.InstanceName) {
				out = append(out, o.ID()+" "+o.Price.Hourly.String())
			}
		}
		sort.Strings(out)
		return strings.Join(out, ", ") + fmt.Sprint(" ", im.OfferCounts)
	}
	check := func(how, want string) {
		t.Helper()
		full, err := db.LatestImports(ctx)
		if err != nil {
			t.Fatal(err)
		}
		filtered, err := db.LatestImportsWith(ctx, ReadOptions{Choose: func([]*catalog.DiscoveredInstance) OfferFilter { return keep }})
		if err != nil {
			t.Fatal(err)
		}
		if got, fromFull := render(filtered, false), render(full, true); got != fromFull || got != want {
			t.Fatalf("%s: filtered read %s, full read filtered %s, want %s", how, got, fromFull, want)
		}
	}
	one := "aws/p4d.24xlarge/us-east-1/on-demand 32.77, aws/p4d.24xlarge/us-east-1/spot 12.5 map[aws/g5.2xlarge:1 aws/g5.xlarge:2 aws/p4d.24xlarge:2]"
	two := "aws/p4d.24xlarge/us-east-1/on-demand 32.77, aws/p4d.24xlarge/us-east-1/spot 12.5, aws/p4d.24xlarge/us-west-2/on-demand 33 map[aws/g5.2xlarge:1 aws/g5.xlarge:3 aws/p4d.24xlarge:3]"
	if _, err := db.SaveImport(ctx, east, "a", "us-east-1.json", at, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	check("one snapshot", one)
	w, err := db.SaveImport(ctx, west, "b", "us-west-2.json", at.Add(time.Hour), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("two snapshots", two)
	if _, _, err := db.Rollback(ctx, w.Scope); err != nil {
		t.Fatal(err)
	}
	check("second rolled back", one)
	if w, err = db.SaveImport(ctx, west, "b", "us-west-2.json", at.Add(2*time.Hour), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	check("second imported again", two)
	if _, err := db.DeleteSnapshot(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	check("second deleted", one)
	if _, err := db.w.ExecContext(ctx, `UPDATE snapshot_packs SET offers = x'00ff'`); err != nil {
		t.Fatal(err)
	}
	check("damaged pack", one)
	if _, err := db.w.ExecContext(ctx, `DELETE FROM snapshot_packs`); err != nil {
		t.Fatal(err)
	}
	check("rows", one)
}
