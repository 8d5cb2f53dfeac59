package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/importer"
	"github.com/gpuscout/gpuscout/internal/importer/alibaba"
	"github.com/gpuscout/gpuscout/internal/importer/aws"
	"github.com/gpuscout/gpuscout/internal/importer/azure"
	"github.com/gpuscout/gpuscout/internal/importer/baidu"
	"github.com/gpuscout/gpuscout/internal/importer/digitalocean"
	"github.com/gpuscout/gpuscout/internal/importer/gcp"
	"github.com/gpuscout/gpuscout/internal/importer/huawei"
	"github.com/gpuscout/gpuscout/internal/importer/hyperstack"
	"github.com/gpuscout/gpuscout/internal/importer/lambda"
	"github.com/gpuscout/gpuscout/internal/importer/oci"
	"github.com/gpuscout/gpuscout/internal/importer/runpod"
	"github.com/gpuscout/gpuscout/internal/importer/skypilot"
	"github.com/gpuscout/gpuscout/internal/importer/tencent"
	"github.com/gpuscout/gpuscout/internal/importer/vast"
	"github.com/gpuscout/gpuscout/internal/importer/verda"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/server"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// dbPath is the database the run uses: --db, else the user's data directory.
func (a *app) dbPath() string {
	if a.db != "" {
		return a.db
	}
	if d := a.env.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "gpuscout", "gpuscout.db")
	}
	if h := a.env.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "gpuscout", "gpuscout.db")
	}
	return ""
}

// openDB opens the database, creating it when create is true; nil (no
// error) when it does not exist and create is false.
func (a *app) openDB(ctx context.Context, create bool) (*sqlite.DB, error) {
	p := a.dbPath()
	if p == "" {
		if create {
			return nil, usagef("pass --db PATH.", "no database path: HOME and XDG_DATA_HOME are not set")
		}
		return nil, nil
	}
	if !create {
		if _, err := os.Stat(p); err != nil {
			return nil, nil
		}
	}
	if a.dbReadOnly {
		if create {
			return nil, usagef("write to the update job's database, not to a published snapshot.", "the database %s is opened read-only (--db-read-only)", p)
		}
		db, err := sqlite.OpenReadOnly(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
		return db, nil
	}
	db, err := sqlite.Open(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return db, nil
}

// importers maps an import SOURCE to its importer.
func (a *app) importer(source, file, cloud string) (importer.Importer, error) {
	now := a.env.Now
	switch source {
	case "aws":
		return &aws.Offers{Ref: filepath.Base(file), Now: now}, nil
	case "aws-savings-plans":
		return &aws.SavingsPlans{Ref: filepath.Base(file), Now: now}, nil
	case "aws-spot-history":
		return &aws.SpotHistory{Ref: filepath.Base(file), Now: now}, nil
	case "aws-spot-advisor":
		return &aws.SpotAdvisor{Now: now}, nil
	}
	if imp, ok, err := a.moreImporters(source, file, cloud); ok || err != nil {
		return imp, err
	}
	return nil, usagef("sources: "+strings.Join(importSources, ", ")+".", "unknown import source %q", source)
}

var importSources = []string{"aws", "aws-savings-plans", "aws-spot-history", "aws-spot-advisor", "azure", "gcp", "alibaba", "tencent", "huawei", "baidu", "vast", "lambda", "runpod", "digitalocean", "oci", "hyperstack", "verda", "skypilot"}

// progress draws "source: 12.3 MB read (45.6 MB/s), 789 records" on
// stderr when it is a terminal (nil otherwise).
func (a *app) progress(source string) importer.Progress {
	f, ok := a.io.Err.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	start := time.Now()
	return func(n int64, records int) {
		fmt.Fprint(a.io.Err, "\r"+progressRead(a.printer, source, n, records, time.Since(start))+"\x1b[K")
	}
}

// storeProgress draws "source: 12.3 MB read, 456 offers stored (789
// offers/s)" on stderr when it is a terminal, for a streamed import's
// writing (nil otherwise); read is the bytes read.
func (a *app) storeProgress(source string, read func() int64) func(stored int) {
	f, ok := a.io.Err.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	var start time.Time
	return func(stored int) {
		if start.IsZero() {
			start = time.Now()
		}
		fmt.Fprint(a.io.Err, "\r"+progressStored(a.printer, source, read(), stored, time.Since(start))+"\x1b[K")
	}
}

// progressRead is the progress line of reading: bytes read, their rate,
// records.
func progressRead(p *i18n.Printer, source string, n int64, records int, took time.Duration) string {
	mb := float64(n) / (1 << 20)
	return p.T("import.progress.read", source, mb, mb/max(took.Seconds(), 0.001), records)
}

// progressStored is the progress line of a streamed import's writing.
func progressStored(p *i18n.Printer, source string, n int64, stored int, took time.Duration) string {
	return p.T("import.progress.stored", source, float64(n)/(1<<20), stored, float64(stored)/max(took.Seconds(), 0.001))
}

func (a *app) catalogImportCmd() *cobra.Command {
	var file, cloud string
	var allowShrink bool
	cmd := &cobra.Command{
		Use:   "import SOURCE --file F",
		Short: "Import a price file from a provider's own source into the database (offline)",
		Long: `Import a price file (or a recorded API response) into the database as a new snapshot. SOURCE is
one of: ` + strings.Join(importSources, ", ") + `.

An import is one transaction: a malformed, truncated or cancelled file leaves the database as it
was. Every figure is checked as the catalog validator checks it: an offer without a region, with a
negative price or one above 10,000 USD per GPU-hour is skipped, counted and reported; a currency the
exchange-rate table does not know refuses the whole file. An import with no offers left is refused,
and so is one with fewer than half the offers of the source's previous snapshot unless
--allow-shrink is given. Every read command then uses the catalog overlaid with the newest snapshot of each source
(imported prices win; the curated catalog fills the gaps). The database is --db, by default in
your data directory.`,
		Example: `  gpuscout catalog import aws --file us-east-1-index.json
  gpuscout catalog import aws-spot-history --file spot.json --db ./prices.db
  gpuscout catalog import skypilot --cloud lambda --file vms.csv`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if file == "" {
				return usagef("", "--file is required")
			}
			ds, err := a.data()
			if err != nil {
				return err
			}
			imp, err := a.importer(args[0], file, cloud)
			if err != nil {
				return err
			}
			if st, ok := imp.(importer.Streamer); ok {
				if err := a.importStream(cmd.Context(), ds, imp.Name(), st, args[0], file, allowShrink); err != nil {
					return err
				}
				a.warmOverlayCache(cmd.Context(), ds.FX)
				return nil
			}
			f, err := os.Open(file)
			if err != nil {
				return usagef("", "%v", err)
			}
			defer f.Close()
			h := sha256.New()
			res, err := imp.Parse(cmd.Context(), io.TeeReader(f, h), a.progress(args[0]))
			if a.progress(args[0]) != nil {
				fmt.Fprintln(a.io.Err)
			}
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return fmt.Errorf("import cancelled: nothing was stored")
				}
				return importError(args[0], file, err)
			}
			if err := a.checker(ds, file).Check(res); err != nil {
				return importError(args[0], file, err)
			}
			if err := a.store(cmd.Context(), res, hex.EncodeToString(h.Sum(nil)), filepath.Base(file), allowShrink); err != nil {
				return importError(args[0], file, err)
			}
			a.warmOverlayCache(cmd.Context(), ds.FX)
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "the file to import")
	cmd.Flags().BoolVar(&allowShrink, "allow-shrink", false, "store the import even when it holds fewer than half the offers of the source's previous snapshot")
	cmd.Flags().StringVar(&cloud, "cloud", "", "for skypilot: the cloud of the vms.csv (aws, azure, gcp, lambda, oci ...)")
	return cmd
}

