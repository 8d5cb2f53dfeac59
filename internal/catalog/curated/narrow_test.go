package curated

import (
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// TestNarrowKeepsExactlyTheOffersAsked: LoadDataNarrow decodes the offers
// its test keeps, in catalog order and equal to a full decode's, and no
// other; it reports that offers were left out and the newest as-of date
// among them. A nil test, or an overlay (parsed from CSV), keeps all.
func TestNarrowKeepsExactlyTheOffersAsked(t *testing.T) {
	full, _, err := LoadData(Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		keep func(provider, instance string) bool
	}{
		{"one provider", func(p, _ string) bool { return p == "gcp" }},
		{"A100 types", func(p, i string) bool { return catalog.InstancesForGPUs(&full, []string{"A100"})[p+"/"+i] }},
		{"none", func(string, string) bool { return false }},
		{"all", func(string, string) bool { return true }},
	} {
		var sawInstances int
		d, _, left, err := LoadDataNarrow(Embedded(), nil, func(d *catalog.Data) func(string, string) bool {
			sawInstances = len(d.Instances)
			return tc.keep
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if sawInstances != len(full.Instances) {
			t.Errorf("%s: the test was given %d instance types, want all %d", tc.name, sawInstances, len(full.Instances))
		}
		var want []*catalog.Offer
		var newest time.Time
		for _, o := range full.Offers {
			if tc.keep(o.Provider, o.InstanceName) {
				want = append(want, o)
			} else if o.Source.AsOf.After(newest) {
				newest = o.Source.AsOf
			}
		}
		if len(d.Offers) != len(want) {
			t.Fatalf("%s: %d offers decoded, want %d", tc.name, len(d.Offers), len(want))
		}
		for i := range want {
			if !equalRecords(d.Offers[i], want[i]) {
				t.Fatalf("%s: offer %d is %+v, want %+v", tc.name, i, *d.Offers[i], *want[i])
			}
		}
		if !left.Any || !left.NewestAsOf.Equal(newest) {
			t.Errorf("%s: left out %+v, want any and newest %s", tc.name, left, newest)
		}
		if !d.Validated() {
			t.Errorf("%s: the narrowed data lost its validated mark", tc.name)
		}
	}
	d, _, left, err := LoadDataNarrow(Embedded(), nil, func(*catalog.Data) func(string, string) bool { return nil })
	if err != nil || left.Any || len(d.Offers) != len(full.Offers) {
		t.Errorf("a nil test: %d offers, left %+v, %v; want all %d", len(d.Offers), left, err, len(full.Offers))
	}
}
