// Package planfile reads gpuscout's YAML usage and plan files into the
// cost engine's types. Numbers are read as exact decimals (never through
// float64); unknown keys are errors, so a typo is reported, not ignored.
package planfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
	"gopkg.in/yaml.v3"
)

// Dec is a decimal read from a YAML scalar, remembering its line.
type Dec struct {
	decimal.Decimal
	Set  bool
	Line int
}

// UnmarshalYAML reads a number, or a percentage such as "10%" (as 10).
func (d *Dec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a number", n.Line)
	}
	s := strings.TrimSuffix(strings.TrimSpace(n.Value), "%")
	v, err := decimal.NewFromString(strings.ReplaceAll(s, "_", ""))
	if err != nil {
		return fmt.Errorf("line %d: %q is not a number", n.Line, n.Value)
	}
	d.Decimal, d.Set, d.Line = v, true, n.Line
	return nil
}

// Usage is the YAML form of pricing.Usage. Every field is optional; unset
// fields keep the defaults (or the plan file's shared usage).
type Usage struct {
	Instances      *int   `yaml:"instances"`
	HoursPerDay    Dec    `yaml:"hours_per_day"`
	DaysPerMonth   Dec    `yaml:"days_per_month"`
	Utilization    Dec    `yaml:"utilization"`
	Months         *int   `yaml:"months"`
	Start          string `yaml:"start"`
	StorageGB      Dec    `yaml:"storage_gb"`
	ObjectGB       Dec    `yaml:"object_storage_gb"`
	EgressGB       Dec    `yaml:"egress_gb"`
	InterRegionGB  Dec    `yaml:"inter_region_gb"`
	LoadBalancers  *int   `yaml:"load_balancers"`
	Support        string `yaml:"support"`
	SpendDiscounts []struct {
		Above      Dec `yaml:"above"`
		Multiplier Dec `yaml:"multiplier"`
	} `yaml:"spend_discounts"`
	HourTiers []struct {
		From       Dec `yaml:"from"`
		Multiplier Dec `yaml:"multiplier"`
	} `yaml:"hour_tiers"`
}

// Apply sets the fields present in y on u.
func (y *Usage) Apply(u *pricing.Usage) error {
	if y == nil {
		return nil
	}
	if y.Instances != nil {
		u.Instances = *y.Instances
	}
	if y.Months != nil {
		u.Months = *y.Months
	}
	if y.LoadBalancers != nil {
		u.LoadBalancers = *y.LoadBalancers
	}
	for _, f := range []struct {
		src Dec
		dst *decimal.Decimal
	}{{y.HoursPerDay, &u.HoursPerDay}, {y.DaysPerMonth, &u.DaysPerMonth}, {y.Utilization, &u.Utilization},
		{y.StorageGB, &u.StorageGB}, {y.ObjectGB, &u.ObjectStorageGB}, {y.EgressGB, &u.EgressGB}, {y.InterRegionGB, &u.InterRegionGB}} {
		if f.src.Set {
			*f.dst = f.src.Decimal
		}
	}
	if y.Start != "" {
		t, err := ParseMonth(y.Start)
		if err != nil {
			return &pricing.FieldError{Field: "start", Msg: err.Error()}
		}
		u.Start = t
	}
	if y.Support != "" {
		if err := SetSupport(u, y.Support); err != nil {
			return err
		}
	}
	if y.SpendDiscounts != nil {
		u.SpendDiscounts = nil
		for _, d := range y.SpendDiscounts {
			u.SpendDiscounts = append(u.SpendDiscounts, pricing.SpendDiscount{Above: d.Above.Decimal, Multiplier: d.Multiplier.Decimal})
		}
	}
	if y.HourTiers != nil {
		u.HourTiers = nil
		for _, t := range y.HourTiers {
			u.HourTiers = append(u.HourTiers, pricing.HourTier{From: t.From.Decimal, Multiplier: t.Multiplier.Decimal})
		}
	}
	return nil
}

// SetSupport reads a support setting: a plan name ("business") or a
// percentage of spend ("10%").
func SetSupport(u *pricing.Usage, s string) error {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "%") {
		v, err := decimal.NewFromString(strings.TrimSpace(strings.TrimSuffix(s, "%")))
		if err != nil {
			return &pricing.FieldError{Field: "support", Msg: fmt.Sprintf("%q is not a percentage such as 10%%", s)}
		}
		u.SupportPercent, u.SupportPlan = v, ""
		return nil
	}
	u.SupportPlan, u.SupportPercent = s, decimal.Zero
	return nil
}

// ParseMonth reads a start date: YYYY-MM or YYYY-MM-DD.
func ParseMonth(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a month (YYYY-MM) or date (YYYY-MM-DD)", s)
}

