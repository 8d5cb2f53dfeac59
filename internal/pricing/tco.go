package pricing

import (
	"fmt"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// Part is one offer used one way inside a plan (a reserved baseline, a spot
// burst ...).
type Part struct {
	Offer *catalog.Offer
	Usage Usage
}

// Plan is a named way of getting the GPUs: cloud parts, or buying servers.
type Plan struct {
	Name   string
	Parts  []Part
	OnPrem *OnPrem
}

// PlanResult is a plan's bill over the horizon, in the comparison's currency.
type PlanResult struct {
	Name       string
	Breakdowns []*Breakdown // in their own currencies
	Currency   string
	CashFlow   []decimal.Decimal // per month, converted
	Total      decimal.Decimal   // converted; includes what is owed after the horizon
	After      decimal.Decimal
	GPUs       decimal.Decimal // GPUs provided (summed over parts)
	GPUHours   decimal.Decimal // calendar GPU-hours over the horizon
	UsedHours  decimal.Decimal // GPU-hours used over the horizon
}

// PerGPUHour is the plan's total per calendar GPU-hour.
func (r *PlanResult) PerGPUHour() decimal.Decimal { return safeDiv(r.Total, r.GPUHours) }

// PerUsedGPUHour is the plan's total per used GPU-hour.
func (r *PlanResult) PerUsedGPUHour() decimal.Decimal { return safeDiv(r.Total, r.UsedHours) }

func safeDiv(a, b decimal.Decimal) decimal.Decimal {
	if b.IsZero() {
		return decimal.Zero
	}
	return a.Div(b)
}

// BreakEven is one break-even answer, in words and numbers.
type BreakEven struct {
	// Kind: "utilization" (commitment vs on-demand), "buy-vs-rent"
	// (on-premises vs a cloud plan) or "volume-discount".
	Kind   string
	Plan   string
	Versus string
	// Value is a utilisation fraction, a month number or an amount saved.
	Value decimal.Decimal
	Found bool
	Text  string
}

// TCO compares plans over a horizon.
type TCO struct {
	Months   int
	Currency string
	Plans    []*PlanResult
	Cheapest string
	// RankedBy is "total" when every plan provides the same number of GPUs,
	// else "per-used-gpu-hour" (totals of different fleets do not compare).
	RankedBy  string
	BreakEven []BreakEven
}

// horizonForBreakEven is how far buy-vs-rent break-even is searched when the
// comparison's own horizon is shorter.
const horizonForBreakEven = 120

// Compare prices every plan over months in currency, picks the cheapest by
// total and computes break-even points.
func (e *Engine) Compare(plans []Plan, months int, currency string) (*TCO, error) {
	if len(plans) == 0 {
		return nil, fieldErr("plans", "at least one plan is needed")
	}
	t := &TCO{Months: months, Currency: currency}
	seen := map[string]bool{}
	for _, p := range plans {
		if p.Name == "" {
			return nil, fieldErr("plans", "every plan needs a name")
		}
		if seen[p.Name] {
			return nil, fieldErr("plans", "two plans are named %q", p.Name)
		}
		seen[p.Name] = true
		r, err := e.plan(p, months, currency)
		if err != nil {
			return nil, fmt.Errorf("plan %q: %w", p.Name, err)
		}
		t.Plans = append(t.Plans, r)
	}
	t.RankedBy = "total"
	key := func(r *PlanResult) decimal.Decimal { return r.Total }
	for _, r := range t.Plans[1:] {
		if !r.GPUs.Equal(t.Plans[0].GPUs) {
			t.RankedBy = "per-used-gpu-hour"
			key = func(r *PlanResult) decimal.Decimal { return r.PerUsedGPUHour() }
		}
	}
	best := t.Plans[0]
	for _, r := range t.Plans[1:] {
		if key(r).LessThan(key(best)) {
			best = r
		}
	}
	t.Cheapest = best.Name
	seenOffer := map[string]bool{}
	for i, p := range plans {
		for _, part := range p.Parts {
			if seenOffer[part.Offer.ID()] {
				continue
			}
			seenOffer[part.Offer.ID()] = true
			if be, ok, err := e.UtilizationBreakEven(part.Offer); err != nil {
				return nil, err
			} else if ok {
				be.Plan = p.Name
				t.BreakEven = append(t.BreakEven, be)
			}
		}
		for _, b := range t.Plans[i].Breakdowns {
			for _, c := range b.Components {
				if c.Name == "Volume discount" {
					saved, err := e.convert(c.Total().Neg(), b.Currency, currency)
					if err != nil {
						return nil, err
					}
					t.BreakEven = append(t.BreakEven, BreakEven{Kind: "volume-discount", Plan: p.Name, Value: saved, Found: true,
						Text: fmt.Sprintf("%s: volume discounts (%s) save %s %s over %d months", p.Name, c.Note, saved.Round(2), currency, months)})
				}
			}
		}
	}
	for _, p := range plans {
		if p.OnPrem == nil {
			continue
		}
		for _, q := range plans {
			if q.OnPrem != nil {
				continue
			}
			be, err := e.buyVsRent(p, q, max(months, horizonForBreakEven), currency)
			if err != nil {
				return nil, err
			}
			t.BreakEven = append(t.BreakEven, be)
		}
	}
	return t, nil
}

// plan prices one plan and converts it to currency.
func (e *Engine) plan(p Plan, months int, currency string) (*PlanResult, error) {
	r := &PlanResult{Name: p.Name, Currency: currency, CashFlow: zeros(months)}
	var bs []*Breakdown
	if p.OnPrem != nil {
		b, err := e.OnPremCost(*p.OnPrem, months)
		if err != nil {
			return nil, err
		}
		bs = append(bs, b)
	}
	for _, part := range p.Parts {
		u := part.Usage
		u.Months = months
		b, err := e.Cost(part.Offer, u)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", part.Offer.ID(), err)
		}
		bs = append(bs, b)
	}
	if len(bs) == 0 {
		return nil, fieldErr("parts", "a plan needs at least one offer or an on-premises part")
	}
	r.Breakdowns = bs
	for _, b := range bs {
		for m, v := range b.CashFlow() {
			cv, err := e.convert(v, b.Currency, currency)
			if err != nil {
				return nil, err
			}
			r.CashFlow[m] = r.CashFlow[m].Add(cv)
		}
		total, err := e.convert(b.Total(), b.Currency, currency)
		if err != nil {
			return nil, err
		}
		after, err := e.convert(b.After(), b.Currency, currency)
		if err != nil {
			return nil, err
		}
		r.Total = r.Total.Add(total)
		r.After = r.After.Add(after)
		mo := decimal.NewFromInt(int64(months))
		r.GPUs = r.GPUs.Add(b.GPUs)
		r.GPUHours = r.GPUHours.Add(b.GPUs.Mul(hoursPerMonth).Mul(mo))
		r.UsedHours = r.UsedHours.Add(b.GPUs.Mul(b.UsedHoursPerMonth).Mul(mo))
	}
	return r, nil
}

