package recommend

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// Engine recommends plans. Pricing's Spot hook should be set so that spot
// bills include interruption overhead.
type Engine struct {
	Catalog *catalog.Catalog
	Perf    *perf.Model
	Pricing *pricing.Engine
	FX      catalog.Converter
	Now     time.Time
	// Prefiltered, when not nil, holds the offers the catalog's reader
	// left out because their instance types fail the requirements' hard
	// filters (see Prefilter): Recommend counts them as rejected.
	Prefiltered *Prefilter
}

// Plan is one recommended way to run the job.
type Plan struct {
	Rank                       int
	Offer                      *catalog.Offer
	Instances, GPUs, Nodes     int
	Hours, HoursLow, HoursHigh float64 // wall time of a job (0 for a service)
	Cost                       float64 // expected, in Currency: the job, or the service over the horizon
	// PerGPUHour is the offer's effective rate per GPU-hour, in Currency.
	PerGPUHour float64
	// LowerBound: a Windows job priced at the offer's Linux rate (the
	// catalog has no Windows rate for it), so Cost is a lower bound.
	LowerBound   bool
	Currency     string
	Confidence   perf.Confidence
	DeadlineMiss float64
	RiskScore    float64
	Score        float64
	Pareto       bool
	Risks        []string
	Reasons      []string
	Estimate     *perf.Estimate
	Breakdown    *pricing.Breakdown
	// ComponentTotals are the totals of Breakdown's components converted
	// into Currency, in its order: they sum to Cost.
	ComponentTotals []float64
	// Basis is what the time rests on (FLOPs, utilisation, scaling and
	// their sources); nil for services and GPU-hour jobs.
	Basis *Basis
	// Spot is the checkpoint advice of a spot plan.
	Spot *SpotAdvice
	// Redundant is the N+1 variant of a service plan.
	Redundant *Redundancy
	// Serving is how a service plan serves its model at the stated
	// context (nil for jobs and clusters).
	Serving *Serving
	// Booking is how a Capacity Block covers the job's time (nil for
	// other plans).
	Booking *Booking
	// BuyVsRent compares a standing cluster's plan with buying its servers.
	BuyVsRent *BuyVsRent
	// SLA is the provider's published compute SLA, for a service sized
	// N+1 (nil when none is recorded or the service is not ha).
	SLA *SLA
	// Sizing names the rule that chose the instance count.
	Sizing string
	// BilledHours is the time billed per instance (after the provider's
	// billing granularity and minimum, with start-up).
	BilledHours float64
	// ForUsers is the user location a per-location plan serves ("" when
	// one answer serves every user).
	ForUsers string
	spotPlan *spot.Plan
	spotRisk *spot.Risk
	stale    bool
	cand     *cand
}

// Basis is what a job's time estimate rests on.
type Basis struct {
	FLOPs       float64  `json:"flops,omitempty"`
	Precision   string   `json:"precision,omitempty"`
	Utilization float64  `json:"utilization,omitempty"` // model-FLOPs utilisation or share of peak
	PeakTFLOPS  float64  `json:"peak_tflops_per_gpu,omitempty"`
	Scaling     float64  `json:"scaling_efficiency"` // multi-node data-parallel efficiency applied (1 = none)
	Confidence  string   `json:"confidence"`
	Sources     []string `json:"sources"`
	Assumptions []string `json:"assumptions"`
}

// SpotAdvice is a spot plan's fault-tolerance plan.
type SpotAdvice struct {
	MTBIHours       float64 `json:"mtbi_hours"`
	MTBISource      string  `json:"mtbi_source"`
	IntervalMinutes float64 `json:"checkpoint_interval_minutes"`
	Formula         string  `json:"formula"`
	Overhead        float64 `json:"overhead"`
	// P90Hours and P50Hours are of the job's one time distribution: the
	// time estimate's error and the interruptions simulated together
	// (P90Hours is the plan's time.high).
	P90Hours float64 `json:"p90_hours,omitempty"`
	P50Hours float64 `json:"p50_hours,omitempty"`
	// Short: the job is shorter than one checkpoint interval, so it
	// writes no checkpoint and an interruption restarts it from zero.
	Short bool `json:"shorter_than_interval,omitempty"`
}

