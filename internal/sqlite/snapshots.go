package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/shopspring/decimal"
)

// Snapshot is one stored import.
type Snapshot struct {
	ID     int64
	Source string
	// Scope is what the snapshot covers (see Scope): reads use the newest
	// snapshot of each scope.
	Scope         string
	FetchedAt     time.Time
	Checksum      string
	Ref           string
	Offers        int
	Bands         int
	Skipped       int
	SkippedDetail string
}

// MinShare is the smallest share of the previous snapshot's records
// (offers and bands) of the same scope that a new snapshot may hold
// without SaveOptions.AllowShrink.
const MinShare = 0.5

// SaveOptions tune SaveImport.
type SaveOptions struct {
	// AllowShrink accepts a snapshot with fewer than MinShare of the
	// records of the previous snapshot of its scope.
	AllowShrink bool
	// Usable reports whether reads will use an imported record (its
	// region and instance type are known); the shrink guard counts only
	// those, so a file whose every region is unknown cannot hide the
	// previous snapshot. Nil counts every record.
	Usable func(provider, instance, region string) bool
	// LockWait is how long to wait for another process (another import)
	// to release the database; 0 means DefaultLockWait.
	LockWait time.Duration
	// Waiting is called once when the import has to wait for the lock,
	// to tell the user; it may be nil.
	Waiting func()
}

// DefaultLockWait is how long an import waits for another writer.
const DefaultLockWait = 5 * time.Minute

// LockedError is an import that gave up waiting for the database lock:
// another process kept writing for longer than SaveOptions.LockWait.
// Nothing was stored; the imported file is not at fault.
type LockedError struct {
	Path   string
	Waited time.Duration
	Err    error
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is locked by another process (another import?); gave up after waiting %s; nothing was stored", e.Path, e.Waited.Round(time.Second))
}

func (e *LockedError) Unwrap() error { return e.Err }

// isBusy reports whether err is SQLITE_BUSY or SQLITE_LOCKED.
func isBusy(err error) bool {
	var ce interface{ Code() int }
	if errors.As(err, &ce) {
		c := ce.Code() & 0xff
		return c == 5 || c == 6
	}
	return strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked")
}

// beginWrite begins a write transaction, waiting for another writer in
// steps of a second (telling opt.Waiting once) up to opt.LockWait.
func (db *DB) beginWrite(ctx context.Context, opt SaveOptions) (*sql.Tx, error) {
	wait := opt.LockWait
	if wait <= 0 {
		wait = DefaultLockWait
	}
	if _, err := db.w.ExecContext(ctx, `PRAGMA busy_timeout = 1000`); err != nil {
		return nil, err
	}
	// Restored on the transaction's own connection (the pool holds one).
	restore := func() { db.w.ExecContext(context.WithoutCancel(ctx), `PRAGMA busy_timeout = 10000`) }
	start, told := time.Now(), false
	for {
		tx, err := db.w.BeginTx(ctx, nil)
		if err == nil {
			if _, err := tx.ExecContext(ctx, `PRAGMA busy_timeout = 10000`); err != nil {
				tx.Rollback()
				return nil, err
			}
			return tx, nil
		}
		if !isBusy(err) || ctx.Err() != nil {
			restore()
			return nil, fmt.Errorf("begin import: %w", err)
		}
		if waited := time.Since(start); waited >= wait {
			restore()
			return nil, &LockedError{Path: db.path, Waited: waited, Err: err}
		}
		if !told && opt.Waiting != nil {
			opt.Waiting()
			told = true
		}
	}
}

// usable counts the offers and bands of res that opt.Usable accepts.
func (opt SaveOptions) usable(res *importer.Result) int {
	if opt.Usable == nil {
		return len(res.Offers) + len(res.Bands)
	}
	n := 0
	for _, o := range res.Offers {
		if opt.Usable(o.Provider, o.InstanceName, o.RegionCode) {
			n++
		}
	}
	for _, b := range res.Bands {
		if opt.Usable(b.Provider, b.InstanceName, b.Region) {
			n++
		}
	}
	return n
}

// EmptyError is an import with no offers and no bands: stored, it would
// hide the previous snapshot of its scope.
type EmptyError struct {
	Source  string
	Skipped int
}

func (e *EmptyError) Error() string {
	return fmt.Sprintf("the %s import holds no offers (%d records skipped): refused, it would hide the previous prices", e.Source, e.Skipped)
}

// ShrinkError is an import much smaller than the previous snapshot of its
// scope.
type ShrinkError struct {
	Source        string
	Scope         string
	Previous      int64 // the previous snapshot's ID
	Before, After int   // offers and bands, before and now (usable ones)
}

func (e *ShrinkError) Error() string {
	return fmt.Sprintf("the %s import holds %d usable offers and bands, fewer than %.0f%% of the %d of snapshot %d: refused (pass --allow-shrink to store it anyway)",
		e.Source, e.After, MinShare*100, e.Before, e.Previous)
}

// SaveImport stores an import as a new snapshot, in one transaction: on
// any error (or cancellation) nothing is stored. An import with no offers
// and no bands is refused (*EmptyError), and so is one with fewer than
// MinShare of the records of the previous snapshot of its scope
// (*ShrinkError) unless opt.AllowShrink. The machines the import
// describes (res.Instances) are stored with it.
func (db *DB) SaveImport(ctx context.Context, res *importer.Result, checksum, ref string, fetchedAt time.Time, opt SaveOptions) (Snapshot, error) {
	if len(res.Offers)+len(res.Bands) == 0 {
		return Snapshot{Source: res.Source, Scope: ScopeOf(res), FetchedAt: fetchedAt.UTC(), Checksum: checksum, Ref: ref,
			Skipped: res.Skipped.Total()}, &EmptyError{Source: res.Source, Skipped: res.Skipped.Total()}
	}
	s, _, err := db.save(ctx, StreamImport{Source: res.Source, Ref: ref, FetchedAt: fetchedAt, replace: true,
		Run: func(emit func(*catalog.Offer) error) (*importer.Result, string, error) {
			for _, o := range res.Offers {
				if err := emit(o); err != nil {
					return nil, "", err
				}
			}
			return res, checksum, nil
		}}, opt)
	return s, err
}

