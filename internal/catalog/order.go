package catalog

import (
	"fmt"
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
// Each offer's sort value is converted to a float64. Rounding to the
// nearest float never reverses two values, so offers whose floats differ
// are in their exact order; each run of offers with equal floats is then
// priced again and sorted by the exact rule.
func (c *Catalog) PriceOrder(currency string, fx Converter, key SortKey) ([]int32, error) {
	type keyed struct {
		f1, f2  float64
		undated bool
		at      int32
	}
	ks := make([]keyed, len(c.offers))
	exact := true // every first value converts to a distinct float
	for i, o := range c.offers {
		v1, v2, err := sortValues(o, currency, fx, key)
		if err != nil {
			return nil, err
		}
		// Distinct decimals of at most 15 significant digits are distinct
		// floats; where a two-value order's first value has more, equal
		// floats could hide an order the second value would then upset.
		if key == SortVRAM && v1.NumDigits() > 15 {
			exact = false
		}
		ks[i] = keyed{f1: v1.InexactFloat64(), f2: v2.InexactFloat64(), undated: o.Source.Undated(), at: int32(i)}
	}
	if !exact {
		for i := range ks {
			ks[i].f1 = 0 // one run: every offer sorted by the exact rule
		}
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
	// Runs of equal floats: their exact values decide, then undated last,
	// then position (the float sort's own tie rule, right where every
	// value of the run is the same).
	type exactKey struct {
		v1, v2  decimal.Decimal
		undated bool
		at      int32
	}
	var run []exactKey
	for lo := 0; lo < len(ks); {
		hi := lo + 1
		for hi < len(ks) && ks[hi].f1 == ks[lo].f1 && ks[hi].f2 == ks[lo].f2 {
			hi++
		}
		if hi-lo == 1 {
			lo = hi
			continue
		}
		run = run[:0]
		same := true
		for _, k := range ks[lo:hi] {
			v1, v2, err := sortValues(c.offers[k.at], currency, fx, key)
			if err != nil {
				return nil, err
			}
			run = append(run, exactKey{v1, v2, k.undated, k.at})
			same = same && v1.Equal(run[0].v1) && v2.Equal(run[0].v2)
		}
		if !same {
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
		}
		lo = hi
	}
	out := make([]int32, len(ks))
	for i, k := range ks {
		out[i] = k.at
	}
	return out, nil
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