// store saves an import and reports it, with every skipped record counted
// by reason.
func (a *app) store(ctx context.Context, res *importer.Result, checksum, ref string, allowShrink bool) error {
	db, err := a.openDB(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	snap, err := db.SaveImport(ctx, res, checksum, ref, a.env.Now(), sqlite.SaveOptions{AllowShrink: allowShrink, Usable: a.usable(res),
		Waiting: a.waiting(db)})
	if err != nil {
		a.printRefused(res)
		return err
	}
	return a.reportImport(res, snap, db.Path(), a.discovery(res))
}

// importStream imports a file whose importer hands its offers over one at
// a time: each is checked and written as it comes, in one transaction
// (nothing is stored when the file, a figure or the store fails), so the
// file's offers are never all held in memory.
func (a *app) importStream(ctx context.Context, ds *dataset, name string, st importer.Streamer, source, file string, allowShrink bool) error {
	f, err := os.Open(file)
	if err != nil {
		return usagef("", "%v", err)
	}
	defer f.Close()
	db, err := a.openDB(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	// The import's garbage (each batch's bound values) is collected at
	// half the live heap rather than all of it: what it holds stays
	// small (identifiers, not offers), and so does its peak.
	defer debug.SetGCPercent(debug.SetGCPercent(importGCPercent))
	chk := a.checker(ds, file)
	described := map[[2]string]bool{} // filled once the file is read, before the first offer
	perInstance := map[[2]string]int{}
	prog := a.progress(source)
	var read int64
	emitted := 0
	stored := a.storeProgress(source, func() int64 { return read })
	var cur *importer.Result
	checked := 0
	snap, res, err := db.SaveStream(ctx, sqlite.StreamImport{Source: name, Ref: filepath.Base(file), FetchedAt: a.env.Now(),
		Run: func(emit func(*catalog.Offer) error) (*importer.Result, string, error) {
			h := sha256.New()
			count := &importer.CountingReader{R: f}
			res, err := st.Stream(ctx, io.TeeReader(count, h), prog, importer.Sink{
				Read: func(r *importer.Result) error {
					cur, read = r, count.N
					if err := chk.Check(r); err != nil { // its instances and bands
						return err
					}
					for _, it := range r.Instances {
						described[[2]string{it.Provider, it.Name}] = true
					}
					return nil
				},
				Offer: func(o *catalog.Offer) error {
					checked++
					reason, id, err := chk.CheckOffer(o)
					if err != nil {
						return err
					}
					if reason != "" {
						cur.Skipped.Add(reason, id)
						return nil
					}
					perInstance[[2]string{o.Provider, o.InstanceName}]++
					if stored != nil && emitted%(1<<16) == 0 {
						stored(emitted)
					}
					emitted++
					return emit(o)
				},
			})
			if err == nil && res != nil {
				err = importer.TooManyBelowReference(file, res.Skipped, checked)
			}
			return res, hex.EncodeToString(h.Sum(nil)), err
		}},
		sqlite.SaveOptions{AllowShrink: allowShrink, Usable: a.usableWith(described), Waiting: a.waiting(db)})
	if stored != nil && err == nil {
		stored(emitted)
	}
	if prog != nil {
		fmt.Fprintln(a.io.Err)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("import cancelled: nothing was stored")
		}
		if res != nil {
			a.printRefused(res)
		}
		return importError(source, file, err)
	}
	var disc *catalog.DiscoveryReport
	if len(res.Instances) > 0 {
		if rep := a.discoverInstances(res.Instances); rep != nil {
			counts := make(map[string]int, len(perInstance))
			for k, n := range perInstance {
				counts[k[0]+"/"+k[1]] = n
			}
			rep.CountOffers(counts)
			disc = rep
		}
	}
	return a.reportImport(res, snap, db.Path(), disc)
}

// importGCPercent is the garbage collector's target (GOGC) during a
// streamed import.
const importGCPercent = 50

// waiting tells the user that an import waits for another one's lock.
func (a *app) waiting(db *sqlite.DB) func() {
	return func() { fmt.Fprintln(a.io.Err, a.printer.T("import.waiting_lock", db.Path())) }
}

// printRefused says, for an import that was refused, what was skipped,
// which is usually why.
func (a *app) printRefused(res *importer.Result) {
	if n := res.Skipped.Total(); n > 0 {
		fmt.Fprintln(a.io.Err, a.printer.T("import.skipped", n))
		for _, l := range res.Skipped.LinesWith(a.skipReason) {
			fmt.Fprintln(a.io.Err, "  "+l)
		}
	}
}

// reportImport reports a stored import, with every skipped record counted
// by reason and what reads will make of the machines it describes.
func (a *app) reportImport(res *importer.Result, snap sqlite.Snapshot, path string, disc *catalog.DiscoveryReport) error {
	if a.out == output.JSON {
		doc := map[string]any{"schema": "gpuscout/import@v1", "snapshot": snap.ID, "source": snap.Source, "scope": snap.Scope,
			"offers": snap.Offers, "bands": snap.Bands, "skipped_total": snap.Skipped, "skipped": res.Skipped.Lines(), "checksum": snap.Checksum, "database": path}
		if disc != nil {
			doc["discovered_instance_types"] = orEmpty(disc.Added)
			type unresolved struct {
				Provider   string   `json:"provider"`
				GPUName    string   `json:"gpu_name"`
				Reason     string   `json:"reason"`
				Candidates []string `json:"candidates,omitempty"`
				Offers     int      `json:"offers"`
				Instances  []string `json:"instance_types"`
			}
			list := []unresolved{}
			for _, u := range disc.Unresolved {
				list = append(list, unresolved{u.Provider, u.GPUName, u.Reason, u.Candidates, u.Offers, u.Instances})
			}
			doc["unresolved_gpus"] = list
		}
		return output.WriteJSON(a.io.Out, doc)
	}
	fmt.Fprintln(a.io.Out, a.printer.T("import.done", snap.Source, snap.ID, path, snap.Offers, snap.Bands))
	if snap.Skipped > 0 {
		fmt.Fprintln(a.io.Out, a.printer.T("import.skipped", snap.Skipped))
	}
	for _, l := range res.Skipped.LinesWith(a.skipReason) {
		fmt.Fprintln(a.io.Out, "  "+l)
	}
	if disc != nil {
		a.printDiscovery(disc)
	}
	return nil
}

// usable reports whether reads will use an imported record: its region
// is in the catalog, and its instance type too or described by the import
// itself. Nil (count everything) when the catalog cannot be loaded.
func (a *app) usable(res *importer.Result) func(provider, instance, region string) bool {
	described := map[[2]string]bool{}
	for _, it := range res.Instances {
		described[[2]string{it.Provider, it.Name}] = true
	}
	return a.usableWith(described)
}

// usableWith is usable with the instance types the import describes
// (provider and name), read at each call.
func (a *app) usableWith(described map[[2]string]bool) func(provider, instance, region string) bool {
	ds, err := a.data()
	if err != nil || ds.Catalog == nil {
		return nil
	}
	return func(provider, instance, region string) bool {
		if _, ok := ds.Catalog.Region(provider, region); !ok {
			return false
		}
		if described[[2]string{provider, instance}] {
			return true
		}
		_, ok := ds.Catalog.Instance(provider + "/" + instance)
		return ok
	}
}

// discovery is what reads will make of the machines an import describes:
// the instance types it adds to the catalog in use and the GPU names it
// cannot resolve (nil when the import describes none, or the catalog
// cannot be loaded).
func (a *app) discovery(res *importer.Result) *catalog.DiscoveryReport {
	if len(res.Instances) == 0 {
		return nil
	}
	rep := a.discoverInstances(res.Instances)
	if rep != nil {
		perInstance := map[string]int{}
		for _, o := range res.Offers {
			perInstance[o.Provider+"/"+o.InstanceName]++
		}
		rep.CountOffers(perInstance)
	}
	return rep
}

// discoverInstances is what reads will make of the machines found, with
// no offers counted (nil when the catalog cannot be loaded).
func (a *app) discoverInstances(found []*catalog.DiscoveredInstance) *catalog.DiscoveryReport {
	ds, err := a.data()
	if err != nil {
		return nil
	}
	c := ds.Catalog
	d := catalog.Data{Providers: c.Providers(), GPUs: c.GPUs(), Instances: append([]*catalog.InstanceType(nil), c.Instances()...)}
	rep := catalog.Discover(&d, found, nil)
	return &rep
}

// maxDiscoveredShown bounds the instance types named in the import report.
const maxDiscoveredShown = 12

// printDiscovery reports the instance types an import adds and the GPU
// names it could not resolve, with the offers each concerns.
func (a *app) printDiscovery(rep *catalog.DiscoveryReport) {
	p := a.printer
	if n := len(rep.Added); n > 0 {
		names := rep.Added
		if n > maxDiscoveredShown {
			names = append(append([]string(nil), names[:maxDiscoveredShown]...), "...")
		}
		fmt.Fprintln(a.io.Out, p.T("import.discovered", n, strings.Join(names, ", ")))
	}
	for _, u := range rep.Unresolved {
		ex := u.Instances
		if len(ex) > 3 {
			ex = ex[:3]
		}
		if u.Reason == catalog.GPUAmbiguous {
			fmt.Fprintln(a.io.Out, "  "+p.T("import.unresolved_ambig", u.GPUName, u.Provider, strings.Join(u.Candidates, ", "), u.Offers, len(u.Instances), strings.Join(ex, ", ")))
		} else {
			fmt.Fprintln(a.io.Out, "  "+p.T("import.unresolved_unknown", u.GPUName, u.Provider, u.Offers, len(u.Instances), strings.Join(ex, ", ")))
		}
	}
	if n := len(rep.Invalid); n > 0 {
		fmt.Fprintln(a.io.Out, "  "+p.T("import.discovery_invalid", n, rep.Invalid[0]))
	}
}

// orEmpty is s, or an empty list (JSON [] rather than null).
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (a *app) catalogHistoryCmd() *cobra.Command {
	var offer string
	cmd := &cobra.Command{
		Use:     "history --offer ID",
		Short:   "How an offer's price moved across imported snapshots (and the curated catalog)",
		Example: `  gpuscout catalog history --offer aws/p4d.24xlarge/us-east-1/on-demand`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if offer == "" {
				return usagef("", "--offer is required")
			}
			ds, err := a.data()
			if err != nil {
				return err
			}
			doc, err := a.priceHistory(cmd.Context(), ds.curatedOffer, offer)
			if err != nil {
				return jobInputError(err)
			}
			if len(doc.Points) == 0 {
				return usagef("check the ID with gpuscout offers -o json.", "no price history for %s", offer)
			}
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, doc)
			}
			g := &output.Grid{Headers: []string{"SNAPSHOT", a.printer.T("col.as_of"), "FETCHED", a.printer.T("col.price"), a.printer.T("col.source")},
				Align: []output.Align{output.Right, output.Left, output.Left, output.Right, output.Left}}
			var vals []decimal.Decimal
			for _, r := range doc.Points {
				snap := "curated"
				if r.Snapshot > 0 {
					snap = strconv.FormatInt(r.Snapshot, 10)
				}
				v, _ := decimal.NewFromString(r.Effective.String())
				vals = append(vals, v)
				g.Add(snap, r.AsOf, orDash(r.FetchedAt), money(v)+" "+r.Currency+"/h", shortRef(r.Source))
			}
			if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
				return err
			}
			if a.out == output.Table && len(vals) > 1 {
				first, last := vals[0], vals[len(vals)-1]
				change := "0"
				if first.IsPositive() {
					change = last.Sub(first).Div(first).Mul(decimal.NewFromInt(100)).Round(1).String()
				}
				fmt.Fprintf(a.io.Out, "\n%s  %s%%\n", sparkline(vals), change)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&offer, "offer", "", "offer ID")
	return cmd
}

