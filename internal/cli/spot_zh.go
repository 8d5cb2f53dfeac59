package cli

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// spotMaxMiss mirrors the spot engine's deadline risk a plan may carry to
// be chosen (internal/spot maxMiss): the verdict's wording depends on it.
const spotMaxMiss = 0.05

// spotPlanName renders a spot option (on-demand, spot, spot+fallback) in
// the printer's language; English keeps the engine's names.
func spotPlanName(p *i18n.Printer, name string) string {
	if p.Lang() == i18n.EN {
		return name
	}
	return p.Or("cli.spot.plan."+name, name)
}

// spotTexts are the verdict, the interruption-rate source and the
// assumptions of a spot answer in the printer's language. English keeps
// the engine's sentences; Chinese renders them from the answer's figures.
func spotTexts(p *i18n.Printer, c *catalog.Catalog, ans *document.SpotAnswer, mtbiGiven bool) (verdict, source string, assumptions []string) {
	d, r, j := ans.Decision, ans.Risk, ans.Job
	if p.Lang() == i18n.EN {
		return d.Verdict, r.Source, ans.Assumptions
	}
	cur := d.Currency
	var b, o struct{ cost, hours, p90, miss float64 }
	for _, x := range d.Options {
		if x.Name == d.Best {
			b.cost, b.hours, b.p90, b.miss = x.ExpectedCost, x.ExpectedHours, x.P90Hours, x.DeadlineMiss
		}
		if x.Name == "on-demand" {
			o.cost, o.hours = x.ExpectedCost, x.ExpectedHours
		}
	}
	switch {
	case j.Work == 0:
		verdict = p.T("cli.spot.verdict.nowork")
	case d.Best == "on-demand" && b.miss > spotMaxMiss:
		verdict = p.T("cli.spot.verdict.deadline", g4(j.Deadline), g4(j.Work))
	case d.Best == "on-demand":
		verdict = p.T("cli.spot.verdict.stay", fmt.Sprintf("%.2f", d.Spot.MeanCost), cur, g4(d.Spot.MeanHours), fmt.Sprintf("%.2f", o.cost), g4(o.hours))
	default:
		verdict = p.T("cli.spot.verdict.pays", spotPlanName(p, d.Best), fmt.Sprintf("%.2f", b.cost), cur, fmt.Sprintf("%.2f", o.cost),
			fmt.Sprintf("%.0f", 100*(1-b.cost/o.cost)), g4(b.hours), g4(b.p90))
		if j.Deadline > 0 {
			verdict += p.T("cli.spot.verdict.risk", fmt.Sprintf("%.1f", 100*b.miss), g4(j.Deadline))
		}
	}

	sp := ans.SpotOffer
	source = r.Source
	switch {
	case mtbiGiven:
		source = p.T("cli.spot.src.given")
	case sp == nil:
	case r.Prior != nil:
		// The prior's own line follows in Chinese; the rate is derived from it.
		source = p.T("cli.spot.src.prior", sp.Provider, sp.InstanceName, sp.RegionCode)
	case r.Assumed:
		source = p.T("cli.spot.src.assumed", sp.Provider, sp.InstanceName, sp.RegionCode)
	default:
		if bd, ok := c.InterruptionBand(sp.Provider, sp.InstanceName, sp.RegionCode); ok {
			// As the engine: the band's upper bound, or 30% for an open band.
			pct, bound := bd.HighPct.InexactFloat64(), p.T("cli.spot.src.upper")
			if !bd.HighPct.IsPositive() {
				pct, bound = 30, p.T("cli.spot.src.open")
			}
			source = p.T("cli.spot.src.band", bd.Band, bd.Source.Ref, p.AsOfFull(bd.Source.AsOfString(), bd.Source.ReadOnString()), bound, fmt.Sprintf("%.0f", pct),
				fmt.Sprintf("%.2f", pct/100), fmt.Sprintf("%.0f", r.MTBI))
		}
	}

	if r.Assumed {
		assumptions = append(assumptions, source)
	}
	notice := p.T("web.spot.as.no_notice")
	if sp != nil {
		if f, ok := c.SpotFacts(sp.Provider); ok && f.NoticeKnown {
			notice = p.T("web.spot.as.notice", f.NoticeSeconds, p.Or("source."+string(f.Source.Kind), string(f.Source.Kind)), p.SourceDate(f.Source.AsOfString(), f.Source.ReadOnString()))
		}
		assumptions = append(assumptions, notice,
			p.T("web.spot.as.price", roundNum(ans.Doc.SpotPrice.String(), 4), cur, p.AsOfPhrase(sp.Source.AsOfString(), sp.Source.ReadOnString()), p.Or("source."+string(sp.Source.Kind), string(sp.Source.Kind))))
	}
	assumptions = append(assumptions, p.T("web.spot.as.billed"))
	if r.WeibullK != 0 && r.WeibullK != 1 {
		assumptions = append(assumptions, p.T("cli.spot.weibull", fmt.Sprintf("%.3g", r.WeibullK)))
	}
	return verdict, source, assumptions
}

// roundNum rounds a decimal string to places, as the engine's sentences do.
func roundNum(s string, places int32) string {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	return d.Round(places).String()
}

// g4 formats hours as the spot engine's sentences do (%.4g).
func g4(v float64) string { return fmt.Sprintf("%.4g", v) }
