package recommend

import (
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// TestIDLess: idLess orders offers exactly as their IDs compare, over the
// embedded catalog's offers (Linux and Windows) and adjacent pairs.
func TestIDLess(t *testing.T) {
	ds, err := curated.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	offers := append(append([]*catalog.Offer(nil), ds.Catalog.Offers()...), ds.Catalog.OffersOS(catalog.OSWindows)...)
	for i, a := range offers {
		if got := string(a.AppendID(nil)); got != a.ID() {
			t.Fatalf("AppendID = %q, ID = %q", got, a.ID())
		}
		for _, b := range []*catalog.Offer{offers[(i+1)%len(offers)], offers[(i+7)%len(offers)], a} {
			if got, want := idLess(a, b), a.ID() < b.ID(); got != want {
				t.Errorf("idLess(%s, %s) = %v, want %v", a.ID(), b.ID(), got, want)
			}
		}
	}
	// IDs that differ only where one field ends ("a/…" against "a-b/…").
	x := &catalog.Offer{Provider: "p", InstanceName: "ab", RegionCode: "r", Billing: catalog.OnDemand, OS: catalog.OSLinux}
	y := &catalog.Offer{Provider: "p", InstanceName: "ab-c", RegionCode: "r", Billing: catalog.OnDemand, OS: catalog.OSLinux}
	if idLess(x, y) != (x.ID() < y.ID()) || idLess(y, x) != (y.ID() < x.ID()) {
		t.Errorf("idLess disagrees with ID order for %s and %s", x.ID(), y.ID())
	}
}
