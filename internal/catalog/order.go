package catalog

import (
	"fmt"
	"math"
	"sort"

	"github.com/shopspring/decimal"
)

// Pricer prices single offers as QueryOffers prices its rows: in one
// currency (or each offer's own when it is "") and unit, with the per-GPU
// price and the marketplace flag. It lets a caller that keeps only offer
// positions price the few rows it answers.
type Pricer struct {
	currency string
	fx       Converter
	per      PriceUnit
	market   map[string]bool
}

// Pricer returns a pricer for QueryOffers' rows in currency (converted
// with fx) and unit per (per instance-hour when empty).
func (c *Catalog) Pricer(currency string, fx Converter, per PriceUnit) *Pricer {
	if per == "" {
		per = PerInstanceHour
	}
	p := &Pricer{currency: currency, fx: fx, per: per, market: map[string]bool{}}
	for _, f := range c.ecosystem {
		if f.Category == CategoryMarketplace {
			p.market[f.Provider] = true
		}
	}
	return p
}

// Row is o's row as QueryOffers answers it.
func (p *Pricer) Row(o *Offer) (OfferRow, error) {
	row, err := priceRow(o, p.currency, p.fx, p.per, true)
	row.Marketplace = err == nil && p.market[o.Provider]
	return row, err
}

// PriceOrder returns every offer's position in Offers(), in the order
// QueryOffers sorts rows priced in currency by key (ties: an undated price
// after a dated one, then offer ID, which is the catalog's order), without
// keeping a row per offer: a sort over 10^6 offers holds 24 bytes per
// offer rather than a priced row, and compares floats rather than
// decimals.
//
// Each offer's sort value is estimated as a float (its own price as a
// float times the float rate of its currency), well within tol of the
// exact value. Offers whose estimates are further apart than that are in
// their exact order; each group of offers chained by closer estimates is
// put in the exact order, priced exactly only where its offers' figures
// differ (offers with the same figures have the same exact value, and
// the float sort's tie rule is then the exact one).
func (c *Catalog) PriceOrder(currency string, fx Converter, key SortKey) ([]int32, error) {
	type keyed struct {
		f1, f2  float64
		undated bool
		at      int32
	}
	rates := map[string]float64{}
	rate := func(from string) (float64, error) {
		if currency == "" || from == currency {
			return 1, nil
		}
		if r, ok := rates[from]; ok {
			return r, nil
		}
		if fx == nil {
			return 0, fmt.Errorf("no exchange rates to convert %s to %s", from, currency)
		}
		// A large amount keeps the rate's digits past the converter's
		// rounding.
		big := decimal.New(1, 15)
		d, err := fx.Convert(big, from, currency)
		if err != nil {
			return 0, err
		}
		r := d.InexactFloat64() / 1e15
		rates[from] = r
		return r, nil
	}
	ks := make([]keyed, len(c.offers))
	// oneGroup: an estimate may err by more than near allows (a memory
	// size of more than 15 digits, whose equal floats would let the price
	// decide; an FP16 ratio over a price under 0.001, whose rounding the
	// division magnifies): every offer is then put in the exact order.
	oneGroup := false
	for i, o := range c.offers {
		r, err := rate(o.Price.Currency)
		if err != nil {
			return nil, fmt.Errorf("offer %s: %w", o.ID(), err)
		}
		eff := o.EffectiveHourly().InexactFloat64() * r
		k := keyed{undated: o.Source.Undated(), at: int32(i)}
		it := o.Instance
		switch key {
		case SortGPUPrice:
			if n := it.GPUCount.InexactFloat64(); n != 0 {
				k.f1 = eff / n
			}
		case SortVRAM:
			k.f1, k.f2 = -it.GPUMemoryGB.InexactFloat64(), eff
			oneGroup = oneGroup || it.GPUMemoryGB.NumDigits() > 15
		case SortFP16PerDollar:
			oneGroup = oneGroup || eff != 0 && math.Abs(eff) < 1e-3
			if it.GPU != nil && eff != 0 {
				k.f1 = -it.GPU.FP16TFLOPS.InexactFloat64() * it.GPUCount.InexactFloat64() / eff
			}
		default:
			k.f1 = eff
		}
		ks[i] = k
	}
	sort.Slice(ks, func(i, j int) bool {
		a, b := &ks[i], &ks[j]
		switch {
		case a.f1 != b.f1:
			return a.f1 < b.f1
		case a.f2 != b.f2:
			return a.f2 < b.f2
		case a.undated != b.undated:
			return b.undated
		}
		return a.at < b.at
	})
	// near reports whether two estimates may be in the wrong order: the
	// exact values round to 12 places and the floats err by far less than
	// a millionth of a millionth of them.
	near := func(x, y float64) bool {
		return math.Abs(x-y) <= 1e-9*(1+math.Max(math.Abs(x), math.Abs(y)))
	}
	type exactKey struct {
		v1, v2  decimal.Decimal
		undated bool
		at      int32
	}
	var run []exactKey
	for lo := 0; lo < len(ks); {
		hi := lo + 1
		// A memory size (SortVRAM's first value) is exact: equal floats
		// are equal sizes, and then the price decides.
		for hi < len(ks) && (oneGroup || key == SortVRAM && ks[hi].f1 == ks[hi-1].f1 && near(ks[hi].f2, ks[hi-1].f2) ||
			key != SortVRAM && near(ks[hi].f1, ks[hi-1].f1)) {
			hi++
		}
		if hi-lo == 1 || sameFigures(c, ks[lo].at, func(yield func(int32) bool) {
			for _, k := range ks[lo+1 : hi] {
				if !yield(k.at) {
					return
				}
			}
		}, key) {
			lo = hi
			continue
		}
		run = run[:0]
		for _, k := range ks[lo:hi] {
			v1, v2, err := sortValues(c.offers[k.at], currency, fx, key)
			if err != nil {
				return nil, err
			}
			run = append(run, exactKey{v1, v2, k.undated, k.at})
		}
		sort.Slice(run, func(i, j int) bool {
			a, b := &run[i], &run[j]
			if c := a.v1.Cmp(b.v1); c != 0 {
				return c < 0
			}
			if c := a.v2.Cmp(b.v2); c != 0 {
				return c < 0
			}
			if a.undated != b.undated {
				return b.undated
			}
			return a.at < b.at
		})
		for i, k := range run {
			ks[lo+i].at = k.at
		}
		lo = hi
	}
	out := make([]int32, len(ks))
	for i, k := range ks {
		out[i] = k.at
	}
	return out, nil
}

