package catalog

import (
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// checkSortOffers sorts offers with sortOffers and fails unless they end
// in the order of their IDs, each ID still with its offer.
func checkSortOffers(t *testing.T, offers []*Offer) {
	t.Helper()
	ids := offerIDs(offers)
	want := append([]string(nil), ids...)
	sort.Strings(want)
	sortOffers(offers, ids)
	for i, o := range offers {
		if ids[i] != want[i] || o.ID() != ids[i] {
			t.Fatalf("position %d: offer %s with ID %s, want %s", i, o.ID(), ids[i], want[i])
		}
	}
}

// TestSortOffersMatchesIDOrder: grouping offers by instance type before
// sorting gives the order of their IDs, with instance names that are
// prefixes of others (g5, g5.x, g5-x, g5x) and with slashes in names
// (sorted whole).
func TestSortOffersMatchesIDOrder(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	names := []string{"g5", "g5.x", "g5-x", "g5x", "g5.xlarge", "p4d.24xlarge", "a", "A", "g5_1"}
	regions := []string{"us-east-1", "us-east-10", "eu", "eu-west", "ap/x"}
	bills := []Billing{OnDemand, Spot, Reserved1yPart}
	for _, slash := range []bool{false, true} {
		for round := 0; round < 50; round++ {
			seen := map[string]bool{}
			var offers []*Offer
			for k := 0; k < 200; k++ {
				o := &Offer{Provider: []string{"aws", "aw", "gcp"}[r.Intn(3)], InstanceName: names[r.Intn(len(names))],
					RegionCode: regions[r.Intn(len(regions))], Billing: bills[r.Intn(len(bills))]}
				if slash && r.Intn(20) == 0 {
					o.InstanceName += "/x"
				}
				if !seen[o.ID()] {
					seen[o.ID()] = true
					offers = append(offers, o)
				}
			}
			checkSortOffers(t, offers)
		}
	}
}

// FuzzSortOffers: any offers with distinct IDs sort into ID order.
func FuzzSortOffers(f *testing.F) {
	f.Add("aws g5 us-east-1 on-demand\naws g5.x us-east-1 spot\naw s/g5 eu on-demand")
	f.Fuzz(func(t *testing.T, spec string) {
		seen := map[string]bool{}
		var offers []*Offer
		for _, line := range strings.Split(spec, "\n") {
			f := strings.Fields(line)
			if len(f) != 4 {
				continue
			}
			o := &Offer{Provider: f[0], InstanceName: f[1], RegionCode: f[2], Billing: Billing(f[3])}
			if !seen[o.ID()] {
				seen[o.ID()] = true
				offers = append(offers, o)
			}
		}
		checkSortOffers(t, offers)
	})
}
