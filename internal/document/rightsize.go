package document

import (
	"encoding/json"
	"math"

	"github.com/gpuscout/gpuscout/internal/fx"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/rightsize"
)

// SchemaRightsize names the rightsize document.
const SchemaRightsize = "gpuscout/rightsize@v1"

// RightsizeBadLine is a skipped line of the metrics log.
type RightsizeBadLine struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

// RightsizeMetrics says what was read from the log.
type RightsizeMetrics struct {
	File       string             `json:"file"`
	Format     string             `json:"format"`
	Gzip       bool               `json:"gzip"`
	Bytes      int64              `json:"bytes"`
	DataBytes  int64              `json:"data_bytes"`
	Lines      int                `json:"lines"`
	Samples    int64              `json:"samples"`
	Skipped    int                `json:"skipped"`
	BadLines   []RightsizeBadLine `json:"bad_lines"` // the first few
	Ignored    int                `json:"ignored"`
	Timestamps bool               `json:"timestamps"`
	Columns    []string           `json:"columns,omitempty"`
	Notes      []string           `json:"notes"`
}

// RightsizeUsage is utilisation and memory over a set of samples.
// Utilisation is in percent (0–100); shares are fractions (0–1).
type RightsizeUsage struct {
	Samples     int64       `json:"samples"`
	UtilSamples int64       `json:"util_samples"`
	MeanUtil    json.Number `json:"mean_util_pct"`
	P50Util     json.Number `json:"p50_util_pct"`
	P95Util     json.Number `json:"p95_util_pct"`
	IdleShare   json.Number `json:"idle_share"`
	MemSamples  int64       `json:"memory_samples"`
	MemPeakGiB  json.Number `json:"memory_peak_gib"`
	MemP95GiB   json.Number `json:"memory_p95_gib"`
	MemTotalGiB json.Number `json:"memory_total_gib"`
}

// RightsizeGPU is one GPU of the log.
type RightsizeGPU struct {
	GPU    string `json:"gpu"`
	Index  *int   `json:"index"`
	UUID   string `json:"uuid,omitempty"`
	Host   string `json:"host,omitempty"`
	Model  string `json:"model,omitempty"`
	Active bool   `json:"active"`
	RightsizeUsage
}

// RightsizeStats is how the GPUs were used.
type RightsizeStats struct {
	// Start and End are in the log's clock (UTC for DCGM timestamps).
	Start           string         `json:"start,omitempty"`
	End             string         `json:"end,omitempty"`
	TimesKnown      bool           `json:"times_known"`
	SpanHours       json.Number    `json:"span_hours"`
	IntervalSeconds json.Number    `json:"interval_seconds"`
	SlotSeconds     int64          `json:"slot_seconds"`
	Coverage        json.Number    `json:"coverage"`
	BusyShare       json.Number    `json:"busy_share"`
	BusyHourShare   json.Number    `json:"busy_clock_hour_share"`
	BusyClockHours  int64          `json:"busy_clock_hours"`
	SpanClockHours  int64          `json:"span_clock_hours"`
	HourProfile     []*json.Number `json:"hour_of_day_busy_share"`
	BusyRuns        int            `json:"busy_runs"`
	MeanBusyRunMin  json.Number    `json:"mean_busy_run_minutes"`
	Pattern         string         `json:"pattern"`
	DailyWindow     string         `json:"daily_window,omitempty"`
	ActiveGPUs      int            `json:"active_gpus"`
	SummedUtilP95   json.Number    `json:"summed_util_p95_pct"`
	SummedUtilMean  json.Number    `json:"summed_util_mean_pct"`
	MemPeakSumGiB   json.Number    `json:"memory_peak_sum_gib"`
	Overall         RightsizeUsage `json:"overall"`
	GPUs            []RightsizeGPU `json:"gpus"`
}

// RightsizeFigure is one number behind a recommendation.
type RightsizeFigure struct {
	Name  string      `json:"name"`
	Value json.Number `json:"value"`
	Unit  string      `json:"unit"`
}

