package export_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/export"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/shopspring/decimal"
	"github.com/zclconf/go-cty/cty"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite golden files")

var (
	loadOnce sync.Once
	embedded *catalog.Catalog
	loadErr  error
)

// realOffer returns an offer of the embedded catalog.
func realOffer(t *testing.T, id string) *catalog.Offer {
	t.Helper()
	loadOnce.Do(func() {
		d, _, err := curated.LoadData(curated.Embedded(), nil)
		if err != nil {
			loadErr = err
			return
		}
		embedded, loadErr = catalog.New(d)
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	o, ok := embedded.Offer(id)
	if !ok {
		t.Fatalf("the embedded catalog has no offer %s", id)
	}
	return o
}

// pinned is a real offer with a fixed price and source, so that golden files
// follow the export's layout and the instance's specifications, not the
// catalog's price updates.
func pinned(t *testing.T, id string) *catalog.Offer {
	t.Helper()
	o := *realOffer(t, id)
	o.Price = catalog.Price{Hourly: decimal.RequireFromString("12.5"), Currency: o.Price.Currency}
	if o.Billing.Family() == "subscription" {
		o.Price = catalog.Price{Monthly: decimal.RequireFromString("9125"), Currency: o.Price.Currency}
	}
	o.Source = catalog.Source{Kind: catalog.SourceOfficialAPI, Ref: "pinned test price", AsOf: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
	o.Notes = ""
	return &o
}

// variant is o under another billing model (for models the embedded
// catalog has no offer of).
func variant(o *catalog.Offer, b catalog.Billing) *catalog.Offer {
	v := *o
	v.Billing = b
	return &v
}

// gcpAttachment is a GPU-attached-to-N1 offer built on the embedded
// catalog's nvidia-tesla-t4x1 instance.
func gcpAttachment(t *testing.T) *catalog.Offer {
	t.Helper()
	base := pinned(t, "gcp/g2-standard-4/us-central1/on-demand")
	it, ok := embedded.Instance("gcp/nvidia-tesla-t4x1")
	if !ok {
		t.Fatal("no gcp/nvidia-tesla-t4x1 instance")
	}
	o := *base
	o.InstanceName, o.Instance = it.Name, it
	return &o
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/export -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file (run with -update if intended)\n--- got ---\n%s", name, got)
	}
}

// parseHCL parses an exported configuration and fails the test on errors.
func parseHCL(t *testing.T, src []byte) *hclsyntax.Body {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL(src, "main.tf")
	if diags.HasErrors() {
		t.Fatalf("exported HCL does not parse: %v\n%s", diags, src)
	}
	return f.Body.(*hclsyntax.Body)
}

func blocks(b *hclsyntax.Body, typ string, labels ...string) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for _, bl := range b.Blocks {
		if bl.Type != typ || len(bl.Labels) < len(labels) {
			continue
		}
		ok := true
		for i, l := range labels {
			ok = ok && bl.Labels[i] == l
		}
		if ok {
			out = append(out, bl)
		}
	}
	return out
}

func resource(t *testing.T, b *hclsyntax.Body, typ string) *hclsyntax.Body {
	t.Helper()
	rs := blocks(b, "resource", typ)
	if len(rs) != 1 {
		t.Fatalf("want one resource %q, found %d", typ, len(rs))
	}
	return rs[0].Body
}

// literal evaluates a constant attribute; cty.NilVal when absent or not a
// constant (a reference).
func literal(b *hclsyntax.Body, name string) cty.Value {
	a, ok := b.Attributes[name]
	if !ok {
		return cty.NilVal
	}
	v, diags := a.Expr.Value(&hcl.EvalContext{})
	if diags.HasErrors() {
		return cty.NilVal
	}
	return v
}

func wantString(t *testing.T, b *hclsyntax.Body, name, want string) {
	t.Helper()
	v := literal(b, name)
	if v == cty.NilVal || !v.Type().Equals(cty.String) || v.AsString() != want {
		t.Errorf("%s = %#v, want %q", name, v, want)
	}
}

func wantNumber(t *testing.T, b *hclsyntax.Body, name string, want int64) {
	t.Helper()
	v := literal(b, name)
	if v == cty.NilVal || !v.Type().Equals(cty.Number) {
		t.Errorf("%s = %#v, want %d", name, v, want)
		return
	}
	if got, _ := v.AsBigFloat().Int64(); got != want {
		t.Errorf("%s = %d, want %d", name, got, want)
	}
}

func wantBool(t *testing.T, b *hclsyntax.Body, name string, want bool) {
	t.Helper()
	v := literal(b, name)
	if v == cty.NilVal || !v.Type().Equals(cty.Bool) || v.True() != want {
		t.Errorf("%s = %#v, want %v", name, v, want)
	}
}

func wantRef(t *testing.T, b *hclsyntax.Body, name string) {
	t.Helper()
	if _, ok := b.Attributes[name]; !ok {
		t.Errorf("attribute %s missing", name)
	}
}

func wantAbsent(t *testing.T, b *hclsyntax.Body, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, ok := b.Attributes[n]; ok {
			t.Errorf("attribute %s present, want none", n)
		}
		if len(blocks(b, n)) > 0 {
			t.Errorf("block %s present, want none", n)
		}
	}
}

