package catalog

import (
	"github.com/shopspring/decimal"
)

// Hours in the billing periods that every price conversion uses. They are
// defined once, here, and nowhere else.
const (
	HoursPerMonth = 730   // 24 h × 30.4167 days, the convention of AWS, Azure and GCP
	HoursPerYear  = 8760  // 365 × 24
	HoursPer3Year = 26280 // 3 × 8760
)

// Decimal versions of the hour constants, for money arithmetic.
var (
	decHoursPerMonth = decimal.NewFromInt(HoursPerMonth)
)

// Money is an amount in a currency. Stored prices are never float64.
type Money struct {
	Amount   decimal.Decimal
	Currency string // ISO 4217, upper case
}

// IsZero reports whether m has no amount.
func (m Money) IsZero() bool { return m.Amount.IsZero() }

// String renders the amount with its currency, e.g. "32.7726 USD".
func (m Money) String() string { return m.Amount.String() + " " + m.Currency }
