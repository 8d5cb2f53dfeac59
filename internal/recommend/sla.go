package recommend

import "github.com/gpuscout/gpuscout/internal/catalog"

// SLA is a provider's published compute availability commitment: the
// monthly uptime it commits to for one instance and for instances spread
// over two or more zones, with the page that says so.
type SLA struct {
	Single, Zones float64 // percent
	Ref           string
	// Zones is 0 where the page states no figure for instances across
	// zones (each instance is covered by Single).
	//
	// AsOf is the date the page shows (or its last change where the page
	// itself shows none); empty where it shows none, and then ReadOn is
	// the day it was read.
	AsOf, ReadOn string
	// GPUImplicit marks a page that covers the provider's instances
	// without naming GPU instance types (and does not exclude them): the
	// plan says so.
	GPUImplicit bool
}

// computeSLAs are the compute SLAs read on the providers' SLA pages. A
// provider not listed has no SLA figure here: unknown stays unknown.
//   - AWS: Region-Level SLA 99.99% for instances across two or more AZs,
//     Instance-Level SLA 99.5% for each instance.
//   - Google Cloud (Premium Tier): instances in multiple zones 99.99%, a
//     single instance of the general families 99.9%.
//   - Azure: two or more instances across two or more availability zones
//     99.99%; a single VM with premium storage for all disks 99.9%.
//   - Tencent Cloud: the catalog's Tencent offers are mainland regions
//     bought on cloud.tencent.com, whose 云服务器服务等级协议
//     (https://cloud.tencent.com/document/product/301/1973; the page's
//     source is Tencent's tencentyun/qcloud-documents repository,
//     product/计算与网络/云服务器/服务等级协议.md, newest stored version
//     0738770) commits to 本服务可用性不低于99.95% per single instance
//     (单实例) and states no figure across zones. The page shows no date;
//     read 2026-12-06. It covers CVM instances without naming GPU
//     instance types and excludes none; Tencent's Cloud GPU Service notes
//     say GPU instances are bought, managed and maintained "in the same way
//     as CVM", and no GPU-specific SLA was found. The international site
//     (tencentcloud.com, Tencent's intlcloud-documents
//     yehe_doc/计算/云服务器/服务协议/服务等级协议_intl_en.md at b7e17ea, last
//     changed 2023-06-30) commits to 99.975% per instance and 99.995%
//     across zones of one region: that contract applies to instances bought
//     there, which the catalog's mainland offers are not.
//
// Not recorded: Alibaba Cloud's ECS reservation SLA excludes GPU
// instance types; DigitalOcean's Droplet SLA excludes GPU Droplets (their
// own figure was not found); Nebius's compute SLA figure was not found.
// Huawei Cloud has an ECS SLA page (path
// /intl/en-us/declaration-sg/sla_ecs.html, read only in a mirrored copy)
// and Baidu AI Cloud a BCC SLA page
// (https://intl.cloud.baidu.com/en/doc/BCC/s/Ikxk15ii2-intl-en), but the
// copies read (2026-12-06) gave only the general terms and navigation,
// not the compute figures or whether GPU instances are covered. No compute SLA
// page was found for Volcano Engine, Oracle Cloud Infrastructure (its
// pillar document holds its SLAs; its compute figure was not read),
// Lambda, RunPod, CoreWeave, Hyperstack, Verda or Crusoe. Vast.ai is a
// marketplace with no platform-wide SLA (rejected for --ha).
var computeSLAs = map[string]SLA{
	"aws":     {Single: 99.5, Zones: 99.99, Ref: "https://aws.amazon.com/compute/sla/"},
	"gcp":     {Single: 99.9, Zones: 99.99, Ref: "https://cloud.google.com/compute/sla"},
	"azure":   {Single: 99.9, Zones: 99.99, Ref: "https://azure.microsoft.com/support/legal/sla/virtual-machines/"},
	"tencent": {Single: 99.95, ReadOn: "2026-12-06", GPUImplicit: true, Ref: "https://cloud.tencent.com/document/product/301/1973"},
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
