package catalog

import (
	"sort"
	"time"
)

// ProviderStats counts one provider's records.
type ProviderStats struct {
	InstanceTypes int
	Offers        int
	Regions       int
	Billing       []Billing // billing models with at least one offer, in canonical order
	// OffersByBilling counts offers per billing model.
	OffersByBilling map[Billing]int
	// GapsByBilling counts, per billing model the provider sells
	// (billing_models.csv), the on-demand offers with no price for it.
	GapsByBilling map[Billing]int
}

// Stats summarises a catalog.
type Stats struct {
	Providers, Regions, GPUs, InstanceTypes, Offers, Claims int
	ByProvider                                              map[string]*ProviderStats
	OldestAsOf, NewestAsOf                                  time.Time // over dated offers
	// UndatedOffers counts the offers whose source shows no date
	// (Source.Undated); they are outside the as-of span.
	UndatedOffers int
	BySourceKind  map[SourceKind]int
	// Filled by StatsWithCoverage only (they cost a pass over every offer
	// and billing model, too much for every page header).
	Spot SpotCoverage
	Gaps int // see Catalog.Gaps
}

// Stats counts the catalog's records per provider and the span of its
// offers' as-of dates.
func (c *Catalog) Stats() Stats {
	s := Stats{Providers: len(c.providers), Regions: len(c.regions), GPUs: len(c.gpus),
		InstanceTypes: len(c.instances), Offers: len(c.offers), Claims: len(c.claims),
		ByProvider: map[string]*ProviderStats{}, BySourceKind: map[SourceKind]int{}}
	for _, p := range c.providers {
		s.ByProvider[p.ID] = &ProviderStats{OffersByBilling: map[Billing]int{}, GapsByBilling: map[Billing]int{}}
	}
	for _, r := range c.regions {
		s.ByProvider[r.Provider].Regions++
	}
	for _, it := range c.instances {
		s.ByProvider[it.Provider].InstanceTypes++
	}
	billing := map[string]map[Billing]bool{}
	for _, o := range c.offers {
		ps := s.ByProvider[o.Provider]
		ps.Offers++
		ps.OffersByBilling[o.Billing]++
		if billing[o.Provider] == nil {
			billing[o.Provider] = map[Billing]bool{}
		}
		billing[o.Provider][o.Billing] = true
		s.BySourceKind[o.Source.Kind]++
		if o.Source.Undated() {
			s.UndatedOffers++
		}
		if o.Source.AsOf.IsZero() {
			continue
		}
		if s.OldestAsOf.IsZero() || o.Source.AsOf.Before(s.OldestAsOf) {
			s.OldestAsOf = o.Source.AsOf
		}
		if o.Source.AsOf.After(s.NewestAsOf) {
			s.NewestAsOf = o.Source.AsOf
		}
	}
	for id, set := range billing {
		for _, b := range billingCodes {
			if set[b] {
				s.ByProvider[id].Billing = append(s.ByProvider[id].Billing, b)
			}
		}
	}
	return s
}

// NewestAsOf is Stats().NewestAsOf, the newest as-of date over offers
// (zero without offers), without the rest of the statistics.
func (c *Catalog) NewestAsOf() time.Time {
	var t time.Time
	for _, o := range c.offers {
		if o.Source.AsOf.After(t) {
			t = o.Source.AsOf
		}
	}
	return t
}

// StatsWithCoverage is Stats plus the billing-model coverage gaps
// (GapsByBilling, Gaps) and the spot coverage: what catalog stats, its API
// and the About page show.
func (c *Catalog) StatsWithCoverage() Stats {
	s := c.Stats()
	c.eachGap(func(o *Offer, m *BillingModel) {
		s.ByProvider[o.Provider].GapsByBilling[m.Billing]++
		s.Gaps++
	})
	s.Spot = c.SpotCoverage()
	return s
}

// SourceUse is one source reference and how many records cite it.
type SourceUse struct {
	Kind    SourceKind
	Ref     string
	Records int
	// Oldest and Newest span the citing records' as-of dates (zero when
	// every one is undated).
	Oldest time.Time
	Newest time.Time
	// Undated counts the citing records without an as-of date, and
	// ReadOn is the latest day one of them was read.
	Undated int
	ReadOn  time.Time
}

// Sources lists every distinct source in the catalog with how many records
// cite it, most-cited first.
func (c *Catalog) Sources() []SourceUse {
	m := map[string]*SourceUse{}
	add := func(s Source) {
		k := string(s.Kind) + "\x00" + s.Ref
		u := m[k]
		if u == nil {
			u = &SourceUse{Kind: s.Kind, Ref: s.Ref}
			m[k] = u
		}
		u.Records++
		if s.AsOf.IsZero() {
			if s.Undated() {
				u.Undated++
				if s.ReadOn.After(u.ReadOn) {
					u.ReadOn = s.ReadOn
				}
			}
			return
		}
		if u.Oldest.IsZero() || s.AsOf.Before(u.Oldest) {
			u.Oldest = s.AsOf
		}
		if s.AsOf.After(u.Newest) {
			u.Newest = s.AsOf
		}
	}
	for _, p := range c.providers {
		add(p.Source)
	}
	for _, r := range c.regions {
		add(r.Source)
	}
	for _, g := range c.gpus {
		add(g.Source)
	}
	for _, it := range c.instances {
		add(it.Source)
	}
	for _, o := range c.offers {
		add(o.Source)
	}
	out := make([]SourceUse, 0, len(m))
	for _, u := range m {
		out = append(out, *u)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Records != out[j].Records {
			return out[i].Records > out[j].Records
		}
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Ref < out[j].Ref
	})
	return out
}