// Booking is how a fixed-length booking (an AWS Capacity Block) covers a
// job: booked to the Quantile of its time distribution, QuantileHours,
// the block is BlockHours long, UsableHours of them before AWS's
// wind-down, and OverrunProbability is the chance the job runs past them.
type Booking struct {
	Quantile           float64 `json:"quantile"`
	QuantileHours      float64 `json:"quantile_hours"`
	BlockHours         float64 `json:"block_hours"`
	UsableHours        float64 `json:"usable_hours"`
	OverrunProbability float64 `json:"overrun_probability"`
}

// Redundancy is a service plan with one spare instance.
type Redundancy struct {
	Instances int     `json:"instances"`
	Cost      float64 `json:"cost"`
	Extra     float64 `json:"extra"`
	Chosen    bool    `json:"chosen"` // the plan itself is N+1 (ha: true)
}

// GPUCount is the plan's GPUs as sold: "32", or "1/6" of a GPU slice.
func (p *Plan) GPUCount() string {
	return output.Qty(p.Offer.Instance.GPUCount.Mul(decimal.NewFromInt(int64(p.Instances))))
}

// ID is "offer × instances".
func (p *Plan) ID() string { return fmt.Sprintf("%s ×%d", p.Offer.ID(), p.Instances) }

// Rejection is a candidate that failed a hard constraint.
type Rejection struct {
	Stage  string
	Reason string
	// offer is the offer rejected; id the ID of one the catalog's reader
	// left out (see Prefilter), which is not loaded.
	offer *catalog.Offer
	id    string
}

// OfferID is the rejected offer's ID. It is built when asked for: a run
// rejects thousands of offers, and most answers only count them.
func (r Rejection) OfferID() string {
	if r.offer != nil {
		return r.offer.ID()
	}
	return r.id
}

// idHasPrefix reports whether the rejected offer's ID starts with pfx,
// without building the ID.
func (r Rejection) idHasPrefix(pfx string) bool {
	if r.offer == nil {
		return strings.HasPrefix(r.id, pfx)
	}
	var b [128]byte
	return bytes.HasPrefix(r.offer.AppendID(b[:0]), []byte(pfx))
}

// Result is the advisor's answer.
type Result struct {
	Requirements Requirements
	// Constraints are the hard constraints that removed candidates, with
	// how many each removed (in the printer's language).
	Constraints []ConstraintCount
	Currency    string
	Plans       []*Plan
	Pareto      []*Plan
	Rejected    []Rejection
	Considered  int // candidates evaluated
	Feasible    int
	OldestAsOf  time.Time
	NewestAsOf  time.Time
	Notes       []string
}

// ConstraintCount is a hard constraint and the candidates it removed.
type ConstraintCount struct {
	Stage      string `json:"stage"`
	Constraint string `json:"constraint"`
	Removed    int    `json:"removed"`
}

// NoPlanError says which constraint emptied the result and what relaxation
// would give plans. Result holds the rejections so far.
type NoPlanError struct {
	Stage      string
	Constraint string
	Relaxation string
	Result     *Result
	msg        string
}

func (e *NoPlanError) Error() string {
	if e.msg != "" {
		return e.msg
	}
	msg := fmt.Sprintf("no plan meets the requirements: the %s constraint (%s) removed the last candidates", e.Stage, e.Constraint)
	if e.Relaxation != "" {
		msg += "; " + e.Relaxation
	}
	return msg
}

// Defaults for spot fault tolerance in recommendations (assumptions, named
// in the plans that use them).
const (
	checkpointHours = 10.0 / 60
	restartHours    = 15.0 / 60
	staleAfter      = 365 * 24 * time.Hour
)

