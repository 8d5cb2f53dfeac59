package output

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestFixedMoney: a column's prices share their decimals whatever their
// size, with thousands grouped; the yen and the won have no minor unit.
func TestFixedMoney(t *testing.T) {
	for _, tt := range []struct {
		v      string
		hourly bool
		cur    string
		want   string
	}{
		{"0.0974", true, "USD", "0.0974"},
		{"98.32", true, "USD", "98.3200"},
		{"4149.6", false, "USD", "4,149.60"},
		{"10822", false, "USD", "10,822.00"},
		{"36000", false, "CNY", "36,000.00"},
		{"1234.567", true, "JPY", "1,234.57"},
		{"36000.4", false, "JPY", "36,000"},
		{"-1234.5", false, "EUR", "-1,234.50"},
	} {
		d := decimal.RequireFromString(tt.v)
		if got := FixedMoney(d, PriceDecimals(tt.hourly, tt.cur)); got != tt.want {
			t.Errorf("FixedMoney(%s, hourly %v, %s) = %q, want %q", tt.v, tt.hourly, tt.cur, got, tt.want)
		}
	}
}