// common checks what every Terraform export has: required_providers with
// the official source, a provider block, variables, the comments.
func common(t *testing.T, src []byte, off *catalog.Offer, provider, source string) *hclsyntax.Body {
	t.Helper()
	body := parseHCL(t, src)
	tf := blocks(body, "terraform")
	if len(tf) != 1 {
		t.Fatal("no terraform block")
	}
	rp := blocks(tf[0].Body, "required_providers")
	if len(rp) != 1 {
		t.Fatal("no required_providers block")
	}
	v := literal(rp[0].Body, provider)
	if v == cty.NilVal || !v.Type().IsObjectType() || v.GetAttr("source").AsString() != source {
		t.Errorf("required_providers.%s = %#v, want source %s", provider, v, source)
	}
	if len(blocks(body, "provider", provider)) != 1 {
		t.Errorf("no provider %q block", provider)
	}
	if len(blocks(body, "variable")) < 3 {
		t.Errorf("want variables for what the user supplies")
	}
	s := string(src)
	for _, want := range []string{"# Offer:    " + off.ID(), off.Price.Currency + " per instance-hour", string(off.Source.Kind), "# As of:    " + off.Source.AsOfString()} {
		if !strings.Contains(s, want) {
			t.Errorf("no comment %q", want)
		}
	}
	return body
}

func TestTerraformAWS(t *testing.T) {
	tests := []struct {
		name, id string
		count    int
		spot     bool
		billing  catalog.Billing // a variant of the offer, when set
		check    func(t *testing.T, body, r *hclsyntax.Body, src string)
	}{
		{name: "aws-p5-on-demand-efa.tf", id: "aws/p5.48xlarge/us-east-1/on-demand", count: 2, check: func(t *testing.T, body, r *hclsyntax.Body, src string) {
			wantAbsent(t, r, "instance_market_options", "subnet_id")
			efa := resource(t, body, "aws_network_interface")
			wantString(t, efa, "interface_type", "efa")
			wantNumber(t, efa, "count", 2)
			if len(blocks(r, "primary_network_interface")) != 1 {
				t.Error("no EFA primary_network_interface")
			}
			wantString(t, resource(t, body, "aws_placement_group"), "strategy", "cluster")
		}},
		{name: "aws-g4dn-spot.tf", id: "aws/g4dn.xlarge/us-east-1/spot", count: 1, check: func(t *testing.T, body, r *hclsyntax.Body, src string) {
			mo := blocks(r, "instance_market_options")
			if len(mo) != 1 {
				t.Fatal("no instance_market_options for a spot offer")
			}
			wantString(t, mo[0].Body, "market_type", "spot")
			wantRef(t, r, "subnet_id")
			if len(blocks(body, "resource", "aws_network_interface")) != 0 {
				t.Error("EFA interface for an instance without EFA")
			}
		}},
		{name: "aws-p4d-reserved.tf", id: "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", count: 1, check: func(t *testing.T, body, r *hclsyntax.Body, src string) {
			wantAbsent(t, r, "instance_market_options")
			for _, want := range []string{"1-year No Upfront Standard Reserved Instance for p4d.24xlarge", "bought separately"} {
				if !strings.Contains(src, want) {
					t.Errorf("no %q in the commitment comment", want)
				}
			}
		}},
		{name: "aws-p5-spot-flag.tf", id: "aws/p5.48xlarge/us-east-1/on-demand", count: 1, spot: true, check: func(t *testing.T, body, r *hclsyntax.Body, src string) {
			if len(blocks(r, "instance_market_options")) != 1 {
				t.Error("--spot without instance_market_options")
			}
		}},
		{name: "aws-p5-capacity-block.tf", id: "aws/p5.48xlarge/us-east-1/on-demand", count: 1, billing: catalog.CapacityBlock, check: func(t *testing.T, body, r *hclsyntax.Body, src string) {
			mo := blocks(r, "instance_market_options")
			if len(mo) != 1 {
				t.Fatal("no instance_market_options for a capacity block")
			}
			wantString(t, mo[0].Body, "market_type", "capacity-block")
			if len(blocks(r, "capacity_reservation_specification")) != 1 {
				t.Error("no capacity_reservation_specification")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := pinned(t, tt.id)
			if tt.billing != "" {
				off = variant(off, tt.billing)
			}
			src, err := export.Terraform(off, export.Options{Count: tt.count, Spot: tt.spot})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, src)
			body := common(t, src, off, "aws", "hashicorp/aws")
			r := resource(t, body, "aws_instance")
			wantString(t, r, "instance_type", off.InstanceName)
			wantNumber(t, r, "count", int64(tt.count))
			tt.check(t, body, r, string(src))
		})
	}
}

