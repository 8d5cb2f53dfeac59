// Package pricing is gpuscout's cost engine: it turns an offer and a usage
// profile into a bill — a list of named cost components (compute under the
// offer's billing model, storage, egress, load balancers, support), each
// with unit, quantity, unit price and source — plus a month-by-month cash
// flow. It compares plans over a horizon (TCO), including buying GPU
// servers, and finds break-even points.
//
// Amounts are decimals. Each breakdown is computed in its offer's currency
// (the currency of the bill); conversion to the user's currency happens at
// the edge, in the document layer.
package pricing

import (
	"fmt"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// daysPerMonth is 730 / 24: the month every provider's monthly figure uses.
var daysPerMonth = decimal.NewFromInt(catalog.HoursPerMonth).Div(decimal.NewFromInt(24))

// Usage is how an offer is used over a horizon.
type Usage struct {
	Instances int
	// HoursPerDay the instances run (0–24, default 24).
	HoursPerDay decimal.Decimal
	// DaysPerMonth the instances run; zero means every day (730 h a month at 24 h/day).
	DaysPerMonth decimal.Decimal
	// Utilization is the fraction (0–1) of the scheduled hours the instances
	// actually run; it multiplies HoursPerDay and DaysPerMonth.
	Utilization decimal.Decimal
	// Months is the horizon (at least 1).
	Months int
	// Start is the first month of the horizon (for cash-flow dates).
	Start time.Time

	StorageGB       decimal.Decimal // block storage, GB held all month
	ObjectStorageGB decimal.Decimal // object storage, GB held all month
	EgressGB        decimal.Decimal // internet egress per month
	InterRegionGB   decimal.Decimal // cross-region transfer per month
	LoadBalancers   int

	// SupportPlan names a provider support plan in the catalog ("business");
	// SupportPercent is a flat percentage of spend used when no plan is named.
	SupportPlan    string
	SupportPercent decimal.Decimal

	// SpendDiscounts are volume discounts on compute: the part of a month's
	// compute spend above Above is paid at Multiplier (8.5折 = 0.85).
	SpendDiscounts []SpendDiscount
	// HourTiers price on-demand hours by each instance's cumulative running
	// hours (Tencent's 阶梯价): from From hours on, the hourly price is
	// multiplied by Multiplier.
	HourTiers []HourTier
}

// SpendDiscount is a marginal volume discount on monthly compute spend.
type SpendDiscount struct {
	Above      decimal.Decimal // in the bill's currency
	Multiplier decimal.Decimal // the fraction paid: 0.85 for 8.5折 (15 % off)
}

// HourTier is one step of tiered pay-as-you-go pricing.
type HourTier struct {
	From       decimal.Decimal // cumulative running hours of an instance
	Multiplier decimal.Decimal
}

// DefaultUsage is one instance, all day, every day, for one month.
func DefaultUsage() Usage {
	return Usage{Instances: 1, HoursPerDay: decimal.NewFromInt(24), Utilization: decimal.NewFromInt(1), Months: 1}
}

// FieldError names the usage field that is wrong.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return fmt.Sprintf("usage: %s: %s", e.Field, e.Msg) }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate checks every field and returns a *FieldError for the first bad one.
func (u Usage) Validate() error {
	one := decimal.NewFromInt(1)
	switch {
	case u.Instances < 1:
		return fieldErr("instances", "must be at least 1, got %d", u.Instances)
	case u.HoursPerDay.IsNegative() || u.HoursPerDay.GreaterThan(decimal.NewFromInt(24)):
		return fieldErr("hours_per_day", "must be between 0 and 24, got %s", u.HoursPerDay)
	case u.DaysPerMonth.IsNegative() || u.DaysPerMonth.GreaterThan(decimal.NewFromInt(31)):
		return fieldErr("days_per_month", "must be between 0 and 31, got %s", u.DaysPerMonth)
	case u.Utilization.IsNegative() || u.Utilization.GreaterThan(one):
		return fieldErr("utilization", "must be a fraction between 0 and 1, got %s", u.Utilization)
	case u.Months < 1:
		return fieldErr("months", "the horizon must be at least 1 month, got %d", u.Months)
	case u.Months > 240:
		return fieldErr("months", "the horizon is at most 240 months (20 years), got %d", u.Months)
	case u.StorageGB.IsNegative():
		return fieldErr("storage_gb", "must not be negative")
	case u.ObjectStorageGB.IsNegative():
		return fieldErr("object_storage_gb", "must not be negative")
	case u.EgressGB.IsNegative():
		return fieldErr("egress_gb", "must not be negative")
	case u.InterRegionGB.IsNegative():
		return fieldErr("inter_region_gb", "must not be negative")
	case u.LoadBalancers < 0:
		return fieldErr("load_balancers", "must not be negative")
	case u.SupportPercent.IsNegative() || u.SupportPercent.GreaterThan(decimal.NewFromInt(100)):
		return fieldErr("support", "a percentage between 0 and 100, got %s", u.SupportPercent)
	}
	for i, d := range u.SpendDiscounts {
		if d.Above.IsNegative() || !d.Multiplier.IsPositive() || d.Multiplier.GreaterThan(one) {
			return fieldErr(fmt.Sprintf("spend_discounts[%d]", i), "above must be ≥ 0 and multiplier in (0, 1] (8.5折 = 0.85)")
		}
	}
	for i, t := range u.HourTiers {
		if t.From.IsNegative() || !t.Multiplier.IsPositive() || t.Multiplier.GreaterThan(one) {
			return fieldErr(fmt.Sprintf("hour_tiers[%d]", i), "from must be ≥ 0 and multiplier in (0, 1]")
		}
		if i > 0 && !t.From.GreaterThan(u.HourTiers[i-1].From) {
			return fieldErr(fmt.Sprintf("hour_tiers[%d]", i), "tiers must be in increasing order of from")
		}
	}
	return nil
}

// UsedHoursPerMonth is how many hours a month each instance runs:
// hours/day × days/month × utilisation, with 730/24 days when DaysPerMonth
// is zero (so the default is 730).
func (u Usage) UsedHoursPerMonth() decimal.Decimal {
	days := u.DaysPerMonth
	if days.IsZero() {
		days = daysPerMonth
	}
	return u.HoursPerDay.Mul(days).Mul(u.Utilization)
}

// DutyCycle is the used share of the month's 730 hours.
func (u Usage) DutyCycle() decimal.Decimal {
	return u.UsedHoursPerMonth().Div(decimal.NewFromInt(catalog.HoursPerMonth))
}