// priceHistory is an offer's price in the curated catalog (looked up with
// curated) and in every imported snapshot of the database, if there is one.
// No price at all is an empty document, not an error.
func (a *app) priceHistory(ctx context.Context, curated func(string) (*catalog.Offer, bool), offer string) (document.PriceHistory, error) {
	db, err := a.openDB(ctx, false)
	if err != nil {
		return document.PriceHistory{}, err
	}
	var records []document.PriceRecord
	if db != nil {
		defer db.Close()
		points, err := db.History(ctx, offer)
		if err != nil {
			return document.PriceHistory{}, &document.InputError{Field: "offer", Err: err}
		}
		for _, p := range points {
			records = append(records, document.PriceRecord{Snapshot: p.Snapshot, FetchedAt: p.FetchedAt, Offer: p.Offer})
		}
	}
	cur, _ := curated(offer)
	return document.BuildPriceHistory(offer, cur, records), nil
}

// historySource answers the server's price-history questions as catalog
// history does: from the curated catalog (loaded once, on the first
// question) and the database, opened for each question so that snapshots
// imported while serving are seen. It shares nothing mutable with the
// server's reloads.
func (a *app) historySource() server.HistorySource {
	var once sync.Once
	var curatedOffers map[string]*catalog.Offer
	var loadErr error
	return server.HistoryFunc(func(ctx context.Context, offer string) (document.PriceHistory, error) {
		once.Do(func() { curatedOffers, loadErr = a.curatedOffers() })
		if loadErr != nil {
			return document.PriceHistory{}, loadErr
		}
		return a.priceHistory(ctx, func(id string) (*catalog.Offer, bool) { o, ok := curatedOffers[id]; return o, ok }, offer)
	})
}

