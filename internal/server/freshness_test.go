package server_test

import (
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// TestFooterFreshness checks that every page's footer says, in English and
// Chinese, what share of the catalog's prices is within 12 months and their
// median age, the same figures catalog stats computes.
func TestFooterFreshness(t *testing.T) {
	srv := newServer(t)
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := ds.Catalog.Freshness(now)
	share := fmt.Sprintf("%.0f%%", 100*f.Share())
	days := int(math.Round(f.MedianAgeDays))
	for lang, want := range map[string]string{
		"en": fmt.Sprintf("%s of prices within 12 months, median age %d days.", share, days),
		"zh": fmt.Sprintf("12 个月内的价格占 %s，价格日期中位数 %d 天前。", share, days),
	} {
		rec := get(t, srv, "/offers?lang="+lang)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d", lang, rec.Code)
		}
		m := regexp.MustCompile(`<span data-freshness>([^<]*)</span>`).FindStringSubmatch(rec.Body.String())
		if m == nil || m[1] != want {
			t.Errorf("%s footer freshness = %v, want %q", lang, m, want)
		}
	}
}
