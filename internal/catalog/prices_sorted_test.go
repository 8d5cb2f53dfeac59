package catalog

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestSortedPriceChecksAsMap: the on-demand price checks and spot
// siblings found in one pass over the offers in ID order report what the
// map of sites reports, in the same order, on random catalogs with spot
// and commitment prices above on demand, spot offers without on demand,
// other currencies and capacity blocks.
func TestSortedPriceChecksAsMap(t *testing.T) {
	rng := rand.New(rand.NewSource(28))
	src := Source{Kind: SourceUser, Ref: "fixture", AsOf: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	problems := 0
	for round := 0; round < 30; round++ {
		d := Data{
			Providers: []*Provider{{ID: "acme", NameEN: "Acme", NameZH: "Acme", Source: src}},
			GPUs:      []*GPU{{ID: "A10", Vendor: "NVIDIA", Family: "A10", MemoryGB: decimal.NewFromInt(24), Source: src}},
		}
		for r := 0; r < 4; r++ {
			d.Regions = append(d.Regions, &Region{Provider: "acme", Code: fmt.Sprintf("r%d", r), NameEN: "R", Country: "US", Residency: "us", Source: src})
		}
		for i := 0; i < 5; i++ {
			d.Instances = append(d.Instances, &InstanceType{Provider: "acme", Name: fmt.Sprintf("i%d", i), GPUID: "A10", GPUCount: decimal.NewFromInt(1),
				GPUMemoryGB: decimal.NewFromInt(24), Status: StatusCurrent, Source: src})
		}
		billings := []Billing{OnDemand, Spot, Reserved1yNo, CapacityBlock}
		for _, it := range d.Instances {
			for _, r := range d.Regions {
				for _, b := range billings {
					if rng.Intn(3) == 0 {
						continue
					}
					cur := "USD"
					if rng.Intn(6) == 0 {
						cur = "EUR"
					}
					d.Offers = append(d.Offers, &Offer{Provider: "acme", InstanceName: it.Name, RegionCode: r.Code, Billing: b,
						Price: Price{Hourly: decimal.NewFromInt(int64(1 + rng.Intn(10))), Currency: cur}, Source: src})
				}
			}
		}
		rng.Shuffle(len(d.Offers), func(i, j int) { d.Offers[i], d.Offers[j] = d.Offers[j], d.Offers[i] })
		run := func(mapPrices bool) []Problem {
			dd := d
			dd.Offers = append([]*Offer(nil), d.Offers...)
			c := newCatalog(dd)
			v := validator{mapPrices: mapPrices}
			v.index(c)
			if !mapPrices && v.sorted == nil {
				t.Fatal("the sorted path was not taken")
			}
			return v.problems
		}
		got, want := run(false), run(true)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d:\nsorted %v\nmap    %v", round, got, want)
		}
		problems += len(got)
	}
	if problems < 30 {
		t.Fatalf("only %d problems in 30 catalogs: the test compares too little", problems)
	}
}