// curatedOffers loads the curated catalog (embedded, overlaid with --catalog)
// by offer ID, without imports.
func (a *app) curatedOffers() (map[string]*catalog.Offer, error) {
	var over fs.FS
	if a.catalog != "" {
		over = os.DirFS(a.catalog)
	}
	d, _, err := curated.LoadData(a.env.Catalog, over)
	if err != nil {
		return nil, &dataError{err: prefixCatalog(a.catalog, err)}
	}
	out := make(map[string]*catalog.Offer, len(d.Offers))
	for _, o := range d.Offers {
		out[o.ID()] = o
	}
	return out, nil
}

// PriceHistorySource is the price history gpuscout serve answers from, for
// a database at db (and the curated catalog of env, overlaid with the
// catalog directory when not empty): the same answers as gpuscout catalog
// history --db db -o json.
func PriceHistorySource(env Env, db, catalogDir string) server.HistorySource {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Catalog == nil {
		env.Catalog = curated.Embedded()
	}
	a := &app{env: env, db: db, catalog: catalogDir}
	return a.historySource()
}

func (a *app) catalogDiffCmd() *cobra.Command {
	var from, to int64
	cmd := &cobra.Command{
		Use:   "diff [--from N --to M]",
		Short: "What changed between two snapshots (default: the two newest of the newest snapshot's scope)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := a.data(); err != nil {
				return err
			}
			db, err := a.openDB(cmd.Context(), false)
			if err != nil {
				return err
			}
			if db == nil {
				return usagef("import data first with gpuscout catalog import.", "no database at %s", a.dbPath())
			}
			defer db.Close()
			if from == 0 || to == 0 {
				snaps, err := db.Snapshots(cmd.Context())
				if err != nil {
					return err
				}
				var same []sqlite.Snapshot
				for _, s := range snaps {
					if s.Scope == snaps[0].Scope {
						same = append(same, s)
					}
				}
				if len(same) < 2 {
					return usagef("import the same source (and region) twice, or pass --from and --to.", "need two snapshots of one scope to compare")
				}
				to, from = same[0].ID, same[1].ID
			}
			changes, err := db.Diff(cmd.Context(), from, to)
			if err != nil {
				return usagef("list snapshots with gpuscout catalog snapshots.", "%v", err)
			}
			type row struct {
				Offer string       `json:"offer"`
				Kind  string       `json:"kind"`
				Old   *json.Number `json:"old_effective_hourly"`
				New   *json.Number `json:"new_effective_hourly"`
			}
			var rows []row
			g := &output.Grid{Headers: []string{"OFFER", "CHANGE", "OLD", "NEW", "%"}, Align: []output.Align{output.Left, output.Left, output.Right, output.Right, output.Right}}
			for _, c := range changes {
				r := row{Offer: c.OfferID, Kind: c.Kind}
				oldS, newS, pct := "-", "-", ""
				if c.Old != nil {
					n := document.Num(c.Old.EffectiveHourly())
					r.Old, oldS = &n, money(c.Old.EffectiveHourly())+" "+c.Old.Price.Currency
				}
				if c.New != nil {
					n := document.Num(c.New.EffectiveHourly())
					r.New, newS = &n, money(c.New.EffectiveHourly())+" "+c.New.Price.Currency
				}
				if c.Old != nil && c.New != nil && c.Old.EffectiveHourly().IsPositive() {
					pct = c.New.EffectiveHourly().Sub(c.Old.EffectiveHourly()).Div(c.Old.EffectiveHourly()).Mul(decimal.NewFromInt(100)).Round(1).String()
				}
				rows = append(rows, r)
				g.Add(c.OfferID, c.Kind, oldS, newS, pct)
			}
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/catalog-diff@v1", "from": from, "to": to, "changes": rows})
			}
			if len(changes) == 0 {
				fmt.Fprintf(a.io.Out, "No changes between snapshots %d and %d.\n", from, to)
				return nil
			}
			return output.Write(a.io.Out, a.out, g, a.tty())
		},
	}
	cmd.Flags().Int64Var(&from, "from", 0, "older snapshot")
	cmd.Flags().Int64Var(&to, "to", 0, "newer snapshot")
	return cmd
}

