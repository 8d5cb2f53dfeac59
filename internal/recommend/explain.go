package recommend

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/gpuscout/gpuscout/internal/spot"
	"github.com/shopspring/decimal"
)

// plan builds a full plan (bill and simulation) for a chosen candidate.
func (e *Engine) plan(r Requirements, x *cand, cur string, rank int) (*Plan, error) {
	p := e.lightPlan(x, cur)
	p.Rank = rank
	p.spotPlan, p.spotRisk, p.stale = x.spotPlan, x.spotRisk, x.stale
	if x.est != nil {
		p.Confidence = x.est.Confidence
	}
	var b *pricing.Breakdown
	var err error
	if r.service() {
		u := pricing.DefaultUsage()
		u.Instances = x.instances
		u.Months = max(1, r.HorizonMonths)
		if r.Utilization > 0 {
			u.Utilization = decimal.NewFromFloat(r.Utilization)
		}
		b, err = e.Pricing.Cost(x.offer, u)
	} else {
		// Job hours already include spot overhead: bill them as they are.
		noHook := *e.Pricing
		noHook.Spot = nil
		b, err = noHook.JobCost(x.offer, x.instances, decimal.NewFromFloat(x.hours))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.offer.ID(), err)
	}
	p.Breakdown = b
	if p.Cost, err = e.toCur(b.Total().InexactFloat64(), b.Currency, cur); err != nil {
		return nil, err
	}
	if x.spotPlan != nil && r.DeadlineHours > 0 && !r.service() {
		// The deadline risk spans the time estimate's 80 % interval: the
		// work at 20 equal-probability quantiles of its log-normal (P90 =
		// x.high), each run through the interruption simulation, averaged.
		sigma := 0.0
		if x.high > x.hours {
			sigma = math.Log(x.high/x.hours) / 1.2816
		}
		const quantiles = 40
		p.DeadlineMiss = 0
		for i := 0; i < quantiles; i++ {
			z := math.Sqrt2 * math.Erfinv(2*(float64(i)+0.5)/quantiles-1)
			work := x.hours * math.Exp(sigma*z) / (1 + x.spotPlan.Overhead)
			s := spot.Simulate(spot.Job{Work: work, Checkpoint: checkpointHours, Restart: restartHours, Deadline: r.DeadlineHours},
				*x.spotRisk, x.spotPlan.Interval, spot.SimConfig{Trials: 200, Seed: 1})
			p.DeadlineMiss += s.DeadlineMiss / quantiles
		}
	}
	return p, nil
}

func pct(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }

func hrs(h float64) string {
	switch {
	case h < 2:
		return fmt.Sprintf("%.0f min", h*60)
	case h < 72:
		return fmt.Sprintf("%.1f h", h)
	}
	return fmt.Sprintf("%.1f days", h/24)
}

func money(v float64, cur string) string {
	switch {
	case v >= 100000:
		return fmt.Sprintf("%s %s", thousands(fmt.Sprintf("%.0f", v)), cur)
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, cur)
	}
	return fmt.Sprintf("%.2f %s", v, cur)
}

