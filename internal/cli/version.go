package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/output"
	"github.com/spf13/cobra"
)

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gpuscout's version, build and the date range of its embedded catalog",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			version, revision, goVersion := "(devel)", "", ""
			if bi, ok := debug.ReadBuildInfo(); ok {
				goVersion = bi.GoVersion
				if bi.Main.Version != "" {
					version = bi.Main.Version
				}
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						revision = s.Value[:12]
					}
				}
			}
			all, byProvider, offers, err := a.versionFreshness()
			if err != nil {
				return err
			}
			if a.out == output.JSON {
				fresh := map[string]any{}
				for id, f := range byProvider {
					fresh[id] = map[string]any{"offers": f.Offers, "fresh_share": f.Share(), "median_age_days": medianDays(f)}
				}
				return output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/version@v1", "version": version,
					"revision": revision, "go": goVersion, "catalog_oldest_as_of": all.OldestAsOf.Format(catalog.DateLayout),
					"catalog_newest_as_of": all.NewestAsOf.Format(catalog.DateLayout),
					"fresh_months":         catalog.FreshMonths, "fresh_share": all.Share(), "median_age_days": medianDays(all),
					"freshness_by_provider": fresh})
			}
			fmt.Fprintf(a.io.Out, "gpuscout %s", version)
			if revision != "" {
				fmt.Fprintf(a.io.Out, " (%s)", revision)
			}
			fmt.Fprintf(a.io.Out, " %s\ncatalog: %d offers, as of %s to %s\n", goVersion, offers,
				all.OldestAsOf.Format(catalog.DateLayout), all.NewestAsOf.Format(catalog.DateLayout))
			fmt.Fprintln(a.io.Out, a.printer.T("version.freshness", freshShare(all), catalog.FreshMonths, medianDays(all)))
			return nil
		},
	}
}

// versionFreshness is the freshness of the catalog's prices, overall and
// by provider, and its number of offers. The embedded catalog alone (no
// --catalog, no --db) is measured from the price dates of its compiled
// form, without loading it; otherwise the catalog is loaded as every
// command loads it (imports of the default database included).
func (a *app) versionFreshness() (all catalog.Freshness, byProvider map[string]catalog.Freshness, offers int, err error) {
	if a.catalog == "" && a.db == "" && !a.dbReadOnly {
		if all, byProvider, n, ok := curated.OfferFreshness(a.env.Catalog, a.today()); ok {
			a.staleWarningAt(all.NewestAsOf)
			return all, byProvider, n, nil
		}
	}
	ds, err := a.data()
	if err != nil {
		return all, nil, 0, err
	}
	all, byProvider = ds.Catalog.Freshness(a.today())
	return all, byProvider, len(ds.Catalog.Offers()), nil
}
