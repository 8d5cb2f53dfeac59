package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/shopspring/decimal"
)

// The overlay cache: `offers` with a database answers from a validated
// form of the imports (sqlite's overlay_cache) where it can prove the
// answer equals the full read's, and reads the full way otherwise.
//
// The full way decodes every imported offer of the instance types asked
// for, validates and overlays them on the curated catalog, and keeps the
// first --limit rows. After an import, update, removal or rollback (or at
// the first read of a set of snapshots with a build and catalog, where
// none did) gpuscout does that for every imported offer once, and when
// nothing was rejected stores the offers the catalog kept, per GPU model,
// cheapest first per currency. A read then builds the catalog of the curated
// offers and only the cheapest imported ones (catalog.NewOverlaid, no
// checks: the whole set passed them), queries it, and accepts the rows
// when the last row shown is cheaper than every offer it did not decode
// (prices only grow along a list, and converting a currency keeps their
// order); else it decodes four times as many and tries again. The count
// of matches adds the offers not decoded that pass the query's filters,
// decided on their instance type, region and billing model alone
// (catalog.OfferMatcher), from the stored keys.

// overlayCacheVersion is part of every overlay cache key: change it when
// what a read keeps of the imports changes (validation, the overlay,
// discovery) in a way the build's revision would not show.
const overlayCacheVersion = "1"

// overlayUsable and overlayUnusable are the overlay cache's header rows:
// whether the full read behind it rejected nothing (unusable: reads take
// the full way, as they would without a cache).
const (
	overlayUsable   = "usable"
	overlayUnusable = "unusable"
)

// fastFirst is how many offers of each list a read decodes first: enough
// for the default limit of 30 rows with most filters.
const fastFirst = 64

// fastResult is an offers answer from the overlay cache.
type fastResult struct {
	ds    *dataset
	q     catalog.OfferQuery
	rows  []catalog.OfferRow
	total int
}

// EnvOverlayCache turns the overlay cache off when set to "off": every
// read of imports takes the full way and none writes the cache (a switch
// for an operator who suspects it; the answers are the same either way).
const EnvOverlayCache = "GPUSCOUT_OVERLAY_CACHE"

// noOverlayCache reports whether the overlay cache is off (Env or
// GPUSCOUT_OVERLAY_CACHE=off).
func (a *app) noOverlayCache() bool {
	return a.env.NoOverlayCache || strings.EqualFold(a.env.Getenv(EnvOverlayCache), "off")
}

// fastEligible says whether an offers command may be answered from the
// overlay cache: the first rows of the price order, Linux, with no filter
// the stored keys cannot decide (stock readings, a price ceiling), on the
// base catalog (Env.Catalog) with nothing overlaid.
func (a *app) fastEligible(o *offersOptions, top int) bool {
	if a.noOverlayCache() || top <= 0 || a.fromCSV || a.catalog != "" || a.prefilter != nil || o.available || o.maxPrice != 0 {
		return false
	}
	if os, ok := catalog.ParseOS(o.osName); !ok || os != catalog.OSLinux {
		return false
	}
	key, err := catalog.ParseSortKey(o.sort)
	return err == nil && (key == catalog.SortPrice || key == catalog.SortGPUPrice)
}

// overlayKey is the overlay cache key of the database's snapshots with
// this build and catalog; empty when there is none to use.
func (a *app) overlayKey(ctx context.Context, db *sqlite.DB) (string, error) {
	snaps, err := db.OverlayKey(ctx)
	if err != nil || snaps == "" {
		return "", err
	}
	fp, ok := curated.Fingerprint(a.env.Catalog)
	if !ok {
		return "", nil
	}
	rev := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				rev += " " + s.Value
			}
		}
	}
	return "v" + overlayCacheVersion + " " + rev + " build " + buildID() + " catalog " + fp + " snapshots " + snaps, nil
}

// buildID is the Go build ID of the running executable (the linker writes
// it near the start of the file), which changes with any change to the
// code: a cache written by another build of gpuscout is not read. Empty
// when it cannot be read; the revision and overlayCacheVersion remain.
func buildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 16<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	// ELF: the note .note.go.buildid (name size 4, descriptor size, type
	// 4, name "Go"). Elsewhere the string the linker puts at the start of
	// the text.
	const note = "\x04\x00\x00\x00Go\x00\x00"
	if i := bytes.Index(head, []byte(note)); i >= 4 {
		size := int(binary.LittleEndian.Uint32(head[i-4:]))
		if desc := head[i+len(note):]; size <= len(desc) {
			return string(desc[:size])
		}
	}
	const marker = "\xff Go build ID: \""
	i := bytes.Index(head, []byte(marker))
	if i < 0 {
		return ""
	}
	id := head[i+len(marker):]
	end := bytes.IndexByte(id, '"')
	if end < 0 {
		return ""
	}
	return string(id[:end])
}