// StreamImport is an import stored while it is read (SaveStream).
type StreamImport struct {
	// Source names the importer (as importer.Result.Source).
	Source string
	// Run reads the import, handing each offer (each offer ID once) to
	// emit, which stores it and keeps no reference to it; it returns the
	// rest of the result (bands, instances, skipped records; its Offers
	// are not read) and the checksum of what it read. An error from emit
	// must be returned.
	Run func(emit func(*catalog.Offer) error) (res *importer.Result, checksum string, err error)
	// Ref names what was read (a file name, a URL).
	Ref string
	// FetchedAt is when it was read.
	FetchedAt time.Time
	// replace: a later offer with the ID of an earlier one replaces it
	// (SaveImport of a result that was not checked for duplicates).
	replace bool
}

// SaveStream stores an import as a new snapshot while it is read: the
// offers Run emits are written in batches inside one transaction, so
// they are never all held in memory, and the snapshot's packed copy is
// built as they come. As with SaveImport, nothing is stored on any error
// (an error of Run, a cancellation): the transaction is rolled back and
// the previous snapshot of the scope stays current; an empty import is
// refused (*EmptyError), and so is a much smaller one (*ShrinkError)
// unless opt.AllowShrink, both checked once the import is read. It
// returns the snapshot and the result Run returned.
func (db *DB) SaveStream(ctx context.Context, imp StreamImport, opt SaveOptions) (Snapshot, *importer.Result, error) {
	return db.save(ctx, imp, opt)
}

