package catalog

import (
	"sort"
	"strconv"
)

// AnyInstance is the instance_type and region of a provider-level
// interruption prior in interruptions.csv: a documented fact that applies to
// every spot offer of the provider without a band of its own.
const AnyInstance = "*"

// BillingModel says whether a provider sells a billing model and, where the
// catalog holds no price for it, why (the sources searched and what was
// missing). It turns a missing price into a reported gap instead of a
// silent absence.
type BillingModel struct {
	Provider    string
	Billing     Billing
	Sold        bool   // the provider documents the model (Source says where)
	GapReason   string // why offers lack it, when they do; empty when none is missing
	GapReasonZH string // the same in Chinese
	Notes       string
	Source      Source
}

// IsPrior reports whether the band is a provider-level prior (instance type
// and region "*") rather than a figure published for one instance type in
// one region.
func (b *InterruptionBand) IsPrior() bool { return b.InstanceName == AnyInstance }

// InterruptionPrior returns a provider's documented interruption prior:
// what the provider publishes about interruptions in general, used for spot
// offers without a band of their own.
func (c *Catalog) InterruptionPrior(provider string) (*InterruptionBand, bool) {
	for _, b := range c.interruptions {
		if b.Provider == provider && b.IsPrior() {
			return b, true
		}
	}
	return nil, false
}

// BillingModels returns the declared billing models of a provider ("" for
// all), in catalog order.
func (c *Catalog) BillingModels(provider string) []*BillingModel {
	var out []*BillingModel
	for _, m := range c.billingModels {
		if provider == "" || m.Provider == provider {
			out = append(out, m)
		}
	}
	return out
}

// Gap is a billing model a provider sells for an instance type in a region
// (it has an on-demand offer there) for which the catalog holds no price.
type Gap struct {
	Provider, InstanceName, Region string
	Billing                        Billing
	Reason, ReasonZH               string
}

// Gaps lists, for every on-demand offer, the billing models its provider
// sells (billing_models.csv) that the catalog has no offer for, sorted by
// provider, billing, instance type and region.
func (c *Catalog) Gaps() []Gap {
	var out []Gap
	c.eachGap(func(o *Offer, m *BillingModel) {
		out = append(out, Gap{Provider: o.Provider, InstanceName: o.InstanceName, Region: o.RegionCode, Billing: m.Billing, Reason: m.GapReason, ReasonZH: m.GapReasonZH})
	})
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Provider != b.Provider {
			return a.Provider < b.Provider
		}
		if a.Billing != b.Billing {
			return billingIndex(a.Billing) < billingIndex(b.Billing)
		}
		if a.InstanceName != b.InstanceName {
			return a.InstanceName < b.InstanceName
		}
		return a.Region < b.Region
	})
	return out
}

// GapsOf lists the gaps of one on-demand offer (as Gaps lists them, in
// billing order): the billing models its provider sells that the catalog
// has no offer for, for the same instance type and region. It looks up
// only that offer's siblings, so a reader of a few offers does not pay for
// every offer of the catalog. Nil for an unknown or not on-demand offer.
func (c *Catalog) GapsOf(offerID string) []Gap {
	o, ok := c.Offer(offerID)
	if !ok || o.Billing != OnDemand {
		return nil
	}
	var out []Gap
	for _, m := range c.billingModels {
		if !m.Sold || m.Provider != o.Provider {
			continue
		}
		if _, ok := c.Offer(o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/" + string(m.Billing)); !ok {
			out = append(out, Gap{Provider: o.Provider, InstanceName: o.InstanceName, Region: o.RegionCode, Billing: m.Billing, Reason: m.GapReason, ReasonZH: m.GapReasonZH})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return billingIndex(out[i].Billing) < billingIndex(out[j].Billing) })
	return out
}

// eachGap calls f for every on-demand offer and sold billing model of its
// provider without an offer of that model for the same instance type and
// region.
func (c *Catalog) eachGap(f func(*Offer, *BillingModel)) {
	sold := map[string][]*BillingModel{}
	for _, m := range c.billingModels {
		if m.Sold {
			sold[m.Provider] = append(sold[m.Provider], m)
		}
	}
	type key struct {
		provider, instance, region string
		billing                    Billing
	}
	have := make(map[key]bool, len(c.offers))
	for _, o := range c.offers {
		have[key{o.Provider, o.InstanceName, o.RegionCode, o.Billing}] = true
	}
	for _, o := range c.offers {
		if o.Billing != OnDemand {
			continue
		}
		for _, m := range sold[o.Provider] {
			if !have[key{o.Provider, o.InstanceName, o.RegionCode, m.Billing}] {
				f(o, m)
			}
		}
	}
}

func billingIndex(b Billing) int {
	for i, v := range billingCodes {
		if v == b {
			return i
		}
	}
	return len(billingCodes)
}

// SpotCoverage counts spot offers by what the catalog knows about their
// interruptions and whether their on-demand sibling exists.
type SpotCoverage struct {
	Offers       int // spot offers
	WithSibling  int // with an on-demand offer for the same instance type and region
	Band         int // with a band published for their instance type and region
	Prior        int // without a band but with a documented provider-level prior
	None         int // neither: the spot engine falls back to its stated assumption
	PriorRated   int // of Prior: priors that carry a rate (a band or a mean time)
	ByProvider   map[string]*SpotCoverage
	ProviderList []string // providers with spot offers, sorted
}

// Covered is the share of spot offers with interruption facts (a band or a
// documented prior), 0..1.
func (s SpotCoverage) Covered() float64 {
	if s.Offers == 0 {
		return 0
	}
	return float64(s.Band+s.Prior) / float64(s.Offers)
}

