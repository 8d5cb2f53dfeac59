package catalog

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

// TestCmpDecIsCmp: the allocation-free comparison orders as decimal.Cmp,
// on prices, their scaled forms, signs, zeros and coefficients too large
// for the integer path.
func TestCmpDecIsCmp(t *testing.T) {
	vals := []string{"0", "0.0", "-0", "1", "1.0", "1.00000", "2.529607", "32.77", "32.770", "0.000001", "-3.5", "-3.50",
		"98.32", "12345678901234567.8", "123456789012345678901234", "0.000000000000000000001", "1e20", "9223372036854775807",
		"-9223372036854775808", "0.9223372036854775807", "100000000000000000", "3.999999999999999999"}
	ds := make([]decimal.Decimal, 0, len(vals))
	for _, v := range vals {
		ds = append(ds, decimal.RequireFromString(v))
	}
	ds = append(ds, decimal.New(math.MaxInt64, -3), decimal.New(math.MinInt64+1, 2), decimal.New(7, 17), decimal.New(7, -19), decimal.Decimal{})
	for _, a := range ds {
		for _, b := range ds {
			if got, want := cmpDec(a, b), a.Cmp(b); got != want {
				t.Errorf("cmpDec(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// FuzzCmpDec holds cmpDec to decimal.Cmp on any two coefficients and
// exponents.
func FuzzCmpDec(f *testing.F) {
	f.Add(int64(2529607), int32(-6), int64(3277), int32(-2))
	f.Add(int64(math.MaxInt64), int32(0), int64(1), int32(19))
	f.Fuzz(func(t *testing.T, va int64, ea int32, vb int64, eb int32) {
		if ea < -40 || ea > 40 || eb < -40 || eb > 40 {
			return
		}
		a, b := decimal.New(va, ea), decimal.New(vb, eb)
		if got, want := cmpDec(a, b), a.Cmp(b); got != want {
			t.Errorf("cmpDec(%s, %s) = %d, want %d", a, b, got, want)
		}
	})
}
