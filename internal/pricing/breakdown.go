package pricing

import (
	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/shopspring/decimal"
)

// Component is one named line of a bill, in the infracost style.
type Component struct {
	Name string
	// Unit of Quantity: instance-hour, GB-month, GB, LB-hour, month, term, percent.
	Unit string
	// Quantity per month (on average over the horizon).
	Quantity decimal.Decimal
	// UnitPrice as the source publishes it (its own currency).
	UnitPrice catalog.Money
	// Cash is what is paid in each month of the horizon, in the bill's currency.
	Cash []decimal.Decimal
	// After is what is still owed after the horizon: the rest of a
	// commitment term that the horizon does not cover.
	After  decimal.Decimal
	Source catalog.Source
	// Note explains the figure (a message: render it with an i18n.Printer).
	Note i18n.Msg
}

// Total is everything the component costs: the cash over the horizon plus
// what is owed after it.
func (c Component) Total() decimal.Decimal {
	t := c.After
	for _, m := range c.Cash {
		t = t.Add(m)
	}
	return t
}

// Monthly is the average cash per month over the horizon.
func (c Component) Monthly() decimal.Decimal {
	if len(c.Cash) == 0 {
		return decimal.Zero
	}
	t := decimal.Zero
	for _, m := range c.Cash {
		t = t.Add(m)
	}
	return t.Div(decimal.NewFromInt(int64(len(c.Cash))))
}

// Breakdown is a whole bill for one offer (or one on-premises plan) over a
// horizon.
type Breakdown struct {
	Offer *catalog.Offer // nil for an on-premises plan
	Label string
	Usage Usage
	// Currency of every amount below (the offer's currency).
	Currency   string
	Components []Component
	// GPUs is the number of GPUs the plan provides (instances × GPUs each).
	GPUs decimal.Decimal
	// UsedHoursPerMonth each GPU runs.
	UsedHoursPerMonth decimal.Decimal
	// Notes are assumptions and omissions the user should know about, as
	// messages (render them with an i18n.Printer).
	Notes []i18n.Msg
}

// Months is the horizon.
func (b *Breakdown) Months() int { return b.Usage.Months }

// CashFlow is what is paid in each month of the horizon (all components).
func (b *Breakdown) CashFlow() []decimal.Decimal {
	out := make([]decimal.Decimal, b.Usage.Months)
	for i := range out {
		out[i] = decimal.Zero
	}
	for _, c := range b.Components {
		for i, m := range c.Cash {
			if i < len(out) {
				out[i] = out[i].Add(m)
			}
		}
	}
	return out
}

// Total is the sum of every component's total.
func (b *Breakdown) Total() decimal.Decimal {
	t := decimal.Zero
	for _, c := range b.Components {
		t = t.Add(c.Total())
	}
	return t
}

// After is what is owed after the horizon.
func (b *Breakdown) After() decimal.Decimal {
	t := decimal.Zero
	for _, c := range b.Components {
		t = t.Add(c.After)
	}
	return t
}

// PerGPUHour is the total over every calendar GPU-hour of the horizon.
func (b *Breakdown) PerGPUHour() decimal.Decimal {
	h := b.GPUs.Mul(decimal.NewFromInt(int64(catalog.HoursPerMonth * b.Usage.Months)))
	if h.IsZero() {
		return decimal.Zero
	}
	return b.Total().Div(h)
}

// PerUsedGPUHour is the total over the GPU-hours actually used: below 100 %
// utilisation, commitments cost more per used hour.
func (b *Breakdown) PerUsedGPUHour() decimal.Decimal {
	h := b.GPUs.Mul(b.UsedHoursPerMonth).Mul(decimal.NewFromInt(int64(b.Usage.Months)))
	if h.IsZero() {
		return decimal.Zero
	}
	return b.Total().Div(h)
}

// zeros returns n zero amounts.
func zeros(n int) []decimal.Decimal {
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = decimal.Zero
	}
	return out
}

// flat returns n months of the same amount.
func flat(n int, amount decimal.Decimal) []decimal.Decimal {
	out := make([]decimal.Decimal, n)
	for i := range out {
		out[i] = amount
	}
	return out
}
