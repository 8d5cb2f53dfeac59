package pricing

import (
	"fmt"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/shopspring/decimal"
)

// OnPrem is a plan to buy GPU servers and run them in a colocation
// facility. Every figure can be set by the user; OnPremDefaults fills them
// from the catalog's sourced figures.
type OnPrem struct {
	GPU           string // GPU model ID of the servers
	Servers       int
	GPUsPerServer int
	ServerPrice   catalog.Money // per server
	PowerKW       decimal.Decimal
	PUE           decimal.Decimal
	// Electricity is the price per kWh; Colocation per kW-month of IT load.
	Electricity catalog.Money
	Colocation  catalog.Money
	// Shares of hardware capex: network and installation (one-time),
	// maintenance (per year), residual value at the end of depreciation.
	NetworkShare     decimal.Decimal
	MaintenanceShare decimal.Decimal
	ResidualShare    decimal.Decimal
	DepreciationYrs  decimal.Decimal
	StaffMonthly     catalog.Money
	// Load is the average share of maximum power drawn (default 1: the
	// datasheet maximum, a conservative bound).
	Load decimal.Decimal
	// Utilization is the share of GPU-hours doing useful work (for cost per
	// used GPU-hour).
	Utilization decimal.Decimal
	// Sources of each figure, by field name.
	Sources map[string]catalog.Source
}

// OnPremDefaults fills an on-premises plan for gpu from the catalog's
// figures: the server price and power for that GPU, and the shared figures
// (PUE, electricity, colocation, shares, depreciation). Missing figures are
// named in the error.
func (e *Engine) OnPremDefaults(gpu string, servers int) (OnPrem, error) {
	p := OnPrem{GPU: gpu, Servers: servers, GPUsPerServer: 8, Load: one, Utilization: one, Sources: map[string]catalog.Source{}}
	first := func(item string) *catalog.OnPremFigure {
		fs := e.Prices.OnPrem(item, gpu)
		if len(fs) == 0 {
			return nil
		}
		return fs[0]
	}
	var missing []string
	set := func(item string, apply func(f *catalog.OnPremFigure)) {
		f := first(item)
		if f == nil {
			missing = append(missing, item)
			return
		}
		apply(f)
		p.Sources[item] = f.Source
	}
	set(catalog.OnPremServerPrice, func(f *catalog.OnPremFigure) {
		if f.GPU != gpu {
			missing = append(missing, catalog.OnPremServerPrice+" for "+gpu)
		}
		p.ServerPrice = catalog.Money{Amount: f.Value, Currency: f.Currency}
	})
	set(catalog.OnPremServerPowerKW, func(f *catalog.OnPremFigure) { p.PowerKW = f.Value })
	set(catalog.OnPremPUE, func(f *catalog.OnPremFigure) { p.PUE = f.Value })
	set(catalog.OnPremElectricity, func(f *catalog.OnPremFigure) { p.Electricity = catalog.Money{Amount: f.Value, Currency: f.Currency} })
	set(catalog.OnPremColocation, func(f *catalog.OnPremFigure) { p.Colocation = catalog.Money{Amount: f.Value, Currency: f.Currency} })
	set(catalog.OnPremNetworkShare, func(f *catalog.OnPremFigure) { p.NetworkShare = f.Value })
	set(catalog.OnPremMaintenanceShare, func(f *catalog.OnPremFigure) { p.MaintenanceShare = f.Value })
	set(catalog.OnPremResidualShare, func(f *catalog.OnPremFigure) { p.ResidualShare = f.Value })
	set(catalog.OnPremDepreciationYrs, func(f *catalog.OnPremFigure) { p.DepreciationYrs = f.Value })
	if len(missing) > 0 {
		return p, fmt.Errorf("on-premises plan for %s: the catalog has no figure for %v; set them in the plan", gpu, missing)
	}
	return p, nil
}

func (p OnPrem) validate() error {
	switch {
	case p.Servers < 1:
		return fieldErr("onprem.servers", "must be at least 1")
	case p.GPUsPerServer < 1:
		return fieldErr("onprem.gpus_per_server", "must be at least 1")
	case !p.ServerPrice.Amount.IsPositive():
		return fieldErr("onprem.server_price", "must be positive")
	case p.PowerKW.IsNegative(), p.PUE.IsNegative(), p.Electricity.Amount.IsNegative(), p.Colocation.Amount.IsNegative():
		return fieldErr("onprem", "power, PUE, electricity and colocation must not be negative")
	case p.PUE.IsPositive() && p.PUE.LessThan(one):
		return fieldErr("onprem.pue", "PUE is at least 1, got %s", p.PUE)
	case !p.DepreciationYrs.IsPositive():
		return fieldErr("onprem.depreciation_years", "must be positive")
	case p.ResidualShare.IsNegative() || p.ResidualShare.GreaterThan(one):
		return fieldErr("onprem.residual_share", "a fraction between 0 and 1")
	case p.Utilization.IsNegative() || p.Utilization.GreaterThan(one) || p.Load.IsNegative() || p.Load.GreaterThan(one):
		return fieldErr("onprem.utilization", "utilization and load are fractions between 0 and 1")
	}
	return nil
}

