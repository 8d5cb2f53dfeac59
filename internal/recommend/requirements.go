// Package recommend is gpuscout's advisor: it turns a job description and
// its constraints into ranked, explained plans — which cloud, instance,
// region, count and billing model, what it costs, how long it takes, what
// risks it carries, why it won and what would change the answer. It uses
// the catalog, the performance model, the cost engine and the spot engine.
package recommend

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/perf"
)

// Workload is what has to run: one of a benchmark with an amount of work,
// a sized job, a GPU-hours figure, or an inference service target.
type Workload struct {
	Benchmark string    `json:"benchmark,omitempty"`
	Samples   float64   `json:"samples,omitempty"` // work in the benchmark's unit (samples, tokens ...)
	Job       *perf.Job `json:"job,omitempty"`
	GPUHours  float64   `json:"gpu_hours,omitempty"`
	// GPUHoursOn is the GPU model the GPU-hours were measured on; other
	// GPUs are scaled by their dense FP16 peak. Empty = GPU-hours on any GPU.
	GPUHoursOn string     `json:"gpu_hours_on,omitempty"`
	Inference  *Inference `json:"inference,omitempty"`
	// Precision is the precision as the user wrote it (bf16 stays bf16;
	// the model computes BF16 and FP16 alike).
	Precision string `json:"precision,omitempty"`
	// ClusterGPUs keeps this many GPUs for HorizonMonths (a standing
	// training cluster), priced at Utilization.
	ClusterGPUs int `json:"cluster_gpus,omitempty"`
}

// Inference is a serving target for an LLM: either an aggregate output
// token rate, or requests per second with their sizes and latency budgets
// (time to first token and time per output token, as MLPerf Inference's
// server scenario states them).
type Inference struct {
	Params          float64        `json:"params,omitempty"`            // model parameters (a mixture of experts: all of them)
	ActiveParams    float64        `json:"active_params,omitempty"`     // mixture of experts: parameters used per token (0 = Params)
	TokensPerSecond float64        `json:"tokens_per_second,omitempty"` // aggregate output tokens per second to sustain
	QPS             float64        `json:"qps,omitempty"`               // requests per second
	InputTokens     float64        `json:"input_tokens,omitempty"`      // prompt tokens per request
	OutputTokens    float64        `json:"output_tokens,omitempty"`     // generated tokens per request
	TTFTMs          float64        `json:"ttft_ms,omitempty"`           // time-to-first-token budget, ms
	TPOTMs          float64        `json:"tpot_ms,omitempty"`           // time-per-output-token budget, ms
	Heads           int            `json:"attention_heads,omitempty"`   // attention heads (tensor-parallel groups divide them); 0 = 64
	Precision       perf.Precision `json:"precision,omitempty"`
	// The model's layout where known (0: assumed from a published model
	// of the same size, and said so): layers, KV heads and their size,
	// width d_model, a mixture of experts' routed experts and experts per
	// token. They size the KV cache, prefill attention, all-reduces and
	// the experts a decode step reads.
	Layers          int `json:"layers,omitempty"`
	KVHeads         int `json:"kv_heads,omitempty"`
	HeadDim         int `json:"head_dim,omitempty"`
	Hidden          int `json:"hidden_size,omitempty"`
	Experts         int `json:"experts,omitempty"`
	ExpertsPerToken int `json:"experts_per_token,omitempty"`
}

// MarshalJSON writes the precision as the user wrote it (bf16 stays
// bf16) in the job or inference target too.
func (w Workload) MarshalJSON() ([]byte, error) {
	type plain Workload
	p := plain(w)
	if w.Precision != "" {
		if w.Job != nil {
			j := *w.Job
			j.Precision = perf.Precision(w.Precision)
			p.Job = &j
		}
		if w.Inference != nil {
			i := *w.Inference
			i.Precision = perf.Precision(w.Precision)
			p.Inference = &i
		}
	}
	return json.Marshal(p)
}