// fastOffers answers offers from the overlay cache; ok is false when it
// cannot (then nothing was printed and the full read answers, errors
// included). The first eligible read of a set of snapshots with no cache
// writes it and answers the full way.
func (a *app) fastOffers(o *offersOptions, top int) (res fastResult, ok bool) {
	if !a.fastEligible(o, top) {
		return res, false
	}
	ctx := context.Background()
	db, err := a.openDB(ctx, false)
	if err != nil || db == nil {
		return res, false // the full read reports a database error
	}
	defer db.Close()
	key, err := a.overlayKey(ctx, db)
	if err != nil || key == "" {
		return res, false
	}
	d, baseRates, rates, left, err := a.curatedData()
	if err != nil {
		return res, false // the full read reports it
	}
	var want map[string]bool
	if len(a.onlyGPUs) > 0 {
		if want = catalog.GPUsForNames(&d, a.onlyGPUs); want == nil {
			return res, false // an unknown name: the full read says so
		}
	} else {
		want = make(map[string]bool, len(d.GPUs))
		for _, g := range d.GPUs {
			want[g.ID] = true
		}
	}
	gpus := make([]string, 0, len(want))
	for g := range want {
		gpus = append(gpus, g)
	}
	sort.Strings(gpus)
	header, blobs, found, err := db.OverlayCache(ctx, key, gpus)
	if err != nil {
		return res, false
	}
	if !found {
		// A read-only copy cannot keep one: its reads take the full way.
		if !db.ReadOnly() {
			a.buildOverlayCache(ctx, db, rates)
		}
		return res, false
	}
	if string(header) != overlayUsable {
		return res, false
	}
	groups := make([]*sqlite.OverlayGroup, 0, len(blobs))
	for _, gpu := range gpus {
		b, ok := blobs[gpu]
		if !ok {
			continue
		}
		g, err := sqlite.DecodeOverlayGroup(gpu, b, func(row string) ([]byte, error) { return db.OverlayRow(ctx, key, row) })
		if err != nil {
			return res, false
		}
		groups = append(groups, g)
	}
	// The instance types the groups' offers are of join the catalog as a
	// full read discovers them.
	// In ID order, which the catalog keeps instance types in: the
	// catalog then need not sort them. Each group's are in that order.
	var discover []*catalog.DiscoveredInstance
	for _, g := range groups {
		discover = append(discover, g.Discovered...)
	}
	slices.SortStableFunc(discover, func(a, b *catalog.DiscoveredInstance) int {
		return catalog.CompareInstanceIDs(a.Provider, a.Name, b.Provider, b.Name)
	})
	catalog.Discover(&d, discover, nil)
	have := make(map[[2]string]string, len(d.Instances))
	for _, it := range d.Instances {
		have[[2]string{it.Provider, it.Name}] = it.GPUID
	}
	for _, g := range groups {
		stale := false
		g.Instances(func(provider, name string, _ int) {
			if gpu, ok := have[[2]string{provider, name}]; !ok || !want[gpu] {
				stale = true
			}
		})
		if stale {
			return res, false
		}
		for i := range g.Lists {
			if _, ok := rates.Rate(g.Lists[i].Currency); !ok {
				return res, false
			}
		}
	}
	replaced := map[string]bool{}
	newest := left.NewestAsOf
	for _, g := range groups {
		for _, id := range g.Replaced {
			replaced[id] = true
		}
		if g.NewestAsOf.After(newest) {
			newest = g.NewestAsOf
		}
	}
	a.rates = rates
	// The query, and which stored offers it can match: the catalog of the
	// curated offers alone resolves names and holds every instance type
	// and region the groups' offers are of.
	base, err := catalog.NewOverlaid(d, replaced, nil)
	if err != nil {
		return res, false
	}
	c := base
	q, err := a.buildOfferQuery(c, o)
	if err != nil {
		return res, false // the full read reports it, after its warnings
	}
	m := q.Matcher()
	for _, g := range groups {
		var insts []*catalog.InstanceType
		g.Instances(func(provider, name string, _ int) {
			it, _ := c.Instance(provider + "/" + name)
			insts = append(insts, it)
		})
		g.Filter(sqlite.KeyTest{
			Instance: func(i int) bool { return insts[i] != nil && m.Instance(insts[i]) },
			Region: func(provider, code string) bool {
				r, ok := c.Region(provider, code)
				return ok && m.Region(code, r)
			},
			Billing: func(code string) bool { return m.Billing(catalog.Billing(code)) },
		})
	}
	// The lists in the order of the query's.
	order := sqlite.OrderPrice
	if q.Sort == catalog.SortGPUPrice {
		order = sqlite.OrderGPUPrice
	}
	var lists []*sqlite.OverlayList
	for _, g := range groups {
		for i := range g.Lists {
			if g.Lists[i].Order == order {
				lists = append(lists, &g.Lists[i])
			}
		}
	}
	var imported []*catalog.Offer
	last := map[*sqlite.OverlayList]*catalog.Offer{} // each list's last offer examined
	for step := fastFirst; ; step *= 4 {
		for _, l := range lists {
			next, err := l.Next(step - l.Examined())
			if err != nil {
				return res, false
			}
			if len(next) > 0 {
				last[l] = next[len(next)-1]
			}
			imported = append(imported, next...)
		}
		if c, err = base.WithOffers(imported); err != nil {
			return res, false
		}
		rows, total, err := c.QueryOffersTop(q, top)
		if err != nil || len(rows) == 0 {
			return res, false // no match: the full read's notes need every offer
		}
		exact, rest, err := restCount(c, q, groups, lists, last, imported, rows, top)
		if err != nil {
			return res, false
		}
		if !exact {
			continue
		}
		left.NewestAsOf = newest
		ds := &dataset{Catalog: c, FX: rates, baseFX: baseRates, curated: d.Offers, left: left,
			Imports: &catalog.OverlayReport{}}
		a.ds = ds
		a.event("overlay-cache-hit")
		if !a.warned {
			a.warned = true
			a.staleWarning(ds)
		}
		return fastResult{ds: ds, q: q, rows: rows, total: total + rest}, true
	}
}