// OnPremCost is the bill of an on-premises plan over months:
//
//	hardware     = servers × server price, paid in month 1
//	network      = hardware × network share, paid in month 1
//	power        = servers × kW × load × PUE × 730 h × price per kWh, monthly
//	colocation   = servers × kW × price per kW-month, monthly
//	maintenance  = hardware × maintenance share / 12, monthly
//	staff        = staff per month
//	resale value = −(book value at the end of the horizon), in the last month:
//	               straight-line from hardware cost to hardware × residual
//	               share over the depreciation period
func (e *Engine) OnPremCost(p OnPrem, months int) (*Breakdown, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if months < 1 {
		return nil, fieldErr("months", "the horizon must be at least 1 month")
	}
	cur := p.ServerPrice.Currency
	servers := decimal.NewFromInt(int64(p.Servers))
	load, util := p.Load, p.Utilization
	if load.IsZero() {
		load = one
	}
	if util.IsZero() {
		util = one
	}
	b := &Breakdown{Label: fmt.Sprintf("on-premises %d× %d-GPU %s server", p.Servers, p.GPUsPerServer, p.GPU), Currency: cur,
		Usage: Usage{Instances: p.Servers, Months: months, HoursPerDay: decimal.NewFromInt(24), Utilization: util},
		GPUs:  servers.Mul(decimal.NewFromInt(int64(p.GPUsPerServer))), UsedHoursPerMonth: hoursPerMonth.Mul(util)}
	src := func(k string) catalog.Source {
		if s, ok := p.Sources[k]; ok {
			return s
		}
		return catalog.Source{Kind: catalog.SourceUser, Ref: "plan: " + k}
	}
	hardware := p.ServerPrice.Amount.Mul(servers)
	once := func(amount decimal.Decimal) []decimal.Decimal {
		c := zeros(months)
		c[0] = amount
		return c
	}
	add := func(c Component) { b.Components = append(b.Components, c) }
	add(Component{Name: "Hardware (GPU servers)", Unit: "server", Quantity: servers, UnitPrice: p.ServerPrice,
		Cash: once(hardware), Source: src(catalog.OnPremServerPrice)})
	if p.NetworkShare.IsPositive() {
		add(Component{Name: "Network and installation", Unit: "share of hardware", Quantity: p.NetworkShare,
			UnitPrice: catalog.Money{Amount: hardware, Currency: cur}, Cash: once(hardware.Mul(p.NetworkShare)),
			Source: src(catalog.OnPremNetworkShare)})
	}
	kw := p.PowerKW.Mul(servers)
	if kw.IsPositive() && p.Electricity.Amount.IsPositive() {
		pue := p.PUE
		if pue.IsZero() {
			pue = one
		}
		kwh := kw.Mul(load).Mul(pue).Mul(hoursPerMonth)
		price, err := e.convert(p.Electricity.Amount, p.Electricity.Currency, cur)
		if err != nil {
			return nil, fmt.Errorf("electricity: %w", err)
		}
		add(Component{Name: "Power", Unit: "kWh", Quantity: kwh, UnitPrice: p.Electricity, Cash: flat(months, kwh.Mul(price)),
			Source: src(catalog.OnPremElectricity), Note: i18n.M("pr.comp.power", kw, load, pue)})
	}
	if kw.IsPositive() && p.Colocation.Amount.IsPositive() {
		price, err := e.convert(p.Colocation.Amount, p.Colocation.Currency, cur)
		if err != nil {
			return nil, fmt.Errorf("colocation: %w", err)
		}
		add(Component{Name: "Colocation", Unit: "kW-month", Quantity: kw, UnitPrice: p.Colocation, Cash: flat(months, kw.Mul(price)),
			Source: src(catalog.OnPremColocation)})
	}
	if p.MaintenanceShare.IsPositive() {
		per := hardware.Mul(p.MaintenanceShare).Div(decimal.NewFromInt(12))
		add(Component{Name: "Maintenance and support contracts", Unit: "share of hardware per year", Quantity: p.MaintenanceShare,
			UnitPrice: catalog.Money{Amount: hardware, Currency: cur}, Cash: flat(months, per), Source: src(catalog.OnPremMaintenanceShare)})
	}
	if p.StaffMonthly.Amount.IsPositive() {
		price, err := e.convert(p.StaffMonthly.Amount, p.StaffMonthly.Currency, cur)
		if err != nil {
			return nil, fmt.Errorf("staff: %w", err)
		}
		add(Component{Name: "Staff", Unit: "month", Quantity: one, UnitPrice: p.StaffMonthly, Cash: flat(months, price), Source: src("staff")})
	}
	b.Notes = append(b.Notes, i18n.M("pr.note.onprem"))
	book := BookValue(hardware, p.ResidualShare, p.DepreciationYrs, months)
	if book.IsPositive() {
		c := zeros(months)
		c[months-1] = book.Neg()
		add(Component{Name: "Resale value at the end of the horizon", Unit: "server", Quantity: servers,
			UnitPrice: catalog.Money{Amount: book.Div(servers).Neg(), Currency: cur}, Cash: c,
			Source: src(catalog.OnPremResidualShare),
			Note:   i18n.M("pr.comp.depreciation", p.DepreciationYrs, p.ResidualShare.Mul(hundred))})
	}
	return b, nil
}

// BookValue is the value left of hardware after months of straight-line
// depreciation to residualShare × hardware over depreciationYears.
func BookValue(hardware, residualShare, depreciationYears decimal.Decimal, months int) decimal.Decimal {
	residual := hardware.Mul(residualShare)
	life := depreciationYears.Mul(decimal.NewFromInt(12))
	if !life.IsPositive() {
		return residual
	}
	frac := decimal.Min(one, decimal.NewFromInt(int64(months)).Div(life))
	return hardware.Sub(hardware.Sub(residual).Mul(frac))
}
