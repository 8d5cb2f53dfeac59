package cli

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
	"github.com/spf13/cobra"
)

// recommendOptions are the flags of `gpuscout recommend`.
type recommendOptions struct {
	exportTo                                                      string
	file, benchmark, workload, priority, interconnect, gpuHoursOn string
	size, gpuHours, params, tokens, images, epochs, flops, tps    float64
	minVRAM, deadline, utilization                                float64
	minGPUs, maxGPUs, horizon, limit, clusterGPUs                 int
	gpus, residency, regions, countries, providers, exclude       []string
	ecosystem, nearUsers                                          []string
	interruptible, multiNode, rdma                                bool
	precision, method                                             string
	activeParams                                                  float64
	fabric, osName                                                string
	qps, inTok, outTok, ttft, tpot, mtbi                          float64
	heads                                                         int
	layout                                                        modelLayout
	allowNoRDMA, ha                                               bool
	budget, hours, startWithin                                    float64
	bookQuantile                                                  float64
	allowLikelyMiss                                               bool
	budgetPeriod                                                  string
}

func (a *app) recommendCmd() *cobra.Command {
	o := &recommendOptions{}
	cmd := &cobra.Command{
		Use:   "recommend",
		Short: "From a job description to ranked, explained plans: cloud, instance, region, count and billing model",
		Long: `Describe the job (a benchmark and its size, a sized job, GPU-hours, or an inference target) and
its constraints (deadline, GPUs, location and data residency, providers, interruptions,
ecosystem); gpuscout evaluates every offer in the catalog — time from the performance model,
cost from the cost engine, spot risk from the spot engine — and answers with ranked plans, each
with what it costs and why, how long it takes and on what basis, its risks, the runner-up
trade-off and what would change the answer. Rejected candidates keep their reason.

Job files (-f) hold every field; flags cover the common ones and win over the file. See
examples/*.yaml and docs/advisor.md.`,
		Example: `  # Fine-tune a 7B model on 200B tokens within a week, cheapest first, spot allowed
  gpuscout recommend --workload transformer-train --params 7e9 --tokens 2e11 \
      --deadline-hours 168 --min-gpus 8 --max-gpus 64 --multi-node --interruptible --priority cost

  # Serve a 70B model at 2,000 tokens/s in mainland China for a year
  gpuscout recommend --params 70e9 --tokens-per-second 2000 --residency cn-mainland --horizon-months 12

  # Serve a 70B model at 4 requests/s (1,000 in, 250 out) within 2 s to first token and
  # 100 ms per output token, N+1, near users in Shanghai
  gpuscout recommend --params 70e9 --qps 4 --input-tokens 1000 --output-tokens 250 \
      --ttft-ms 2000 --tpot-ms 100 --ha --near-users Shanghai --horizon-months 12

  # 8 × H100 for exactly two weeks, starting within 7 days, no interruption
  gpuscout recommend --cluster-gpus 8 --gpu H100 --hours 336 --start-within-days 7

  # Keep 16 GPUs for a year within 20,000 EUR a month
  gpuscout recommend --cluster-gpus 16 --horizon-months 12 --multi-node --budget 20000 --budget-period month --currency EUR

  # MPI over InfiniBand in double precision
  gpuscout recommend --workload flops --flops 2e20 --precision fp64 --fabric infiniband --multi-node

  # Keep 16 A100/H100 GPUs for three years at 80% utilisation
  gpuscout recommend --cluster-gpus 16 --gpu A100,H100 --horizon-months 36 --utilization 0.8 --multi-node

  # A seed-article scenario
  gpuscout recommend -f examples/distributed-training.yaml -o markdown`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runRecommend(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.file, "file", "f", "", "job file (YAML)")
	f.StringVar(&o.benchmark, "benchmark", "", "a calibration benchmark (see gpuscout perf benchmarks)")
	f.Float64Var(&o.size, "size", 0, "with --benchmark: the work, in the benchmark's unit (samples, tokens ...)")
	f.StringVar(&o.workload, "workload", "", "a sized job: transformer-train, llm-inference, cnn-train, embedding (encoder batch: --params, --tokens in), flops")
	f.Float64Var(&o.params, "params", 0, "model parameters (a mixture of experts: all of them)")
	f.Float64Var(&o.activeParams, "active-params", 0, "a mixture of experts: parameters active per token (memory from --params, time from these)")
	f.StringVar(&o.method, "method", "", "transformer-train: full (default; 16 bytes/parameter), lora (frozen 16-bit weights + adapters) or qlora (frozen 4-bit weights + adapters)")
	f.Float64Var(&o.tokens, "tokens", 0, "training tokens, output tokens (llm-inference) or input tokens (embedding)")
	f.Float64Var(&o.images, "images", 0, "images (cnn-train)")
	f.Float64Var(&o.epochs, "epochs", 0, "epochs (cnn-train)")
	f.Float64Var(&o.flops, "flops", 0, "FLOPs (flops jobs)")
	f.StringVar(&o.precision, "precision", "", "fp64 (flops jobs), fp32, tf32, fp16, bf16, fp8, int8")
	f.StringVar(&o.exportTo, "export", "", "write the top plan as deployment configuration instead of the report: terraform, skypilot or dstack")
	f.Float64Var(&o.gpuHours, "gpu-hours", 0, "the job as GPU-hours")
	f.StringVar(&o.gpuHoursOn, "gpu-hours-on", "", "the GPU model the GPU-hours were measured on (others are scaled by FP16 peak)")
	f.Float64Var(&o.tps, "tokens-per-second", 0, "with --params: an inference service target (output tokens per second)")
	f.Float64Var(&o.qps, "qps", 0, "with --params: an inference service target in requests per second (with --input-tokens, --output-tokens)")
	f.Float64Var(&o.inTok, "input-tokens", 0, "with --qps: prompt tokens per request")
	f.Float64Var(&o.outTok, "output-tokens", 0, "with --qps: generated tokens per request")
	f.Float64Var(&o.ttft, "ttft-ms", 0, "with --qps: time-to-first-token budget, ms")
	f.Float64Var(&o.tpot, "tpot-ms", 0, "time-per-output-token budget, ms")
	f.IntVar(&o.heads, "attention-heads", 0, "the model's attention heads (tensor-parallel groups divide them; default 64)")
	o.layout.flags(f)
	f.IntVar(&o.clusterGPUs, "cluster-gpus", 0, "keep this many GPUs for --horizon-months (a standing cluster)")
	f.StringSliceVar(&o.gpus, "gpu", nil, "allowed GPU models or families")
	f.Float64Var(&o.minVRAM, "min-vram", 0, "minimum memory per GPU, GB")
	f.IntVar(&o.minGPUs, "min-gpus", 0, "minimum GPUs")
	f.IntVar(&o.maxGPUs, "max-gpus", 0, "maximum GPUs")
	f.BoolVar(&o.multiNode, "multi-node", false, "allow several instances (nodes)")
	f.BoolVar(&o.rdma, "rdma", false, "require an RDMA network of any kind (the same as --fabric any)")
	f.StringVar(&o.fabric, "fabric", "", "require an RDMA fabric: infiniband, efa, erdma, roce or any")
	f.BoolVar(&o.allowNoRDMA, "allow-no-rdma", false, "allow multi-node training without an RDMA fabric (with the model's stated penalty)")
	f.StringVar(&o.osName, "os", "", "operating system: linux (default) or windows (instance types documented to run it or with an imported Windows rate; priced at the Windows rate where the catalog has one, else at the Linux rate as a lower bound)")
	f.Float64Var(&o.mtbi, "mtbi", 0, "spot: mean hours between interruptions (overrides the catalog)")
	f.BoolVar(&o.ha, "ha", false, "services: size with one spare instance (N+1)")
	f.StringVar(&o.interconnect, "interconnect", "", "require nvlink (NVLink or NVSwitch) or nvswitch")
	f.Float64Var(&o.deadline, "deadline-hours", 0, "the job must finish within this many hours")
	f.StringSliceVar(&o.residency, "residency", nil, "data-residency zones (cn-mainland, eu, us ...)")
	f.StringSliceVar(&o.regions, "region", nil, "allowed region codes")
	f.StringSliceVar(&o.countries, "country", nil, "allowed countries (ISO codes)")
	f.StringSliceVar(&o.nearUsers, "near-users", nil, "prefer regions near these users: countries (ISO codes), cities or region codes")
	f.StringSliceVar(&o.providers, "provider", nil, "allowed providers")
	f.StringSliceVar(&o.exclude, "exclude-provider", nil, "excluded providers")
	f.BoolVar(&o.interruptible, "interruptible", false, "the job tolerates interruptions (consider spot)")
	f.StringSliceVar(&o.ecosystem, "ecosystem", nil, "required provider services: kubernetes, ml-platform, windows, wechat, acceleration ...")
	f.StringVar(&o.priority, "priority", "", "cost, time or balanced (default balanced)")
	f.IntVar(&o.horizon, "horizon-months", 0, "for a service or cluster: months to price")
	f.Float64Var(&o.utilization, "utilization", 0, "for a service or cluster: share of hours used (0-1)")
	f.IntVar(&o.limit, "limit", 5, "number of plans")
	f.Float64Var(&o.budget, "budget", 0, "a hard spending limit in the output currency (--currency), per --budget-period; plans over it are rejected")
	f.StringVar(&o.budgetPeriod, "budget-period", "", "what --budget covers: total, month or hour (default: month for a service or cluster, total for a job)")
	f.Float64Var(&o.hours, "hours", 0, "with --cluster-gpus: hold the GPUs for exactly this many hours (336 = two weeks), priced as a fixed-length reservation")
	f.Float64Var(&o.startWithin, "start-within-days", 0, "guaranteed capacity starting within this many days, without interruption (no marketplace hosts, spot or queued flex-start)")
	f.Float64Var(&o.bookQuantile, "book-quantile", 0, "the quantile of the job's time a Capacity Block is booked to cover (0.5-0.999; default 0.9, the slow end)")
	f.BoolVar(&o.allowLikelyMiss, "allow-likely-miss", false, "rank plans likely to miss the deadline (over 10%: their P90 is past it) by the priority like the rest, instead of after every plan that meets it")
	return cmd
}

// requirements merges the job file and the flags.
func (a *app) requirements(cmd *cobra.Command, o *recommendOptions) (recommend.Requirements, error) {
	var r recommend.Requirements
	if err := checkSizeFlags(cmd.Flags()); err != nil {
		return r, err
	}
	if o.file != "" {
		fh, err := os.Open(o.file)
		if err != nil {
			return r, usagef("", "job file: %v", err)
		}
		r, err = jobfile.Read(fh)
		fh.Close()
		var le *jobfile.LimitError
		if errors.As(err, &le) {
			return r, &localError{key: "job.limit.file", args: []any{o.file, le.Msg}, hint: "err.hint.job_file", exit: ExitData, err: err}
		}
		if err != nil {
			return r, &dataError{err: fmt.Errorf("%s: %w", o.file, err), job: true}
		}
	}
	fs := cmd.Flags()
	set := func(name string) bool { return fs.Changed(name) }
	w := &r.Workload
	if set("benchmark") || set("workload") || set("gpu-hours") || set("tokens-per-second") || set("qps") || set("cluster-gpus") {
		*w = recommend.Workload{}
	}
	p, err := recommend.ParsePrecision(o.precision)
	if o.precision == "" {
		p, err = "", nil
	}
	if err != nil {
		return r, usagef("", "%v", err)
	}
	switch {
	case set("benchmark"):
		w.Benchmark, w.Samples = o.benchmark, o.size
	case set("workload"):
		w.Job = &perf.Job{Kind: perf.JobKind(o.workload), Params: o.params, Tokens: o.tokens, Images: o.images, Epochs: o.epochs, FLOPs: o.flops, Precision: p, ActiveParams: o.activeParams}
	case set("gpu-hours"):
		w.GPUHours, w.GPUHoursOn = o.gpuHours, o.gpuHoursOn
	case set("tokens-per-second") || set("qps"):
		w.Inference = &recommend.Inference{Params: o.params, ActiveParams: o.activeParams, TokensPerSecond: o.tps, QPS: o.qps, InputTokens: o.inTok, OutputTokens: o.outTok,
			TTFTMs: o.ttft, TPOTMs: o.tpot, Heads: o.heads, Precision: p,
			Layers: o.layout.layers, KVHeads: o.layout.kvHeads, HeadDim: o.layout.headDim, Hidden: o.layout.hidden,
			Experts: o.layout.experts, ExpertsPerToken: o.layout.perToken}
	case set("cluster-gpus"):
		w.ClusterGPUs = o.clusterGPUs
	}
	if o.precision != "" {
		w.Precision = strings.ToLower(o.precision)
	}
	if set("method") {
		m, err := perf.ParseMethod(o.method)
		if err != nil {
			return r, &usageError{err: err}
		}
		if w.Job == nil {
			return r, usagef("", "--method applies to a sized training job (--workload transformer-train)")
		}
		w.Job.Method = m
	}
	if set("gpu") {
		r.GPUs = o.gpus
	}
	if set("fabric") {
		r.Fabric = o.fabric
	}
	if set("allow-no-rdma") {
		r.AllowNoRDMA = o.allowNoRDMA
	}
	if set("os") {
		r.OS = o.osName
	}
	if set("mtbi") {
		r.MTBIHours = o.mtbi
	}
	if set("ha") {
		r.HA = o.ha
	}
	for name, dst := range map[string]*[]string{"residency": &r.Residency, "region": &r.Regions, "country": &r.Countries, "near-users": &r.NearUsers,
		"provider": &r.Providers, "exclude-provider": &r.ExcludeProviders, "ecosystem": &r.Ecosystem} {
		if set(name) {
			*dst = splitFlags(map[string][]string{"residency": o.residency, "region": o.regions, "country": o.countries, "near-users": o.nearUsers,
				"provider": o.providers, "exclude-provider": o.exclude, "ecosystem": o.ecosystem}[name])
		}
	}
	if set("min-vram") {
		r.MinVRAMGB = o.minVRAM
	}
	if set("min-gpus") {
		r.MinGPUs = o.minGPUs
	}
	if set("max-gpus") {
		r.MaxGPUs = o.maxGPUs
	}
	if set("multi-node") {
		r.MultiNode = o.multiNode
	}
	if set("rdma") {
		r.RDMA = o.rdma
	}
	if set("interconnect") {
		r.Interconnect = o.interconnect
	}
	if set("deadline-hours") {
		r.DeadlineHours = o.deadline
	}
	if set("interruptible") {
		r.Interruptible = o.interruptible
	}
	if set("priority") {
		r.Priority = o.priority
	}
	if set("horizon-months") {
		r.HorizonMonths = o.horizon
	}
	if set("utilization") {
		r.Utilization = o.utilization
	}
	if set("budget") {
		r.Budget = o.budget
	}
	if set("budget-period") {
		r.BudgetPeriod = strings.ToLower(o.budgetPeriod)
	}
	if set("hours") {
		r.Hours = o.hours
	}
	if set("start-within-days") {
		r.StartWithinDays = o.startWithin
	}
	if set("book-quantile") {
		r.BookQuantile = o.bookQuantile
	}
	if set("allow-likely-miss") {
		r.AllowLikelyMiss = o.allowLikelyMiss
	}
	if set("limit") || r.Limit == 0 {
		r.Limit = o.limit
	}
	if r.Currency == "" || cmd.Root().PersistentFlags().Changed("currency") || a.currency != "" {
		r.Currency = a.cur
	}
	if err := r.Validate(); err != nil {
		if o.file != "" && !anyWorkloadFlag(fs) {
			return r, &dataError{err: fmt.Errorf("%s: %w", o.file, err), job: true}
		}
		return r, &usageError{err: err, hint: "err.hint.recommend"}
	}
	return r, nil
}

func anyWorkloadFlag(fs interface{ Changed(string) bool }) bool {
	for _, n := range []string{"benchmark", "workload", "gpu-hours", "tokens-per-second", "qps", "cluster-gpus", "deadline-hours", "min-gpus", "max-gpus", "utilization", "priority", "budget", "budget-period", "hours", "start-within-days", "book-quantile"} {
		if fs.Changed(n) {
			return true
		}
	}
	return false
}

func (a *app) runRecommend(cmd *cobra.Command, o *recommendOptions) error {
	r, err := a.requirements(cmd, o)
	if err != nil {
		return err
	}
	// Imported offers of instance types the job's hard filters reject
	// are not loaded; the advisor counts them among its rejections.
	var pf *recommend.Prefilter
	a.prefilter = func(c *catalog.Catalog) (func(string, string) bool, func(string, string, []string)) {
		var perr error
		if pf, perr = (&recommend.Engine{Catalog: c}).NewPrefilter(r, a.printer); perr != nil {
			pf = nil
			return nil, nil // Recommend reports the error
		}
		return pf.Keep, pf.LeaveOut
	}
	ds, err := a.data()
	if err != nil {
		return err
	}
	res, err := a.recommendWith(ds, r, pf)
	var np *recommend.NoPlanError
	if errors.As(err, &np) && pf.LeftOut() > 0 {
		// No plan: the relaxation hints are drawn from every offer, so
		// the answer comes from a full load.
		a.ds, a.prefilter = nil, nil
		if ds, err = a.data(); err != nil {
			return err
		}
		res, err = a.recommendWith(ds, r, nil)
	}
	if err != nil {
		var np *recommend.NoPlanError
		var ie *recommend.InputError
		switch {
		case errors.As(err, &np):
			if a.out == output.JSON && np.Result != nil {
				doc := document.BuildRecommendation(np.Result, r, 200)
				doc.NoPlan = &document.RecNoPlan{Stage: np.Stage, Constraint: np.Constraint, Relaxation: np.Relaxation, Message: np.Error()}
				if werr := output.WriteJSON(a.io.Out, doc); werr != nil {
					return werr
				}
			}
			return &usageError{err: err, hint: a.printer.T("rec.hint_relax")}
		case errors.As(err, &ie):
			return &usageError{err: err}
		}
		return err
	}
	if o.exportTo != "" {
		return a.exportRecommended(res.Plans, o.exportTo)
	}
	// Only JSON lists the rejections; the other outputs print their counts.
	var doc document.Recommendation
	if a.out == output.JSON {
		doc = document.BuildRecommendation(res, r, 200)
	} else {
		doc = document.BuildRecommendationCounts(res, r)
	}
	switch a.out {
	case output.JSON:
		return output.WriteJSON(a.io.Out, doc)
	case output.Markdown:
		return a.writeRecommendMarkdown(doc)
	}
	return a.writeRecommend(doc)
}

// recommendWith runs the advisor on a loaded dataset; pf holds the
// imported offers the load left out (nil when none).
func (a *app) recommendWith(ds *dataset, r recommend.Requirements, pf *recommend.Prefilter) (*recommend.Result, error) {
	m, err := a.perfModel(ds.Catalog)
	if err != nil {
		return nil, err
	}
	e := &recommend.Engine{Catalog: ds.Catalog, Perf: m, Pricing: a.engine(ds.Catalog), FX: a.rates, Now: a.today(), Prefiltered: pf}
	return e.Recommend(r, a.printer)
}

func planTime(pr *i18n.Printer, p document.RecPlan) string {
	if p.Time == nil {
		return "-"
	}
	return duration(pr, mustFloat(p.Time.Hours)*60)
}

func mustFloat(n interface{ Float64() (float64, error) }) float64 {
	v, _ := n.Float64()
	return v
}

func (a *app) writeRecommend(doc document.Recommendation) error {
	p := a.printer
	g := &output.Grid{
		Headers: []string{"#", p.T("col.plan"), p.T("col.region"), p.T("col.billing"), p.T("col.gpus"), p.T("est.time"), p.T("col.total") + " " + doc.Currency, p.T("rec.col.risk")},
		Align:   []output.Align{output.Right, output.Left, output.Left, output.Left, output.Right, output.Right, output.Right, output.Left},
	}
	for _, pl := range doc.Plans {
		risk := "-"
		if miss := mustFloat(pl.DeadlineMiss); miss >= 0.005 {
			risk = p.T("rec.late", fmt.Sprintf("%.0f%%", 100*miss))
		} else if len(pl.Risks) > 0 {
			risk = p.T("rec.notes", len(pl.Risks))
		}
		name := fmt.Sprintf("%s %d× %s (%s× %s)", pl.Provider, pl.Count, pl.InstanceType, pl.GPUCount, pl.GPU)
		total := numMoney(pl.Cost.Total)
		if pl.PriceLowerBound && a.out == output.Table { // a Windows job at the Linux rate: at least this
			total = "≥ " + total
		}
		g.Add(fmt.Sprint(pl.Rank), name, pl.Region, a.billingLabel(pl.Billing), pl.GPUCount, planTime(a.printer, pl), total, risk)
	}
	if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
		return err
	}
	if a.out != output.Table {
		return nil
	}
	w := a.io.Out
	var c *catalog.Catalog
	if ds, err := a.data(); err == nil {
		c = ds.Catalog
	}
	for _, pl := range doc.Plans {
		fmt.Fprintf(w, "\n#%d %s\n", pl.Rank, pl.Offer)
		for _, s := range pl.Reasons {
			fmt.Fprintln(w, "  "+s)
		}
		for _, s := range offerGaps(p, c, pl.Offer) {
			fmt.Fprintln(w, "  ✗ "+s)
		}
		for _, s := range pl.Risks {
			fmt.Fprintln(w, "  ⚠ "+s)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, a.summaryLine(doc))
	for _, n := range doc.Notes {
		fmt.Fprintln(w, "• "+n)
	}
	return nil
}

func total(m map[string]int) int {
	t := 0
	for _, v := range m {
		t += v
	}
	return t
}

// billingLabel renders a billing code in the report's language.
func (a *app) billingLabel(code string) string {
	b := catalog.Billing(code)
	return a.printer.Billing(code, b.Family())
}

func (a *app) stageList(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %d", a.printer.T("rec.stage."+k), m[k]))
	}
	return strings.Join(parts, ", ")
}

