package pricing

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/shopspring/decimal"
)

// Prices is what the engine reads from the catalog.
type Prices interface {
	Ancillary(provider, region, item string) []*catalog.AncillaryPrice
	SupportPlan(provider, plan string) []*catalog.SupportTier
	Offer(id string) (*catalog.Offer, bool)
	OnPrem(item, gpu string) []*catalog.OnPremFigure
}

// InterruptionModel estimates the extra compute a spot offer needs because
// of interruptions: lost work since the last checkpoint, restarts,
// checkpoint writes. The spot engine implements it; the cost engine adds the
// overhead as its own component.
type InterruptionModel interface {
	// Overhead is the extra share of compute hours (0.08 = 8 % more hours)
	// and a note on how it was estimated.
	Overhead(o *catalog.Offer, u Usage) (decimal.Decimal, string, error)
}

// Engine prices offers and plans. Spot may be nil: spot prices then carry a
// note that interruption overhead is not included.
type Engine struct {
	Prices Prices
	FX     catalog.Converter
	Spot   InterruptionModel
}

var (
	hoursPerMonth = decimal.NewFromInt(catalog.HoursPerMonth)
	one           = decimal.NewFromInt(1)
	hundred       = decimal.NewFromInt(100)
)

// ErrNoFX is returned when an amount must be converted and no converter is set.
var ErrNoFX = errors.New("pricing: no exchange rates to convert between currencies")

// convert converts amount into the bill's currency.
func (e *Engine) convert(amount decimal.Decimal, from, to string) (decimal.Decimal, error) {
	if from == to || amount.IsZero() {
		return amount, nil
	}
	if e.FX == nil {
		return decimal.Zero, ErrNoFX
	}
	return e.FX.Convert(amount, from, to)
}

// Cost prices offer o under usage u: compute under the offer's billing
// model, volume discounts, storage, transfer, load balancers and support.
func (e *Engine) Cost(o *catalog.Offer, u Usage) (*Breakdown, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if o.Instance == nil {
		return nil, fmt.Errorf("pricing: offer %s has no instance type", o.ID())
	}
	inst := decimal.NewFromInt(int64(u.Instances))
	b := &Breakdown{Offer: o, Label: o.ID(), Usage: u, Currency: o.Price.Currency,
		GPUs: o.Instance.GPUCount.Mul(inst), UsedHoursPerMonth: u.UsedHoursPerMonth()}
	var err error
	switch {
	case o.Billing.IsCommitment():
		e.commitment(b)
	case o.Billing == catalog.Spot:
		err = e.spot(b)
	default: // on-demand, capacity blocks: pay per hour used
		e.payPerUse(b, "Compute ("+string(o.Billing)+")")
	}
	if err != nil {
		return nil, err
	}
	e.spendDiscounts(b)
	if err := e.ancillaryAll(b); err != nil {
		return nil, err
	}
	if err := e.support(b); err != nil {
		return nil, err
	}
	return b, nil
}

// payPerUse adds the compute of a pay-as-you-go offer:
//
//	monthly = hourly × used hours per month × instances
//
// With HourTiers (Tencent 阶梯价), each hour is priced by the instance's
// cumulative running hours: hourly × multiplier of its tier.
func (e *Engine) payPerUse(b *Breakdown, name string) {
	o, u := b.Offer, b.Usage
	inst := decimal.NewFromInt(int64(u.Instances))
	used := b.UsedHoursPerMonth
	c := Component{Name: name, Unit: "instance-hour", Quantity: used.Mul(inst),
		UnitPrice: catalog.Money{Amount: o.Price.Hourly, Currency: o.Price.Currency}, Source: o.Source,
		Cash: zeros(u.Months)}
	for m := 0; m < u.Months; m++ {
		hours := used
		if len(u.HourTiers) > 0 {
			hours = tieredHours(used.Mul(decimal.NewFromInt(int64(m))), used, u.HourTiers)
		}
		c.Cash[m] = o.Price.Hourly.Mul(hours).Mul(inst)
	}
	if len(u.HourTiers) > 0 {
		var parts i18n.Seq
		for _, t := range u.HourTiers {
			parts = append(parts, i18n.M("pr.comp.hour_tier", t.From, t.Multiplier))
		}
		c.Note = i18n.M("pr.comp.hour_tiers", parts)
	}
	if !o.Price.Monthly.IsZero() || !o.Price.Upfront.IsZero() {
		b.Notes = append(b.Notes, i18n.M("pr.note.payg_parts"))
	}
	b.Components = append(b.Components, c)
}