// restCount decides whether rows, the first top rows of the catalog built
// with the offers the lists decoded, are the first rows of the catalog of
// every offer: they are when every list is decoded, or when the last row
// is cheaper than the last offer decoded of each list with more (the
// offers not decoded cost at least that much). Then it counts the offers
// not decoded that match q.
func restCount(c *catalog.Catalog, q catalog.OfferQuery, groups []*sqlite.OverlayGroup, lists []*sqlite.OverlayList, last map[*sqlite.OverlayList]*catalog.Offer, imported []*catalog.Offer, rows []catalog.OfferRow, top int) (exact bool, rest int, err error) {
	var bound *catalog.OfferRow
	if len(rows) == top {
		bound = &rows[len(rows)-1]
	}
	for _, l := range lists {
		if l.Examined() == l.N {
			continue
		}
		if bound == nil {
			return false, 0, nil
		}
		// The value the query sorts on, of the last row and of the last
		// offer examined (each list's offers only get dearer).
		var p, b decimal.Decimal
		if q.Sort == catalog.SortGPUPrice {
			p, err = q.SortGPUPrice(last[l])
			b = bound.PerGPUHourly
		} else {
			p, err = q.SortPrice(last[l])
			b = bound.EffectiveHourly
		}
		if err != nil {
			return false, 0, err
		}
		if !b.LessThan(p) {
			return false, 0, nil
		}
	}
	m := q.Matcher()
	if m.InstanceOnly() {
		// Every offer of an instance type that matches was decoded when
		// examined: the others are its offers less those decoded.
		decoded := map[[2]string]int{}
		for _, o := range imported {
			decoded[[2]string{o.Provider, o.InstanceName}]++
		}
		for _, g := range groups {
			g.Instances(func(provider, name string, offers int) {
				if it, ok := c.Instance(provider + "/" + name); ok && m.Instance(it) {
					rest += offers - decoded[[2]string{provider, name}]
				}
			})
		}
		return true, rest, nil
	}
	for _, l := range lists {
		n, err := l.Count()
		if err != nil {
			return false, 0, err
		}
		rest += n
	}
	return true, rest, nil
}

