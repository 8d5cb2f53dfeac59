// Package cli is gpuscout's command line: cobra commands, each an options
// struct and a run function. It is the only place where the concrete parts
// (catalog loader, engines, output) are wired together.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/sqlite"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2 // bad flags or arguments: unknown GPU, malformed --fx ...
	ExitData    = 3 // invalid input data: a broken catalog file
)

// IO is where a command reads and writes.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// Env is the process environment a run sees.
type Env struct {
	Getenv func(string) string
	// Now is the current time (fixed in tests); time.Now when nil.
	Now func() time.Time
	// IsTTY reports whether Out is a terminal; detected when nil.
	IsTTY func() bool
	// Catalog is the base catalog; the embedded one when nil. Tests use a
	// small fixed catalog here.
	Catalog fs.FS
	// NoOverlayCache makes `offers` read imports the full way, never from
	// the database's overlay cache (tests compare both ways).
	NoOverlayCache bool
	// Event, when set, is told of the read path a command took
	// ("overlay-cache-built", "overlay-cache-hit"), for tests.
	Event func(name string)
}

// usageError is a user mistake in flags or arguments (exit 2).
type usageError struct {
	err  error
	hint string
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(hint, format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...), hint: hint}
}

// dataError is invalid input data (exit 3).
type dataError struct {
	err error
	job bool // a job file (not catalog data)
}

func (e *dataError) Error() string { return e.err.Error() }
func (e *dataError) Unwrap() error { return e.err }

// app carries the global options and lazily loaded data of one run.
type app struct {
	io   IO
	env  Env
	args []string // the command line, for reporting errors in its format and language
	out0 *countingWriter

	// global flags
	format   string
	currency string
	fxFlags  []string
	lang     string
	catalog  string
	db       string
	// dbReadOnly opens --db as a published snapshot (sqlite.OpenReadOnly).
	dbReadOnly bool

	// resolved in prepare
	out     output.Format
	printer *i18n.Printer
	cur     string
	rates   *fx.Table
	ds      *dataset
	// onlyGPUs, set by a command before it loads data, names the GPU
	// models it asks about: offers of other GPUs, curated or imported, are
	// not loaded (nil loads every offer). The dataset's left then says
	// that some may be missing.
	onlyGPUs []string
	// prefilter, set by a command before it loads data, chooses from the
	// catalog without imported offers the instance types whose imported
	// offers to load (keep); leftOut then receives the offers left out
	// that a full load would have used (inside the catalog's coverage, in
	// a known currency). A nil keep loads every offer.
	prefilter func(*catalog.Catalog) (keep func(provider, instance string) bool, leftOut func(provider, instance string, ids []string))
	// warned is set once the data warnings were printed (a command that
	// loads data twice prints them once).
	warned bool
	// fromCSV, set by a command before it loads data, parses and validates
	// the embedded catalog's CSV files instead of decoding its compiled
	// form (catalog validate).
	fromCSV bool
}

