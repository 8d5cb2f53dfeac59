package catalog

import "github.com/shopspring/decimal"

// Ancillary cost items: what a bill holds besides the instances.
const (
	ItemEgressInternet      = "egress-internet"       // data transfer out to the internet, per GB
	ItemTransferInterRegion = "transfer-inter-region" // data transfer between regions, per GB
	ItemBlockStorage        = "block-storage"         // the default SSD volume type, per GB-month
	ItemObjectStorage       = "object-storage"        // standard object storage, per GB-month
	ItemLoadBalancer        = "load-balancer"         // a basic load balancer, per hour
)

var ancillaryItems = []string{ItemEgressInternet, ItemTransferInterRegion, ItemBlockStorage, ItemObjectStorage, ItemLoadBalancer}

// AncillaryItems lists the known ancillary items.
func AncillaryItems() []string { return append([]string(nil), ancillaryItems...) }

// AncillaryPrice is one price (or one tier of a tiered price) of an
// ancillary item for a provider, in one region or all ("*").
type AncillaryPrice struct {
	Provider string
	Region   string // a region code, or "*" for every region of the provider
	Item     string
	// TierStart and TierEnd bound the monthly quantity this price applies
	// to; TierEnd zero means unbounded.
	TierStart decimal.Decimal
	TierEnd   decimal.Decimal
	Unit      string // GB, GB-month, hour
	Price     Money
	Notes     string
	Source    Source
}

// SupportTier is one spend tier of a paid support plan: Percent of the
// monthly spend that falls in [TierStart, TierEnd), with the plan's monthly
// minimum fee.
type SupportTier struct {
	Provider       string
	Plan           string
	TierStart      decimal.Decimal
	TierEnd        decimal.Decimal // zero = unbounded
	Percent        decimal.Decimal // e.g. 10 for 10 %
	MinimumMonthly decimal.Decimal
	Currency       string
	Notes          string
	Source         Source
}

// OnPremFigure is one default figure for an on-premises GPU plan: a server
// price, power draw, PUE, electricity or colocation price, or a share of
// capex. GPU is set for figures tied to a GPU model.
type OnPremFigure struct {
	Item     string
	GPU      string
	Value    decimal.Decimal
	Unit     string
	Currency string // for money figures
	Notes    string
	Source   Source
}

// On-premises figure items.
const (
	OnPremServerPrice      = "server-price"
	OnPremServerPowerKW    = "server-power-kw"
	OnPremPUE              = "pue"
	OnPremElectricity      = "electricity-price"
	OnPremColocation       = "colocation"
	OnPremNetworkShare     = "network-share"
	OnPremMaintenanceShare = "maintenance-share"
	OnPremResidualShare    = "residual-share"
	OnPremDepreciationYrs  = "depreciation-years"
)

var onPremItems = []string{OnPremServerPrice, OnPremServerPowerKW, OnPremPUE, OnPremElectricity, OnPremColocation,
	OnPremNetworkShare, OnPremMaintenanceShare, OnPremResidualShare, OnPremDepreciationYrs}

// Ancillary returns the prices of an item for a provider in a region,
// ordered by tier: region-specific prices when there are any, else the
// provider-wide ("*") ones.
func (c *Catalog) Ancillary(provider, region, item string) []*AncillaryPrice {
	var exact, wide []*AncillaryPrice
	for _, a := range c.ancillary {
		if a.Provider != provider || a.Item != item {
			continue
		}
		switch a.Region {
		case region:
			exact = append(exact, a)
		case "*":
			wide = append(wide, a)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return wide
}

// SupportPlan returns the tiers of a provider's support plan (case-insensitive name).
func (c *Catalog) SupportPlan(provider, plan string) []*SupportTier {
	var out []*SupportTier
	for _, s := range c.support {
		if s.Provider == provider && equalFold(s.Plan, plan) {
			out = append(out, s)
		}
	}
	return out
}

// SupportPlans returns every support tier in the catalog.
func (c *Catalog) SupportPlans() []*SupportTier { return c.support }

// AllAncillary returns every ancillary price in the catalog.
func (c *Catalog) AllAncillary() []*AncillaryPrice { return c.ancillary }

// OnPrem returns the on-premises figures for an item: those for gpu first,
// then GPU-independent ones.
func (c *Catalog) OnPrem(item, gpu string) []*OnPremFigure {
	var exact, any []*OnPremFigure
	for _, f := range c.onprem {
		if f.Item != item {
			continue
		}
		switch f.GPU {
		case gpu:
			if gpu != "" {
				exact = append(exact, f)
			} else {
				any = append(any, f)
			}
		case "":
			any = append(any, f)
		}
	}
	return append(exact, any...)
}

// AllOnPrem returns every on-premises figure.
func (c *Catalog) AllOnPrem() []*OnPremFigure { return c.onprem }
