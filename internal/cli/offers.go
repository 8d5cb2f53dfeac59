package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/spf13/cobra"
)

// offersOptions are the flags of `gpuscout offers`.
type offersOptions struct {
	providers   []string
	gpus        []string
	minGPUs     float64
	minVRAM     float64
	regions     []string
	countries   []string
	residency   []string
	billing     []string
	maxPrice    float64
	per         string
	sort        string
	limit       int
	perProvider int
	oneRegion   bool
	all         bool
	osName      string
	available   bool
}

func (a *app) offersCmd() *cobra.Command {
	o := &offersOptions{}
	cmd := &cobra.Command{
		Use:   "offers",
		Short: "List GPU offers (instance × region × billing model) with effective prices",
		Long: `List GPU offers: an instance type, in a region, under a billing model, with its effective
price per instance-hour and per GPU-hour in your currency, and the source and date of the price.

Effective price = hourly + upfront / term hours + monthly / 730, so reserved, savings-plan
and 包年包月 subscription prices compare directly with on-demand and spot. --gpu understands
families (A100 matches every A100 variant) and aliases; filters combine with AND, repeated
values of one filter with OR.`,
		Example: `  # The cheapest 8×A100 or 8×H100 offers, one per cloud
  gpuscout offers --gpu A100,H100 --min-gpus 8 --per-provider 1

  # Every H100 instance and billing model once, in its cheapest region
  gpuscout offers --gpu H100 --cheapest-region

  # A100 in mainland China (Alibaba, Tencent, AWS China), in CNY
  gpuscout offers --gpu A100 --residency cn-mainland --currency CNY

  # Spot and on-demand GPUs with at least 40 GB each under $2/GPU-hour
  gpuscout offers --min-vram 40 --billing spot,on-demand --per gpu-hour --max-price 2

  # Best FP16 throughput per dollar, as JSON
  gpuscout offers --sort fp16-tflops-per-dollar --limit 10 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runOffers(o) },
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.providers, "provider", nil, "providers (aws, azure, gcp, alibaba, tencent, oci, lambda, runpod, nebius, coreweave, vast, hyperstack, verda, digitalocean, crusoe, huawei, volcengine, baidu; gpuscout catalog stats lists them); repeatable or comma-separated")
	f.StringSliceVar(&o.gpus, "gpu", nil, "GPU models or families (A100, H100-SXM-80GB, T4 ...); repeatable or comma-separated")
	f.Float64Var(&o.minGPUs, "min-gpus", 0, "minimum GPUs per instance")
	f.Float64Var(&o.minVRAM, "min-vram", 0, "minimum memory per GPU, GB")
	f.StringSliceVar(&o.regions, "region", nil, "region codes (us-east-1, cn-beijing, ap-guangzhou ...)")
	f.StringSliceVar(&o.countries, "country", nil, "ISO country codes (US, CN, DE ...)")
	f.StringSliceVar(&o.residency, "residency", nil, "data-residency zones (cn-mainland, eu, us ...)")
	f.StringSliceVar(&o.billing, "billing", nil, "billing models or families: on-demand, spot, reserved, savings-plan, committed, subscription, reserved-1y-no-upfront ...")
	f.Float64Var(&o.maxPrice, "max-price", 0, "maximum price, in --currency per --per unit")
	f.StringVar(&o.per, "per", "instance-hour", "price unit: instance-hour, gpu-hour, month")
	f.StringVar(&o.sort, "sort", "price", "order: price, gpu-price, vram, fp16-tflops-per-dollar")
	f.IntVar(&o.limit, "limit", 30, "show at most this many offers (0 = all)")
	f.IntVar(&o.perProvider, "per-provider", 0, "keep only the first N offers of each provider (after sorting)")
	f.BoolVar(&o.oneRegion, "cheapest-region", false, "show each instance type and billing model once, in its cheapest region")
	f.BoolVar(&o.all, "include-retired", false, "include retired instance types")
	f.BoolVar(&o.available, "available", false, "keep only offers the provider's own API last reported capacity for (a live import: gpuscout catalog update --provider lambda,runpod,vast), with how long ago")
	f.StringVar(&o.osName, "os", "linux", "operating system the prices are for: linux, or windows (licence-included Windows rates, where an import carries them)")
	return cmd
}

// buildOfferQuery turns flags into a catalog query, resolving names.
func (a *app) buildOfferQuery(c *catalog.Catalog, o *offersOptions) (catalog.OfferQuery, error) {
	q := catalog.OfferQuery{Currency: a.cur, FX: a.rates, Regions: splitFlags(o.regions),
		Countries: splitFlags(o.countries), Residency: splitFlags(o.residency)}
	var err error
	if q.Providers, err = resolveProviders(c, o.providers); err != nil {
		return q, err
	}
	if q.GPUs, err = resolveGPUs(c, o.gpus); err != nil {
		return q, err
	}
	for _, b := range splitFlags(o.billing) {
		if !catalog.ValidBillingFilter(b) {
			return q, usagef("billing models: on-demand, spot, reserved, savings-plan, committed, subscription, capacity-block, flex-start, or a full code such as reserved-1y-no-upfront.",
				"unknown billing model %q", b)
		}
		q.Billing = append(q.Billing, b)
	}
	if q.MinGPUs, err = decFlag("min-gpus", o.minGPUs); err != nil {
		return q, err
	}
	if q.MinVRAMGB, err = decFlag("min-vram", o.minVRAM); err != nil {
		return q, err
	}
	if q.MaxPrice, err = decFlag("max-price", o.maxPrice); err != nil {
		return q, err
	}
	if q.Per, err = catalog.ParsePriceUnit(o.per); err != nil {
		return q, usagef("", "%v", err)
	}
	if q.Sort, err = catalog.ParseSortKey(o.sort); err != nil {
		return q, usagef("", "%v", err)
	}
	if o.limit < 0 || o.perProvider < 0 {
		return q, usagef("", "--limit and --per-provider must not be negative")
	}
	if o.all {
		q.Statuses = []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}
	}
	os, ok := catalog.ParseOS(o.osName)
	if !ok {
		return q, usagef("--os linux (the default) or --os windows.", "unknown operating system %q", o.osName)
	}
	q.OS = os
	q.Available = o.available
	return q, nil
}

func (a *app) runOffers(o *offersOptions) error {
	a.onlyGPUs = splitFlags(o.gpus)
	return a.showOffers(o)
}

// showOffers answers the offers command from the data loaded for it.
func (a *app) showOffers(o *offersOptions) error {
	// Without --cheapest-region or --per-provider, which need every row,
	// only the rows shown are sorted.
	top := o.limit
	if o.oneRegion || o.perProvider > 0 {
		top = 0
	}
	fast, ok := a.fastOffers(o, top)
	ds, q, rows, total := fast.ds, fast.q, fast.rows, fast.total
	var err error
	if !ok {
		if ds, err = a.data(); err != nil {
			return err
		}
		if q, err = a.buildOfferQuery(ds.Catalog, o); err != nil {
			return err
		}
		if rows, total, err = ds.Catalog.QueryOffersTop(q, top); err != nil {
			return err
		}
		if len(rows) == 0 && ds.left.Any {
			// What is said when nothing matches (which providers have no
			// public price at all) needs every offer: load them.
			a.ds, a.onlyGPUs = nil, nil
			return a.showOffers(o)
		}
	}
	c := ds.Catalog
	if o.oneRegion {
		rows = catalog.CheapestRegion(rows)
	}
	if o.perProvider > 0 {
		rows = catalog.FirstPerProvider(rows, o.perProvider)
	}
	if top == 0 {
		total = len(rows)
	}
	if o.limit > 0 && len(rows) > o.limit {
		rows = rows[:o.limit]
	}
	if a.out == output.JSON {
		doc := document.BuildOffers(rows, total, a.cur, a.rates)
		if ds.Imports != nil {
			doc.Warnings = document.BuildWarnings(ds.Imports.Rejected, a.printer)
		}
		return output.WriteJSON(a.io.Out, doc)
	}
	p := a.printer
	g := &output.Grid{
		Headers: []string{p.T("col.provider"), p.T("col.instance"), p.T("col.gpu"), p.T("col.vram_total"), p.T("col.vcpu"),
			p.T("col.ram"), p.T("col.region"), p.T("col.billing"), p.T("col.price") + " " + unitLabel(p, q.Per, a.cur),
			p.T("col.per_gpu") + " " + a.cur, p.T("col.source"), p.T("col.as_of")},
		Align: []output.Align{output.Left, output.Left, output.Left, output.Right, output.Right, output.Right, output.Left,
			output.Left, output.Right, output.Right, output.Left, output.Left},
	}
	// CSV rows say which operating system each price is for.
	withOS := a.out == output.CSV
	if withOS {
		g.Headers = append(g.Headers, p.T("col.os"))
		g.Align = append(g.Align, output.Left)
	}
	// The stock column shows when a row has a reading (a live import's).
	withStock := slices.ContainsFunc(rows, func(r catalog.OfferRow) bool { return r.Offer.Stock != nil })
	if withStock {
		g.Headers = append(g.Headers, p.T("col.stock"))
		g.Align = append(g.Align, output.Left)
	}
	// CSV is written row by row; the other formats need every row first
	// (a table sizes its columns on them).
	var cw *output.CSVWriter
	if a.out == output.CSV {
		cw = output.NewCSVWriter(a.io.Out)
		if err := cw.Write(g.Headers); err != nil {
			return err
		}
	}
	cells := make([]string, 0, len(g.Headers))
	var from []string
	nStale := 0
	discovered := false
	for _, r := range rows {
		it := r.Offer.Instance
		discovered = discovered || it.Discovered
		from = append(from, r.Offer.Price.Currency)
		asOf := p.SourceDate(r.Offer.Source.AsOfString(), r.Offer.Source.ReadOnString())
		if stale(r.Offer.Source.AsOf, a.today()) {
			asOf += "*"
			nStale++
		}
		cells = append(cells[:0], r.Offer.Provider, discoveredMark(it), qty(it.GPUCount)+"× "+it.GPUID, qty(it.GPUMemoryGB)+" GB", qty(it.VCPU),
			qty(it.MemoryGiB), r.Offer.RegionCode, billingLabel(p, r.Offer.Billing), money(r.Price), money(r.PerGPUHourly),
			enumLabel(p, "source.", string(r.Offer.Source.Kind)), asOf)
		if withOS {
			cells = append(cells, r.Offer.OSName())
		}
		if withStock {
			cells = append(cells, a.stockCell(r.Offer.Stock))
		}
		if cw != nil {
			if err := cw.Write(cells); err != nil {
				return err
			}
			continue
		}
		g.Add(slices.Clone(cells)...)
	}
	if cw != nil {
		return cw.Flush()
	}
	if len(rows) == 0 && a.out == output.Table {
		if q.OS == catalog.OSWindows && len(c.OffersOS(catalog.OSWindows)) == 0 {
			fmt.Fprintln(a.io.Out, p.T("note.windows_none"))
			return nil
		}
		fmt.Fprintln(a.io.Out, p.T("note.none"))
		if q.Available {
			fmt.Fprintln(a.io.Out, p.T("note.stock_none"))
		}
		for _, id := range unpriced(c, q.Providers) {
			fmt.Fprintln(a.io.Out, p.T("note.no_public_price", id, c.Stats().ByProvider[id].InstanceTypes))
		}
		return nil
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	fmt.Fprintln(a.io.Out)
	if total > len(rows) {
		fmt.Fprintln(a.io.Out, p.T("note.shown", len(rows), total))
	} else {
		fmt.Fprintln(a.io.Out, p.T("note.shown_all", total))
	}
	if n := ratesNote(p, a.rates, from, a.cur); n != "" {
		fmt.Fprintln(a.io.Out, n)
	}
	if nStale > 0 {
		fmt.Fprintln(a.io.Out, p.T("note.stale", nStale, staleMonths))
	}
	if m := marketplaces(c, rows); len(m) > 0 {
		fmt.Fprintln(a.io.Out, p.T("note.marketplace", strings.Join(m, ", ")))
	}
	if discovered {
		fmt.Fprintln(a.io.Out, p.T("note.discovered"))
	}
	if withStock {
		fmt.Fprintln(a.io.Out, p.T("note.stock"))
	}
	if q.OS == catalog.OSWindows {
		fmt.Fprintln(a.io.Out, p.T("note.windows"))
	}
	return nil
}

// stockCell renders an offer's stock reading ("seen available 12 min
// ago"), "-" for none.
func (a *app) stockCell(s *catalog.Stock) string {
	if s == nil {
		return "-"
	}
	return a.printer.StockPhrase(string(s.State), s.Age(a.env.Now()))
}

// unpriced lists the asked-for providers that have instance types but no
// offer at all: no public price could be sourced for them.
func unpriced(c *catalog.Catalog, providers []string) []string {
	var out []string
	st := c.Stats()
	for _, id := range providers {
		if ps := st.ByProvider[id]; ps != nil && ps.InstanceTypes > 0 && ps.Offers == 0 {
			out = append(out, id)
		}
	}
	return out
}

// marketplaces lists, once each and in order of appearance, the providers
// of rows that are marketplaces (their prices are hosts' asking prices).
func marketplaces(c *catalog.Catalog, rows []catalog.OfferRow) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		pv := r.Offer.Provider
		if !seen[pv] && c.IsMarketplace(pv) {
			out = append(out, pv)
		}
		seen[pv] = true
	}
	return out
}

// resolveProviders resolves --provider values to provider IDs.
func resolveProviders(c *catalog.Catalog, flags []string) ([]string, error) {
	var ids []string
	for _, p := range splitFlags(flags) {
		pr, err := c.LookupProvider(p)
		if err != nil {
			return nil, err
		}
		ids = append(ids, pr.ID)
	}
	return ids, nil
}

// resolveGPUs resolves --gpu values (families, IDs, aliases) to GPU IDs.
func resolveGPUs(c *catalog.Catalog, flags []string) ([]string, error) {
	var ids []string
	for _, name := range splitFlags(flags) {
		gs, err := c.LookupGPU(name)
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
	}
	return ids, nil
}