// RightsizeRecommendation is one priced change.
type RightsizeRecommendation struct {
	Kind           string            `json:"kind"`
	Action         string            `json:"action"`
	Offer          string            `json:"offer,omitempty"`
	GPU            *GPURef           `json:"gpu,omitempty"`
	Instances      int               `json:"instances"`
	BilledShare    json.Number       `json:"billed_share"`
	Monthly        json.Number       `json:"monthly"`
	CurrentMonthly json.Number       `json:"current_monthly"`
	MonthlySaving  json.Number       `json:"monthly_saving"`
	SavingShare    json.Number       `json:"saving_share"`
	Scope          string            `json:"scope"`
	Reason         string            `json:"reason"`
	Figures        []RightsizeFigure `json:"figures"`
	Caveats        []string          `json:"caveats"`
}

// RightsizeCurrent is the offer the log was taken on and its bill.
type RightsizeCurrent struct {
	Offer            string      `json:"offer"`
	Provider         string      `json:"provider"`
	InstanceType     string      `json:"instance_type"`
	Region           string      `json:"region"`
	Billing          string      `json:"billing"`
	GPU              GPURef      `json:"gpu"`
	Instances        int         `json:"instances"`
	ObservedGPUs     int         `json:"observed_gpus"`
	BilledShare      json.Number `json:"billed_share"`
	Monthly          json.Number `json:"monthly"`
	OriginalCurrency string      `json:"original_currency"`
}

// Rightsize is the gpuscout/rightsize@v1 document.
type Rightsize struct {
	Schema          string                    `json:"schema"`
	Currency        string                    `json:"currency"`
	FX              FX                        `json:"fx"`
	Current         RightsizeCurrent          `json:"current"`
	Metrics         RightsizeMetrics          `json:"metrics"`
	Stats           RightsizeStats            `json:"stats"`
	Recommendations []RightsizeRecommendation `json:"recommendations"`
	BreakEven       []BreakEvenDoc            `json:"break_even"`
	Notes           []string                  `json:"notes"`
}

func fpct(v float64) json.Number { return fnum(v) }

func gibNum(mib float64) json.Number { return fnum(mib / 1024) }

// share renders a fraction with four decimals.
func share(v float64) json.Number {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	b, _ := json.Marshal(math.Round(v*10000) / 10000)
	return json.Number(b)
}

