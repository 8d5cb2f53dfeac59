package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing/planfile"
	"github.com/gpuscout/gpuscout/internal/rightsize"
	"github.com/shopspring/decimal"
	"github.com/spf13/cobra"
)

// rightsizeOptions are the flags of `gpuscout rightsize`.
type rightsizeOptions struct {
	metrics   string
	offer     string
	format    string
	columns   []string
	interval  time.Duration
	instances int
	headroom  float64
}

func (a *app) rightsizeCmd() *cobra.Command {
	o := &rightsizeOptions{}
	cmd := &cobra.Command{
		Use:   "rightsize",
		Short: "Read GPU metrics (nvidia-smi, DCGM) and recommend fewer or cheaper GPUs and a better billing model",
		Long: `Read a GPU metrics log taken on an offer and say, with monthly savings, what to change:

  • fewer GPUs — when only some of the instance's GPUs do substantial work, or their summed
    load fits on fewer, the same GPU in a smaller instance;
  • a cheaper GPU with enough memory — an offer whose GPUs hold the observed peak memory plus
    headroom, priced by cost × time when the GPU is slower (FP16 TFLOPS ratio);
  • a billing model for the duty cycle — a reservation or subscription when the GPUs are busy
    above its utilisation break-even, on-demand for the busy hours or spot for bursts when not.

Logs: nvidia-smi --query-gpu=timestamp,index,utilization.gpu,utilization.memory,memory.used,memory.total
--format=csv -l 60 (with or without header and units; columns in any order with a header), or
DCGM exporter /metrics scrapes (DCGM_FI_DEV_GPU_UTIL or DCGM_FI_PROF_GR_ENGINE_ACTIVE,
DCGM_FI_DEV_FB_USED/FB_FREE), gzip-compressed or not, detected automatically. The log is
streamed: its size does not matter. Malformed lines are skipped and reported. See docs/rightsize.md.`,
		Example: `  # A week of nvidia-smi samples from an 8-GPU instance
  nvidia-smi --query-gpu=timestamp,index,utilization.gpu,utilization.memory,memory.used,memory.total \
      --format=csv -l 60 > gpu.csv
  gpuscout rightsize --metrics gpu.csv --offer aws/p4d.24xlarge/us-east-1/on-demand

  # DCGM exporter scrapes, compressed, in CNY, as JSON
  gpuscout rightsize --metrics dcgm.prom.gz --offer tencent/GT4.41XLARGE948/ap-guangzhou/on-demand --currency CNY -o json

  # A headerless CSV with other columns, sampled every 10 s
  gpuscout rightsize --metrics gpu.csv --columns index,utilization.gpu,memory.used,memory.total --interval 10s \
      --offer gcp/a2-highgpu-8g/us-central1/on-demand`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runRightsize(o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.metrics, "metrics", "", "metrics log: nvidia-smi CSV or DCGM exporter text, optionally gzip-compressed (- for stdin)")
	f.StringVar(&o.offer, "offer", "", "offer ID the log was taken on: provider/instance_type/region/billing (see gpuscout offers -o json)")
	f.StringVar(&o.format, "format", "auto", "log format: auto, nvidia-smi or dcgm")
	f.StringSliceVar(&o.columns, "columns", nil, "columns of a CSV without a header, in order (default timestamp,index,utilization.gpu,utilization.memory,memory.used,memory.total)")
	f.DurationVar(&o.interval, "interval", 0, "sampling interval of a log without timestamps (default 1m)")
	f.IntVar(&o.instances, "instances", 0, "instances the log covers (default: as many as the GPUs seen need)")
	f.Float64Var(&o.headroom, "headroom", rightsize.DefaultHeadroom, "memory headroom over the observed peak when choosing a GPU")
	return cmd
}

func (a *app) runRightsize(o *rightsizeOptions) error {
	if o.metrics == "" {
		return usagef("pass the log with --metrics FILE (nvidia-smi CSV or DCGM exporter text).", "--metrics is required")
	}
	if o.offer == "" {
		return usagef("pick the offer the log was taken on with gpuscout offers; its ID is provider/instance_type/region/billing.", "--offer is required")
	}
	format, err := rightsize.ParseFormat(o.format)
	if err != nil {
		return usagef("", "--format: %v", err)
	}
	cols := splitFlags(o.columns)
	if len(cols) > 0 {
		if err := rightsize.ValidateColumns(cols); err != nil {
			return usagef("", "--columns: %v", err)
		}
	}
	switch {
	case o.interval < 0:
		return usagef("", "--interval must not be negative")
	case o.instances < 0:
		return usagef("", "--instances must not be negative")
	case o.headroom < 1 || o.headroom > 4:
		return usagef("", "--headroom must be between 1 and 4, got %g", o.headroom)
	}
	ds, err := a.data()
	if err != nil {
		return err
	}
	off, err := planfile.ResolveOffer(ds.Catalog, o.offer)
	if err != nil {
		return err
	}
	if off.Instance == nil || off.Instance.GPU == nil || !off.Instance.GPUCount.IsPositive() {
		return usagef("", "offer %s has no GPU", off.ID())
	}
	var in io.Reader = a.io.In
	name := "stdin"
	if o.metrics != "-" {
		f, err := os.Open(o.metrics)
		if err != nil {
			return usagef("", "--metrics: %v", err)
		}
		defer f.Close()
		in, name = f, o.metrics
	}
	st, rep, err := rightsize.Analyze(in, name, rightsize.Options{Format: format, Columns: cols}, o.interval.Milliseconds())
	if err != nil {
		return &dataError{err: err} // nothing readable in the log (*rightsize.NoDataError) or a broken gzip stream
	}
	adv, err := (&rightsize.Advisor{Catalog: ds.Catalog, Engine: a.engine(ds.Catalog), Currency: a.cur, Headroom: o.headroom}).
		Advise(off, st, o.instances)
	if err != nil {
		return err
	}
	doc := document.BuildRightsize(rep, st, adv, a.rates, a.printer)
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, doc)
	}
	return a.writeRightsize(doc, rep, st, adv)
}