func (a *app) catalogSnapshotsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "snapshots",
		Short: "List the imported snapshots in the database; remove one, or roll a source back",
		Example: `  gpuscout catalog snapshots
  gpuscout catalog snapshots rollback azure   # undo the newest azure import
  gpuscout catalog snapshots rm 7`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := a.data(); err != nil {
				return err
			}
			db, err := a.openDB(cmd.Context(), false)
			if err != nil {
				return err
			}
			if db == nil {
				return usagef("import data first with gpuscout catalog import.", "no database at %s", a.dbPath())
			}
			defer db.Close()
			snaps, err := db.Snapshots(cmd.Context())
			if err != nil {
				return err
			}
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/snapshots@v1", "snapshots": snaps})
			}
			g := &output.Grid{Headers: []string{"ID", "SOURCE", "SCOPE", "FETCHED", "OFFERS", "BANDS", "SKIPPED", "REF"},
				Align: []output.Align{output.Right, output.Left, output.Left, output.Left, output.Right, output.Right, output.Right, output.Left}}
			for _, s := range snaps {
				g.Add(strconv.FormatInt(s.ID, 10), s.Source, shortScope(s.Scope), s.FetchedAt.Format(time.RFC3339), strconv.Itoa(s.Offers), strconv.Itoa(s.Bands), strconv.Itoa(s.Skipped), s.Ref)
			}
			return output.Write(a.io.Out, a.out, g, a.tty())
		},
	}
	cmd.AddCommand(a.catalogSnapshotsRmCmd(), a.catalogSnapshotsRollbackCmd())
	return cmd
}

