package recommend

import "github.com/gpuscout/gpuscout/internal/catalog"

// SLA is a provider's published compute availability commitment: the
// monthly uptime it commits to for one instance and for instances spread
// over two or more zones, with the page that says so.
type SLA struct {
	Single, Zones float64 // percent
	Ref           string
	// AsOf is the date the page shows (or its last change where the page
	// itself shows none); empty where it was not recorded.
	AsOf string
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
//   - Tencent Cloud: the Cloud Virtual Machine SLA (international site;
//     English and Chinese text in Tencent's own documentation repository,
//     yehe_doc/计算/云服务器/服务协议/服务等级协议_intl_en.md and _intl_zh.md
//     at b7e17ea) commits to "no less than 99.975%" Single Instance Service
//     Availability and "no less than 99.995%" Service Availability Across
//     Availability Zones in A Single Region (单实例 / 单地域多可用区). It
//     covers CVM instances without naming GPU instance types and excludes
//     none; Tencent's Cloud GPU Service notes (same repository,
//     yehe_doc/计算/GPU 云服务器/产品简介/使用须知_intl_en.md) say GPU
//     instances are purchased, managed and maintained "in the same way as
//     CVM", and no GPU-specific SLA was found. The page shows no date; the
//     file's last change there is 2023-06-30; read 2026-12-06. The
//     mainland page (https://cloud.tencent.com/document/product/301/1973),
//     in its stored copy (tencentyun/qcloud-documents
//     product/计算与网络/云服务器/服务等级协议.md@e983666, undated), says
//     99.95% per instance with no multi-zone figure; the newer
//     international figures are the ones recorded.
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
	"aws":   {Single: 99.5, Zones: 99.99, Ref: "https://aws.amazon.com/compute/sla/"},
	"gcp":   {Single: 99.9, Zones: 99.99, Ref: "https://cloud.google.com/compute/sla"},
	"azure": {Single: 99.9, Zones: 99.99, Ref: "https://azure.microsoft.com/support/legal/sla/virtual-machines/"},
	"tencent": {Single: 99.975, Zones: 99.995, AsOf: "2023-06-30", GPUImplicit: true,
		Ref: "https://github.com/tencentyun/intlcloud-documents/blob/b7e17ea691c4ad7ae878e00e9d6dc37ff7ae1f1c/yehe_doc/计算/云服务器/服务协议/服务等级协议_intl_en.md"},
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
