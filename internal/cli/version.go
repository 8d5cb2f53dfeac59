package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/gpuscout/gpuscout/internal/catalog"
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
			ds, err := a.data()
			if err != nil {
				return err
			}
			st := ds.Catalog.Stats()
			all, byProvider := ds.Catalog.Freshness(a.today())
			if a.out == output.JSON {
				fresh := map[string]any{}
				for id, f := range byProvider {
					fresh[id] = map[string]any{"offers": f.Offers, "fresh_share": f.Share(), "median_age_days": medianDays(f)}
				}
				return output.WriteJSON(a.io.Out, map[string]any{"schema": "gpuscout/version@v1", "version": version,
					"revision": revision, "go": goVersion, "catalog_oldest_as_of": st.OldestAsOf.Format(catalog.DateLayout),
					"catalog_newest_as_of": st.NewestAsOf.Format(catalog.DateLayout),
					"fresh_months":         catalog.FreshMonths, "fresh_share": all.Share(), "median_age_days": medianDays(all),
					"freshness_by_provider": fresh})
			}
			fmt.Fprintf(a.io.Out, "gpuscout %s", version)
			if revision != "" {
				fmt.Fprintf(a.io.Out, " (%s)", revision)
			}
			fmt.Fprintf(a.io.Out, " %s\ncatalog: %d offers, as of %s to %s\n", goVersion, st.Offers,
				st.OldestAsOf.Format(catalog.DateLayout), st.NewestAsOf.Format(catalog.DateLayout))
			fmt.Fprintln(a.io.Out, a.printer.T("version.freshness", freshShare(all), catalog.FreshMonths, medianDays(all)))
			return nil
		},
	}
}