func (db *DB) save(ctx context.Context, imp StreamImport, opt SaveOptions) (Snapshot, *importer.Result, error) {
	s := Snapshot{Source: imp.Source, FetchedAt: imp.FetchedAt.UTC(), Ref: imp.Ref}
	tx, err := db.beginWrite(ctx, opt)
	if err != nil {
		return s, nil, err
	}
	defer tx.Rollback() // no-op after Commit
	// The snapshot's row first (its ID keys the offers); its counts,
	// scope and checksum once the import is read.
	r, err := tx.ExecContext(ctx, `INSERT INTO snapshots (source, scope, fetched_at, checksum, ref, offers, bands, skipped, skipped_detail) VALUES (?, '', ?, '', ?, 0, 0, 0, '')`,
		s.Source, s.FetchedAt.Format(time.RFC3339), s.Ref)
	if err != nil {
		return s, nil, fmt.Errorf("save snapshot: %w", err)
	}
	if s.ID, err = r.LastInsertId(); err != nil {
		return s, nil, err
	}
	// The reads' overlay cache describes the snapshots before this one.
	if _, err := tx.ExecContext(ctx, `DELETE FROM overlay_cache`); err != nil {
		return s, nil, fmt.Errorf("save snapshot: clear overlay cache: %w", err)
	}
	w := newOfferWriter(ctx, tx, s.ID, imp.replace, db.hook)
	defer w.close()
	var pk *packer
	if !imp.replace {
		pk = newPacker()
	}
	providers, regions := map[string]bool{}, map[string]bool{}
	usable := 0
	res, checksum, err := imp.Run(func(o *catalog.Offer) error {
		if err := w.add(o); err != nil {
			return err
		}
		if pk != nil {
			pk.add(o)
		}
		if !providers[o.Provider] {
			providers[o.Provider] = true
		}
		if !regions[o.RegionCode] {
			regions[o.RegionCode] = true
		}
		if opt.Usable == nil || opt.Usable(o.Provider, o.InstanceName, o.RegionCode) {
			usable++
		}
		return nil
	})
	if err != nil {
		return s, nil, err
	}
	if err := w.flush(); err != nil {
		return s, res, err
	}
	for _, b := range res.Bands {
		providers[b.Provider], regions[b.Region] = true, true
		if opt.Usable == nil || opt.Usable(b.Provider, b.InstanceName, b.Region) {
			usable++
		}
	}
	s.Scope = Scope(s.Source, keys(providers), keys(regions))
	s.Checksum, s.Offers, s.Bands, s.Skipped = checksum, w.written, len(res.Bands), res.Skipped.Total()
	s.SkippedDetail = strings.Join(res.Skipped.Lines(), "\n")
	if imp.replace { // rows replaced by a later duplicate are one offer
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM offers WHERE snapshot_id = ?`, s.ID).Scan(&s.Offers); err != nil {
			return s, res, err
		}
		usable = opt.usable(res)
	}
	if s.Offers+s.Bands == 0 {
		return s, res, &EmptyError{Source: s.Source, Skipped: s.Skipped}
	}
	if !opt.AllowShrink {
		prevID, before, err := previousSize(ctx, tx, s.Scope, s.ID)
		if err != nil {
			return s, res, fmt.Errorf("read the previous snapshot: %w", err)
		}
		if prevID > 0 && opt.Usable != nil {
			if before, err = usableSize(ctx, tx, prevID, opt.Usable, before); err != nil {
				return s, res, fmt.Errorf("read the previous snapshot: %w", err)
			}
		}
		// A source that lists offers only where it saw capacity shrinks
		// when capacity does: its instance types are compared instead.
		if prevID > 0 && res != nil && res.ListsCapacity {
			usable = usableTypes(res, opt.Usable)
			if before, err = previousTypes(ctx, tx, prevID, opt.Usable); err != nil {
				return s, res, fmt.Errorf("read the previous snapshot: %w", err)
			}
		}
		if prevID > 0 && float64(usable) < MinShare*float64(before) {
			return s, res, &ShrinkError{Source: s.Source, Scope: s.Scope, Previous: prevID, Before: before, After: usable}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE snapshots SET scope = ?, checksum = ?, offers = ?, bands = ?, skipped = ?, skipped_detail = ? WHERE id = ?`,
		s.Scope, s.Checksum, s.Offers, s.Bands, s.Skipped, s.SkippedDetail, s.ID); err != nil {
		return s, res, fmt.Errorf("save snapshot: %w", err)
	}
	bi, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO bands (snapshot_id, provider, instance_type, region, band, low_pct, high_pct, savings_pct, source_ref, as_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return s, res, err
	}
	defer bi.Close()
	for _, b := range res.Bands {
		if _, err := bi.ExecContext(ctx, s.ID, b.Provider, b.InstanceName, b.Region, b.Band, b.LowPct.String(), b.HighPct.String(), b.SavingsPct.String(),
			b.Source.Ref, b.Source.AsOfString()); err != nil {
			return s, res, fmt.Errorf("save band %s/%s: %w", b.InstanceName, b.Region, err)
		}
	}
	var blob []byte
	var packed bool
	var packFormat int
	if pk != nil {
		blob, packFormat, packed = pk.bytes()
		pk = nil
	} else if blob, packFormat, packed, err = pack(res.Offers); err != nil {
		return s, res, fmt.Errorf("pack offers: %w", err)
	}
	if packed {
		var instances []byte // NULL: read the rows
		if b, ok := packInstances(res.Instances); ok {
			instances = b
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO snapshot_packs (snapshot_id, format, offers, instances) VALUES (?, ?, ?, ?)`, s.ID, packFormat, blob, instances); err != nil {
			return s, res, fmt.Errorf("save packed offers: %w", err)
		}
	}
	blob = nil
	if len(res.Instances) > 0 {
		ii, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO instances (snapshot_id, provider, instance_type, gpu_name, gpu_count, gpu_memory_gib, vcpu, memory_gib, source_kind, source_ref, as_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return s, res, err
		}
		defer ii.Close()
		for _, it := range res.Instances {
			if _, err := ii.ExecContext(ctx, s.ID, it.Provider, it.Name, it.GPUName, it.GPUCount.String(), it.GPUMemoryGiB.String(), it.VCPU.String(),
				it.MemoryGiB.String(), string(it.Source.Kind), it.Source.Ref, it.Source.AsOfString()); err != nil {
				return s, res, fmt.Errorf("save instance type %s: %w", it.ID(), err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return s, res, fmt.Errorf("commit import: %w", err)
	}
	return s, res, nil
}

// keys lists a set's members.
func keys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	return out
}

// usableTypes counts the distinct instance types of an import's usable
// offers.
func usableTypes(res *importer.Result, usable func(provider, instance, region string) bool) int {
	seen := map[[2]string]bool{}
	for _, o := range res.Offers {
		if usable == nil || usable(o.Provider, o.InstanceName, o.RegionCode) {
			seen[[2]string{o.Provider, o.InstanceName}] = true
		}
	}
	return len(seen)
}

// previousTypes counts the distinct instance types of snapshot id's usable
// offers.
func previousTypes(ctx context.Context, tx *sql.Tx, id int64, usable func(provider, instance, region string) bool) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT provider, instance_type, region FROM offers WHERE snapshot_id = ?`, id)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	seen := map[[2]string]bool{}
	for rows.Next() {
		var p, i, r string
		if err := rows.Scan(&p, &i, &r); err != nil {
			return 0, err
		}
		if usable == nil || usable(p, i, r) {
			seen[[2]string{p, i}] = true
		}
	}
	return len(seen), rows.Err()
}

// previousSize is the newest snapshot of a scope and how many offers and
// bands it holds (0, 0 when there is none).
// usableSize counts the offers and bands of snapshot id that usable
// accepts, so that the shrink guard compares like with like; stored is
// the snapshot's own count, kept when it has no rows to read.
func usableSize(ctx context.Context, tx *sql.Tx, id int64, usable func(provider, instance, region string) bool, stored int) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT provider, instance_type, region FROM offers WHERE snapshot_id = ?
		UNION ALL SELECT provider, instance_type, region FROM bands WHERE snapshot_id = ?`, id, id)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n, all := 0, 0
	for rows.Next() {
		var p, i, r string
		if err := rows.Scan(&p, &i, &r); err != nil {
			return 0, err
		}
		all++
		if usable(p, i, r) {
			n++
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if all == 0 {
		return stored, nil
	}
	return n, nil
}

func previousSize(ctx context.Context, tx *sql.Tx, scope string, before int64) (int64, int, error) {
	var id int64
	var n int
	err := tx.QueryRowContext(ctx, `SELECT id, offers + bands FROM snapshots WHERE scope = ? AND id < ? ORDER BY id DESC LIMIT 1`, scope, before).Scan(&id, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, nil
	}
	return id, n, err
}

// DeleteSnapshot removes a snapshot with its offers and bands, in one
// transaction. It returns the removed snapshot; an unknown ID is an error.
func (db *DB) DeleteSnapshot(ctx context.Context, id int64) (Snapshot, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return Snapshot{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() // no-op after Commit
	s, err := snapshotByID(ctx, tx, id)
	if err != nil {
		return s, err
	}
	for _, q := range []string{`DELETE FROM offers WHERE snapshot_id = ?`, `DELETE FROM bands WHERE snapshot_id = ?`, `DELETE FROM instances WHERE snapshot_id = ?`, `DELETE FROM snapshot_packs WHERE snapshot_id = ?`, `DELETE FROM snapshots WHERE id = ?`, `DELETE FROM overlay_cache WHERE ? IS NOT NULL`} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return s, fmt.Errorf("remove snapshot %d: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return s, fmt.Errorf("remove snapshot %d: %w", id, err)
	}
	return s, nil
}

// NotFoundError is a snapshot, or a source, the database does not hold.
type NotFoundError struct {
	ID     int64
	Source string
}

func (e *NotFoundError) Error() string {
	if e.Source != "" {
		return fmt.Sprintf("no snapshot of source %q", e.Source)
	}
	return fmt.Sprintf("no snapshot %d", e.ID)
}

// Rollback removes the newest snapshot of a scope (when name is one, as
// Snapshot.Scope gives it) or else of a source, so that reads use the one
// before it in the same scope again (or the curated catalog when there is
// none). It returns the removed snapshot and the one of its scope now in
// use (ID 0 when none).
func (db *DB) Rollback(ctx context.Context, name string) (removed, current Snapshot, err error) {
	var id int64
	err = db.w.QueryRowContext(ctx, `SELECT id FROM snapshots WHERE scope = ?1 OR (source = ?1 AND NOT EXISTS (SELECT 1 FROM snapshots WHERE scope = ?1)) ORDER BY id DESC LIMIT 1`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return removed, current, &NotFoundError{Source: name}
	}
	if err != nil {
		return removed, current, err
	}
	if removed, err = db.DeleteSnapshot(ctx, id); err != nil {
		return removed, current, err
	}
	err = db.w.QueryRowContext(ctx, `SELECT id FROM snapshots WHERE scope = ? ORDER BY id DESC LIMIT 1`, removed.Scope).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return removed, current, nil
	case err != nil:
		return removed, current, err
	}
	current, err = snapshotByID(ctx, db.w, id)
	return removed, current, err
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func snapshotByID(ctx context.Context, q queryer, id int64) (Snapshot, error) {
	var s Snapshot
	var fetched string
	err := q.QueryRowContext(ctx, `SELECT id, source, scope, fetched_at, checksum, ref, offers, bands, skipped, skipped_detail FROM snapshots WHERE id = ?`, id).
		Scan(&s.ID, &s.Source, &s.Scope, &fetched, &s.Checksum, &s.Ref, &s.Offers, &s.Bands, &s.Skipped, &s.SkippedDetail)
	if errors.Is(err, sql.ErrNoRows) {
		return s, &NotFoundError{ID: id}
	}
	if err != nil {
		return s, fmt.Errorf("read snapshot %d: %w", id, err)
	}
	s.FetchedAt, _ = time.Parse(time.RFC3339, fetched)
	return s, nil
}

// Snapshots lists every snapshot, newest first.
func (db *DB) Snapshots(ctx context.Context) ([]Snapshot, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT id, source, scope, fetched_at, checksum, ref, offers, bands, skipped, skipped_detail FROM snapshots ORDER BY id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Snapshot
	for rows.Next() {
		var s Snapshot
		var fetched string
		if err := rows.Scan(&s.ID, &s.Source, &s.Scope, &fetched, &s.Checksum, &s.Ref, &s.Offers, &s.Bands, &s.Skipped, &s.SkippedDetail); err != nil {
			return nil, err
		}
		s.FetchedAt, _ = time.Parse(time.RFC3339, fetched)
		out = append(out, s)
	}
	return out, rows.Err()
}

// scanOffers reads offer rows (with the snapshot's fetched_at).
func scanOffers(rows *sql.Rows) ([]*catalog.Offer, []int64, error) {
	defer rows.Close()
	var out []*catalog.Offer
	var snaps []int64
	for rows.Next() {
		var o catalog.Offer
		var snap int64
		var billing, hourly, upfront, monthly, kind, asOf, fetched, stock, stockAt string
		if err := rows.Scan(&snap, &o.Provider, &o.InstanceName, &o.RegionCode, &billing, &o.OS, &hourly, &upfront, &monthly, &o.Price.Currency,
			&kind, &o.Source.Ref, &asOf, &fetched, &stock, &stockAt); err != nil {
			return nil, nil, err
		}
		o.Billing = catalog.Billing(billing)
		var err error
		for _, f := range []struct {
			s string
			d *decimal.Decimal
		}{{hourly, &o.Price.Hourly}, {upfront, &o.Price.Upfront}, {monthly, &o.Price.Monthly}} {
			if *f.d, err = decimal.NewFromString(f.s); err != nil {
				return nil, nil, fmt.Errorf("stored price %q of %s: %w", f.s, o.ID(), err)
			}
		}
		o.Source.Kind = catalog.SourceKind(kind)
		o.Source.AsOf, _ = catalog.ParseDate(asOf)
		o.Source.FetchedAt, _ = time.Parse(time.RFC3339, fetched)
		o.Stock = readStock(stock, stockAt)
		out = append(out, &o)
		snaps = append(snaps, snap)
	}
	return out, snaps, rows.Err()
}

const offerCols = `o.snapshot_id, o.provider, o.instance_type, o.region, o.billing, o.os, o.hourly, o.upfront, o.monthly, o.currency, o.source_kind, o.source_ref, o.as_of, s.fetched_at, o.stock, o.stock_seen`

// Imports is what reads overlay on the curated catalog: the records of
// the newest snapshot of each scope. Where two scopes price the same offer
// (or band, or describe the same instance type), the newer snapshot's
// record is the one kept.
type Imports struct {
	Offers    []*catalog.Offer
	Bands     []*catalog.InterruptionBand
	Instances []*catalog.DiscoveredInstance
	// OfferCounts is the number of offers (each offer ID once) of each
	// instance type (provider/name) in the newest snapshots, loaded or not.
	OfferCounts map[string]int
	// LeftOut are the offers a read's filter left out, by instance type
	// (each offer ID once, in snapshot order), when ReadOptions.ListLeftOut
	// asks for them.
	LeftOut []LeftOut
}

// LeftOut is an instance type's offers that a read did not load.
type LeftOut struct {
	Provider, InstanceType string
	Offers                 []LeftOutOffer
}

// LeftOutOffer is an offer a read did not load: what its ID holds
// besides the instance type (OS empty for Linux), and its currency.
type LeftOutOffer struct {
	Region, Billing, Currency, OS string
}

// ID is the offer ID of a left-out offer of an instance type
// (provider/name).
func (o LeftOutOffer) ID(instanceType string) string {
	return leftOutID(instanceType, o.Region, o.Billing, o.OS)
}

// leftOutID is the ID of an offer of an instance type (provider/name).
func leftOutID(instanceType, region, billing, os string) string {
	id := instanceType + "/" + region + "/" + billing
	if os != catalog.OSLinux {
		id += "/" + os
	}
	return id
}

// OfferFilter says whether a read loads the imported offers of an
// instance type.
type OfferFilter func(provider, instanceType string) bool

// latestSnapshots selects the newest snapshot of each scope.
const latestSnapshots = `SELECT max(id) FROM snapshots GROUP BY scope`

// LatestOffers returns the offers and bands of the newest snapshot of
// each scope (see LatestImports).
func (db *DB) LatestOffers(ctx context.Context) ([]*catalog.Offer, []*catalog.InterruptionBand, error) {
	im, err := db.LatestImports(ctx)
	if err != nil {
		return nil, nil, err
	}
	return im.Offers, im.Bands, nil
}

// LatestImports returns the offers, bands and described instance types of
// the newest snapshot of each scope, the newer snapshot's record winning
// where scopes overlap.
func (db *DB) LatestImports(ctx context.Context) (*Imports, error) {
	return db.LatestImportsWhere(ctx, nil)
}

// LatestImportsWhere is LatestImports loading only the offers a filter
// keeps: choose, given the instance types the imports describe, returns
// the filter (nil keeps every offer). The offers left out are neither
// decoded nor built, which is what makes a read about a few GPU models
// fast with a big import; Imports.OfferCounts still counts them.
func (db *DB) LatestImportsWhere(ctx context.Context, choose func([]*catalog.DiscoveredInstance) OfferFilter) (*Imports, error) {
	return db.LatestImportsWith(ctx, ReadOptions{Choose: choose})
}

// ReadOptions tune LatestImportsWith.
type ReadOptions struct {
	// Choose, given the instance types the imports describe, returns the
	// filter of the offers to load (nil, or a nil Choose, loads every
	// offer).
	Choose func([]*catalog.DiscoveredInstance) OfferFilter
	// ListLeftOut fills Imports.LeftOut with the IDs of the offers the
	// filter left out.
	ListLeftOut bool
}

// LatestImportsWith is LatestImports with options: a filter of the
// offers to load and, on request, the IDs of the offers it left out.
func (db *DB) LatestImportsWith(ctx context.Context, opt ReadOptions) (*Imports, error) {
	instances, err := db.latestInstances(ctx)
	if err != nil {
		return nil, err
	}
	var keep OfferFilter
	if opt.Choose != nil {
		keep = opt.Choose(instances)
	}
	im, err := db.latestOffers(ctx, keep, opt.ListLeftOut)
	if err != nil {
		return nil, err
	}
	im.Instances = instances
	brows, err := db.r.QueryContext(ctx, `SELECT b.provider, b.instance_type, b.region, b.band, b.low_pct, b.high_pct, b.savings_pct, b.source_ref, b.as_of, s.fetched_at
		FROM bands b JOIN snapshots s ON s.id = b.snapshot_id WHERE b.snapshot_id IN (`+latestSnapshots+`) ORDER BY b.snapshot_id`)
	if err != nil {
		return nil, err
	}
	defer brows.Close()
	bandAt := map[string]int{}
	for brows.Next() {
		var b catalog.InterruptionBand
		var lo, hi, sv, asOf, fetched string
		if err := brows.Scan(&b.Provider, &b.InstanceName, &b.Region, &b.Band, &lo, &hi, &sv, &b.Source.Ref, &asOf, &fetched); err != nil {
			return nil, err
		}
		b.LowPct, _ = decimal.NewFromString(lo)
		b.HighPct, _ = decimal.NewFromString(hi)
		b.SavingsPct, _ = decimal.NewFromString(sv)
		b.Period = "month"
		b.Source.Kind = catalog.SourceOfficialAPI
		b.Source.AsOf, _ = catalog.ParseDate(asOf)
		b.Source.FetchedAt, _ = time.Parse(time.RFC3339, fetched)
		k := b.Provider + "/" + b.InstanceName + "/" + b.Region
		if i, ok := bandAt[k]; ok {
			im.Bands[i] = &b
			continue
		}
		bandAt[k] = len(im.Bands)
		im.Bands = append(im.Bands, &b)
	}
	if err := brows.Err(); err != nil {
		return nil, err
	}
	return im, nil
}

// snapParts is one snapshot's offers, grouped by instance type: from its
// pack (pack set, parts undecoded) or from its rows (offers built).
type snapParts struct {
	id      int64
	fetched time.Time
	pack    *partsPack
	parts   []readPart
}

// readPart is one instance type's offers in one snapshot.
type readPart struct {
	provider, instance string
	n                  int
	packed             *packPart        // the undecoded part, from a pack
	offers             []*catalog.Offer // the offers, from rows
}

// key is the part's instance type, provider/name.
func (p *readPart) key() string { return p.provider + "/" + p.instance }

// groupParts groups offers (read from rows) by
// instance type, in order of first appearance.
func groupParts(offers []*catalog.Offer) []readPart {
	parts := []readPart{}
	at := map[[2]string]int{}
	for _, o := range offers {
		k := [2]string{o.Provider, o.InstanceName}
		i, ok := at[k]
		if !ok {
			i = len(parts)
			at[k] = i
			parts = append(parts, readPart{provider: o.Provider, instance: o.InstanceName})
		}
		parts[i].offers = append(parts[i].offers, o)
		parts[i].n++
	}
	return parts
}

// latestOffers reads the offers of the newest snapshot of each scope, in
// snapshot order (the newer snapshot's offer winning where scopes
// overlap): from the snapshot's pack where it has one, else from its rows.
// Only the instance types keep keeps are decoded; every offer is counted
// in OfferCounts, and listed in LeftOut (when leftOut) if not kept.
func (db *DB) latestOffers(ctx context.Context, keep OfferFilter, leftOut bool) (*Imports, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT s.id, s.fetched_at, p.format FROM snapshots s LEFT JOIN snapshot_packs p ON p.snapshot_id = s.id
		WHERE s.id IN (`+latestSnapshots+`) ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	var snaps []*snapParts
	var formats []sql.NullInt64
	for rows.Next() {
		sn := &snapParts{}
		var fetched string
		var format sql.NullInt64
		if err := rows.Scan(&sn.id, &fetched, &format); err != nil {
			rows.Close()
			return nil, err
		}
		sn.fetched, _ = time.Parse(time.RFC3339, fetched)
		snaps = append(snaps, sn)
		formats = append(formats, format)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// With one snapshot, only the parts a read decodes or lists are
	// copied out of the database's buffer; with several, every part (an
	// instance type shared by two snapshots is counted from its keys).
	// kept holds the filter's decision on each instance type, made once.
	kept := map[string]bool{}
	need := func(pt *packPart) bool { return true }
	if len(snaps) == 1 && !leftOut && keep != nil {
		need = func(pt *packPart) bool {
			k := pt.provider + "/" + pt.instance
			w, seen := kept[k]
			if !seen {
				w = keep(pt.provider, pt.instance)
				kept[k] = w
			}
			return w
		}
	}
	for i, sn := range snaps {
		if f := formats[i]; f.Valid && (f.Int64 == packParts || f.Int64 == packPartsOS) {
			if err := db.readPack(ctx, sn, f.Int64, need); err != nil {
				return nil, err
			}
		}
	}
	// A snapshot without a usable pack is read from its rows.
	for _, sn := range snaps {
		if sn.parts == nil {
			if err := db.readRows(ctx, sn); err != nil {
				return nil, err
			}
		}
	}
	// Instance types in several snapshots: their offers are counted (and
	// listed) once per offer ID.
	shared := map[string]bool{}
	if len(snaps) > 1 {
		seen := map[string]bool{}
		for _, sn := range snaps {
			for i := range sn.parts {
				k := sn.parts[i].key()
				if seen[k] {
					shared[k] = true
				}
				seen[k] = true
			}
		}
	}
	im := &Imports{OfferCounts: map[string]int{}}
	idSeen, leftSeen := map[string]bool{}, map[string]bool{}
	cache := newDecodeCache()
	for si := 0; si < len(snaps); si++ {
		sn := snaps[si]
		out, left, err := readSnap(sn, keep, kept, leftOut, cache)
		var ids []string
		if err == nil {
			ids, err = sharedIDs(sn, shared)
		}
		if err != nil {
			// A damaged part: the snapshot is read again from its rows.
			if err := db.readRows(ctx, sn); err != nil {
				return nil, err
			}
			if out, left, err = readSnap(sn, keep, kept, leftOut, cache); err != nil {
				return nil, err
			}
			if ids, err = sharedIDs(sn, shared); err != nil {
				return nil, err
			}
		}
		if im.Offers == nil {
			im.Offers = out // no copy for the first (often the only) snapshot
		} else {
			im.Offers = append(im.Offers, out...)
		}
		for i := range sn.parts {
			if k := sn.parts[i].key(); !shared[k] {
				im.OfferCounts[k] += sn.parts[i].n
			}
		}
		// Instance types of several snapshots: each offer ID counted once.
		for _, id := range ids {
			if !idSeen[id] {
				idSeen[id] = true
				prov, rest, _ := strings.Cut(id, "/")
				inst, _, _ := strings.Cut(rest, "/")
				im.OfferCounts[prov+"/"+inst]++
			}
		}
		for _, g := range left {
			if k := g.Provider + "/" + g.InstanceType; shared[k] {
				// Listed once per offer ID across the snapshots.
				kept := g.Offers[:0]
				for _, o := range g.Offers {
					if id := o.ID(k); !leftSeen[id] {
						leftSeen[id] = true
						kept = append(kept, o)
					}
				}
				g.Offers = kept
			}
			im.LeftOut = append(im.LeftOut, g)
		}
	}
	if len(snaps) > 1 { // one snapshot holds each offer once (its primary key)
		im.Offers = newestOffers(im.Offers)
	}
	return im, nil
}

// readPack reads a snapshot's pack of a known format into sn.parts,
// copying out of the database's buffer only the bodies of the parts need
// keeps (the others cannot be decoded: readSnap must not want them). A
// damaged pack leaves sn.parts nil (the rows are read instead).
func (db *DB) readPack(ctx context.Context, sn *snapParts, format int64, need func(*packPart) bool) error {
	rows, err := db.r.QueryContext(ctx, `SELECT offers FROM snapshot_packs WHERE snapshot_id = ?`, sn.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		return rows.Err()
	}
	var raw sql.RawBytes // valid until the next call on rows
	if err := rows.Scan(&raw); err != nil {
		return err
	}
	switch format {
	case packParts, packPartsOS:
		p, err := readParts(raw, sn.fetched, format)
		if err != nil {
			return nil
		}
		sn.pack = p
		sn.parts = make([]readPart, len(p.parts))
		for i := range p.parts {
			pt := &p.parts[i]
			if need(pt) {
				pt.body = bytes.Clone(pt.body)
			} else {
				pt.body = nil
			}
			sn.parts[i] = readPart{provider: pt.provider, instance: pt.instance, n: pt.n, packed: pt}
		}
	}
	return rows.Close()
}

// readSnap decodes the parts of a snapshot that keep keeps (deciding once
// per instance type, in kept) and returns their offers and, when leftOut,
// the offers of the others. Parts decoded stay in sn.parts.
func readSnap(sn *snapParts, keep OfferFilter, kept map[string]bool, leftOut bool, cache *decodeCache) ([]*catalog.Offer, []LeftOut, error) {
	// Decide every part first, so that the offers decoded share one
	// array and the list of them is allocated once.
	want := make([]bool, len(sn.parts))
	n, decode := 0, 0
	for i := range sn.parts {
		pt := &sn.parts[i]
		k := pt.key()
		w, seen := kept[k]
		if !seen {
			w = keep == nil || keep(pt.provider, pt.instance)
			kept[k] = w
		}
		want[i] = w
		if w {
			n += len(pt.offers)
			if pt.offers == nil {
				n += pt.n
				decode += pt.n
			}
		}
	}
	out := make([]*catalog.Offer, 0, n)
	var store []catalog.Offer
	if decode > 0 {
		store = make([]catalog.Offer, decode)
	}
	var left []LeftOut
	for i := range sn.parts {
		pt := &sn.parts[i]
		switch {
		case want[i] && pt.offers == nil:
			offers, err := sn.pack.offers(pt.packed, store[:pt.packed.n:pt.packed.n], cache)
			if err != nil {
				return nil, nil, err
			}
			store = store[pt.packed.n:]
			pt.offers = offers
			out = append(out, offers...)
		case want[i]:
			out = append(out, pt.offers...)
		case leftOut:
			g := LeftOut{Provider: pt.provider, InstanceType: pt.instance, Offers: make([]LeftOutOffer, 0, pt.n)}
			if pt.offers != nil {
				for _, o := range pt.offers {
					g.Offers = append(g.Offers, LeftOutOffer{Region: o.RegionCode, Billing: string(o.Billing), Currency: o.Price.Currency, OS: o.OS})
				}
			} else if err := sn.pack.keys(pt.packed, func(region, billing, currency, os string) {
				g.Offers = append(g.Offers, LeftOutOffer{Region: region, Billing: billing, Currency: currency, OS: os})
			}); err != nil {
				return nil, nil, err
			}
			left = append(left, g)
		}
	}
	return out, left, nil
}

// sharedIDs are the offer IDs of a snapshot's parts whose instance types
// are shared with other snapshots.
func sharedIDs(sn *snapParts, shared map[string]bool) ([]string, error) {
	var ids []string
	for i := range sn.parts {
		pt := &sn.parts[i]
		k := pt.key()
		switch {
		case !shared[k]:
		case pt.offers != nil:
			for _, o := range pt.offers {
				ids = append(ids, o.ID())
			}
		default:
			if err := sn.pack.keys(pt.packed, func(region, billing, _, os string) {
				ids = append(ids, leftOutID(k, region, billing, os))
			}); err != nil {
				return nil, err
			}
		}
	}
	return ids, nil
}

// readRows replaces a snapshot's parts with its offer rows.
func (db *DB) readRows(ctx context.Context, sn *snapParts) error {
	rows, err := db.r.QueryContext(ctx, `SELECT `+offerCols+` FROM offers o JOIN snapshots s ON s.id = o.snapshot_id WHERE o.snapshot_id = ?`, sn.id)
	if err != nil {
		return err
	}
	offers, _, err := scanOffers(rows)
	if err != nil {
		return err
	}
	sn.pack, sn.parts = nil, groupParts(offers)
	return nil
}

// newestOffers keeps, of offers in snapshot order, the last one of each
// offer ID, in place of the first.
func newestOffers(offers []*catalog.Offer) []*catalog.Offer {
	at := make(map[string]int, len(offers))
	out := offers[:0]
	for _, o := range offers {
		id := o.ID()
		if i, ok := at[id]; ok {
			out[i] = o
			continue
		}
		at[id] = len(out)
		out = append(out, o)
	}
	return out
}

// latestInstances reads the instance types the newest snapshot of each
// scope describes, from the snapshot's packed copy where it has a usable
// one, else from its rows; the newer description wins.
func (db *DB) latestInstances(ctx context.Context) ([]*catalog.DiscoveredInstance, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT s.id, s.fetched_at, p.format, p.instances FROM snapshots s LEFT JOIN snapshot_packs p ON p.snapshot_id = s.id
		WHERE s.id IN (`+latestSnapshots+`) ORDER BY s.id`)
	if err != nil {
		return nil, err
	}
	type snap struct {
		id        int64
		instances []*catalog.DiscoveredInstance
		packed    bool
	}
	var snaps []snap
	for rows.Next() {
		var sn snap
		var fetched string
		var format sql.NullInt64
		var blob []byte
		if err := rows.Scan(&sn.id, &fetched, &format, &blob); err != nil {
			rows.Close()
			return nil, err
		}
		if format.Valid && (format.Int64 == packParts || format.Int64 == packPartsOS) && blob != nil {
			at, _ := time.Parse(time.RFC3339, fetched)
			if d, err := unpackInstances(blob, at); err == nil {
				sn.instances, sn.packed = d, true
			}
		}
		snaps = append(snaps, sn)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []*catalog.DiscoveredInstance
	at := map[[2]string]int{} // provider and name: no string built per instance
	for _, sn := range snaps {
		if !sn.packed {
			if sn.instances, err = db.instanceRows(ctx, sn.id); err != nil {
				return nil, err
			}
		}
		for _, d := range sn.instances {
			k := [2]string{d.Provider, d.Name}
			if i, ok := at[k]; ok {
				out[i] = d
				continue
			}
			at[k] = len(out)
			out = append(out, d)
		}
	}
	return out, nil
}

