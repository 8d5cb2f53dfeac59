package recommend

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
)

// stage is one hard filter on offers.
type stage struct {
	name     string
	describe string
	reject   func(o *catalog.Offer) string // "" = keep
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

// filters builds the hard-constraint stages, cheapest first.
func (e *Engine) filters(r Requirements, gpus map[string]bool) []stage {
	c := e.Catalog
	var st []stage
	st = append(st, stage{name: "status", describe: "current and previous-generation instance types",
		reject: func(o *catalog.Offer) string {
			if o.Instance.Status == catalog.StatusRetired {
				return "instance type retired"
			}
			return ""
		}, relax: func([]*catalog.Offer) string { return "" }})
	if len(r.Providers) > 0 || len(r.ExcludeProviders) > 0 {
		st = append(st, stage{name: "provider", describe: fmt.Sprintf("providers %s, excluding %s", joinList(r.Providers), joinList(r.ExcludeProviders)),
			reject: func(o *catalog.Offer) string {
				if len(r.Providers) > 0 && !inFold(r.Providers, o.Provider) {
					return "provider not among " + joinList(r.Providers)
				}
				if inFold(r.ExcludeProviders, o.Provider) {
					return "provider excluded"
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return "providers with matching offers: " + distinct(b, 8, func(o *catalog.Offer) string { return o.Provider })
			}})
	}
	if len(gpus) > 0 {
		st = append(st, stage{name: "gpu", describe: "GPU " + joinList(r.GPUs),
			reject: func(o *catalog.Offer) string {
				if !gpus[o.Instance.GPUID] {
					return fmt.Sprintf("GPU %s not among %s", o.Instance.GPUID, joinList(r.GPUs))
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return "GPUs available under the other constraints: " + distinct(b, 10, func(o *catalog.Offer) string { return o.Instance.GPUID })
			}})
	}
	if r.MinVRAMGB > 0 {
		st = append(st, stage{name: "vram", describe: fmt.Sprintf("at least %.0f GB per GPU", r.MinVRAMGB),
			reject: func(o *catalog.Offer) string {
				if m := o.Instance.GPU.MemoryGB.InexactFloat64(); m < r.MinVRAMGB {
					return fmt.Sprintf("%.0f GB per GPU, below %.0f GB", m, r.MinVRAMGB)
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				best := 0.0
				for _, o := range b {
					best = max(best, o.Instance.GPU.MemoryGB.InexactFloat64())
				}
				return fmt.Sprintf("the largest GPU memory available is %.0f GB", best)
			}})
	}
	if r.Interconnect != "" || r.RDMA {
		st = append(st, stage{name: "interconnect", describe: strings.TrimSpace(fmt.Sprintf("%s GPU interconnect%s", r.Interconnect, map[bool]string{true: ", RDMA network", false: ""}[r.RDMA])),
			reject: func(o *catalog.Offer) string {
				l := o.Instance.GPUInterconnect
				if r.Interconnect == "nvswitch" && l != catalog.LinkNVSwitch {
					return fmt.Sprintf("GPU interconnect %s, not NVSwitch", orUnknown(l))
				}
				if r.Interconnect == "nvlink" && l != catalog.LinkNVSwitch && l != catalog.LinkNVLink {
					return fmt.Sprintf("GPU interconnect %s, not NVLink/NVSwitch", orUnknown(l))
				}
				if r.RDMA && (o.Instance.RDMA == "" || o.Instance.RDMA == catalog.RDMANone) {
					return fmt.Sprintf("no RDMA network (%s)", orUnknown(o.Instance.RDMA))
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return "instance types with RDMA or NVLink under the other constraints: " + distinct(b, 8, func(o *catalog.Offer) string {
					if o.Instance.RDMA != "" && o.Instance.RDMA != catalog.RDMANone {
						return o.Instance.ID()
					}
					return ""
				})
			}})
	}
	if len(r.Regions) > 0 || len(r.Countries) > 0 || len(r.Residency) > 0 {
		st = append(st, stage{name: "location", describe: locationText(r),
			reject: func(o *catalog.Offer) string {
				if len(r.Regions) > 0 && !inFold(r.Regions, o.RegionCode) {
					return "region " + o.RegionCode + " not allowed"
				}
				if len(r.Countries) > 0 && !inFold(r.Countries, o.Region.Country) {
					return "country " + o.Region.Country + " not allowed"
				}
				if len(r.Residency) > 0 && !inFold(r.Residency, o.Region.Residency) {
					return "data residency " + o.Region.Residency + " not allowed"
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				return "these offers are sold in: " + distinct(b, 10, func(o *catalog.Offer) string {
					return o.Provider + "/" + o.RegionCode + " (" + o.Region.Residency + ")"
				})
			}})
	}
	if len(r.Ecosystem) > 0 {
		st = append(st, stage{name: "ecosystem", describe: "provider offers " + joinList(r.Ecosystem),
			reject: func(o *catalog.Offer) string {
				var missing []string
				for _, cat := range r.Ecosystem {
					if !c.HasEcosystem(o.Provider, cat) {
						missing = append(missing, cat)
					}
				}
				if len(missing) > 0 {
					return o.Provider + " has no sourced " + joinList(missing)
				}
				return ""
			}, relax: func(b []*catalog.Offer) string {
				var ok []string
				for _, p := range c.Providers() {
					all := true
					for _, cat := range r.Ecosystem {
						all = all && c.HasEcosystem(p.ID, cat)
					}
					if all {
						ok = append(ok, p.ID)
					}
				}
				return "providers with " + joinList(r.Ecosystem) + ": " + joinList(ok)
			}})
	}
	st = append(st, stage{name: "billing", describe: billingText(r),
		reject: func(o *catalog.Offer) string {
			if o.Billing == catalog.Spot && !r.Interruptible {
				return "spot can be interrupted (interruptible: false)"
			}
			return ""
		}, relax: func([]*catalog.Offer) string { return "allow interruptions (interruptible: true) to consider spot" }})
	return st
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func locationText(r Requirements) string {
	var parts []string
	if len(r.Regions) > 0 {
		parts = append(parts, "regions "+joinList(r.Regions))
	}
	if len(r.Countries) > 0 {
		parts = append(parts, "countries "+joinList(r.Countries))
	}
	if len(r.Residency) > 0 {
		parts = append(parts, "residency "+joinList(r.Residency))
	}
	return strings.Join(parts, ", ")
}

func billingText(r Requirements) string {
	if r.Interruptible {
		return "any billing model"
	}
	return "no spot (the job must not be interrupted)"
}
