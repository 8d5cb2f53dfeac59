package lineage

import (
	"fmt"
	"strings"
)

// runpodAnyRegion is the catalog region a RunPod price stands for: any
// Secure Cloud data centre (regions.csv, provider runpod, code ANY). RunPod
// publishes one Secure Cloud price per GPU type and count for every data
// centre, and the SkyPilot file lists every type in every data centre of a
// fixed table, which is not evidence of stock in any one of them.
const runpodAnyRegion = "ANY"

// runpodAny maps the file's Region value (RunPod's country code, e.g. "JP")
// to runpodAnyRegion, after checking it is a country code.
func runpodAny(region string) (string, error) {
	if len(region) != 2 || strings.ToUpper(region) != region {
		return "", fmt.Errorf("region %q is not a RunPod country code such as US or JP", region)
	}
	return runpodAnyRegion, nil
}

// runpodPriceList is the first note of every RunPod row: what the row
// stands for and why it is not placed in a data centre.
func runpodPriceList(rows []skypilotRow) []string {
	out := make([]string, len(rows))
	for k := range rows {
		out[k] = "PRICE LIST: RunPod Secure Cloud price for this GPU type and count, the same in every data centre; " +
			"the file lists the type in all 48 data centres of the fixed table in SkyPilot's fetcher (not stock), " +
			"so the row stands for any RunPod Secure Cloud data centre (region ANY): RunPod places the pod where there is stock at launch"
	}
	return out
}

// skypilotRunPod is RunPod's vms.csv (see testdata/skypilot-runpod/SOURCE.md).
var skypilotRunPod = skypilotFile{
	Provider:    "runpod",
	Path:        "catalogs/v8/runpod/vms.csv",
	Commit:      "01acdfd419ce5afae1289ff14825b893ced0c196",
	ReadOn:      "2026-12-04",
	Origin:      "the RunPod API",
	SpotMeaning: "not used",
	DropSpot:    "it equals the on-demand Price on every row read of this version, so it is no spot (interruptible) price",
	Region:      runpodAny,
	Regions:     []string{runpodAnyRegion},
	Lead:        runpodPriceList,
	RegionWord:  "data centres",
	// The other Secure Cloud types are priced from the dated copy of
	// RunPod's pricing page (silybench-runpod): a dated price wins.
	Instances: []string{"1x_MI300X_SECURE", "1x_B300_SECURE"},
}
