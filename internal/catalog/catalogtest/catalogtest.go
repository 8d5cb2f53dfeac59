// Package catalogtest builds small catalogs for other packages' tests. The
// figures are test fixtures, labelled with source kind "user"; they are not
// catalog data.
package catalogtest

import (
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// AsOf is the as-of date of every fixture record.
var AsOf = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// Src is the source of every fixture record.
func Src() catalog.Source {
	return catalog.Source{Kind: catalog.SourceUser, Ref: "catalogtest fixture", AsOf: AsOf}
}

// D parses a decimal or panics (fixtures only).
func D(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// Data returns a small, valid data set: two providers (one selling in USD,
// one in CNY), three regions, three GPU models, four instance types and a
// handful of offers under several billing models.
func Data() catalog.Data {
	return catalog.Data{
		Providers: []*catalog.Provider{
			{ID: "acme", NameEN: "Acme Cloud", NameZH: "Acme 云", Source: Src()},
			{ID: "panda", NameEN: "Panda Cloud", NameZH: "熊猫云", Source: Src()},
		},
		Regions: []*catalog.Region{
			{Provider: "acme", Code: "us-east", NameEN: "US East", Country: "US", Residency: "us", Source: Src()},
			{Provider: "acme", Code: "eu-west", NameEN: "EU West", Country: "DE", Residency: "eu", Source: Src()},
			{Provider: "panda", Code: "cn-north", NameEN: "China North", NameZH: "华北", Country: "CN", Residency: "cn-mainland", Source: Src()},
		},
		GPUs: []*catalog.GPU{
			{ID: "A100-SXM4-40GB", Vendor: "NVIDIA", Family: "A100", MemoryGB: D("40"), FP16TFLOPS: D("312"), Aliases: []string{"A100 40GB"}, Source: Src()},
			{ID: "A100-SXM4-80GB", Vendor: "NVIDIA", Family: "A100", MemoryGB: D("80"), FP16TFLOPS: D("312"), Source: Src()},
			{ID: "A10", Vendor: "NVIDIA", Family: "A10", MemoryGB: D("24"), FP16TFLOPS: D("125"), Source: Src()},
		},
		Instances: []*catalog.InstanceType{
			{Provider: "acme", Name: "big8", GPUID: "A100-SXM4-40GB", GPUCount: D("8"), GPUMemoryGB: D("320"), VCPU: D("96"), MemoryGiB: D("1152"), GPUInterconnect: catalog.LinkNVSwitch, RDMA: catalog.RDMAEFA, Status: catalog.StatusCurrent, Source: Src()},
			{Provider: "acme", Name: "small1", GPUID: "A10", GPUCount: D("1"), GPUMemoryGB: D("24"), VCPU: D("8"), MemoryGiB: D("32"), GPUInterconnect: catalog.LinkNone, Status: catalog.StatusCurrent, Source: Src()},
			{Provider: "acme", Name: "slice", GPUID: "A10", GPUCount: D("0.25"), GPUMemoryGB: D("6"), VCPU: D("4"), MemoryGiB: D("16"), GPUInterconnect: catalog.LinkNone, Status: catalog.StatusCurrent, Source: Src()},
			{Provider: "panda", Name: "gpu.8x80", GPUID: "A100-SXM4-80GB", GPUCount: D("8"), GPUMemoryGB: D("640"), VCPU: D("128"), MemoryGiB: D("1024"), GPUInterconnect: catalog.LinkNVSwitch, RDMA: catalog.RDMAERDMA, Status: catalog.StatusCurrent, Source: Src()},
		},
		Offers: []*catalog.Offer{
			offer("acme", "big8", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("20"), Currency: "USD"}),
			offer("acme", "big8", "us-east", catalog.Spot, catalog.Price{Hourly: D("8"), Currency: "USD"}),
			offer("acme", "big8", "us-east", catalog.Reserved1yPart, catalog.Price{Hourly: D("6"), Upfront: D("61320"), Currency: "USD"}),
			offer("acme", "big8", "eu-west", catalog.OnDemand, catalog.Price{Hourly: D("24"), Currency: "USD"}),
			offer("acme", "small1", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("1"), Currency: "USD"}),
			offer("acme", "slice", "us-east", catalog.OnDemand, catalog.Price{Hourly: D("0.3"), Currency: "USD"}),
			offer("panda", "gpu.8x80", "cn-north", catalog.OnDemand, catalog.Price{Hourly: D("146"), Currency: "CNY"}),
			offer("panda", "gpu.8x80", "cn-north", catalog.Subscription1m, catalog.Price{Monthly: D("73000"), Currency: "CNY"}),
		},
		Claims: []*catalog.Claim{
			{ID: "c1", Seed: "seed.txt", Quote: "small1 has an A100", Subject: "acme/small1", Verdict: "wrong", Actual: "A10", Evidence: "fixture spec page https://example.com/acme/small1"},
		},
	}
}

func offer(p, inst, region string, b catalog.Billing, price catalog.Price) *catalog.Offer {
	return &catalog.Offer{Provider: p, InstanceName: inst, RegionCode: region, Billing: b, Price: price, Source: Src()}
}

// New builds the fixture catalog, failing the test on error.
func New(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.New(Data())
	if err != nil {
		t.Fatalf("fixture catalog: %v", err)
	}
	return c
}
