package lineage

// skypilotAzure is SkyPilot's v6 Azure vms.csv (see
// testdata/skypilot-azure/SOURCE.md), built by SkyPilot's fetch_azure.py
// from the Azure Retail Prices API. Its only stored version is undated;
// the rows are dated by the skypilot-catalog review that quoted identical
// rows. Newer sources supply some of its keys, so those are left to them.
var skypilotAzure = notedSkypilot{
	skypilotFile: skypilotFile{
		Provider:    "azure",
		Path:        "catalogs/v6/azure/vms.csv",
		Commit:      "098741e70562f65d7af1cceb81e33b284f742604",
		AsOf:        "2024-08-27",
		Origin:      "the Azure Retail Prices API, built by SkyPilot's fetch_azure.py",
		SpotMeaning: "Azure Spot, Linux",
		Regions:     []string{"centralus", "eastus", "eastus2", "northcentralus", "southcentralus", "westus2", "westus3"},
		Instances: []string{"Standard_NC12s_v3", "Standard_NC16as_T4_v3", "Standard_NC24ads_A100_v4", "Standard_NC24rs_v3",
			"Standard_NC24s_v3", "Standard_NC40ads_H100_v5", "Standard_NC48ads_A100_v4", "Standard_NC4as_T4_v3",
			"Standard_NC64as_T4_v3", "Standard_NC6s_v3", "Standard_NC80adis_H100_v5", "Standard_NC8as_T4_v3",
			"Standard_NC96ads_A100_v4", "Standard_ND96amsr_A100_v4", "Standard_ND96asr_v4", "Standard_NV36adms_A10_v5",
			"Standard_NV36ads_A10_v5", "Standard_NV72ads_A10_v5"},
	},
	Keep: azureV6Keep,
	Extra: []string{
		"old data: the only stored version of this file; the SkyPilot Azure catalog was refreshed by hand, not automatically " +
			"(skypilot-catalog issue #76, 2024-08-18, asks for automatic updates because Azure spot prices change), so prices may have changed since",
	},
	Dating: "as_of = 2024-08-27, the day the review of skypilot-catalog PR #79 (https://github.com/skypilot-org/skypilot-catalog/pull/79) " +
		"quoted rows identical to this file's (Standard_NC96ads_A100_v4 westus3 14.692/1.61612, Standard_NCC40ads_H100_v5 eastus2 6.98/1.745) " +
		"from the Azure catalog of that day; the file carries no date and the commit's own date could not be read here",
}

// azureOnDemandElsewhere are the regions whose on-demand Linux prices come
// from a newer generated source (offers/azure-karpenter.csv, the
// karpenter-provider-azure price table), so this file's older on-demand
// prices there are not emitted; its spot prices there still are.
var azureOnDemandElsewhere = []string{"eastus", "eastus2", "westus2"}

// azureV6Keep leaves out on-demand rows another source supplies and spot
// rows whose SpotPrice equals the Price of the same type and region: there
// the file repeats the on-demand price (Azure sold no spot capacity for
// the type then), which is no spot price.
func azureV6Keep(r Row, all []Row) bool {
	if r.Billing == "on-demand" {
		return !contains(azureOnDemandElsewhere, r.Region)
	}
	for _, o := range all {
		if o.Billing == "on-demand" && o.InstanceType == r.InstanceType && o.Region == r.Region && o.Hourly == r.Hourly {
			return false
		}
	}
	return true
}
