package output

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Money formats an amount for a table: more decimals for small amounts,
// thousands separators for large ones.
func Money(d decimal.Decimal) string {
	a := d.Abs()
	switch {
	case d.IsZero():
		return "0"
	case a.LessThan(decimal.NewFromInt(1)):
		return d.StringFixed(4)
	case a.LessThan(decimal.NewFromInt(100)):
		return d.StringFixed(3)
	case a.LessThan(decimal.NewFromInt(10000)):
		return d.StringFixed(2)
	}
	return Thousands(d.StringFixed(0))
}

// Thousands inserts commas into an integer string.
func Thousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Qty formats a count or size without trailing zeros; fractions of a GPU
// show as 1/n when they are one.
func Qty(d decimal.Decimal) string {
	if d.IsZero() {
		return "-"
	}
	if d.LessThan(decimal.NewFromInt(1)) {
		inv := decimal.NewFromInt(1).Div(d).Round(2)
		if inv.Equal(inv.Truncate(0)) {
			return "1/" + inv.String()
		}
	}
	return d.Round(2).String()
}
