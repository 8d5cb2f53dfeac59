package document

import (
	"encoding/json"
	"fmt"

	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
)

// Schema names of the cost documents.
const (
	SchemaCost = "gpuscout/cost@v1"
	SchemaTCO  = "gpuscout/tco@v1"
)

// Money is an amount with its currency.
type Money struct {
	Amount   json.Number `json:"amount"`
	Currency string      `json:"currency"`
}

// CostComponent is one line of a bill.
type CostComponent struct {
	Name         string      `json:"name"`
	Unit         string      `json:"unit"`
	Quantity     json.Number `json:"quantity"`
	UnitPrice    Money       `json:"unit_price"`
	Monthly      json.Number `json:"monthly"`
	Total        json.Number `json:"total"`
	AfterHorizon json.Number `json:"after_horizon"`
	Source       Source      `json:"source"`
	Note         string      `json:"note,omitempty"`
	// Currency is the currency of Monthly, Total and AfterHorizon (the
	// bill's); TotalInPlanCurrency is Total converted into the currency of
	// the advisor plan it belongs to (advisor plans only), so that a
	// plan's components sum to its total.
	Currency            string      `json:"currency,omitempty"`
	TotalInPlanCurrency json.Number `json:"total_in_plan_currency,omitempty"`
}

// MonthAmount is one month of a cash-flow series.
type MonthAmount struct {
	Month  int         `json:"month"`
	Date   string      `json:"date,omitempty"`
	Amount json.Number `json:"amount"`
}

// CostUsage echoes the usage a bill was computed for.
type CostUsage struct {
	Instances         int         `json:"instances"`
	HoursPerDay       json.Number `json:"hours_per_day"`
	DaysPerMonth      json.Number `json:"days_per_month,omitempty"`
	Utilization       json.Number `json:"utilization"`
	UsedHoursPerMonth json.Number `json:"used_hours_per_month"`
	Months            int         `json:"months"`
	StorageGB         json.Number `json:"storage_gb"`
	ObjectStorageGB   json.Number `json:"object_storage_gb"`
	EgressGB          json.Number `json:"egress_gb"`
	InterRegionGB     json.Number `json:"inter_region_gb"`
	LoadBalancers     int         `json:"load_balancers"`
	Support           string      `json:"support,omitempty"`
}

// CostOffer names the offer a bill is for.
type CostOffer struct {
	ID               string `json:"id"`
	Provider         string `json:"provider"`
	InstanceType     string `json:"instance_type"`
	Region           string `json:"region"`
	Billing          string `json:"billing"`
	OriginalCurrency string `json:"original_currency"`
}

// BreakEvenDoc is one break-even answer.
type BreakEvenDoc struct {
	Kind   string      `json:"kind"`
	Plan   string      `json:"plan,omitempty"`
	Versus string      `json:"versus,omitempty"`
	Value  json.Number `json:"value"`
	Found  bool        `json:"found"`
	Text   string      `json:"text"`
}

// Cost is the gpuscout/cost@v1 document.
type Cost struct {
	Schema                  string          `json:"schema"`
	Currency                string          `json:"currency"`
	FX                      FX              `json:"fx"`
	Offer                   *CostOffer      `json:"offer"`
	Label                   string          `json:"label"`
	Usage                   CostUsage       `json:"usage"`
	GPUs                    json.Number     `json:"gpus"`
	Components              []CostComponent `json:"components"`
	Monthly                 []MonthAmount   `json:"monthly"`
	Total                   json.Number     `json:"total"`
	AfterHorizon            json.Number     `json:"after_horizon"`
	EffectivePerGPUHour     json.Number     `json:"effective_per_gpu_hour"`
	EffectivePerUsedGPUHour json.Number     `json:"effective_per_used_gpu_hour"`
	BreakEven               *BreakEvenDoc   `json:"break_even"`
	Notes                   []string        `json:"notes"`
}

// converter converts amounts from one currency into the document's.
type converter struct {
	t        *fx.Table
	from, to string
}

func (c converter) n(d decimal.Decimal) (json.Number, error) {
	v, err := c.t.Convert(d, c.from, c.to)
	if err != nil {
		return "", err
	}
	return Num(v), nil
}