func thousands(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// popular are the choices the seed articles recommend; when the advisor
// rejects them it says why.
var popular = []string{"aws/p4d.24xlarge/", "azure/Standard_ND96asr_v4/", "alibaba/ecs.gn7i-", "tencent/GN10Xp.", "tencent/GT4."}

// explain writes every plan's reasons and risks, and the result's notes.
func (e *Engine) explain(r Requirements, res *Result, cands []*cand, p *i18n.Printer) {
	cur := res.Currency
	w := r.weights()
	prio := r.Priority
	if prio == "" {
		prio = "balanced"
	}
	if r.Weights != nil {
		prio = fmt.Sprintf("custom (cost %.2g, time %.2g, risk %.2g)", w.Cost, w.Time, w.Risk)
	}
	cheapest, fastest := cands[0], cands[0]
	for _, x := range cands {
		if x.cost < cheapest.cost {
			cheapest = x
		}
		if x.hours > 0 && x.hours < fastest.hours {
			fastest = x
		}
	}
	for i, pl := range res.Plans {
		o := pl.Offer
		add := func(key string, args ...any) { pl.Reasons = append(pl.Reasons, p.T(key, args...)) }
		// What it is and what it costs.
		if r.service() {
			add("rec.what_service", pl.Instances, o.InstanceName, pl.GPUs, o.Instance.GPUID, o.Provider, o.RegionCode, o.Billing,
				money(pl.Cost, cur), max(1, r.HorizonMonths))
		} else {
			add("rec.what_job", pl.Instances, o.InstanceName, pl.GPUs, o.Instance.GPUID, o.Provider, o.RegionCode, o.Billing,
				hrs(pl.Hours), money(pl.Cost, cur))
		}
		add("rec.price", o.EffectiveHourly().Round(4), o.Price.Currency, o.Source.Kind, o.Source.AsOfString(), mainComponent(pl.Breakdown))
		if pl.Estimate != nil {
			basis := fmt.Sprintf("%d published result(s)", len(pl.Estimate.Basis))
			if len(pl.Estimate.Basis) == 0 {
				basis = "specifications and stated assumptions"
			}
			if r.service() {
				add("rec.throughput", pl.Estimate.Throughput, pl.Estimate.Unit, pl.Estimate.Confidence, basis)
			} else {
				add("rec.time", hrs(pl.HoursLow), hrs(pl.HoursHigh), pl.Estimate.Confidence, basis)
			}
		}
		if i == 0 {
			switch {
			case cheapest.offer == o && cheapest.instances == pl.Instances:
				add("rec.why_cheapest", prio, res.Feasible)
			case fastest.offer == o && fastest.instances == pl.Instances && !r.service():
				add("rec.why_fastest", prio, res.Feasible)
			default:
				add("rec.why_balanced", prio, res.Feasible)
			}
			if len(res.Plans) > 1 {
				pl.Reasons = append(pl.Reasons, tradeOff(p, pl, res.Plans[1], r, cur))
			}
		}
		e.whatWouldChange(r, pl, p, cur)
		// Risks.
		if pl.spotRisk != nil {
			pl.Risks = append(pl.Risks, p.T("rec.risk_spot", fmt.Sprintf("%.0f", pl.spotRisk.MTBI), pl.spotRisk.Source))
		}
		if pl.DeadlineMiss >= 0.005 {
			pl.Risks = append(pl.Risks, p.T("rec.risk_deadline", pct(pl.DeadlineMiss), r.DeadlineHours, hrs(pl.HoursHigh)))
		}
		if pl.Confidence == "transferred" || pl.Confidence == "specs-only" {
			pl.Risks = append(pl.Risks, p.T("rec.risk_confidence", pl.Confidence))
		}
		if pl.stale {
			pl.Risks = append(pl.Risks, p.T("rec.risk_stale", o.Source.AsOfString()))
		}
		if pl.Estimate != nil && pl.Estimate.Memory != nil && pl.Estimate.Memory.Group > 1 {
			pl.Risks = append(pl.Risks, p.T("rec.risk_memory", pl.Estimate.Memory.Note))
		}
	}
	// Popular choices that were rejected.
	seen := map[string]bool{}
	for _, x := range res.Rejected {
		for _, pfx := range popular {
			fam := strings.TrimSuffix(pfx, "/")
			if strings.HasPrefix(x.Offer, pfx) && !seen[fam] {
				seen[fam] = true
				res.Notes = append(res.Notes, p.T("rec.rejected_popular", x.Offer, x.Reason))
			}
		}
	}
}

// mainComponent names the largest component of a bill and its share.
func mainComponent(b *pricing.Breakdown) string {
	if b == nil {
		return ""
	}
	total := b.Total()
	var best pricing.Component
	for _, c := range b.Components {
		if c.Total().GreaterThan(best.Total()) {
			best = c
		}
	}
	if total.IsZero() {
		return best.Name
	}
	return fmt.Sprintf("%s %.0f%%", best.Name, best.Total().Div(total).InexactFloat64()*100)
}

// tradeOff compares the winner with the runner-up in one sentence.
func tradeOff(p *i18n.Printer, a, b *Plan, r Requirements, cur string) string {
	dc := b.Cost/a.Cost - 1
	name := fmt.Sprintf("%s (%s, %s)", b.Offer.InstanceName, b.Offer.Provider, b.Offer.Billing)
	switch {
	case r.DeadlineHours > 0 && b.DeadlineMiss > a.DeadlineMiss+0.01 && dc < 0:
		return p.T("rec.runner_cheaper_risky", name, pct(-dc), pct(b.DeadlineMiss))
	case !r.service() && dc < 0:
		return p.T("rec.runner_cheaper_slower", name, pct(-dc), pct(b.Hours/a.Hours-1))
	case !r.service() && b.Hours < a.Hours:
		return p.T("rec.runner_faster_dearer", name, pct(1-b.Hours/a.Hours), pct(dc))
	}
	return p.T("rec.runner_dearer", name, pct(dc), money(b.Cost, cur))
}

// whatWouldChange adds the condition that would flip the answer.
func (e *Engine) whatWouldChange(r Requirements, pl *Plan, p *i18n.Printer, cur string) {
	o := pl.Offer
	c := e.Catalog
	base := o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/"
	switch {
	case pl.spotPlan != nil && pl.spotRisk != nil && !r.service():
		m := math.Round(pl.spotRisk.MTBI / 4)
		if pl.spotRisk.MTBI > 1000 {
			m = 24
		}
		work := pl.Hours / (1 + pl.spotPlan.Overhead)
		worse := spot.Analyze(spot.Job{Work: work, Checkpoint: checkpointHours, Restart: restartHours}, spot.Risk{MTBI: m, Notice: pl.spotRisk.Notice})
		if od, ok := c.Offer(base + string(catalog.OnDemand)); ok {
			odCost, _ := e.toCur(od.EffectiveHourly().InexactFloat64()*work*float64(pl.Instances), od.Price.Currency, cur)
			spCost := pl.Cost * worse.ExpectedHours / pl.Hours
			pl.Reasons = append(pl.Reasons, p.T("rec.change_spot", m, money(spCost, cur), hrs(worse.ExpectedHours), money(odCost, cur)))
		}
	case o.Billing == catalog.OnDemand && !r.Interruptible:
		if sp, ok := c.Offer(base + string(catalog.Spot)); ok && !r.service() {
			spCost, _ := e.toCur(sp.EffectiveHourly().InexactFloat64()*pl.Hours*float64(pl.Instances), sp.Price.Currency, cur)
			pl.Reasons = append(pl.Reasons, p.T("rec.change_allow_spot", money(spCost, cur), pct(1-spCost/pl.Cost)))
		}
	}
	if r.service() && !o.Billing.IsCommitment() {
		for _, b := range catalog.BillingCodes() {
			if !b.IsCommitment() {
				continue
			}
			if co, ok := c.Offer(base + string(b)); ok {
				if be, ok, err := e.Pricing.UtilizationBreakEven(co); err == nil && ok && be.Found {
					pl.Reasons = append(pl.Reasons, p.T("rec.change_commit", be.Value.Mul(decimal.NewFromInt(100)).Round(0), b))
					break
				}
			}
		}
	}
	if o.Billing.IsCommitment() && r.service() {
		if be, ok, err := e.Pricing.UtilizationBreakEven(o); err == nil && ok && be.Found {
			pl.Reasons = append(pl.Reasons, p.T("rec.change_commit_below", be.Value.Mul(decimal.NewFromInt(100)).Round(0)))
		}
	}
}