// Main runs gpuscout with args (without the program name) and returns the
// process exit code. It never panics on user input.
func Main(ctx context.Context, args []string, stdio IO, env Env) int {
	if env.Getenv == nil {
		env.Getenv = os.Getenv
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Catalog == nil {
		env.Catalog = curated.Embedded()
	}
	if env.IsTTY == nil {
		orig := stdio.Out
		env.IsTTY = func() bool {
			f, ok := orig.(*os.File)
			return ok && term.IsTerminal(int(f.Fd()))
		}
	}
	out := &countingWriter{w: stdio.Out}
	stdio.Out = out
	a := &app{io: stdio, env: env, args: args, out0: out}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(stdio.In)
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	return a.report(err)
}

// report prints err with a hint and maps it to an exit code. With -o json
// the error is also a JSON document on standard output (schema
// gpuscout/error@v1), so that a program reading the output always gets JSON.
func (a *app) report(err error) int {
	p := a.printer
	if l, ok := a.langFromArgs(); ok || p == nil {
		p = i18n.NewPrinter(l)
	}
	msg, hint, code := a.describe(err, p)
	fmt.Fprintf(a.io.Err, "gpuscout: %s\n", msg)
	if hint != "" {
		fmt.Fprintln(a.io.Err, p.T("err.hint", hint))
	}
	if a.jsonFromArgs() && (a.out0 == nil || a.out0.n == 0) {
		doc := struct {
			Schema string `json:"schema"`
			Error  string `json:"error"`
			Hint   string `json:"hint,omitempty"`
			Exit   int    `json:"exit_code"`
		}{"gpuscout/error@v1", msg, hint, code}
		b, _ := json.MarshalIndent(doc, "", "  ")
		fmt.Fprintln(a.io.Out, string(b))
	}
	return code
}

// countingWriter counts what a command wrote to standard output (a
// command that wrote its JSON document before failing gets no second one).
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// describe is an error's message, hint and exit code in p's language.
func (a *app) describe(err error, p *i18n.Printer) (msg, hint string, code int) {
	var le *localError
	if errors.As(err, &le) {
		if le.hint != "" {
			hint = p.T(le.hint)
		}
		return p.T(le.key, le.args...), hint, le.exit
	}
	msg = err.Error()
	if p.Lang() != i18n.EN {
		msg = localMsg(err, msg, p)
	}
	var ue *usageError
	var de *dataError
	var nf *catalog.NotFoundError
	var ve *catalog.ValidationError
	switch {
	case errors.As(err, &de) && de.job:
		return msg, p.T("err.hint.job_file"), ExitData
	case errors.As(err, &de), errors.As(err, &ve):
		return msg, p.T("err.hint.data_file"), ExitData
	case errors.As(err, &ue):
		if strings.HasPrefix(ue.hint, "err.hint.") {
			return msg, p.T(ue.hint), ExitUsage
		}
		return msg, ue.hint, ExitUsage
	case errors.As(err, &nf):
		return msg, "", ExitUsage
	case isFlagError(err):
		return msg, p.T("err.hint.flags"), ExitUsage
	}
	return msg, "", ExitFailure
}

// jsonFromArgs reports whether the command line asks for JSON output
// (read from the arguments: the error may be the flags' own).
func (a *app) jsonFromArgs() bool {
	for i, s := range a.args {
		switch {
		case s == "-ojson" || s == "--output=json" || s == "-o=json":
			return true
		case (s == "-o" || s == "--output") && i+1 < len(a.args) && a.args[i+1] == "json":
			return true
		}
	}
	return false
}

// langFromArgs is --lang from the arguments (ok), else the environment's language.
func (a *app) langFromArgs() (i18n.Lang, bool) {
	for i, s := range a.args {
		v := ""
		switch {
		case strings.HasPrefix(s, "--lang="):
			v = strings.TrimPrefix(s, "--lang=")
		case s == "--lang" && i+1 < len(a.args):
			v = a.args[i+1]
		}
		if l, err := i18n.ParseLang(v); v != "" && err == nil {
			return l, true
		}
	}
	return i18n.FromEnv(a.env.Getenv), false
}

// isFlagError recognises cobra's and pflag's usage errors, which are not typed.
func isFlagError(err error) bool {
	s := err.Error()
	for _, prefix := range []string{"unknown flag", "unknown shorthand flag", "unknown command", "invalid argument",
		"flag needs an argument", "accepts ", "requires at least", "required flag", "bad flag syntax", "if any flags in the group"} {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func (a *app) rootCmd() *cobra.Command {
	root := a.newRoot()
	subs := a.subcommands()
	if name := commandName(root, a.args); name != "" {
		for _, c := range subs {
			if c.name == name {
				// Only the command that runs is built: the others' flags
				// cost start-up time and are never read.
				root.AddCommand(c.build())
				return root
			}
		}
	}
	// Help, completion, an unknown command: the whole tree.
	for _, c := range subs {
		root.AddCommand(c.build())
	}
	return root
}

// newRoot is the root command with its persistent flags and no subcommands.
func (a *app) newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "gpuscout",
		Short: "Compare GPU cloud offers across AWS, Azure, GCP, Alibaba Cloud, Tencent Cloud and more",
		Long: `gpuscout compares GPU instances across clouds — AWS, Azure, Google Cloud, Alibaba Cloud,
Tencent Cloud, OCI, Lambda — under every billing model (on-demand, spot, reserved, savings
plans, committed use, 包年包月 subscriptions), from an embedded catalog where every figure
carries its source and as-of date. It works offline.`,
		Example: `  # Cheapest 8-GPU A100 and H100 offers, one per cloud
  gpuscout offers --gpu A100 --gpu H100 --min-gpus 8 --per-provider 1

  # A100 offers in mainland China, in CNY, in Chinese
  gpuscout offers --gpu A100 --residency cn-mainland --currency CNY --lang zh

  # Everything the catalog knows about a GPU
  gpuscout gpus H100 -o json`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return a.prepare() },
	}
	pf := root.PersistentFlags()
	pf.StringVarP(&a.format, "output", "o", "table", "output format: table, json, csv, markdown")
	pf.StringVar(&a.currency, "currency", "", "currency for prices (USD, CNY, EUR, GBP, JPY, ...); default USD, or CNY with --lang zh")
	pf.StringArrayVar(&a.fxFlags, "fx", nil, "override an exchange rate: CUR=RATE in units of CUR per US dollar (repeatable), e.g. --fx CNY=7.2")
	pf.StringVar(&a.lang, "lang", "", "language: en or zh (default from LANG)")
	pf.StringVar(&a.catalog, "catalog", "", "directory of catalog CSV files to overlay on the embedded catalog (see docs/catalog-format.md)")
	pf.StringVar(&a.db, "db", "", "database of imported price snapshots (default: gpuscout.db in your data directory)")
	pf.BoolVar(&a.dbReadOnly, "db-read-only", false, "open --db as a published snapshot: read only, nothing written beside it (see catalog publish)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &usageError{err: err, hint: "err.hint.flags"}
	})
	return root
}

