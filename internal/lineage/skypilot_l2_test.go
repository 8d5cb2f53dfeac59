package lineage

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func rowsByKey(t *testing.T, src Source, dir string) map[string]Row {
	t.Helper()
	rows, err := src.Generate(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Row{}
	for _, r := range rows {
		m[r.InstanceType+"/"+r.Region+"/"+r.Billing] = r
	}
	return m
}

// AWS spot rows take the lowest real zone price of the region: a Local
// Zone (use1-atl2-az1 10.2397) is not a zone of the region, and a zone
// whose SpotPrice is the on-demand price is no spot offer, so a region
// with only such zones gets no spot row. No on-demand row is emitted.
func TestSkypilotAWSSpotZones(t *testing.T) {
	m := rowsByKey(t, skypilotAWSSource(), "testdata/skypilot-aws")
	for key, want := range map[string]string{
		"p5.48xlarge/us-east-1/spot":        "17.6289", // not the Atlanta Local Zone's 10.2397
		"p4de.24xlarge/ap-southeast-1/spot": "13.7534", // apse1-az3 32.9365 is the on-demand price
		"g4dn.xlarge/us-west-2/spot":        "0.2386",  // not usw2-lax1-az1 0.0631
	} {
		if got := m[key].Hourly; got != want {
			t.Errorf("%s = %q, want %s", key, got, want)
		}
	}
	for _, key := range []string{"p5.48xlarge/ap-southeast-3/spot", "p5.48xlarge/ca-central-1/spot",
		"p5en.48xlarge/us-east-1/spot" /* elsewhere.csv: dstack */} {
		if r, ok := m[key]; ok {
			t.Errorf("%s kept at %s", key, r.Hourly)
		}
	}
	for key, r := range m {
		if r.Billing != "spot" {
			t.Errorf("%s: only spot rows come from this file", key)
		}
		if r.AsOf != "" || r.ReadOn != "2026-12-03" || !strings.Contains(r.Notes, "zone spot prices: ") {
			t.Errorf("%s: want undated, read 2026-12-03, zone prices in notes; got as_of %q read_on %q notes %q", key, r.AsOf, r.ReadOn, r.Notes)
		}
	}
}

// A malformed price in the AWS excerpt is an error naming the type and zone.
func TestSkypilotAWSBadPrice(t *testing.T) {
	bad := fstest.MapFS{"vms.csv": {Data: []byte("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n" +
		"p5.48xlarge,H100,8,192,2048,,55.04,abc,us-east-1,use1-az1\n")}, "elsewhere.csv": {Data: []byte("instance_type,region,billing,offered_by\n")}}
	if _, err := skypilotAWSSource().Generate(bad); err == nil || !strings.Contains(err.Error(), "p5.48xlarge use1-az1") {
		t.Errorf("got %v, want an error naming p5.48xlarge use1-az1", err)
	}
}

// Azure v6: on-demand in eastus/eastus2/westus2 is left to the newer
// karpenter table, and a SpotPrice equal to the Price (H100 v5) is no spot
// price.
func TestSkypilotAzureV6(t *testing.T) {
	m := rowsByKey(t, skypilotAzure.source(), "testdata/skypilot-azure")
	if r, ok := m["Standard_NC24ads_A100_v4/eastus/on-demand"]; ok {
		t.Errorf("eastus on-demand kept at %s", r.Hourly)
	}
	if got := m["Standard_NC24ads_A100_v4/eastus/spot"].Hourly; got != "0.444433" {
		t.Errorf("eastus spot = %q, want 0.444433", got)
	}
	if got := m["Standard_NC40ads_H100_v5/southcentralus/on-demand"].Hourly; got != "8.38" {
		t.Errorf("H100 v5 on-demand = %q, want 8.38", got)
	}
	if r, ok := m["Standard_NC40ads_H100_v5/southcentralus/spot"]; ok {
		t.Errorf("H100 v5 spot kept at %s: the file repeats the on-demand price", r.Hourly)
	}
	for key, r := range m {
		if r.AsOf != "2024-08-27" || !strings.Contains(r.Notes, "old data") || r.Region == "westus" {
			t.Errorf("%s: as_of %q, notes %q", key, r.AsOf, r.Notes)
		}
	}
}

// OCI: one global list price, so every row says availability is not shown
// and stands for any region (ANY).
func TestSkypilotOCIAvailability(t *testing.T) {
	m := rowsByKey(t, skypilotOCI.source(), "testdata/skypilot-oci")
	if len(m) != 21 {
		t.Errorf("got %d OCI rows, want 21 (17 shapes on demand + 4 preemptible, in region ANY)", len(m))
	}
	for key, r := range m {
		if !strings.Contains(r.Notes, "AVAILABILITY NOT SHOWN") || r.AsOf != "2026-09-18" {
			t.Errorf("%s: as_of %q, notes %q", key, r.AsOf, r.Notes)
		}
		if r.Region != "ANY" {
			t.Errorf("%s: placed in a region the file gives no evidence for", key)
		}
	}
	if got := m["BM.GPU.H100.8/ANY/on-demand"].Hourly; got != "80" {
		t.Errorf("BM.GPU.H100.8 = %q, want 80", got)
	}
}

// FuzzAWSSpotZones: any excerpt text gives rows or an error, never a panic,
// and a kept zone price is never at or above its row's Price.
func FuzzAWSSpotZones(f *testing.F) {
	head := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n"
	f.Add(head + "p5.48xlarge,H100,8,192,2048,,55.04,17.6289,us-east-1,use1-az6\n")
	f.Add(head + "p5.48xlarge,H100,8,192,2048,,55.04,55.040000,us-east-1,use1-az1\n")
	f.Add(head + "p5.48xlarge,H100,8,192,2048,,55.04,10.2,us-east-1,use1-atl2-az1\n")
	f.Add("InstanceType\n\"unterminated\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, zones, err := awsSpotZones(fstest.MapFS{"vms.csv": {Data: []byte(text)}})
		if err != nil {
			return
		}
		for key, z := range zones {
			for _, s := range z {
				if id, _, _ := strings.Cut(s, " "); localZone(id) {
					t.Errorf("%s: Local Zone %q kept", key, s)
				}
			}
		}
	})
}