// cand is a feasible candidate: what ranking it needs, and its details.
// A job's details are dropped once it is evaluated (thousands of
// candidates are ranked, a handful shown) and restored by full, for the
// candidates a result shows, by evaluating the same offer and count again.
type cand struct {
	offer     *catalog.Offer
	instances int
	hours     float64 // wall time (0 for a service)
	cost      float64
	risk      float64
	score     float64 // the sum of its terms (see scoreScale)
	nearBonus float64
	// miss is the probability of missing the deadline (ranking puts
	// plans likely to miss it last).
	miss    float64
	pareto  bool
	sizing  string
	*detail // nil once dropped (see full)
}

// detail is what a candidate's plan and explanations need beyond its rank.
type detail struct {
	base      int // services: instances without the N+1 spare
	gpus      int
	nodes     int
	work      float64 // compute hours before spot overhead and start-up
	billed    float64 // hours billed per instance
	gran      granularity
	low, high float64
	unitCost  float64 // services: per instance over the horizon
	terms     int     // commitments: terms bought over the horizon
	est       *perf.Estimate
	spotPlan  *spot.Plan
	spotRisk  *spot.Risk
	stale     bool
	// stock is the offer's capacity reading when it says low or none
	// (a risk); nil otherwise.
	stock   *catalog.Stock
	nearKM  float64
	scaling float64
	fabric  []i18n.Msg // the all-reduce bandwidth across nodes the scaling assumed
	fp64    float64
	inf     *infSizing
	// book is the time a Capacity Block was booked to cover (the booking
	// quantile of the job's time) and pastBook the chance the job runs
	// past the block's usable hours.
	book, pastBook float64
	// spotMiss and spotP50 are a spot job's deadline risk and median from
	// its time distribution (spotDist).
	spotMiss, spotP50 float64
}

