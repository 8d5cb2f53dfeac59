package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/importer/alibaba"
	"github.com/gpuscout/gpuscout/internal/importer/baidu"
	"github.com/gpuscout/gpuscout/internal/importer/huawei"
	"github.com/gpuscout/gpuscout/internal/importer/tencent"
)

// credentialRefresh maps each provider that publishes no public price file
// (catalog.PublicPriceFile) to the command that refreshes its prices with
// the user's own credentials.
func credentialRefresh() map[string]string {
	return map[string]string{
		"alibaba": alibaba.EnvAccessKeyID + "=… " + alibaba.EnvAccessKeySecret + "=… gpuscout catalog update --provider alibaba",
		"tencent": tencent.EnvSecretID + "=… " + tencent.EnvSecretKey + "=… gpuscout catalog update --provider tencent",
		"huawei":  huawei.EnvAccessKey + "=… " + huawei.EnvSecretKey + "=… gpuscout catalog update --provider huawei",
		"baidu":   baidu.EnvAccessKeyID + "=… " + baidu.EnvSecretAccessKey + "=… gpuscout catalog update --provider baidu",
	}
}

// freshShare renders the share of fresh prices as a whole percentage.
func freshShare(f catalog.Freshness) string {
	if f.Offers == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*f.Share())
}

// medianDays rounds a freshness's median age to whole days.
func medianDays(f catalog.Freshness) int { return int(math.Round(f.MedianAgeDays)) }

// writeNoPriceFile prints, for each listed provider that has offers but no
// public price file, where its prices come from and how to refresh them.
func writeNoPriceFile(w io.Writer, p *i18n.Printer, providers []string, by map[string]catalog.Freshness) {
	refresh := credentialRefresh()
	for _, id := range providers {
		if cmd, ok := refresh[id]; ok && by[id].Offers > 0 {
			fmt.Fprintln(w, p.T("stats.no_price_file", id, cmd))
		}
	}
}

// writePublicFileFreshness prints the share of the public-price-file
// providers' offers priced within catalog.FreshMonths.
func writePublicFileFreshness(w io.Writer, p *i18n.Printer, ff catalog.FileFreshness) {
	if ff.Offers == 0 {
		return
	}
	share := fmt.Sprintf("%.1f%%", 100*ff.Share())
	without := strings.Join(ff.Without, ", ")
	if without == "" {
		without = "–"
	}
	fmt.Fprintln(w, p.T("stats.freshness_public", share, ff.Offers, catalog.FreshMonths, without))
}
