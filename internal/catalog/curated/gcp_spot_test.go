package curated_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/shopspring/decimal"
)

// gcpDeepSpot are the GCP spot offers priced below 30% of their on-demand
// sibling, explained in docs/catalog-coverage.md ("GCP spot prices"): the
// Cloud Billing catalog's spot SKUs on the build date (2026-08-27), in the
// three regions where the H100 spot SKU was that low; every size of a
// family has the same per-GPU figure, so they are not a summing artefact.
var gcpDeepSpot = []string{
	"a3-highgpu-1g/asia-northeast1", "a3-highgpu-2g/asia-northeast1", "a3-highgpu-4g/asia-northeast1", "a3-highgpu-8g/asia-northeast1",
	"a3-highgpu-1g/australia-southeast1", "a3-highgpu-2g/australia-southeast1", "a3-highgpu-4g/australia-southeast1", "a3-highgpu-8g/australia-southeast1",
	"a3-highgpu-1g/europe-west8", "a3-highgpu-2g/europe-west8", "a3-highgpu-4g/europe-west8",
	"a3-megagpu-8g/asia-northeast1", "a3-megagpu-8g/us-west4",
}

// TestGCPSpotRatioBounds pins what docs/catalog-coverage.md concludes about
// GCP spot prices. Google's Spot prices change by region up to once a day,
// with discounts of up to 91% (https://cloud.google.com/spot-vms/pricing),
// so a spot price is not a fixed fraction of on-demand. Every GCP spot offer
// has an on-demand sibling in the same region and costs at least 15% of it:
// lower figures are the build's host-only sums (a region without a GPU spot
// SKU) and are left out. Below 30% only the documented offers are allowed;
// a refresh that adds another must explain it in the document first.
func TestGCPSpotRatioBounds(t *testing.T) {
	c := load(t)
	onDemand := map[string]decimal.Decimal{}
	for _, o := range c.Offers() {
		if o.Provider == "gcp" && o.Billing == catalog.OnDemand {
			onDemand[o.InstanceName+"/"+o.RegionCode] = o.Price.Hourly
		}
	}
	documented := map[string]bool{}
	for _, k := range gcpDeepSpot {
		documented[k] = true
	}
	floor, deep := decimal.RequireFromString("0.15"), decimal.RequireFromString("0.30")
	var spot int
	var found []string
	for _, o := range c.Offers() {
		if o.Provider != "gcp" || o.Billing != catalog.Spot {
			continue
		}
		spot++
		key := o.InstanceName + "/" + o.RegionCode
		od, ok := onDemand[key]
		if !ok || !od.IsPositive() {
			t.Errorf("%s: no on-demand sibling", o.ID())
			continue
		}
		ratio := o.Price.Hourly.Div(od)
		switch {
		case ratio.GreaterThanOrEqual(decimal.NewFromInt(1)):
			t.Errorf("%s: spot %s is not below on-demand %s", o.ID(), o.Price.Hourly, od)
		case ratio.LessThan(floor):
			t.Errorf("%s: spot is %s of on-demand, under the 15%% floor (a host-only figure?)", o.ID(), ratio.StringFixed(3))
		case ratio.LessThan(deep):
			found = append(found, key)
			if !documented[key] {
				t.Errorf("%s: spot is %s of on-demand; explain it in docs/catalog-coverage.md and list it in gcpDeepSpot", o.ID(), ratio.StringFixed(3))
			}
			if !strings.Contains(o.Notes, "DEEP SPOT DISCOUNT") {
				t.Errorf("%s: the notes must warn of the deep spot discount, got %q", o.ID(), o.Notes)
			}
		}
	}
	if spot == 0 {
		t.Fatal("no GCP spot offers")
	}
	sort.Strings(found)
	want := append([]string(nil), gcpDeepSpot...)
	sort.Strings(want)
	if strings.Join(found, " ") != strings.Join(want, " ") {
		t.Errorf("offers under 30%% of on-demand:\n got %v\nwant %v (update gcpDeepSpot and the document together)", found, want)
	}
}
