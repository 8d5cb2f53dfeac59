package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/server"
)

// bigServer serves the fixture catalog grown to n extra regions with three
// on-demand offers each, as a large imported snapshot would.
func bigServer(t *testing.T, n int) *server.Server {
	t.Helper()
	d := catalogtest.Data()
	for i := range n {
		code := fmt.Sprintf("r%05d", i)
		d.Regions = append(d.Regions, &catalog.Region{Provider: "acme", Code: code, NameEN: code, Country: "US", Residency: "us", Source: catalogtest.Src()})
		for j, inst := range []string{"big8", "small1", "slice"} {
			d.Offers = append(d.Offers, &catalog.Offer{Provider: "acme", InstanceName: inst, RegionCode: code, Billing: catalog.OnDemand,
				Price: catalog.Price{Hourly: catalogtest.D(fmt.Sprintf("%d.%04d", j+1, i)), Currency: "USD"}, Source: catalogtest.Src()})
		}
	}
	srv, err := server.New(context.Background(), server.Config{Load: func(context.Context) (*server.Data, error) { return fixtureData(d) },
		Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestOfferRowsAreCapped (issue 25 item 2): limit=0 used to answer every
// match (108 MB with 200k imported offers); one response now carries at
// most 5,000 offers, and next pages through the rest without a gap or a
// repeat.
func TestOfferRowsAreCapped(t *testing.T) {
	srv := bigServer(t, 3000)
	type page struct {
		Total  int    `json:"total"`
		Offset int    `json:"offset"`
		Next   string `json:"next"`
		Offers []struct {
			ID string `json:"id"`
		} `json:"offers"`
	}
	read := func(target string) page {
		t.Helper()
		rec := get(t, srv, target)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %.300s", target, rec.Code, rec.Body)
		}
		var p page
		if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		return p
	}
	for _, target := range []string{"/api/v1/offers?limit=0&zz=1", "/api/v1/offers?limit=100000&zz=1"} {
		first := read(target)
		if len(first.Offers) != 5000 || first.Total != 9008 {
			t.Fatalf("%s: %d offers of %d, want 5000 of 9008", target, len(first.Offers), first.Total)
		}
		if !strings.Contains(first.Next, "offset=5000") || strings.Contains(first.Next, "zz") {
			t.Fatalf("%s: next %q", target, first.Next)
		}
		second := read(first.Next)
		if len(second.Offers) != 4008 || second.Offset != 5000 || second.Next != "" {
			t.Fatalf("%s: second page %d offers, offset %d, next %q", target, len(second.Offers), second.Offset, second.Next)
		}
		seen := map[string]bool{}
		for _, o := range append(first.Offers, second.Offers...) {
			if seen[o.ID] {
				t.Fatalf("%s: %s twice", target, o.ID)
			}
			seen[o.ID] = true
		}
	}
	if p := read("/api/v1/offers?limit=10&offset=9005"); len(p.Offers) != 3 || p.Next != "" {
		t.Errorf("last rows: %d offers, next %q", len(p.Offers), p.Next)
	}
	if p := read("/api/v1/offers?offset=99999"); len(p.Offers) != 0 || p.Total != 9008 {
		t.Errorf("past the end: %d offers of %d", len(p.Offers), p.Total)
	}
	if rec := get(t, srv, "/api/v1/offers?offset=-1"); rec.Code != 400 {
		t.Errorf("offset=-1: status %d", rec.Code)
	}
	// The CSV export and the explorer carry the same first 5,000 rows; the
	// export links the rest and the page says why it stops.
	rec := get(t, srv, "/offers.csv?cheapest_region=false&lang=en")
	if n := strings.Count(rec.Body.String(), "\n"); rec.Code != 200 || n != 5001 {
		t.Fatalf("CSV: status %d, %d lines", rec.Code, n)
	}
	link := rec.Header().Get("Link")
	if !strings.Contains(link, "offset=5000") || !strings.Contains(link, `rel="next"`) {
		t.Errorf("CSV Link header %q", link)
	}
	next := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(link, ";", 2)[0], "<"), ">")
	if rest := get(t, srv, next); strings.Count(rest.Body.String(), "\n") != 4009 || rest.Header().Get("Link") != "" {
		t.Errorf("CSV rest %s: %d lines, Link %q", next, strings.Count(rest.Body.String(), "\n"), rest.Header().Get("Link"))
	}
	for lang, want := range map[string]string{"en": "Showing offers 1–5000 of 9008: a page carries at most 5000.", "zh": "显示第 1–5000 条报价，共 9008 条：每页最多 5000 条。"} {
		body := get(t, srv, "/offers?cheapest_region=false&lang="+lang).Body.String()
		if !strings.Contains(body, want) {
			t.Errorf("%s page: no notice %q", lang, want)
		}
	}
	if body := get(t, srv, "/offers?lang=en&"+url.Values{"gpu": {"A10"}, "region": {"us-east"}}.Encode()).Body.String(); strings.Contains(body, "Showing offers") {
		t.Errorf("a small answer has the notice")
	}
}