// HandlesSignals reports whether the command that args name should handle
// SIGINT and SIGTERM itself, through Main's context (a server shutting down
// gracefully, an import or update cleaning up, a file being written). The
// commands that only read and print do not: an interrupt ends them at once,
// and they start without the signal-watching thread.
func HandlesSignals(args []string) bool {
	if len(args) == 0 || (len(args) == 1 && (args[0] == "--help" || args[0] == "-h")) {
		return false
	}
	switch commandName((&app{}).newRoot(), args) {
	case "version", "help", "completion", "gpus", "instances", "offers", "cost", "tco", "estimate", "perf", "spot",
		"recommend", "providers", "rightsize":
		return false
	}
	return true
}

// subcommand is a top-level command: its name and how to build it.
type subcommand struct {
	name  string
	build func() *cobra.Command
}

// subcommands are the top-level commands (TestSubcommandNames holds the
// names to the commands' own).
func (a *app) subcommands() []subcommand {
	return []subcommand{{"gpus", a.gpusCmd}, {"instances", a.instancesCmd}, {"offers", a.offersCmd}, {"cost", a.costCmd},
		{"tco", a.tcoCmd}, {"estimate", a.estimateCmd}, {"perf", a.perfCmd}, {"spot", a.spotCmd}, {"recommend", a.recommendCmd},
		{"providers", a.providersCmd}, {"catalog", a.catalogCmd}, {"serve", a.serveCmd}, {"export", a.exportCmd},
		{"rightsize", a.rightsizeCmd}, {"watch", a.watchCmd}, {"version", a.versionCmd}, {"health", a.healthCmd}}
}

