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

// billingFamilies are the matrix columns of catalog stats, in display order.
var billingFamilies = []string{"on-demand", "spot", "reserved", "savings-plan", "committed", "subscription", "capacity-block"}

// coverageGrid is the provider × billing-model matrix: offers per family,
// with "✗N" for on-demand offers lacking a price for a model the provider
// sells (billing_models.csv).
func coverageGrid(p *i18n.Printer, c *catalog.Catalog, s catalog.Stats) *output.Grid {
	g := &output.Grid{Headers: []string{p.T("col.provider")}, Align: []output.Align{output.Left}}
	for _, f := range billingFamilies {
		g.Headers = append(g.Headers, p.Billing(f, f))
		g.Align = append(g.Align, output.Right)
	}
	for _, pr := range c.Providers() {
		ps := s.ByProvider[pr.ID]
		offers, gaps := map[string]int{}, map[string]int{}
		for b, n := range ps.OffersByBilling {
			offers[b.Family()] += n
		}
		for b, n := range ps.GapsByBilling {
			gaps[b.Family()] += n
		}
		row := []string{pr.ID}
		for _, f := range billingFamilies {
			cell := "-"
			if offers[f] > 0 {
				cell = strconv.Itoa(offers[f])
			}
			if gaps[f] > 0 {
				cell += " ✗" + strconv.Itoa(gaps[f])
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

// writeOfferGaps names, for each on-demand offer in the compared plans, the
// billing models its provider sells that the catalog has no price for: a
// 24/7 plan that cannot be weighed against 包年包月 or a reservation says so
// instead of silently comparing on-demand alone.
func writeOfferGaps(w io.Writer, p *i18n.Printer, c *catalog.Catalog, res *pricing.TCO) {
	want := map[string]bool{}
	for _, pl := range res.Plans {
		for _, b := range pl.Breakdowns {
			if o := b.Offer; o != nil && o.Billing == catalog.OnDemand {
				want[o.Provider+"/"+o.InstanceName+"/"+o.RegionCode] = true
			}
		}
	}
	if len(want) == 0 {
		return
	}
	for _, g := range c.Gaps() {
		if want[g.Provider+"/"+g.InstanceName+"/"+g.Region] && g.Billing.IsCommitment() {
			fmt.Fprintln(w, "• "+p.T("tco.gap", g.Provider+"/"+g.InstanceName+"/"+g.Region, p.Billing(string(g.Billing), g.Billing.Family()), g.Reason))
		}
	}
}
