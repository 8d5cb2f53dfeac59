package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
	"gopkg.in/yaml.v3"
)

func TestExportGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"export-terraform-aws.tf", []string{"export", "terraform", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--count", "2"}},
		{"export-terraform-aws-spot.tf", []string{"export", "terraform", "--offer", "aws/g4dn.xlarge/us-east-1/spot"}},
		{"export-terraform-tencent.tf", []string{"export", "terraform", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m"}},
		{"export-skypilot.yaml", []string{"export", "skypilot", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--count", "2"}},
		{"export-dstack.yaml", []string{"export", "dstack", "--offer", "aws/g4dn.xlarge/us-east-1/spot", "--kind", "task"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := exec(t, false, nil, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			golden(t, tt.name, out)
			if strings.HasSuffix(tt.name, ".tf") {
				if _, diags := hclparse.NewParser().ParseHCL([]byte(out), tt.name); diags.HasErrors() {
					t.Errorf("not HCL: %v", diags)
				}
			} else {
				var v map[string]any
				if err := yaml.Unmarshal([]byte(out), &v); err != nil {
					t.Errorf("not YAML: %v", err)
				}
			}
		})
	}
}

// TestExportToFile checks that -o names the output file for exports (it
// shadows the global output format).
func TestExportToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "main.tf")
	want, _, _ := exec(t, false, nil, "export", "terraform", "--offer", "aws/p5.48xlarge/us-east-1/on-demand")
	out, errOut, code := exec(t, false, nil, "export", "terraform", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "-o", path)
	if code != 0 || !strings.Contains(out, "Wrote "+path) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("file differs from standard output (%v):\n%s", err, got)
	}
}

func TestExportErrors(t *testing.T) {
	tests := []struct {
		name     string
		embedded bool
		args     []string
		stderr   []string
	}{
		{"no offer", false, []string{"export", "terraform"}, []string{"--offer is required"}},
		{"unknown offer", false, []string{"export", "terraform", "--offer", "aws/p5.48xlarge/us-east-1/ondemand"}, []string{"did you mean aws/p5.48xlarge/us-east-1/on-demand"}},
		{"zero count", false, []string{"export", "skypilot", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--count", "0"}, []string{"--count must be at least 1"}},
		{"oci terraform", true, []string{"export", "terraform", "--offer", "oci/VM.GPU2.1/ANY/on-demand"}, []string{"no Terraform export for provider oci", "Hint:", "skypilot"}},
		{"lambda terraform", true, []string{"export", "terraform", "--offer", "lambda/gpu_1x_a6000/ANY/on-demand"}, []string{"no Terraform export for provider lambda", "Hint:"}},
		{"tencent skypilot", false, []string{"export", "skypilot", "--offer", "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand"}, []string{"SkyPilot does not support provider tencent", "gpuscout export terraform"}},
		{"alibaba dstack", true, []string{"export", "dstack", "--offer", "alibaba/ecs.gn7i-c8g1.2xlarge/cn-beijing/on-demand"}, []string{"dstack does not support provider alibaba", "Hint:"}},
		{"spot reserved", false, []string{"export", "terraform", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--spot"}, []string{"--spot does not combine"}},
		{"unknown target", false, []string{"export", "pulumi"}, []string{`unknown export target "pulumi"`, "terraform, skypilot, dstack"}},
		{"bad kind", false, []string{"export", "dstack", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--kind", "service"}, []string{"unknown dstack configuration type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := exec(t, tt.embedded, nil, tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr:\n%s", code, errOut)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, errOut)
				}
			}
		})
	}
}

// TestRecommendExport: `recommend --export` writes the advisor's top plan as
// deployment configuration naming that plan's instance, region and count.
func TestRecommendExport(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	// SkyPilot's clouds only (Crusoe's InfiniBand nodes win the example otherwise).
	sky := "--provider=aws,azure,gcp,oci,lambda,runpod,nebius"
	js, errOut, code := exec(t, true, env, "recommend", "-f", "../../examples/distributed-training.yaml", sky, "-o", "json")
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errOut)
	}
	var doc struct {
		Plans []struct {
			InstanceType string `json:"instance_type"`
			Region       string
			Count        int
		}
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || len(doc.Plans) == 0 {
		t.Fatalf("recommendation: %v", err)
	}
	top := doc.Plans[0]
	out, errOut, code := exec(t, true, env, "recommend", "-f", "../../examples/distributed-training.yaml", sky, "--export", "skypilot")
	if code != 0 {
		t.Fatalf("recommend --export: exit %d: %s", code, errOut)
	}
	var task struct {
		NumNodes  int `yaml:"num_nodes"`
		Resources struct {
			Region       string `yaml:"region"`
			InstanceType string `yaml:"instance_type"`
		} `yaml:"resources"`
	}
	if err := yaml.Unmarshal([]byte(out), &task); err != nil {
		t.Fatalf("exported task is not YAML: %v\n%s", err, out)
	}
	if task.Resources.InstanceType != top.InstanceType || task.Resources.Region != top.Region || task.NumNodes != top.Count {
		t.Errorf("export %+v (nodes %d) does not match the top plan %+v", task.Resources, task.NumNodes, top)
	}
}
