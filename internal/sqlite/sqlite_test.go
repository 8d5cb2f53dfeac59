package sqlite

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

func result(n int, price string) *importer.Result {
	res := &importer.Result{Source: "aws"}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		inst := "p5.48xlarge"
		if i > 0 {
			inst = "g5.x" + strings.Repeat("l", i%50) + string(rune('a'+i%26)) + "-" + decimal.NewFromInt(int64(i)).String()
		}
		res.Offers = append(res.Offers, &catalog.Offer{Provider: "aws", InstanceName: inst, RegionCode: "us-east-1", Billing: catalog.OnDemand,
			Price:  catalog.Price{Hourly: decimal.RequireFromString(price), Currency: "USD"},
			Source: catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "test", AsOf: at, FetchedAt: at}})
	}
	res.Bands = []*catalog.InterruptionBand{{Provider: "aws", InstanceName: "p5.48xlarge", Region: "us-east-1", Band: "<5%",
		LowPct: decimal.Zero, HighPct: decimal.NewFromInt(5), SavingsPct: decimal.NewFromInt(57), Source: catalog.Source{Ref: "adv", AsOf: at}}}
	res.Skipped.Add("not Linux", "g5.xlarge")
	return res
}

func open(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestImportHistoryDiff(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	if v, err := db.Version(ctx); err != nil || v != 6 {
		t.Fatalf("version %d, %v", v, err)
	}
	s1, err := db.SaveImport(ctx, result(3, "55.04"), "sum1", "offer.json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r2 := result(2, "49.50")
	r2.Offers = append(r2.Offers, &catalog.Offer{Provider: "aws", InstanceName: "p5en.48xlarge", RegionCode: "us-east-1", Billing: catalog.OnDemand,
		Price: catalog.Price{Hourly: decimal.RequireFromString("63.296"), Currency: "USD"}, Source: catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "t", AsOf: time.Now()}})
	s2, err := db.SaveImport(ctx, r2, "sum2", "offer.json", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	snaps, _ := db.Snapshots(ctx)
	if len(snaps) != 2 || snaps[0].ID != s2.ID || snaps[1].Offers != 3 || snaps[1].Skipped != 1 || !strings.Contains(snaps[1].SkippedDetail, "not Linux") {
		t.Errorf("snapshots %+v", snaps)
	}
	h, err := db.History(ctx, "aws/p5.48xlarge/us-east-1/on-demand")
	if err != nil || len(h) != 2 || h[0].Offer.Price.Hourly.String() != "55.04" || h[1].Offer.Price.Hourly.String() != "49.5" {
		t.Fatalf("history %+v, %v", h, err)
	}
	changes, err := db.Diff(ctx, s1.ID, s2.ID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, c := range changes {
		kinds[c.OfferID] = c.Kind
	}
	if kinds["aws/p5.48xlarge/us-east-1/on-demand"] != "changed" || kinds["aws/p5en.48xlarge/us-east-1/on-demand"] != "added" || len(changes) != 4 {
		t.Errorf("diff %v", kinds)
	}
	offers, bands, err := db.LatestOffers(ctx)
	if err != nil || len(offers) != 3 || len(bands) != 1 {
		t.Errorf("latest: %d offers, %d bands, %v", len(offers), len(bands), err)
	}
	if _, err := db.Diff(ctx, s1.ID, 99); err == nil {
		t.Error("diff with a missing snapshot")
	}
	if _, err := db.History(ctx, "nope"); err == nil {
		t.Error("bad offer ID accepted")
	}
}

func TestFailedImportLeavesNothing(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	if _, err := db.SaveImport(ctx, result(5, "1"), "a", "", time.Now(), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	// Cancelled half-way.
	cctx, cancel := context.WithCancel(ctx)
	db.hook = func(n int) {
		if n == 100 {
			cancel()
		}
	}
	_, err := db.SaveImport(cctx, result(1000, "2"), "b", "", time.Now(), SaveOptions{})
	db.hook = nil
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	snaps, _ := db.Snapshots(ctx)
	var n int
	db.r.QueryRow(`SELECT count(*) FROM offers`).Scan(&n)
	if len(snaps) != 1 || n != 5 {
		t.Errorf("after a cancelled import: %d snapshots, %d offers; want 1, 5", len(snaps), n)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestKilledImportLosesNothing kills a process in the middle of an import
// transaction and checks that the database is intact and unchanged.
func TestKilledImportLosesNothing(t *testing.T) {
	if os.Getenv("GPUSCOUT_KILL_CHILD") != "" {
		db, err := Open(context.Background(), os.Getenv("GPUSCOUT_KILL_DB"))
		if err != nil {
			os.Exit(2)
		}
		db.hook = func(n int) {
			if n == 500 {
				os.WriteFile(os.Getenv("GPUSCOUT_KILL_DB")+".ready", nil, 0o644)
				time.Sleep(time.Minute) // killed here
			}
		}
		db.SaveImport(context.Background(), result(1000, "9"), "child", "", time.Now(), SaveOptions{})
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.db")
	db := open(t, path)
	if _, err := db.SaveImport(context.Background(), result(10, "1"), "before", "", time.Now(), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledImportLosesNothing$")
	cmd.Env = append(os.Environ(), "GPUSCOUT_KILL_CHILD=1", "GPUSCOUT_KILL_DB="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(path + ".ready"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child never reached the middle of the import")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	db2 := open(t, path)
	snaps, err := db2.Snapshots(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var n int
	db2.r.QueryRow(`SELECT count(*) FROM offers`).Scan(&n)
	if len(snaps) != 1 || snaps[0].Checksum != "before" || n != 10 {
		t.Errorf("after a killed import: %d snapshots, %d offers; want the 1 snapshot and 10 offers from before", len(snaps), n)
	}
	if err := db2.IntegrityCheck(context.Background()); err != nil {
		t.Error(err)
	}
}

func TestScenarios(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "sub", "g.db"))
	if err := db.SaveScenario(ctx, "train", "recommend", "workload: {}", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveScenario(ctx, " ", "x", "", time.Now()); err == nil {
		t.Error("empty name accepted")
	}
	s, err := db.Scenarios(ctx)
	if err != nil || len(s) != 1 || s[0].Kind != "recommend" {
		t.Errorf("scenarios %+v %v", s, err)
	}
	// Reopening keeps data and does not re-run migrations.
	db.Close()
	db2 := open(t, db.Path())
	if s, _ := db2.Scenarios(ctx); len(s) != 1 {
		t.Error("scenario lost on reopen")
	}
}

func TestRefusesEmptyAndShrunkenImports(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	empty := &importer.Result{Source: "aws"}
	empty.Skipped.Add("negative price", "x")
	var ee *EmptyError
	if _, err := db.SaveImport(ctx, empty, "e", "", time.Now(), SaveOptions{AllowShrink: true}); !errors.As(err, &ee) || ee.Skipped != 1 {
		t.Fatalf("empty import: %v", err)
	}
	first, err := db.SaveImport(ctx, result(10, "1"), "a", "", time.Now(), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var se *ShrinkError
	if _, err := db.SaveImport(ctx, result(4, "2"), "b", "", time.Now(), SaveOptions{}); !errors.As(err, &se) ||
		se.Before != 11 || se.After != 5 || se.Previous != first.ID || !strings.Contains(err.Error(), "--allow-shrink") {
		t.Fatalf("shrunken import: %v", err)
	}
	if _, err := db.SaveImport(ctx, result(5, "2"), "c", "", time.Now(), SaveOptions{}); err != nil {
		t.Errorf("half the offers refused: %v", err)
	}
	if _, err := db.SaveImport(ctx, result(1, "3"), "d", "", time.Now(), SaveOptions{AllowShrink: true}); err != nil {
		t.Errorf("--allow-shrink refused: %v", err)
	}
	// Another source is not compared.
	other := result(1, "3")
	other.Source = "azure"
	if _, err := db.SaveImport(ctx, other, "f", "", time.Now(), SaveOptions{}); err != nil {
		t.Errorf("first import of another source: %v", err)
	}
	// One source over several providers (SkyPilot, a cloud per fetch):
	// a small cloud after a large one is compared with that cloud only.
	big := result(10, "1")
	big.Source = "skypilot"
	small := result(1, "1")
	small.Source = "skypilot"
	for _, o := range small.Offers {
		o.Provider = "lambda"
	}
	small.Bands = nil
	if _, err := db.SaveImport(ctx, big, "g", "", time.Now(), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveImport(ctx, small, "h", "", time.Now(), SaveOptions{}); err != nil {
		t.Errorf("another cloud of the same source refused: %v", err)
	}
	snaps, _ := db.Snapshots(ctx)
	if len(snaps) != 6 {
		t.Errorf("%d snapshots, want 6", len(snaps))
	}
}

func TestDeleteAndRollback(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	s1, _ := db.SaveImport(ctx, result(3, "55.04"), "a", "one.json", time.Now(), SaveOptions{})
	s2, _ := db.SaveImport(ctx, result(3, "40"), "b", "two.json", time.Now(), SaveOptions{})
	removed, current, err := db.Rollback(ctx, "aws")
	if err != nil || removed.ID != s2.ID || current.ID != s1.ID {
		t.Fatalf("rollback: removed %d, current %d, %v", removed.ID, current.ID, err)
	}
	offers, _, _ := db.LatestOffers(ctx)
	if len(offers) != 3 || offers[0].Price.Hourly.String() != "55.04" {
		t.Errorf("after rollback: %d offers %v", len(offers), offers)
	}
	var n int
	db.r.QueryRow(`SELECT count(*) FROM offers WHERE snapshot_id = ?`, s2.ID).Scan(&n)
	if n != 0 {
		t.Errorf("%d offers of the removed snapshot left", n)
	}
	var nf *NotFoundError
	if _, err := db.DeleteSnapshot(ctx, 99); !errors.As(err, &nf) {
		t.Errorf("unknown snapshot: %v", err)
	}
	if _, err := db.DeleteSnapshot(ctx, s1.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Rollback(ctx, "aws"); !errors.As(err, &nf) || nf.Source != "aws" {
		t.Errorf("rollback with no snapshot: %v", err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}