// commandName is the name of the command to run: the first argument that
// is neither a flag nor a flag's value, read as cobra reads it when it
// looks for the command (a flag that root does not know as a boolean is
// taken to have a value); "" when there is none.
func commandName(root *cobra.Command, args []string) string {
	pf, lf := root.PersistentFlags(), root.Flags()
	lookup := func(name string) *pflag.Flag {
		if f := pf.Lookup(name); f != nil {
			return f
		}
		return lf.Lookup(name)
	}
	short := func(name string) *pflag.Flag {
		if f := pf.ShorthandLookup(name); f != nil {
			return f
		}
		return lf.ShorthandLookup(name)
	}
	for i := 0; i < len(args); i++ {
		s := args[i]
		takesValue := false
		switch {
		case s == "--":
			return ""
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "="):
			f := lookup(s[2:])
			takesValue = f == nil || f.NoOptDefVal == ""
		case strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && len(s) == 2:
			f := short(s[1:])
			takesValue = f == nil || f.NoOptDefVal == ""
		case s != "" && !strings.HasPrefix(s, "-"):
			return s
		}
		if takesValue {
			if len(args)-i-1 <= 1 {
				return ""
			}
			i++
		}
	}
	return ""
}

// prepare resolves the global flags; data is loaded on first use.
func (a *app) prepare() error {
	f, err := output.ParseFormat(a.format)
	if err != nil {
		return usagef("use -o table, json, csv or markdown.", "%v", err)
	}
	a.out = f
	lang := i18n.FromEnv(a.env.Getenv)
	if a.lang != "" {
		if lang, err = i18n.ParseLang(a.lang); err != nil {
			return usagef("use --lang en or --lang zh.", "%v", err)
		}
	}
	a.printer = i18n.NewPrinter(lang)
	a.cur = strings.ToUpper(strings.TrimSpace(a.currency))
	if a.cur == "" {
		a.cur = "USD"
		if lang == i18n.ZH {
			a.cur = "CNY"
		}
	}
	return nil
}

// data loads the catalog (embedded, overlaid with --catalog, then with the
// newest imported snapshot of each source when a database exists) and the
// FX table with --fx overrides applied, once.
func (a *app) data() (*dataset, error) {
	if a.ds != nil {
		return a.ds, nil
	}
	d, baseRates, rates, left, err := a.curatedData()
	if err != nil {
		return nil, err
	}
	// The curated offers, indexed by ID only where a command asks (the
	// slice's elements stay these offers: imports are overlaid on a copy).
	ds := &dataset{FX: baseRates, baseFX: baseRates, curated: d.Offers, left: left}
	var imported []*catalog.Offer
	var bands []*catalog.InterruptionBand
	var leftOut []sqlite.LeftOut
	var base *catalog.Catalog // curated and discovered, without imported offers (prefilter)
	var sendLeftOut func(provider, instance string, ids []string)
	known := func(cur string) bool { _, ok := rates.Rate(cur); return ok }
	db, err := a.openDB(context.Background(), false)
	if err != nil {
		return nil, err
	}
	if db != nil {
		var rep catalog.DiscoveryReport
		// Instance types the imports describe and the curated catalog
		// lacks join it, so their offers are listed like any other; then
		// only the offers of the instance types the command can show are
		// loaded (all of them unless it names GPU models or prefilters).
		im, err := db.LatestImportsWith(context.Background(), sqlite.ReadOptions{ListLeftOut: a.prefilter != nil,
			Choose: func(found []*catalog.DiscoveredInstance) sqlite.OfferFilter {
				rep = catalog.Discover(&d, found, nil)
				var filters []func(provider, instance string) bool
				if gpus := catalog.InstancesForGPUs(&d, a.onlyGPUs); gpus != nil {
					filters = append(filters, func(provider, instance string) bool { return gpus[provider+"/"+instance] })
				}
				if a.prefilter != nil {
					// Invalid curated data fails the load below, with its message.
					if c, err := catalog.New(d); err == nil {
						var keep func(provider, instance string) bool
						if keep, sendLeftOut = a.prefilter(c); keep != nil {
							base = c
							filters = append(filters, keep)
						}
					}
				}
				switch len(filters) {
				case 0:
					return nil
				case 1:
					return filters[0]
				}
				return func(provider, instance string) bool {
					return filters[0](provider, instance) && filters[1](provider, instance)
				}
			}})
		db.Close()
		if err != nil {
			return nil, fmt.Errorf("database %s: %w", a.dbPath(), err)
		}
		imported, bands, leftOut = im.Offers, im.Bands, im.LeftOut
		rep.CountOffers(im.OfferCounts)
		ds.Discovery = &rep
	}
	if len(imported) > 0 || len(bands) > 0 {
		c, rep, err := catalog.NewWithImports(d, imported, bands, known)
		if err != nil {
			return nil, &dataError{err: prefixCatalog(a.catalog, err)}
		}
		ds.Catalog, ds.Imports = c, &rep
	} else if ds.Catalog, err = catalog.New(d); err != nil {
		return nil, &dataError{err: prefixCatalog(a.catalog, err)}
	}
	if base != nil && sendLeftOut != nil {
		reportLeftOut(base, leftOut, known, ds, sendLeftOut)
	}
	ds.FX = rates
	a.rates = rates
	a.ds = ds
	if !a.warned {
		a.warned = true
		a.staleWarning(ds)
		a.rejectedWarning(ds)
	}
	return ds, nil
}