// decode reads one YAML document strictly into v.
func decode(r io.Reader, v any) error {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the file is empty")
		}
		return cleanYAMLError(err)
	}
	return nil
}

// cleanYAMLError shortens yaml.v3's messages ("yaml: unmarshal errors:\n  line 3: ...").
func cleanYAMLError(err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n")
	msg = strings.TrimPrefix(msg, "yaml: ")
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return errors.New(strings.Join(lines, "; "))
}

// ReadUsage reads a usage file onto the defaults.
func ReadUsage(r io.Reader, u *pricing.Usage) error {
	var y Usage
	if err := decode(r, &y); err != nil {
		return err
	}
	return y.Apply(u)
}

// OnPrem is the YAML form of an on-premises plan; unset figures come from
// the catalog's defaults for the GPU.
type OnPrem struct {
	GPU                 string `yaml:"gpu"`
	Servers             *int   `yaml:"servers"`
	GPUsPerServer       *int   `yaml:"gpus_per_server"`
	Currency            string `yaml:"currency"`
	ServerPrice         Dec    `yaml:"server_price"`
	PowerKW             Dec    `yaml:"power_kw"`
	PUE                 Dec    `yaml:"pue"`
	ElectricityPrice    Dec    `yaml:"electricity_price"`
	ElectricityCurrency string `yaml:"electricity_currency"`
	Colocation          Dec    `yaml:"colocation_per_kw_month"`
	NetworkShare        Dec    `yaml:"network_share"`
	MaintenanceShare    Dec    `yaml:"maintenance_share"`
	ResidualShare       Dec    `yaml:"residual_share"`
	DepreciationYears   Dec    `yaml:"depreciation_years"`
	StaffPerMonth       Dec    `yaml:"staff_per_month"`
	Load                Dec    `yaml:"load"`
	Utilization         Dec    `yaml:"utilization"`
}

// PlanSpec is one plan in a plan file: one offer, several parts, or an
// on-premises plan.
type PlanSpec struct {
	Name  string `yaml:"name"`
	Offer string `yaml:"offer"`
	Usage *Usage `yaml:"usage"`
	Parts []struct {
		Offer string `yaml:"offer"`
		Usage *Usage `yaml:"usage"`
	} `yaml:"parts"`
	OnPrem *OnPrem `yaml:"onprem"`
}

// File is a plan file for `gpuscout tco -f`.
type File struct {
	Months   *int       `yaml:"months"`
	Currency string     `yaml:"currency"`
	Usage    *Usage     `yaml:"usage"`
	Plans    []PlanSpec `yaml:"plans"`
}

// Catalog is what resolving a plan file needs.
type Catalog interface {
	Offer(id string) (*catalog.Offer, bool)
	Offers() []*catalog.Offer
}

// Defaults builds on-premises defaults for a GPU (pricing.Engine.OnPremDefaults).
type Defaults func(gpu string, servers int) (pricing.OnPrem, error)

// Read parses a plan file and resolves its offers. base is the usage every
// part starts from (defaults and command-line flags); the file's shared
// usage and then each part's usage are applied on top.
func Read(r io.Reader, c Catalog, defaults Defaults, base pricing.Usage) (plans []pricing.Plan, months int, currency string, err error) {
	var f File
	if err := decode(r, &f); err != nil {
		return nil, 0, "", err
	}
	months = base.Months
	if f.Months != nil {
		months = *f.Months
	}
	if len(f.Plans) == 0 {
		return nil, 0, "", &pricing.FieldError{Field: "plans", Msg: "the file lists no plans"}
	}
	shared := base
	if err := f.Usage.Apply(&shared); err != nil {
		return nil, 0, "", err
	}
	for i, ps := range f.Plans {
		where := fmt.Sprintf("plans[%d]", i)
		if ps.Name == "" {
			return nil, 0, "", &pricing.FieldError{Field: where + ".name", Msg: "required"}
		}
		p := pricing.Plan{Name: ps.Name}
		type partSpec struct {
			offer string
			usage *Usage
		}
		var parts []partSpec
		if ps.Offer != "" {
			parts = append(parts, partSpec{ps.Offer, ps.Usage})
		}
		for _, x := range ps.Parts {
			parts = append(parts, partSpec{x.Offer, x.Usage})
		}
		for j, x := range parts {
			o, err := ResolveOffer(c, x.offer)
			if err != nil {
				return nil, 0, "", &pricing.FieldError{Field: fmt.Sprintf("%s.parts[%d].offer", where, j), Msg: err.Error()}
			}
			// Shared usage, then the plan's, then the part's own.
			u := shared
			if err := ps.Usage.Apply(&u); err != nil {
				return nil, 0, "", err
			}
			if x.usage != ps.Usage {
				if err := x.usage.Apply(&u); err != nil {
					return nil, 0, "", err
				}
			}
			u.Months = months
			p.Parts = append(p.Parts, pricing.Part{Offer: o, Usage: u})
		}
		if ps.OnPrem != nil {
			op, err := ps.OnPrem.build(defaults)
			if err != nil {
				return nil, 0, "", &pricing.FieldError{Field: where + ".onprem", Msg: err.Error()}
			}
			p.OnPrem = &op
		}
		if len(p.Parts) == 0 && p.OnPrem == nil {
			return nil, 0, "", &pricing.FieldError{Field: where, Msg: "a plan needs an offer, parts or onprem"}
		}
		plans = append(plans, p)
	}
	return plans, months, strings.ToUpper(f.Currency), nil
}