// client is the HTTP client for live updates.
func (a *app) client() *http.Client { return &http.Client{Timeout: 10 * time.Minute} }

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// dataset is the loaded catalog with what the run needs besides it.
type dataset struct {
	Catalog *catalog.Catalog
	FX      *fx.Table
	baseFX  *fx.Table        // FX without the --fx overrides
	curated []*catalog.Offer // curated offers, before imports
	// curatedByID indexes curated, on first use.
	curatedByID map[string]*catalog.Offer
	Imports     *catalog.OverlayReport
	// Discovery says which instance types the imports added and which GPU
	// names they could not resolve; nil without a database.
	Discovery *catalog.DiscoveryReport
	// left says whether curated offers were left out because the command
	// asked about some GPU models only (app.onlyGPUs).
	left curated.LeftOut
}

func (d *dataset) curatedOffer(id string) (*catalog.Offer, bool) {
	if d.curatedByID == nil {
		d.curatedByID = make(map[string]*catalog.Offer, len(d.curated))
		for _, o := range d.curated {
			d.curatedByID[o.ID()] = o
		}
	}
	o, ok := d.curatedByID[id]
	return o, ok
}

// moreImporters resolves the importers of the other providers.
func (a *app) moreImporters(source, file, cloud string) (importer.Importer, bool, error) {
	now := a.env.Now
	ref := filepath.Base(file)
	switch source {
	case "azure":
		return &azure.Importer{Ref: ref, Now: now}, true, nil
	case "gcp":
		return &gcp.Importer{Ref: ref, Now: now}, true, nil
	case "alibaba":
		return &alibaba.Importer{Now: now}, true, nil
	case "tencent":
		return &tencent.Importer{Now: now}, true, nil
	case "huawei":
		return &huawei.Importer{Now: now}, true, nil
	case "baidu":
		return &baidu.Importer{Now: now}, true, nil
	case "vast":
		return &vast.Importer{Now: now}, true, nil
	case "lambda":
		return &lambda.Importer{AnyRegion: a.regionIfAny("lambda", "ANY"), Now: now}, true, nil
	case "runpod":
		return &runpod.Importer{AnyRegion: a.regionIfAny("runpod", "ANY"), CommunityRegion: a.regionIfAny("runpod", "COMMUNITY"), Now: now}, true, nil
	case "digitalocean":
		return &digitalocean.Importer{Now: now}, true, nil
	case "oci":
		return &oci.Importer{AnyRegion: a.regionIfAny("oci", "ANY"), Now: now}, true, nil
	case "hyperstack":
		return &hyperstack.Importer{Now: now}, true, nil
	case "verda":
		return &verda.Importer{Now: now}, true, nil
	case "skypilot":
		if cloud == "" {
			return nil, true, usagef("e.g. --cloud lambda.", "skypilot imports need --cloud: the provider the vms.csv describes")
		}
		if _, ok := a.ds.Catalog.Provider(cloud); !ok {
			return nil, true, usagef("gpuscout catalog stats lists the providers.", "unknown provider %q for --cloud", cloud)
		}
		return &skypilot.Importer{Cloud: cloud, File: ref, AnyRegion: a.skypilotAnyRegion(cloud), Now: now}, true, nil
	}
	return nil, false, nil
}

// instanceNames lists the catalog's instance types of a provider (for the
// per-type price APIs of Alibaba and Tencent).
func (a *app) instanceNames(provider string) []string {
	var out []string
	for _, it := range a.ds.Catalog.Instances() {
		if it.Provider == provider && it.Status != catalog.StatusRetired {
			out = append(out, it.Name)
		}
	}
	return out
}

// regionCodes lists a provider's regions in the catalog, sorted (for the
// per-region price APIs of providers the catalog has no prices of yet).
func (a *app) regionCodes(provider string) []string {
	var out []string
	for _, r := range a.ds.Catalog.Regions() {
		if r.Provider == provider {
			out = append(out, r.Code)
		}
	}
	sort.Strings(out)
	return out
}

// regionsWithOffers lists a provider's regions that have offers in the catalog.
func (a *app) regionsWithOffers(provider string) []string {
	seen := map[string]bool{}
	var out []string
	for _, o := range a.ds.Catalog.Offers() {
		if o.Provider == provider && !seen[o.RegionCode] {
			seen[o.RegionCode] = true
			out = append(out, o.RegionCode)
		}
	}
	sort.Strings(out)
	return out
}

