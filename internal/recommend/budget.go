package recommend

import (
	"fmt"
	"math"
)

// budgetMiss is the cheapest candidate the budget rejected.
type budgetMiss struct {
	spend float64
	name  string
}

// spend is what a candidate costs per the budget's period, in the
// result's currency: total (the job, or the service over its horizon),
// month (a service's cost per month of the horizon; a job's per month of
// wall time, or its total when it runs a month or less) or hour (the rate
// of all its instances while they run).
func (x *run) spend(c *cand, total float64) float64 {
	r := x.r
	switch r.budgetPeriod() {
	case "month":
		if r.service() {
			return total / float64(max(1, r.HorizonMonths))
		}
		return total / math.Max(1, c.hours/730)
	case "hour":
		eff, err := x.e.toCur(c.offer.EffectiveHourly().InexactFloat64(), c.offer.Price.Currency, x.cur)
		if err != nil {
			return math.Inf(1)
		}
		return eff * float64(c.instances)
	}
	return total
}

// overBudget rejects a candidate whose spend exceeds the budget (nil when
// there is no budget or it fits), remembering the cheapest such miss.
func (x *run) overBudget(c *cand) *why {
	r := x.r
	if r.Budget <= 0 {
		return nil
	}
	return x.budgetCheck(c, x.spend(c, c.cost))
}

// budgetCheck rejects a spend s of candidate c over the budget (nil when
// it fits), remembering the cheapest miss for the no-plan answer.
func (x *run) budgetCheck(c *cand, s float64) *why {
	r := x.r
	if r.Budget <= 0 || s <= r.Budget*(1+1e-9) {
		return nil
	}
	if x.budgetMiss == nil || s < x.budgetMiss.spend {
		x.budgetMiss = &budgetMiss{spend: s, name: fmt.Sprintf("%d× %s (%s, %s, %s)", c.instances, c.offer.InstanceName, c.offer.Provider, c.offer.RegionCode, x.billing(c.offer))}
	}
	return &why{stage: "budget", key: "rec.rej.budget", args: []any{money(s, x.cur), x.periodWord(), money(r.Budget, x.cur)}}
}

// periodWord is the budget's period as a phrase ("a month", "每月").
func (x *run) periodWord() string { return x.p.T("rec.budget_period." + x.r.budgetPeriod()) }

// budgetText is the budget constraint in the printer's language.
func (x *run) budgetText() string {
	return x.p.T("rec.st.budget", money(x.r.Budget, x.cur), x.periodWord())
}
