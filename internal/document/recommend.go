package document

import (
	"encoding/json"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/shopspring/decimal"
)

// SchemaRecommendation names the advisor's document.
const SchemaRecommendation = "gpuscout/recommendation@v1"

// RecTime is a plan's time.
type RecTime struct {
	Hours json.Number `json:"hours"`
	Low   json.Number `json:"low"`
	High  json.Number `json:"high"`
}

// RecCost is a plan's cost.
type RecCost struct {
	Total      json.Number     `json:"total"`
	Currency   string          `json:"currency"`
	PerGPUHour json.Number     `json:"per_gpu_hour"`
	Components []CostComponent `json:"components"`
}

// RecPlan is one ranked plan.
type RecPlan struct {
	Rank         int    `json:"rank"`
	Offer        string `json:"offer"`
	Provider     string `json:"provider"`
	InstanceType string `json:"instance_type"`
	Count        int    `json:"count"`
	GPUs         int    `json:"gpus"`
	// GPUCount is the GPUs as sold: "32", or "1/6" of a GPU slice.
	GPUCount string `json:"gpu_count"`
	GPU      string `json:"gpu"`
	Billing  string `json:"billing"`
	// OS is the operating system the plan's price is for: linux, or
	// windows (a Windows rate, the licence included).
	OS string `json:"os"`
	// PriceLowerBound: a Windows job priced at the Linux rate (no Windows
	// rate in the catalog), so the cost is a lower bound.
	PriceLowerBound bool        `json:"price_lower_bound,omitempty"`
	Region          string      `json:"region"`
	Time            *RecTime    `json:"time,omitempty"`
	Cost            RecCost     `json:"cost"`
	Confidence      string      `json:"confidence,omitempty"`
	DeadlineMiss    json.Number `json:"deadline_miss_probability"`
	Score           json.Number `json:"score"`
	Pareto          bool        `json:"pareto"`
	Reasons         []string    `json:"reasons"`
	Risks           []string    `json:"risks"`
	// Sizing is the rule that chose the count; BilledHours the hours
	// billed per instance.
	Sizing      string                `json:"sizing,omitempty"`
	BilledHours json.Number           `json:"billed_hours_per_instance,omitempty"`
	Basis       *recommend.Basis      `json:"basis,omitempty"`
	Spot        *recommend.SpotAdvice `json:"spot,omitempty"`
	Redundancy  *recommend.Redundancy `json:"redundancy,omitempty"`
	// Serving is how a service plan serves its model at the stated context.
	Serving     *recommend.Serving `json:"serving,omitempty"`
	Fabric      string             `json:"fabric"`
	Country     string             `json:"country"`
	Residency   string             `json:"residency"`
	GPUMemoryGB json.Number        `json:"gpu_memory_gb"`
	// ForUsers is the user location a per-location plan serves.
	ForUsers string `json:"for_users,omitempty"`

	// Booking is how a Capacity Block covers the job's time.
	Booking *recommend.Booking `json:"booking,omitempty"`
	// BuyVsRent compares a standing cluster's plan with buying servers.
	BuyVsRent *recommend.BuyVsRent `json:"buy_vs_rent,omitempty"`
	// SLA is the provider's published compute SLA (services sized N+1).
	SLA *RecSLA `json:"sla,omitempty"`
}

// RecSLA is a provider's published compute SLA: monthly uptime for a
// single instance and for instances across two or more zones, percent.
type RecSLA struct {
	SingleInstancePct float64 `json:"single_instance_pct"`
	ZonesPct          float64 `json:"multi_zone_pct,omitempty"`
	Source            string  `json:"source"`
}

// RecNoPlan says why no plan was feasible.
type RecNoPlan struct {
	Stage      string `json:"stage"`
	Constraint string `json:"constraint"`
	Relaxation string `json:"relaxation,omitempty"`
	Message    string `json:"message"`
}

// RecRejected is a rejected candidate.
type RecRejected struct {
	Offer  string `json:"offer"`
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
}

// Recommendation is the gpuscout/recommendation@v1 document.
type Recommendation struct {
	Schema       string         `json:"schema"`
	Requirements any            `json:"requirements"`
	Currency     string         `json:"currency"`
	Plans        []RecPlan      `json:"plans"`
	Pareto       []RecPlan      `json:"pareto"`
	Rejected     []RecRejected  `json:"rejected"`
	RejectedBy   map[string]int `json:"rejected_by_stage"`
	Feasible     int            `json:"feasible"`
	// Constraints are the hard constraints that removed candidates.
	Constraints []recommend.ConstraintCount `json:"constraints"`
	// NoPlan is set when no plan was feasible (plans is then empty).
	NoPlan   *RecNoPlan `json:"no_plan,omitempty"`
	Notes    []string   `json:"notes"`
	DataAsOf struct {
		Oldest string `json:"oldest"`
		Newest string `json:"newest"`
	} `json:"data_as_of"`
}