func TestTerraformAzure(t *testing.T) {
	for _, tt := range []struct {
		name, id string
		spot     bool
	}{
		{"azure-nd96asr-spot.tf", "azure/Standard_ND96asr_v4/eastus/spot", true},
		{"azure-nd96asr-on-demand.tf", "azure/Standard_ND96asr_v4/eastus/on-demand", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			off := pinned(t, tt.id)
			src, err := export.Terraform(off, export.Options{Count: 2})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, src)
			body := common(t, src, off, "azurerm", "hashicorp/azurerm")
			vm := resource(t, body, "azurerm_linux_virtual_machine")
			wantString(t, vm, "size", "Standard_ND96asr_v4")
			wantString(t, vm, "location", "eastus")
			wantNumber(t, vm, "count", 2)
			if tt.spot {
				wantString(t, vm, "priority", "Spot")
				wantString(t, vm, "eviction_policy", "Deallocate")
				wantNumber(t, vm, "max_bid_price", -1)
			} else {
				wantAbsent(t, vm, "priority", "eviction_policy", "max_bid_price")
			}
			resource(t, body, "azurerm_network_interface")
		})
	}
}

func TestTerraformGCP(t *testing.T) {
	for _, tt := range []struct {
		name string
		off  func(t *testing.T) *catalog.Offer
		spot bool
	}{
		{"gcp-a3-on-demand.tf", func(t *testing.T) *catalog.Offer { return pinned(t, "gcp/a3-highgpu-8g/us-central1/on-demand") }, false},
		{"gcp-a3-spot.tf", func(t *testing.T) *catalog.Offer { return pinned(t, "gcp/a3-highgpu-8g/us-central1/spot") }, true},
		{"gcp-a3-committed.tf", func(t *testing.T) *catalog.Offer { return pinned(t, "gcp/a3-highgpu-8g/us-central1/committed-1y") }, false},
		{"gcp-t4-attached.tf", gcpAttachment, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			off := tt.off(t)
			src, err := export.Terraform(off, export.Options{})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, src)
			body := common(t, src, off, "google", "hashicorp/google")
			r := resource(t, body, "google_compute_instance")
			ga := blocks(r, "guest_accelerator")
			if off.InstanceName == "nvidia-tesla-t4x1" {
				wantRef(t, r, "machine_type")
				if len(ga) != 1 {
					t.Fatal("no guest_accelerator for an attached GPU")
				}
				wantString(t, ga[0].Body, "type", "nvidia-tesla-t4")
				wantNumber(t, ga[0].Body, "count", 1)
			} else {
				wantString(t, r, "machine_type", off.InstanceName)
				if len(ga) != 0 {
					t.Error("guest_accelerator for a machine type with bundled GPUs")
				}
			}
			sc := blocks(r, "scheduling")
			if len(sc) != 1 {
				t.Fatal("no scheduling block")
			}
			wantString(t, sc[0].Body, "on_host_maintenance", "TERMINATE")
			if tt.spot {
				wantString(t, sc[0].Body, "provisioning_model", "SPOT")
				wantBool(t, sc[0].Body, "preemptible", true)
				wantBool(t, sc[0].Body, "automatic_restart", false)
			} else {
				wantAbsent(t, sc[0].Body, "provisioning_model", "preemptible")
			}
			if off.Billing == catalog.Committed1y && !strings.Contains(string(src), "1-year resource-based committed use discount in us-central1") {
				t.Error("no note on the commitment to buy")
			}
		})
	}
}

