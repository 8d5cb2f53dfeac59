// Package curated holds gpuscout's embedded, hand-curated catalog and the
// loader for the CSV format it is written in (docs/catalog-format.md). The
// same loader reads a user's catalog directory (--catalog DIR).
package curated

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/fx"
)

//go:generate go run ./cmd/compile

//go:embed data
var embedded embed.FS

// compiled is the embedded catalog in its compiled form (compiled.go).
//
//go:embed compiled.bin
var compiled string

// embeddedFS is the embedded catalog's files: LoadData reads their
// compiled form instead when nothing is overlaid on them.
type embeddedFS struct{ fs.FS }

// Embedded returns the embedded catalog files, rooted at the data directory.
func Embedded() fs.FS {
	sub, err := fs.Sub(embedded, "data")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return embeddedFS{sub}
}

// Dataset is a loaded catalog and its exchange-rate table.
type Dataset struct {
	Catalog *catalog.Catalog
	FX      *fx.Table
}

// Column sets of each file.
var (
	srcCols       = []string{"source_kind", "source_ref", "as_of", "read_on"}
	providerCols  = append([]string{"id", "name_en", "name_zh", "website", "pricing_page"}, srcCols...)
	regionCols    = append([]string{"provider", "code", "name_en", "name_zh", "country", "residency", "city", "lat", "lon"}, srcCols...)
	gpuCols       = append([]string{"id", "vendor", "family", "variant", "architecture", "memory_gb", "memory_type", "memory_bandwidth_gbs", "fp32_tflops", "tf32_tflops", "fp16_tflops", "fp8_tflops", "int8_tops", "interconnect", "interconnect_gbs", "tdp_w", "launch_year", "aliases", "notes", "fp64_tflops", "fp64_tensor_tflops", "fp64_source", "ml_stack", "ml_stack_detail", "ml_source", "ml_read_on"}, srcCols...)
	instanceCols  = append([]string{"provider", "instance_type", "family", "gpu", "gpu_count", "gpu_memory_gb", "vcpu", "memory_gib", "gpu_interconnect", "gpu_interconnect_gbs", "network_gbps", "rdma", "local_storage", "status", "notes"}, srcCols...)
	offerCols     = append([]string{"provider", "instance_type", "region", "billing", "hourly", "upfront", "monthly", "currency", "notes", "os"}, srcCols...)
	claimCols     = []string{"id", "seed", "quote", "subject", "field", "claimed", "verdict", "actual", "evidence", "as_of", "claimed_zh", "actual_zh", "evidence_zh"}
	fxCols        = []string{"currency", "per_usd", "as_of", "source_ref"}
	ancillaryCols = append([]string{"provider", "region", "item", "tier_start", "tier_end", "unit", "price", "currency", "notes"}, srcCols...)
	supportCols   = append([]string{"provider", "plan", "tier_start", "tier_end", "percent", "minimum_monthly", "currency", "notes"}, srcCols...)
	spotCols      = append([]string{"provider", "notice_seconds", "protection_hours", "billing_granularity", "price_behaviour", "interruption_data", "notes"}, srcCols...)
	interruptCols = append([]string{"provider", "instance_type", "region", "band", "low_pct", "high_pct", "savings_pct", "period", "mtbi_hours", "band_zh", "notes"}, srcCols...)
	billingCols   = append([]string{"provider", "billing", "sold", "gap_reason", "gap_reason_zh", "notes"}, srcCols...)
	ecoCols       = append([]string{"provider", "category", "key", "value_en", "value_zh", "notes"}, srcCols...)
	onpremCols    = append([]string{"item", "gpu", "value", "unit", "currency", "notes"}, srcCols...)
	requiredFiles = []string{"providers.csv", "regions.csv", "gpus.csv"}
)

// Load reads a catalog directory in the curated CSV format. When overlay is
// not nil, its files are read instead: a file in overlay replaces the file
// of the same path in base, and files only in overlay are added. Any
// problem, in any file, is reported with file, line and field in a
// *catalog.ValidationError; nothing is partially loaded.
func Load(base, overlay fs.FS) (*Dataset, error) {
	d, rates, err := LoadData(base, overlay)
	if err != nil {
		return nil, err
	}
	c, err := catalog.New(d)
	if err != nil {
		return nil, err
	}
	return &Dataset{Catalog: c, FX: rates}, nil
}

