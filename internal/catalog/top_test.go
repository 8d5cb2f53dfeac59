package catalog_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// TestQueryOffersTopIsTheSortedPrefix: the first n rows of a query,
// selected without sorting the rest, are the first n rows of the fully
// sorted answer, every field included (the per-GPU price filled in), for
// every order and price unit, with the embedded catalog's many ties.
func TestQueryOffersTopIsTheSortedPrefix(t *testing.T) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	c := ds.Catalog
	for _, key := range []catalog.SortKey{catalog.SortPrice, catalog.SortGPUPrice, catalog.SortVRAM, catalog.SortFP16PerDollar} {
		for _, per := range []catalog.PriceUnit{catalog.PerInstanceHour, catalog.PerGPUHour, catalog.PerMonth} {
			for _, cur := range []string{"", "USD", "CNY"} {
				q := catalog.OfferQuery{Sort: key, Per: per, Currency: cur, FX: ds.FX}
				all, total, err := c.QueryOffersTop(q, 0)
				if err != nil {
					t.Fatal(err)
				}
				if total != len(all) || total < 1000 {
					t.Fatalf("%d rows, total %d", len(all), total)
				}
				for _, n := range []int{1, 7, 20, 300, total - 1, total, total + 5} {
					top, tot, err := c.QueryOffersTop(q, n)
					if err != nil {
						t.Fatal(err)
					}
					want := all[:min(n, total)]
					if tot != total || !reflect.DeepEqual(top, want) {
						t.Fatalf("%s %s %q top %d (total %d):\n%s\nwant\n%s", key, per, cur, n, tot, rowsText(top, 5), rowsText(want, 5))
					}
				}
				// QueryOffers with a limit is the same prefix.
				q.Limit = 20
				lim, err := c.QueryOffers(q)
				if err != nil || !reflect.DeepEqual(lim, all[:20]) {
					t.Fatalf("%s %s %q: QueryOffers with Limit 20 differs (%v)", key, per, cur, err)
				}
			}
		}
	}
}

func rowsText(rows []catalog.OfferRow, n int) string {
	s := ""
	for i, r := range rows {
		if i == n {
			break
		}
		s += fmt.Sprintf("  %s %s %s %s\n", r.Offer.ID(), r.EffectiveHourly, r.PerGPUHourly, r.Price)
	}
	return s
}

// TestNewestAsOfIsTheStatsFigure: the stale-price check's shortcut gives
// the date Stats gives.
func TestNewestAsOfIsTheStatsFigure(t *testing.T) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ds.Catalog.NewestAsOf(), ds.Catalog.Stats().NewestAsOf; !got.Equal(want) || got.IsZero() {
		t.Fatalf("NewestAsOf %v, Stats %v", got, want)
	}
}

// TestUndatedSortsAfterDatedOfEqualPrice: of two offers at the same price,
// the dated one comes first, though the undated one's ID sorts before it;
// a cheaper undated price still comes before a dearer dated one.
func TestUndatedSortsAfterDatedOfEqualPrice(t *testing.T) {
	d := catalogtest.Data()
	for _, o := range d.Offers {
		if o.RegionCode == "eu-west" { // acme/big8/eu-west/on-demand sorts before acme/big8/us-east/on-demand by ID
			o.Price.Hourly = catalogtest.D("20")
			o.Source.ReadOn, o.Source.AsOf = o.Source.AsOf, time.Time{}
		}
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []catalog.SortKey{catalog.SortPrice, catalog.SortGPUPrice} {
		for _, n := range []int{0, 1, 2} {
			rows, _, err := c.QueryOffersTop(catalog.OfferQuery{Sort: key, Providers: []string{"acme"}, GPUs: []string{"A100-SXM4-40GB"}, Billing: []string{"on-demand"}}, n)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range rows {
				ids = append(ids, r.Offer.ID())
			}
			want := []string{"acme/big8/us-east/on-demand", "acme/big8/eu-west/on-demand"}
			if n > 0 {
				want = want[:n]
			}
			if !reflect.DeepEqual(ids, want) {
				t.Errorf("sort %s top %d = %v, want %v (dated before undated at equal price)", key, n, ids, want)
			}
		}
	}
}