func (y *OnPrem) build(defaults Defaults) (pricing.OnPrem, error) {
	if y.GPU == "" {
		return pricing.OnPrem{}, errors.New("gpu is required (a GPU model ID such as H100-SXM-80GB)")
	}
	servers := 1
	if y.Servers != nil {
		servers = *y.Servers
	}
	p, err := defaults(y.GPU, servers)
	// Missing catalog figures are fine when the file sets them.
	if p.Sources == nil {
		p.Sources = map[string]catalog.Source{}
	}
	user := func(k string) { p.Sources[k] = catalog.Source{Kind: catalog.SourceUser, Ref: "plan file: " + k} }
	if y.GPUsPerServer != nil {
		p.GPUsPerServer = *y.GPUsPerServer
	}
	if y.ServerPrice.Set {
		cur := strings.ToUpper(y.Currency)
		if cur == "" {
			cur = "USD"
		}
		p.ServerPrice = catalog.Money{Amount: y.ServerPrice.Decimal, Currency: cur}
		user(catalog.OnPremServerPrice)
	}
	if y.ElectricityPrice.Set {
		cur := strings.ToUpper(y.ElectricityCurrency)
		if cur == "" {
			cur = p.ServerPrice.Currency
		}
		p.Electricity = catalog.Money{Amount: y.ElectricityPrice.Decimal, Currency: cur}
		user(catalog.OnPremElectricity)
	}
	if y.Colocation.Set {
		p.Colocation = catalog.Money{Amount: y.Colocation.Decimal, Currency: p.ServerPrice.Currency}
		user(catalog.OnPremColocation)
	}
	if y.StaffPerMonth.Set {
		p.StaffMonthly = catalog.Money{Amount: y.StaffPerMonth.Decimal, Currency: p.ServerPrice.Currency}
		user("staff")
	}
	for _, f := range []struct {
		src  Dec
		dst  *decimal.Decimal
		item string
	}{{y.PowerKW, &p.PowerKW, catalog.OnPremServerPowerKW}, {y.PUE, &p.PUE, catalog.OnPremPUE},
		{y.NetworkShare, &p.NetworkShare, catalog.OnPremNetworkShare}, {y.MaintenanceShare, &p.MaintenanceShare, catalog.OnPremMaintenanceShare},
		{y.ResidualShare, &p.ResidualShare, catalog.OnPremResidualShare}, {y.DepreciationYears, &p.DepreciationYrs, catalog.OnPremDepreciationYrs},
		{y.Load, &p.Load, "load"}, {y.Utilization, &p.Utilization, "utilization"}} {
		if f.src.Set {
			*f.dst = f.src.Decimal
			user(f.item)
		}
	}
	if err != nil && (!p.ServerPrice.Amount.IsPositive() || !p.DepreciationYrs.IsPositive()) {
		return p, err
	}
	return p, nil
}

// ResolveOffer finds an offer by ID, with close IDs suggested when unknown.
func ResolveOffer(c Catalog, id string) (*catalog.Offer, error) {
	if id == "" {
		return nil, errors.New("an offer ID is required (provider/instance_type/region/billing; see gpuscout offers)")
	}
	if o, ok := c.Offer(id); ok {
		return o, nil
	}
	// Suggest offers of the same instance type, else of the same provider,
	// else any offer.
	parts := strings.SplitN(id, "/", 3)
	var same, provider, all []string
	for _, o := range c.Offers() {
		oid := o.ID()
		all = append(all, oid)
		if o.Provider == parts[0] {
			provider = append(provider, oid)
			if len(parts) >= 2 && o.InstanceName == parts[1] {
				same = append(same, oid)
			}
		}
	}
	ids := all
	switch {
	case len(same) > 0:
		ids = same
	case len(provider) > 0:
		ids = provider
	}
	return nil, &catalog.NotFoundError{What: "offer", Name: id, Suggestions: catalog.Suggest(id, ids, 3)}
}
