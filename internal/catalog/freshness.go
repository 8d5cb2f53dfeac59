package catalog

import (
	"slices"
	"sort"
	"time"
)

// FreshMonths is the age, in months, within which a price counts as fresh.
const FreshMonths = 12

// Freshness says how old a set of prices is on a given day.
type Freshness struct {
	Offers int // offers counted, undated ones included
	Fresh  int // offers dated within FreshMonths of the day (never an undated one)
	// Undated counts the offers whose source shows no date (Source.Undated):
	// they count as not fresh and have no age.
	Undated       int
	MedianAgeDays float64 // median age of the dated offers' as-of dates, in days
	OldestAsOf    time.Time
	NewestAsOf    time.Time
}

// Share is the fraction (0–1) of offers priced within FreshMonths, undated
// offers counting as not fresh; 0 when there are no offers.
func (f Freshness) Share() float64 {
	if f.Offers == 0 {
		return 0
	}
	return float64(f.Fresh) / float64(f.Offers)
}

// MeasureFreshness computes the freshness of prices dated asOf on the day
// now. Dates after now count as age 0; zero dates are skipped.
func MeasureFreshness(asOf []time.Time, now time.Time) Freshness {
	src := make([]Source, len(asOf))
	for i, d := range asOf {
		src[i].AsOf = d
	}
	return MeasureSourceFreshness(src, now)
}

// MeasureSourceFreshness computes the freshness of prices with sources src
// on the day now. An undated source (Source.Undated) is counted, as not
// fresh, in Offers and Undated, and left out of the median age; a source
// with neither date is skipped. Dates after now count as age 0.
func MeasureSourceFreshness(src []Source, now time.Time) Freshness {
	a := NewFreshnessTally(now, make([]float64, 0, len(src)))
	for i := range src {
		a.Add(&src[i])
	}
	return a.Result()
}

// FreshnessTally measures freshness one price at a time, keeping only
// each dated price's age (not its source): what MeasureSourceFreshness
// and Catalog.Freshness compute, for callers holding dates in another form.
type FreshnessTally struct {
	f           Freshness
	now, cutoff time.Time
	ages        []float64
}

// NewFreshnessTally starts a tally on the day now; ages is a buffer for the
// ages (its contents are overwritten; nil is fine).
func NewFreshnessTally(now time.Time, ages []float64) *FreshnessTally {
	return &FreshnessTally{now: now, cutoff: now.AddDate(0, -FreshMonths, 0), ages: ages[:0]}
}

// Add counts a price with source s: undated (Source.Undated) as
// AddUndated, dated as AddDate; a source with neither date is skipped.
func (a *FreshnessTally) Add(s *Source) {
	if s.Undated() {
		a.AddUndated()
		return
	}
	if !s.AsOf.IsZero() {
		a.AddDate(s.AsOf)
	}
}

// AddUndated counts a price whose source shows no date: not fresh, no age.
func (a *FreshnessTally) AddUndated() {
	a.f.Offers++
	a.f.Undated++
}

// AddDate counts a price dated d; a date after the day counts as age 0.
func (a *FreshnessTally) AddDate(d time.Time) {
	f := &a.f
	f.Offers++
	if !d.Before(a.cutoff) {
		f.Fresh++
	}
	if f.OldestAsOf.IsZero() || d.Before(f.OldestAsOf) {
		f.OldestAsOf = d
	}
	if d.After(f.NewestAsOf) {
		f.NewestAsOf = d
	}
	age := a.now.Sub(d).Hours() / 24
	if age < 0 {
		age = 0
	}
	a.ages = append(a.ages, age)
}

// Result is the freshness of the prices counted.
func (a *FreshnessTally) Result() Freshness {
	f, ages := a.f, a.ages
	if n := len(ages); n > 0 {
		slices.Sort(ages)
		if n%2 == 1 {
			f.MedianAgeDays = ages[n/2]
		} else {
			f.MedianAgeDays = (ages[n/2-1] + ages[n/2]) / 2
		}
	}
	return f
}

// Freshness measures the age of every offer's price on the day now, for the
// whole catalog and per provider (providers without offers are absent).
// It keeps each price's age, not its source: 8 bytes per offer.
func (c *Catalog) Freshness(now time.Time) (all Freshness, byProvider map[string]Freshness) {
	every := NewFreshnessTally(now, make([]float64, 0, len(c.offers)))
	tallies := map[string]*FreshnessTally{}
	var last *FreshnessTally
	lastProvider := ""
	for _, o := range c.offers {
		if last == nil || o.Provider != lastProvider { // offers come grouped by provider
			last = tallies[o.Provider]
			if last == nil {
				last = NewFreshnessTally(now, nil)
				tallies[o.Provider] = last
			}
			lastProvider = o.Provider
		}
		last.Add(&o.Source)
		every.Add(&o.Source)
	}
	byProvider = make(map[string]Freshness, len(tallies))
	for id, t := range tallies {
		byProvider[id] = t.Result()
	}
	return every.Result(), byProvider
}

// PublicPriceFile reports whether provider publishes a price file (or an
// unauthenticated price API) that anyone can read. Alibaba Cloud and
// Tencent Cloud (and Huawei Cloud, Volcano Engine, Baidu AI Cloud) publish
// none: their prices come only from signed APIs, so
// only a user's own credentials refresh them, and their freshness is
// reported apart.
func PublicPriceFile(provider string) bool {
	switch provider {
	case "alibaba", "tencent", "huawei", "volcengine", "baidu":
		return false
	}
	return true
}

// FileFreshness counts the offers of the providers that publish a public
// price file and how many are priced within FreshMonths (Undated of them
// have no date and count as not fresh); Without names the providers with
// offers that publish none.
type FileFreshness struct {
	Offers  int
	Fresh   int
	Undated int
	Without []string
}

// Share is the fraction (0–1) of those offers priced within FreshMonths.
func (f FileFreshness) Share() float64 {
	if f.Offers == 0 {
		return 0
	}
	return float64(f.Fresh) / float64(f.Offers)
}

// PublicFileFreshness sums a per-provider freshness (Catalog.Freshness)
// over the providers that publish a public price file.
func PublicFileFreshness(by map[string]Freshness) FileFreshness {
	var ff FileFreshness
	for id, f := range by {
		if !PublicPriceFile(id) {
			if f.Offers > 0 {
				ff.Without = append(ff.Without, id)
			}
			continue
		}
		ff.Offers += f.Offers
		ff.Fresh += f.Fresh
		ff.Undated += f.Undated
	}
	sort.Strings(ff.Without)
	return ff
}