func recPlan(p *recommend.Plan, withBill bool) RecPlan {
	o := p.Offer
	rp := RecPlan{Rank: p.Rank, Offer: o.ID(), Provider: o.Provider, InstanceType: o.InstanceName, Count: p.Instances, GPUs: p.GPUs, GPUCount: p.GPUCount(),
		GPU: o.Instance.GPUID, Billing: string(o.Billing), OS: o.OSName(), PriceLowerBound: p.LowerBound, Region: o.RegionCode, Confidence: string(p.Confidence),
		DeadlineMiss: fnum(p.DeadlineMiss), Score: fnum(p.Score), Pareto: p.Pareto, Reasons: p.Reasons, Risks: p.Risks,
		Cost:   RecCost{Total: fnum(p.Cost), Currency: p.Currency, Components: []CostComponent{}},
		Sizing: p.Sizing, Basis: p.Basis, Spot: p.Spot, Redundancy: p.Redundant, Serving: p.Serving, Booking: p.Booking, BuyVsRent: p.BuyVsRent, Fabric: o.Instance.RDMA,
		Country: o.Region.Country, Residency: o.Region.Residency, GPUMemoryGB: Num(o.Instance.VRAMPerGPUGB()), ForUsers: p.ForUsers}
	if p.BilledHours > 0 {
		rp.BilledHours = fnum(p.BilledHours)
	}
	if p.SLA != nil {
		rp.SLA = &RecSLA{SingleInstancePct: p.SLA.Single, ZonesPct: p.SLA.Zones, Source: p.SLA.Ref}
	}
	if p.Hours > 0 {
		rp.Time = &RecTime{Hours: fnum(p.Hours), Low: fnum(p.HoursLow), High: fnum(p.HoursHigh)}
		if p.GPUs > 0 {
			rp.Cost.PerGPUHour = fnum(p.Cost / (p.Hours * float64(p.GPUs)))
		}
	} else if p.PerGPUHour > 0 {
		rp.Cost.PerGPUHour = fnum(p.PerGPUHour)
	}
	if rp.Reasons == nil {
		rp.Reasons = []string{}
	}
	if rp.Risks == nil {
		rp.Risks = []string{}
	}
	if withBill && p.Breakdown != nil {
		for i, c := range p.Breakdown.Components {
			cc := CostComponent{Name: c.Name, Unit: c.Unit, Quantity: Num(c.Quantity),
				UnitPrice: Money{Amount: Num(c.UnitPrice.Amount), Currency: c.UnitPrice.Currency}, Monthly: Num(c.Monthly()),
				Total: Num(c.Total()), AfterHorizon: Num(c.After), Source: source(c.Source), Note: c.Note.String(),
				Currency: p.Breakdown.Currency}
			if i < len(p.ComponentTotals) {
				cc.TotalInPlanCurrency = Num(decimal.NewFromFloat(p.ComponentTotals[i]))
			}
			rp.Cost.Components = append(rp.Cost.Components, cc)
		}
	}
	return rp
}

// broadStage marks the selection filters whose rejections are capped.
var broadStage = map[string]bool{"status": true, "provider": true, "gpu": true, "location": true}

// BuildRecommendation renders the advisor's result; rejections of the
// broad selection filters are capped at maxRejected, all others listed
// (the counts per stage are complete).
func BuildRecommendation(res *recommend.Result, requirements any, maxRejected int) Recommendation {
	return buildRecommendation(res, requirements, maxRejected, true)
}

// BuildRecommendationCounts renders the advisor's result without the list
// of rejections (Rejected is empty, RejectedBy counts them all): for the
// faces that print only the counts, which then never build the thousands
// of offer IDs a list needs.
func BuildRecommendationCounts(res *recommend.Result, requirements any) Recommendation {
	return buildRecommendation(res, requirements, 0, false)
}

func buildRecommendation(res *recommend.Result, requirements any, maxRejected int, list bool) Recommendation {
	doc := Recommendation{Schema: SchemaRecommendation, Requirements: requirements, Currency: res.Currency,
		Plans: make([]RecPlan, 0, len(res.Plans)), Pareto: make([]RecPlan, 0, len(res.Pareto)), RejectedBy: map[string]int{}, Feasible: res.Feasible, Notes: res.Notes,
		Constraints: res.Constraints}
	if doc.Constraints == nil {
		doc.Constraints = []recommend.ConstraintCount{}
	}
	for _, p := range res.Plans {
		doc.Plans = append(doc.Plans, recPlan(p, true))
	}
	for _, p := range res.Pareto {
		doc.Pareto = append(doc.Pareto, recPlan(p, false))
	}
	if doc.Notes == nil {
		doc.Notes = []string{}
	}
	if !res.OldestAsOf.IsZero() {
		doc.DataAsOf.Oldest = res.OldestAsOf.Format(catalog.DateLayout)
		doc.DataAsOf.Newest = res.NewestAsOf.Format(catalog.DateLayout)
	}
	// Every rejection that says something about the job (fit, deadline,
	// fabric, term ...) is listed; those of the selection filters the
	// question itself drew (status, provider, GPU, location), thousands in
	// a broad catalog, are counted in rejected_by_stage and listed up to
	// maxRejected.
	broad, listed := 0, 0
	for _, r := range res.Rejected {
		doc.RejectedBy[r.Stage]++
		if broadStage[r.Stage] {
			broad++
		} else {
			listed++
		}
	}
	if !list {
		doc.Rejected = []RecRejected{}
		return doc
	}
	doc.Rejected = make([]RecRejected, 0, listed+min(broad, max(maxRejected, 0)))
	broad = 0
	for _, r := range res.Rejected {
		if broadStage[r.Stage] {
			if broad >= maxRejected {
				continue
			}
			broad++
		}
		doc.Rejected = append(doc.Rejected, RecRejected{Offer: r.OfferID(), Stage: r.Stage, Reason: r.Reason})
	}
	return doc
}
