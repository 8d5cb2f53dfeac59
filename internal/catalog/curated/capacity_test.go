package curated_test

import (
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// TestCapacityAccessOffers checks that the capacity-access billing models
// carry sourced, dated rows: AWS Capacity Blocks and GCP DWS flex-start,
// each priced below the on-demand offer of the same instance and region
// where there is one. Some capacity is sold only this way (p5e.48xlarge has
// no on-demand price anywhere; Capacity Blocks cover regions where an
// instance type has no on-demand offer), so a missing sibling is allowed.
func TestCapacityAccessOffers(t *testing.T) {
	c := load(t)
	onDemand := map[string]*catalog.Offer{}
	for _, o := range c.Offers() {
		if o.Billing == catalog.OnDemand {
			onDemand[o.Provider+"/"+o.InstanceName+"/"+o.RegionCode] = o
		}
	}
	count := map[catalog.Billing]map[string]int{catalog.CapacityBlock: {}, catalog.FlexStart: {}}
	compared := 0
	for _, o := range c.Offers() {
		if o.Billing != catalog.CapacityBlock && o.Billing != catalog.FlexStart {
			continue
		}
		count[o.Billing][o.Provider]++
		if o.Source.Ref == "" || o.Source.AsOf.IsZero() || o.Source.Kind == catalog.SourceEstimate {
			t.Errorf("%s: capacity offer without a real source and date: %+v", o.ID(), o.Source)
		}
		od := onDemand[o.Provider+"/"+o.InstanceName+"/"+o.RegionCode]
		if od == nil {
			continue
		}
		compared++
		if !o.Price.Hourly.LessThan(od.Price.Hourly) {
			t.Errorf("%s: %s/h is not below on-demand %s/h", o.ID(), o.Price.Hourly, od.Price.Hourly)
		}
	}
	if count[catalog.CapacityBlock]["aws"] == 0 {
		t.Error("no AWS capacity-block offer")
	}
	if count[catalog.FlexStart]["gcp"] == 0 {
		t.Error("no GCP flex-start offer")
	}
	if compared < count[catalog.CapacityBlock]["aws"]/2 {
		t.Errorf("only %d capacity offers have an on-demand offer to compare with", compared)
	}
}

// TestAWSRegionCoverage checks that AWS GPU offers span at least 20 regions,
// so "cheapest region" compares more than the few US and EU regions.
func TestAWSRegionCoverage(t *testing.T) {
	c := load(t)
	regions := map[string]bool{}
	for _, o := range c.Offers() {
		if o.Provider == "aws" && o.Billing == catalog.OnDemand {
			regions[o.RegionCode] = true
		}
	}
	if len(regions) < 20 {
		t.Errorf("AWS on-demand offers in %d regions, want at least 20", len(regions))
	}
}
