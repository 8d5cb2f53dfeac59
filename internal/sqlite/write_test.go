package sqlite

import (
	"testing"

	"github.com/shopspring/decimal"
)

// decimalText writes what decimal.String writes.
func TestDecimalText(t *testing.T) {
	for _, s := range []string{"0", "0.000", "1", "10", "1.2340", "32.7726", "0.001", "-0.5", "-12.30", "1e3", "1e-20", "123456789012345678.9",
		"12345678901234567890123", "0.000000000000000001", "999999999999999999", "5e-18", "100.00"} {
		d := decimal.RequireFromString(s)
		if got, want := decimalText(d), d.String(); got != want {
			t.Errorf("%s: %q, want %q", s, got, want)
		}
	}
	for c := int64(-2000); c <= 2000; c += 7 {
		for e := int32(-20); e <= 2; e++ {
			d := decimal.New(c, e)
			if got, want := decimalText(d), d.String(); got != want {
				t.Fatalf("%d e%d: %q, want %q", c, e, got, want)
			}
		}
	}
}

func FuzzDecimalText(f *testing.F) {
	f.Add(int64(12340), int32(-4))
	f.Fuzz(func(t *testing.T, c int64, e int32) {
		if e < -40 || e > 40 {
			return
		}
		d := decimal.New(c, e)
		if got, want := decimalText(d), d.String(); got != want {
			t.Fatalf("%d e%d: %q, want %q", c, e, got, want)
		}
	})
}
