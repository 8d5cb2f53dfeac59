package recommend

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/spot"
)

// sourceURL finds the addresses in a source reference.
var sourceURL = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s()"]+`) })

// refAddresses is a source reference cut to its addresses (the words
// around them are the provider's, in English), or the reference itself
// when it has none.
func refAddresses(ref string) string {
	if u := sourceURL().FindAllString(ref, -1); len(u) > 0 {
		return strings.Join(u, " ")
	}
	return ref
}

// spotSource is where a spot offer's interruption rate comes from, in the
// printer's language: the spot engine's sentence in English; in Chinese a
// sentence built from the same facts, the provider's Chinese wording of
// its prior, and the source's addresses.
func spotSource(p *i18n.Printer, r *spot.Risk, o *catalog.Offer) string {
	if p.Lang() == i18n.EN || r == nil || o == nil {
		if r == nil {
			return ""
		}
		return r.Source
	}
	mtbi := fmt.Sprintf("%.0f", r.MTBI)
	switch pr := r.Prior; {
	case pr != nil:
		band := pr.BandZH
		if band == "" {
			band = pr.Band
		}
		date := p.SourceDate(pr.AsOf, pr.ReadOn)
		if !pr.Rated {
			return p.T("rec.spot_src.prior_norate", pr.Provider, band, refAddresses(pr.Ref), date)
		}
		return p.T("rec.spot_src.prior", o.InstanceName, o.RegionCode, pr.Provider, band, refAddresses(pr.Ref), date, mtbi)
	case r.Assumed:
		return p.T("cli.spot.src.assumed", o.Provider, o.InstanceName, o.RegionCode)
	}
	return p.T("rec.spot_src.band", refAddresses(r.Source), mtbi)
}
