package recommend

import (
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/shopspring/decimal"
)

// stage is one hard filter on offers.
type stage struct {
	name     string
	describe string                        // the constraint, in the printer's language
	reject   func(o *catalog.Offer) string // "" = keep; else the reason
	// relax says what would let offers through, given the offers before it.
	relax func(before []*catalog.Offer) string
}

func inFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// distinct lists the distinct values of f over offers, sorted, at most n.
func distinct(offers []*catalog.Offer, n int, f func(*catalog.Offer) string) string {
	seen := map[string]bool{}
	var out []string
	for _, o := range offers {
		if v := f(o); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Strings(out)
	if len(out) > n {
		out = append(out[:n], "…")
	}
	return strings.Join(out, ", ")
}

// windowsTypes are the instance types a provider documents to run Windows
// (a Windows rate in the catalog is evidence too: see the os stage):
//
//   - Azure NVadsA10 v5 and NGads V620 (ecosystem.csv, category windows);
//     NCv3 (V100), NCasT4_v3 (T4), NC A100 v4 (A100), NVv3 (M60) and
//     NVadsA10 v5: the VM families of the NVIDIA GPU Driver Extension for
//     Windows, Azure/azhpc-extensions NvidiaGPU/Nvidia-GPU-Windows-Resources.json
//     @9ee6bb0ec8a5ff6d4758531bd7822ffd1f8137ac (2025-03-11, "OS": "Windows",
//     SupportedVmFamilyAndGPUModel).
//   - AWS g4dn, g5 and p3 (NVIDIA drivers for Windows, "Available drivers by
//     instance type") and g4ad (AMD drivers for Windows), per the EC2 Windows
//     guide, https://docs.aws.amazon.com/AWSEC2/latest/WindowsGuide/install-nvidia-driver.html
//     as archived in awsdocs/amazon-ec2-user-guide-windows
//     doc_source/install-nvidia-driver.md and install-amd-driver.md
//     @cd8488085ad6bd8ea192b564911e79f0eb446921 (2023-05-11; G2, G3 and P2,
//     also listed there, are not in the catalog).
//   - AWS g6, gr6, g6e, g6f, gr6f and g7e: "Install NVIDIA GRID drivers (G7e,
//     G6, Gr6, G6e, G6f, Gr6f, G5, G4dn, and G3 instances)", whose Windows
//     section and considerations ("G7e instances require GRID 19.1 or later
//     for Linux and 19.4 (582.16) or later for Windows") cover them,
//     https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/nvidia-GRID-driver.html
//     (the page shows no date; read 2026-12-04). The same guide's table of
//     drivers by instance type lists Tesla drivers for P4d, P5 and others
//     without saying which operating system (it lists the Arm-based G5g
//     too), so those are left out, as are Alibaba Cloud and Tencent Cloud,
//     whose documents naming Windows GPU instance families were not found.
var windowsTypes = map[string][]string{
	"azure": {"Standard_NV*_A10_v5", "Standard_NG*ads_V620_v1", "Standard_NC*s_v3", "Standard_NC*as_T4_v3", "Standard_NC*ads_A100_v4", "Standard_NV*s_v3"},
	"aws":   {"g4dn.*", "g5.*", "g4ad.*", "p3.*", "g6.*", "gr6.*", "g6e.*", "g6f.*", "gr6f.*", "g7e.*"},
}

// WindowsLicence names the providers' Windows price pages: gpuscout's
// curated prices are Linux rates, so a Windows plan with no Windows rate in
// the catalog (none imported) states that the licence is not included.
var WindowsLicence = map[string]string{
	"azure": "https://azure.microsoft.com/en-us/pricing/details/virtual-machines/windows/",
	"aws":   "https://aws.amazon.com/ec2/pricing/on-demand/ (Windows)",
}

func runsWindows(it *catalog.InstanceType) bool {
	for _, pat := range windowsTypes[it.Provider] {
		pre, suf, _ := strings.Cut(pat, "*")
		if strings.HasPrefix(it.Name, pre) && strings.HasSuffix(it.Name, suf) && len(it.Name) >= len(pre)+len(suf) {
			return true
		}
	}
	return false
}

// ecoName is an ecosystem category as people say it.
func (x *run) ecoName(cat string) string {
	if v := x.p.T("rec.eco." + cat); v != "rec.eco."+cat {
		return v
	}
	return cat
}

func (x *run) ecoNames(cats []string) string {
	var out []string
	for _, c := range cats {
		out = append(out, x.ecoName(c))
	}
	return x.list(out)
}

// list joins names with the language's separator.
func (x *run) list(v []string) string { return strings.Join(v, x.p.T("rec.list_sep")) }

// fabricName is an RDMA fabric's name (InfiniBand, EFA, eRDMA, RoCE).
func (x *run) fabricName(f string) string {
	if f == "" || f == catalog.RDMANone {
		return x.p.T("rec.fabric.none")
	}
	return x.p.T("rec.fabric." + f)
}

// filters builds the hard-constraint stages, cheapest first.
func (x *run) filters(gpus map[string]bool) []stage {
	r, p, c := x.r, x.p, x.e.Catalog
	none := func([]*catalog.Offer) string { return "" }
	var st []stage
	st = append(st, stage{name: "status", describe: p.T("rec.st.status"),
		reject: func(o *catalog.Offer) string {
			if o.Instance.Status == catalog.StatusRetired {
				return p.T("rec.rej.retired")
			}
			return ""
		}, relax: none})
	if len(r.Providers) > 0 || len(r.ExcludeProviders) > 0 {
		desc := p.T("rec.st.provider", x.list(r.Providers), x.list(r.ExcludeProviders))
		switch {
		case len(r.ExcludeProviders) == 0:
			desc = p.T("rec.st.provider_only", x.list(r.Providers))
		case len(r.Providers) == 0:
			desc = p.T("rec.st.provider_excl", x.list(r.ExcludeProviders))
		}
		st = append(st, stage{name: "provider", describe: desc,
			reject: func(o *catalog.Offer) string {
				if len(r.Providers) > 0 && !inFold(r.Providers, o.Provider) {
					return p.T("rec.rej.provider_not", x.list(r.Providers))
				}
				if inFold(r.ExcludeProviders, o.Provider) {
					return p.T("rec.rej.provider_excluded")
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return p.T("rec.relax.providers", distinct(b, 8, func(o *catalog.Offer) string { return o.Provider }))
			}})
	}
	if len(gpus) > 0 {
		st = append(st, stage{name: "gpu", describe: p.T("rec.st.gpu", x.list(r.GPUs)),
			reject: func(o *catalog.Offer) string {
				if !gpus[o.Instance.GPUID] {
					return p.T("rec.rej.gpu", o.Instance.GPUID, x.list(r.GPUs))
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return p.T("rec.relax.gpus", distinct(b, 10, func(o *catalog.Offer) string { return o.Instance.GPUID }))
			}})
	}
	if r.mlWorkload() {
		// GPUs without a supported ML stack (catalog.GPU.MLStack) stay out
		// of ML plans unless the user named them.
		st = append(st, stage{name: "ml", describe: p.T("rec.st.ml"),
			reject: func(o *catalog.Offer) string {
				if g := o.Instance.GPU; g != nil && !g.MLSupported() && !gpus[g.ID] {
					return p.T("rec.rej.ml_stack", g.ID, p.Or("rec.ml_list."+g.Vendor, p.T("rec.ml_list.other")))
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return p.T("rec.relax.ml_stack", distinct(b, 8, func(o *catalog.Offer) string { return o.Instance.GPUID }))
			}})
	}
	if j := r.Workload.Job; j != nil && j.Precision == FP64 {
		st = append(st, stage{name: "precision", describe: p.T("rec.st.fp64"),
			reject: func(o *catalog.Offer) string {
				if !o.Instance.GPU.FP64TFLOPS.IsPositive() {
					return p.T("rec.rej.no_fp64", o.Instance.GPUID)
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				var ids []string
				for _, g := range c.GPUs() {
					if g.FP64TFLOPS.IsPositive() {
						ids = append(ids, g.ID)
					}
				}
				return p.T("rec.relax.fp64", x.list(ids))
			}})
	}
	if r.MinVRAMGB > 0 {
		st = append(st, stage{name: "vram", describe: p.T("rec.st.vram", r.MinVRAMGB),
			reject: func(o *catalog.Offer) string {
				if m := o.Instance.VRAMPerGPUGB().InexactFloat64(); m < r.MinVRAMGB {
					return p.T("rec.rej.vram", m, r.MinVRAMGB)
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				best := 0.0
				for _, o := range b {
					best = max(best, o.Instance.VRAMPerGPUGB().InexactFloat64())
				}
				return p.T("rec.relax.vram", best)
			}})
	}
	if r.Interconnect != "" {
		st = append(st, stage{name: "interconnect", describe: p.T("rec.st.interconnect." + r.Interconnect),
			reject: func(o *catalog.Offer) string {
				l := GPULink(o.Instance)
				if r.Interconnect == "nvswitch" && l != catalog.LinkNVSwitch {
					return p.T("rec.rej.not_nvswitch", x.linkName(l))
				}
				if r.Interconnect == "nvlink" && l != catalog.LinkNVSwitch && l != catalog.LinkNVLink {
					return p.T("rec.rej.not_nvlink", x.linkName(l))
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				have := distinct(b, 8, func(o *catalog.Offer) string {
					if l := GPULink(o.Instance); l == catalog.LinkNVSwitch || l == catalog.LinkNVLink {
						return o.Instance.ID()
					}
					return ""
				})
				if have == "" {
					return p.T("rec.relax.interconnect_none")
				}
				return p.T("rec.relax.interconnect", have)
			}})
	}
	if f := r.fabric(); f != "" {
		st = append(st, stage{name: "fabric", describe: p.T("rec.st.fabric", x.fabricName(f)),
			reject: func(o *catalog.Offer) string {
				have := o.Instance.RDMA
				if f == "any" && hasRDMA(o.Instance) || strings.EqualFold(have, f) {
					return ""
				}
				return p.T("rec.rej.fabric", x.fabricName(have), x.fabricName(f))
			}, relax: func(b []*catalog.Offer) string {
				return p.T("rec.relax.fabric", distinct(b, 8, func(o *catalog.Offer) string {
					if hasRDMA(o.Instance) {
						return o.Instance.ID() + " (" + x.fabricName(o.Instance.RDMA) + ")"
					}
					return ""
				}))
			}})
	}
	if r.windows() {
		// A Windows rate in the catalog (an import of the provider's
		// Windows price list) is evidence too: the provider sells the
		// type with Windows.
		priced := map[*catalog.InstanceType]bool{}
		for _, w := range c.OffersOS(catalog.OSWindows) {
			priced[w.Instance] = true
		}
		st = append(st, stage{name: "os", describe: p.T("rec.st.windows"),
			reject: func(o *catalog.Offer) string {
				if !runsWindows(o.Instance) && !priced[o.Instance] {
					return p.T("rec.rej.no_windows", o.Instance.Name)
				}
				return ""
			}, relax: func([]*catalog.Offer) string {
				var ts []string
				for prov, pats := range windowsTypes {
					for _, pat := range pats {
						ts = append(ts, prov+"/"+pat)
					}
				}
				sort.Strings(ts)
				return p.T("rec.relax.windows", x.list(ts))
			}})
	}
	if len(r.Regions) > 0 || len(r.Countries) > 0 || len(r.Residency) > 0 {
		st = append(st, stage{name: "location", describe: x.locationText(),
			reject: func(o *catalog.Offer) string {
				if len(r.Regions) > 0 && !inFold(r.Regions, o.RegionCode) {
					return p.T("rec.rej.region", o.RegionCode)
				}
				if len(r.Countries) > 0 && !inFold(r.Countries, o.Region.Country) {
					return p.T("rec.rej.country", o.Region.Country)
				}
				if len(r.Residency) > 0 && !inFold(r.Residency, o.Region.Residency) {
					return p.T("rec.rej.residency", o.Region.Residency)
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return p.T("rec.relax.location", distinct(b, 10, func(o *catalog.Offer) string {
					return o.Provider + "/" + o.RegionCode + " (" + o.Region.Residency + ")"
				}))
			}})
	}
	if r.nearOnly && len(x.near) > 0 {
		st = append(st, x.nearStage())
	}
	if len(r.Ecosystem) > 0 {
		st = append(st, stage{name: "ecosystem", describe: p.T("rec.st.ecosystem", x.ecoNames(r.Ecosystem)),
			reject: func(o *catalog.Offer) string {
				var missing []string
				for _, cat := range r.Ecosystem {
					if !c.HasEcosystem(o.Provider, cat) {
						missing = append(missing, cat)
					}
				}
				if len(missing) > 0 {
					return p.T("rec.rej.ecosystem", o.Provider, x.ecoNames(missing))
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				var ok []string
				for _, pr := range c.Providers() {
					all := true
					for _, cat := range r.Ecosystem {
						all = all && c.HasEcosystem(pr.ID, cat)
					}
					if all {
						ok = append(ok, pr.ID)
					}
				}
				return p.T("rec.relax.ecosystem", x.ecoNames(r.Ecosystem), x.list(ok))
			}})
	}
	st = append(st, stage{name: "billing", describe: p.T(map[bool]string{true: "rec.st.billing_any", false: "rec.st.billing_nospot"}[r.Interruptible]),
		reject: func(o *catalog.Offer) string {
			if o.Billing == catalog.Spot && !r.Interruptible {
				return p.T("rec.rej.spot")
			}
			return ""
		}, relax: func([]*catalog.Offer) string { return p.T("rec.relax.spot") }})
	if r.scoresSLA() {
		st = append(st, stage{name: "sla", describe: p.T("rec.st.sla"),
			reject: func(o *catalog.Offer) string {
				if c.IsMarketplace(o.Provider) {
					return p.T("rec.rej.marketplace_ha", o.Provider)
				}
				return ""
			}, relax: func([]*catalog.Offer) string { return p.T("rec.relax.sla") }})
	}
	if r.guaranteed() {
		st = append(st, stage{name: "capacity", describe: p.T("rec.st.guaranteed", r.StartWithinDays),
			reject: func(o *catalog.Offer) string {
				switch {
				case c.IsMarketplace(o.Provider):
					return p.T("rec.rej.marketplace_no_sla", o.Provider)
				case o.Billing == catalog.FlexStart:
					return p.T("rec.rej.flex_start_queue", catalog.FlexStartMaxHours/24)
				}
				return ""
			}, relax: func([]*catalog.Offer) string { return p.T("rec.relax.guaranteed") }})
	}
	return st
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func (x *run) orUnknown(s string) string {
	if s == "" {
		return x.p.T("rec.unknown")
	}
	return s
}

func (x *run) locationText() string {
	r, p := x.r, x.p
	var parts []string
	if len(r.Regions) > 0 {
		parts = append(parts, p.T("rec.st.regions", x.list(r.Regions)))
	}
	if len(r.Countries) > 0 {
		parts = append(parts, p.T("rec.st.countries", x.list(r.Countries)))
	}
	if len(r.Residency) > 0 {
		parts = append(parts, p.T("rec.st.residency", x.list(r.Residency)))
	}
	return x.list(parts)
}

// GPULink is an instance type's GPU interconnect; where the catalog does
// not state it, a board of several SXM (or OAM) GPUs is linked GPU to
// GPU (that is what the socketed form is for): NVSwitch on 8-GPU boards
// from Ampere on (HGX A100/H100/H200/B200), NVLink otherwise.
func GPULink(it *catalog.InstanceType) string {
	l := it.GPUInterconnect
	if l != "" || it.GPU == nil || it.GPUCount.LessThan(decimal.NewFromInt(2)) {
		return l
	}
	s := perf.SpecOf(it.GPU)
	if !s.SXM || s.Arch == "CDNA" {
		return l
	}
	if it.GPUCount.Equal(decimal.NewFromInt(8)) && s.Arch != "Volta" {
		return catalog.LinkNVSwitch
	}
	return catalog.LinkNVLink
}

// linkName is a GPU interconnect's name (NVSwitch, NVLink, PCIe ...).
func (x *run) linkName(l string) string {
	if l == "" {
		return x.p.T("rec.unknown")
	}
	if v := x.p.T("rec.link." + l); v != "rec.link."+l {
		return v
	}
	return l
}

// windowsRate reports whether an offer's price is a Windows rate (the
// licence included), not a Linux rate.
func windowsRate(o *catalog.Offer) bool { return o.OS == catalog.OSWindows }

// windowsPriced is the offers a Windows job is priced on: each Linux offer
// replaced by the Windows offer of its instance type, region and billing
// model where the catalog has one (else kept: its price is then a lower
// bound), and the Windows offers without a Linux one added, in offer ID
// order.
func windowsPriced(c *catalog.Catalog, linux []*catalog.Offer) []*catalog.Offer {
	win := c.OffersOS(catalog.OSWindows)
	if len(win) == 0 {
		return linux
	}
	out := make([]*catalog.Offer, 0, len(linux)+len(win))
	used := make(map[*catalog.Offer]bool, len(win))
	for _, o := range linux {
		if w, ok := c.WindowsOffer(o); ok {
			used[w] = true
			out = append(out, w)
			continue
		}
		out = append(out, o)
	}
	added := false
	for _, w := range win {
		if !used[w] {
			out = append(out, w)
			added = true
		}
	}
	if added {
		ids := make(map[*catalog.Offer]string, len(out))
		for _, o := range out {
			ids[o] = o.ID()
		}
		sort.SliceStable(out, func(i, j int) bool { return ids[out[i]] < ids[out[j]] })
	}
	return out
}

// mlWorkload reports whether the job runs ML software (training,
// fine-tuning, inference, a benchmark, GPU-hours or a cluster for them):
// every workload but a FLOP-count (HPC) job.
func (r *Requirements) mlWorkload() bool {
	return r.Workload.Job == nil || r.Workload.Job.Kind != perf.FLOPJob
}