// pctCell renders a JSON percentage for a table.
func rsPct(n interface{ String() string }) string {
	d, err := decimal.NewFromString(n.String())
	if err != nil {
		return n.String()
	}
	return d.Round(1).String()
}

// shareCell renders a 0–1 share as a percentage.
func rsShare(v float64) string {
	return fmt.Sprintf("%.1f%%", v*100)
}

// hourBars draws the hour-of-day busy share, · for hours never observed.
func rsHourBars(profile []float64) string {
	bars := []rune("▁▂▃▄▅▆▇█")
	var b strings.Builder
	for _, v := range profile {
		if v < 0 {
			b.WriteRune('·')
			continue
		}
		b.WriteRune(bars[int(v*float64(len(bars)-1)+0.5)])
	}
	return b.String()
}

func (a *app) writeRightsize(doc document.Rightsize, rep *rightsize.ParseReport, st *rightsize.Stats, adv *rightsize.Advice) error {
	w := a.io.Out
	p := a.printer
	cur := doc.Currency
	recs := &output.Grid{
		Headers: []string{"#", p.T("cli.rs.col.kind"), p.T("cli.rs.col.change"), p.T("cli.rs.col.monthly", cur), p.T("cli.rs.col.saving_month", cur), p.T("cli.rs.col.saving")},
		Align:   []output.Align{output.Right, output.Left, output.Left, output.Right, output.Right, output.Right},
	}
	for i, r := range adv.Recommendations {
		recs.Add(fmt.Sprint(i+1), enumLabel(a.printer, "cli.rs.kind.", r.Kind), p.M(r.Action), money(r.Monthly), money(r.Saving), rsShare(r.SavingShare()))
	}
	if a.out != output.Table {
		return output.Write(w, a.out, recs, a.tty())
	}

	// What was read.
	file := filepath.Base(rep.File)
	gpuWord := rsPlural(len(st.GPUs), "GPU")
	if p.Lang() == i18n.ZH {
		gpuWord = "GPU" // Chinese counts with 块, no plural
	}
	gz := ""
	if rep.Gzip {
		gz = p.T("cli.rs.gzip")
	}
	fmt.Fprint(w, p.T("cli.rs.metrics", file, rightsize.FormatMsg(rep.Format), gz,
		thousands(fmt.Sprint(rep.Samples)), len(st.GPUs), gpuWord))
	if st.TimeKnown {
		fmt.Fprint(w, p.T("cli.rs.span", st.Start.Format("2006-01-02 15:04"), st.End.Format("2006-01-02 15:04"),
			st.SpanHours, st.IntervalSeconds))
	}
	fmt.Fprintln(w, p.T("cli.rs.skipped", thousands(fmt.Sprint(rep.Skipped)), thousands(fmt.Sprint(rep.Lines))))
	for _, b := range rep.Bad {
		fmt.Fprintln(w, "  "+p.T("cli.rs.line", b.Line, b.Msg))
	}
	if rep.Skipped > len(rep.Bad) {
		fmt.Fprintln(w, "  "+p.T("cli.rs.more", rep.Skipped-len(rep.Bad)))
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, "  "+p.M(n))
	}
	fmt.Fprintln(w)

	// Per-GPU statistics.
	g := &output.Grid{
		Headers: []string{"GPU", p.T("cli.rs.col.samples"), p.T("cli.rs.col.mean"), "P50 %", "P95 %", p.T("cli.rs.col.idle"),
			p.T("cli.rs.col.mem_peak"), p.T("cli.rs.col.mem_p95"), p.T("cli.rs.col.mem_total"), ""},
		Align: []output.Align{output.Left, output.Right, output.Right, output.Right, output.Right, output.Right, output.Right,
			output.Right, output.Right, output.Left},
	}
	row := func(name string, u document.RightsizeUsage, active string) {
		idle, _ := u.IdleShare.Float64()
		g.Add(name, thousands(fmt.Sprint(u.Samples)), rsPct(u.MeanUtil), rsPct(u.P50Util), rsPct(u.P95Util), rsShare(idle),
			rsPct(u.MemPeakGiB), rsPct(u.MemP95GiB), rsPct(u.MemTotalGiB), active)
	}
	for _, x := range doc.Stats.GPUs {
		active := ""
		if x.Active {
			active = p.T("cli.rs.active")
		}
		row(x.GPU, x.RightsizeUsage, active)
	}
	row(p.T("cli.rs.all"), doc.Stats.Overall, "")
	if err := output.Write(w, a.out, g, a.tty()); err != nil {
		return err
	}
	fmt.Fprintln(w)

	// Duty cycle.
	if st.HasUtil {
		fmt.Fprint(w, p.T("cli.rs.busy", rightsize.IdleBelow, rsShare(st.BusyShare), rsShare(st.BusyHourShare), st.BusyClockHours, st.SpanClockHours,
			enumLabel(p, "cli.rs.pattern.", st.Pattern)))
		if st.DailyWindow != "" {
			window := i18n.List{}
			for _, x := range st.DailyWindows {
				window = append(window, x)
			}
			fmt.Fprint(w, p.T("cli.rs.busy_window", window))
		}
		if st.BusyRuns > 1 {
			fmt.Fprint(w, p.T("cli.rs.busy_runs", st.BusyRuns, st.MeanBusyRunMinutes))
		}
		fmt.Fprintln(w, p.T("cli.rs.stop"))
		if len(st.GPUs) == 1 {
			fmt.Fprint(w, p.T("cli.rs.peak_one", st.SummedUtilP95))
		} else {
			fmt.Fprint(w, p.T("cli.rs.peak_many", st.ActiveGPUs, len(st.GPUs), st.SummedUtilP95))
		}
		if st.Coverage < 0.995 {
			fmt.Fprint(w, p.T("cli.rs.coverage", rsShare(st.Coverage)))
		}
		fmt.Fprintln(w)
		if st.HourProfile != nil {
			fmt.Fprintln(w, p.T("cli.rs.hours", rsHourBars(st.HourProfile)))
		}
		fmt.Fprintln(w)
	}

	// The bill and the recommendations.
	billed := ""
	if !adv.Offer.Billing.IsCommitment() && adv.BilledShare < 1 {
		billed = p.T("cli.rs.billed", rsShare(adv.BilledShare))
	}
	inst := ""
	if adv.Instances > 1 {
		inst = fmt.Sprintf("%d× ", adv.Instances)
	}
	fmt.Fprintln(w, p.T("cli.rs.now", inst, adv.Offer.ID(), billed, money(adv.CurrentMonthly), cur)+"\n")
	if len(adv.Recommendations) == 0 {
		fmt.Fprintln(w, p.T("cli.rs.no_change"))
	} else {
		if err := output.Write(w, a.out, recs, a.tty()); err != nil {
			return err
		}
		fmt.Fprintln(w)
		for i, r := range adv.Recommendations {
			fmt.Fprintf(w, "%d. %s\n", i+1, p.Sentences(r.Reason))
			var figs []string
			for _, f := range r.Figures {
				figs = append(figs, f.Text(p))
			}
			fmt.Fprintln(w, "   "+p.T("cli.rs.figures", strings.Join(figs, p.T("list.semi"))))
			for _, c := range r.Caveats {
				fmt.Fprintln(w, "   "+p.T("cli.rs.caveat", c))
			}
		}
		fmt.Fprintln(w, p.T("cli.rs.not_additive"))
	}
	for _, b := range doc.BreakEven {
		fmt.Fprintln(w, "• "+b.Text)
	}
	for _, n := range adv.Notes {
		fmt.Fprintln(w, p.T("cli.rs.note", n))
	}
	if n := ratesNote(a.printer, a.rates, adv.Currencies, cur); n != "" {
		fmt.Fprintln(w, n)
	}
	return nil
}

func rsPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