func usageDoc(s rightsize.Summary) RightsizeUsage {
	return RightsizeUsage{Samples: s.Samples, UtilSamples: s.UtilSamples, MeanUtil: fpct(s.Mean), P50Util: fpct(s.P50), P95Util: fpct(s.P95),
		IdleShare: share(s.IdleShare), MemSamples: s.MemSamples, MemPeakGiB: gibNum(s.MemPeakMiB), MemP95GiB: gibNum(s.MemP95MiB),
		MemTotalGiB: gibNum(s.MemTotalMiB)}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// BuildRightsize builds the document from a parse report, its statistics
// and the advice on them, its sentences in p's language (English when p is
// nil), as the advisor's reasons are.
func BuildRightsize(rep *rightsize.ParseReport, st *rightsize.Stats, adv *rightsize.Advice, t *fx.Table, p *i18n.Printer) Rightsize {
	if p == nil {
		p = i18n.NewPrinter(i18n.EN)
	}
	off := adv.Offer
	doc := Rightsize{Schema: SchemaRightsize, Currency: adv.Currency, Notes: orEmpty(p.Ms(adv.Notes)),
		Recommendations: []RightsizeRecommendation{}, BreakEven: []BreakEvenDoc{}}
	doc.FX = BuildFX(t, adv.Currencies, adv.Currency)
	doc.Current = RightsizeCurrent{Offer: off.ID(), Provider: off.Provider, InstanceType: off.InstanceName, Region: off.RegionCode,
		Billing: string(off.Billing), GPU: gpuRef(off.Instance), Instances: adv.Instances, ObservedGPUs: adv.ObservedGPUs,
		BilledShare: share(adv.BilledShare), Monthly: Num(adv.CurrentMonthly.Round(2)), OriginalCurrency: off.Price.Currency}

	m := RightsizeMetrics{File: rep.File, Format: string(rep.Format), Gzip: rep.Gzip, Bytes: rep.Bytes, DataBytes: rep.DataBytes,
		Lines: rep.Lines, Samples: rep.Samples, Skipped: rep.Skipped, Ignored: rep.Ignored, Timestamps: rep.Timestamps,
		Columns: rep.Columns, Notes: orEmpty(p.Ms(rep.Notes)), BadLines: []RightsizeBadLine{}}
	for _, b := range rep.Bad {
		m.BadLines = append(m.BadLines, RightsizeBadLine{Line: b.Line, Reason: p.M(b.Msg), Text: b.Text})
	}
	doc.Metrics = m

	s := RightsizeStats{TimesKnown: st.TimeKnown, SpanHours: fnum(st.SpanHours), IntervalSeconds: fnum(st.IntervalSeconds),
		SlotSeconds: st.SlotSeconds, Coverage: share(st.Coverage), BusyShare: share(st.BusyShare), BusyHourShare: share(st.BusyHourShare),
		BusyClockHours: st.BusyClockHours, SpanClockHours: st.SpanClockHours, BusyRuns: st.BusyRuns,
		MeanBusyRunMin: fnum(st.MeanBusyRunMinutes), Pattern: st.Pattern, DailyWindow: st.DailyWindow, ActiveGPUs: st.ActiveGPUs,
		SummedUtilP95: fpct(st.SummedUtilP95), SummedUtilMean: fpct(st.SummedUtilMean), MemPeakSumGiB: gibNum(st.MemPeakSumMiB),
		Overall: usageDoc(st.Overall), GPUs: []RightsizeGPU{}, HourProfile: []*json.Number{}}
	if st.TimeKnown && !st.Start.IsZero() {
		s.Start, s.End = st.Start.Format("2006-01-02T15:04:05"), st.End.Format("2006-01-02T15:04:05")
	}
	for _, v := range st.HourProfile {
		if v < 0 {
			s.HourProfile = append(s.HourProfile, nil)
			continue
		}
		n := share(v)
		s.HourProfile = append(s.HourProfile, &n)
	}
	for _, g := range st.GPUs {
		d := RightsizeGPU{GPU: g.GPU.Label(st.MultiHost), UUID: g.GPU.UUID, Host: g.GPU.Host, Model: g.GPU.Model, Active: g.Active,
			RightsizeUsage: usageDoc(g.Summary)}
		if g.GPU.Index >= 0 {
			i := g.GPU.Index
			d.Index = &i
		}
		s.GPUs = append(s.GPUs, d)
	}
	doc.Stats = s

	for _, r := range adv.Recommendations {
		d := RightsizeRecommendation{Kind: r.Kind, Action: p.M(r.Action), Instances: r.Instances, BilledShare: share(r.BilledShare),
			Monthly: Num(r.Monthly.Round(2)), CurrentMonthly: Num(r.CurrentMonthly.Round(2)), MonthlySaving: Num(r.Saving.Round(2)),
			SavingShare: share(r.SavingShare()), Scope: r.Scope, Reason: p.Sentences(r.Reason), Caveats: orEmpty(p.Ms(r.Caveats)), Figures: []RightsizeFigure{}}
		if r.Offer != nil {
			d.Offer = r.Offer.ID()
			g := gpuRef(r.Offer.Instance)
			d.GPU = &g
		}
		for _, f := range r.Figures {
			d.Figures = append(d.Figures, RightsizeFigure{Name: p.T(f.Name), Value: fnum(f.Value), Unit: p.Or(f.Unit, f.Unit)})
		}
		doc.Recommendations = append(doc.Recommendations, d)
	}
	for _, b := range adv.BreakEven {
		text := b.Text
		if b.Key != "" {
			text = p.T(b.Key, b.Args...)
		}
		doc.BreakEven = append(doc.BreakEven, BreakEvenDoc{Kind: b.Kind, Plan: b.Plan, Versus: b.Versus, Value: Num(b.Value), Found: b.Found, Text: text})
	}
	return doc
}
