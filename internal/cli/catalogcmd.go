package cli

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/spf13/cobra"
)

func (a *app) catalogCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Inspect the catalog: validate it, count it, list its sources and the seed articles' claims",
		Example: `  gpuscout catalog validate
  gpuscout catalog validate --catalog ./my-prices
  gpuscout catalog stats -o json
  gpuscout catalog sources
  gpuscout catalog claims --verdict wrong`,
	}
	cmd.AddCommand(a.catalogValidateCmd(), a.catalogStatsCmd(), a.catalogSourcesCmd(), a.catalogClaimsCmd(),
		a.catalogImportCmd(), a.catalogUpdateCmd(), a.catalogHistoryCmd(), a.catalogDiffCmd(), a.catalogSnapshotsCmd(), a.catalogPublishCmd())
	return cmd
}

func (a *app) catalogValidateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate",
		Short: "Check every record of the catalog (embedded, or --catalog DIR) and report each problem with file, line and field",
		Long: `Check every record: required fields, units, IDs unique and resolvable, no negative prices,
spot and commitment prices not above on-demand for the same instance and region, GPU memory
consistent with the GPU model and count, and a source and as-of date on every figure.
Exits 0 when the catalog is valid and 3 when it is not. Prices older than 12 months are
reported as warnings.`,
		Example: `  gpuscout catalog validate
  gpuscout catalog validate --catalog ./my-prices -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.runValidate() },
	}
}

func (a *app) runValidate() error {
	a.fromCSV = true // the files themselves, not the compiled catalog
	ds, err := a.data()
	var ve *catalog.ValidationError
	if err != nil && !errors.As(err, &ve) {
		return err
	}
	if ve != nil {
		if a.out == output.JSON {
			if werr := output.WriteJSON(a.io.Out, document.BuildValidation(ve.Problems, nil)); werr != nil {
				return werr
			}
		} else {
			for _, p := range ve.Problems {
				fmt.Fprintln(a.io.Out, p.Error())
			}
		}
		return &dataError{err: fmt.Errorf("catalog is invalid: %d problem(s)", len(ve.Problems))}
	}
	c := ds.Catalog
	var warnings []catalog.Problem
	now := a.today()
	for _, o := range c.Offers() {
		switch {
		case o.Source.Undated():
			warnings = append(warnings, catalog.Problem{Record: o.ID(), Field: "read_on",
				Msg: fmt.Sprintf("price is undated (read %s): the source shows no date, so it counts as not fresh", o.Source.ReadOnString())})
		case stale(o.Source.AsOf, now):
			warnings = append(warnings, catalog.Problem{Record: o.ID(), Field: "as_of",
				Msg: fmt.Sprintf("price is more than %d months old (%s)", staleMonths, o.Source.AsOfString())})
		}
	}
	if a.out == output.JSON {
		return output.WriteJSON(a.io.Out, document.BuildValidation(nil, warnings))
	}
	s := c.Stats()
	fmt.Fprintln(a.io.Out, a.printer.T("note.catalog_ok", s.Providers, s.Regions, s.GPUs, s.InstanceTypes, s.Offers, s.Claims))
	undated := 0
	for _, w := range warnings {
		if w.Field == "read_on" {
			undated++
		}
	}
	if n := len(warnings) - undated; n > 0 {
		fmt.Fprintln(a.io.Out, a.printer.T("note.stale", n, staleMonths))
	}
	if undated > 0 {
		fmt.Fprintln(a.io.Out, a.printer.T("note.undated", undated))
	}
	return nil
}

func (a *app) catalogStatsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Count providers, regions, GPU models, instance types and offers, per provider and billing model",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ds, err := a.data()
			if err != nil {
				return err
			}
			s := ds.Catalog.StatsWithCoverage()
			if a.out == output.JSON {
				doc := document.BuildCatalogStats(s)
				doc.SetFreshness(ds.Catalog.Freshness(a.today()))
				return output.WriteJSON(a.io.Out, doc)
			}
			p := a.printer
			g := &output.Grid{
				Headers: []string{p.T("col.provider"), p.T("col.regions"), p.T("col.instances"), p.T("col.offers"),
					p.T("col.median_age"), p.T("col.fresh_share"), p.T("col.undated"), p.T("col.billing_codes")},
				Align: []output.Align{output.Left, output.Right, output.Right, output.Right, output.Right, output.Right, output.Right, output.Left},
			}
			all, fresh := ds.Catalog.Freshness(a.today())
			var ids []string
			for _, pr := range ds.Catalog.Providers() {
				ps := s.ByProvider[pr.ID]
				ids = append(ids, pr.ID)
				var codes []string
				for _, b := range ps.Billing {
					codes = append(codes, billingLabel(p, b))
				}
				f := fresh[pr.ID]
				age, undated := "–", "–"
				if f.Offers > 0 {
					undated = strconv.Itoa(f.Undated)
					if f.Offers > f.Undated {
						age = strconv.Itoa(medianDays(f))
					}
				}
				g.Add(pr.ID, strconv.Itoa(ps.Regions), strconv.Itoa(ps.InstanceTypes), strconv.Itoa(ps.Offers), age, freshShare(f), undated, strings.Join(codes, ", "))
			}
			g.Add("", strconv.Itoa(s.Regions), strconv.Itoa(s.InstanceTypes), strconv.Itoa(s.Offers), strconv.Itoa(medianDays(all)), freshShare(all), strconv.Itoa(all.Undated), "")
			if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
				return err
			}
			if a.out != output.Table && a.out != output.Markdown {
				return nil
			}
			// In Markdown every note is its own paragraph, so that the
			// output pastes into a document as it reads in a terminal.
			w := a.io.Out
			if a.out == output.Markdown {
				w = &paragraphs{w: a.io.Out}
			}
			fmt.Fprintf(w, "\n%s: %d · %s: %d · %s: %d · %s: %s · %s: %s\n",
				p.T("stats.providers"), s.Providers, p.T("stats.gpus"), s.GPUs, p.T("stats.claims"), s.Claims,
				p.T("stats.oldest"), s.OldestAsOf.Format(catalog.DateLayout), p.T("stats.newest"), s.NewestAsOf.Format(catalog.DateLayout))
			var kinds []string
			for k, n := range s.BySourceKind {
				label := string(k) // the catalog's code, as source_kind writes it
				if p.Lang() != i18n.EN {
					label = p.T("source." + string(k))
				}
				kinds = append(kinds, fmt.Sprintf("%s %d", label, n))
			}
			sort.Strings(kinds)
			fmt.Fprintf(w, "%s: %s\n", p.T("col.source"), strings.Join(kinds, ", "))
			fmt.Fprintln(w, p.T("stats.freshness", catalog.FreshMonths, freshShare(all), all.Offers, medianDays(all)))
			fmt.Fprintln(w, p.T("stats.undated", all.Undated))
			writePublicFileFreshness(w, p, catalog.PublicFileFreshness(fresh))
			writeNoPriceFile(w, p, ids, fresh)
			return writeCoverage(w, a.out, p, ds.Catalog, s, a.tty())
		},
	}
}

func (a *app) catalogSourcesCmd() *cobra.Command {
	var kind string
	cmd := &cobra.Command{
		Use:   "sources",
		Short: "List every source the catalog cites, how many records cite it, and their dates",
		Example: `  gpuscout catalog sources
  gpuscout catalog sources --kind official-api -o csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ds, err := a.data()
			if err != nil {
				return err
			}
			if kind != "" && !catalog.SourceKind(kind).Valid() {
				return usagef("kinds: official-api, official-doc, third-party, seed-claim, user, estimate.", "unknown source kind %q", kind)
			}
			var list []catalog.SourceUse
			for _, u := range ds.Catalog.Sources() {
				if kind == "" || string(u.Kind) == kind {
					list = append(list, u)
				}
			}
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, document.BuildSources(list))
			}
			p := a.printer
			g := &output.Grid{
				Headers: []string{p.T("col.kind"), p.T("col.records"), p.T("col.as_of"), p.T("col.ref")},
				Align:   []output.Align{output.Left, output.Right, output.Left, output.Left},
			}
			for _, u := range list {
				var dates string
				if !u.Oldest.IsZero() {
					dates = u.Oldest.Format(catalog.DateLayout)
					if !u.Newest.Equal(u.Oldest) {
						dates += ".." + u.Newest.Format(catalog.DateLayout)
					}
				}
				if u.Undated > 0 {
					undated := p.SourceDate("", u.ReadOn.Format(catalog.DateLayout))
					if dates != "" {
						undated = dates + ", " + undated
					}
					dates = undated
				}
				ref := u.Ref
				if a.out == output.Table && a.tty() {
					ref = shortRef(ref)
				}
				g.Add(enumLabel(p, "source.", string(u.Kind)), strconv.Itoa(u.Records), dates, ref)
			}
			return output.Write(a.io.Out, a.out, g, a.tty())
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "", "only sources of this kind")
	return cmd
}

