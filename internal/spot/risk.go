package spot

import (
	"fmt"
	"math"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/pricing"
	"github.com/shopspring/decimal"
)

// DefaultMTBI is the mean time between interruptions assumed where no
// provider publishes interruption data for an offer: one a day. It is an
// assumption, named as such in every output that uses it; override it
// with --mtbi.
const DefaultMTBI = 24.0

// openBandPct is the monthly frequency assumed for an open-ended band
// (">20%"): 30 %.
const openBandPct = 30.0

// Facts is what risk needs from the catalog.
type Facts interface {
	SpotFacts(provider string) (*catalog.SpotFacts, bool)
	InterruptionBand(provider, instance, region string) (*catalog.InterruptionBand, bool)
	InterruptionPrior(provider string) (*catalog.InterruptionBand, bool)
}

// RiskFor builds an offer's interruption risk from the catalog: the
// published band (its upper bound, converted with MTBIFromMonthlyFraction),
// else DefaultMTBI; the provider's notice and protection period. mtbi > 0
// overrides the rate.
func RiskFor(c Facts, o *catalog.Offer, mtbi float64) Risk {
	r := Risk{WeibullK: 1}
	if f, ok := c.SpotFacts(o.Provider); ok {
		if f.NoticeKnown {
			r.Notice = float64(f.NoticeSeconds) / 3600
			r.NoticeNote = fmt.Sprintf("%d s notice (%s, %s)", f.NoticeSeconds, f.Source.Kind, sourceDate(f.Source))
		}
		r.Protection = f.ProtectionHrs.InexactFloat64()
	}
	if r.NoticeNote == "" {
		r.NoticeNote = "no documented interruption notice: assumed none"
	}
	b, ok := c.InterruptionBand(o.Provider, o.InstanceName, o.RegionCode)
	if !ok {
		if pr, pok := c.InterruptionPrior(o.Provider); pok {
			b, ok = pr, true
		}
	}
	switch {
	case mtbi > 0:
		r.MTBI, r.Source = mtbi, "given with --mtbi"
	case ok && b.IsPrior():
		r.Prior = &PriorUse{Provider: o.Provider, Band: b.Band, BandZH: b.BandZH, Rated: b.Rated(), Ref: b.Source.Ref, AsOf: b.Source.AsOfString(), ReadOn: b.Source.ReadOnString()}
		switch {
		case b.MTBIHours.IsPositive():
			r.MTBI = b.MTBIHours.InexactFloat64()
			r.Source = fmt.Sprintf("prior: nothing is published for %s in %s; %s's provider-level prior %q (%s, %s) → M = %.0f h",
				o.InstanceName, o.RegionCode, o.Provider, b.Band, b.Source.Ref, asOf(b.Source), r.MTBI)
		case b.HighPct.IsPositive():
			pct := b.HighPct.InexactFloat64()
			r.MTBI = MTBIFromMonthlyFraction(pct / 100)
			r.Source = fmt.Sprintf("prior: nothing is published for %s in %s; %s's provider-level prior %s a month (%s, %s), upper bound %.0f%% → M = 730 / −ln(1 − %.2f) = %.0f h",
				o.InstanceName, o.RegionCode, o.Provider, b.Band, b.Source.Ref, asOf(b.Source), pct, pct/100, r.MTBI)
		default:
			r.MTBI, r.Assumed = DefaultMTBI, true
			r.Source = fmt.Sprintf("prior: %s documents %s (%s, %s) but no interruption rate; assumed one interruption a day (override with --mtbi)",
				o.Provider, b.Band, b.Source.Ref, asOf(b.Source))
		}
	case ok:
		pct := b.HighPct.InexactFloat64()
		label := "upper bound"
		if !b.HighPct.IsPositive() {
			pct, label = openBandPct, "assumed 30% for the open band"
		}
		r.MTBI = MTBIFromMonthlyFraction(pct / 100)
		r.Source = fmt.Sprintf("published interruption frequency %s a month (%s, %s); %s %.0f%% → M = 730 / −ln(1 − %.2f) = %.0f h",
			b.Band, b.Source.Ref, asOf(b.Source), label, pct, pct/100, r.MTBI)
	default:
		r.MTBI, r.Assumed = DefaultMTBI, true
		r.Source = fmt.Sprintf("assumption: %s publishes no interruption data for %s in %s; one interruption a day (override with --mtbi)",
			o.Provider, o.InstanceName, o.RegionCode)
	}
	return r
}

// CostHook gives the cost engine the interruption overhead of spot offers
// for long-running work: Daly's expected makespan at the optimal interval
// over the work, minus one. Checkpoint and Restart are in hours.
type CostHook struct {
	Facts      Facts
	Checkpoint float64
	Restart    float64
	MTBI       float64 // 0 = from the catalog
}

// Default checkpoint and restart times for the cost engine's hook
// (assumptions, stated in the bill).
const (
	DefaultCheckpointHours = 5.0 / 60
	DefaultRestartHours    = 15.0 / 60
)

// Overhead implements pricing.InterruptionModel.
func (h CostHook) Overhead(o *catalog.Offer, _ pricing.Usage) (decimal.Decimal, string, error) {
	c, rs := h.Checkpoint, h.Restart
	if c == 0 {
		c = DefaultCheckpointHours
	}
	if rs == 0 {
		rs = DefaultRestartHours
	}
	r := RiskFor(h.Facts, o, h.MTBI)
	p := Analyze(Job{Work: 1000, Checkpoint: c, Restart: rs}, r)
	if math.IsInf(p.ExpectedHours, 1) || math.IsNaN(p.Overhead) {
		return decimal.Zero, "", fmt.Errorf("spot: interruptions every %.3g h are too frequent for %.0f min checkpoints and %.0f min restarts", r.MTBI, c*60, rs*60)
	}
	note := fmt.Sprintf("%.1f%% more hours for interruptions: checkpoint %.0f min, restart %.0f min (assumptions), M = %.0f h — %s",
		100*p.Overhead, c*60, rs*60, r.MTBI, r.Source)
	return decimal.NewFromFloat(p.Overhead).Round(6), note, nil
}

// asOf renders a source's date in an English sentence: "as of <date>", or
// "undated (read <day>)" for a source that shows no date.
func asOf(s catalog.Source) string {
	if s.Undated() {
		return "undated (read " + s.ReadOnString() + ")"
	}
	return "as of " + s.AsOfString()
}

// sourceDate is a source's date alone: the as-of date, or "undated (read
// <day>)".
func sourceDate(s catalog.Source) string {
	if s.Undated() {
		return "undated (read " + s.ReadOnString() + ")"
	}
	return s.AsOfString()
}
