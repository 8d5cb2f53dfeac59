package catalog

// EcosystemFact is one fact about a provider's services around its GPUs:
// its managed ML platform, Kubernetes service, acceleration libraries,
// Windows images, WeChat integration, console languages, support plans,
// compliance certifications, free trials, where its regions are, and whether it
// is a marketplace of independent hosts (category marketplace).
type EcosystemFact struct {
	Provider string
	Category string // ml-platform, kubernetes, acceleration, windows, wechat, console-language, support, compliance, free-trial, user-regions, marketplace
	Key      string
	ValueEN  string
	ValueZH  string
	Notes    string
	Source   Source
}

// Ecosystem returns every ecosystem fact, in file order.
func (c *Catalog) Ecosystem() []*EcosystemFact { return c.ecosystem }

// HasEcosystem reports whether a provider has a fact in a category.
func (c *Catalog) HasEcosystem(provider, category string) bool {
	for _, f := range c.ecosystem {
		if f.Provider == provider && f.Category == category {
			return true
		}
	}
	return false
}

// CategoryMarketplace marks a provider that is a marketplace: independent
// hosts list offers at their own prices, so its offers are snapshots of
// asking prices rather than list prices, with no platform-wide SLA.
const CategoryMarketplace = "marketplace"

// IsMarketplace reports whether a provider is a marketplace of independent
// hosts (it has a fact in the marketplace category).
func (c *Catalog) IsMarketplace(provider string) bool {
	return c.HasEcosystem(provider, CategoryMarketplace)
}

// EcosystemOf returns a provider's facts in a category.
func (c *Catalog) EcosystemOf(provider, category string) []*EcosystemFact {
	var out []*EcosystemFact
	for _, f := range c.ecosystem {
		if f.Provider == provider && f.Category == category {
			out = append(out, f)
		}
	}
	return out
}

func (v *validator) ecosystem(c *Catalog) {
	for _, f := range c.ecosystem {
		id := f.Provider + "/" + f.Category + "/" + f.Key
		if c.providerByID[f.Provider] == nil {
			v.add(f, id, "provider", "unknown provider %q", f.Provider)
		}
		if f.Category == "" {
			v.add(f, id, "category", "required")
		}
		if f.ValueEN == "" {
			v.add(f, id, "value_en", "required")
		}
		v.source(f, id, f.Source)
	}
}