// Recommend evaluates every offer against the requirements. When no plan
// is feasible the error is a *NoPlanError whose Result holds the
// rejections.
func (e *Engine) Recommend(r Requirements, p *i18n.Printer) (*Result, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.Workload.Inference != nil && !r.nearOnly {
		if locs, _ := r.userLocations(); len(locs) > 1 {
			return e.perLocation(r, locs, p)
		}
	}
	c := e.Catalog
	res := &Result{Requirements: r, Currency: r.Currency}
	if res.Currency == "" {
		res.Currency = "USD"
	}
	if r.Limit == 0 {
		r.Limit = 5
	}
	gpuSet, err := e.gpuSet(r)
	if err != nil {
		return nil, err
	}
	x := &run{e: e, r: r, p: p, res: res, cur: res.Currency, cache: map[estKey]*perf.Estimate{}, cacheErr: map[estKey]error{}}
	if x.near, err = e.resolveNear(r.NearUsers); err != nil {
		return nil, err
	}
	stages := x.filters(gpuSet)
	offers := c.Offers()
	if r.windows() {
		offers = windowsPriced(c, offers)
	}
	// The offers each stage keeps go into one buffer: a stage reads the
	// offers the one before kept and writes its own in place (never ahead
	// of its reading).
	buf := make([]*catalog.Offer, 0, len(offers))
	// The rejections go into one list sized for the worst case, every
	// offer rejected once: it is never copied to grow, and the part no
	// rejection fills is never touched.
	res.Rejected = make([]Rejection, 0, len(offers)+e.Prefiltered.LeftOut())
	for _, st := range stages {
		kept := buf[:0]
		from := len(res.Rejected)
		for _, o := range offers {
			if why := st.reject(o); why != "" {
				res.Rejected = append(res.Rejected, Rejection{offer: o, Stage: st.name, Reason: why})
				continue
			}
			kept = append(kept, o)
		}
		// Offers the reader left out (Prefiltered) count where a full
		// load would have rejected them, in offer ID order like the rest.
		left := e.Prefiltered.rejections(st.name)
		if len(left) > 0 {
			res.Rejected = append(res.Rejected[:from], mergeRejections(res.Rejected[from:], left)...)
		}
		if n := len(offers) - len(kept) + len(left); n > 0 {
			res.Constraints = append(res.Constraints, ConstraintCount{Stage: st.name, Constraint: st.describe, Removed: n})
		}
		if len(kept) == 0 {
			return nil, x.noPlan(st.name, st.describe, st.relax(offers))
		}
		offers, buf = kept, kept
	}
	cands, err := x.evaluate(offers)
	if err != nil {
		return nil, err
	}
	for _, st := range []string{"rdma", "precision", "fit", "deadline", "term", "budget"} {
		if n := countStage(res.Rejected, st); n > 0 {
			res.Constraints = append(res.Constraints, ConstraintCount{Stage: st, Constraint: x.evalConstraint(st), Removed: n})
		}
	}
	res.Considered = len(cands) + countStage(res.Rejected, "fit", "deadline", "term", "rdma", "precision", "budget")
	if len(cands) == 0 {
		return nil, x.noFeasible()
	}
	res.Feasible = len(cands)
	x.score(cands)
	markPareto(cands)
	sortCands(r, cands)
	first := newPicker(len(r.Regions) > 0)
	for _, cd := range cands {
		if len(res.Plans) == r.Limit {
			break
		}
		if !first.first(cd) {
			continue
		}
		pl, err := x.plan(cd, len(res.Plans)+1)
		if err != nil {
			return nil, err
		}
		// The full bill can add to the estimate (support, fees): the
		// budget holds for the bill the plan shows.
		if w := x.budgetCheck(cd, x.spend(cd, pl.Cost)); w != nil {
			x.rejectWhy(cd.offer, w)
			continue
		}
		res.Plans = append(res.Plans, pl)
	}
	if len(res.Plans) == 0 {
		return nil, x.noFeasible()
	}
	if res.Pareto, err = e.paretoList(x, cands, res.Currency); err != nil {
		return nil, err
	}
	for _, o := range offers {
		if o.Source.AsOf.IsZero() {
			continue // undated: outside the span of as-of dates
		}
		if res.OldestAsOf.IsZero() || o.Source.AsOf.Before(res.OldestAsOf) {
			res.OldestAsOf = o.Source.AsOf
		}
		if o.Source.AsOf.After(res.NewestAsOf) {
			res.NewestAsOf = o.Source.AsOf
		}
	}
	if err := x.explain(cands); err != nil {
		return nil, err
	}
	if err := x.buyVsRentNotes(); err != nil {
		return nil, err
	}
	if points := x.pointPlaces(); points > 1 && r.Workload.Inference == nil {
		res.Notes = append(res.Notes, p.T("rec.near_one_answer", points))
	}
	return res, nil
}

// pointPlaces counts the near-users entries that are places (not countries).
func (x *run) pointPlaces() int {
	n := 0
	for _, pl := range x.near {
		if pl.point {
			n++
		}
	}
	return n
}

// evalConstraint describes an evaluation stage's constraint.
func (x *run) evalConstraint(stage string) string {
	p, r := x.p, x.r
	switch stage {
	case "deadline":
		return p.T("rec.st.deadline", r.DeadlineHours)
	case "term":
		return p.T("rec.st.terms")
	case "rdma":
		return p.T("rec.st.multinode_rdma")
	case "precision":
		return p.T("rec.st.fp64")
	case "budget":
		return x.budgetText()
	}
	return p.T("rec.st.fit")
}