// moreFetchJobs resolves the live sources of the other providers.
// With dryRun, missing credentials are not an error: the jobs are only
// described.
func (a *app) moreFetchJobs(ctx context.Context, provider string, dryRun bool) ([]fetchJob, error) {
	c := a.client()
	now := a.env.Now
	job := func(name, ref string, f importer.Fetcher) fetchJob {
		return fetchJob{name: name, ref: ref, run: func(ctx context.Context, p importer.Progress) (*importer.Result, error) { return f.Fetch(ctx, c, p) }}
	}
	switch provider {
	case "azure":
		return []fetchJob{job("azure", "Retail Prices API", &azure.Importer{BaseURL: a.env.Getenv("GPUSCOUT_AZURE_PRICES_URL"), Now: now})}, nil
	case "gcp":
		key := a.env.Getenv("GOOGLE_API_KEY")
		if key == "" && !dryRun {
			return nil, usagef("create an API key with the Cloud Billing API enabled and export GOOGLE_API_KEY.", "gcp needs GOOGLE_API_KEY")
		}
		return []fetchJob{job("gcp", "Cloud Billing Catalog", &gcp.Importer{APIKey: key, BaseURL: a.env.Getenv("GPUSCOUT_GCP_BILLING_URL"), Now: now})}, nil
	case "alibaba":
		id, secret := a.env.Getenv(alibaba.EnvAccessKeyID), a.env.Getenv(alibaba.EnvAccessKeySecret)
		if (id == "" || secret == "") && !dryRun {
			return nil, usagef("export "+alibaba.EnvAccessKeyID+" and "+alibaba.EnvAccessKeySecret+" (a RAM user with read-only ECS access).", "alibaba needs credentials")
		}
		imp := &alibaba.Importer{AccessKeyID: id, AccessKeySecret: secret, Endpoint: a.env.Getenv("GPUSCOUT_ALIBABA_ENDPOINT"),
			Regions: a.regionCodes("alibaba"), InstanceTypes: a.instanceNames("alibaba"), Now: now}
		j := job("alibaba", "ECS DescribePrice", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "tencent":
		id, key := a.env.Getenv(tencent.EnvSecretID), a.env.Getenv(tencent.EnvSecretKey)
		if (id == "" || key == "") && !dryRun {
			return nil, usagef("export "+tencent.EnvSecretID+" and "+tencent.EnvSecretKey+".", "tencent needs credentials")
		}
		return []fetchJob{job("tencent", "CVM price API", &tencent.Importer{SecretID: id, SecretKey: key, Endpoint: a.env.Getenv("GPUSCOUT_TENCENT_ENDPOINT"),
			Regions: a.regionsWithOffers("tencent"), Now: now})}, nil
	case "huawei":
		imp := &huawei.Importer{Regions: a.regionCodes("huawei"), InstanceTypes: a.instanceNames("huawei"), Now: now}
		if ep := a.env.Getenv("GPUSCOUT_HUAWEI_ENDPOINT"); ep != "" {
			imp.IAMEndpoint, imp.ECSEndpoint, imp.BSSEndpoint = ep, ep, ep
		}
		// The international site prices through its own BSS endpoint
		// (https://bss-intl.myhuaweicloud.com).
		for env, field := range map[string]*string{"GPUSCOUT_HUAWEI_IAM_ENDPOINT": &imp.IAMEndpoint,
			"GPUSCOUT_HUAWEI_ECS_ENDPOINT": &imp.ECSEndpoint, "GPUSCOUT_HUAWEI_BSS_ENDPOINT": &imp.BSSEndpoint} {
			if ep := a.env.Getenv(env); ep != "" {
				*field = ep
			}
		}
		imp.LoadEnv(a.env.Getenv)
		if (imp.AccessKey == "" || imp.SecretKey == "") && !dryRun {
			return nil, usagef("export "+huawei.EnvAccessKey+" and "+huawei.EnvSecretKey+" (an IAM user with read-only ECS and BSS access).", "huawei needs credentials")
		}
		j := job("huawei", "BSS price inquiry", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "baidu":
		imp := &baidu.Importer{Regions: a.regionCodes("baidu"), InstanceTypes: a.instanceNames("baidu"), Endpoint: a.env.Getenv("GPUSCOUT_BAIDU_ENDPOINT"), Now: now}
		imp.LoadEnv(a.env.Getenv)
		if (imp.AccessKeyID == "" || imp.SecretAccessKey == "") && !dryRun {
			return nil, usagef("export "+baidu.EnvAccessKeyID+" and "+baidu.EnvSecretAccessKey+" (an IAM user with read-only BCC access).", "baidu needs credentials")
		}
		j := job("baidu", "BCC price inquiry", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "skypilot":
		var jobs []fetchJob
		for _, cloud := range []string{"aws", "azure", "gcp", "oci", "lambda"} {
			jobs = append(jobs, job("skypilot", cloud, &skypilot.Importer{Cloud: cloud, BaseURL: a.env.Getenv("GPUSCOUT_SKYPILOT_URL"),
				AnyRegion: a.skypilotAnyRegion(cloud), Now: now}))
		}
		for _, cloud := range skyPilotV8Clouds {
			jobs = append(jobs, job("skypilot", cloud, &skypilot.Importer{Cloud: cloud, Version: "v8", BaseURL: a.env.Getenv("GPUSCOUT_SKYPILOT_URL"), Now: now}))
		}
		return jobs, nil
	case "vast":
		imp := &vast.Importer{APIKey: a.env.Getenv(vast.EnvAPIKey), Base: a.env.Getenv("GPUSCOUT_VAST_URL"), Now: now}
		j := job("vast", "offer search", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "lambda":
		key := a.env.Getenv(lambda.EnvAPIKey)
		if key == "" && !dryRun {
			return nil, usagef("create a Cloud API key at https://cloud.lambda.ai/api-keys and export "+lambda.EnvAPIKey+".", "lambda needs "+lambda.EnvAPIKey)
		}
		imp := &lambda.Importer{APIKey: key, Base: a.env.Getenv("GPUSCOUT_LAMBDA_URL"), AnyRegion: a.regionIfAny("lambda", "ANY"), Now: now}
		j := job("lambda", "Cloud API instance types", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "runpod":
		key := a.env.Getenv(runpod.EnvAPIKey)
		if key == "" && !dryRun {
			return nil, usagef("create an API key in RunPod's console (Settings, API Keys) and export "+runpod.EnvAPIKey+".", "runpod needs "+runpod.EnvAPIKey)
		}
		imp := &runpod.Importer{APIKey: key, Base: a.env.Getenv("GPUSCOUT_RUNPOD_URL"), AnyRegion: a.regionIfAny("runpod", "ANY"),
			CommunityRegion: a.regionIfAny("runpod", "COMMUNITY"), Now: now}
		j := job("runpod", "GraphQL gpuTypes", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "digitalocean":
		token := a.env.Getenv(digitalocean.EnvToken)
		if token == "" && !dryRun {
			return nil, usagef("create a personal access token (API, Tokens) in DigitalOcean's control panel and export "+digitalocean.EnvToken+".", "digitalocean needs "+digitalocean.EnvToken)
		}
		imp := &digitalocean.Importer{Token: token, Base: a.env.Getenv("GPUSCOUT_DIGITALOCEAN_URL"), Now: now}
		j := job("digitalocean", "sizes", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "oci":
		base := a.env.Getenv("GPUSCOUT_OCI_URL")
		imp := &oci.Importer{PriceBase: base, ShapesBase: base, AnyRegion: a.regionIfAny("oci", "ANY"), Now: now}
		j := job("oci", "price list", imp)
		j.plan = imp.Plan
		return []fetchJob{j}, nil
	case "hyperstack":
		// Hyperstack's own API with a key (or to list it); without one, the
		// SkyPilot catalog's Hyperstack file, as before the API importer.
		if key := a.env.Getenv(hyperstack.EnvAPIKey); key != "" || dryRun {
			imp := &hyperstack.Importer{APIKey: key, Base: a.env.Getenv("GPUSCOUT_HYPERSTACK_URL"), Now: now}
			j := job("hyperstack", "flavors and pricebook", imp)
			j.plan = imp.Plan
			return []fetchJob{j}, nil
		}
		return []fetchJob{job("skypilot", provider, &skypilot.Importer{Cloud: provider, Version: "v8", BaseURL: a.env.Getenv("GPUSCOUT_SKYPILOT_URL"), Now: now})}, nil
	case "verda":
		// Verda's own API with client credentials (or to list it); without
		// them, the SkyPilot catalog's Verda file, as before.
		id, secret := a.env.Getenv(verda.EnvClientID), a.env.Getenv(verda.EnvClientSecret)
		if id != "" && secret != "" || dryRun {
			imp := &verda.Importer{ClientID: id, ClientSecret: secret, Base: a.env.Getenv("GPUSCOUT_VERDA_URL"), Now: now}
			j := job("verda", "instance types and availability", imp)
			j.plan = imp.Plan
			return []fetchJob{j}, nil
		}
		return []fetchJob{job("skypilot", provider, &skypilot.Importer{Cloud: provider, Version: "v8", BaseURL: a.env.Getenv("GPUSCOUT_SKYPILOT_URL"), Now: now})}, nil
	case "nebius":
		return []fetchJob{job("skypilot", provider, &skypilot.Importer{Cloud: provider, Version: "v8", BaseURL: a.env.Getenv("GPUSCOUT_SKYPILOT_URL"), Now: now})}, nil
	}
	return nil, usagef("providers: aws, azure, gcp, alibaba, tencent, huawei, baidu, vast, lambda, runpod, digitalocean, oci, nebius, hyperstack, verda, skypilot.", "no live source for %q", provider)
}

// regionIfAny is code when the catalog has that region of provider (the
// row that stands for any of its regions), else "".
func (a *app) regionIfAny(provider, code string) string {
	if a.ds == nil || a.ds.Catalog == nil {
		return ""
	}
	if _, ok := a.ds.Catalog.Region(provider, code); ok {
		return code
	}
	return ""
}

// skypilotAnyRegion is the region a SkyPilot file's rows of cloud stand
// for when the provider publishes one price list for every region and the
// catalog has its "ANY" region: Lambda and Oracle (the embedded catalog's
// rows from the same files are there too). Empty for every other cloud
// (RunPod's file also lists a spot column that only repeats the on-demand
// price, so its rows are not folded).
func (a *app) skypilotAnyRegion(cloud string) string {
	switch cloud {
	case "lambda", "oci":
		return a.regionIfAny(cloud, "ANY")
	}
	return ""
}

// skyPilotV8Clouds are the providers whose instance types and region codes
// in the catalog are those of SkyPilot's v8 catalog files, so SkyPilot's
// vms.csv refreshes their prices as is. (RunPod's and Vast.ai's files use
// other region codes; DigitalOcean's cloud is named do.)
var skyPilotV8Clouds = []string{"nebius", "hyperstack", "verda"}

// ServerData is the loader gpuscout serve uses, for a database at db (and
// the curated catalog of env, overlaid with catalogDir when not empty):
// each call loads the catalog and the newest snapshots afresh.
func ServerData(env Env, db, catalogDir string) func(context.Context) (*server.Data, error) {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Catalog == nil {
		env.Catalog = curated.Embedded()
	}
	return func(ctx context.Context) (*server.Data, error) {
		a := &app{env: env, db: db, catalog: catalogDir, format: "json", io: IO{Out: io.Discard, Err: io.Discard}}
		if err := a.prepare(); err != nil {
			return nil, err
		}
		return a.loadServerData(ctx)
	}
}

// maxScopeShown bounds a scope in the snapshots table (a region set of 23
// AWS regions is long); -o json gives it whole.
const maxScopeShown = 48

// shortScope shortens a long scope for the table.
func shortScope(s string) string {
	if len(s) <= maxScopeShown {
		return s
	}
	return s[:maxScopeShown-3] + "..."
}
