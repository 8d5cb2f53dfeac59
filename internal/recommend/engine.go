package recommend

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
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
}

// Plan is one recommended way to run the job.
type Plan struct {
	Rank                       int
	Offer                      *catalog.Offer
	Instances, GPUs, Nodes     int
	Hours, HoursLow, HoursHigh float64 // wall time of a job (0 for a service)
	Cost                       float64 // expected, in Currency: the job, or the service over the horizon
	Currency                   string
	Confidence                 perf.Confidence
	DeadlineMiss               float64
	RiskScore                  float64
	Score                      float64
	Pareto                     bool
	Risks                      []string
	Reasons                    []string
	Estimate                   *perf.Estimate
	Breakdown                  *pricing.Breakdown
	spotPlan                   *spot.Plan
	spotRisk                   *spot.Risk
	stale                      bool
}

// ID is "offer × instances".
func (p *Plan) ID() string { return fmt.Sprintf("%s ×%d", p.Offer.ID(), p.Instances) }

// Rejection is a candidate that failed a hard constraint.
type Rejection struct {
	Offer  string
	Stage  string
	Reason string
}

// Result is the advisor's answer.
type Result struct {
	Requirements Requirements
	Currency     string
	Plans        []*Plan
	Pareto       []*Plan
	Rejected     []Rejection
	Considered   int // candidates evaluated
	Feasible     int
	OldestAsOf   time.Time
	NewestAsOf   time.Time
	Notes        []string
}

// NoPlanError says which constraint emptied the result and what relaxation
// would give plans.
type NoPlanError struct {
	Stage      string
	Constraint string
	Relaxation string
}

func (e *NoPlanError) Error() string {
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

type cand struct {
	offer     *catalog.Offer
	instances int
	gpus      int
	nodes     int
	hours     float64
	low, high float64
	cost      float64
	miss      float64
	risk      float64
	score     float64
	est       *perf.Estimate
	spotPlan  *spot.Plan
	spotRisk  *spot.Risk
	stale     bool
	pareto    bool
	nearBonus bool
}

// Recommend evaluates every offer against the requirements.
func (e *Engine) Recommend(r Requirements, p *i18n.Printer) (*Result, error) {
	if err := r.Validate(); err != nil {
		return nil, err
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
	stages := e.filters(r, gpuSet)
	offers := c.Offers()
	for _, st := range stages {
		var kept []*catalog.Offer
		for _, o := range offers {
			if why := st.reject(o); why != "" {
				res.Rejected = append(res.Rejected, Rejection{Offer: o.ID(), Stage: st.name, Reason: why})
				continue
			}
			kept = append(kept, o)
		}
		if len(kept) == 0 {
			return nil, &NoPlanError{Stage: st.name, Constraint: st.describe, Relaxation: st.relax(offers)}
		}
		offers = kept
	}
	cands, err := e.evaluate(r, offers, res)
	if err != nil {
		return nil, err
	}
	res.Considered = len(cands) + countStage(res.Rejected, "fit", "deadline", "term")
	if len(cands) == 0 {
		return nil, e.noFeasible(r, res)
	}
	res.Feasible = len(cands)
	e.score(r, cands)
	markPareto(cands)
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return cands[i].offer.ID() < cands[j].offer.ID()
	})
	chosen := pick(cands, r.Limit, len(r.Regions) > 0)
	for i, x := range chosen {
		pl, err := e.plan(r, x, res.Currency, i+1)
		if err != nil {
			return nil, err
		}
		res.Plans = append(res.Plans, pl)
	}
	for _, x := range cands {
		if x.pareto {
			res.Pareto = append(res.Pareto, e.lightPlan(x, res.Currency))
		}
	}
	sort.SliceStable(res.Pareto, func(i, j int) bool { return res.Pareto[i].Cost < res.Pareto[j].Cost })
	for _, o := range offers {
		if res.OldestAsOf.IsZero() || o.Source.AsOf.Before(res.OldestAsOf) {
			res.OldestAsOf = o.Source.AsOf
		}
		if o.Source.AsOf.After(res.NewestAsOf) {
			res.NewestAsOf = o.Source.AsOf
		}
	}
	e.explain(r, res, cands, p)
	return res, nil
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

// pick takes the best candidates, one per instance type and billing model
// (the cheapest region of each, unless regions were asked for).
func pick(cands []*cand, limit int, byRegion bool) []*cand {
	seen := map[string]bool{}
	var out []*cand
	for _, x := range cands {
		k := x.offer.Provider + "/" + x.offer.InstanceName + "/" + string(x.offer.Billing)
		if byRegion {
			k += "/" + x.offer.RegionCode
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, x)
		if len(out) == limit {
			break
		}
	}
	return out
}

// markPareto flags candidates that no other candidate beats on both cost
// and time (ties broken by risk).
func markPareto(cands []*cand) {
	for _, a := range cands {
		a.pareto = true
		for _, b := range cands {
			if b == a {
				continue
			}
			if b.cost <= a.cost && b.hours <= a.hours && b.risk <= a.risk && (b.cost < a.cost || b.hours < a.hours || b.risk < a.risk) {
				a.pareto = false
				break
			}
		}
	}
}

// score ranks candidates: weighted cost and time relative to the best, plus
// risk (deadline miss, estimate confidence, stale prices, assumed
// interruption rates); lower is better.
func (e *Engine) score(r Requirements, cands []*cand) {
	w := r.weights()
	minC, minT := math.Inf(1), math.Inf(1)
	for _, x := range cands {
		minC = math.Min(minC, x.cost)
		if x.hours > 0 {
			minT = math.Min(minT, x.hours)
		}
	}
	for _, x := range cands {
		s := w.Cost * x.cost / math.Max(minC, 1e-9)
		if x.hours > 0 && !math.IsInf(minT, 1) {
			s += w.Time * x.hours / minT
		}
		s += w.Risk * x.risk
		if x.nearBonus {
			s -= 0.1
		}
		x.score = s
	}
}

// lightPlan is a plan without explanations (for the Pareto list).
func (e *Engine) lightPlan(x *cand, cur string) *Plan {
	return &Plan{Offer: x.offer, Instances: x.instances, GPUs: x.gpus, Nodes: x.nodes, Hours: x.hours, HoursLow: x.low, HoursHigh: x.high,
		Cost: x.cost, Currency: cur, DeadlineMiss: x.miss, RiskScore: x.risk, Score: x.score, Pareto: x.pareto, Estimate: x.est}
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
