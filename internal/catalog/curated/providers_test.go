package curated_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// newProviders are the GPU clouds added beside the hyperscalers and the
// Chinese clouds beyond Alibaba and Tencent (docs/catalog-coverage.md).
var newProviders = []string{"runpod", "nebius", "coreweave", "vast", "hyperstack", "verda", "digitalocean", "crusoe", "huawei", "volcengine", "baidu"}

// TestProviderBreadth checks that the catalog covers at least 15 providers,
// at least 3 of them with regions in mainland China, and that every added
// provider has regions with a residency, instance types and a regions fact
// in both languages.
func TestProviderBreadth(t *testing.T) {
	c := load(t)
	if n := len(c.Providers()); n < 15 {
		t.Errorf("%d providers, want at least 15", n)
	}
	mainland := map[string]bool{}
	regions := map[string]int{}
	for _, r := range c.Regions() {
		regions[r.Provider]++
		if r.Residency == "cn-mainland" {
			mainland[r.Provider] = true
		}
	}
	if len(mainland) < 3 {
		t.Errorf("providers serving mainland China: %v, want at least 3", mainland)
	}
	for _, p := range []string{"huawei", "volcengine", "baidu"} {
		if !mainland[p] {
			t.Errorf("%s has no mainland-China (cn-mainland) region", p)
		}
	}
	instances := map[string]int{}
	for _, it := range c.Instances() {
		instances[it.Provider]++
	}
	for _, p := range newProviders {
		pr, err := c.LookupProvider(p)
		if err != nil {
			t.Errorf("provider %s: %v", p, err)
			continue
		}
		if pr.NameEN == "" || pr.NameZH == "" || pr.PricingPage == "" {
			t.Errorf("%s: names and pricing page required, got %+v", p, pr)
		}
		// Volcano Engine has regions but no instance type: no openable
		// source for any of its GPU specs was found, so none is listed.
		if regions[p] == 0 || (instances[p] == 0 && p != "volcengine") {
			t.Errorf("%s: %d regions, %d instance types; want at least one of each", p, regions[p], instances[p])
		}
		facts := c.EcosystemOf(p, "user-regions")
		if len(facts) == 0 {
			t.Errorf("%s: no user-regions fact", p)
		}
		for _, f := range facts {
			if f.ValueEN == "" || f.ValueZH == "" {
				t.Errorf("%s: user-regions fact needs English and Chinese, got %q / %q", p, f.ValueEN, f.ValueZH)
			}
		}
	}
}

// TestNewProviderOffersAreSourced checks that every offer of an added
// provider has a source kind, a reference, and an as-of date that is not in
// the future, and that providers without any offer say why in their
// instance notes ("no public price").
func TestNewProviderOffersAreSourced(t *testing.T) {
	c := load(t)
	isNew := map[string]bool{}
	for _, p := range newProviders {
		isNew[p] = true
	}
	offers := map[string]int{}
	for _, o := range c.Offers() {
		if !isNew[o.Provider] {
			continue
		}
		offers[o.Provider]++
		s := o.Source
		if !s.Kind.Valid() || strings.TrimSpace(s.Ref) == "" || (s.AsOf.IsZero() && !s.Undated()) {
			t.Errorf("%s: source %+v lacks kind, reference or as-of date", o.ID(), s)
		}
		if s.AsOf.After(time.Now()) {
			t.Errorf("%s: as-of %s is in the future", o.ID(), s.AsOfString())
		}
		if !o.Price.Hourly.IsPositive() {
			t.Errorf("%s: no hourly price", o.ID())
		}
	}
	for _, p := range []string{"runpod", "nebius", "coreweave", "vast", "hyperstack", "verda", "digitalocean", "crusoe"} {
		if offers[p] == 0 {
			t.Errorf("%s publishes prices but has no offer", p)
		}
	}
	for _, it := range c.Instances() {
		if isNew[it.Provider] && offers[it.Provider] == 0 && !strings.Contains(it.Notes, "NO PUBLIC PRICE") {
			t.Errorf("%s has no offers; its notes must state the missing price, got %q", it.ID(), it.Notes)
		}
	}
}

