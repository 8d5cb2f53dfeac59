package server

import (
	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// coverageView is the billing-model coverage section of the About page:
// the provider × billing-model matrix, the spot coverage line and, per
// provider and model, why prices are missing.
type coverageView struct {
	Headers []string
	Rows    [][]string
	Spot    string
	Gaps    string
	Reasons []gapReason
}

type gapReason struct {
	Provider, Model, Reason string
	Offers                  int
}

func buildCoverage(p *i18n.Printer, c *catalog.Catalog, s catalog.Stats) coverageView {
	m := c.CoverageMatrix(s)
	v := coverageView{Headers: []string{p.T("col.provider")}}
	for _, col := range m.Models {
		v.Headers = append(v.Headers, p.BillingModel(col))
	}
	name := func(id string) string {
		if pr, ok := c.Provider(id); ok {
			if p.Lang() == i18n.ZH && pr.NameZH != "" {
				return pr.NameZH
			}
			return pr.NameEN
		}
		return id
	}
	for _, r := range m.Rows {
		row := []string{name(r.Provider)}
		for i := range m.Models {
			row = append(row, r.Cell(i))
		}
		v.Rows = append(v.Rows, row)
	}
	sp := s.Spot
	v.Spot = p.T("stats.spot", sp.Offers, sp.WithSibling, sp.Band, sp.Prior, sp.PriorRated, 100*sp.Covered(), sp.None)
	v.Gaps = p.T("stats.gaps_legend", s.Gaps)
	for _, pr := range c.Providers() {
		ps := s.ByProvider[pr.ID]
		for _, bm := range c.BillingModels(pr.ID) {
			if n := ps.GapsByBilling[bm.Billing]; n > 0 && bm.Sold {
				reason := bm.GapReason
				if p.Lang() == i18n.ZH && bm.GapReasonZH != "" {
					reason = bm.GapReasonZH
				}
				v.Reasons = append(v.Reasons, gapReason{Provider: name(pr.ID), Model: p.Billing(string(bm.Billing), bm.Billing.Family()), Reason: reason, Offers: n})
			}
		}
	}
	return v
}