func TestTerraformAlibabaTencent(t *testing.T) {
	ali := "alibaba/ecs.gn7i-c8g1.2xlarge/cn-beijing/on-demand"
	tests := []struct {
		name   string
		off    func(t *testing.T) *catalog.Offer
		spot   bool
		typ    string
		attrs  map[string]any
		absent []string
	}{
		{"alibaba-on-demand.tf", func(t *testing.T) *catalog.Offer { return pinned(t, ali) }, false, "alicloud_instance",
			map[string]any{"instance_charge_type": "PostPaid"}, []string{"spot_strategy", "period"}},
		{"alibaba-spot.tf", func(t *testing.T) *catalog.Offer { return pinned(t, ali) }, true, "alicloud_instance",
			map[string]any{"instance_charge_type": "PostPaid", "spot_strategy": "SpotAsPriceGo"}, []string{"period"}},
		{"alibaba-subscription-1y.tf", func(t *testing.T) *catalog.Offer { return variant(pinned(t, ali), catalog.Subscription1y) }, false, "alicloud_instance",
			map[string]any{"instance_charge_type": "PrePaid", "period": int64(12), "period_unit": "Month"}, []string{"spot_strategy"}},
		{"tencent-subscription-1m.tf", func(t *testing.T) *catalog.Offer {
			return pinned(t, "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m")
		}, false, "tencentcloud_instance",
			map[string]any{"instance_charge_type": "PREPAID", "instance_charge_type_prepaid_period": int64(1)}, []string{"spot_instance_type"}},
		{"tencent-on-demand.tf", func(t *testing.T) *catalog.Offer { return pinned(t, "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand") }, false, "tencentcloud_instance",
			map[string]any{"instance_charge_type": "POSTPAID_BY_HOUR"}, []string{"instance_charge_type_prepaid_period", "spot_instance_type"}},
		{"tencent-spot.tf", func(t *testing.T) *catalog.Offer { return pinned(t, "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand") }, true, "tencentcloud_instance",
			map[string]any{"instance_charge_type": "SPOTPAID", "spot_instance_type": "ONE-TIME"}, []string{"instance_charge_type_prepaid_period"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := tt.off(t)
			src, err := export.Terraform(off, export.Options{Count: 1, Spot: tt.spot})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, src)
			prov, source := "alicloud", "aliyun/alicloud"
			if off.Provider == "tencent" {
				prov, source = "tencentcloud", "tencentcloudstack/tencentcloud"
			}
			body := common(t, src, off, prov, source)
			r := resource(t, body, tt.typ)
			wantString(t, r, "instance_type", off.InstanceName)
			for k, v := range tt.attrs {
				switch v := v.(type) {
				case string:
					wantString(t, r, k, v)
				case int64:
					wantNumber(t, r, k, v)
				}
			}
			wantAbsent(t, r, tt.absent...)
		})
	}
}