// instanceRows reads the instance types one snapshot describes.
func (db *DB) instanceRows(ctx context.Context, id int64) ([]*catalog.DiscoveredInstance, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT i.provider, i.instance_type, i.gpu_name, i.gpu_count, i.gpu_memory_gib, i.vcpu, i.memory_gib,
		i.source_kind, i.source_ref, i.as_of, s.fetched_at FROM instances i JOIN snapshots s ON s.id = i.snapshot_id
		WHERE i.snapshot_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*catalog.DiscoveredInstance
	for rows.Next() {
		var d catalog.DiscoveredInstance
		var count, gmem, vcpu, mem, kind, asOf, fetched string
		if err := rows.Scan(&d.Provider, &d.Name, &d.GPUName, &count, &gmem, &vcpu, &mem, &kind, &d.Source.Ref, &asOf, &fetched); err != nil {
			return nil, err
		}
		for _, f := range []struct {
			s string
			d *decimal.Decimal
		}{{count, &d.GPUCount}, {gmem, &d.GPUMemoryGiB}, {vcpu, &d.VCPU}, {mem, &d.MemoryGiB}} {
			if *f.d, err = decimal.NewFromString(f.s); err != nil {
				return nil, fmt.Errorf("stored figure %q of instance type %s: %w", f.s, d.ID(), err)
			}
		}
		d.Source.Kind = catalog.SourceKind(kind)
		d.Source.AsOf, _ = catalog.ParseDate(asOf)
		d.Source.FetchedAt, _ = time.Parse(time.RFC3339, fetched)
		out = append(out, &d)
	}
	return out, rows.Err()
}

