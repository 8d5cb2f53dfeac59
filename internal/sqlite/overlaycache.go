package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// The overlay cache (table overlay_cache, migration 0006) keeps what a
// validated read of the imports put in the catalog, so that a later read
// of the same snapshots with the same catalog need not decode, validate
// and overlay every imported offer again: per GPU model, the imported
// offers of its instance types that the catalog kept, cheapest first per
// currency, which a read decodes only as far as the rows it shows. The
// CLI decides what goes in it and when it may answer (internal/cli,
// fastoffers.go); this file stores and encodes it.
//
// Rows are keyed by a string that names the newest snapshot of each scope
// (ID, fetch time and checksum: SQLite may give a deleted snapshot's ID
// to the next one) and whatever else the writer puts in it (the catalog's
// version). Saving, deleting or rolling back a snapshot clears the table
// in the same transaction; a key names the snapshots it was built from,
// so a stale row is never read even where an older gpuscout changed the
// snapshots without clearing it.

// OverlayKey names the newest snapshot of each scope: the part of an
// overlay cache key that the database decides. It is empty when the
// database holds no snapshot.
func (db *DB) OverlayKey(ctx context.Context) (string, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT id, fetched_at, checksum FROM snapshots WHERE id IN (`+latestSnapshots+`) ORDER BY id`)
	if err != nil {
		return "", fmt.Errorf("overlay cache key: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id int64
		var fetched, sum string
		if err := rows.Scan(&id, &fetched, &sum); err != nil {
			return "", fmt.Errorf("overlay cache key: %w", err)
		}
		if b.Len() > 0 {
			b.WriteByte(';')
		}
		b.WriteString(strconv.FormatInt(id, 10) + "@" + fetched + "#" + sum)
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("overlay cache key: %w", err)
	}
	return b.String(), nil
}

// OverlayCache returns the rows of key's groups for the GPU models gpus
// (DecodeOverlayGroup reads them) and its header row (the row whose GPU is
// empty); found is false when key has no header row. A GPU model with no
// row has no imported offer.
func (db *DB) OverlayCache(ctx context.Context, key string, gpus []string) (header []byte, groups map[string][]byte, found bool, err error) {
	args := make([]any, 0, len(gpus)+2)
	args = append(args, key, "")
	for _, g := range gpus {
		args = append(args, g)
	}
	q := `SELECT gpu, body FROM overlay_cache WHERE key = ? AND gpu IN (?` + strings.Repeat(", ?", len(gpus)) + `)`
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return nil, nil, false, nil // a database of an older schema (read-only)
		}
		return nil, nil, false, fmt.Errorf("overlay cache: %w", err)
	}
	defer rows.Close()
	groups = map[string][]byte{}
	for rows.Next() {
		var gpu string
		var body []byte
		if err := rows.Scan(&gpu, &body); err != nil {
			return nil, nil, false, fmt.Errorf("overlay cache: %w", err)
		}
		if gpu == "" {
			header, found = body, true
			continue
		}
		groups[gpu] = body
	}
	if err := rows.Err(); err != nil {
		return nil, nil, false, fmt.Errorf("overlay cache: %w", err)
	}
	return header, groups, found, nil
}

// ChangeWatch tells whether another connection changed the database
// since it was made (SQLite's data_version), so that a cache built from
// several reads is not saved when the snapshots changed under them.
type ChangeWatch struct {
	conn    *sql.Conn
	version int64
}

// WatchChanges starts a ChangeWatch; Close releases it.
func (db *DB) WatchChanges(ctx context.Context) (*ChangeWatch, error) {
	conn, err := db.r.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("watch changes: %w", err)
	}
	w := &ChangeWatch{conn: conn}
	if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&w.version); err != nil {
		conn.Close()
		return nil, fmt.Errorf("watch changes: %w", err)
	}
	return w, nil
}

// changed reports whether another connection committed since the watch
// began.
func (w *ChangeWatch) changed(ctx context.Context) (bool, error) {
	var v int64
	if err := w.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return false, err
	}
	return v != w.version, nil
}

// Close releases the watch's connection.
func (w *ChangeWatch) Close() error { return w.conn.Close() }

// SaveOverlayCache replaces key's rows of the overlay cache (the header
// under the empty name, the groups' rows by name), unless the database changed
// since watch began (saved is then false) or is open read-only (a
// published copy: nothing is written). It never waits for another
// writer: a locked database is not an error, the rows are simply not
// saved.
func (db *DB) SaveOverlayCache(ctx context.Context, watch *ChangeWatch, key string, header []byte, groups map[string][]byte) (saved bool, err error) {
	if db.readOnly {
		return false, nil
	}
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("save overlay cache: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 0`); err != nil {
		return false, fmt.Errorf("save overlay cache: %w", err)
	}
	defer conn.ExecContext(context.Background(), `PRAGMA busy_timeout = 10000`) //nolint:errcheck // restored for the pool
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		if isBusy(err) {
			return false, nil
		}
		return false, fmt.Errorf("save overlay cache: %w", err)
	}
	defer tx.Rollback() // no-op after Commit
	// The write lock is held from here: no import can commit between the
	// check and the rows.
	if ch, err := watch.changed(ctx); err != nil || ch {
		return false, err
	}
	// Rows of other keys stay (another build's or catalog's, for the same
	// snapshots: two versions of gpuscout reading one database do not
	// rewrite each other's); saving, deleting or rolling back a snapshot
	// clears them all.
	if _, err := tx.ExecContext(ctx, `DELETE FROM overlay_cache WHERE key = ?`, key); err != nil {
		if isBusy(err) {
			return false, nil
		}
		return false, fmt.Errorf("save overlay cache: %w", err)
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	if _, err := tx.ExecContext(ctx, `INSERT INTO overlay_cache (key, gpu, body) VALUES (?, '', ?)`, key, header); err != nil {
		return false, fmt.Errorf("save overlay cache: %w", err)
	}
	for _, g := range names {
		if g == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO overlay_cache (key, gpu, body) VALUES (?, ?, ?)`, key, g, groups[g]); err != nil {
			return false, fmt.Errorf("save overlay cache: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		if isBusy(err) {
			return false, nil
		}
		return false, fmt.Errorf("save overlay cache: %w", err)
	}
	return true, nil
}

// overlayGroupVersion is the first byte of an encoded OverlayGroup.
const overlayGroupVersion = 1

// errOverlay is a damaged overlay cache row.
var errOverlay = errors.New("damaged overlay cache row")

// OverlayGroup is one GPU model's imported offers as a validated read
// kept them: its instance types, the curated offers the imports replace,
// the newest as-of date, and the offers in lists by currency, each
// cheapest first in its currency: every offer once by effective hourly
// price (OrderPrice), once by that price per GPU (OrderGPUPrice).
type OverlayGroup struct {
	strs      []string
	instances [][2]string // provider, name
	counts    []int       // offers of each instance type
	// Replaced are the IDs of the curated offers the imports replace.
	Replaced []string
	// NewestAsOf is the newest as-of date of the group's offers.
	NewestAsOf time.Time
	// Discovered are the imports' descriptions of the group's instance
	// types, in the imports' order.
	Discovered []*catalog.DiscoveredInstance
	// Lists are the offers by currency.
	Lists []OverlayList
	dates map[uint64]time.Time
	memo  *keyMemo
	gpu   string
	load  func(row string) ([]byte, error)
}

// Order is the order of an OverlayList's offers.
type Order int

// The orders a group's offers are kept in, each in lists by currency.
const (
	// OrderPrice: by effective hourly price, cheapest first.
	OrderPrice Order = iota
	// OrderGPUPrice: by effective hourly price per GPU, cheapest first.
	OrderGPUPrice
)

// OverlayList is a group's offers in one currency, in one order.
type OverlayList struct {
	Order    Order
	Currency string
	// N is the number of offers.
	N       int
	index   int    // in the group's lists
	keys    []byte // loaded by Count
	body    []byte // the chunk being read
	g       *OverlayGroup
	bodyAt  int // offers examined so far
	bodyPos int // in body
}

// EncodeOverlayGroup encodes a GPU model's imported offers (Linux offers
// that a validated catalog kept, linked to their instance types: the
// per-GPU order needs each one's GPU count), the curated offer IDs they replace and
// the imports' descriptions of their instance types (found: every one the
// imports describe, in their order; the group keeps those of its offers).
// ok is false when a record does not fit the form (a stock reading, notes,
// an undated source, a figure beyond 64 bits): such imports are read the
// full way.
func EncodeOverlayGroup(gpu string, offers []*catalog.Offer, replaced []string, found []*catalog.DiscoveredInstance) (rows map[string][]byte, ok bool) {
	rows = map[string][]byte{}
	strs := map[string]uint64{}
	var table []string
	str := func(s string) uint64 {
		i, seen := strs[s]
		if !seen {
			i = uint64(len(table))
			strs[s] = i
			table = append(table, s)
		}
		return i
	}
	type inst struct{ provider, name string }
	instAt := map[inst]uint64{}
	var insts []inst
	var perInst []int
	byCur := map[string][]*catalog.Offer{}
	var curs []string
	var newest time.Time
	for _, o := range offers {
		if o.Notes != "" || !o.Source.ReadOn.IsZero() || o.OS != catalog.OSLinux || o.Price.Currency == "" || (o.Stock != nil && o.Stock.State == "") {
			return nil, false
		}
		for _, d := range []decimal.Decimal{o.Price.Hourly, o.Price.Upfront, o.Price.Monthly} {
			if d.NumDigits() > 18 {
				return nil, false
			}
		}
		k := inst{o.Provider, o.InstanceName}
		i, seen := instAt[k]
		if !seen {
			i = uint64(len(insts))
			instAt[k] = i
			insts = append(insts, k)
			perInst = append(perInst, 0)
		}
		perInst[i]++
		if _, seen := byCur[o.Price.Currency]; !seen {
			curs = append(curs, o.Price.Currency)
		}
		byCur[o.Price.Currency] = append(byCur[o.Price.Currency], o)
		if o.Source.AsOf.After(newest) {
			newest = o.Source.AsOf
		}
	}
	sort.Strings(curs)
	b := []byte{overlayGroupVersion}
	var lists []byte
	li := -1
	for _, order := range []Order{OrderPrice, OrderGPUPrice} {
		for _, cur := range curs {
			li++
			list := byCur[cur]
			type priced struct {
				o   *catalog.Offer
				eff decimal.Decimal
				id  string
			}
			ps := make([]priced, len(list))
			for i, o := range list {
				price := o.EffectiveHourly()
				if order == OrderGPUPrice {
					price = o.PerGPUHourly()
				}
				ps[i] = priced{o, price, o.ID()}
			}
			sort.Slice(ps, func(i, j int) bool {
				if c := ps[i].eff.Cmp(ps[j].eff); c != 0 {
					return c < 0
				}
				return ps[i].id < ps[j].id
			})
			var keys, body []byte
			var chunk0 []byte
			for k, p := range ps {
				if k > 0 && k%overlayChunk == 0 {
					if chunk0 == nil {
						chunk0 = body
					} else {
						rows[overlayRow(gpu, 'b', li, k/overlayChunk-2)] = body // offers k-128 to k-1
					}
					body = nil
				}
				o := p.o
				in, region, billing := instAt[inst{o.Provider, o.InstanceName}], str(o.RegionCode), str(string(o.Billing))
				keys = binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(keys, in), region), billing)
				body = binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(body, in), region), billing)
				body = binary.AppendUvarint(body, str(string(o.Source.Kind)))
				body = binary.AppendUvarint(body, str(o.Source.Ref))
				body = binary.AppendUvarint(body, str(timeText(o.Source.AsOf)))
				body = binary.AppendUvarint(body, str(timeText(o.Source.FetchedAt)))
				// A live import's capacity reading: its state ('' for none)
				// and when it was seen.
				var state string
				var seen time.Time
				if o.Stock != nil {
					state, seen = string(o.Stock.State), o.Stock.Seen
				}
				body = binary.AppendUvarint(binary.AppendUvarint(body, str(state)), str(timeText(seen)))
				for _, d := range []decimal.Decimal{o.Price.Hourly, o.Price.Upfront, o.Price.Monthly} {
					body = binary.AppendVarint(binary.AppendVarint(body, d.CoefficientInt64()), int64(d.Exponent()))
				}
			}
			if chunk0 == nil {
				chunk0 = body
			} else if len(ps) > 0 {
				rows[overlayRow(gpu, 'b', li, (len(ps)-1)/overlayChunk-1)] = body
			}
			rows[overlayRow(gpu, 'k', li, 0)] = keys
			lists = binary.AppendUvarint(lists, uint64(order))
			lists = binary.AppendUvarint(lists, str(cur))
			lists = binary.AppendUvarint(lists, uint64(len(ps)))
			lists = append(binary.AppendUvarint(lists, uint64(len(chunk0))), chunk0...)
		}
	}
	var disc []byte
	nDisc := 0
	// In ID order (the catalog's order of instance types).
	found = slices.Clone(found)
	slices.SortStableFunc(found, func(a, b *catalog.DiscoveredInstance) int {
		return catalog.CompareInstanceIDs(a.Provider, a.Name, b.Provider, b.Name)
	})
	for _, di := range found {
		if _, mine := instAt[inst{di.Provider, di.Name}]; !mine {
			continue
		}
		if !di.Source.ReadOn.IsZero() {
			return nil, false
		}
		nDisc++
		disc = binary.AppendUvarint(disc, str(di.Provider))
		disc = binary.AppendUvarint(disc, str(di.Name))
		disc = binary.AppendUvarint(disc, str(di.GPUName))
		for _, d := range []decimal.Decimal{di.GPUCount, di.GPUMemoryGiB, di.VCPU, di.MemoryGiB} {
			if d.NumDigits() > 18 {
				return nil, false
			}
			disc = binary.AppendVarint(binary.AppendVarint(disc, d.CoefficientInt64()), int64(d.Exponent()))
		}
		disc = binary.AppendUvarint(disc, str(string(di.Source.Kind)))
		disc = binary.AppendUvarint(disc, str(di.Source.Ref))
		disc = binary.AppendUvarint(disc, str(timeText(di.Source.AsOf)))
		disc = binary.AppendUvarint(disc, str(timeText(di.Source.FetchedAt)))
	}
	rep := make([]uint64, len(replaced))
	for i, id := range replaced {
		rep[i] = str(id)
	}
	newestAt := str(timeText(newest))
	instIdx := make([][3]uint64, len(insts))
	for i, in := range insts {
		instIdx[i] = [3]uint64{str(in.provider), str(in.name), uint64(perInst[i])}
	}
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, s := range table {
		b = append(binary.AppendUvarint(b, uint64(len(s))), s...)
	}
	b = binary.AppendUvarint(b, uint64(len(instIdx)))
	for _, in := range instIdx {
		b = binary.AppendUvarint(binary.AppendUvarint(binary.AppendUvarint(b, in[0]), in[1]), in[2])
	}
	b = binary.AppendUvarint(b, uint64(len(rep)))
	for _, r := range rep {
		b = binary.AppendUvarint(b, r)
	}
	b = binary.AppendUvarint(b, newestAt)
	b = binary.AppendUvarint(b, uint64(nDisc))
	b = append(binary.AppendUvarint(b, uint64(len(disc))), disc...)
	b = binary.AppendUvarint(b, uint64(li+1))
	rows[gpu] = append(b, lists...)
	return rows, true
}

// timeText is t as stored in an overlay group: RFC 3339 with nanoseconds
// in UTC, empty for the zero time.
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// overlayChunk is how many offers of a list one row holds: the first
// rows' worth sits in the group's row, the others in rows of their own,
// read only by a read that goes that far.
const overlayChunk = 128

// overlayRow names a group's row of a list's keys (kind 'k') or of its
// offers from the chunk-th full chunk on (kind 'b'); the group's own row
// is its GPU model's ID.
func overlayRow(gpu string, kind byte, list, chunk int) string {
	return gpu + "\x00" + string(kind) + strconv.Itoa(list) + "." + strconv.Itoa(chunk)
}

// DecodeOverlayGroup reads the row of a group (gpu's); its offers are
// decoded on demand (OverlayList.Next), from rows load returns by name
// (EncodeOverlayGroup's).
func DecodeOverlayGroup(gpu string, blob []byte, load func(row string) ([]byte, error)) (*OverlayGroup, error) {
	if len(blob) == 0 || blob[0] != overlayGroupVersion {
		return nil, errOverlay
	}
	r := &packReader{b: blob, i: 1}
	g := &OverlayGroup{dates: map[uint64]time.Time{}, gpu: gpu, load: load}
	// The strings are slices of one copy of the row: one allocation.
	text := string(blob)
	n := r.uvarint()
	if n > uint64(len(blob)) {
		return nil, errOverlay
	}
	g.strs = make([]string, n)
	for i := range g.strs {
		l := r.uvarint()
		if r.err != nil || l > uint64(len(r.rest())) {
			return nil, errOverlay
		}
		g.strs[i] = text[r.i : r.i+int(l)]
		r.skip(l)
	}
	str := func() string {
		i := r.uvarint()
		if i >= uint64(len(g.strs)) {
			r.fail()
			return ""
		}
		return g.strs[i]
	}
	if n = r.uvarint(); n > uint64(len(blob)) {
		return nil, errOverlay
	}
	g.instances = make([][2]string, n)
	g.counts = make([]int, n)
	for i := range g.instances {
		g.instances[i] = [2]string{str(), str()}
		if c := r.uvarint(); c <= uint64(len(blob)) {
			g.counts[i] = int(c)
		} else {
			r.fail()
		}
	}
	if n = r.uvarint(); n > uint64(len(blob)) {
		return nil, errOverlay
	}
	g.Replaced = make([]string, n)
	for i := range g.Replaced {
		g.Replaced[i] = str()
	}
	var err error
	if g.NewestAsOf, err = parseTimeText(str()); err != nil {
		return nil, errOverlay
	}
	nd, ld := r.uvarint(), r.uvarint()
	if r.err != nil || nd > uint64(len(blob)) || ld > uint64(len(r.rest())) {
		return nil, errOverlay
	}
	end := r.i + int(ld)
	g.Discovered = make([]*catalog.DiscoveredInstance, nd)
	figures := map[[2]int64]decimal.Decimal{}
	store := make([]catalog.DiscoveredInstance, nd)
	for i := range store {
		di := &store[i]
		di.Provider, di.Name, di.GPUName = str(), str(), str()
		for _, f := range []*decimal.Decimal{&di.GPUCount, &di.GPUMemoryGiB, &di.VCPU, &di.MemoryGiB} {
			c, e := r.varint(), r.varint()
			if e < -1<<31 || e >= 1<<31 {
				return nil, errOverlay
			}
			// Machines repeat a few sizes: each built once (decimals are
			// immutable values).
			k := [2]int64{c, e}
			d, ok := figures[k]
			if !ok {
				d = decimal.New(c, int32(e))
				figures[k] = d
			}
			*f = d
		}
		di.Source.Kind = catalog.SourceKind(str())
		di.Source.Ref = str()
		var e1, e2 error
		di.Source.AsOf, e1 = parseTimeText(str())
		di.Source.FetchedAt, e2 = parseTimeText(str())
		if e1 != nil || e2 != nil {
			return nil, errOverlay
		}
		g.Discovered[i] = di
	}
	if r.err != nil || r.i != end {
		return nil, errOverlay
	}
	if n = r.uvarint(); n > uint64(len(blob)) {
		return nil, errOverlay
	}
	g.Lists = make([]OverlayList, n)
	for i := range g.Lists {
		l := &g.Lists[i]
		l.g = g
		l.Order = Order(r.uvarint())
		l.Currency = str()
		l.index = i
		count, nb := r.uvarint(), r.uvarint()
		if r.err != nil || count > 1<<40 || nb > uint64(len(r.rest())) {
			return nil, errOverlay
		}
		l.N = int(count)
		l.body = r.rest()[:nb]
		r.skip(nb)
	}
	if r.err != nil || len(r.rest()) != 0 {
		return nil, errOverlay
	}
	return g, nil
}

func parseTimeText(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

// Instances calls yield with each instance type (provider, name) of the
// group and its number of offers (in every list), in the order Count
// numbers them.
func (g *OverlayGroup) Instances(yield func(provider, name string, offers int)) {
	for i, in := range g.instances {
		yield(in[0], in[1], g.counts[i])
	}
}

// KeyTest decides which offers of a group a read wants from their
// instance type (its index in Instances' order), region (with the
// instance type's provider) and billing code; each test is asked once per
// value (OverlayGroup.Filter).
type KeyTest struct {
	Instance func(i int) bool
	Region   func(provider, code string) bool
	Billing  func(code string) bool
}

// keyMemo holds a KeyTest's answers: 0 not asked, 1 no, 2 yes.
type keyMemo struct {
	test    KeyTest
	insts   []int8
	slot    []int    // each instance type's provider's slot in regions
	regions [][]int8 // per provider slot, per string
	bills   []int8   // per string
}

// Filter sets the test that Count and Next apply to the group's offers.
func (g *OverlayGroup) Filter(t KeyTest) {
	m := &keyMemo{test: t, insts: make([]int8, len(g.instances)), slot: make([]int, len(g.instances)), bills: make([]int8, len(g.strs))}
	slots := map[string]int{}
	for i, in := range g.instances {
		s, ok := slots[in[0]]
		if !ok {
			s = len(slots)
			slots[in[0]] = s
		}
		m.slot[i] = s
	}
	m.regions = make([][]int8, len(slots))
	g.memo = m
}

// wants applies the group's filter (every offer without one); the indexes
// are in range.
func (g *OverlayGroup) wants(in, reg, bill uint64) bool {
	m := g.memo
	if m == nil {
		return true
	}
	verdict := func(ok bool) int8 {
		if ok {
			return 2
		}
		return 1
	}
	if m.insts[in] == 0 {
		m.insts[in] = verdict(m.test.Instance(int(in)))
	}
	if m.insts[in] != 2 {
		return false
	}
	rs := m.regions[m.slot[in]]
	if rs == nil {
		rs = make([]int8, len(g.strs))
		m.regions[m.slot[in]] = rs
	}
	if rs[reg] == 0 {
		rs[reg] = verdict(m.test.Region(g.instances[in][0], g.strs[reg]))
	}
	if rs[reg] != 2 {
		return false
	}
	if m.bills[bill] == 0 {
		m.bills[bill] = verdict(m.test.Billing(g.strs[bill]))
	}
	return m.bills[bill] == 2
}

// Count counts the offers the list has not examined (Next) that the
// group's filter wants, without decoding them.
func (l *OverlayList) Count() (int, error) {
	g := l.g
	if l.keys == nil {
		b, err := g.load(overlayRow(g.gpu, 'k', l.index, 0))
		if err != nil {
			return 0, err
		}
		l.keys = b
	}
	r := &packReader{b: l.keys}
	n := 0
	for k := 0; k < l.N; k++ {
		in, reg, bill := r.uvarint(), r.uvarint(), r.uvarint()
		if r.err != nil || in >= uint64(len(g.instances)) || reg >= uint64(len(g.strs)) || bill >= uint64(len(g.strs)) {
			return 0, errOverlay
		}
		if k >= l.bodyAt && g.wants(in, reg, bill) {
			n++
		}
	}
	if len(r.rest()) != 0 {
		return 0, errOverlay
	}
	return n, nil
}

// Next examines the list's next n offers (fewer at its end), cheapest
// first, continuing where the previous call stopped, and decodes those
// the group's filter wants and the last one examined (whose price bounds
// the rest's).
func (l *OverlayList) Next(n int) ([]*catalog.Offer, error) {
	n = min(n, l.N-l.bodyAt)
	if n <= 0 {
		return nil, nil
	}
	g := l.g
	r := &packReader{b: l.body, i: l.bodyPos}
	var out []*catalog.Offer
	var store []catalog.Offer
	str := func() string {
		i := r.uvarint()
		if i >= uint64(len(g.strs)) {
			r.fail()
			return ""
		}
		return g.strs[i]
	}
	date := func() time.Time {
		i := r.uvarint()
		if t, ok := g.dates[i]; ok {
			return t
		}
		if i >= uint64(len(g.strs)) {
			r.fail()
			return time.Time{}
		}
		t, err := parseTimeText(g.strs[i])
		if err != nil {
			r.fail()
		}
		g.dates[i] = t
		return t
	}
	for k := 0; k < n; k++ {
		if at := l.bodyAt + k; at > 0 && at%overlayChunk == 0 && r.i == len(r.b) {
			// The next chunk, from its own row.
			b, err := g.load(overlayRow(g.gpu, 'b', l.index, at/overlayChunk-1))
			if err != nil {
				return nil, err
			}
			l.body, r = b, &packReader{b: b}
		}
		start := r.i
		in, reg, bill := r.uvarint(), r.uvarint(), r.uvarint()
		if r.err != nil || in >= uint64(len(g.instances)) || reg >= uint64(len(g.strs)) || bill >= uint64(len(g.strs)) {
			return nil, errOverlay
		}
		if !g.wants(in, reg, bill) && k < n-1 {
			for f := 0; f < 6; f++ {
				r.uvarint()
			}
			for f := 0; f < 6; f++ {
				r.varint()
			}
			if r.err != nil {
				return nil, errOverlay
			}
			continue
		}
		r.i = start
		if len(store) == 0 {
			store = make([]catalog.Offer, min(n-k, 64))
		}
		o := &store[0]
		store = store[1:]
		r.uvarint()
		o.Provider, o.InstanceName = g.instances[in][0], g.instances[in][1]
		o.RegionCode = str()
		o.Billing = catalog.Billing(str())
		o.Price.Currency = l.Currency
		o.Source.Kind = catalog.SourceKind(str())
		o.Source.Ref = str()
		o.Source.AsOf = date()
		o.Source.FetchedAt = date()
		if state, seen := str(), date(); state != "" {
			o.Stock = &catalog.Stock{State: catalog.StockState(state), Seen: seen}
		}
		for _, f := range []*decimal.Decimal{&o.Price.Hourly, &o.Price.Upfront, &o.Price.Monthly} {
			c, e := r.varint(), r.varint()
			if e < -1<<31 || e >= 1<<31 {
				return nil, errOverlay
			}
			*f = decimal.New(c, int32(e))
		}
		if r.err != nil {
			return nil, errOverlay
		}
		out = append(out, o)
	}
	l.bodyAt += n
	l.bodyPos = r.i
	if l.bodyAt == l.N && len(r.rest()) != 0 {
		return nil, errOverlay
	}
	return out, nil
}

// Examined is the number of offers Next has examined.
func (l *OverlayList) Examined() int { return l.bodyAt }

// OverlayRow returns one row of key's overlay cache by name (a group's
// further rows: see DecodeOverlayGroup).
func (db *DB) OverlayRow(ctx context.Context, key, name string) ([]byte, error) {
	var body []byte
	if err := db.r.QueryRowContext(ctx, `SELECT body FROM overlay_cache WHERE key = ? AND gpu = ?`, key, name).Scan(&body); err != nil {
		return nil, fmt.Errorf("overlay cache row: %w", err)
	}
	return body, nil
}