func (a *app) catalogClaimsCmd() *cobra.Command {
	var verdict string
	cmd := &cobra.Command{
		Use:   "claims",
		Short: "List the seed articles' claims with verdicts and the evidence behind each",
		Long: `gpuscout began from two Chinese blog posts comparing GPU clouds. Several of their figures are
wrong. The catalog records verified facts; each claim of the articles is kept here with its
verdict (correct, wrong, partly-correct, unverifiable, outdated) and the evidence.`,
		Example: `  gpuscout catalog claims
  gpuscout catalog claims --verdict wrong -o markdown`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ds, err := a.data()
			if err != nil {
				return err
			}
			if verdict != "" && !catalog.ValidVerdict(verdict) {
				return usagef("verdicts: correct, wrong, partly-correct, unverifiable, outdated.", "unknown verdict %q", verdict)
			}
			var list []*catalog.Claim
			for _, c := range ds.Catalog.Claims() {
				if verdict == "" || c.Verdict == verdict {
					list = append(list, c)
				}
			}
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, document.BuildClaims(list))
			}
			p := a.printer
			g := &output.Grid{Headers: []string{p.T("col.id"), p.T("col.subject"), p.T("col.claimed"), p.T("col.verdict"), p.T("col.actual")}}
			if a.out != output.Table {
				g.Headers = append(g.Headers, p.T("col.seed"), p.T("cli.claims.col.quote"), p.T("col.evidence"))
			}
			counts := map[string]int{}
			for _, c := range list {
				counts[c.Verdict]++
				claimed, actual, evidence := c.Claimed, c.Actual, c.Evidence
				if p.Lang() == i18n.ZH && c.ClaimedZH != "" && c.ActualZH != "" && c.EvidenceZH != "" {
					claimed, actual, evidence = c.ClaimedZH, c.ActualZH, c.EvidenceZH // the data's own translation
				}
				row := []string{c.ID, c.Subject, cell(claimed, 40), enumLabel(p, "cli.verdict.", c.Verdict), cell(actual, 60)}
				if a.out != output.Table {
					row = []string{c.ID, c.Subject, claimed, c.Verdict, actual, c.Seed, c.Quote, evidence}
				}
				g.Add(row...)
			}
			if err := output.Write(a.io.Out, a.out, g, a.tty()); err != nil {
				return err
			}
			if a.out == output.Table {
				other := len(list) - counts["wrong"] - counts["partly-correct"] - counts["correct"]
				fmt.Fprintln(a.io.Out)
				fmt.Fprintln(a.io.Out, p.T("note.claims", len(list), counts["wrong"], counts["partly-correct"], counts["correct"], other))
				fmt.Fprintln(a.io.Out, p.T("cli.claims.full"))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&verdict, "verdict", "", "only claims with this verdict")
	return cmd
}

// cell shortens s to n runes on one line for a table.
func cell(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
