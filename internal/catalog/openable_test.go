package catalog_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/catalog/catalogtest"
)

func TestOpenable(t *testing.T) {
	for ref, want := range map[string]bool{
		"https://docs.digitalocean.com/products/droplets/details/pricing/":                              true,
		"price list (http://example.com/a.csv)":                                                         true,
		"skypilot-org/skypilot-catalog catalogs/v6/do/vms.csv@1fbe7331dd1f13d70ac4f249bb7ee7a659fc6b6a": true,
		"imroc/tke-guide:content/ai/sglang-deepseek-r1.md@0479095d":                                     true,
		"tencentyun/qcloud-documents product/计算与网络/GPU 云服务器/产品简介/实例类型/计算型实例.md@522988d":                 true,
		"crusoe docs (github.com/crusoecloud)":                                                          false,
		"help.aliyun.com/zh/ecs/user-guide/gpu":                                                         false,
		"MicrosoftDocs/azure-docs articles/virtual-machines/spot-vms.md":                                false,
		"owner/repo path@main":            false,
		"owner/repo path@abc12":           false,
		"a README in a public repository": false,
	} {
		if got := catalog.Openable(ref); got != want {
			t.Errorf("Openable(%q) = %v, want %v", ref, got, want)
		}
	}
}

// TestValidateRefusesUnopenableSource checks that a curated record citing
// something a reader cannot open, or gpuscout's internal research notes,
// makes the catalog invalid, naming the field.
func TestValidateRefusesUnopenableSource(t *testing.T) {
	for _, ref := range []string{"Crusoe's public Terraform examples (github.com/crusoecloud)", "https://nvidia.com/a100 via gpuscout research data gpu-specs.csv"} {
		d := catalogtest.Data()
		d.GPUs[0].Source = catalog.Source{Kind: catalog.SourceOfficialDoc, Ref: ref, AsOf: catalogtest.AsOf}
		_, err := catalog.New(d)
		if err == nil || !strings.Contains(err.Error(), "source_ref") {
			t.Errorf("ref %q: err %v, want a source_ref problem", ref, err)
		}
	}
	d := catalogtest.Data()
	d.GPUs[0].Source = catalog.Source{Kind: catalog.SourceEstimate, Ref: "assumption: no source found", AsOf: catalogtest.AsOf}
	if _, err := catalog.New(d); err != nil {
		t.Errorf("an estimate says what it rests on; got %v", err)
	}
}
