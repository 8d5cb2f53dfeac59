package output

import (
	"math"
	"testing"

	"github.com/shopspring/decimal"
)

// The machine-integer formatting gives the digits decimal.Decimal gives.
func FuzzFixed(f *testing.F) {
	for _, s := range []struct {
		v    int64
		e    int32
		p    int32
		trim bool
	}{{12345, -4, 3, false}, {-5, -5, 4, false}, {-50, -5, 4, true}, {999999999999999999, 0, 4, false}, {-999999999999999999, -18, 2, true},
		{5, 0, 0, false}, {15, -1, 0, false}, {-25, -1, 0, true}, {1000, -3, 2, true}, {0, -2, 2, false}, {104, -2, 2, true}} {
		f.Add(s.v, s.e, s.p, s.trim)
	}
	f.Fuzz(func(t *testing.T, v int64, e, places int32, trim bool) {
		if v == math.MinInt64 {
			v++
		}
		if e > 0 || e < -18 || places < 0 || places > 4 {
			t.Skip()
		}
		d := decimal.New(v, e)
		if d.NumDigits() > 18 {
			t.Skip()
		}
		want := d.StringFixed(places)
		if trim {
			want = d.Round(places).String()
		}
		if got := fixed(v, e, places, trim); got != want {
			t.Fatalf("fixed(%d, %d, %d, %v) = %q, decimal gives %q", v, e, places, trim, got, want)
		}
	})
}

// Money and Qty give what the general decimal path gives.
func TestMoneyAndQtyMatchDecimal(t *testing.T) {
	slowMoney := func(d decimal.Decimal) string {
		a := d.Abs()
		switch {
		case d.IsZero():
			return "0"
		case a.LessThan(decimal.NewFromInt(1)):
			return d.StringFixed(4)
		case a.LessThan(decimal.NewFromInt(100)):
			return d.StringFixed(3)
		case a.LessThan(decimal.NewFromInt(10000)):
			return FixedMoney(d, 2)
		}
		return Thousands(d.StringFixed(0))
	}
	// A table's amount reads as the sentence beside it does: 3,725.20
	// beside "3,725 USD", not 3725.20.
	for in, want := range map[string]string{"3725.2": "3,725.20", "-1000": "-1,000.00", "999.999": "1,000.00", "999.99": "999.99", "12345.6": "12,346"} {
		if got := Money(decimal.RequireFromString(in)); got != want {
			t.Errorf("Money(%s) = %q, want %q", in, got, want)
		}
	}
	for _, s := range []string{"0", "0.00", "1", "-1", "0.99995", "0.99994", "-0.00005", "0.00004", "99.9995", "99.9994", "100", "9999.995",
		"9999.994", "10000", "-12345.5", "1234567.49", "98.06", "12.5", "3.3333333333333333", "55.04", "0.0001", "7e3", "1e-18", "123456789012345678"} {
		d := decimal.RequireFromString(s)
		if got, want := Money(d), slowMoney(d); got != want {
			t.Errorf("Money(%s) = %q, want %q", s, got, want)
		}
		wantQty := "-"
		if !d.IsZero() {
			wantQty = d.Round(2).String()
			if d.LessThan(decimal.NewFromInt(1)) {
				if inv := decimal.NewFromInt(1).Div(d).Round(2); inv.Equal(inv.Truncate(0)) {
					wantQty = "1/" + inv.String()
				}
			}
		}
		if got := Qty(d); got != wantQty {
			t.Errorf("Qty(%s) = %q, want %q", s, got, wantQty)
		}
	}
}

func BenchmarkMoney(b *testing.B) {
	ds := []decimal.Decimal{decimal.RequireFromString("98.32"), decimal.RequireFromString("0.4512"), decimal.RequireFromString("1234.5"), decimal.RequireFromString("71234.5")}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range ds {
			Money(d)
			Qty(d)
		}
	}
}