// UtilizationBreakEven is the utilisation above which a commitment offer
// costs less than paying on-demand for the same instance in the same
// region: commitment effective hourly ÷ on-demand hourly. It reports false
// for offers that are not commitments or have no on-demand counterpart.
func (e *Engine) UtilizationBreakEven(o *catalog.Offer) (BreakEven, bool, error) {
	if !o.Billing.IsCommitment() {
		return BreakEven{}, false, nil
	}
	od, ok := e.Prices.Offer(o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/" + string(catalog.OnDemand))
	if !ok || !od.Price.Hourly.IsPositive() {
		return BreakEven{}, false, nil
	}
	commit := o.EffectiveHourly()
	odh, err := e.convert(od.Price.Hourly, od.Price.Currency, o.Price.Currency)
	if err != nil {
		return BreakEven{}, false, err
	}
	u := commit.Div(odh)
	be := BreakEven{Kind: "utilization", Versus: od.ID(), Value: u, Found: u.LessThanOrEqual(one)}
	if be.Found {
		be.Text = fmt.Sprintf("%s beats on-demand for %s in %s above %s%% utilisation (%s vs %s %s per hour)",
			o.Billing, o.InstanceName, o.RegionCode, u.Mul(hundred).Round(1), commit.Round(4), odh.Round(4), o.Price.Currency)
	} else {
		be.Text = fmt.Sprintf("%s never beats on-demand for %s in %s: it costs %s vs %s %s per hour even at full use",
			o.Billing, o.InstanceName, o.RegionCode, commit.Round(4), odh.Round(4), o.Price.Currency)
	}
	return be, true, nil
}

// buyVsRent finds the payback month: the first month at which the cash
// paid so far for owning (hardware, installation, power, colocation,
// maintenance, staff) is no more than the cash paid so far for the cloud
// plan. Resale value is not counted here: it is uncertain and only realised
// at the end.
func (e *Engine) buyVsRent(own, rent Plan, months int, currency string) (BreakEven, error) {
	be := BreakEven{Kind: "buy-vs-rent", Plan: own.Name, Versus: rent.Name}
	ob, err := e.OnPremCost(*own.OnPrem, months)
	if err != nil {
		return be, err
	}
	rr, err := e.plan(rent, months, currency)
	if err != nil {
		return be, err
	}
	ownCum, rentCum := decimal.Zero, decimal.Zero
	for m := 0; m < months; m++ {
		for _, c := range ob.Components {
			if c.Cash[m].IsNegative() { // resale value
				continue
			}
			v, err := e.convert(c.Cash[m], ob.Currency, currency)
			if err != nil {
				return be, err
			}
			ownCum = ownCum.Add(v)
		}
		rentCum = rentCum.Add(rr.CashFlow[m])
		if ownCum.LessThanOrEqual(rentCum) {
			be.Found, be.Value = true, decimal.NewFromInt(int64(m+1))
			be.Text = fmt.Sprintf("buying (%s) pays back against %s in month %d: %s %s paid for owning vs %s %s for renting (resale value not counted)",
				own.Name, rent.Name, m+1, ownCum.Round(0), currency, rentCum.Round(0), currency)
			return be, nil
		}
	}
	be.Text = fmt.Sprintf("buying (%s) does not pay back against %s within %d months", own.Name, rent.Name, months)
	return be, nil
}
