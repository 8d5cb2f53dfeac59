package lineage

// lambdaOnePriceList is the first note of every Lambda row from the
// SkyPilot file: Lambda's price list is the same in every region.
func lambdaOnePriceList(rows []skypilotRow) []string {
	out := make([]string, len(rows))
	for k := range rows {
		out[k] = "Lambda publishes one on-demand price for every region; the file lists the type in all 17 Lambda regions at this price " +
			"(per-region capacity is not published), so the price is repeated for the 16 Lambda regions of the catalog (europe-south-1 is not one of them)"
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
	Regions:     lambdaRegions,
	Lead:        lambdaOnePriceList,
	RegionWord:  "regions",
	Instances: []string{"gpu_8x_v100", "gpu_1x_a6000", "gpu_2x_a6000", "gpu_4x_a6000", "gpu_1x_a100", "gpu_2x_a100", "gpu_4x_a100",
		"gpu_8x_a100", "gpu_2x_h100_sxm5", "gpu_4x_h100_sxm5", "gpu_2x_b200_sxm6", "gpu_8x_b200_sxm6"},
}
