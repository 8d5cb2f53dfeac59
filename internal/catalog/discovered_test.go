package catalog_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
)

func TestDiscoverResolvesGPUsByNameAndMemory(t *testing.T) {
	D := catalogtest.D
	src := catalog.Source{Kind: catalog.SourceThirdParty, Ref: "skypilot-catalog vms.csv", AsOf: catalogtest.Src().AsOf, FetchedAt: catalogtest.Src().AsOf}
	m := func(name, gpu, count, memGiB string) *catalog.DiscoveredInstance {
		return &catalog.DiscoveredInstance{Provider: "acme", Name: name, GPUName: gpu, GPUCount: D(count), GPUMemoryGiB: D(memGiB),
			VCPU: D("8"), MemoryGiB: D("64"), Source: src}
	}
	found := []*catalog.DiscoveredInstance{
		m("a10.2x", "A10", "2", "22"),                                       // one GPU of that name
		m("a100.1x80", "A100", "1", "80"),                                   // two A100s: 80 GiB ≈ 85.9 GB picks the 80 GB one
		m("a100.1x", "A100", "1", "0"),                                      // no memory given: ambiguous
		m("a100.2x", "A100", "2", "60"),                                     // 60 GiB matches neither: ambiguous
		m("a100.4x", "A100", "4", "40"),                                     // 40 GB, SXM4 or PCIe: the variant acme\'s curated big8 uses
		m("m60.1x", "M60", "1", "8"),                                        // unknown
		m("small1", "A100", "1", "40"),                                      // curated: never replaced
		m("zero", "A10", "0", "24"),                                         // no GPU: ignored
		{Provider: "acme", Name: "nosrc", GPUName: "A10", GPUCount: D("1")}, // no source
	}
	offers := []*catalog.Offer{
		{Provider: "acme", InstanceName: "m60.1x", RegionCode: "us-east", Billing: catalog.OnDemand},
		{Provider: "acme", InstanceName: "m60.1x", RegionCode: "us-east", Billing: catalog.Spot},
		{Provider: "acme", InstanceName: "a100.1x", RegionCode: "us-east", Billing: catalog.OnDemand},
	}
	d := catalogtest.Data()
	// A second 40 GB A100 that no acme instance type uses.
	d.GPUs = append(d.GPUs, &catalog.GPU{ID: "A100-PCIe-40GB", Vendor: "NVIDIA", Family: "A100", MemoryGB: D("40"), FP16TFLOPS: D("312"), Source: catalogtest.Src()})
	rep := catalog.Discover(&d, found, offers)
	if len(rep.Added) != 3 || rep.Added[0] != "acme/a10.2x" || rep.Added[1] != "acme/a100.1x80" || rep.Added[2] != "acme/a100.4x" {
		t.Fatalf("added %v", rep.Added)
	}
	if len(rep.Unresolved) != 2 {
		t.Fatalf("unresolved %+v", rep.Unresolved)
	}
	unk, amb := rep.Unresolved[0], rep.Unresolved[1] // most offers first
	if unk.GPUName != "M60" || unk.Reason != catalog.GPUUnknown || unk.Offers != 2 || len(unk.Instances) != 1 {
		t.Errorf("unknown: %+v", unk)
	}
	if amb.GPUName != "A100" || amb.Reason != catalog.GPUAmbiguous || amb.Offers != 1 || len(amb.Instances) != 2 || len(amb.Candidates) != 3 {
		t.Errorf("ambiguous: %+v", amb)
	}
	if len(rep.Invalid) != 1 || rep.Invalid[0] != "acme/nosrc" {
		t.Errorf("invalid %v", rep.Invalid)
	}
	// A reader that never loaded the offers discovers without them and
	// counts them per instance type: the same report, most offers first.
	d2 := catalogtest.Data()
	d2.GPUs = append(d2.GPUs, d.GPUs[len(d.GPUs)-1])
	counted := catalog.Discover(&d2, found, nil)
	if counted.Unresolved[0].Offers+counted.Unresolved[1].Offers != 0 {
		t.Errorf("no offers given, yet counted: %+v", counted.Unresolved)
	}
	counted.CountOffers(map[string]int{"acme/m60.1x": 1, "acme/a100.1x": 5})
	if u := counted.Unresolved; u[0].GPUName != "A100" || u[0].Offers != 5 || u[1].GPUName != "M60" || u[1].Offers != 1 {
		t.Errorf("counted: %+v", u)
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatalf("discovered types make the catalog invalid: %v", err)
	}
	it, ok := c.Instance("acme/a100.1x80")
	if !ok || !it.Discovered || it.GPUID != "A100-SXM4-80GB" || !it.GPUMemoryGB.Equal(D("80")) || it.Family != "a100" {
		t.Errorf("a100.1x80: %+v", it)
	}
	if it, _ := c.Instance("acme/a100.4x"); it.GPUID != "A100-SXM4-40GB" {
		t.Errorf("a100.4x: %+v", it)
	}
	if cur, _ := c.Instance("acme/small1"); cur.Discovered || cur.GPUID != "A10" {
		t.Errorf("curated small1 replaced: %+v", cur)
	}
}

func TestOffersForGPUsKeepsWhatTheQueryNeeds(t *testing.T) {
	d := catalogtest.Data()
	offers := []*catalog.Offer{
		{Provider: "acme", InstanceName: "big8"},      // A100-SXM4-40GB
		{Provider: "acme", InstanceName: "small1"},    // A10
		{Provider: "panda", InstanceName: "gpu.8x80"}, // A100-SXM4-80GB
		{Provider: "acme", InstanceName: "unknown"},
	}
	names := func(list []*catalog.Offer) (out []string) {
		for _, o := range list {
			out = append(out, o.InstanceName)
		}
		return out
	}
	if got := names(catalog.OffersForGPUs(&d, offers, []string{"A100"})); len(got) != 2 || got[0] != "big8" || got[1] != "gpu.8x80" {
		t.Errorf("A100: %v", got)
	}
	if got := names(catalog.OffersForGPUs(&d, offers, []string{"a100-sxm4-80gb"})); len(got) != 1 || got[0] != "gpu.8x80" {
		t.Errorf("A100-SXM4-80GB: %v", got)
	}
	// A10 keeps small1 (and may keep the A100s, whose IDs it prefixes:
	// more than the query needs is harmless, less is not).
	got := names(catalog.OffersForGPUs(&d, offers, []string{"A10"}))
	if len(got) == 0 || got[len(got)-1] == "unknown" || !strings.Contains(strings.Join(got, ","), "small1") {
		t.Errorf("A10: %v", got)
	}
	if got := catalog.OffersForGPUs(&d, offers, []string{"M60"}); len(got) != 4 {
		t.Errorf("an unknown name must leave the offers to the query's own error: %v", names(got))
	}
	if got := catalog.OffersForGPUs(&d, offers, nil); len(got) != 4 {
		t.Errorf("no names: %v", names(got))
	}
}