// curatedData loads the curated catalog as data wants it (embedded,
// overlaid with --catalog, narrowed to the instance types of the GPU
// models asked for) and the FX table, before and after the --fx overrides.
func (a *app) curatedData() (d catalog.Data, baseRates, rates *fx.Table, left curated.LeftOut, err error) {
	var over fs.FS
	if a.catalog != "" {
		st, err := os.Stat(a.catalog)
		if err != nil || !st.IsDir() {
			return d, nil, nil, left, usagef("pass a directory laid out as docs/catalog-format.md describes.", "--catalog %q is not a directory", a.catalog)
		}
		over = os.DirFS(a.catalog)
	}
	switch {
	case a.fromCSV:
		d, baseRates, err = curated.LoadCSV(a.env.Catalog, over)
	case len(a.onlyGPUs) > 0:
		// Only the offers of the instance types with the GPU models asked
		// for are decoded: InstancesForGPUs matches every model LookupGPU
		// can resolve a name to, and more.
		d, baseRates, left, err = curated.LoadDataNarrow(a.env.Catalog, over, func(d *catalog.Data) func(provider, instance string) bool {
			return instanceSet(catalog.InstancesForGPUs(d, a.onlyGPUs))
		})
	default:
		d, baseRates, err = curated.LoadData(a.env.Catalog, over)
	}
	if err != nil {
		return d, nil, nil, left, &dataError{err: prefixCatalog(a.catalog, err)}
	}
	var overrides []fx.Rate
	for _, s := range a.fxFlags {
		r, err := fx.ParseOverride(s)
		if err != nil {
			return d, nil, nil, left, usagef("write --fx CNY=7.2: units of the currency per US dollar.", "%v", err)
		}
		r.AsOf = a.env.Now().UTC().Truncate(24 * time.Hour)
		overrides = append(overrides, r)
	}
	rates, err = baseRates.With(overrides...)
	if err != nil {
		return d, nil, nil, left, usagef("write --fx CNY=7.2: units of the currency per US dollar.", "%v", err)
	}
	if _, ok := rates.Rate(a.cur); !ok {
		return d, nil, nil, left, usagef(fmt.Sprintf("known currencies: %s; add another with --fx %s=RATE.", strings.Join(rates.Currencies(), ", "), a.cur),
			"no exchange rate for currency %q", a.cur)
	}
	return d, baseRates, rates, left, nil
}

