package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// tcoOptions are the flags of `gpuscout tco`.
type tcoOptions struct {
	offers  []string
	onprem  string
	servers int
	usage   usageFlags
}

func (a *app) tcoCmd() *cobra.Command {
	o := &tcoOptions{}
	cmd := &cobra.Command{
		Use:   "tco",
		Short: "Compare plans over a horizon: clouds, billing models, mixes, and buying your own GPU servers",
		Long: `Compare the total cost of ownership of several plans over a horizon. A plan is one offer, a
mix of offers (a reserved baseline plus spot bursts), or buying GPU servers and running them in a
colocation facility. The answer names the cheapest plan and the break-even points: the
utilisation above which each commitment beats on-demand, and the month from which buying beats
renting.

Quick comparisons take --offer (repeatable) and --onprem GPU; a plan file (-f plans.yaml) holds
named plans with their own usage. See docs/cost.md for the file format and formulas.`,
		Example: `  # On-demand vs a 1-year reservation vs buying an 8×H100 server, over 3 years
  gpuscout tco --months 36 --offer aws/p5.48xlarge/us-east-1/on-demand \
      --offer gcp/a3-highgpu-8g/us-central1/committed-3y --onprem H100-SXM-80GB

  # Named plans from a file, in CNY
  gpuscout tco -f plans.yaml --currency CNY`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runTCO(cmd, o) },
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.offers, "offer", nil, "offer ID to compare as its own plan (repeatable)")
	f.StringVar(&o.onprem, "onprem", "", "add a plan that buys servers with this GPU (catalog defaults; e.g. H100-SXM-80GB)")
	f.IntVar(&o.servers, "servers", 1, "servers for --onprem")
	o.usage.register(f, "plan file (YAML): months, currency, usage, plans (name, offer | parts | onprem)")
	return cmd
}

func (a *app) runTCO(cmd *cobra.Command, o *tcoOptions) error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	c := ds.Catalog
	e := a.engine(c)
	base := pricing.DefaultUsage()
	if err := o.usage.apply(cmd.Flags(), &base); err != nil {
		return err
	}
	var plans []pricing.Plan
	months, currency := base.Months, a.cur
	if o.usage.file != "" {
		f, err := os.Open(o.usage.file)
		if err != nil {
			return usagef("", "plan file: %v", err)
		}
		var cur string
		plans, months, cur, err = planfile.Read(f, c, e.OnPremDefaults, base)
		f.Close()
		if err != nil {
			return &dataError{err: fmt.Errorf("%s: %w", o.usage.file, err)}
		}
		if cur != "" && !cmd.Flags().Changed("currency") && !cmd.Root().PersistentFlags().Changed("currency") {
			if _, ok := a.rates.Rate(cur); !ok {
				return &dataError{err: fmt.Errorf("%s: currency: no exchange rate for %q", o.usage.file, cur)}
			}
			currency = cur
		}
	}
	if cmd.Flags().Changed("months") {
		months = base.Months
	}
	for _, id := range o.offers {
		off, err := planfile.ResolveOffer(c, id)
		if err != nil {
			return err
		}
		u := base
		u.Months = months
		plans = append(plans, pricing.Plan{Name: id, Parts: []pricing.Part{{Offer: off, Usage: u}}})
	}
	if o.onprem != "" {
		gs, err := c.LookupGPU(o.onprem)
		if err != nil {
			return err
		}
		p, err := e.OnPremDefaults(gs[0].ID, o.servers)
		if err != nil {
			return usagef("set the missing figures in a plan file (onprem: server_price, power_kw ...).", "%v", err)
		}
		name := fmt.Sprintf("buy %d× %s server", o.servers, gs[0].ID)
		if a.out != output.JSON {
			name = a.printer.T("web.tco.buy", o.servers, gs[0].ID)
		}
		plans = append(plans, pricing.Plan{Name: name, OnPrem: &p})
	}
	if len(plans) == 0 {
		return usagef("gpuscout tco --offer ID --offer ID [--onprem GPU], or -f plans.yaml.", "nothing to compare")
	}
	res, err := e.Compare(plans, months, currency)
	if err != nil {
		return inputError(err, o.usage.file)
	}
	doc, err := document.BuildTCO(res, a.rates, a.printer)
	if err != nil {
		return err
	}
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, doc)
	}
	return a.writeTCO(doc, res)
}

func (a *app) writeTCO(doc document.TCO, res *pricing.TCO) error {
	p := a.printer
	g := &output.Grid{
		Headers: []string{p.T("col.plan"), p.T("col.total") + " " + doc.Currency, p.T("col.after"), p.T("col.gpus"),
			p.T("col.per_gpu") + " " + doc.Currency, p.T("col.per_used_gpu") + " " + doc.Currency, ""},
		Align: []output.Align{output.Left, output.Right, output.Right, output.Right, output.Right, output.Right, output.Left},
	}
	hi := decimal.Zero
	for _, r := range res.Plans {
		hi = decimal.Max(hi, r.Total)
	}
	for _, r := range res.Plans {
		name := r.Name
		if r.Name == res.Cheapest {
			name += " ✓"
		}
		bar := ""
		if a.out == output.Table && hi.IsPositive() {
			bar = strings.Repeat("█", int(r.Total.Div(hi).Mul(decimal.NewFromInt(24)).Round(0).IntPart()))
		}
		g.Add(name, money(r.Total), money(r.After), qty(r.GPUs), money(r.PerGPUHour()), money(r.PerUsedGPUHour()), bar)
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	w := a.io.Out
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.T("tco.cheapest", doc.Cheapest, doc.Months))
	if doc.RankedBy != "total" {
		fmt.Fprintln(w, p.T("tco.ranked_per_hour"))
	}
	for _, r := range res.Plans {
		if r.Scale > 1 {
			fmt.Fprintln(w, p.T("tco.scaled", r.Name, r.Scale, qty(r.GPUs)))
		}
	}
	for _, b := range res.BreakEven {
		fmt.Fprintln(w, "• "+p.T(b.Key, b.Args...))
	}
	if ds, err := a.data(); err == nil {
		writeOfferGaps(w, p, ds.Catalog, res)
	}
	var notes []string
	seen := map[string]bool{}
	var from []string
	for _, r := range res.Plans {
		for _, b := range r.Breakdowns {
			from = append(from, b.Currency)
			for _, n := range p.Ms(b.Notes) {
				if !seen[n] {
					seen[n] = true
					notes = append(notes, n)
				}
			}
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, "  "+n)
	}
	if n := ratesNote(p, a.rates, from, doc.Currency); n != "" {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintln(w, p.T("tco.details"))
	return nil
}
