package sqlite

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
)

// streamOf is a StreamImport emitting res's offers, failing with fail
// after failAfter of them when fail is not nil.
func streamOf(res *importer.Result, checksum string, failAfter int, fail error) StreamImport {
	return StreamImport{Source: res.Source, Ref: "vms.csv", FetchedAt: time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),
		Run: func(emit func(*catalog.Offer) error) (*importer.Result, string, error) {
			for i, o := range res.Offers {
				if fail != nil && i == failAfter {
					return nil, "", fail
				}
				c := *o // the stream reuses its offer
				if err := emit(&c); err != nil {
					return nil, "", err
				}
			}
			return &importer.Result{Source: res.Source, Bands: res.Bands, Instances: res.Instances, Skipped: res.Skipped}, checksum, nil
		}}
}

// rowsOf lists a snapshot's offer rows as text, sorted.
func rowsOf(t *testing.T, db *DB, id int64) []string {
	t.Helper()
	rows, err := db.r.Query(`SELECT provider, instance_type, region, billing, hourly, upfront, monthly, currency, source_kind, source_ref, as_of FROM offers WHERE snapshot_id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		v := make([]string, 11)
		p := make([]any, 11)
		for i := range v {
			p[i] = &v[i]
		}
		if err := rows.Scan(p...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(v))
	}
	sort.Strings(out)
	return out
}

// TestStreamStoresAsSaveImport: a streamed import stores the same rows,
// counts, scope and pack as SaveImport, in batches that bind the shared
// columns once and in batches whose rows differ in them.
func TestStreamStoresAsSaveImport(t *testing.T) {
	ctx := context.Background()
	res := result(3*offerBatch+5, "1.25")
	// One batch mixes currencies and sources: bound row by row.
	for i := offerBatch; i < offerBatch+3; i++ {
		res.Offers[i].Price.Currency = "EUR"
		res.Offers[i].Source.Ref = "other"
	}
	a := open(t, filepath.Join(t.TempDir(), "a.db"))
	b := open(t, filepath.Join(t.TempDir(), "b.db"))
	s1, err := a.SaveImport(ctx, res, "sum", "vms.csv", time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s2, got, err := b.SaveStream(ctx, streamOf(res, "sum", 0, nil), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || len(got.Bands) != 1 {
		t.Errorf("result %+v", got)
	}
	if s1.Offers != s2.Offers || s1.Bands != s2.Bands || s1.Skipped != s2.Skipped || s1.Scope != s2.Scope || s1.Checksum != s2.Checksum || s1.SkippedDetail != s2.SkippedDetail {
		t.Errorf("snapshots differ:\n%+v\n%+v", s1, s2)
	}
	if r1, r2 := rowsOf(t, a, s1.ID), rowsOf(t, b, s2.ID); !reflect.DeepEqual(r1, r2) || len(r2) != len(res.Offers) {
		t.Errorf("rows differ: %d and %d", len(r1), len(r2))
	}
	stored, err := b.Snapshots(ctx)
	if err != nil || len(stored) != 1 || stored[0].Offers != s2.Offers || stored[0].Scope != s2.Scope || stored[0].Checksum != "sum" {
		t.Errorf("stored %+v, %v", stored, err)
	}
	oa, _, err := a.LatestOffers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ob, _, err := b.LatestOffers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(oa) != len(ob) {
		t.Fatalf("packs hold %d and %d offers", len(oa), len(ob))
	}
	for i := range oa {
		if oa[i].ID() != ob[i].ID() || !oa[i].Price.Hourly.Equal(ob[i].Price.Hourly) || oa[i].Price.Currency != ob[i].Price.Currency || oa[i].Source.Ref != ob[i].Source.Ref {
			t.Fatalf("offer %d: %+v / %+v", i, oa[i], ob[i])
		}
	}
}

// TestFailedStreamKeepsThePreviousSnapshot: a stream that fails after
// writing some batches (a bad row near the end of a file) stores nothing:
// the previous snapshot of the scope stays current with all its offers.
func TestFailedStreamKeepsThePreviousSnapshot(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	first, _, err := db.SaveStream(ctx, streamOf(result(2*offerBatch, "1.25"), "one", 0, nil), SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := rowsOf(t, db, first.ID)
	bad := &importer.ParseError{Source: "skypilot vms.csv", Line: 1000, Field: "Price", Err: errors.New(`"x" is not a number`)}
	_, _, err = db.SaveStream(ctx, streamOf(result(5*offerBatch, "0.99"), "two", 4*offerBatch+7, bad), SaveOptions{})
	if !errors.Is(err, bad) {
		t.Fatalf("err = %v, want the parse error", err)
	}
	snaps, err := db.Snapshots(ctx)
	if err != nil || len(snaps) != 1 || snaps[0].ID != first.ID {
		t.Fatalf("snapshots %+v, %v", snaps, err)
	}
	var n int
	if err := db.r.QueryRow(`SELECT count(*) FROM offers`).Scan(&n); err != nil || n != len(before) {
		t.Errorf("%d offer rows (%v), want %d", n, err, len(before))
	}
	if got := rowsOf(t, db, first.ID); !reflect.DeepEqual(got, before) {
		t.Error("the previous snapshot's rows changed")
	}
	offers, _, err := db.LatestOffers(ctx)
	if err != nil || len(offers) != 2*offerBatch || offers[0].Price.Hourly.String() != "1.25" {
		t.Errorf("current offers: %d, %v", len(offers), err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	// A cancelled stream stores nothing either.
	cctx, cancel := context.WithCancel(ctx)
	db.hook = func(n int) {
		if n == 3*offerBatch {
			cancel()
		}
	}
	_, _, err = db.SaveStream(cctx, streamOf(result(5*offerBatch, "0.99"), "three", 0, nil), SaveOptions{})
	db.hook = nil
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: err = %v", err)
	}
	if snaps, _ := db.Snapshots(ctx); len(snaps) != 1 {
		t.Errorf("after a cancelled stream: %d snapshots", len(snaps))
	}
}

// TestStreamRefusesEmptyAndShrunken: the guards of SaveImport hold for a
// stream, checked once it is read.
func TestStreamRefusesEmptyAndShrunken(t *testing.T) {
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "g.db"))
	empty := result(0, "1")
	empty.Bands = nil
	var ee *EmptyError
	if _, _, err := db.SaveStream(ctx, streamOf(empty, "e", 0, nil), SaveOptions{}); !errors.As(err, &ee) {
		t.Fatalf("empty: err = %v", err)
	}
	if _, _, err := db.SaveStream(ctx, streamOf(result(400, "1"), "a", 0, nil), SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	var se *ShrinkError
	if _, _, err := db.SaveStream(ctx, streamOf(result(100, "1"), "b", 0, nil), SaveOptions{}); !errors.As(err, &se) || se.Before != 401 || se.After != 101 {
		t.Fatalf("shrunken: err = %v", err)
	}
	if _, _, err := db.SaveStream(ctx, streamOf(result(100, "1"), "b", 0, nil), SaveOptions{AllowShrink: true}); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	if snaps, _ := db.Snapshots(ctx); len(snaps) != 2 {
		t.Errorf("%d snapshots, want 2", len(snaps))
	}
}