// active is the parameter count that works on each token.
func (i *Inference) active() float64 {
	if i.ActiveParams > 0 {
		return i.ActiveParams
	}
	return i.Params
}

// job is the sized estimate the service is built on: the request's
// context and the model's layout where given.
func (i *Inference) job() perf.Job {
	return perf.Job{Kind: perf.LLMInference, Params: i.Params, ActiveParams: i.ActiveParams, Tokens: 1, Precision: i.Precision,
		InputTokens: i.InputTokens, OutputTokens: i.OutputTokens, Layers: i.Layers, KVHeads: i.KVHeads, HeadDim: i.HeadDim,
		Hidden: i.Hidden, Experts: i.Experts, ExpertsPerToken: i.ExpertsPerToken}
}

// OutputRate is the output tokens per second the target needs.
func (i *Inference) OutputRate() float64 {
	if i.QPS > 0 {
		return i.QPS * i.OutputTokens
	}
	return i.TokensPerSecond
}

// FP64 is double precision: FLOP-count jobs only, sized from the GPUs'
// published FP64 peaks (the performance model stops at FP32).
const FP64 perf.Precision = "fp64"

// ParsePrecision reads a precision as users write it (fp64, fp32, tf32,
// fp16, bf16, fp8, int8).
func ParsePrecision(s string) (perf.Precision, error) {
	if strings.EqualFold(strings.TrimSpace(s), "fp64") {
		return FP64, nil
	}
	p, err := perf.ParsePrecision(s)
	if err != nil {
		return "", fmt.Errorf("unknown precision %q (use fp64, fp32, tf32, fp16, bf16, fp8 or int8)", s)
	}
	return p, nil
}

// BudgetPeriods are what a budget can cover: the whole job or service,
// a month, or an hour of running.
var BudgetPeriods = []string{"total", "month", "hour"}

// budgetPeriod is the period the budget covers (its default when unsaid).
func (r *Requirements) budgetPeriod() string {
	if r.BudgetPeriod != "" {
		return strings.ToLower(r.BudgetPeriod)
	}
	if r.service() {
		return "month"
	}
	return "total"
}

// EcosystemCategories are the ecosystem categories a job can require: the
// categories of the catalog's ecosystem facts (catalog.EcosystemFact).
func EcosystemCategories() []string {
	return []string{"acceleration", "compliance", "console-language", "free-trial", "kubernetes", "marketplace",
		"ml-platform", "support", "user-regions", "wechat", "windows"}
}

// Fabrics are the RDMA fabrics a job can require ("any" = any of them).
var Fabrics = []string{"infiniband", "efa", "erdma", "roce", "any"}

// Weights are custom priority weights (larger = more important).
type Weights struct {
	Cost float64 `json:"cost"`
	Time float64 `json:"time"`
	Risk float64 `json:"risk"`
}