func TestTerraformRefusals(t *testing.T) {
	for _, tt := range []struct {
		id, want string
		opt      export.Options
	}{
		{"oci/VM.GPU2.1/ANY/on-demand", "no Terraform export for provider oci", export.Options{}},
		{"lambda/gpu_1x_a6000/ANY/on-demand", "no Terraform export for provider lambda", export.Options{}},
		{"aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "--spot does not combine", export.Options{Spot: true}},
		{"gcp/a3-highgpu-8g/us-central1/flex-start", "flex-start (DWS) offer cannot be exported", export.Options{}},
	} {
		_, err := export.Terraform(realOffer(t, tt.id), tt.opt)
		var ue *export.UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Error(), tt.want) || ue.Hint == "" {
			t.Errorf("%s: error %v, want an UnsupportedError with %q and a hint", tt.id, err, tt.want)
		}
	}
}

// TestWindowsOfferRefused: a Windows rate (test data) is not exported to a
// file that would create a Linux VM.
func TestWindowsOfferRefused(t *testing.T) {
	win := *realOffer(t, "aws/g4dn.xlarge/us-east-1/on-demand")
	win.OS = catalog.OSWindows
	for _, target := range export.Targets() {
		_, err := export.Render(target, &win, export.Options{})
		var ue *export.UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(ue.Error(), "a windows offer cannot be exported") || !strings.Contains(ue.Hint, "aws/g4dn.xlarge/us-east-1/on-demand ") {
			t.Errorf("%s: error %v", target, err)
		}
	}
}

// skyTask is the part of a SkyPilot task the export writes.
type skyTask struct {
	Name      string `yaml:"name"`
	NumNodes  int    `yaml:"num_nodes"`
	Resources struct {
		Cloud        string             `yaml:"cloud"`
		Region       string             `yaml:"region"`
		InstanceType string             `yaml:"instance_type"`
		Accelerators map[string]float64 `yaml:"accelerators"`
		UseSpot      *bool              `yaml:"use_spot"`
	} `yaml:"resources"`
	Run string `yaml:"run"`
}

func TestSkyPilot(t *testing.T) {
	for _, tt := range []struct {
		name, id    string
		count       int
		cloud, accl string
		n           float64
		spot        bool
	}{
		{"skypilot-aws-p5.yaml", "aws/p5.48xlarge/us-east-1/on-demand", 2, "aws", "H100", 8, false},
		{"skypilot-azure-nd96asr-spot.yaml", "azure/Standard_ND96asr_v4/eastus/spot", 1, "azure", "A100", 8, true},
		{"skypilot-gcp-a3-spot.yaml", "gcp/a3-highgpu-8g/us-central1/spot", 4, "gcp", "H100", 8, true},
		{"skypilot-lambda-a6000.yaml", "lambda/gpu_1x_a6000/ANY/on-demand", 1, "lambda", "A6000", 1, false},
		{"skypilot-oci.yaml", "oci/BM.GPU.A100-v2.8/ANY/on-demand", 1, "oci", "A100-80GB", 8, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			off := pinned(t, tt.id)
			src, err := export.SkyPilot(off, export.Options{Count: tt.count})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, src)
			var task skyTask
			if err := yaml.Unmarshal(src, &task); err != nil {
				t.Fatalf("not YAML: %v\n%s", err, src)
			}
			r := task.Resources
			wantRegion := off.RegionCode
			if wantRegion == "ANY" {
				wantRegion = "" // a price list: SkyPilot picks the region
			}
			if r.Cloud != tt.cloud || r.Region != wantRegion || r.InstanceType != off.InstanceName || task.NumNodes != tt.count ||
				r.UseSpot == nil || *r.UseSpot != tt.spot || len(r.Accelerators) != 1 || r.Accelerators[tt.accl] != tt.n {
				t.Errorf("task %+v", task)
			}
			if !strings.Contains(string(src), "# Offer:    "+off.ID()) {
				t.Error("no offer comment")
			}
		})
	}
}

