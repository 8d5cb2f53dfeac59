package recommend

import "math"

// granularity is how a provider bills pay-as-you-go and spot time: in
// steps of Step hours with a minimum of Min hours per instance start.
type granularity struct {
	Step, Min float64
	Verified  bool   // documented by the provider (else an assumption)
	Source    string // the provider's page, or why it is assumed
}

// granularities are the providers' documented billing rules. Where none
// was verified the advisor assumes billing per started hour (the most a
// short job can cost) and says so in the plan.
var granularities = map[string]granularity{
	"aws":     {Step: 1.0 / 3600, Min: 1.0 / 60, Verified: true, Source: "https://aws.amazon.com/ec2/pricing/"},
	"gcp":     {Step: 1.0 / 3600, Min: 1.0 / 60, Verified: true, Source: "https://cloud.google.com/compute/vm-instance-pricing"},
	"alibaba": {Step: 1.0 / 3600, Min: 0, Verified: true, Source: "https://www.alibabacloud.com/help/en/ecs/user-guide/pay-as-you-go-1"},
	"tencent": {Step: 1.0 / 3600, Min: 0, Verified: true, Source: "https://cloud.tencent.com/document/product/213/2180"},
}

// billedHours rounds a run of h hours up to the provider's billing rule.
func billedHours(provider string, h float64) (float64, granularity) {
	g, ok := granularities[provider]
	if !ok {
		g = granularity{Step: 1, Min: 1}
	}
	b := math.Ceil(h/g.Step-1e-9) * g.Step
	return math.Max(b, g.Min), g
}
