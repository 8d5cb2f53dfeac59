package server_test

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// apiOfferDates are the as_of dates (and undated flags) of an API answer.
func apiOfferDates(t *testing.T, body []byte) (total int, asOf []string, undated int) {
	t.Helper()
	var doc struct {
		Total  int `json:"total"`
		Offers []struct {
			ID     string `json:"id"`
			Source struct {
				AsOf    *string `json:"as_of"`
				Undated bool    `json:"undated"`
			} `json:"source"`
		} `json:"offers"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, o := range doc.Offers {
		if o.Source.Undated {
			undated++
			continue
		}
		asOf = append(asOf, *o.Source.AsOf)
	}
	return doc.Total, asOf, undated
}

// TestFreshnessFilterAPI: max_age_months leaves out prices dated before
// the cut-off (the server's clock, less N months) and keeps undated ones;
// hide_undated leaves those out too; without either, nothing is dropped
// (the API's default is unchanged); a bad value is a 400 naming the field.
func TestFreshnessFilterAPI(t *testing.T) {
	srv := newServer(t)
	cutoff := now.AddDate(0, -12, 0).Format("2006-01-02")
	all, dates, undatedAll := apiOfferDates(t, get(t, srv, "/api/v1/offers?limit=0").Body.Bytes())
	stale := 0
	for _, d := range dates {
		if d < cutoff {
			stale++
		}
	}
	if stale == 0 || undatedAll == 0 {
		t.Fatalf("the catalog should hold prices older than %s (%d) and undated ones (%d) for this test", cutoff, stale, undatedAll)
	}
	fresh, dates, undated := apiOfferDates(t, get(t, srv, "/api/v1/offers?limit=0&max_age_months=12").Body.Bytes())
	for _, d := range dates {
		if d < cutoff {
			t.Fatalf("max_age_months=12 kept a price of %s (cut-off %s)", d, cutoff)
		}
	}
	if fresh != all-stale || undated != undatedAll {
		t.Errorf("max_age_months=12: %d offers (%d undated), want %d - %d stale = %d (%d undated)", fresh, undated, all, stale, all-stale, undatedAll)
	}
	dated, _, undated := apiOfferDates(t, get(t, srv, "/api/v1/offers?limit=0&max_age_months=12&hide_undated=true").Body.Bytes())
	if undated != 0 || dated != all-stale-undatedAll {
		t.Errorf("hide_undated: %d offers, %d undated; want %d, none undated", dated, undated, all-stale-undatedAll)
	}
	for _, bad := range []string{"-1", "x", "1201"} {
		w := get(t, srv, "/api/v1/offers?max_age_months="+bad)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `"max_age_months"`) {
			t.Errorf("max_age_months=%s: %d %s", bad, w.Code, w.Body.String())
		}
	}
}

var ageNote = regexp.MustCompile(`(?s)<span data-age>(.*?)</span></p>`)

// TestExplorerHidesOldPricesByDefault: the explorer leaves out prices
// older than 12 months unless asked, says how many it hid in the page's
// language with a link that shows them, and its CSV and JSON links carry
// the same choice; with max_age_months=0 every price is back.
func TestExplorerHidesOldPricesByDefault(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct{ lang, hidden, show string }{
		{"en", "prices older than 12 months hidden.", "Show them"},
		{"zh", "条超过 12 个月的价格。", "全部显示"},
	} {
		page := get(t, srv, "/offers?cheapest_region=false&lang="+c.lang).Body.String()
		m := ageNote.FindStringSubmatch(page)
		if m == nil || !strings.Contains(m[1], c.hidden) || !strings.Contains(m[1], c.show) || !strings.Contains(m[1], "max_age_months=0") {
			t.Fatalf("%s: the freshness note is %q", c.lang, m)
		}
		n := regexp.MustCompile(`(\d+)`).FindString(m[1])
		hidden, _ := strconv.Atoi(n)
		ids, _ := explorerRows(t, page)
		every, _ := explorerRows(t, get(t, srv, "/offers?cheapest_region=false&max_age_months=0&lang="+c.lang).Body.String())
		if hidden == 0 || len(ids)+hidden != len(every) {
			t.Errorf("%s: %d rows shown + %d hidden, but %d with every age", c.lang, len(ids), hidden, len(every))
		}
		for _, export := range []string{`href="(/offers\.csv\?[^"]*)"`, `href="(/api/v1/offers\?[^"]*)"`} {
			l := regexp.MustCompile(export).FindStringSubmatch(page)
			if l == nil || !strings.Contains(l[1], "max_age_months=12") {
				t.Errorf("%s: the export link %v does not carry the freshness filter", c.lang, l)
			}
		}
	}
}

// TestOffersCSVFollowsQuickFilterAndOrder: /offers.csv opened directly
// applies the quick filter (q) as the page's script does, and orders
// ties by offer ID.
func TestOffersCSVFollowsQuickFilterAndOrder(t *testing.T) {
	srv := newServer(t)
	read := func(target string) [][]string {
		t.Helper()
		w := get(t, srv, target)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d", target, w.Code)
		}
		recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(w.Body.String(), "\ufeff"))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return recs[1:]
	}
	all := read("/offers.csv?lang=en&cheapest_region=false&max_age_months=0")
	some := read("/offers.csv?lang=en&cheapest_region=false&max_age_months=0&q=H100+us-east")
	if len(some) == 0 || len(some) >= len(all) {
		t.Fatalf("q=H100 us-east kept %d of %d rows", len(some), len(all))
	}
	for _, r := range some {
		line := strings.ToLower(strings.Join(r, " "))
		if !strings.Contains(line, "h100") || !strings.Contains(line, "us-east") {
			t.Fatalf("a row without both words: %v", r)
		}
	}
	// sorted by provider: within a provider, ties go by offer ID
	byProvider := read("/offers.csv?lang=en&cheapest_region=false&max_age_months=0&order=provider&cols=provider,price")
	for i := 1; i < len(byProvider); i++ {
		a, b := byProvider[i-1], byProvider[i]
		if a[0] == b[0] && a[len(a)-1] > b[len(b)-1] {
			t.Fatalf("ties not in offer-ID order: %s before %s", a[len(a)-1], b[len(b)-1])
		}
	}
}
