package export_test

import (
	"errors"
	"testing"

	"github.com/gpuscout/gpuscout/internal/export"
	"gopkg.in/yaml.v3"
)

// TestSkyPilotAddedClouds checks SkyPilot tasks for the GPU clouds whose
// instance types and regions come from SkyPilot's catalogs: the cloud name,
// the region (none for RunPod's one price list in every data center), the
// instance type and the accelerator.
func TestSkyPilotAddedClouds(t *testing.T) {
	for _, tt := range []struct {
		id, cloud, region, zone, accl string
		n                             float64
	}{
		{"nebius/gpu-h100-sxm_8gpu-128vcpu-1600gb/eu-north1/on-demand", "nebius", "eu-north1", "", "H100", 8},
		{"runpod/1x_A100-80GB_SECURE/ANY/on-demand", "runpod", "", "", "A100-80GB", 1},
		{"hyperstack/n3-H100x8/CANADA-1/on-demand", "hyperstack", "CANADA-1", "", "H100", 8},
		{"verda/1H200.141S.44V/FIN-03/on-demand", "verda", "FIN-03", "", "H200", 1},
		{"digitalocean/gpu-h100x8-640gb/tor1/on-demand", "do", "tor1", "", "H100", 8},
	} {
		t.Run(tt.id, func(t *testing.T) {
			off := realOffer(t, tt.id)
			src, err := export.SkyPilot(off, export.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var task struct {
				Resources struct {
					Cloud        string             `yaml:"cloud"`
					Region       string             `yaml:"region"`
					Zone         string             `yaml:"zone"`
					InstanceType string             `yaml:"instance_type"`
					Accelerators map[string]float64 `yaml:"accelerators"`
				} `yaml:"resources"`
			}
			if err := yaml.Unmarshal(src, &task); err != nil {
				t.Fatalf("not YAML: %v\n%s", err, src)
			}
			r := task.Resources
			if r.Cloud != tt.cloud || r.Region != tt.region || r.Zone != tt.zone || r.InstanceType != off.InstanceName || r.Accelerators[tt.accl] != tt.n {
				t.Errorf("resources %+v, want cloud %s region %q zone %q %s:%v\n%s", r, tt.cloud, tt.region, tt.zone, tt.accl, tt.n, src)
			}
		})
	}
}

// TestExportUnsupportedAddedClouds checks that providers SkyPilot or dstack
// cannot launch from gpuscout's data get an UnsupportedError naming them.
func TestExportUnsupportedAddedClouds(t *testing.T) {
	for _, id := range []string{"coreweave/gd-8xh100ib-i128/north-america/on-demand", "vast/1x-RTX_4090-32-65536/US/on-demand", "crusoe/l40s-48gb.8x/us-east1/on-demand"} {
		off := realOffer(t, id)
		for _, target := range []string{export.TargetSkyPilot, export.TargetDstack, export.TargetTerraform} {
			_, err := export.Render(target, off, export.Options{})
			var u *export.UnsupportedError
			if !errors.As(err, &u) {
				t.Errorf("%s to %s: %v, want an UnsupportedError", id, target, err)
			}
		}
	}
}
