package lineage

// Sources lists every machine-readable source whose rows are generated, in
// the order `make catalog` rebuilds them. Each entry's Generate lives in a
// file named for the source.
func Sources() []Source {
	return []Source{
		capacityBlocksAWS(),
		karpenterAWS(),
		vantageAWS(),
		priceserverAlibaba(),
		silybenchLambda(),
		silybenchGCP(),
		silybenchRunPod(),
		cyclenerdGCP(),
		skypilotSource(skypilotVerda),
		skypilotSource(skypilotNebius),
		skypilotSource(skypilotHyperstack),
		skypilotSource(skypilotVast),
		skypilotSource(skypilotRunPod),
		skypilotSource(skypilotLambda),
		KarpenterAzure,
		azureRetailWestus(),
		skypilotOCI.source(),
		skypilotAzure.source(),
		skypilotAWSSource(),
	}
}
