package lineage

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// A spot price with no on-demand price for the same type and location is
// left out: Verda's 8B200.240V has only a SpotPrice in the version read.
func TestSkypilotDropsSpotWithoutOnDemand(t *testing.T) {
	rows, err := skypilotVerda.generate(os.DirFS("testdata/skypilot-verda"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.InstanceType == "8B200.240V" {
			t.Errorf("8B200.240V %s %s kept: the file gives it no on-demand price", r.Region, r.Billing)
		}
		if r.AsOf != "" || r.ReadOn == "" {
			t.Errorf("%s: an undated version gives read_on, not as_of (as_of %q, read_on %q)", r.InstanceType, r.AsOf, r.ReadOn)
		}
	}
	if len(rows) != 12 {
		t.Errorf("got %d Verda rows, want 12", len(rows))
	}
}

// A Vast Region value that is not "place, CC, continent" is an error that
// names the value; listings in one country merge to the lowest price.
func TestSkypilotVastRegions(t *testing.T) {
	head := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
	bad := fstest.MapFS{"vms.csv": {Data: []byte(head + "1x-A40-32-65536,A40,1,32,64.0,,0.67,0.00,Australia\n")}}
	if _, err := skypilotVast.generate(bad); err == nil || !strings.Contains(err.Error(), `"Australia"`) {
		t.Errorf("bad region: got %v, want an error naming it", err)
	}
	two := fstest.MapFS{"vms.csv": {Data: []byte(head +
		"1x-A40-32-65536,A40,1,32,64.0,,0.70,0.00,\"Perth, AU, OC\"\n" +
		"1x-A40-32-65536,A40,1,32,64.0,,0.67,0.00,\"Sydney, AU, OC\"\n")}}
	rows, err := skypilotVast.generate(two)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Hourly != "0.67" || !strings.Contains(rows[0].Notes, "lowest of 2 host locations") ||
		!strings.HasPrefix(rows[0].Notes, "MARKETPLACE:") {
		t.Errorf("got %+v, want one AU row at 0.67, lowest of 2 host locations", rows)
	}
}

// RunPod lists every type in every data centre of a fixed table at one
// price, so each type is one row in region ANY, on-demand only (the
// SpotPrice column copies Price), and undated.
func TestSkypilotRunPodIsOnePriceList(t *testing.T) {
	rows, err := skypilotRunPod.generate(os.DirFS("testdata/skypilot-runpod"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if r.Region != "ANY" || r.Billing != "on-demand" || seen[r.InstanceType] {
			t.Errorf("%s %s %s: want one on-demand row per type in region ANY", r.InstanceType, r.Region, r.Billing)
		}
		seen[r.InstanceType] = true
		if r.AsOf != "" || r.ReadOn == "" || !strings.HasPrefix(r.Notes, "PRICE LIST:") {
			t.Errorf("%s: want undated (read_on) and a PRICE LIST note, got as_of %q read_on %q notes %q", r.InstanceType, r.AsOf, r.ReadOn, r.Notes)
		}
	}
	if len(rows) != len(skypilotRunPod.Instances) {
		t.Errorf("got %d RunPod rows, want %d (one per instance type)", len(rows), len(skypilotRunPod.Instances))
	}
	head := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Region,SpotPrice,Price,AvailabilityZone,GpuInfo\n"
	two := fstest.MapFS{"vms.csv": {Data: []byte(head +
		"1x_MI300X_SECURE,MI300X,1.0,24.0,283.0,JP,2.39,2.39,AP-JP-1,\n" +
		"1x_MI300X_SECURE,MI300X,1.0,24.0,283.0,US,2.49,2.49,US-TX-3,\n")}}
	rows, err = skypilotRunPod.generate(two)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Hourly != "2.39" || !strings.Contains(rows[0].Notes, "lowest of 2 data centres") {
		t.Errorf("got %+v, want one ANY row at the lowest price, 2.39, noting 2 data centres", rows)
	}
	bad := fstest.MapFS{"vms.csv": {Data: []byte(head + "1x_MI300X_SECURE,MI300X,1.0,24.0,283.0,Japan,2.39,2.39,AP-JP-1,\n")}}
	if _, err := skypilotRunPod.generate(bad); err == nil || !strings.Contains(err.Error(), `"Japan"`) {
		t.Errorf("bad region: got %v, want an error naming it", err)
	}
}

// Does the catalog say a Lambda or OCI type can be had in a given region?
// Not from a price list: the files list every type in every region at one
// price, so each type is one row per billing model in region ANY, and a
// file whose regions disagree on a price is an error, not a merge.
func TestLambdaAndOCIAreOnePriceList(t *testing.T) {
	for _, c := range []struct {
		name string
		gen  func(fs.FS) ([]Row, error)
		dir  string
		want int
	}{
		{"skypilot-lambda", skypilotLambda.generate, "testdata/skypilot-lambda", len(skypilotLambda.Instances)},
		{"silybench-lambda", silybenchLambda().Generate, "testdata/silybench-lambda", 8},
		{"skypilot-oci", skypilotOCI.generate, "testdata/skypilot-oci", len(skypilotOCI.Instances) + 4},
	} {
		rows, err := c.gen(os.DirFS(c.dir))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		seen := map[string]bool{}
		for _, r := range rows {
			key := r.InstanceType + "/" + r.Billing
			if r.Region != "ANY" || seen[key] {
				t.Errorf("%s: %s %s %s: want one row per type and billing model, in region ANY", c.name, r.InstanceType, r.Region, r.Billing)
			}
			seen[key] = true
			if !strings.Contains(r.Notes, "PRICE LIST:") {
				t.Errorf("%s: %s: the notes do not say the row is a price list: %q", c.name, r.InstanceType, r.Notes)
			}
		}
		if len(rows) != c.want {
			t.Errorf("%s: got %d rows, want %d", c.name, len(rows), c.want)
		}
	}
	head := "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
	two := fstest.MapFS{"vms.csv": {Data: []byte(head +
		"gpu_1x_a6000,A6000,1,14,46,,0.80,,us-east-1\n" +
		"gpu_1x_a6000,A6000,1,14,46,,0.90,,us-west-1\n")}}
	if _, err := skypilotLambda.generate(two); err == nil || !strings.Contains(err.Error(), "not one price list") {
		t.Errorf("two prices for one type: got %v, want an error", err)
	}
	bad := fstest.MapFS{"vms.csv": {Data: []byte(head + "gpu_1x_a6000,A6000,1,14,46,,0.80,,Virginia\n")}}
	if _, err := skypilotLambda.generate(bad); err == nil || !strings.Contains(err.Error(), `"Virginia"`) {
		t.Errorf("bad region: got %v, want an error naming it", err)
	}
}

// Lambda rows from the SkyPilot file leave out the products priced from
// the dated page copy (silybench-lambda).
func TestSkypilotLambdaLeavesDatedProductsOut(t *testing.T) {
	rows, err := skypilotLambda.generate(os.DirFS("testdata/skypilot-lambda"))
	if err != nil {
		t.Fatal(err)
	}
	dated := map[string]bool{}
	for _, typ := range silybenchLambdaTypes {
		dated[typ] = true
	}
	for _, r := range rows {
		if dated[r.InstanceType] {
			t.Errorf("%s: priced by silybench-lambda", r.InstanceType)
		}
	}
}

// What does a RunPod H100 SXM pod cost, and as of when? The dated copy of
// RunPod's page (3.49 per GPU on 2026-09-25), not the undated SkyPilot
// file's 3.29: a dated price wins over an undated one for the same offer,
// so no pod type is priced by both.
func TestRunPodDatedPriceWins(t *testing.T) {
	dated := rowsByKey(t, silybenchRunPod(), "testdata/silybench-runpod")
	undated := rowsByKey(t, skypilotSource(skypilotRunPod), "testdata/skypilot-runpod")
	for key, want := range map[string]string{
		"1x_H100-SXM_SECURE/ANY/on-demand":  "3.49",
		"8x_H100-SXM_SECURE/ANY/on-demand":  "27.92",
		"1x_A100-80GB_SECURE/ANY/on-demand": "1.59",
		"8x_L40S_SECURE/ANY/on-demand":      "8.72",
	} {
		if r := dated[key]; r.Hourly != want || r.AsOf != "2026-09-25" {
			t.Errorf("%s = %q as of %q, want %s as of 2026-09-25", key, r.Hourly, r.AsOf, want)
		}
	}
	for key := range dated {
		if _, ok := undated[key]; ok {
			t.Errorf("%s: priced by the dated page copy and the undated file", key)
		}
	}
	if len(dated) != 16 {
		t.Errorf("got %d dated RunPod rows, want 16", len(dated))
	}
}
