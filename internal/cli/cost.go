package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// usageFlags are the usage-profile flags shared by cost and tco.
type usageFlags struct {
	instances     int
	hoursPerDay   float64
	daysPerMonth  float64
	utilization   float64
	months        int
	start         string
	storageGB     float64
	objectGB      float64
	egressGB      float64
	interRegionGB float64
	loadBalancers int
	support       string
	file          string
}

func (f *usageFlags) register(fs *pflag.FlagSet, fileHelp string) {
	fs.IntVar(&f.instances, "instances", 1, "number of instances")
	fs.Float64Var(&f.hoursPerDay, "hours-per-day", 24, "hours a day the instances run")
	fs.Float64Var(&f.daysPerMonth, "days-per-month", 0, "days a month the instances run (default: every day, 730 h a month)")
	fs.Float64Var(&f.utilization, "utilization", 1, "fraction (0-1) of those hours actually used")
	fs.IntVar(&f.months, "months", 1, "horizon in months")
	fs.StringVar(&f.start, "start", "", "first month of the horizon, YYYY-MM (for cash-flow dates)")
	fs.Float64Var(&f.storageGB, "storage-gb", 0, "block storage, GB")
	fs.Float64Var(&f.objectGB, "object-storage-gb", 0, "object storage, GB")
	fs.Float64Var(&f.egressGB, "egress-gb", 0, "internet egress, GB per month")
	fs.Float64Var(&f.interRegionGB, "inter-region-gb", 0, "cross-region transfer, GB per month")
	fs.IntVar(&f.loadBalancers, "load-balancers", 0, "number of load balancers")
	fs.StringVar(&f.support, "support", "", "support plan name (business, enterprise ...) or a percentage of spend (10%)")
	fs.StringVarP(&f.file, "file", "f", "", fileHelp)
}

// apply sets the flags the user gave on u (flags win over the file).
func (f *usageFlags) apply(fs *pflag.FlagSet, u *pricing.Usage) error {
	dec := func(name string, v float64, dst *decimal.Decimal) {
		if fs.Changed(name) {
			*dst = decimal.NewFromFloat(v)
		}
	}
	if fs.Changed("instances") {
		u.Instances = f.instances
	}
	if fs.Changed("months") {
		u.Months = f.months
	}
	if fs.Changed("load-balancers") {
		u.LoadBalancers = f.loadBalancers
	}
	dec("hours-per-day", f.hoursPerDay, &u.HoursPerDay)
	dec("days-per-month", f.daysPerMonth, &u.DaysPerMonth)
	dec("utilization", f.utilization, &u.Utilization)
	dec("storage-gb", f.storageGB, &u.StorageGB)
	dec("object-storage-gb", f.objectGB, &u.ObjectStorageGB)
	dec("egress-gb", f.egressGB, &u.EgressGB)
	dec("inter-region-gb", f.interRegionGB, &u.InterRegionGB)
	if fs.Changed("start") {
		t, err := planfile.ParseMonth(f.start)
		if err != nil {
			return usagef("", "--start: %v", err)
		}
		u.Start = t
	}
	if fs.Changed("support") {
		if err := planfile.SetSupport(u, f.support); err != nil {
			return usagef("", "--support: %v", err)
		}
	}
	return nil
}

// usageError maps engine errors on user input to exit codes: a bad field
// from flags is a usage error (2); from a file, invalid input data (3).
func inputError(err error, fromFile string) error {
	var fe *pricing.FieldError
	if errors.As(err, &fe) {
		if fromFile != "" {
			return &dataError{err: fmt.Errorf("%s: %w", fromFile, err)}
		}
		return &usageError{err: err, hint: "see --help for the usage flags and their ranges."}
	}
	return err
}

// costOptions are the flags of `gpuscout cost`.
type costOptions struct {
	offer string
	usage usageFlags
}

func (a *app) costCmd() *cobra.Command {
	o := &costOptions{}
	cmd := &cobra.Command{
		Use:   "cost",
		Short: "The whole bill of one offer: compute under its billing model, storage, egress, support",
		Long: `Price one offer under a usage profile and show the bill as named components — compute under
the offer's billing model, storage, internet egress, inter-region transfer, load balancers and
support — each with its unit, quantity, unit price and source, plus the monthly cash flow.

Commitments (reserved, savings plans, committed use, 包年包月) are charged for every hour of their
term whether used or not: below full utilisation they cost more per used GPU-hour, and a horizon
shorter than the term still owes the rest of it. For a commitment, the utilisation above which it
beats on-demand is shown. Usage comes from flags or a YAML file (-f); flags win.`,
		Example: `  # A month of p4d.24xlarge on-demand, 8 hours a day on weekdays
  gpuscout cost --offer aws/p4d.24xlarge/us-east-1/on-demand --hours-per-day 8 --days-per-month 22

  # A 1-year reservation used 60% of the time, with 2 TB of disk and 500 GB egress a month
  gpuscout cost --offer aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront --months 12 \
      --utilization 0.6 --storage-gb 2000 --egress-gb 500 --support business

  # A Tencent 包月 subscription, in USD, from a usage file
  gpuscout cost --offer tencent/GT4.41XLARGE948/ap-guangzhou/subscription-1m -f usage.yaml --currency USD`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runCost(cmd, o) },
	}
	cmd.Flags().StringVar(&o.offer, "offer", "", "offer ID: provider/instance_type/region/billing (see gpuscout offers -o json)")
	o.usage.register(cmd.Flags(), "usage file (YAML): instances, hours_per_day, utilization, months, storage_gb, egress_gb, support, spend_discounts, hour_tiers ...")
	return cmd
}