// TestVastIsAMarketplace checks that Vast.ai is modelled as a marketplace:
// a marketplace fact and a no-SLA fact in both languages, and every offer
// noted as a host's asking price with the range across hosts.
func TestVastIsAMarketplace(t *testing.T) {
	c := load(t)
	if !c.IsMarketplace("vast") {
		t.Fatal("vast is not marked as a marketplace")
	}
	for _, p := range c.Providers() {
		if p.ID != "vast" && c.IsMarketplace(p.ID) {
			t.Errorf("%s is marked as a marketplace", p.ID)
		}
	}
	facts := c.EcosystemOf("vast", catalog.CategoryMarketplace)
	var sla bool
	for _, f := range facts {
		if f.ValueZH == "" {
			t.Errorf("marketplace fact %q has no Chinese text", f.Key)
		}
		if strings.Contains(f.ValueEN, "No platform-wide SLA") && strings.Contains(f.ValueZH, "无平台级 SLA") {
			sla = true
		}
	}
	if !sla {
		t.Error("vast: no fact says there is no SLA (in English and Chinese)")
	}
	n := 0
	for _, o := range c.Offers() {
		if o.Provider != "vast" {
			continue
		}
		n++
		if !strings.HasPrefix(o.Notes, "MARKETPLACE:") || !strings.Contains(o.Notes, "USD per GPU-hour") || !strings.Contains(o.Notes, "no SLA") {
			t.Errorf("%s: notes must say marketplace, range and no SLA, got %q", o.ID(), o.Notes)
		}
	}
	if n == 0 {
		t.Error("vast has no offers")
	}
}

// TestDigitalOceanH100AtPublishedPrice pins DigitalOcean's H100 GPU Droplets
// to the prices on DigitalOcean's own GPU Droplet pricing page (3.39 and
// 23.92 USD an hour, page last edited 2026-05-29), cited as an official
// document: a third-party list once carried about twice these prices.
func TestDigitalOceanH100AtPublishedPrice(t *testing.T) {
	c := load(t)
	for id, want := range map[string]string{
		"digitalocean/gpu-h100x1-80gb/tor1/on-demand":  "3.39",
		"digitalocean/gpu-h100x8-640gb/tor1/on-demand": "23.92",
	} {
		o, ok := c.Offer(id)
		if !ok {
			t.Errorf("%s: missing", id)
			continue
		}
		if o.Price.Hourly.String() != want || o.Price.Currency != "USD" {
			t.Errorf("%s: %s %s an hour, want %s USD (DigitalOcean's published price)", id, o.Price.Hourly, o.Price.Currency, want)
		}
		s := o.Source
		if s.Kind != catalog.SourceOfficialDoc || !strings.HasPrefix(s.Ref, "https://docs.digitalocean.com/products/droplets/details/pricing/") || s.AsOfString() != "2026-05-29" {
			t.Errorf("%s: source %s %q as of %s, want DigitalOcean's pricing page as of 2026-05-29", id, s.Kind, s.Ref, s.AsOfString())
		}
	}
}

// What does an H100 cost at DigitalOcean? Only the published GPU Droplet
// price, 3.39 USD per GPU-hour: the undated Paperspace rows (5.95 per
// GPU-hour, SkyPilot v6) that a dated official page supersedes are gone.
func TestDigitalOceanH100OnlyAtPublishedPrice(t *testing.T) {
	c := load(t)
	n := 0
	for _, o := range c.Offers() {
		if o.Provider != "digitalocean" || o.Instance == nil || !strings.HasPrefix(o.Instance.GPUID, "H100") {
			continue
		}
		n++
		per := o.Price.Hourly.Div(o.Instance.GPUCount)
		if !per.Equal(decimal.RequireFromString("2.99")) && !per.Equal(decimal.RequireFromString("3.39")) || o.Source.Undated() {
			t.Errorf("%s: %s USD per GPU-hour from %q (undated %v), want DigitalOcean's published price", o.ID(), per, o.Source.Ref, o.Source.Undated())
		}
	}
	if n != 2 {
		t.Errorf("got %d DigitalOcean H100 offers, want the 2 GPU Droplets", n)
	}
}

