package importer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// ReferenceDivisor sets how far below its GPU's usual price an imported
// price may fall: an offer priced under the GPU's median price per
// GPU-hour in the loaded catalog divided by this figure is skipped.
//
// The deepest real discounts are spot prices: AWS and Azure advertise
// "up to 90%" off their on-demand rates, and the cheapest offer of the
// embedded catalog relative to its GPU's median is an Azure T4 spot price
// at 5.8% of the T4 median (TestEveryCuratedPricePassesTheReference
// holds every curated price to the rule). One thirtieth (3.3%) leaves room
// below that, and still catches a price in the wrong unit (an instance
// price read as per GPU, cents read as dollars) or a hostile figure: 8×A100
// at 0.09 USD an hour is 0.3% of the A100 median.
const ReferenceDivisor = 30

// MinReferenceOffers is the fewest priced offers a GPU model needs in the
// loaded catalog before its median is used as a reference; with fewer,
// only the fixed floor (MinPerGPUHourUSD) applies.
const MinReferenceOffers = 3

// MaxBelowReferenceShare is the largest share of an answer's offers that
// may be skipped as priced below their GPU's reference before the whole
// answer is refused: one price in ten far below its GPU's usual price is
// a broken or hostile file, not a sale.
const MaxBelowReferenceShare = 0.1

// SkipBelowReference is the skip reason of an offer priced below its
// GPU's reference.
const SkipBelowReference = "price below 1/30 of its GPU's median price per GPU-hour in the catalog"

// PriceReference holds, for each GPU model, the median price per GPU-hour
// in US dollars of the offers of the loaded catalog (the curated catalog
// and the snapshots imported before), every billing model included.
type PriceReference struct {
	medians map[string]decimal.Decimal // GPU model ID → median USD per GPU-hour
}

// NewPriceReference computes the medians of offers. gpuOf gives the GPU
// model and count of an offer's instance type (ok false when unknown or
// below one whole GPU's share cannot be told); toUSD converts an amount.
func NewPriceReference(offers []*catalog.Offer, gpuOf func(provider, instance string) (gpuID string, count decimal.Decimal, ok bool),
	toUSD func(amount decimal.Decimal, currency string) (decimal.Decimal, bool)) PriceReference {
	per := map[string][]float64{}
	for _, o := range offers {
		id, n, ok := gpuOf(o.Provider, o.InstanceName)
		if !ok || !n.IsPositive() {
			continue
		}
		usd, ok := toUSD(o.EffectiveHourly(), o.Price.Currency)
		if !ok || !usd.IsPositive() {
			continue
		}
		f, _ := usd.Div(n).Float64()
		per[id] = append(per[id], f)
	}
	r := PriceReference{medians: make(map[string]decimal.Decimal, len(per))}
	for id, v := range per {
		if len(v) < MinReferenceOffers {
			continue
		}
		sort.Float64s(v)
		m := v[len(v)/2]
		if len(v)%2 == 0 {
			m = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		r.medians[id] = decimal.NewFromFloat(m).Round(6)
	}
	return r
}

// Median is the median price per GPU-hour in US dollars of a GPU model,
// false when the catalog holds too few offers of it.
func (r PriceReference) Median(gpuID string) (decimal.Decimal, bool) {
	m, ok := r.medians[gpuID]
	return m, ok
}

// Floor is the lowest plausible price per GPU-hour in US dollars of a GPU
// model: its median divided by ReferenceDivisor.
func (r PriceReference) Floor(gpuID string) (decimal.Decimal, bool) {
	m, ok := r.medians[gpuID]
	if !ok {
		return decimal.Zero, false
	}
	return m.Div(decimal.NewFromInt(ReferenceDivisor)), true
}

// BelowReferenceError refuses an answer in which too many offers are
// priced below their GPU's reference.
type BelowReferenceError struct {
	File     string
	Skipped  int      // offers priced below their GPU's reference
	Offers   int      // offers the answer priced
	Examples []string // a few of them
}

func (e *BelowReferenceError) Error() string {
	return fmt.Sprintf("%s: %d of %d offers are priced below 1/%d of their GPU's median price per GPU-hour (e.g. %s): a broken or hostile answer; nothing was stored",
		e.File, e.Skipped, e.Offers, ReferenceDivisor, strings.Join(e.Examples, ", "))
}

// TooManyBelowReference returns a *BelowReferenceError when more than
// MaxBelowReferenceShare of the checked offers were skipped as priced
// below their GPU's reference, nil otherwise. checked is the number of
// offers the checker saw.
func TooManyBelowReference(file string, skipped Skips, checked int) error {
	n := skipped.Count(SkipBelowReference)
	if n == 0 || float64(n) <= MaxBelowReferenceShare*float64(checked) {
		return nil
	}
	return &BelowReferenceError{File: file, Skipped: n, Offers: checked, Examples: skipped.Examples(SkipBelowReference)}
}
