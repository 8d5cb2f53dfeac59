package server_test

import (
	"context"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/server"
)

// explorerRows are the IDs and prices of the explorer's JSON rows.
func explorerRows(t *testing.T, body string) (ids, prices []string) {
	t.Helper()
	const open = `<script type="application/json" id="offers-data">`
	i := strings.Index(body, open)
	if i < 0 {
		t.Fatal("no offers data")
	}
	blob := body[i+len(open):]
	blob = blob[:strings.Index(blob, "</script>")]
	var d struct {
		Cols []string   `json:"cols"`
		Rows [][]string `json:"rows"`
	}
	if err := json.Unmarshal([]byte(blob), &d); err != nil {
		t.Fatalf("offers data: %v", err)
	}
	for _, r := range d.Rows {
		ids, prices = append(ids, r[0]), append(prices, r[14])
	}
	return ids, prices
}

var exportJSON = regexp.MustCompile(`href="([^"]*)" data-export="json"`)

// TestExplorerAgreesWithAPIAcrossReload: the explorer's rows (from the
// per-load index) are the rows its JSON export link answers (the API), in
// the same order, for a search with filters and an order; after a reload
// to other data both follow the new data, not the old index.
func TestExplorerAgreesWithAPIAcrossReload(t *testing.T) {
	var fixture atomic.Bool
	load := func(ctx context.Context) (*server.Data, error) {
		if fixture.Load() {
			return fixtureData(catalogtest.Data())
		}
		return loadEmbedded(ctx)
	}
	srv, err := server.New(context.Background(), server.Config{Load: load, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	check := func(target string) []string {
		t.Helper()
		page := get(t, srv, target).Body.String()
		ids, prices := explorerRows(t, page)
		m := exportJSON.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s: no JSON export link", target)
		}
		rec := get(t, srv, html.UnescapeString(m[1])+"&limit=0")
		var doc struct {
			Offers []struct {
				ID string `json:"id"`
			} `json:"offers"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
			t.Fatalf("%s: API answer: %v", target, err)
		}
		if len(doc.Offers) != len(ids) {
			t.Fatalf("%s: the page has %d rows, its API link %d", target, len(ids), len(doc.Offers))
		}
		for i, o := range doc.Offers {
			if o.ID != ids[i] {
				t.Fatalf("%s: row %d is %s on the page, %s from the API", target, i, ids[i], o.ID)
			}
			if prices[i] == "" {
				t.Fatalf("%s: row %d (%s) has no price", target, i, ids[i])
			}
		}
		return ids
	}
	targets := []string{"/offers?lang=en", "/offers?lang=zh&cheapest_region=false&per=gpu-hour&order=provider&desc=true", "/offers?lang=en&currency=CNY&sort=vram&billing=on-demand"}
	var before [][]string
	for _, target := range targets {
		before = append(before, check(target))
	}
	fixture.Store(true)
	if err := srv.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i, target := range targets {
		after := check(target + "&again=1")
		if len(after) == 0 || len(after) >= len(before[i]) {
			t.Errorf("%s: %d rows after reloading the small fixture, %d before: the page kept the old index", target, len(after), len(before[i]))
		}
	}
}

// TestExplorerPageCachedWhole: the explorer page (assembled from slots and
// kept by the response cache without a copy) replays byte for byte, with
// its rows, and a different page does not disturb the kept one.
func TestExplorerPageCachedWhole(t *testing.T) {
	srv, err := server.New(context.Background(), server.Config{Load: loadEmbedded, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	target := "/offers?lang=zh&gpu=H100"
	first := get(t, srv, target)
	get(t, srv, "/offers?lang=en&cheapest_region=false") // another page rendered in between
	second := get(t, srv, target)
	if second.Header().Get("X-Cache") != "hit" || first.Header().Get("X-Cache") != "" {
		t.Fatalf("X-Cache: first %q, second %q", first.Header().Get("X-Cache"), second.Header().Get("X-Cache"))
	}
	if first.Body.String() != second.Body.String() {
		t.Fatal("the replayed explorer page differs from the first")
	}
	body := second.Body.String()
	if ids, _ := explorerRows(t, body); len(ids) == 0 || strings.Count(body, "<tr data-offer=") == 0 || strings.Contains(body, "gpuscout:slot") {
		t.Fatalf("replayed page: %d JSON rows, %d table rows, slot marks left: %v", len(ids), strings.Count(body, "<tr data-offer="), strings.Contains(body, "gpuscout:slot"))
	}
}