// tieredHours weighs `hours` hours starting at cumulative hour `start` by
// the multiplier of the tier each hour falls in. Hours before the first
// tier count at full price.
func tieredHours(start, hours decimal.Decimal, tiers []HourTier) decimal.Decimal {
	end := start.Add(hours)
	weighted := decimal.Zero
	// Hours before the first tier, at ×1.
	if first := tiers[0].From; start.LessThan(first) {
		weighted = weighted.Add(overlap(start, end, decimal.Zero, first))
	}
	for i, t := range tiers {
		hi := decimal.Zero // unbounded
		if i+1 < len(tiers) {
			hi = tiers[i+1].From
		}
		weighted = weighted.Add(overlap(start, end, t.From, hi).Mul(t.Multiplier))
	}
	return weighted
}

// overlap is the length of [a, b) ∩ [lo, hi); hi zero means unbounded.
func overlap(a, b, lo, hi decimal.Decimal) decimal.Decimal {
	start := decimal.Max(a, lo)
	end := b
	if hi.IsPositive() && hi.LessThan(end) {
		end = hi
	}
	if end.GreaterThan(start) {
		return end.Sub(start)
	}
	return decimal.Zero
}

// spot adds the compute of a spot offer, paid per hour used, and the
// interruption overhead from the spot engine when one is set.
func (e *Engine) spot(b *Breakdown) error {
	e.payPerUse(b, "Compute (spot)")
	if e.Spot == nil {
		b.Notes = append(b.Notes, i18n.M("pr.note.spot_no_model"))
		return nil
	}
	frac, note, err := e.Spot.Overhead(b.Offer, b.Usage)
	if err != nil {
		return fmt.Errorf("spot overhead: %w", err)
	}
	if frac.IsPositive() {
		base := b.Components[len(b.Components)-1]
		c := Component{Name: "Spot interruption overhead", Unit: "instance-hour", Quantity: base.Quantity.Mul(frac),
			UnitPrice: base.UnitPrice, Source: base.Source, Note: i18n.Text(note), Cash: zeros(b.Usage.Months)}
		for m, v := range base.Cash {
			c.Cash[m] = v.Mul(frac)
		}
		b.Components = append(b.Components, c)
	}
	return nil
}

// commitment adds the compute of a reserved instance, savings plan,
// committed-use discount or subscription. A commitment is paid whether the
// instance runs or not, for whole terms:
//
//	terms bought      = ceil(horizon months / term months)
//	recurring hourly  = hourly × 730 × instances, every month of every term
//	fixed monthly     = monthly × instances, every month of every term
//	upfront           = upfront × instances, at the start of each term
//
// What the terms still owe after the horizon is the components' After.
// Savings plans and committed-use discounts are modelled as a commitment
// equal to this instance's discounted rate (the usual way to size them).
func (e *Engine) commitment(b *Breakdown) {
	o, u := b.Offer, b.Usage
	inst := decimal.NewFromInt(int64(u.Instances))
	termMonths := o.Billing.TermHours() / catalog.HoursPerMonth
	terms := (u.Months + termMonths - 1) / termMonths
	covered := terms * termMonths
	rest := decimal.NewFromInt(int64(covered - u.Months))
	label := string(o.Billing)
	if p := o.Price.Hourly; p.IsPositive() {
		per := p.Mul(hoursPerMonth).Mul(inst)
		b.Components = append(b.Components, Component{Name: "Commitment, hourly (" + label + ")", Unit: "instance-hour",
			Quantity: hoursPerMonth.Mul(inst), UnitPrice: catalog.Money{Amount: p, Currency: o.Price.Currency},
			Cash: flat(u.Months, per), After: per.Mul(rest), Source: o.Source,
			Note: i18n.M("pr.comp.commit_hourly")})
	}
	if p := o.Price.Monthly; p.IsPositive() {
		per := p.Mul(inst)
		b.Components = append(b.Components, Component{Name: "Commitment, monthly (" + label + ")", Unit: "instance-month",
			Quantity: inst, UnitPrice: catalog.Money{Amount: p, Currency: o.Price.Currency},
			Cash: flat(u.Months, per), After: per.Mul(rest), Source: o.Source})
	}
	if p := o.Price.Upfront; p.IsPositive() {
		c := Component{Name: "Commitment, upfront (" + label + ")", Unit: "instance-term",
			Quantity: inst.Mul(decimal.NewFromInt(int64(terms))), UnitPrice: catalog.Money{Amount: p, Currency: o.Price.Currency},
			Cash: zeros(u.Months), Source: o.Source,
			Note: i18n.M("pr.comp.upfront", termMonths)}
		for t := 0; t < terms; t++ {
			c.Cash[t*termMonths] = c.Cash[t*termMonths].Add(p.Mul(inst))
		}
		b.Components = append(b.Components, c)
	}
	if covered > u.Months {
		b.Notes = append(b.Notes, i18n.M("pr.note.past_horizon",
			termMonths, covered-u.Months, u.Months))
	}
	if d := u.DutyCycle(); d.LessThan(one) {
		b.Notes = append(b.Notes, i18n.M("pr.note.duty",
			d.Mul(hundred).Round(1), one.Div(d).Round(2)))
	}
}

