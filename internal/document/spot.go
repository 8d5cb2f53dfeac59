package document

import (
	"encoding/json"
	"math"

	"github.com/gpuscout/gpuscout/internal/spot"
)

// SchemaSpot names the spot document.
const SchemaSpot = "gpuscout/spot@v1"

// SpotCheckpoint is the checkpoint plan.
type SpotCheckpoint struct {
	OptimalIntervalMinutes json.Number `json:"optimal_interval_minutes"`
	YoungIntervalMinutes   json.Number `json:"young_interval_minutes"`
	InNotice               bool        `json:"in_notice"`
	Formula                string      `json:"formula"`
}

// SpotExpected is the analytic expectation.
type SpotExpected struct {
	Hours    json.Number `json:"hours"`
	Cost     json.Number `json:"cost"`
	Overhead json.Number `json:"overhead_fraction"`
}

// SpotSimulated is the Monte Carlo distribution.
type SpotSimulated struct {
	Trials            int         `json:"trials"`
	Seed              uint64      `json:"seed"`
	MeanHours         json.Number `json:"mean_hours"`
	P50Hours          json.Number `json:"p50_hours"`
	P90Hours          json.Number `json:"p90_hours"`
	P99Hours          json.Number `json:"p99_hours"`
	P50Cost           json.Number `json:"p50_cost"`
	P90Cost           json.Number `json:"p90_cost"`
	MeanInterruptions json.Number `json:"mean_interruptions"`
	DeadlineMiss      json.Number `json:"deadline_miss_probability"`
}

// SpotOption is one way to run the job.
type SpotOption struct {
	Name          string      `json:"name"`
	ExpectedHours json.Number `json:"expected_hours"`
	P90Hours      json.Number `json:"p90_hours"`
	ExpectedCost  json.Number `json:"expected_cost"`
	P90Cost       json.Number `json:"p90_cost"`
	DeadlineMiss  json.Number `json:"deadline_miss_probability"`
}

// SpotDoc is the gpuscout/spot@v1 document.
type SpotDoc struct {
	Schema        string      `json:"schema"`
	Offer         string      `json:"offer"`
	OnDemandOffer string      `json:"on_demand_offer"`
	Currency      string      `json:"currency"`
	SpotPrice     json.Number `json:"spot_price_per_hour"`
	OnDemandPrice json.Number `json:"on_demand_price_per_hour"`
	WorkHours     json.Number `json:"work_hours"`
	DeadlineHours json.Number `json:"deadline_hours,omitempty"`
	MTBIHours     json.Number `json:"mtbi_hours"`
	MTBISource    string      `json:"mtbi_source"`
	MTBIAssumed   bool        `json:"mtbi_assumed"`
	// MTBIPrior names the provider-level prior used when nothing is
	// published for this offer (absent when a published band or --mtbi was used).
	MTBIPrior       *SpotPrior     `json:"mtbi_prior,omitempty"`
	Notice          string         `json:"notice"`
	ProtectionHours json.Number    `json:"protection_hours"`
	Checkpoint      SpotCheckpoint `json:"checkpoint"`
	Expected        SpotExpected   `json:"expected"`
	Simulated       SpotSimulated  `json:"simulated"`
	OnDemand        struct {
		Hours json.Number `json:"hours"`
		Cost  json.Number `json:"cost"`
	} `json:"on_demand"`
	Options     []SpotOption `json:"options"`
	Best        string       `json:"best"`
	Saving      json.Number  `json:"expected_saving"`
	Verdict     string       `json:"verdict"`
	Assumptions []string     `json:"assumptions"`
}

// BuildSpot renders a decision.
func BuildSpot(offer, odOffer, currency string, j spot.Job, r spot.Risk, d spot.Decision, trials int, seed uint64, spotPrice, odPrice float64, assumptions []string) SpotDoc {
	inf := func(v float64) json.Number {
		if math.IsInf(v, 1) {
			return "-1"
		}
		return fnum(v)
	}
	doc := SpotDoc{Schema: SchemaSpot, Offer: offer, OnDemandOffer: odOffer, Currency: currency, SpotPrice: fnum(spotPrice),
		OnDemandPrice: fnum(odPrice), WorkHours: fnum(j.Work), MTBIHours: inf(r.MTBI), MTBISource: r.Source, MTBIAssumed: r.Assumed,
		Notice: r.NoticeNote, ProtectionHours: fnum(r.Protection), Best: d.Best, Saving: fnum(d.Saving), Verdict: d.Verdict,
		Assumptions: assumptions}
	if pr := r.Prior; pr != nil {
		doc.MTBIPrior = &SpotPrior{Provider: pr.Provider, Prior: pr.Band, PriorZH: pr.BandZH, Rated: pr.Rated, SourceRef: pr.Ref, AsOf: pr.AsOf, ReadOn: pr.ReadOn}
	}
	if j.Deadline > 0 {
		doc.DeadlineHours = fnum(j.Deadline)
	}
	doc.Checkpoint = SpotCheckpoint{OptimalIntervalMinutes: fnum(d.Plan.Interval * 60), YoungIntervalMinutes: fnum(d.Plan.YoungInterval * 60),
		InNotice: d.Plan.NoticeCovers, Formula: d.Plan.Formula}
	doc.Expected = SpotExpected{Hours: inf(d.Plan.ExpectedHours), Cost: inf(d.Plan.ExpectedHours * spotPrice), Overhead: inf(d.Plan.Overhead)}
	s := d.Spot
	doc.Simulated = SpotSimulated{Trials: trials, Seed: seed, MeanHours: fnum(s.MeanHours), P50Hours: fnum(s.P50Hours), P90Hours: fnum(s.P90Hours),
		P99Hours: fnum(s.P99Hours), P50Cost: fnum(s.P50Cost), P90Cost: fnum(s.P90Cost), MeanInterruptions: fnum(s.MeanInterruptions),
		DeadlineMiss: fnum(s.DeadlineMiss)}
	doc.OnDemand.Hours, doc.OnDemand.Cost = fnum(j.Work), fnum(j.Work*odPrice)
	for _, o := range d.Options {
		doc.Options = append(doc.Options, SpotOption{Name: o.Name, ExpectedHours: inf(o.ExpectedHours), P90Hours: inf(o.P90Hours),
			ExpectedCost: inf(o.ExpectedCost), P90Cost: inf(o.P90Cost), DeadlineMiss: fnum(o.DeadlineMiss)})
	}
	if doc.Assumptions == nil {
		doc.Assumptions = []string{}
	}
	return doc
}

// SpotPrior is the provider-level interruption prior a spot answer used.
type SpotPrior struct {
	Provider  string `json:"provider"`
	Prior     string `json:"prior"` // as the provider states it: "<10%", "24 h", ...
	PriorZH   string `json:"prior_zh,omitempty"`
	Rated     bool   `json:"rated"` // false: the prior has no rate and gpuscout's one-a-day assumption was used
	SourceRef string `json:"source_ref"`
	AsOf      string `json:"as_of"`             // "" for an undated source
	ReadOn    string `json:"read_on,omitempty"` // the day an undated source was read
}