// Requirements describe a job and its constraints.
type Requirements struct {
	Name     string   `json:"name,omitempty"`
	Workload Workload `json:"workload,omitempty"`
	// DeadlineHours bounds the job's wall time (0 = none).
	DeadlineHours float64 `json:"deadline_hours,omitempty"`
	// HorizonMonths, for a service or a cluster kept running; with
	// Utilization of its hours used. A job without a horizon runs once.
	HorizonMonths int     `json:"horizon_months,omitempty"`
	Utilization   float64 `json:"utilization,omitempty"`
	// Hours holds a cluster (ClusterGPUs) for exactly this many hours, a
	// fixed-length reservation priced as a job rather than over months.
	Hours float64 `json:"hours,omitempty"`
	// StartWithinDays asks for guaranteed capacity starting within this
	// many days, without interruption: marketplace hosts without an SLA,
	// spot and queued (flex-start) capacity are rejected (0 = no need).
	StartWithinDays float64 `json:"start_within_days,omitempty"`
	// Budget is a hard spending limit in the result's currency, per
	// BudgetPeriod (0 = none).
	Budget float64 `json:"budget,omitempty"`
	// BudgetPeriod is what Budget covers: total (the job, or the service
	// over its horizon), month or hour (while running). Default: month for
	// a service or cluster kept over a horizon, total otherwise.
	BudgetPeriod string `json:"budget_period,omitempty"`

	GPUs           []string `json:"gpus,omitempty"`        // GPU models or families allowed
	MinVRAMGB      float64  `json:"min_vram_gb,omitempty"` // per GPU
	MinTotalVRAMGB float64  `json:"min_total_vram_gb,omitempty"`
	MinGPUs        int      `json:"min_gpus,omitempty"`
	MaxGPUs        int      `json:"max_gpus,omitempty"`
	Interconnect   string   `json:"interconnect,omitempty"` // nvlink (NVLink or NVSwitch) or nvswitch
	RDMA           bool     `json:"rdma,omitempty"`         // any RDMA fabric (the same as Fabric "any")
	// Fabric is the RDMA fabric required between nodes: infiniband, efa,
	// erdma, roce or any.
	Fabric    string `json:"fabric,omitempty"`
	MultiNode bool   `json:"multi_node,omitempty"`
	// AllowNoRDMA lets multi-node training run over plain Ethernet (with
	// the model's stated penalty); without it such plans are rejected.
	AllowNoRDMA bool `json:"allow_no_rdma,omitempty"`
	// OS is the operating system the job runs on: linux (default) or
	// windows (only instance types documented to run Windows).
	OS string `json:"os,omitempty"`
	// MTBIHours overrides the mean time between spot interruptions.
	MTBIHours float64 `json:"mtbi_hours,omitempty"`
	// HA sizes services with one spare instance (N+1).
	HA bool `json:"ha,omitempty"`
	// BookQuantile is the quantile of a job's time distribution that a
	// fixed-length booking (an AWS Capacity Block) must cover: 0 means
	// DefaultBookQuantile (P90).
	BookQuantile float64 `json:"book_quantile,omitempty"`
	// AllowLikelyMiss ranks plans likely to miss the deadline (see
	// LikelyMiss) by the priority like the rest, instead of after every
	// plan that meets it.
	AllowLikelyMiss bool `json:"allow_likely_miss,omitempty"`

	Regions   []string `json:"regions,omitempty"`
	Countries []string `json:"countries,omitempty"`
	Residency []string `json:"residency,omitempty"`
	// NearUsers are where the service's users are: countries (ISO codes),
	// cities or region codes. The nearest regions are preferred (a score
	// bonus), not required.
	NearUsers []string `json:"near_users,omitempty"`

	Providers        []string `json:"providers,omitempty"`
	ExcludeProviders []string `json:"exclude_providers,omitempty"`
	Interruptible    bool     `json:"interruptible,omitempty"`
	Ecosystem        []string `json:"ecosystem,omitempty"` // ecosystem categories the provider must offer

	Priority string   `json:"priority,omitempty"` // cost, time, balanced
	Weights  *Weights `json:"weights,omitempty"`
	Currency string   `json:"currency,omitempty"`
	Limit    int      `json:"limit,omitempty"`

	// nearOnly restricts a per-location run to regions near its users.
	nearOnly bool
}

// Priorities lists the named priorities.
var priorities = map[string]Weights{
	"cost":     {Cost: 1, Time: 0.15, Risk: 0.5},
	"time":     {Cost: 0.15, Time: 1, Risk: 0.5},
	"balanced": {Cost: 0.6, Time: 0.6, Risk: 0.5},
}

// InputError names the requirement that is wrong. Format and Args are
// the message before formatting, so that it can be shown in the reader's
// language (i18n key "in:" + Format).
type InputError struct {
	Field  string
	Msg    string
	Format string
	Args   []any
}

func (e *InputError) Error() string { return fmt.Sprintf("requirements: %s: %s", e.Field, e.Msg) }