// SpotCoverage reports the interruption facts and on-demand siblings of
// the catalog's spot offers.
func (c *Catalog) SpotCoverage() SpotCoverage {
	s := SpotCoverage{ByProvider: map[string]*SpotCoverage{}}
	for _, o := range c.offers {
		if o.Billing != Spot {
			continue
		}
		p := s.ByProvider[o.Provider]
		if p == nil {
			p = &SpotCoverage{}
			s.ByProvider[o.Provider] = p
			s.ProviderList = append(s.ProviderList, o.Provider)
		}
		for _, t := range []*SpotCoverage{&s, p} {
			t.Offers++
			if _, ok := c.Offer(o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/" + string(OnDemand)); ok {
				t.WithSibling++
			}
			if _, ok := c.InterruptionBand(o.Provider, o.InstanceName, o.RegionCode); ok {
				t.Band++
			} else if pr, ok := c.InterruptionPrior(o.Provider); ok {
				t.Prior++
				if pr.Rated() {
					t.PriorRated++
				}
			} else {
				t.None++
			}
		}
	}
	sort.Strings(s.ProviderList)
	return s
}

// Rated reports whether a band or prior carries a rate the spot engine can
// use (a percentage bound or a mean time between interruptions).
func (b *InterruptionBand) Rated() bool {
	return b.HighPct.IsPositive() || b.LowPct.IsPositive() || b.MTBIHours.IsPositive()
}

// spotSiblings enforces that every spot offer has an on-demand offer for the
// same instance type and region: the spot engine compares against it, and a
// spot price with nothing to compare to cannot be explained.
func (v *validator) spotSiblings(c *Catalog) {
	v.spotSiblingsOf(c.offers)
	v.spotSiblingsOf(c.windows)
}

// spotSiblingsOf is spotSiblings for the offers of one operating system.
func (v *validator) spotSiblingsOf(offers []*Offer) {
	for _, o := range offers {
		if o.Billing != Spot {
			continue
		}
		if v.onDemand(o) == nil {
			v.add(o, o.ID(), "billing", "spot offer without an on-demand offer for %s in %s: import the on-demand price or drop the spot offer",
				o.InstanceName, o.RegionCode)
		}
	}
}

func (v *validator) billingModels(c *Catalog) {
	seen := map[string]bool{}
	for _, m := range c.billingModels {
		id := m.Provider + "/" + string(m.Billing)
		if c.providerByID[m.Provider] == nil {
			v.add(m, id, "provider", "unknown provider %q", m.Provider)
		}
		if !m.Billing.Valid() {
			v.add(m, id, "billing", "%q is not a canonical billing code", m.Billing)
		}
		if seen[id] {
			v.add(m, id, "billing", "duplicate billing model")
		}
		seen[id] = true
		if m.GapReason != "" && m.GapReasonZH == "" {
			v.add(m, id, "gap_reason_zh", "a gap reason needs its Chinese text")
		}
		v.source(m, id, m.Source)
	}
}

// CoverageModel groups billing codes for coverage reports: the family and
// the term ("reserved-1y" covers the no-, partial- and all-upfront
// variants), so 包月, 包年 and 3-year subscriptions stay separate models.
func CoverageModel(b Billing) string {
	f := b.Family()
	switch b.TermHours() {
	case HoursPerMonth:
		return f + "-1m"
	case HoursPerYear:
		return f + "-1y"
	case HoursPer3Year:
		return f + "-3y"
	}
	return f
}

// CoverageMatrix is the provider × billing-model table: for each model
// (CoverageModel) with an offer or a gap somewhere, each provider's offers
// and gaps.
type CoverageMatrix struct {
	Models []string      // columns, in canonical billing order
	Rows   []CoverageRow // one per provider, in catalog order
}

// CoverageRow is one provider's line of a CoverageMatrix; Offers and Gaps
// are indexed like Models.
type CoverageRow struct {
	Provider     string
	Offers, Gaps []int
}

// CoverageMatrix builds the provider × billing-model table from s.
func (c *Catalog) CoverageMatrix(s Stats) CoverageMatrix {
	used := map[string]bool{}
	for _, ps := range s.ByProvider {
		for b := range ps.OffersByBilling {
			used[CoverageModel(b)] = true
		}
		for b := range ps.GapsByBilling {
			used[CoverageModel(b)] = true
		}
	}
	var m CoverageMatrix
	col := map[string]int{}
	for _, b := range billingCodes {
		if k := CoverageModel(b); used[k] {
			if _, ok := col[k]; !ok {
				col[k] = len(m.Models)
				m.Models = append(m.Models, k)
			}
		}
	}
	for _, p := range c.providers {
		row := CoverageRow{Provider: p.ID, Offers: make([]int, len(m.Models)), Gaps: make([]int, len(m.Models))}
		if ps := s.ByProvider[p.ID]; ps != nil {
			for b, n := range ps.OffersByBilling {
				row.Offers[col[CoverageModel(b)]] += n
			}
			for b, n := range ps.GapsByBilling {
				row.Gaps[col[CoverageModel(b)]] += n
			}
		}
		m.Rows = append(m.Rows, row)
	}
	return m
}

// Cell renders column i as "12", "12 ✗40" (offers and gaps), "- ✗40" or "-".
func (r CoverageRow) Cell(i int) string {
	cell := "-"
	if r.Offers[i] > 0 {
		cell = strconv.Itoa(r.Offers[i])
	}
	if r.Gaps[i] > 0 {
		cell += " ✗" + strconv.Itoa(r.Gaps[i])
	}
	return cell
}