func TestSkyPilotAccelerators(t *testing.T) {
	realOffer(t, "aws/p5.48xlarge/us-east-1/on-demand") // loads the catalog
	for id, want := range map[string][2]string{
		"gcp/a2-ultragpu-8g":    {"A100-80GB", "A100"},
		"gcp/a3-megagpu-8g":     {"H100-MEGA", "H100"},
		"gcp/a2-highgpu-8g":     {"A100", "A100"},
		"aws/p4de.24xlarge":     {"A100-80GB", "A100"},
		"aws/g5.xlarge":         {"A10G", "A10G"},
		"aws/p3dn.24xlarge":     {"V100-32GB", "V100"},
		"lambda/gpu_1x_a6000":   {"A6000", "A6000"},
		"gcp/nvidia-tesla-t4x1": {"T4", "T4"},
	} {
		it, ok := embedded.Instance(id)
		if !ok {
			t.Fatalf("no instance %s", id)
		}
		if got := export.SkyPilotAccelerator(it); got != want[0] {
			t.Errorf("%s: SkyPilot accelerator %q, want %q", id, got, want[0])
		}
		if got := export.DstackGPUName(it); got != want[1] {
			t.Errorf("%s: dstack GPU %q, want %q", id, got, want[1])
		}
	}
}

// dstackConf is the part of a dstack configuration the export writes.
type dstackConf struct {
	Type      string `yaml:"type"`
	Name      string `yaml:"name"`
	Nodes     int    `yaml:"nodes"`
	Placement string `yaml:"placement"`
	Commands  []string
	Resources struct {
		GPU struct {
			Name   []string `yaml:"name"`
			Memory string   `yaml:"memory"`
			Count  int      `yaml:"count"`
		} `yaml:"gpu"`
	} `yaml:"resources"`
	Backends      []string `yaml:"backends"`
	Regions       []string `yaml:"regions"`
	InstanceTypes []string `yaml:"instance_types"`
	SpotPolicy    string   `yaml:"spot_policy"`
}

func TestDstack(t *testing.T) {
	for _, tt := range []struct {
		name, id, kind string
		count          int
		spot           bool
		gpu, mem       string
		n              int
		policy         string
	}{
		{"dstack-aws-p5-fleet.yaml", "aws/p5.48xlarge/us-east-1/on-demand", "", 2, false, "H100", "80GB", 8, "on-demand"},
		{"dstack-gcp-a3-spot-task.yaml", "gcp/a3-highgpu-8g/us-central1/spot", "task", 1, false, "H100", "80GB", 8, "spot"},
		{"dstack-azure-spot-flag.yaml", "azure/Standard_ND96asr_v4/eastus/on-demand", "", 1, true, "A100", "40GB", 8, "spot"},
		{"dstack-aws-p4d-reserved.yaml", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "", 1, false, "A100", "40GB", 8, "on-demand"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			off := pinned(t, tt.id)
			src, err := export.Dstack(off, export.Options{Count: tt.count, Spot: tt.spot, Kind: tt.kind})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.name, src)
			var c dstackConf
			if err := yaml.Unmarshal(src, &c); err != nil {
				t.Fatalf("not YAML: %v\n%s", err, src)
			}
			kind := tt.kind
			if kind == "" {
				kind = "fleet"
			}
			g := c.Resources.GPU
			if c.Type != kind || c.Nodes != tt.count || len(g.Name) != 1 || g.Name[0] != tt.gpu || g.Memory != tt.mem || g.Count != tt.n ||
				len(c.Backends) != 1 || c.Backends[0] != off.Provider || len(c.Regions) != 1 || c.Regions[0] != off.RegionCode ||
				len(c.InstanceTypes) != 1 || c.InstanceTypes[0] != off.InstanceName || c.SpotPolicy != tt.policy {
				t.Errorf("configuration %+v", c)
			}
			if (c.Placement == "cluster") != (tt.count > 1 && kind == "fleet") {
				t.Errorf("placement %q with %d nodes", c.Placement, tt.count)
			}
			if kind == "task" && len(c.Commands) == 0 {
				t.Error("a task without commands")
			}
		})
	}
}