// BuildCost renders a breakdown in currency, its notes in p's language
// (English when p is nil). be may be nil.
func BuildCost(b *pricing.Breakdown, be *pricing.BreakEven, currency string, t *fx.Table, p *i18n.Printer) (Cost, error) {
	if p == nil {
		p = i18n.NewPrinter(i18n.EN)
	}
	cv := converter{t: t, from: b.Currency, to: currency}
	u := b.Usage
	doc := Cost{Schema: SchemaCost, Currency: currency, Label: b.Label, GPUs: Num(b.GPUs), Notes: p.Ms(b.Notes),
		Usage: CostUsage{Instances: u.Instances, HoursPerDay: Num(u.HoursPerDay), Utilization: Num(u.Utilization),
			UsedHoursPerMonth: Num(b.UsedHoursPerMonth), Months: u.Months, StorageGB: Num(u.StorageGB),
			ObjectStorageGB: Num(u.ObjectStorageGB), EgressGB: Num(u.EgressGB), InterRegionGB: Num(u.InterRegionGB),
			LoadBalancers: u.LoadBalancers, Support: supportLabel(u)}}
	if !u.DaysPerMonth.IsZero() {
		doc.Usage.DaysPerMonth = Num(u.DaysPerMonth)
	}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	from := []string{b.Currency}
	if o := b.Offer; o != nil {
		doc.Offer = &CostOffer{ID: o.ID(), Provider: o.Provider, InstanceType: o.InstanceName, Region: o.RegionCode,
			Billing: string(o.Billing), OriginalCurrency: o.Price.Currency}
	}
	var err error
	for _, c := range b.Components {
		cc := CostComponent{Name: c.Name, Unit: c.Unit, Quantity: Num(c.Quantity), Source: source(c.Source), Note: p.M(c.Note),
			UnitPrice: Money{Amount: Num(c.UnitPrice.Amount), Currency: c.UnitPrice.Currency}}
		from = append(from, c.UnitPrice.Currency)
		if cc.Monthly, err = cv.n(c.Monthly()); err != nil {
			return doc, err
		}
		if cc.Total, err = cv.n(c.Total()); err != nil {
			return doc, err
		}
		if cc.AfterHorizon, err = cv.n(c.After); err != nil {
			return doc, err
		}
		doc.Components = append(doc.Components, cc)
	}
	for m, v := range b.CashFlow() {
		a, err := cv.n(v)
		if err != nil {
			return doc, err
		}
		ma := MonthAmount{Month: m + 1, Amount: a}
		if !u.Start.IsZero() {
			ma.Date = u.Start.AddDate(0, m, 0).Format("2006-01")
		}
		doc.Monthly = append(doc.Monthly, ma)
	}
	if doc.Total, err = cv.n(b.Total()); err != nil {
		return doc, err
	}
	if doc.AfterHorizon, err = cv.n(b.After()); err != nil {
		return doc, err
	}
	if doc.EffectivePerGPUHour, err = cv.n(b.PerGPUHour()); err != nil {
		return doc, err
	}
	if doc.EffectivePerUsedGPUHour, err = cv.n(b.PerUsedGPUHour()); err != nil {
		return doc, err
	}
	if be != nil {
		d := breakEvenDoc(*be, p)
		doc.BreakEven = &d
	}
	doc.FX = BuildFX(t, from, currency)
	return doc, nil
}

func supportLabel(u pricing.Usage) string {
	switch {
	case u.SupportPlan != "":
		return u.SupportPlan
	case u.SupportPercent.IsPositive():
		return fmt.Sprintf("%s%%", u.SupportPercent)
	}
	return ""
}

func breakEvenDoc(b pricing.BreakEven, p *i18n.Printer) BreakEvenDoc {
	text := b.Text
	if b.Key != "" {
		text = p.T(b.Key, b.Args...)
	}
	return BreakEvenDoc{Kind: b.Kind, Plan: b.Plan, Versus: b.Versus, Value: Num(b.Value), Found: b.Found, Text: text}
}

// TCOPlan is one plan of the TCO document.
type TCOPlan struct {
	Name         string      `json:"name"`
	Total        json.Number `json:"total"`
	AfterHorizon json.Number `json:"after_horizon"`
	GPUs         json.Number `json:"gpus"`
	// Scale is how many times the plan's instances were multiplied to match
	// the largest plan's GPU count (1: priced as given).
	Scale                   int           `json:"scale"`
	EffectivePerGPUHour     json.Number   `json:"effective_per_gpu_hour"`
	EffectivePerUsedGPUHour json.Number   `json:"effective_per_used_gpu_hour"`
	Monthly                 []MonthAmount `json:"monthly"`
	Parts                   []Cost        `json:"parts"`
}

// TCO is the gpuscout/tco@v1 document.
type TCO struct {
	Schema   string    `json:"schema"`
	Currency string    `json:"currency"`
	Months   int       `json:"months"`
	FX       FX        `json:"fx"`
	Plans    []TCOPlan `json:"plans"`
	// Cheapest is the plan with the lowest total over the horizon (per used
	// GPU-hour when the plans' GPU counts still differ; see RankedBy).
	Cheapest string `json:"cheapest"`
	RankedBy string `json:"ranked_by"`
	// GPUs is the GPU count the plans are compared at.
	GPUs      json.Number    `json:"gpus"`
	BreakEven []BreakEvenDoc `json:"break_even"`
}

// BuildTCO renders a comparison (already in its currency), its notes in p's
// language (English when p is nil).
func BuildTCO(r *pricing.TCO, t *fx.Table, pr *i18n.Printer) (TCO, error) {
	if pr == nil {
		pr = i18n.NewPrinter(i18n.EN)
	}
	doc := TCO{Schema: SchemaTCO, Currency: r.Currency, Months: r.Months, Cheapest: r.Cheapest, RankedBy: r.RankedBy, GPUs: Num(r.GPUs), BreakEven: []BreakEvenDoc{}}
	var from []string
	for _, p := range r.Plans {
		tp := TCOPlan{Name: p.Name, Total: Num(p.Total), AfterHorizon: Num(p.After), GPUs: Num(p.GPUs), Scale: max(p.Scale, 1),
			EffectivePerGPUHour: Num(p.PerGPUHour()), EffectivePerUsedGPUHour: Num(p.PerUsedGPUHour())}
		for m, v := range p.CashFlow {
			tp.Monthly = append(tp.Monthly, MonthAmount{Month: m + 1, Amount: Num(v)})
		}
		for _, b := range p.Breakdowns {
			from = append(from, b.Currency)
			c, err := BuildCost(b, nil, r.Currency, t, pr)
			if err != nil {
				return doc, err
			}
			c.Schema = ""
			tp.Parts = append(tp.Parts, c)
		}
		doc.Plans = append(doc.Plans, tp)
	}
	for _, b := range r.BreakEven {
		doc.BreakEven = append(doc.BreakEven, breakEvenDoc(b, pr))
	}
	doc.FX = BuildFX(t, from, r.Currency)
	return doc, nil
}
