package catalog

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Provider is a cloud that sells GPU instances.
type Provider struct {
	ID          string // aws, azure, gcp, alibaba, tencent, oci, lambda, ...
	NameEN      string
	NameZH      string
	Website     string
	PricingPage string
	Source      Source
}

// Region is a provider's region, with where it is and which data-residency
// zone it belongs to.
type Region struct {
	Provider string
	Code     string // the provider's own code: us-east-1, eastus, cn-beijing, ap-guangzhou
	NameEN   string
	NameZH   string
	Country  string // ISO 3166-1 alpha-2, upper case
	// City is the documented location of the region's data centres and
	// Lat/Lon its public city coordinates (degrees); HasCoords is false
	// when the catalog has none.
	City      string
	Lat, Lon  float64
	HasCoords bool
	// Residency is the data-residency zone: cn-mainland, eu, or the
	// lower-case country code.
	Residency string
	Source    Source
}

// Key is "provider/code".
func (r *Region) Key() string { return r.Provider + "/" + r.Code }

// GPU is a GPU (or other accelerator) model with its specifications. Tensor
// figures are dense (no sparsity) and per GPU.
type GPU struct {
	ID           string // canonical: A100-SXM4-40GB, H100-SXM-80GB, A10G, T4
	Vendor       string
	Family       string // what users type: A100, H100, T4
	Variant      string
	Architecture string
	MemoryGB     decimal.Decimal
	MemoryType   string
	BandwidthGBs decimal.Decimal // memory bandwidth
	// Peak dense throughput per precision; zero when unsupported or unknown.
	FP32TFLOPS decimal.Decimal
	TF32TFLOPS decimal.Decimal
	FP16TFLOPS decimal.Decimal // FP16/BF16 tensor
	FP8TFLOPS  decimal.Decimal
	INT8TOPS   decimal.Decimal
	// FP64 (double precision) peaks, vector and tensor/matrix, with their
	// own source (the datasheet line); zero when the vendor publishes none.
	FP64TFLOPS       decimal.Decimal
	FP64TensorTFLOPS decimal.Decimal
	FP64Source       string
	// Interconnect between GPUs as the vendor specifies it.
	Interconnect    string
	InterconnectGBs decimal.Decimal
	TDPW            decimal.Decimal
	LaunchYear      int
	Aliases         []string
	Notes           string
	Source          Source
	// MLStack is the vendor's ML software stack that supports the GPU
	// (MLStackCUDA, MLStackROCm), MLStackNone when its vendor's support
	// list leaves it out, "" when the catalog does not say. MLStackDetail
	// is what the list says (CUDA compute capability, ROCm LLVM target),
	// MLSource the list, MLReadOn the day it was read (YYYY-MM-DD; the
	// vendors' lists show no date).
	MLStack       string
	MLStackDetail string
	MLSource      string
	MLReadOn      string
}

// ML software stacks of a GPU (GPU.MLStack).
const (
	MLStackCUDA = "cuda"
	MLStackROCm = "rocm"
	MLStackNone = "none"
)

// MLSupported reports whether the GPU runs the common ML frameworks
// (PyTorch, vLLM, ...) on a stack its vendor supports. A GPU whose record
// does not say counts as supported.
func (g *GPU) MLSupported() bool { return g.MLStack != MLStackNone }

// Interconnect kinds between the GPUs of one instance.
const (
	LinkNVSwitch = "nvswitch"
	LinkNVLink   = "nvlink"
	LinkXGMI     = "xgmi"
	LinkPCIe     = "pcie"
	LinkNone     = "none"
)

// RDMA kinds of an instance's network.
const (
	RDMAEFA        = "efa"
	RDMAInfiniBand = "infiniband"
	RDMAERDMA      = "erdma"
	RDMARoCE       = "roce"
	RDMANone       = "none"
)

// Instance statuses.
const (
	StatusCurrent  = "current"
	StatusPrevious = "previous"
	StatusRetired  = "retired"
)

// InstanceType is a provider's GPU instance size.
type InstanceType struct {
	Provider string
	Name     string // the provider's name: p4d.24xlarge, ecs.gn7i-c8g1.2xlarge
	Family   string
	GPUID    string
	GPU      *GPU // resolved by the catalog
	// GPUCount may be fractional for shared or vGPU sizes (1/12 of an A10).
	GPUCount decimal.Decimal
	// GPUMemoryGB is the instance's total GPU memory.
	GPUMemoryGB        decimal.Decimal
	VCPU               decimal.Decimal // zero when the source has none (GPU attachments)
	MemoryGiB          decimal.Decimal
	GPUInterconnect    string // nvswitch, nvlink, xgmi, pcie, none
	GPUInterconnectGBs decimal.Decimal
	NetworkGbps        decimal.Decimal
	RDMA               string // efa, infiniband, erdma, roce, none; "" when unknown
	LocalStorage       string
	Status             string
	Notes              string
	Source             Source
	// Discovered marks an instance type created from the description an
	// imported price source gives of it (see Discover), not curated.
	Discovered bool
}

// VRAMPerGPUGB is the GPU memory of one GPU as the offer sells it: a
// fractional GPU (a slice, vGPU) has the slice's memory, not the whole
// card's.
func (it *InstanceType) VRAMPerGPUGB() decimal.Decimal {
	if it.GPUCount.LessThan(decimal.NewFromInt(1)) && it.GPUMemoryGB.IsPositive() {
		return it.GPUMemoryGB
	}
	if it.GPU == nil {
		return decimal.Zero
	}
	return it.GPU.MemoryGB
}

