package catalog

import "sort"

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
	perGPU := key == SortGPUPrice
	exactMem := true // SortVRAM: every memory size converts to a distinct float
	for i, o := range c.offers {
		row, err := priceRow(o, currency, fx, PerInstanceHour, perGPU)
		if err != nil {
			return nil, err
		}
		k := keyed{undated: o.Source.Undated(), at: int32(i)}
		switch key {
		case SortGPUPrice:
			k.f1 = row.PerGPUHourly.InexactFloat64()
		case SortVRAM:
			mem := o.Instance.GPUMemoryGB
			// Distinct decimals of at most 15 significant digits are
			// distinct floats: the memory size alone then decides its key.
			if mem.NumDigits() > 15 {
				exactMem = false
			}
			k.f1, k.f2 = -mem.InexactFloat64(), row.EffectiveHourly.InexactFloat64()
		case SortFP16PerDollar:
			k.f1 = -row.FP16PerDollar().InexactFloat64()
		default:
			k.f1 = row.EffectiveHourly.InexactFloat64()
		}
		ks[i] = k
	}
	if !exactMem {
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
	order, value := rowOrder(key), valueOrder(key)
	var run []OfferRow
	var idx []int
	var at []int32
	for lo := 0; lo < len(ks); {
		hi := lo + 1
		for hi < len(ks) && ks[hi].f1 == ks[lo].f1 && ks[hi].f2 == ks[lo].f2 {
			hi++
		}
		if hi-lo == 1 {
			lo = hi
			continue
		}
		run, at = run[:0], at[:0]
		same := true
		for _, k := range ks[lo:hi] {
			row, err := priceRow(c.offers[k.at], currency, fx, PerInstanceHour, perGPU)
			if err != nil {
				return nil, err
			}
			run = append(run, row)
			at = append(at, k.at)
			same = same && value(&run[0], &run[len(run)-1]) == 0
		}
		if !same { // values that round to one float: the exact rule decides
			idx = idx[:0]
			for i := range run {
				idx = append(idx, i)
			}
			sort.Slice(idx, func(i, j int) bool {
				if cmp := order(&run[idx[i]], &run[idx[j]]); cmp != 0 {
					return cmp < 0
				}
				return at[idx[i]] < at[idx[j]]
			})
			for i, x := range idx {
				ks[lo+i].at = at[x]
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
