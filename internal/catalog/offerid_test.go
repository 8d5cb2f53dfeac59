package catalog

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCompareID: compareID orders an offer's ID against any string as
// strings.Compare does, so that Catalog.Offer's binary search finds what
// a map of IDs would.
func TestCompareID(t *testing.T) {
	rng := rand.New(rand.NewSource(28))
	parts := []string{"", "a", "b", "ab", "a-b", "a.b", "aa", "z", "/", "a/", "-", "0"}
	pick := func() string { return parts[rng.Intn(len(parts))] }
	for i := 0; i < 20000; i++ {
		o := &Offer{Provider: pick(), InstanceName: pick(), RegionCode: pick(), Billing: Billing(pick())}
		var id string
		if rng.Intn(3) == 0 {
			id = o.ID() // equal, or a prefix or extension of it below
			switch rng.Intn(3) {
			case 1:
				id += pick()
			case 2:
				id = id[:rng.Intn(len(id)+1)]
			}
		} else {
			var b strings.Builder
			for k := rng.Intn(6); k > 0; k-- {
				b.WriteString(pick())
				if rng.Intn(2) == 0 {
					b.WriteByte('/')
				}
			}
			id = b.String()
		}
		if got, want := compareID(o, id), strings.Compare(o.ID(), id); got != want {
			t.Fatalf("compareID(%q, %q) = %d, strings.Compare gives %d", o.ID(), id, got, want)
		}
	}
}