// ID is "provider/instance_type".
func (it *InstanceType) ID() string { return it.Provider + "/" + it.Name }

// Price is what an offer costs, as published: a recurring hourly part, a
// one-time upfront part for the whole term and a fixed monthly part, all in
// one currency. Any part may be zero.
type Price struct {
	Hourly   decimal.Decimal
	Upfront  decimal.Decimal
	Monthly  decimal.Decimal
	Currency string
}

// EffectiveHourly is the price per instance-hour over the term:
//
//	hourly + upfront / term hours + monthly / 730
//
// termHours is the billing model's term (Billing.TermHours); an upfront part
// with no term counts in full against one hour.
func (p Price) EffectiveHourly(termHours int) decimal.Decimal {
	eff := p.Hourly
	if !p.Upfront.IsZero() {
		if termHours > 0 {
			eff = eff.Add(p.Upfront.Div(decimal.NewFromInt(int64(termHours))))
		} else {
			eff = eff.Add(p.Upfront)
		}
	}
	if !p.Monthly.IsZero() {
		eff = eff.Add(p.Monthly.Div(decHoursPerMonth))
	}
	return eff
}

// Operating systems an offer's price is for.
const (
	// OSLinux is Linux, or the provider's default image: every price
	// unless a source says otherwise.
	OSLinux = ""
	// OSWindows is Windows Server with the licence included in the price
	// (AWS "License Included", Azure "Windows" meters).
	OSWindows = "windows"
)

// ParseOS parses an operating system as catalog files and flags write it:
// "" or linux (any case) is OSLinux, windows is OSWindows.
func ParseOS(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "linux":
		return OSLinux, true
	case OSWindows:
		return OSWindows, true
	}
	return "", false
}

// Offer is one instance type, in one region, under one billing model, on
// one operating system.
type Offer struct {
	Provider     string
	InstanceName string
	RegionCode   string
	Billing      Billing
	// OS is OSLinux ("") for a Linux (default image) price, or OSWindows
	// for a price that includes the Windows licence. Every view lists
	// Linux offers unless asked for another operating system.
	OS     string
	Price  Price
	Notes  string
	Source Source
	// Stock is the provider API's last reading of capacity for the offer
	// and when it was taken; nil when none was (every curated offer: the
	// compiled catalog carries none).
	Stock *Stock
	// Resolved by the catalog.
	Instance *InstanceType
	Region   *Region
}

// ID is "provider/instance_type/region/billing", followed by "/" and the
// operating system for an offer that is not Linux
// ("aws/g4dn.xlarge/us-east-1/on-demand/windows").
func (o *Offer) ID() string {
	var b [128]byte
	return string(o.AppendID(b[:0]))
}

// AppendID appends o's ID (ID) to dst without making a string, for
// loops that compare or match many offers' IDs.
func (o *Offer) AppendID(dst []byte) []byte {
	dst = append(append(append(append(dst, o.Provider...), '/'), o.InstanceName...), '/')
	dst = append(append(append(dst, o.RegionCode...), '/'), o.Billing...)
	if o.OS != OSLinux {
		dst = append(append(dst, '/'), o.OS...)
	}
	return dst
}

// SiblingID is the ID of the offer of the same instance type, region and
// operating system under billing model b (the on-demand price of a
// Windows spot offer is the Windows on-demand price).
func (o *Offer) SiblingID(b Billing) string {
	id := o.Provider + "/" + o.InstanceName + "/" + o.RegionCode + "/" + string(b)
	if o.OS != OSLinux {
		id += "/" + o.OS
	}
	return id
}

// OSName is the offer's operating system as faces print it: linux or
// windows.
func (o *Offer) OSName() string {
	if o.OS == OSLinux {
		return "linux"
	}
	return o.OS
}

// Linux reports whether the offer is a Linux (default image) price.
func (o *Offer) Linux() bool { return o.OS == OSLinux }

// EffectiveHourly is the offer's price per instance-hour in its own currency.
func (o *Offer) EffectiveHourly() decimal.Decimal {
	return o.Price.EffectiveHourly(o.Billing.TermHours())
}

// PerGPUHourly is the effective price per GPU-hour, or zero when the
// instance has no GPU count.
func (o *Offer) PerGPUHourly() decimal.Decimal {
	if o.Instance == nil || o.Instance.GPUCount.IsZero() {
		return decimal.Zero
	}
	return o.EffectiveHourly().Div(o.Instance.GPUCount)
}

// Claim is a statement from a seed article with its verdict.
type Claim struct {
	ID       string
	Seed     string // seed article file
	Quote    string // as written
	Subject  string
	Field    string
	Claimed  string
	Verdict  string // correct, wrong, partly-correct, unverifiable, outdated
	Actual   string
	Evidence string
	AsOf     string
	// ClaimedZH, ActualZH and EvidenceZH translate Claimed, Actual and
	// Evidence for Chinese readers (evidence keeps its URLs and paths);
	// empty where no translation is recorded.
	ClaimedZH, ActualZH, EvidenceZH string
}

// Claim verdicts.
var claimVerdicts = []string{"correct", "wrong", "partly-correct", "unverifiable", "outdated"}

// ValidVerdict reports whether v is a known verdict.
func ValidVerdict(v string) bool {
	for _, x := range claimVerdicts {
		if v == x {
			return true
		}
	}
	return false
}

// normalize lower-cases s and drops separators for name matching.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '-', '_', '.', '/':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
