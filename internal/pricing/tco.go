package pricing

import (
	"fmt"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
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
	// Scale is how many times the plan's instances were multiplied so that it
	// provides as many GPUs as the largest plan of the comparison (1: as given).
	Scale int
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
	// Text is the answer in English; Key and Args render it in any
	// language (i18n.Printer.T(Key, Args...)).
	Text string
	Key  string
	Args []any
}

// say sets the break-even's message and its English text.
func (b *BreakEven) say(key string, args ...any) {
	b.Key, b.Args = key, args
	b.Text = i18n.NewPrinter(i18n.EN).T(key, args...)
}

// TCO compares plans over a horizon.
type TCO struct {
	Months   int
	Currency string
	Plans    []*PlanResult
	Cheapest string
	// RankedBy is "total" when every plan provides the same number of GPUs
	// (after scaling cloud plans up to the largest plan's GPU count), else
	// "per-used-gpu-hour" (totals of different fleets do not compare).
	RankedBy string
	// GPUs is the GPU count every plan is compared at (the largest plan's).
	GPUs      decimal.Decimal
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
	// Totals of different fleets do not compare: scale every cloud plan
	// with fewer GPUs than the largest plan up to (at least) its GPU count.
	plans = append([]Plan(nil), plans...)
	for _, r := range t.Plans {
		t.GPUs = decimal.Max(t.GPUs, r.GPUs)
	}
	for i, r := range t.Plans {
		k := scaleFor(plans[i], r.GPUs, t.GPUs)
		if k <= 1 {
			continue
		}
		plans[i] = scaled(plans[i], k)
		sr, err := e.plan(plans[i], months, currency)
		if err != nil {
			return nil, fmt.Errorf("plan %q: %w", plans[i].Name, err)
		}
		sr.Scale = k
		t.Plans[i] = sr
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
			if be, ok, err := e.UtilizationBreakEvenIn(part.Offer, currency); err != nil {
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
					be := BreakEven{Kind: "volume-discount", Plan: p.Name, Value: saved, Found: true}
					be.say("be.volume", p.Name, c.Note, saved.Round(2).String(), currency, months)
					t.BreakEven = append(t.BreakEven, be)
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

// term is a billing model as a message argument.
func term(b catalog.Billing) i18n.BillingTerm {
	return i18n.BillingTerm{Code: string(b), Family: string(b.Family())}
}

// scaleFor is the factor a cloud plan's instance counts are multiplied by
// to provide at least target GPUs (1 for on-premises plans, which keep the
// number of servers asked for, and for plans already as large).
func scaleFor(p Plan, gpus, target decimal.Decimal) int {
	if p.OnPrem != nil || !gpus.IsPositive() || !gpus.LessThan(target) {
		return 1
	}
	return int(target.Div(gpus).Ceil().IntPart())
}

// scaled is p with every part's instance count multiplied by k.
func scaled(p Plan, k int) Plan {
	out := Plan{Name: p.Name, Parts: make([]Part, len(p.Parts))}
	for i, part := range p.Parts {
		n := max(part.Usage.Instances, 1)
		part.Usage.Instances = n * k
		out.Parts[i] = part
	}
	return out
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
		r.Scale = 1
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
	return e.UtilizationBreakEvenIn(o, o.Price.Currency)
}

// UtilizationBreakEvenIn is UtilizationBreakEven with the two hourly prices
// in its sentence converted to currency (the ratio does not change), so a
// TCO in EUR or CNY says its break-even in that currency too.
func (e *Engine) UtilizationBreakEvenIn(o *catalog.Offer, currency string) (BreakEven, bool, error) {
	if currency == "" {
		currency = o.Price.Currency
	}
	if !o.Billing.IsCommitment() {
		return BreakEven{}, false, nil
	}
	od, ok := e.Prices.Offer(o.SiblingID(catalog.OnDemand))
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
	commitIn, err := e.convert(commit, o.Price.Currency, currency)
	if err != nil {
		return BreakEven{}, false, err
	}
	odhIn, err := e.convert(odh, o.Price.Currency, currency)
	if err != nil {
		return BreakEven{}, false, err
	}
	if be.Found {
		be.say("be.utilization", term(o.Billing), o.InstanceName, o.RegionCode, u.Mul(hundred).Round(1).String(), commitIn.Round(4).String(), odhIn.Round(4).String(), currency)
	} else {
		be.say("be.utilization.never", term(o.Billing), o.InstanceName, o.RegionCode, commitIn.Round(4).String(), odhIn.Round(4).String(), currency)
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
			be.say("be.buy", own.Name, rent.Name, m+1, ownCum.Round(0).String(), currency, rentCum.Round(0).String())
			return be, nil
		}
	}
	be.say("be.buy.never", own.Name, rent.Name, months)
	return be, nil
}