// HistoryPoint is an offer's price in one snapshot.
type HistoryPoint struct {
	Snapshot  int64
	FetchedAt time.Time
	Offer     *catalog.Offer
}

// History returns an offer's prices across snapshots, oldest first. The
// ID is provider/instance_type/region/billing, with /windows after it for
// the Windows rate.
func (db *DB) History(ctx context.Context, offerID string) ([]HistoryPoint, error) {
	parts := strings.Split(offerID, "/")
	os := catalog.OSLinux
	if len(parts) == 5 && parts[4] == catalog.OSWindows {
		os, parts = catalog.OSWindows, parts[:4]
	}
	if len(parts) != 4 {
		return nil, fmt.Errorf("offer ID %q is not provider/instance_type/region/billing (with /windows for a Windows rate)", offerID)
	}
	rows, err := db.r.QueryContext(ctx, `SELECT `+offerCols+` FROM offers o JOIN snapshots s ON s.id = o.snapshot_id
		WHERE o.provider = ? AND o.instance_type = ? AND o.region = ? AND o.billing = ? AND o.os = ? ORDER BY o.snapshot_id`, parts[0], parts[1], parts[2], parts[3], os)
	if err != nil {
		return nil, err
	}
	offers, snaps, err := scanOffers(rows)
	if err != nil {
		return nil, err
	}
	out := make([]HistoryPoint, len(offers))
	for i, o := range offers {
		out[i] = HistoryPoint{Snapshot: snaps[i], FetchedAt: o.Source.FetchedAt, Offer: o}
	}
	return out, nil
}