// spendDiscounts applies volume discounts to each month's compute spend.
func (e *Engine) spendDiscounts(b *Breakdown) {
	u := b.Usage
	if len(u.SpendDiscounts) == 0 {
		return
	}
	ds := append([]SpendDiscount(nil), u.SpendDiscounts...)
	sort.Slice(ds, func(i, j int) bool { return ds[i].Above.LessThan(ds[j].Above) })
	compute := zeros(u.Months)
	for _, c := range b.Components {
		for m, v := range c.Cash {
			compute[m] = compute[m].Add(v)
		}
	}
	c := Component{Name: "Volume discount", Unit: "month", Quantity: one, Cash: zeros(u.Months),
		Source: catalog.Source{Kind: catalog.SourceUser, Ref: "usage: spend_discounts"}}
	var parts i18n.Semi
	for i, d := range ds {
		hi := decimal.Zero
		if i+1 < len(ds) {
			hi = ds[i+1].Above
		}
		parts = append(parts, i18n.M("pr.comp.discount_part", d.Above, d.Multiplier))
		for m := range compute {
			part := overlap(decimal.Zero, compute[m], d.Above, hi)
			c.Cash[m] = c.Cash[m].Sub(part.Mul(one.Sub(d.Multiplier)))
		}
	}
	c.Note = i18n.M("pr.comp.discount", parts)
	if c.Total().IsZero() {
		b.Notes = append(b.Notes, i18n.M("pr.note.discount_never", ds[0].Above, b.Currency))
		return
	}
	c.UnitPrice = catalog.Money{Amount: c.Monthly(), Currency: b.Currency}
	b.Components = append(b.Components, c)
}

// JobCost prices a job that keeps instances busy for hours: pay-per-use
// offers cost exactly hourly × hours × instances; commitments cost their
// whole terms (the job is billed the months it spans, and a commitment
// the rest of its term); a capacity block costs the whole block that
// covers the job.
func (e *Engine) JobCost(o *catalog.Offer, instances int, hours decimal.Decimal) (*Breakdown, error) {
	if !hours.IsPositive() {
		return nil, fieldErr("hours", "a job must run for a positive number of hours")
	}
	if o.Billing == catalog.CapacityBlock {
		// A Capacity Block is paid up front for whole days (then weeks).
		if block, ok := catalog.CapacityBlockHours(hours.InexactFloat64()); ok {
			hours = decimal.NewFromFloat(block)
		}
	}
	months := int(hours.Div(hoursPerMonth).Ceil().IntPart())
	if months < 1 {
		months = 1
	}
	u := DefaultUsage()
	u.Instances, u.Months = instances, months
	u.Utilization = hours.Div(hoursPerMonth.Mul(decimal.NewFromInt(int64(months))))
	return e.Cost(o, u)
}