// LoadData reads and parses the catalog files without building the
// catalog, so that imported data can be overlaid first
// (catalog.NewWithImports). Parse problems are reported as in Load.
//
// The embedded catalog alone (base is Embedded() and overlay nil) is
// decoded from its compiled form, already validated and in catalog order
// (catalog.Data.MarkValidated); its CSV files are parsed only where
// something is overlaid on them.
func LoadData(base, overlay fs.FS) (catalog.Data, *fx.Table, error) {
	d, t, _, err := LoadDataNarrow(base, overlay, nil)
	return d, t, err
}

// Narrow, given the records that come before the offers (providers,
// regions, GPU models and instance types), returns which instance types'
// offers a command needs, or nil for all of them.
type Narrow func(d *catalog.Data) func(provider, instance string) bool

// LeftOut describes the offers LoadDataNarrow left out.
type LeftOut struct {
	// Any reports whether any offer may have been left out: the catalog
	// then holds only the offers the command asked for, and figures over
	// every offer (counts, coverage) must not be taken from it.
	Any bool
	// NewestAsOf is the newest as-of date of the offers left out (zero
	// when none), for a warning about the age of the newest price.
	NewestAsOf time.Time
}

// LoadDataNarrow is LoadData for a command that shows only the offers of
// some instance types (`offers --gpu A100`): from the compiled form it
// decodes only the offers narrow keeps, which spares the memory of the
// others, and says in LeftOut what it left out. Parsing CSV files keeps
// every offer (LeftOut.Any is false).
func LoadDataNarrow(base, overlay fs.FS, narrow Narrow) (catalog.Data, *fx.Table, LeftOut, error) {
	if _, ok := base.(embeddedFS); ok && overlay == nil && current(base) {
		// A damaged compiled form (which TestCompiledIsCurrent refuses)
		// costs time, never correctness: the CSV files are parsed instead.
		if d, t, left, err := decodeCompiledNarrow(compiled, narrow); err == nil {
			return d, t, left, nil
		}
	}
	d, _, t, err := loadCSV(base, overlay)
	return d, t, LeftOut{}, err
}

// LoadCSV is LoadData from the CSV files always, the embedded catalog's
// included (which LoadData reads from its compiled form): for `catalog
// validate`, which checks the files themselves.
func LoadCSV(base, overlay fs.FS) (catalog.Data, *fx.Table, error) {
	d, _, t, err := loadCSV(base, overlay)
	return d, t, err
}

