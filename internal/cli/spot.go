package cli

import (
	"fmt"
	"math"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// spotOptions are the flags of `gpuscout spot`.
type spotOptions struct {
	offer      string
	work       float64
	checkpoint float64
	restart    float64
	deadline   float64
	mtbi       float64
	trials     int
	seed       uint64
	weibull    float64
}

func (a *app) spotCmd() *cobra.Command {
	o := &spotOptions{}
	cmd := &cobra.Command{
		Use:   "spot",
		Short: "Does spot pay for this job? Checkpoint interval, expected and worst-case time and cost, deadline risk",
		Long: `For a job of W hours of work on a spot (preemptible, 抢占式, 竞价) offer: the interruption rate
(from the provider's published interruption frequency, or a stated assumption), the optimal
checkpoint interval (Young, Daly), the expected time and cost (Daly's formula), a seeded Monte
Carlo of the same process (P50/P90/P99 time and cost, deadline-miss probability), and the choice
between spot, on-demand and spot with an on-demand fallback.

When a checkpoint fits in the provider's interruption notice (AWS 2 min, Azure and GCP 30 s ...),
it is written during the notice and no work is lost. The offer may be the spot offer or any offer
of the same instance type and region.`,
		Example: `  # 24 hours of training on p5 spot, 10-minute checkpoints, due in 36 hours
  gpuscout spot --offer aws/p5en.48xlarge/us-east-1/spot --work-hours 24 --checkpoint-minutes 10 --deadline-hours 36

  # The same with interruptions every 6 hours (your own observation)
  gpuscout spot --offer aws/p5en.48xlarge/us-east-1/spot --work-hours 24 --mtbi 6 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runSpot(o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.offer, "offer", "", "offer ID (the spot offer, or any offer of the same instance type and region)")
	f.Float64Var(&o.work, "work-hours", 0, "hours of work the job needs without interruptions")
	f.Float64Var(&o.checkpoint, "checkpoint-minutes", 5, "minutes to write one checkpoint")
	f.Float64Var(&o.restart, "restart-minutes", 15, "minutes from an interruption to working again (new instance, reload, warm-up)")
	f.Float64Var(&o.deadline, "deadline-hours", 0, "hours from start by which the job must finish (0 = none)")
	f.Float64Var(&o.mtbi, "mtbi", 0, "mean hours between interruptions (overrides the catalog)")
	f.IntVar(&o.trials, "trials", 100000, "Monte Carlo trials")
	f.Uint64Var(&o.seed, "seed", 1, "random seed (same seed, same answer)")
	f.Float64Var(&o.weibull, "weibull", 1, "shape of the time between interruptions (1 = exponential; <1 bursty, >1 regular)")
	return cmd
}

func (a *app) runSpot(o *spotOptions) error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	ans, err := document.AnswerSpot(ds.Catalog, a.rates, document.SpotRequest{Offer: o.offer, WorkHours: o.work, CheckpointMinutes: o.checkpoint,
		RestartMinutes: o.restart, DeadlineHours: o.deadline, MTBI: o.mtbi, Trials: o.trials, Seed: o.seed, Weibull: o.weibull, Currency: a.cur})
	if err != nil {
		return jobInputError(err)
	}
	doc, j, r, d := ans.Doc, ans.Job, ans.Risk, ans.Decision
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, doc)
	}
	p := a.printer
	verdict, source, assumptions := spotTexts(p, ds.Catalog, ans, o.mtbi > 0)
	g := &output.Grid{
		Headers: []string{p.T("spot.option"), p.T("spot.expected_hours"), p.T("spot.p90_hours"), p.T("spot.expected_cost") + " " + a.cur,
			p.T("spot.p90_cost") + " " + a.cur, p.T("spot.miss")},
		Align: []output.Align{output.Left, output.Right, output.Right, output.Right, output.Right, output.Right},
	}
	hrs := func(v float64) string {
		if math.IsInf(v, 1) {
			return "∞"
		}
		return fmt.Sprintf("%.2f", v)
	}
	for _, x := range d.Options {
		name := spotPlanName(p, x.Name)
		if x.Name == d.Best {
			name += " ✓"
		}
		miss := "-"
		if j.Deadline > 0 {
			miss = fmt.Sprintf("%.1f%%", 100*x.DeadlineMiss)
		}
		g.Add(name, hrs(x.ExpectedHours), hrs(x.P90Hours), money(decimal.NewFromFloat(x.ExpectedCost)), money(decimal.NewFromFloat(x.P90Cost)), miss)
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	w := a.io.Out
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.T("spot.verdict", verdict))
	fmt.Fprintln(w, p.T("spot.mtbi", sig(r.MTBI), source))
	if pr := r.Prior; pr != nil {
		if pr.Rated {
			fmt.Fprintln(w, p.T("spot.prior", pr.Provider, pr.Label(p.Lang() == i18n.ZH), pr.Ref, p.AsOfFull(pr.AsOf, pr.ReadOn)))
		} else {
			fmt.Fprintln(w, p.T("spot.prior_assumed", pr.Provider, pr.Label(p.Lang() == i18n.ZH), pr.Ref, p.AsOfFull(pr.AsOf, pr.ReadOn), sig(r.MTBI)))
		}
	}
	if d.Plan.NoticeCovers {
		fmt.Fprintln(w, p.T("spot.in_notice", o.checkpoint))
	} else {
		fmt.Fprintln(w, p.T("spot.interval", d.Plan.Interval*60, d.Plan.YoungInterval*60, 100*d.Plan.Overhead))
		if d.Plan.Short {
			fmt.Fprintln(w, p.T("spot.short"))
		}
	}
	fmt.Fprintln(w, p.T("spot.sim", o.trials, o.seed, d.Spot.P50Hours, d.Spot.P90Hours, d.Spot.P99Hours, d.Spot.MeanInterruptions))
	for _, s := range assumptions {
		fmt.Fprintln(w, "  • "+s)
	}
	return nil
}