// Change is one difference between two snapshots.
type Change struct {
	OfferID  string
	Kind     string // added, removed, changed
	Old, New *catalog.Offer
}

// Diff compares the offers of two snapshots.
func (db *DB) Diff(ctx context.Context, from, to int64) ([]Change, error) {
	load := func(id int64) (map[string]*catalog.Offer, error) {
		rows, err := db.r.QueryContext(ctx, `SELECT `+offerCols+` FROM offers o JOIN snapshots s ON s.id = o.snapshot_id WHERE o.snapshot_id = ?`, id)
		if err != nil {
			return nil, err
		}
		offers, _, err := scanOffers(rows)
		if err != nil {
			return nil, err
		}
		m := map[string]*catalog.Offer{}
		for _, o := range offers {
			m[o.ID()] = o
		}
		return m, nil
	}
	for _, id := range []int64{from, to} {
		var n int
		if err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM snapshots WHERE id = ?`, id).Scan(&n); err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("no snapshot %d", id)
		}
	}
	a, err := load(from)
	if err != nil {
		return nil, err
	}
	b, err := load(to)
	if err != nil {
		return nil, err
	}
	var out []Change
	for id, o := range a {
		n, ok := b[id]
		switch {
		case !ok:
			out = append(out, Change{OfferID: id, Kind: "removed", Old: o})
		case !o.EffectiveHourly().Equal(n.EffectiveHourly()) || o.Price.Currency != n.Price.Currency:
			out = append(out, Change{OfferID: id, Kind: "changed", Old: o, New: n})
		}
	}
	for id, n := range b {
		if _, ok := a[id]; !ok {
			out = append(out, Change{OfferID: id, Kind: "added", New: n})
		}
	}
	sortChanges(out)
	return out, nil
}

func sortChanges(c []Change) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].OfferID < c[j-1].OfferID; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// SaveScenario stores (or replaces) a named scenario.
func (db *DB) SaveScenario(ctx context.Context, name, kind, body string, at time.Time) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("a scenario needs a name")
	}
	_, err := db.w.ExecContext(ctx, `INSERT OR REPLACE INTO scenarios (name, kind, body, saved_at) VALUES (?, ?, ?, ?)`, name, kind, body, at.UTC().Format(time.RFC3339))
	return err
}

// Scenario is a saved scenario.
type Scenario struct {
	Name, Kind, Body string
	SavedAt          time.Time
}

// Scenarios lists saved scenarios by name.
func (db *DB) Scenarios(ctx context.Context) ([]Scenario, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT name, kind, body, saved_at FROM scenarios ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Scenario
	for rows.Next() {
		var s Scenario
		var at string
		if err := rows.Scan(&s.Name, &s.Kind, &s.Body, &at); err != nil {
			return nil, err
		}
		s.SavedAt, _ = time.Parse(time.RFC3339, at)
		out = append(out, s)
	}
	return out, rows.Err()
}