// engine builds the cost engine over the loaded catalog.
func (a *app) engine(c *catalog.Catalog) *pricing.Engine {
	return &pricing.Engine{Prices: c, FX: a.rates, Spot: spot.CostHook{Facts: c}}
}

func (a *app) runCost(cmd *cobra.Command, o *costOptions) error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	if o.offer == "" {
		return usagef("pick one with gpuscout offers; its ID is provider/instance_type/region/billing.", "--offer is required")
	}
	off, err := document.ResolveOffer(ds.Catalog, o.offer)
	if err != nil {
		return jobInputError(err)
	}
	u := pricing.DefaultUsage()
	if o.usage.file != "" {
		f, err := os.Open(o.usage.file)
		if err != nil {
			return usagef("", "usage file: %v", err)
		}
		err = planfile.ReadUsage(f, &u)
		f.Close()
		if err == nil {
			err = u.Validate()
		}
		if err != nil {
			return &dataError{err: fmt.Errorf("%s: %w", o.usage.file, err)}
		}
	}
	if err := o.usage.apply(cmd.Flags(), &u); err != nil {
		return err
	}
	doc, err := document.AnswerCost(a.engine(ds.Catalog), a.rates, document.CostRequest{Offer: off, Usage: u, Currency: a.cur, Lang: a.printer.Lang()})
	if err != nil {
		return inputError(err, "")
	}
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, doc)
	}
	return a.writeCost(doc)
}

// jobInputError turns the shared answers' input errors into usage errors
// (exit 2) with their hints; other errors pass through.
func jobInputError(err error) error {
	var ie *document.InputError
	if errors.As(err, &ie) {
		return &usageError{err: err, hint: ie.Hint}
	}
	return err
}

// writeCost renders a cost document as a table with a summary.
func (a *app) writeCost(doc document.Cost) error {
	p := a.printer
	g := &output.Grid{
		Headers: []string{p.T("col.component"), p.T("col.quantity"), p.T("col.unit"), p.T("col.unit_price"),
			p.T("col.monthly") + " " + doc.Currency, p.T("col.total") + " " + doc.Currency, p.T("col.source")},
		Align: []output.Align{output.Left, output.Right, output.Left, output.Right, output.Right, output.Right, output.Left},
	}
	for _, c := range doc.Components {
		g.Add(componentName(p, c.Name), num(c.Quantity), enumLabel(p, "cli.unit.", c.Unit), num(c.UnitPrice.Amount)+" "+c.UnitPrice.Currency, numMoney(c.Monthly),
			numMoney(c.Total), enumLabel(p, "source.", c.Source.Kind)+" "+c.Source.Date(p))
	}
	g.Add(p.T("cost.total"), "", "", "", "", numMoney(doc.Total), "")
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	w := a.io.Out
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.T("cost.summary", doc.Label, doc.Usage.Months, numMoney(doc.Total), doc.Currency))
	if doc.AfterHorizon != "0" {
		fmt.Fprintln(w, p.T("cost.after", numMoney(doc.AfterHorizon), doc.Currency))
	}
	fmt.Fprintln(w, p.T("cost.per_gpu_hour", numMoney(doc.EffectivePerGPUHour), numMoney(doc.EffectivePerUsedGPUHour), doc.Currency,
		num(doc.Usage.UsedHoursPerMonth)))
	if doc.BreakEven != nil {
		fmt.Fprintln(w, p.T("cost.break_even", doc.BreakEven.Text))
	}
	if len(doc.Monthly) > 1 {
		var vals []decimal.Decimal
		for _, m := range doc.Monthly {
			vals = append(vals, decimal.RequireFromString(m.Amount.String()))
		}
		fmt.Fprintln(w, p.T("cost.cashflow", sparkline(vals)))
	}
	for _, n := range doc.Notes {
		fmt.Fprintln(w, "• "+n)
	}
	var from []string
	for _, c := range doc.Components {
		from = append(from, c.UnitPrice.Currency)
	}
	if n := ratesNote(p, a.rates, from, doc.Currency); n != "" {
		fmt.Fprintln(w, n)
	}
	return nil
}

// num formats a JSON number for a table cell.
func num(n interface{ String() string }) string {
	d, err := decimal.NewFromString(n.String())
	if err != nil {
		return n.String()
	}
	return qtyOrZero(d)
}

func qtyOrZero(d decimal.Decimal) string {
	if d.IsZero() {
		return "0"
	}
	if d.Abs().LessThan(decimal.NewFromInt(1)) {
		return d.Round(4).String()
	}
	return d.Round(2).String()
}

// numMoney formats a JSON number as money.
func numMoney(n interface{ String() string }) string {
	d, err := decimal.NewFromString(n.String())
	if err != nil {
		return n.String()
	}
	return money(d)
}

// sparkline draws values as a row of block characters, lowest to highest.
func sparkline(vals []decimal.Decimal) string {
	bars := []rune("▁▂▃▄▅▆▇█")
	if len(vals) == 0 {
		return ""
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = decimal.Min(lo, v), decimal.Max(hi, v)
	}
	var b strings.Builder
	for _, v := range vals {
		i := len(bars) / 2 // flat series: a level line
		if hi.GreaterThan(lo) {
			i = int(v.Sub(lo).Div(hi.Sub(lo)).Mul(decimal.NewFromInt(int64(len(bars) - 1))).Round(0).IntPart())
		}
		b.WriteRune(bars[i])
	}
	return b.String()
}

// componentName translates a component name for tables.
func componentName(p *i18n.Printer, name string) string { return p.Component(name) }