// In renders the error in p's language: the message's translation where
// the i18n tables have one (an argument that is itself an error is
// rendered the same way), else the English.
func (e *InputError) In(p *i18n.Printer) string {
	key := "in:" + e.Format
	if e.Format == "%v" && len(e.Args) == 1 {
		if err, ok := e.Args[0].(error); ok {
			return p.T("rec.in.err", e.Field, ErrorIn(err, p))
		}
	}
	if e.Format == "" || p.T(key) == key {
		return p.T("rec.in.err", e.Field, e.Msg)
	}
	args := make([]any, len(e.Args))
	for i, a := range e.Args {
		args[i] = a
		if err, ok := a.(error); ok {
			args[i] = ErrorIn(err, p)
		}
	}
	return p.T("rec.in.err", e.Field, p.T(key, args...))
}

// ErrorIn renders an error in p's language where it is a requirements
// error the i18n tables know; else its English text.
func ErrorIn(err error, p *i18n.Printer) string {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie.In(p)
	}
	var nf *catalog.NotFoundError
	if errors.As(err, &nf) {
		what := nf.What
		if k := "err.what." + strings.ReplaceAll(nf.What, " ", "_"); p.T(k) != k {
			what = p.T(k)
		}
		msg := p.T("err.nf", what, nf.Name)
		if len(nf.Suggestions) > 0 {
			msg = p.T("err.nf.suggest", msg, strings.Join(nf.Suggestions, p.T("list.sep")))
		}
		return msg
	}
	var me *perf.MsgError
	if errors.As(err, &me) {
		return p.M(me.Msg)
	}
	var le *locError
	if errors.As(err, &le) {
		if k := "in:" + le.format; p.T(k) != k {
			return p.T(k, le.args...)
		}
	}
	return err.Error()
}

// locError is an error with its message before formatting.
type locError struct {
	format string
	args   []any
}

func (e *locError) Error() string { return fmt.Sprintf(e.format, e.args...) }

