package output

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Money formats an amount for a table: more decimals for small amounts,
// thousands grouped from 1,000 on.
func Money(d decimal.Decimal) string {
	if d.IsZero() {
		return "0"
	}
	if v, e, ok := small(d); ok {
		// The common case, in machine integers: the same digits as the
		// general case below (FuzzFixed), without its allocations.
		ip := absU(v) / pow10[-e]
		switch {
		case ip < 1:
			return fixed(v, e, 4, false)
		case ip < 100:
			return fixed(v, e, 3, false)
		case ip < 10000:
			return groupWhole(fixed(v, e, 2, false))
		}
		return Thousands(fixed(v, e, 0, false))
	}
	a := d.Abs()
	switch {
	case a.LessThan(decimal.NewFromInt(1)):
		return d.StringFixed(4)
	case a.LessThan(decimal.NewFromInt(100)):
		return d.StringFixed(3)
	case a.LessThan(decimal.NewFromInt(10000)):
		return groupWhole(d.StringFixed(2))
	}
	return Thousands(d.StringFixed(0))
}

// groupWhole groups the thousands of a decimal string's whole part
// (1234.50 → 1,234.50), so that an amount reads the same in a table's
// column and in a sentence beside it.
func groupWhole(s string) string {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok {
		return Thousands(whole)
	}
	return Thousands(whole) + "." + frac
}

// Thousands inserts commas into an integer string.
func Thousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if len(s) <= 3 {
		if neg {
			return "-" + s
		}
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/3 + 1)
	if neg {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Qty formats a count or size without trailing zeros; fractions of a GPU
// show as 1/n when they are one.
func Qty(d decimal.Decimal) string {
	if d.IsZero() {
		return "-"
	}
	if v, e, ok := small(d); ok && v > 0 && absU(v)/pow10[-e] >= 1 {
		return fixed(v, e, 2, true)
	}
	if d.LessThan(decimal.NewFromInt(1)) {
		inv := decimal.NewFromInt(1).Div(d).Round(2)
		if inv.Equal(inv.Truncate(0)) {
			return "1/" + inv.String()
		}
	}
	return d.Round(2).String()
}

// pow10[i] is 10^i.
var pow10 = func() (p [19]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// small is d as coefficient and exponent when both are small enough for
// fixed: at most 18 digits, and 0 to 18 decimals.
func small(d decimal.Decimal) (v int64, e int32, ok bool) {
	e = d.Exponent()
	if e > 0 || e < -18 || d.NumDigits() > 18 {
		return 0, 0, false
	}
	return d.CoefficientInt64(), e, true
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// fixed is v·10^e rounded half away from zero to places decimals (0 to 4)
// and written as decimal.Decimal writes it: d.Round(places).String() when
// trim (trailing zeros of the fraction dropped), d.StringFixed(places)
// when not. v has at most 18 digits and e is in [-18, 0].
func fixed(v int64, e, places int32, trim bool) string {
	q := v
	switch k := -places - e; {
	case k < 0: // fewer decimals than places: more digits
		if absU(v) > (1<<62)/pow10[-k] {
			return slowFixed(v, e, places, trim)
		}
		q = int64(absU(v) * pow10[-k])
		if v < 0 {
			q = -q
		}
	case k > 0:
		p := int64(pow10[k])
		q = v / p
		r := v % p
		if r < 0 {
			r = -r
		}
		if r >= p/2 { // the first digit dropped is 5 or more (p/2 = 5·10^(k-1))
			if v < 0 {
				q--
			} else {
				q++
			}
		}
	}
	if places == 0 {
		return strconv.FormatInt(q, 10)
	}
	var buf [32]byte
	digits := strconv.AppendUint(buf[:0], absU(q), 10)
	var whole, frac []byte
	lead := 0
	if n := len(digits) - int(places); n > 0 {
		whole, frac = digits[:n], digits[n:]
	} else {
		whole, frac, lead = []byte("0"), digits, -n
	}
	if trim {
		i := len(frac) - 1
		for i >= 0 && frac[i] == '0' {
			i--
		}
		frac = frac[:i+1]
		if len(frac) == 0 {
			lead = 0
		}
	}
	var b strings.Builder
	b.Grow(2 + len(whole) + lead + len(frac))
	if q < 0 {
		b.WriteByte('-')
	}
	b.Write(whole)
	if lead+len(frac) > 0 {
		b.WriteByte('.')
		for range lead {
			b.WriteByte('0')
		}
		b.Write(frac)
	}
	return b.String()
}

// slowFixed is fixed through decimal.Decimal.
func slowFixed(v int64, e, places int32, trim bool) string {
	d := decimal.New(v, e)
	if trim {
		return d.Round(places).String()
	}
	return d.StringFixed(places)
}

// minorUnits are the decimals of a currency's smallest unit where it is
// not two (ISO 4217: the yen and the won have none).
var minorUnits = map[string]int32{"JPY": 0, "KRW": 0}

// PriceDecimals is how many decimals every price of a column shows, by
// its unit and currency: hourly prices to four places of the currency's
// unit (a spot price of 0.0974 keeps its digits), longer units (day,
// month, year) and upfront fees to the currency's minor unit. One column
// shows one format, whatever each value's size.
func PriceDecimals(hourly bool, currency string) int32 {
	minor, ok := minorUnits[currency]
	if !ok {
		minor = 2
	}
	if hourly {
		return minor + 2
	}
	return minor
}

// FixedMoney writes d to places decimals with its thousands grouped.
func FixedMoney(d decimal.Decimal, places int32) string {
	whole, frac, _ := strings.Cut(d.StringFixed(places), ".")
	if frac == "" {
		return Thousands(whole)
	}
	return Thousands(whole) + "." + frac
}
