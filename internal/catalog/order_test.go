package catalog_test

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
)

// thirds converts between USD and CNY at 7.1 CNY per USD, dividing to 16
// places: converted prices carry more digits than a float holds.
type thirds struct{}

func (thirds) Convert(d decimal.Decimal, from, to string) (decimal.Decimal, error) {
	rate := decimal.RequireFromString("7.1")
	switch {
	case from == to:
		return d, nil
	case from == "USD" && to == "CNY":
		return d.Mul(rate), nil
	case from == "CNY" && to == "USD":
		return d.DivRound(rate, 16), nil
	}
	return decimal.Zero, fmt.Errorf("no rate %s to %s", from, to)
}

// tiedCatalog is the fixture with many more offers whose prices tie, or
// differ only past a float's precision, some of them undated.
func tiedCatalog(t *testing.T, rng *rand.Rand) *catalog.Catalog {
	t.Helper()
	d := catalogtest.Data()
	var regions []*catalog.Region
	for i := 0; i < 12; i++ {
		r := &catalog.Region{Provider: "acme", Code: fmt.Sprintf("r-%d", i), NameEN: "R", Country: "US", Residency: "us", Source: catalogtest.Src()}
		regions = append(regions, r)
	}
	d.Regions = append(d.Regions, regions...)
	prices := []string{"1", "1.0000000000000001", "1.0000000000000002", "0.9999999999999999", "2.5", "2.50", "7.1", "3"}
	insts := []string{"big8", "small1", "slice"}
	for _, it := range insts {
		for _, r := range regions {
			for _, b := range []catalog.Billing{catalog.OnDemand, catalog.Spot} {
				p := prices[rng.Intn(len(prices))]
				if b == catalog.OnDemand {
					p = "100" // spot stays below on demand
				} else if rng.Intn(4) == 0 {
					p = prices[rng.Intn(len(prices))]
				}
				cur := "USD"
				o := &catalog.Offer{Provider: "acme", InstanceName: it, RegionCode: r.Code, Billing: b,
					Price: catalog.Price{Hourly: catalogtest.D(p), Currency: cur}, Source: catalogtest.Src()}
				if rng.Intn(3) == 0 {
					o.Source.AsOf, o.Source.ReadOn = time.Time{}, catalogtest.AsOf
				}
				d.Offers = append(d.Offers, o)
			}
		}
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPriceOrderIsQueryOrder: PriceOrder puts every offer where
// QueryOffers puts its row, for every sort key and currency, on a catalog
// whose prices tie or differ past a float's precision.
func TestPriceOrderIsQueryOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(28))
	for round := 0; round < 5; round++ {
		c := tiedCatalog(t, rng)
		at := map[*catalog.Offer]int32{}
		for i, o := range c.Offers() {
			at[o] = int32(i)
		}
		for _, cur := range []string{"", "USD", "CNY"} {
			for _, key := range []catalog.SortKey{catalog.SortPrice, catalog.SortGPUPrice, catalog.SortVRAM, catalog.SortFP16PerDollar} {
				rows, err := c.QueryOffers(catalog.OfferQuery{Currency: cur, FX: thirds{}, Sort: key,
					Statuses: []string{catalog.StatusCurrent, catalog.StatusPrevious, catalog.StatusRetired}})
				if err != nil {
					t.Fatal(err)
				}
				got, err := c.PriceOrder(cur, thirds{}, key)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(rows) {
					t.Fatalf("%s %s: %d positions, %d rows", cur, key, len(got), len(rows))
				}
				for i, r := range rows {
					if got[i] != at[r.Offer] {
						t.Fatalf("%s %s: position %d is %s, QueryOffers puts %s there", cur, key, i, c.Offers()[got[i]].ID(), r.Offer.ID())
					}
				}
				p := c.Pricer(cur, thirds{}, catalog.PerGPUHour)
				want, _ := c.QueryOffers(catalog.OfferQuery{Currency: cur, FX: thirds{}, Sort: key, Per: catalog.PerGPUHour})
				for i, w := range want[:3] {
					g, err := p.Row(w.Offer)
					if err != nil || !g.Price.Equal(w.Price) || !g.EffectiveHourly.Equal(w.EffectiveHourly) || g.Currency != w.Currency || g.Marketplace != w.Marketplace {
						t.Fatalf("%s %s: Pricer row %d: %+v, QueryOffers %+v (%v)", cur, key, i, g, w, err)
					}
				}
			}
		}
	}
}