func locErr(format string, args ...any) error { return &locError{format: format, args: args} }

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Msg: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// Validate checks the requirements for missing and contradictory fields.
func (r *Requirements) Validate() error {
	w := r.Workload
	n := 0
	for _, set := range []bool{w.Benchmark != "", w.Job != nil, w.GPUHours > 0, w.Inference != nil, w.ClusterGPUs > 0} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return inputErr("workload", "describe the work: a benchmark with samples, a sized job, gpu_hours, an inference target or cluster_gpus")
	case n > 1:
		return inputErr("workload", "give only one of benchmark, job, gpu_hours, inference and cluster_gpus")
	case w.ClusterGPUs < 0:
		return inputErr("workload.cluster_gpus", "must not be negative")
	case w.Benchmark != "" && w.Samples < 0:
		return inputErr("workload.samples", "must not be negative")
	case w.GPUHours < 0:
		return inputErr("workload.gpu_hours", "must not be negative")
	case r.DeadlineHours < 0:
		return inputErr("deadline_hours", "must not be negative")
	case r.HorizonMonths < 0:
		return inputErr("horizon_months", "must not be negative")
	case r.Utilization < 0 || r.Utilization > 1:
		return inputErr("utilization", "a fraction between 0 and 1")
	case r.MinGPUs < 0 || r.MaxGPUs < 0:
		return inputErr("gpus", "counts must not be negative")
	case r.MaxGPUs > 0 && r.MinGPUs > r.MaxGPUs:
		return inputErr("min_gpus", "min_gpus %d is above max_gpus %d", r.MinGPUs, r.MaxGPUs)
	case r.MinVRAMGB < 0 || r.MinTotalVRAMGB < 0:
		return inputErr("min_vram_gb", "must not be negative")
	case r.Interconnect != "" && r.Interconnect != "nvlink" && r.Interconnect != "nvswitch":
		return inputErr("interconnect", "%q: use nvlink (NVLink or NVSwitch) or nvswitch", r.Interconnect)
	case r.Limit < 0:
		return inputErr("limit", "must not be negative")
	case r.MTBIHours < 0:
		return inputErr("mtbi_hours", "must not be negative")
	case r.Fabric != "" && !inFold(Fabrics, r.Fabric):
		return inputErr("fabric", "%q: use %s", r.Fabric, strings.Join(Fabrics, ", "))
	case r.OS != "" && !strings.EqualFold(r.OS, "linux") && !strings.EqualFold(r.OS, "windows"):
		return inputErr("os", "%q: use linux or windows", r.OS)
	case r.Hours < 0 || math.IsNaN(r.Hours) || math.IsInf(r.Hours, 0):
		return inputErr("hours", "must be a positive number of hours")
	case r.Hours > 0 && w.ClusterGPUs == 0:
		return inputErr("hours", "holds a cluster for a fixed time: give cluster_gpus (--cluster-gpus) with it; a sized job's time comes from the performance model")
	case r.Hours > 0 && r.HorizonMonths > 0:
		return inputErr("hours", "give hours (a fixed-length reservation) or horizon_months (a standing cluster), not both")
	case r.BookQuantile != 0 && !(r.BookQuantile >= 0.5 && r.BookQuantile <= 0.999):
		return inputErr("book_quantile", "a quantile between 0.5 (the median) and 0.999")
	case r.StartWithinDays < 0 || math.IsNaN(r.StartWithinDays):
		return inputErr("start_within_days", "must not be negative")
	case r.StartWithinDays > 0 && r.Interruptible:
		return inputErr("start_within_days", "guaranteed capacity excludes interruptions: drop interruptible (--interruptible)")
	case r.Budget < 0 || math.IsNaN(r.Budget) || math.IsInf(r.Budget, 0):
		return inputErr("budget", "must be a positive amount in the output currency")
	case r.BudgetPeriod != "" && !inFold(BudgetPeriods, r.BudgetPeriod):
		return inputErr("budget_period", "%q: use %s", r.BudgetPeriod, strings.Join(BudgetPeriods, ", "))
	case r.BudgetPeriod != "" && r.Budget == 0:
		return inputErr("budget_period", "needs a budget (--budget)")
	}
	if i := w.Inference; i != nil {
		switch {
		case !(i.Params > 0):
			return inputErr("workload.inference.params", "must be positive")
		case i.ActiveParams < 0 || i.ActiveParams > i.Params:
			return inputErr("workload.inference.active_params", "must be positive and at most the total parameters (%.3g)", i.Params)
		case i.QPS > 0 && i.TokensPerSecond > 0:
			return inputErr("workload.inference", "give qps (with input_tokens and output_tokens) or tokens_per_second, not both")
		case i.QPS > 0 && (!(i.OutputTokens > 0) || !(i.InputTokens > 0)):
			return inputErr("workload.inference", "qps needs input_tokens and output_tokens per request")
		case !(i.QPS > 0) && !(i.TokensPerSecond > 0):
			return inputErr("workload.inference", "give qps (requests per second) or tokens_per_second")
		case i.TTFTMs < 0 || i.TPOTMs < 0:
			return inputErr("workload.inference", "latency budgets must not be negative")
		case i.TTFTMs > 0 && i.QPS == 0:
			return inputErr("workload.inference.ttft_ms", "a time-to-first-token budget needs qps and input_tokens")
		case i.Heads < 0:
			return inputErr("workload.inference.attention_heads", "must not be negative")
		case i.Precision == FP64:
			return inputErr("workload.inference.precision", "fp64 applies to FLOP-count jobs only")
		}
		if err := perf.ValidateShape(i.Layers, i.KVHeads, i.HeadDim, i.Hidden, i.Experts, i.ExpertsPerToken, i.Params, i.ActiveParams); err != nil {
			return inputErr("workload.inference", "%v", err)
		}
	}
	if j := w.Job; j != nil && j.Precision == FP64 && j.Kind != perf.FLOPJob {
		return inputErr("workload.job.precision", "fp64 applies to flops jobs only (the %s model has no FP64 form)", j.Kind)
	}
	if w.Job != nil {
		if err := w.Job.Validate(); err != nil {
			return inputErr("workload.job", "%v", err)
		}
	}
	if _, err := r.userLocations(); err != nil {
		return inputErr("near_users", "%v", err)
	}
	if r.Priority != "" {
		if _, ok := priorities[r.Priority]; !ok {
			return inputErr("priority", "%q: use cost, time or balanced (or weights)", r.Priority)
		}
	}
	for _, e := range r.Ecosystem {
		if !slices.Contains(EcosystemCategories(), e) {
			return inputErr("ecosystem", "%q is not an ecosystem category: use %s", e, strings.Join(EcosystemCategories(), ", "))
		}
	}
	for _, p := range r.Providers {
		for _, x := range r.ExcludeProviders {
			if strings.EqualFold(p, x) {
				return inputErr("providers", "%s is both required and excluded", p)
			}
		}
	}
	return nil
}

