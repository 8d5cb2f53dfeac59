package lineage

import (
	"fmt"
	"strings"
)

// lambdaAnyRegion is the catalog region a Lambda price stands for: any
// Lambda region (regions.csv, provider lambda, code ANY). Lambda publishes
// one on-demand price list for every region, and the files the catalog
// reads list every type in every region at that price, which is not
// evidence of capacity in any one of them. A live answer from Lambda's
// instance-types API, which names the regions with capacity, places an
// offer in a region.
const lambdaAnyRegion = "ANY"

// lambdaAny maps the file's Region value (a Lambda region code such as
// us-east-1) to lambdaAnyRegion, after checking it has the shape of one.
func lambdaAny(region string) (string, error) {
	parts := strings.Split(region, "-")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || len(parts[2]) != 1 || parts[2][0] < '1' || parts[2][0] > '9' {
		return "", fmt.Errorf("region %q is not a Lambda region code such as us-east-1", region)
	}
	return lambdaAnyRegion, nil
}

// lambdaOnePriceList is the first note of every Lambda row from the
// SkyPilot file: Lambda's price list is the same in every region.
func lambdaOnePriceList(rows []skypilotRow) []string {
	out := make([]string, len(rows))
	for k := range rows {
		out[k] = "PRICE LIST: Lambda on-demand price for this type, the same in every region; the file lists the type in all 17 Lambda regions " +
			"at this price, which is not capacity (Lambda's API reports capacity per region, the file does not keep it), so the row stands for " +
			"any Lambda region (region ANY): a live answer places it in the regions with capacity"
	}
	return out
}

// skypilotLambda is Lambda's vms.csv (see testdata/skypilot-lambda/SOURCE.md).
// The types Lambda's pricing page lists as products (1x A10, 1x A100 SXM
// 40GB, 1x GH200, 1x H100 PCIe, 1x H100 SXM, 8x A100 SXM 80GB, 8x H100 SXM,
// 1x B200 SXM6) are priced from the dated copy of that page in
// silybench-lambda and are not generated here.
var skypilotLambda = skypilotFile{
	Provider:    "lambda",
	Path:        "catalogs/v8/lambda/vms.csv",
	Commit:      "0f4070387edc953d7004cff197940e1918a1d6aa",
	ReadOn:      "2026-12-03",
	Origin:      "the Lambda API",
	SpotMeaning: "empty throughout: Lambda sells no spot instances",
	Region:      lambdaAny,
	Regions:     []string{lambdaAnyRegion},
	Uniform:     true,
	Lead:        lambdaOnePriceList,
	RegionWord:  "regions",
	Instances: []string{"gpu_8x_v100", "gpu_1x_a6000", "gpu_2x_a6000", "gpu_4x_a6000", "gpu_1x_a100", "gpu_2x_a100", "gpu_4x_a100",
		"gpu_8x_a100", "gpu_2x_h100_sxm5", "gpu_4x_h100_sxm5", "gpu_2x_b200_sxm6", "gpu_8x_b200_sxm6"},
}
