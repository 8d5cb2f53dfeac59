package recommend

import "github.com/gpuscout/gpuscout/internal/catalog"

// SLA is a provider's published compute availability commitment: the
// monthly uptime it commits to for one instance and for instances spread
// over two or more zones, with the page that says so.
type SLA struct {
	Single, Zones float64 // percent
	Ref           string
}

// computeSLAs are the compute SLAs read on the providers' SLA pages. A
// provider not listed has no SLA figure here: unknown stays unknown.
//   - AWS: Region-Level SLA 99.99% for instances across two or more AZs,
//     Instance-Level SLA 99.5% for each instance.
//   - Google Cloud (Premium Tier): instances in multiple zones 99.99%, a
//     single instance of the general families 99.9%.
//   - Azure: two or more instances across two or more availability zones
//     99.99%; a single VM with premium storage for all disks 99.9%.
//
// Not recorded: Alibaba Cloud's ECS reservation SLA excludes GPU
// instance types; DigitalOcean's Droplet SLA excludes GPU Droplets (their
// own figure was not found); Nebius's compute SLA figure was not found.
var computeSLAs = map[string]SLA{
	"aws":   {Single: 99.5, Zones: 99.99, Ref: "https://aws.amazon.com/compute/sla/"},
	"gcp":   {Single: 99.9, Zones: 99.99, Ref: "https://cloud.google.com/compute/sla"},
	"azure": {Single: 99.9, Zones: 99.99, Ref: "https://azure.microsoft.com/support/legal/sla/virtual-machines/"},
}

// ComputeSLA is a provider's published compute SLA, if one was recorded.
func ComputeSLA(provider string) (SLA, bool) {
	s, ok := computeSLAs[provider]
	return s, ok
}

// noSLARisk is the risk a production service's plan carries when no
// compute SLA is recorded for its provider (the score's risk term).
const noSLARisk = 0.05

// scoresSLA reports whether the answer weighs providers' SLAs: a
// production service sized N+1 (ha).
func (r *Requirements) scoresSLA() bool { return r.HA && r.service() }

// hasSLA reports whether an offer's provider publishes a compute SLA.
func hasSLA(o *catalog.Offer) bool {
	_, ok := computeSLAs[o.Provider]
	return ok
}