// fabric is the required RDMA fabric ("" = none required).
func (r *Requirements) fabric() string {
	if r.Fabric != "" {
		return strings.ToLower(r.Fabric)
	}
	if r.RDMA {
		return "any"
	}
	return ""
}

// windows reports whether the job runs on Windows: os: windows, or the
// windows ecosystem need (which is about the instance, not only the
// provider).
func (r *Requirements) windows() bool {
	return strings.EqualFold(r.OS, "windows") || inFold(r.Ecosystem, "windows")
}

// training reports whether the workload is a training job whose GPUs
// exchange gradients (multi-node runs need a fast fabric).
func (r *Requirements) training() bool {
	if j := r.Workload.Job; j != nil {
		return j.Kind == perf.TransformerTrain || j.Kind == perf.CNNTraining
	}
	return strings.Contains(r.Workload.Benchmark, "train")
}

func (r *Requirements) weights() Weights {
	if r.Weights != nil {
		return *r.Weights
	}
	if w, ok := priorities[r.Priority]; ok {
		return w
	}
	return priorities["balanced"]
}

// service reports whether the requirement is a running service or cluster
// (priced over a horizon) rather than a job that finishes.
func (r *Requirements) service() bool {
	return r.Workload.Inference != nil || (r.Workload.ClusterGPUs > 0 && r.Hours == 0)
}

// reservation reports whether the requirement holds a cluster for a fixed
// number of hours (cluster_gpus with hours).
func (r *Requirements) reservation() bool {
	return r.Workload.ClusterGPUs > 0 && r.Hours > 0
}

// guaranteed reports whether the capacity must be guaranteed to start
// (start_within_days) and run without interruption.
func (r *Requirements) guaranteed() bool { return r.StartWithinDays > 0 }

// DefaultBookQuantile is the quantile of a job's time that a
// fixed-length booking covers unless book_quantile says otherwise: the
// slow end (P90), the same quantile that sizes a job for its deadline.
const DefaultBookQuantile = 0.9

// LikelyMiss is the probability of missing a hard deadline above which a
// plan does not meet it: its P90, the slow end that sizes a job and books
// its capacity, is past the deadline. Such plans rank after every plan
// that meets the deadline, under every priority, unless
// allow_likely_miss.
const LikelyMiss = 0.1

// likelyMiss reports whether a candidate is ranked as likely to miss the
// deadline.
func (r *Requirements) likelyMiss(miss float64) bool {
	return r.DeadlineHours > 0 && !r.AllowLikelyMiss && miss > LikelyMiss+1e-9
}

// bookQuantile is the quantile a fixed-length booking covers.
func (r *Requirements) bookQuantile() float64 {
	if r.BookQuantile > 0 {
		return r.BookQuantile
	}
	return DefaultBookQuantile
}
