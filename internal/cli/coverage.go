package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing"
)

// coverageColumn groups billing codes for the matrix: the family and the
// term ("reserved-1y" covers the no-, partial- and all-upfront variants),
// so 包月, 包年 and 3-year subscriptions stay separate models.
func coverageColumn(b catalog.Billing) string {
	f := b.Family()
	switch b.TermHours() {
	case catalog.HoursPerMonth:
		return f + "-1m"
	case catalog.HoursPerYear:
		return f + "-1y"
	case catalog.HoursPer3Year:
		return f + "-3y"
	}
	return f
}

// coverageLabel renders a matrix column in the printer's language.
func coverageLabel(p *i18n.Printer, col string) string {
	for _, b := range catalog.BillingCodes() {
		if coverageColumn(b) != col {
			continue
		}
		if b.Family() == "subscription" || col == b.Family() {
			return p.Billing(string(b), b.Family())
		}
		if p.Billing(string(b), b.Family()) == string(b) { // English: the column key
			return col
		}
		term := "1年"
		if b.TermHours() == catalog.HoursPer3Year {
			term = "3年"
		}
		return p.T("billing."+b.Family()) + " " + term
	}
	return col
}

// coverageGrid is the provider × billing-model matrix: offers per model
// (family and term), with "✗N" for on-demand offers lacking a price for a
// model the provider sells (billing_models.csv). Only models with an offer
// or a gap somewhere get a column.
func coverageGrid(p *i18n.Printer, c *catalog.Catalog, s catalog.Stats) *output.Grid {
	used := map[string]bool{}
	for _, ps := range s.ByProvider {
		for b := range ps.OffersByBilling {
			used[coverageColumn(b)] = true
		}
		for b := range ps.GapsByBilling {
			used[coverageColumn(b)] = true
		}
	}
	var cols []string
	seen := map[string]bool{}
	for _, b := range catalog.BillingCodes() {
		if col := coverageColumn(b); used[col] && !seen[col] {
			seen[col] = true
			cols = append(cols, col)
		}
	}
	g := &output.Grid{Headers: []string{p.T("col.provider")}, Align: []output.Align{output.Left}}
	for _, col := range cols {
		g.Headers = append(g.Headers, coverageLabel(p, col))
		g.Align = append(g.Align, output.Right)
	}
	for _, pr := range c.Providers() {
		ps := s.ByProvider[pr.ID]
		offers, gaps := map[string]int{}, map[string]int{}
		for b, n := range ps.OffersByBilling {
			offers[coverageColumn(b)] += n
		}
		for b, n := range ps.GapsByBilling {
			gaps[coverageColumn(b)] += n
		}
		row := []string{pr.ID}
		for _, col := range cols {
			cell := "-"
			if offers[col] > 0 {
				cell = strconv.Itoa(offers[col])
			}
			if gaps[col] > 0 {
				cell += " ✗" + strconv.Itoa(gaps[col])
			}
			row = append(row, cell)
		}
		g.Add(row...)
	}
	return g
}

// writeCoverage prints the billing-model matrix and the spot coverage
// under the stats table.
func writeCoverage(w io.Writer, p *i18n.Printer, c *catalog.Catalog, s catalog.Stats, tty bool) error {
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.T("stats.matrix"))
	if err := output.Write(w, output.Table, coverageGrid(p, c, s), tty); err != nil {
		return err
	}
	fmt.Fprintln(w, p.T("stats.gaps_legend", s.Gaps))
	sp := s.Spot
	fmt.Fprintln(w, p.T("stats.spot", sp.Offers, sp.WithSibling, sp.Band, sp.Prior, sp.PriorRated, 100*sp.Covered(), sp.None))
	return nil
}

// offerGaps renders, for an on-demand offer ID, the commitment billing
// models its provider sells that the catalog cannot price: a 24/7 plan that
// cannot be weighed against 包年包月 or a reservation says so instead of
// silently comparing on-demand alone.
func offerGaps(p *i18n.Printer, gaps []catalog.Gap, offerID string) []string {
	var out []string
	for _, g := range gaps {
		key := g.Provider + "/" + g.InstanceName + "/" + g.Region
		if offerID == key+"/"+string(catalog.OnDemand) && g.Billing.IsCommitment() {
			out = append(out, p.T("tco.gap", key, p.Billing(string(g.Billing), g.Billing.Family()), g.Reason))
		}
	}
	return out
}

// writeOfferGaps prints offerGaps for every on-demand offer in the
// compared plans.
func writeOfferGaps(w io.Writer, p *i18n.Printer, c *catalog.Catalog, res *pricing.TCO) {
	gaps := c.Gaps()
	seen := map[string]bool{}
	for _, pl := range res.Plans {
		for _, b := range pl.Breakdowns {
			if o := b.Offer; o != nil && !seen[o.ID()] {
				seen[o.ID()] = true
				for _, s := range offerGaps(p, gaps, o.ID()) {
					fmt.Fprintln(w, "• "+s)
				}
			}
		}
	}
}