// sortCands orders candidates for the priority: cost puts the cheapest
// first and time the fastest, strictly (plans are listed in non-decreasing
// cost, or time; nearness to users and the blended score break exact ties);
// balanced and custom weights order by the blended score (within 0.5%).
func sortCands(r Requirements, cands []*cand) {
	key := func(x *cand) float64 { return x.score }
	strict := false
	switch {
	case r.Weights == nil && r.Priority == "cost":
		key, strict = func(x *cand) float64 { return x.cost }, true
	case r.Weights == nil && r.Priority == "time" && !r.service():
		key, strict = func(x *cand) float64 { return x.hours }, true
	}
	sort.SliceStable(cands, func(i, j int) bool {
		// A hard deadline: plans likely to miss it come after every plan
		// that meets it (LikelyMiss), whatever the priority.
		if li, lj := r.likelyMiss(cands[i].miss), r.likelyMiss(cands[j].miss); li != lj {
			return lj
		}
		// Guaranteed capacity: capacity reserved ahead comes first.
		if r.guaranteed() && reserved(cands[i].offer) != reserved(cands[j].offer) {
			return reserved(cands[i].offer)
		}
		// Windows: a plan priced at a Windows rate comes before one priced
		// at the Linux rate, which is only a lower bound of its cost
		// (docs/advisor.md, "Windows").
		if r.windows() && windowsRate(cands[i].offer) != windowsRate(cands[j].offer) {
			return windowsRate(cands[i].offer)
		}
		a, b := key(cands[i]), key(cands[j])
		if strict && a != b {
			return a < b
		}
		if strict && cands[i].nearBonus != cands[j].nearBonus {
			return cands[i].nearBonus > cands[j].nearBonus
		}
		if !strict && math.Abs(a-b) > 0.005*math.Max(math.Abs(a), math.Abs(b)) {
			return a < b
		}
		// Of two plans otherwise tied, the one a provider's API last saw
		// available comes first.
		if ai, aj := cands[i].offer.Stock.Available(), cands[j].offer.Stock.Available(); ai != aj {
			return ai
		}
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return idLess(cands[i].offer, cands[j].offer)
	})
}

// reserved reports whether an offer's capacity is reserved ahead for its
// term (a Capacity Block or a commitment) rather than taken when launched.
func reserved(o *catalog.Offer) bool {
	return o.Billing == catalog.CapacityBlock || o.Billing.IsCommitment()
}

// idLess orders offers by ID (a.ID() < b.ID()) without building the IDs.
func idLess(a, b *catalog.Offer) bool {
	var ba, bb [128]byte
	return bytes.Compare(a.AppendID(ba[:0]), b.AppendID(bb[:0])) < 0
}

func countStage(rs []Rejection, stages ...string) int {
	n := 0
	for _, x := range rs {
		for _, s := range stages {
			if x.Stage == s {
				n++
			}
		}
	}
	return n
}

// gpuSet resolves the allowed GPU names.
func (e *Engine) gpuSet(r Requirements) (map[string]bool, error) {
	if len(r.GPUs) == 0 {
		return nil, nil
	}
	set := map[string]bool{}
	for _, n := range r.GPUs {
		gs, err := e.Catalog.LookupGPU(n)
		if err != nil {
			return nil, inputErr("gpus", "%v", err)
		}
		for _, g := range gs {
			set[g.ID] = true
		}
	}
	return set, nil
}

// picker takes the best candidates, one per instance type and billing
// model (the cheapest region of each, unless regions were asked for): fed
// candidates in rank order, it says which is the first of its kind.
type picker struct {
	byRegion bool
	seen     map[pickKey]bool
}

// pickKey is what makes two candidates the same choice.
type pickKey struct {
	provider, instance string
	billing            catalog.Billing
	instances          int
	region             string // only when regions were asked for
}

func newPicker(byRegion bool) *picker {
	return &picker{byRegion: byRegion, seen: map[pickKey]bool{}}
}

// first reports whether x is the first candidate of its kind seen.
func (p *picker) first(x *cand) bool {
	k := pickKey{provider: x.offer.Provider, instance: x.offer.InstanceName, billing: x.offer.Billing, instances: x.instances}
	if p.byRegion {
		k.region = x.offer.RegionCode
	}
	if p.seen[k] {
		return false
	}
	p.seen[k] = true
	return true
}