// sameFigures reports whether the offers at positions others have the
// figures key's value is computed from equal to the offer at first's: the
// same currency and effective price, and for the orders that read them
// the same GPU count, memory and FP16 TFLOPS. Then their exact values are
// equal.
func sameFigures(c *Catalog, first int32, others func(yield func(int32) bool), key SortKey) bool {
	a := c.offers[first]
	effA := a.EffectiveHourly()
	for at := range others {
		b := c.offers[at]
		if b.Price.Currency != a.Price.Currency || !b.EffectiveHourly().Equal(effA) {
			return false
		}
		ia, ib := a.Instance, b.Instance
		switch key {
		case SortGPUPrice:
			if !ia.GPUCount.Equal(ib.GPUCount) {
				return false
			}
		case SortVRAM:
			if !ia.GPUMemoryGB.Equal(ib.GPUMemoryGB) {
				return false
			}
		case SortFP16PerDollar:
			if (ia.GPU == nil) != (ib.GPU == nil) || !ia.GPUCount.Equal(ib.GPUCount) ||
				ia.GPU != nil && !ia.GPU.FP16TFLOPS.Equal(ib.GPU.FP16TFLOPS) {
				return false
			}
		}
	}
	return true
}

// sortValues are the values QueryOffers orders o's row by (valueOrder),
// as two decimals to sort ascending: the price, or the negated memory
// size and the price (SortVRAM), or the negated FP16 TFLOPS per currency
// unit (SortFP16PerDollar). Only the figure the order reads is converted
// into currency, as priceRow converts it.
func sortValues(o *Offer, currency string, fx Converter, key SortKey) (v1, v2 decimal.Decimal, err error) {
	conv := func(d decimal.Decimal) (decimal.Decimal, error) {
		if d.IsZero() || currency == "" || currency == o.Price.Currency {
			return d, nil
		}
		if fx == nil {
			return d, fmt.Errorf("offer %s: no exchange rates to convert %s to %s", o.ID(), o.Price.Currency, currency)
		}
		return fx.Convert(d, o.Price.Currency, currency)
	}
	switch key {
	case SortGPUPrice:
		v1, err = conv(o.PerGPUHourly())
	case SortVRAM:
		v2, err = conv(o.EffectiveHourly())
		v1 = o.Instance.GPUMemoryGB.Neg()
	case SortFP16PerDollar:
		var eff decimal.Decimal
		eff, err = conv(o.EffectiveHourly())
		if it := o.Instance; err == nil && it != nil && it.GPU != nil && !eff.IsZero() {
			v1 = it.GPU.FP16TFLOPS.Mul(it.GPUCount).Div(eff).Neg()
		}
	default:
		v1, err = conv(o.EffectiveHourly())
	}
	return v1, v2, err
}
