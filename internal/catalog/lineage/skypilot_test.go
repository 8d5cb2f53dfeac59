package lineage

import (
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
