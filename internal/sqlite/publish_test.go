package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPublishedSnapshotServesReadOnly: the update job publishes a snapshot
// that servers open read-only; they see the same offers, write nothing
// beside the file, cannot change it, and a republish replaces it whole.
func TestPublishedSnapshotServesReadOnly(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "work.db"))
	if _, err := db.SaveImport(ctx, result(3, "55.04"), "sum1", "offer.json", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	shared := t.TempDir()
	snap := filepath.Join(shared, "gpuscout.db")
	if err := db.Publish(ctx, snap); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	offers, bands, err := ro.LatestOffers(ctx)
	if err != nil || len(offers) != 3 || len(bands) != 1 || offers[0].Price.Hourly.String() != "55.04" && offers[1].Price.Hourly.String() != "55.04" {
		t.Fatalf("read-only snapshot: %d offers, %d bands, %v", len(offers), len(bands), err)
	}
	if _, err := ro.SaveImport(ctx, result(3, "1"), "sum2", "offer.json", time.Now(), SaveOptions{}); err == nil {
		t.Error("a read-only snapshot accepted an import")
	}
	entries, _ := os.ReadDir(shared)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 1 || names[0] != "gpuscout.db" {
		t.Errorf("the shared directory holds %v; want the snapshot alone (no -wal, -shm or temporary files)", names)
	}
	// A second publish replaces the file while a reader has the old one open.
	if _, err := db.SaveImport(ctx, result(3, "49.50"), "sum3", "offer.json", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := db.Publish(ctx, snap); err != nil {
		t.Fatal(err)
	}
	if old, _, err := ro.LatestOffers(ctx); err != nil || len(old) != 3 {
		t.Errorf("the open reader lost its snapshot: %d offers, %v", len(old), err)
	}
	ro.Close()
	ro2, err := OpenReadOnly(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	defer ro2.Close()
	fresh, _, err := ro2.LatestOffers(ctx)
	if err != nil || len(fresh) == 0 {
		t.Fatalf("republished snapshot: %v", err)
	}
	for _, o := range fresh {
		if o.InstanceName == "p5.48xlarge" && o.Price.Hourly.String() != "49.5" {
			t.Errorf("republished p5.48xlarge price %s, want 49.5", o.Price.Hourly)
		}
	}
}

// TestOpenReadOnlyRefusesOtherSchema names what to do with a snapshot
// another gpuscout version wrote.
func TestOpenReadOnlyRefusesOtherSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := open(t, filepath.Join(dir, "work.db"))
	snap := filepath.Join(dir, "snap.db")
	if err := db.Publish(ctx, snap); err != nil {
		t.Fatal(err)
	}
	w := open(t, snap)
	if _, err := w.w.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (99)`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := OpenReadOnly(ctx, snap); err == nil || !strings.Contains(err.Error(), "gpuscout catalog publish") {
		t.Errorf("err = %v, want a schema mismatch that says to publish again", err)
	}
	if _, err := OpenReadOnly(ctx, filepath.Join(dir, "missing.db")); err == nil {
		t.Error("a missing snapshot opened")
	}
}