// reportLeftOut sends leave the offers a prefiltered read left out that a
// full load would have put in the catalog: inside its coverage (the
// instance types and regions of c, the full load's) and in a known
// currency. Of the others, those outside the coverage are dropped quietly,
// as a full load does, and those in an unknown currency are reported in
// ds.Imports like the loaded offers rejected for it.
func reportLeftOut(c *catalog.Catalog, left []sqlite.LeftOut, known catalog.CurrencyKnown, ds *dataset, leave func(provider, instance string, ids []string)) {
	regions := map[[2]string]bool{}
	knownCur := map[string]bool{}
	for _, g := range left {
		if _, ok := c.Instance(g.Provider + "/" + g.InstanceType); !ok {
			continue
		}
		key := g.Provider + "/" + g.InstanceType
		ids := make([]string, 0, len(g.Offers))
		for _, o := range g.Offers {
			rk := [2]string{g.Provider, o.Region}
			in, seen := regions[rk]
			if !seen {
				_, in = c.Region(g.Provider, o.Region)
				regions[rk] = in
			}
			if !in {
				continue
			}
			ok, seen := knownCur[o.Currency]
			if !seen {
				ok = known(o.Currency)
				knownCur[o.Currency] = ok
			}
			id := o.ID(key)
			if !ok {
				if ds.Imports == nil {
					ds.Imports = &catalog.OverlayReport{}
				}
				ds.Imports.Rejected = append(ds.Imports.Rejected, catalog.Rejection{Kind: catalog.KindOffer, Record: id,
					Reason: catalog.RejectCurrency, Detail: o.Currency})
				continue
			}
			ids = append(ids, id)
		}
		leave(g.Provider, g.InstanceType, ids)
	}
}

// maxRejectedShown bounds the rejected imports listed on stderr.
const maxRejectedShown = 10

// rejectedWarning names, on stderr, each imported record left out because
// its data is unusable, and why; the command goes on with everything else.
func (a *app) rejectedWarning(ds *dataset) {
	if ds.Imports == nil || len(ds.Imports.Rejected) == 0 {
		return
	}
	for i, r := range ds.Imports.Rejected {
		if i == maxRejectedShown {
			fmt.Fprintf(a.io.Err, "gpuscout: %s\n", a.printer.T("warn.rejected_more", len(ds.Imports.Rejected)-maxRejectedShown))
			break
		}
		fmt.Fprintf(a.io.Err, "gpuscout: %s\n", a.printer.Rejected(r.Kind, r.Record, string(r.Reason), r.Detail))
	}
}

// staleAfterDays is the age of the newest price beyond which every command warns.
const staleAfterDays = 180

// staleWarning tells the user, on stderr, when even the newest price is old.
func (a *app) staleWarning(ds *dataset) {
	newest := ds.Catalog.NewestAsOf()
	if ds.left.NewestAsOf.After(newest) {
		newest = ds.left.NewestAsOf // an offer the command did not load
	}
	a.staleWarningAt(newest)
}

// instanceSet is the test of membership in keys ("provider/instance"),
// nil when keys is nil. Offers come grouped by instance type, so it
// remembers its last answer.
func instanceSet(keys map[string]bool) func(provider, instance string) bool {
	if keys == nil {
		return nil
	}
	var lastProvider, lastInstance string
	last, any := false, false
	return func(provider, instance string) bool {
		if !any || provider != lastProvider || instance != lastInstance {
			lastProvider, lastInstance, any = provider, instance, true
			last = keys[provider+"/"+instance]
		}
		return last
	}
}

// staleWarningAt is staleWarning given the newest price's date.
func (a *app) staleWarningAt(newest time.Time) {
	if newest.IsZero() {
		return
	}
	age := int(a.today().Sub(newest).Hours() / 24)
	if age > staleAfterDays {
		fmt.Fprintf(a.io.Err, "gpuscout: warning: the newest price in use is from %s (%d days old); refresh with gpuscout catalog update or catalog import\n",
			newest.Format(catalog.DateLayout), age)
	}
}

func prefixCatalog(dir string, err error) error {
	if dir == "" {
		return fmt.Errorf("embedded catalog: %w", err)
	}
	return fmt.Errorf("catalog %s: %w", dir, err)
}

// tty reports whether stdout is a terminal.
func (a *app) tty() bool { return a.env.IsTTY() }

// today is the run's current date in UTC.
func (a *app) today() time.Time { return a.env.Now().UTC() }
