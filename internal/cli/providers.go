package cli

import (
	"sort"
	"strconv"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"strings"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/spf13/cobra"
)

func (a *app) providersCmd() *cobra.Command {
	var category string
	var only []string
	var matrix bool
	cmd := &cobra.Command{
		Use:   "providers",
		Short: "Compare the providers' services: ML platforms, Kubernetes, acceleration, support, compliance, regions",
		Example: `  gpuscout providers
  gpuscout providers --category support --lang zh
  gpuscout providers --provider vast,runpod,huawei`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ds, err := a.data()
			if err != nil {
				return err
			}
			c := ds.Catalog
			ids, err := resolveProviders(c, only)
			if err != nil {
				return err
			}
			doc := document.BuildProviders(c.Ecosystem(), category)
			if len(ids) > 0 {
				doc.Facts = keepProviders(doc.Facts, ids)
			}
			facts := doc.Facts
			cats := map[string]bool{}
			for _, f := range facts {
				cats[f.Category] = true
			}
			if category != "" && len(facts) == 0 {
				return usagef("categories: ml-platform, kubernetes, acceleration, windows, wechat, console-language, support, compliance, free-trial, user-regions, marketplace.", "no facts in category %q", category)
			}
			if a.out == output.JSON {
				return output.WriteJSON(a.io.Out, doc)
			}
			var catList []string
			for k := range cats {
				catList = append(catList, k)
			}
			sort.Strings(catList)
			var provs []string
			for _, p := range c.Providers() {
				if len(ids) == 0 || contains(ids, p.ID) {
					provs = append(provs, p.ID)
				}
			}
			zh := a.printer.Lang() == i18n.ZH
			cellOf := func(pv, cat string) string {
				var vals []string
				for _, f := range facts {
					if f.Provider == pv && f.Category == cat {
						v := f.Key
						if v == "" || cat == "windows" || cat == "wechat" || cat == "user-regions" || cat == "free-trial" || cat == catalog.CategoryMarketplace {
							v = f.Value
							if zh && f.ValueZH != "" {
								v = f.ValueZH
							}
						}
						vals = append(vals, cell(v, 40))
					}
				}
				if len(vals) > 3 && a.out == output.Table {
					vals = append(vals[:3], "…")
				}
				return strings.Join(vals, "; ")
			}
			var g *output.Grid
			if a.out == output.Table && len(provs) > maxProviderColumns && !matrix {
				// Too many providers for side-by-side columns: one row per
				// provider and category instead.
				g = &output.Grid{Headers: []string{a.printer.T("col.provider"), a.printer.T("perf.class"), a.printer.T("col.value")}}
				for _, pv := range provs {
					for _, cat := range catList {
						if v := cellOf(pv, cat); v != "" {
							g.Add(pv, a.printer.Or("web.providers.cat."+cat, cat), v)
						}
					}
				}
			} else {
				g = &output.Grid{Headers: append([]string{a.printer.T("perf.class")}, provs...)}
				for _, cat := range catList {
					row := []string{a.printer.Or("web.providers.cat."+cat, cat)}
					for _, pv := range provs {
						v := cellOf(pv, cat)
						if v == "" {
							v = "-"
						}
						row = append(row, v)
					}
					g.Add(row...)
				}
			}
			return output.Write(a.io.Out, a.out, g, a.tty())
		},
	}
	cmd.Flags().StringVar(&category, "category", "", "only this category")
	cmd.Flags().StringSliceVar(&only, "provider", nil, "only these providers (columns); repeatable or comma-separated")
	cmd.Flags().BoolVar(&matrix, "matrix", false, "one column per provider even when more than "+strconv.Itoa(maxProviderColumns)+" are shown")
	return cmd
}

// maxProviderColumns is the most providers a table shows side by side; with
// more, the table lists one row per provider and category (--matrix keeps
// the columns).
const maxProviderColumns = 6

// keepProviders keeps the facts of the given providers.
func keepProviders(facts []document.ProviderFact, ids []string) []document.ProviderFact {
	out := []document.ProviderFact{}
	for _, f := range facts {
		if contains(ids, f.Provider) {
			out = append(out, f)
		}
	}
	return out
}