func (a *app) writeRecommendMarkdown(doc document.Recommendation) error {
	p := a.printer
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", p.T("rec.report_title"))
	g := &output.Grid{Headers: []string{"#", p.T("col.plan"), p.T("col.region"), p.T("col.billing"), p.T("est.time"), p.T("col.total") + " " + doc.Currency}}
	for _, pl := range doc.Plans {
		g.Add(fmt.Sprint(pl.Rank), fmt.Sprintf("%s %d× %s (%s× %s)", pl.Provider, pl.Count, pl.InstanceType, pl.GPUCount, pl.GPU), pl.Region, a.billingLabel(pl.Billing), planTime(a.printer, pl), numMoney(pl.Cost.Total))
	}
	if _, err := fmt.Fprint(a.io.Out, b.String()); err != nil {
		return err
	}
	if err := output.WriteMarkdown(a.io.Out, g); err != nil {
		return err
	}
	b.Reset()
	for _, pl := range doc.Plans {
		fmt.Fprintf(&b, "\n## %d. %s\n\n", pl.Rank, pl.Offer)
		for _, s := range pl.Reasons {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		for _, s := range pl.Risks {
			fmt.Fprintf(&b, "- ⚠ %s\n", s)
		}
	}
	fmt.Fprintf(&b, "\n%s\n", a.summaryLine(doc))
	for _, n := range doc.Notes {
		fmt.Fprintf(&b, "\n- %s", n)
	}
	b.WriteString("\n")
	_, err := fmt.Fprint(a.io.Out, b.String())
	return err
}

// summaryLine is the closing line of a recommendation: plan and rejection
// counts, then the date range of the prices used, or a plain statement that
// they are undated when no price behind the plans carries a date.
func (a *app) summaryLine(doc document.Recommendation) string {
	p := a.printer
	if doc.DataAsOf.Oldest == "" && doc.DataAsOf.Newest == "" {
		return p.T("rec.summary.undated", doc.Feasible, total(doc.RejectedBy), a.stageList(doc.RejectedBy))
	}
	return p.T("rec.summary", doc.Feasible, total(doc.RejectedBy), a.stageList(doc.RejectedBy), doc.DataAsOf.Oldest, doc.DataAsOf.Newest)
}