func TestYAMLRefusals(t *testing.T) {
	for _, tt := range []struct {
		target, id, want string
		opt              export.Options
	}{
		{export.TargetSkyPilot, "tencent/GT4.4XLARGE96/ap-guangzhou/subscription-1m", "SkyPilot does not support provider tencent", export.Options{}},
		{export.TargetSkyPilot, "alibaba/ecs.gn7i-c8g1.2xlarge/cn-beijing/on-demand", "SkyPilot does not support provider alibaba", export.Options{}},
		{export.TargetDstack, "alibaba/ecs.gn7i-c8g1.2xlarge/cn-beijing/on-demand", "dstack does not support provider alibaba", export.Options{}},
		{export.TargetDstack, "tencent/GT4.4XLARGE96/ap-guangzhou/on-demand", "dstack does not support provider tencent", export.Options{}},
		{export.TargetDstack, "lambda/gpu_1x_a6000/ANY/on-demand", "Lambda sells no spot instances", export.Options{Spot: true}},
		{export.TargetDstack, "aws/p5.48xlarge/us-east-1/on-demand", "unknown dstack configuration type", export.Options{Kind: "service"}},
		{"pulumi", "aws/p5.48xlarge/us-east-1/on-demand", "unknown export target", export.Options{}},
	} {
		_, err := export.Render(tt.target, realOffer(t, tt.id), tt.opt)
		var ue *export.UnsupportedError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) || ue.Hint == "" {
			t.Errorf("%s %s: error %v, want %q with a hint", tt.target, tt.id, err, tt.want)
		}
	}
}

// TestEveryOfferExports exports every offer of the embedded catalog to
// every target that supports its provider: each must parse.
func TestEveryOfferExports(t *testing.T) {
	realOffer(t, "aws/p5.48xlarge/us-east-1/on-demand")
	n := 0
	for _, off := range embedded.Offers() {
		for _, target := range export.Targets() {
			src, err := export.Render(target, off, export.Options{Count: 2})
			var ue *export.UnsupportedError
			if errors.As(err, &ue) {
				continue
			}
			if err != nil {
				t.Fatalf("%s %s: %v", target, off.ID(), err)
			}
			n++
			if target == export.TargetTerraform {
				body := parseHCL(t, src)
				r := resource(t, body, export.ResourceType(off.Provider))
				for _, attr := range []string{"instance_type", "size", "machine_type"} {
					if v := literal(r, attr); v != cty.NilVal && v.AsString() != off.InstanceName {
						t.Errorf("%s: %s = %s", off.ID(), attr, v.AsString())
					}
				}
				continue
			}
			var v map[string]any
			if err := yaml.Unmarshal(src, &v); err != nil {
				t.Fatalf("%s %s: not YAML: %v", target, off.ID(), err)
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d exports", n)
	}
}

// Every Terraform export of the embedded catalog is in canonical form (what
// terraform fmt gives: formatting it again with the HCL library changes
// nothing) and parses.
func TestTerraformCanonicalForWholeCatalog(t *testing.T) {
	realOffer(t, "aws/p5.48xlarge/us-east-1/on-demand")
	seen := map[string]bool{}
	n := 0
	for _, o := range embedded.Offers() {
		key := o.Provider + "/" + o.InstanceName + "/" + string(o.Billing)
		if seen[key] || export.ResourceType(o.Provider) == "" {
			continue
		}
		seen[key] = true
		for _, opt := range []export.Options{{Count: 1}, {Count: 3, Spot: true, Context: `plan #1 "${x}" \ %{y}`}} {
			src, err := export.Terraform(o, opt)
			if err != nil {
				continue
			}
			n++
			if f := hclwrite.Format(src); string(f) != string(src) {
				t.Fatalf("%s %+v: export is not canonical:\n%s\nformatted:\n%s", o.ID(), opt, src, f)
			}
			if _, diags := hclparse.NewParser().ParseHCL(src, "main.tf"); diags.HasErrors() {
				t.Fatalf("%s %+v: %v", o.ID(), opt, diags)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d exports checked", n)
	}
}

// Where does a dstack task for a price-list offer (region ANY: one price in
// every region, no evidence of capacity in one) run? Wherever dstack finds
// capacity: the file names no region, rather than a region called ANY.
func TestDstackPriceListNamesNoRegion(t *testing.T) {
	for _, id := range []string{"lambda/gpu_1x_a6000/ANY/on-demand", "oci/BM.GPU.A100-v2.8/ANY/on-demand"} {
		src, err := export.Dstack(pinned(t, id), export.Options{Count: 1})
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if strings.Contains(string(src), "ANY]") || strings.Contains(string(src), "\nregions:") {
			t.Errorf("%s: the task names a region:\n%s", id, src)
		}
	}
}