// TestRunPodOffersArePriceLists checks that RunPod offers are not placed in
// data centres: RunPod has one Secure Cloud price for every data centre and
// no source shows stock per data centre, so every offer is in region ANY
// (no single country) and says so; those priced from the dated page copy
// carry its date, the others are undated like the SkyPilot file.
func TestRunPodOffersArePriceLists(t *testing.T) {
	c := load(t)
	n := 0
	for _, o := range c.Offers() {
		if o.Provider != "runpod" {
			continue
		}
		n++
		if o.RegionCode != "ANY" || o.Region == nil || o.Region.Country != "ZZ" || o.Region.Residency != "any" {
			t.Errorf("%s: want region ANY (country ZZ, residency any), got %+v", o.ID(), o.Region)
		}
		dated := strings.Contains(o.Notes, "runpod.io/pricing on 2026-09-25") && o.Source.AsOfString() == "2026-09-25"
		if !strings.HasPrefix(o.Notes, "PRICE LIST:") || !dated && !o.Source.Undated() {
			t.Errorf("%s: want a PRICE LIST note, dated by the page copy or undated, got %q (as of %s)", o.ID(), o.Notes, o.Source.AsOfString())
		}
	}
	if n == 0 {
		t.Error("runpod has no offers")
	}
}

// Is Tencent's 1- or 3-year GPU price one Tencent quotes? No: it is the
// monthly list price times the general CVM duration discount, which the
// cited GPU price page says may differ for GPU instances (时长折扣的比率和
// CVM 云服务器可能不同). Every such offer is an estimate whose notes give the
// rule and the page's caveat.
func TestTencentYearPricesAreEstimates(t *testing.T) {
	c := load(t)
	n := 0
	for _, o := range c.Offers() {
		if o.Provider != "tencent" || (o.Billing != catalog.Subscription1y && o.Billing != catalog.Subscription3y) {
			continue
		}
		n++
		if o.Source.Kind != catalog.SourceEstimate || !strings.HasPrefix(o.Notes, "ESTIMATE:") || !strings.Contains(o.Notes, "可能不同") {
			t.Errorf("%s: source %s, notes %.80q: want an estimate that states the rule and the page's caveat", o.ID(), o.Source.Kind, o.Notes)
		}
	}
	if n != 132 {
		t.Errorf("got %d Tencent 1- and 3-year offers, want 132", n)
	}
}

// Does an 8-GPU A100, A800 or H100 SXM node join its GPUs by NVSwitch? Yes:
// eight SXM4/SXM5 modules sit on an NVIDIA HGX 8-GPU baseboard, whose GPUs
// are joined by NVSwitch, so no such node has an unknown interconnect, and
// an 8-GPU V100 SXM2 node (no NVSwitch on that board) is NVLink.
func TestEightGPUSXMNodesHaveAnInterconnect(t *testing.T) {
	c := load(t)
	for _, it := range c.Instances() {
		if !it.GPUCount.Equal(decimal.NewFromInt(8)) {
			continue
		}
		switch {
		case strings.HasPrefix(it.GPUID, "A100-SXM4"), strings.HasPrefix(it.GPUID, "A800-SXM4"), strings.HasPrefix(it.GPUID, "H100-SXM"):
			if it.GPUInterconnect == "" {
				t.Errorf("%s: 8× %s with no GPU interconnect: an HGX board is NVSwitch", it.ID(), it.GPUID)
			}
		case strings.HasPrefix(it.GPUID, "V100-SXM2"):
			if it.GPUInterconnect != "nvlink" {
				t.Errorf("%s: 8× %s with interconnect %q, want nvlink", it.ID(), it.GPUID, it.GPUInterconnect)
			}
		}
	}
}