// warmOverlayCache writes the overlay cache of the database's snapshots
// after an import, update, removal or rollback changed them, so that no
// read pays for it; it is best effort and silent (a read writes it
// otherwise). rates are the exchange rates of the command (nil: the
// catalog's, with --fx).
func (a *app) warmOverlayCache(ctx context.Context, rates *fx.Table) {
	if a.noOverlayCache() || a.catalog != "" || a.fromCSV || a.dbReadOnly {
		return
	}
	if rates == nil {
		var err error
		if _, _, rates, _, err = a.curatedData(); err != nil {
			return
		}
	}
	db, err := a.openDB(ctx, false)
	if err != nil || db == nil {
		return
	}
	defer db.Close()
	key, err := a.overlayKey(ctx, db)
	if err != nil || key == "" {
		return
	}
	if _, _, found, err := db.OverlayCache(ctx, key, nil); err != nil || found {
		return
	}
	a.buildOverlayCache(ctx, db, rates)
}

// buildOverlayCache reads every imported offer the full way and stores
// what the catalog kept as the overlay cache of the database's snapshots,
// unless they change meanwhile or the database is read-only. It is best
// effort: a read answers the same without it.
func (a *app) buildOverlayCache(ctx context.Context, db *sqlite.DB, rates *fx.Table) {
	watch, err := db.WatchChanges(ctx)
	if err != nil {
		return
	}
	defer watch.Close()
	key, err := a.overlayKey(ctx, db)
	if err != nil || key == "" {
		return
	}
	header, groups := a.overlayRows(ctx, db, rates)
	if saved, err := db.SaveOverlayCache(ctx, watch, key, []byte(header), groups); err == nil && saved {
		a.event("overlay-cache-built")
	}
}

// overlayRows reads every imported offer the full way and returns the
// overlay cache's rows: the header, and per GPU model the offers the
// catalog kept (none when anything was rejected).
func (a *app) overlayRows(ctx context.Context, db *sqlite.DB, rates *fx.Table) (string, map[string][]byte) {
	d, _, err := curated.LoadData(a.env.Catalog, nil)
	if err != nil {
		return overlayUnusable, nil
	}
	im, err := db.LatestImportsWith(ctx, sqlite.ReadOptions{Choose: func(found []*catalog.DiscoveredInstance) sqlite.OfferFilter {
		catalog.Discover(&d, found, nil)
		return nil
	}})
	if err != nil {
		return overlayUnusable, nil
	}
	curatedOffers := d.Offers
	known := func(cur string) bool { _, ok := rates.Rate(cur); return ok }
	c, rep, err := catalog.NewWithImports(d, im.Offers, im.Bands, known)
	if err != nil || len(rep.Rejected) > 0 {
		return overlayUnusable, nil
	}
	imported := make(map[*catalog.Offer]bool, len(im.Offers))
	for _, o := range im.Offers {
		imported[o] = true
	}
	byGPU := map[string][]*catalog.Offer{}
	for _, o := range c.Offers() {
		if imported[o] {
			byGPU[o.Instance.GPUID] = append(byGPU[o.Instance.GPUID], o)
		}
	}
	replaced := map[string][]string{}
	for _, co := range curatedOffers {
		if co.OS != catalog.OSLinux {
			continue
		}
		o, ok := c.Offer(co.ID())
		if !ok {
			return overlayUnusable, nil // a curated offer left out
		}
		if o != co {
			replaced[o.Instance.GPUID] = append(replaced[o.Instance.GPUID], co.ID())
		}
	}
	rows := map[string][]byte{}
	add := func(gpu string, offers []*catalog.Offer) bool {
		g, ok := sqlite.EncodeOverlayGroup(gpu, offers, replaced[gpu], im.Instances)
		for name, b := range g {
			rows[name] = b
		}
		return ok
	}
	for gpu, offers := range byGPU {
		if !add(gpu, offers) {
			return overlayUnusable, nil
		}
	}
	for gpu := range replaced {
		if _, ok := byGPU[gpu]; !ok && !add(gpu, nil) {
			return overlayUnusable, nil
		}
	}
	return overlayUsable, rows
}

// event tells Env.Event, when set, of the read path taken.
func (a *app) event(name string) {
	if a.env.Event != nil {
		a.env.Event(name)
	}
}
