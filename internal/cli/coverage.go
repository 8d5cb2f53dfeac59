package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/gpuscout/gpuscout/internal/pricing"
)

// coverageGrid renders the provider × billing-model matrix: offers per
// model, with "✗N" for on-demand offers lacking a price for a model the
// provider sells (billing_models.csv).
func coverageGrid(p *i18n.Printer, c *catalog.Catalog, s catalog.Stats) *output.Grid {
	m := c.CoverageMatrix(s)
	g := &output.Grid{Headers: []string{p.T("col.provider")}, Align: []output.Align{output.Left}}
	for _, col := range m.Models {
		g.Headers = append(g.Headers, p.BillingModel(col))
		g.Align = append(g.Align, output.Right)
	}
	for _, r := range m.Rows {
		row := []string{r.Provider}
		for i := range m.Models {
			row = append(row, r.Cell(i))
		}
		g.Add(row...)
	}
	return g
}

// writeCoverage prints the billing-model matrix and the spot coverage
// under the stats table.
func writeCoverage(w io.Writer, f output.Format, p *i18n.Printer, c *catalog.Catalog, s catalog.Stats, tty bool) error {
	fmt.Fprintln(w)
	fmt.Fprintln(w, p.T("stats.matrix"))
	tw := w
	pw, md := w.(*paragraphs)
	if md {
		// A Markdown table is written as is, after its caption
		// paragraph, and ends with a blank line.
		tw = pw.w
	}
	if err := output.Write(tw, f, coverageGrid(p, c, s), tty); err != nil {
		return err
	}
	if md {
		fmt.Fprintln(tw)
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
func offerGaps(p *i18n.Printer, c *catalog.Catalog, offerID string) []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, g := range c.GapsOf(offerID) {
		key := g.Provider + "/" + g.InstanceName + "/" + g.Region
		if g.Billing.IsCommitment() {
			reason := g.Reason
			if p.Lang() == i18n.ZH && g.ReasonZH != "" {
				reason = g.ReasonZH
			}
			out = append(out, p.T("tco.gap", key, p.Billing(string(g.Billing), g.Billing.Family()), reason))
		}
	}
	return out
}

// writeOfferGaps prints offerGaps for every on-demand offer in the
// compared plans.
func writeOfferGaps(w io.Writer, p *i18n.Printer, c *catalog.Catalog, res *pricing.TCO) {
	seen := map[string]bool{}
	for _, pl := range res.Plans {
		for _, b := range pl.Breakdowns {
			if o := b.Offer; o != nil && !seen[o.ID()] {
				seen[o.ID()] = true
				for _, s := range offerGaps(p, c, o.ID()) {
					fmt.Fprintln(w, "• "+s)
				}
			}
		}
	}
}

// paragraphs writes each line it is given as a Markdown paragraph: the line
// followed by a blank line. Blank lines pass through once.
type paragraphs struct {
	w    io.Writer
	last byte
}

func (p *paragraphs) Write(b []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if line == "\n" {
			if p.last == '\n' {
				continue
			}
		} else if strings.HasSuffix(line, "\n") {
			line += "\n"
		}
		if _, err := io.WriteString(p.w, line); err != nil {
			return 0, err
		}
		p.last = line[len(line)-1]
	}
	return len(b), nil
}