// markPareto flags candidates that no other candidate beats on both cost
// and time (services: cost and risk, as they have no finishing time).
func markPareto(cands []*cand) {
	second := func(x *cand) float64 {
		if x.hours > 0 {
			return x.hours
		}
		return x.risk
	}
	for _, a := range cands {
		a.pareto = true
		for _, b := range cands {
			if b == a {
				continue
			}
			if b.cost <= a.cost && second(b) <= second(a) && (b.cost < a.cost || second(b) < second(a)) {
				a.pareto = false
				break
			}
		}
	}
}

// paretoList is the cost–time front, one plan per point (the first of
// equal points, in rank order), cheapest first.
func (e *Engine) paretoList(run *run, cands []*cand, cur string) ([]*Plan, error) {
	var out []*Plan
	seen := map[[2]float64]bool{}
	for _, x := range cands {
		if !x.pareto {
			continue
		}
		k := [2]float64{math.Round(x.cost*100) / 100, math.Round(x.hours*1000) / 1000}
		if seen[k] {
			continue
		}
		seen[k] = true
		if err := run.full(x); err != nil {
			return nil, err
		}
		out = append(out, e.lightPlan(x, cur))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cost < out[j].Cost })
	return out, nil
}

// score ranks candidates: weighted cost and time relative to the best, plus
// risk (deadline miss, estimate confidence, stale prices, assumed
// interruption rates); lower is better.
func (x *run) score(cands []*cand) {
	s := scoreScale{w: x.r.weights(), minC: math.Inf(1), minT: math.Inf(1)}
	for _, c := range cands {
		s.minC = math.Min(s.minC, c.cost)
		if c.hours > 0 {
			s.minT = math.Min(s.minT, c.hours)
		}
	}
	x.scale = s
	for _, c := range cands {
		t := s.terms(c)
		c.score = t.cost + t.time + t.risk + t.near
	}
}

// scoreScale is what a run's scores are relative to: the weights, and
// the lowest cost and time among the feasible candidates.
type scoreScale struct {
	w          Weights
	minC, minT float64
}

// scoreTerms are a candidate's weighted score terms; their sum is its
// score.
type scoreTerms struct{ cost, time, risk, near float64 }

// terms are c's score terms (computed when asked: the reasons that name
// what moved a plan need them for a few candidates only).
func (s scoreScale) terms(c *cand) scoreTerms {
	t := scoreTerms{cost: s.w.Cost * c.cost / math.Max(s.minC, 1e-9)}
	if c.hours > 0 && !math.IsInf(s.minT, 1) {
		t.time = s.w.Time * c.hours / s.minT
	}
	t.risk = s.w.Risk * c.risk
	t.near = -c.nearBonus
	return t
}

// lightPlan is a plan without explanations (for the Pareto list), of a
// candidate with its details (see full).
func (e *Engine) lightPlan(x *cand, cur string) *Plan {
	return &Plan{Offer: x.offer, Instances: x.instances, GPUs: x.gpus, Nodes: x.nodes, Hours: x.hours, HoursLow: x.low, HoursHigh: x.high,
		Cost: x.cost, Currency: cur, DeadlineMiss: x.miss, RiskScore: x.risk, Score: x.score, Pareto: x.pareto, Estimate: x.est, BilledHours: x.billed, cand: x}
}

// toCur converts an amount in a currency into the result's currency.
func (e *Engine) toCur(v float64, from, to string) (float64, error) {
	if from == to {
		return v, nil
	}
	d, err := e.FX.Convert(decimal.NewFromFloat(v), from, to)
	if err != nil {
		return 0, err
	}
	return d.InexactFloat64(), nil
}

func joinList(v []string) string { return strings.Join(v, ", ") }