// loadCSV is LoadData from the CSV files; it also returns the rates of
// fx.csv as read.
func loadCSV(base, overlay fs.FS) (catalog.Data, []fx.Rate, *fx.Table, error) {
	files, err := listFiles(base, overlay)
	if err != nil {
		return catalog.Data{}, nil, nil, err
	}
	p := &problems{}
	// One copy of each identifier, source and number: a big overlay
	// repeats its provider, regions, source and many prices in every row.
	cache := newLoadCache()
	var d catalog.Data
	d.Positions = map[any]catalog.Position{}
	// Offers, the many records, keep their positions in a list: the map
	// is built only for a problem (catalog.Data.Locate).
	var offerAt []offerPos
	var offerFiles []string
	d.Locate = func() map[any]catalog.Position {
		m := make(map[any]catalog.Position, len(offerAt))
		for _, x := range offerAt {
			m[x.offer] = catalog.Position{File: offerFiles[x.file], Line: int(x.line)}
		}
		return m
	}
	var rates []fx.Rate
	var offerBlock []catalog.Offer // offers not yet used, of the last block

	for _, name := range requiredFiles {
		if _, ok := files[name]; !ok {
			return d, nil, nil, fmt.Errorf("catalog: missing %s", name)
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		fsys := files[name]
		var cols, req []string
		var each func(r row)
		switch dir := path.Dir(name); {
		case name == "providers.csv":
			cols, req = providerCols, []string{"id", "name_en", "name_zh"}
			each = func(r row) {
				v := &catalog.Provider{ID: r.need("id"), NameEN: r.str("name_en"), NameZH: r.str("name_zh"),
					Website: r.str("website"), PricingPage: r.str("pricing_page"), Source: r.source()}
				d.Providers = append(d.Providers, v)
				d.Positions[v] = r.pos()
			}
		case name == "regions.csv":
			cols, req = regionCols, []string{"provider", "code", "country", "residency"}
			each = func(r row) {
				v := &catalog.Region{Provider: r.need("provider"), Code: r.need("code"), NameEN: r.str("name_en"),
					NameZH: r.str("name_zh"), Country: r.str("country"), Residency: r.str("residency"), City: r.str("city"), Source: r.source()}
				v.Lat, v.Lon, v.HasCoords = r.coords("lat", "lon")
				d.Regions = append(d.Regions, v)
				d.Positions[v] = r.pos()
			}
		case name == "gpus.csv":
			cols, req = gpuCols, []string{"id", "family", "memory_gb"}
			each = func(r row) {
				v := &catalog.GPU{ID: r.need("id"), Vendor: r.str("vendor"), Family: r.str("family"), Variant: r.str("variant"),
					Architecture: r.str("architecture"), MemoryGB: r.dec("memory_gb"), MemoryType: r.str("memory_type"),
					BandwidthGBs: r.dec("memory_bandwidth_gbs"), FP32TFLOPS: r.dec("fp32_tflops"), TF32TFLOPS: r.dec("tf32_tflops"),
					FP16TFLOPS: r.dec("fp16_tflops"), FP8TFLOPS: r.dec("fp8_tflops"), INT8TOPS: r.dec("int8_tops"),
					FP64TFLOPS: r.dec("fp64_tflops"), FP64TensorTFLOPS: r.dec("fp64_tensor_tflops"), FP64Source: r.str("fp64_source"),
					Interconnect: r.str("interconnect"), InterconnectGBs: r.dec("interconnect_gbs"), TDPW: r.dec("tdp_w"),
					LaunchYear: r.integer("launch_year"), Aliases: splitList(r.str("aliases")), Notes: r.str("notes"), Source: r.source(),
					MLStack: r.str("ml_stack"), MLStackDetail: r.str("ml_stack_detail"), MLSource: r.str("ml_source"), MLReadOn: r.str("ml_read_on")}
				d.GPUs = append(d.GPUs, v)
				d.Positions[v] = r.pos()
			}
		case dir == "instances" && strings.HasSuffix(name, ".csv"):
			cols, req = instanceCols, []string{"provider", "instance_type", "gpu", "gpu_count", "status"}
			each = func(r row) {
				v := &catalog.InstanceType{Provider: r.need("provider"), Name: r.need("instance_type"), Family: r.str("family"),
					GPUID: r.need("gpu"), GPUCount: r.count("gpu_count"), GPUMemoryGB: r.dec("gpu_memory_gb"), VCPU: r.dec("vcpu"),
					MemoryGiB: r.dec("memory_gib"), GPUInterconnect: r.str("gpu_interconnect"), GPUInterconnectGBs: r.dec("gpu_interconnect_gbs"),
					NetworkGbps: r.dec("network_gbps"), RDMA: r.str("rdma"), LocalStorage: r.str("local_storage"), Status: r.str("status"),
					Notes: r.str("notes"), Source: r.source()}
				d.Instances = append(d.Instances, v)
				d.Positions[v] = r.pos()
			}
		case dir == "offers" && strings.HasSuffix(name, ".csv"):
			cols, req = offerCols, []string{"provider", "instance_type", "region", "billing", "currency"}
			// The many rows of an offer file read their columns by index,
			// looked up on the file's first row, and take their offers from
			// blocks of offerBlock (one allocation per block, not per row).
			var oc *offerColumns
			each = func(r row) {
				if oc == nil {
					oc = newOfferColumns(r)
				}
				if len(offerBlock) == 0 {
					offerBlock = make([]catalog.Offer, offerBlockLen)
				}
				v := &offerBlock[0]
				offerBlock = offerBlock[1:]
				// Field by field: the block is zeroed already, and each
				// field is written once (a literal is built, then copied).
				v.Provider, v.InstanceName, v.RegionCode = r.needAt(oc.provider), r.needAt(oc.instance), r.needAt(oc.region)
				v.Billing, v.Notes = catalog.Billing(r.needAt(oc.billing)), r.text(oc.notes)
				v.Source = r.sourceAt(oc.source)
				v.Price.Hourly, v.Price.Upfront, v.Price.Monthly = r.decAt(oc.hourly), r.decAt(oc.upfront), r.decAt(oc.monthly)
				v.Price.Currency = r.text(oc.currency)
				v.OS = r.osAt(oc.os)
				d.Offers = append(d.Offers, v)
				offerAt = append(offerAt, offerPos{v, int32(r.line), uint32(len(offerFiles) - 1)})
			}
			offerFiles = append(offerFiles, name)
			// Room for the file's rows, guessed from its size (a row of an
			// offer file takes 100 bytes or more), instead of growing the
			// lists step by step over a big overlay.
			if st, err := fs.Stat(fsys, name); err == nil && st.Size() > 0 {
				n := int(min(st.Size(), maxFileBytes) / 100)
				d.Offers = slices.Grow(d.Offers, n)
				offerAt = slices.Grow(offerAt, n)
			}
		case name == "claims.csv":
			cols, req = claimCols, []string{"id", "quote", "verdict", "evidence"}
			each = func(r row) {
				v := &catalog.Claim{ID: r.need("id"), Seed: r.str("seed"), Quote: r.str("quote"), Subject: r.str("subject"),
					Field: r.str("field"), Claimed: r.str("claimed"), Verdict: r.str("verdict"), Actual: r.str("actual"),
					Evidence: r.str("evidence"), AsOf: r.str("as_of"),
					ClaimedZH: r.str("claimed_zh"), ActualZH: r.str("actual_zh"), EvidenceZH: r.str("evidence_zh")}
				r.date("as_of")
				d.Claims = append(d.Claims, v)
				d.Positions[v] = r.pos()
			}
		case name == "ancillary.csv":
			cols, req = ancillaryCols, []string{"provider", "region", "item", "unit", "price", "currency"}
			each = func(r row) {
				v := &catalog.AncillaryPrice{Provider: r.need("provider"), Region: r.need("region"), Item: r.need("item"),
					TierStart: r.dec("tier_start"), TierEnd: r.dec("tier_end"), Unit: r.str("unit"),
					Price: catalog.Money{Amount: r.dec("price"), Currency: r.str("currency")}, Notes: r.str("notes"), Source: r.source()}
				d.Ancillary = append(d.Ancillary, v)
				d.Positions[v] = r.pos()
			}
		case name == "support.csv":
			cols, req = supportCols, []string{"provider", "plan", "currency"}
			each = func(r row) {
				v := &catalog.SupportTier{Provider: r.need("provider"), Plan: r.need("plan"), TierStart: r.dec("tier_start"),
					TierEnd: r.dec("tier_end"), Percent: r.dec("percent"), MinimumMonthly: r.dec("minimum_monthly"),
					Currency: r.str("currency"), Notes: r.str("notes"), Source: r.source()}
				d.Support = append(d.Support, v)
				d.Positions[v] = r.pos()
			}
		case name == "onprem.csv":
			cols, req = onpremCols, []string{"item", "value"}
			each = func(r row) {
				v := &catalog.OnPremFigure{Item: r.need("item"), GPU: r.str("gpu"), Value: r.dec("value"), Unit: r.str("unit"),
					Currency: r.str("currency"), Notes: r.str("notes"), Source: r.source()}
				d.OnPrem = append(d.OnPrem, v)
				d.Positions[v] = r.pos()
			}
		case name == "spot.csv":
			cols, req = spotCols, []string{"provider"}
			each = func(r row) {
				v := &catalog.SpotFacts{Provider: r.need("provider"), NoticeSeconds: r.integer("notice_seconds"),
					NoticeKnown: r.str("notice_seconds") != "", ProtectionHrs: r.dec("protection_hours"),
					Granularity: r.str("billing_granularity"), PriceBehaviour: r.str("price_behaviour"),
					Interruptions: r.str("interruption_data"), Notes: r.str("notes"), Source: r.source()}
				d.Spot = append(d.Spot, v)
				d.Positions[v] = r.pos()
			}
		case name == "interruptions.csv":
			cols, req = interruptCols, []string{"provider", "instance_type", "region", "band"}
			each = func(r row) {
				v := &catalog.InterruptionBand{Provider: r.need("provider"), InstanceName: r.need("instance_type"), Region: r.need("region"),
					Band: r.need("band"), LowPct: r.dec("low_pct"), HighPct: r.dec("high_pct"), SavingsPct: r.dec("savings_pct"),
					Period: r.str("period"), MTBIHours: r.dec("mtbi_hours"), BandZH: r.str("band_zh"), Notes: r.str("notes"), Source: r.source()}
				d.Interrupt = append(d.Interrupt, v)
				d.Positions[v] = r.pos()
			}
		case name == "billing_models.csv":
			cols, req = billingCols, []string{"provider", "billing", "sold"}
			each = func(r row) {
				sold := r.need("sold")
				if sold != "" && sold != "yes" && sold != "no" {
					p.add(r.file, r.line, "sold", "%q is not yes or no", sold)
				}
				v := &catalog.BillingModel{Provider: r.need("provider"), Billing: catalog.Billing(r.need("billing")), Sold: sold == "yes",
					GapReason: r.str("gap_reason"), GapReasonZH: r.str("gap_reason_zh"), Notes: r.str("notes"), Source: r.source()}
				d.Billing = append(d.Billing, v)
				d.Positions[v] = r.pos()
			}
		case name == "ecosystem.csv":
			cols, req = ecoCols, []string{"provider", "category", "value_en"}
			each = func(r row) {
				v := &catalog.EcosystemFact{Provider: r.need("provider"), Category: r.need("category"), Key: r.str("key"),
					ValueEN: r.str("value_en"), ValueZH: r.str("value_zh"), Notes: r.str("notes"), Source: r.source()}
				d.Ecosystem = append(d.Ecosystem, v)
				d.Positions[v] = r.pos()
			}
		case name == "fx.csv":
			cols, req = fxCols, fxCols
			each = func(r row) {
				rate := fx.Rate{Currency: r.need("currency"), PerUSD: r.dec("per_usd"), AsOf: r.date("as_of"), Source: r.need("source_ref")}
				if !rate.PerUSD.IsPositive() {
					p.add(r.file, r.line, "per_usd", "must be a positive number")
					return
				}
				if rate.AsOf.IsZero() {
					p.add(r.file, r.line, "as_of", "required")
				}
				rates = append(rates, rate)
			}
		default:
			continue // README files and the like
		}
		if err := readTable(fsys, name, req, cols, p, cache, each); err != nil {
			return d, nil, nil, fmt.Errorf("catalog: %w", err)
		}
	}
	if len(p.list) > 0 {
		return d, nil, nil, &catalog.ValidationError{Problems: p.list}
	}
	table, err := fx.New(rates)
	if err != nil {
		return d, nil, nil, fmt.Errorf("fx.csv: %w", err)
	}
	if probs := unconvertible(d, table); len(probs) > 0 {
		return d, nil, nil, &catalog.ValidationError{Problems: probs}
	}
	return d, rates, table, nil
}

// unconvertible finds prices in a currency fx.csv has no rate for: they
// could be neither converted nor compared, so the file is rejected here,
// with file and line, rather than failing a query later.
func unconvertible(d catalog.Data, t *fx.Table) []catalog.Problem {
	var out []catalog.Problem
	var located map[any]catalog.Position
	check := func(rec any, cur string) {
		if cur == "" {
			return // a missing currency is reported by validation
		}
		if _, ok := t.Rate(cur); !ok {
			pos, ok := d.Positions[rec]
			if !ok && d.Locate != nil {
				if located == nil {
					located = d.Locate()
				}
				pos = located[rec]
			}
			out = append(out, catalog.Problem{Pos: pos, Field: "currency",
				Msg: fmt.Sprintf("no exchange rate for %q in fx.csv (known: %s)", cur, strings.Join(t.Currencies(), ", "))})
		}
	}
	for _, o := range d.Offers {
		check(o, o.Price.Currency)
	}
	for _, a := range d.Ancillary {
		check(a, a.Price.Currency)
	}
	for _, s := range d.Support {
		check(s, s.Currency)
	}
	for _, f := range d.OnPrem {
		check(f, f.Currency)
	}
	return out
}

// offerBlockLen is how many offers one allocation holds.
const offerBlockLen = 1024

// offerColumns are the columns of an offer file, looked up once per file.
type offerColumns struct {
	provider, instance, region, billing, hourly, upfront, monthly, currency, notes, os column
	source                                                                             sourceColumns
}

func newOfferColumns(r row) *offerColumns {
	return &offerColumns{provider: r.column("provider"), instance: r.column("instance_type"), region: r.column("region"),
		billing: r.column("billing"), hourly: r.column("hourly"), upfront: r.column("upfront"), monthly: r.column("monthly"),
		currency: r.column("currency"), notes: r.column("notes"), os: r.column("os"), source: r.sourceColumns()}
}

// offerPos is an offer and where it was read: its line and the index of
// its file in a list of file names.
type offerPos struct {
	offer *catalog.Offer
	line  int32
	file  uint32
}

// LoadEmbedded loads the embedded catalog.
func LoadEmbedded() (*Dataset, error) { return Load(Embedded(), nil) }

// listFiles maps each catalog file path to the file system it is read from.
func listFiles(base, overlay fs.FS) (map[string]fs.FS, error) {
	files := map[string]fs.FS{}
	for _, fsys := range []fs.FS{base, overlay} {
		if fsys == nil {
			continue
		}
		err := fs.WalkDir(fsys, ".", func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !de.IsDir() && strings.HasSuffix(p, ".csv") {
				files[p] = fsys
			}
			return nil
		})
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("catalog directory not found: %w", err)
			}
			return nil, fmt.Errorf("reading catalog directory: %w", err)
		}
	}
	return files, nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
