package cli

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/spf13/cobra"
)

func (a *app) perfCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "perf",
		Short: "The performance model: its benchmarks and its measured error",
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "validate",
		Short: "Leave-one-out cross-validation error of the model, per workload class and confidence level",
		Long: `Refit the performance model once per published result, without that result, and predict it back:
the way an unmeasured GPU or scale is answered. Prints the mean absolute percentage error (MAPE)
and median absolute error per workload class and per confidence level, and the worst predictions.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runPerfValidate() },
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "benchmarks",
		Short: "List the calibration benchmarks with their results per GPU",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return a.runPerfBenchmarks() },
	})
	return cmd
}

func (a *app) runPerfValidate() error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	pts, _, err := perf.LoadEmbedded(perf.Lookup(ds.Catalog))
	if err != nil {
		return err
	}
	v := perf.Validate(pts, perf.Specs(ds.Catalog))
	worst := append([]perf.Result(nil), v.Results...)
	sort.SliceStable(worst, func(i, j int) bool { return math.Abs(worst[i].Err) > math.Abs(worst[j].Err) })
	if len(worst) > 10 {
		worst = worst[:10]
	}
	doc := document.BuildPerfValidation(v, worst)
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, doc)
	}
	p := a.printer
	g := &output.Grid{Headers: []string{p.T("perf.group"), "N", "MAPE", p.T("perf.median"), p.T("perf.coverage"), p.T("perf.width")},
		Align: []output.Align{output.Left, output.Right, output.Right, output.Right, output.Right, output.Right}}
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	add := func(name string, s perf.Summary, in *perf.Interval) {
		cov, wid := "", ""
		if in != nil && in.N > 0 {
			cov, wid = fmt.Sprintf("%.0f%%", 100*in.Coverage), fmt.Sprintf("×%.2f", in.Width)
		}
		g.Add(name, strconv.Itoa(s.N), pct(s.MAPE), pct(s.MedianAE), cov, wid)
	}
	ivp := func(in perf.Interval) *perf.Interval { return &in }
	add(p.T("perf.all_throughput"), v.Throughput, ivp(v.Intervals["throughput"]))
	add(p.T("perf.all_time"), v.Time, ivp(v.Intervals["time"]))
	var cls []string
	for c := range v.ByClass {
		cls = append(cls, string(c))
	}
	sort.Strings(cls)
	for _, c := range cls {
		add("  "+c, v.ByClass[perf.Class(c)], ivp(v.IntervalsClass[perf.Class(c)]))
	}
	for _, c := range []perf.Confidence{perf.Measured, perf.Interpolated, perf.Transferred, perf.SpecsOnly} {
		if s, ok := v.ByConfidence[c]; ok {
			add("  "+p.T("est.confidence")+": "+p.T("rec.conf."+string(c)), s, nil)
		}
	}
	add("  "+p.T("perf.no_gpu_result"), v.NoGPUResult, nil)
	add(p.T("perf.single_node"), v.SingleNode, nil)
	add(p.T("perf.multi_node"), v.MultiNode, nil)
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	fmt.Fprintln(a.io.Out, "\n"+p.T("perf.interval_note"))
	fmt.Fprintln(a.io.Out, "\n"+p.T("perf.llm_title"))
	lg := &output.Grid{Headers: []string{p.T("perf.family"), "N", "MAPE", p.T("perf.median")},
		Align: []output.Align{output.Left, output.Right, output.Right, output.Right}}
	lg.Add(p.T("perf.all_llm"), strconv.Itoa(v.LLMAll.N), pct(v.LLMAll.MAPE), pct(v.LLMAll.MedianAE))
	var fams []string
	for f := range v.LLMFamily {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	for _, f := range fams {
		s := v.LLMFamily[f]
		lg.Add("  "+f, strconv.Itoa(s.N), pct(s.MAPE), pct(s.MedianAE))
	}
	if err := output.Write(a.io.Out, a.out, lg, a.tty()); err != nil {
		return err
	}
	fmt.Fprintln(a.io.Out, "\n"+p.T("perf.mfu", v.MFUAll.N, 100*v.MFUAll.MAPE, 100*v.MFUAll.MedianAE))
	fmt.Fprintln(a.io.Out, "\n"+p.T("perf.worst"))
	for _, r := range worst {
		fmt.Fprintln(a.io.Out, p.T("perf.worst_line", 100*r.Err, r.Point.Benchmark, r.Point.Count,
			r.Point.GPU, p.T("rec.conf."+string(r.Confidence)), sig(r.Predicted), sig(r.Point.Value)))
	}
	fmt.Fprintln(a.io.Out, "\n"+p.T("perf.skipped", len(v.Skipped)))
	return nil
}

func (a *app) runPerfBenchmarks() error {
	ds, err := a.data()
	if err != nil {
		return err
	}
	pts, _, err := perf.LoadEmbedded(perf.Lookup(ds.Catalog))
	if err != nil {
		return err
	}
	type agg struct {
		unit  string
		gpus  map[string]bool
		n     int
		class perf.Class
	}
	by := map[string]*agg{}
	var names []string
	for _, p := range pts {
		x := by[p.Benchmark]
		if x == nil {
			x = &agg{unit: p.Unit, gpus: map[string]bool{}, class: perf.Describe(p.Benchmark).Class}
			by[p.Benchmark] = x
			names = append(names, p.Benchmark)
		}
		x.n++
		x.gpus[p.GPU] = true
	}
	sort.Strings(names)
	if a.out == output.JSON {
		type row struct {
			Benchmark string   `json:"benchmark"`
			Class     string   `json:"class"`
			Unit      string   `json:"unit"`
			Results   int      `json:"results"`
			GPUs      []string `json:"gpus"`
		}
		var rows []row
		for _, n := range names {
			x := by[n]
			var gs []string
			for g := range x.gpus {
				gs = append(gs, g)
			}
			sort.Strings(gs)
			rows = append(rows, row{n, string(x.class), x.unit, x.n, gs})
		}
		return output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/perf-benchmarks@v1", "benchmarks": rows})
	}
	p := a.printer
	g := &output.Grid{Headers: []string{"BENCHMARK", p.T("perf.class"), p.T("col.unit"), p.T("perf.results"), p.T("col.gpus")},
		Align: []output.Align{output.Left, output.Left, output.Left, output.Right, output.Right}}
	for _, n := range names {
		x := by[n]
		g.Add(n, string(x.class), x.unit, strconv.Itoa(x.n), strconv.Itoa(len(x.gpus)))
	}
	return output.Write(a.io.Out, a.out, g, a.tty())
}
