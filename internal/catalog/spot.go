package catalog

import "github.com/shopspring/decimal"

// SpotFacts is what a provider documents about its spot (preemptible,
// 抢占式, 竞价) instances.
type SpotFacts struct {
	Provider string
	// NoticeSeconds is the warning before an interruption; zero when the
	// provider documents none (NoticeKnown false).
	NoticeSeconds  int
	NoticeKnown    bool
	ProtectionHrs  decimal.Decimal // optional guaranteed run time (Alibaba: 1 h)
	Granularity    string          // per-second, per-minute, per-hour
	PriceBehaviour string
	Interruptions  string // what interruption-frequency data the provider publishes
	Notes          string
	Source         Source
}

// InterruptionBand is a published interruption-frequency band for an
// instance type in a region (AWS Spot Instance Advisor: the share of spot
// capacity reclaimed over the trailing month).
type InterruptionBand struct {
	Provider     string
	InstanceName string
	Region       string
	Band         string          // as published: "<5%", "5-10%", ">20%"
	BandZH       string          // the band or prior in Chinese, when it is words
	LowPct       decimal.Decimal // lower bound, percent
	HighPct      decimal.Decimal // upper bound, percent; zero when open-ended
	SavingsPct   decimal.Decimal // published saving over on-demand, when given
	Period       string          // "month"
	MTBIHours    decimal.Decimal // a documented mean time between interruptions (priors), when given
	Notes        string
	Source       Source
}

// SpotFacts returns a provider's spot facts.
func (c *Catalog) SpotFacts(provider string) (*SpotFacts, bool) {
	for _, s := range c.spot {
		if s.Provider == provider {
			return s, true
		}
	}
	return nil, false
}

// InterruptionBand returns the published band for an instance type in a region.
func (c *Catalog) InterruptionBand(provider, instance, region string) (*InterruptionBand, bool) {
	for _, b := range c.interruptions {
		if b.Provider == provider && b.InstanceName == instance && b.Region == region {
			return b, true
		}
	}
	return nil, false
}

func (v *validator) spot(c *Catalog) {
	seen := map[string]bool{}
	for _, s := range c.spot {
		if c.providerByID[s.Provider] == nil {
			v.add(s, s.Provider, "provider", "unknown provider %q", s.Provider)
		}
		if seen[s.Provider] {
			v.add(s, s.Provider, "provider", "duplicate spot facts")
		}
		seen[s.Provider] = true
		if s.NoticeSeconds < 0 {
			v.add(s, s.Provider, "notice_seconds", "must not be negative")
		}
		v.nonNegative(s, s.Provider, "protection_hours", s.ProtectionHrs)
		v.source(s, s.Provider, s.Source)
	}
	for _, b := range c.interruptions {
		id := b.Provider + "/" + b.InstanceName + "/" + b.Region
		if b.IsPrior() || b.Region == AnyInstance {
			if !b.IsPrior() || b.Region != AnyInstance {
				v.add(b, id, "region", "a provider-level prior has both instance_type and region %q", AnyInstance)
			}
			v.nonNegative(b, id, "mtbi_hours", b.MTBIHours)
			if b.BandZH == "" {
				v.add(b, id, "band_zh", "a provider-level prior needs its Chinese text")
			}
			v.source(b, id, b.Source)
			continue
		}
		if c.instanceByID[b.Provider+"/"+b.InstanceName] == nil {
			v.add(b, id, "instance_type", "unknown instance type %s/%s", b.Provider, b.InstanceName)
		}
		if c.regionByKey[b.Provider+"/"+b.Region] == nil {
			v.add(b, id, "region", "unknown region %q for provider %s", b.Region, b.Provider)
		}
		v.nonNegative(b, id, "low_pct", b.LowPct)
		if b.HighPct.IsPositive() && !b.HighPct.GreaterThan(b.LowPct) {
			v.add(b, id, "high_pct", "must be above low_pct")
		}
		if b.HighPct.GreaterThan(decimal.NewFromInt(100)) {
			v.add(b, id, "high_pct", "a percentage cannot exceed 100")
		}
		v.source(b, id, b.Source)
	}
}
