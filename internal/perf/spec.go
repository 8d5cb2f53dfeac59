package perf

import (
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// Spec is what the model uses of a GPU's datasheet.
type Spec struct {
	ID           string
	Arch         string  // architecture family: Volta, Turing, Ampere, Ada, Hopper, Blackwell, CDNA ...
	MemoryGB     float64 // per GPU
	BandwidthGBs float64
	Peak         map[Precision]float64 // dense TFLOPS/TOPS; absent when unsupported or unpublished
	LinkGBs      float64               // GPU-to-GPU interconnect as the vendor states it
	SXM          bool                  // a socketed (NVSwitch-class) part
	TDPW         float64               // board power limit (W); 0 when unknown
	// PCIeGen is the card's PCIe generation (3, 4, 5…; 0 when the
	// datasheet's interconnect line does not say).
	PCIeGen int
	// BridgeGPUs is how many cards an NVLink bridge joins (2, or 4 for
	// H200 NVL's 4-way bridge); 0 when NVLink is not a bridge.
	BridgeGPUs int
}

// SpecOf reads a catalog GPU.
func SpecOf(g *catalog.GPU) Spec {
	f := func(d interface{ InexactFloat64() float64 }) float64 { return d.InexactFloat64() }
	s := Spec{ID: g.ID, Arch: archFamily(g.Architecture), MemoryGB: f(g.MemoryGB), BandwidthGBs: f(g.BandwidthGBs),
		LinkGBs: f(g.InterconnectGBs), TDPW: f(g.TDPW), Peak: map[Precision]float64{}}
	for p, v := range map[Precision]float64{FP32: f(g.FP32TFLOPS), TF32: f(g.TF32TFLOPS), FP16: f(g.FP16TFLOPS), FP8: f(g.FP8TFLOPS), INT8: f(g.INT8TOPS)} {
		if v > 0 {
			s.Peak[p] = v
		}
	}
	s.PCIeGen, s.BridgeGPUs = parseInterconnect(g.Interconnect)
	id := strings.ToUpper(g.ID)
	s.SXM = strings.Contains(id, "SXM") || strings.HasPrefix(id, "MI3") || strings.HasPrefix(id, "MI2") || id == "H20-96GB"
	return s
}

// archFamily reduces "Ada Lovelace (AD104)" to "Ada", "CDNA 3" to "CDNA".
func archFamily(a string) string {
	f := strings.Fields(a)
	if len(f) == 0 {
		return "unknown"
	}
	return strings.TrimSuffix(f[0], ",")
}

// PeakFor is the dense peak for a precision, falling back to the nearest
// slower format the GPU has (FP8 → FP16, INT8 → FP16, TF32 → FP32, FP16 →
// FP32), with a note when it falls back. ok is false when the GPU has no
// figure at all.
func (s Spec) PeakFor(p Precision) (value float64, used Precision, note i18n.Msg, ok bool) {
	var chain []Precision
	switch p {
	case FP32:
		chain = chainFP32
	case TF32:
		chain = chainTF32
	case FP16:
		chain = chainFP16
	case FP8:
		chain = chainFP8
	case INT8:
		chain = chainINT8
	case INT4:
		chain = chainFP16 // weight-only 4-bit: the matrix products run in FP16
	case LowBest:
		chain = chainLowBest
	case Low16:
		chain = chainFP16
		if s.Arch == "Hopper" || s.Arch == "Blackwell" || s.Arch == "CDNA" {
			chain = chainFP8
		}
	}
	for i, c := range chain {
		if v, ok := s.Peak[c]; ok {
			if i > 0 && p != LowBest && p != Low16 {
				note = i18n.M("perf.as.peak_fallback", s.ID, p, c)
			}
			// For "fastest supported" precisions INT8 and FP8 are the same rate
			// where both exist; take the larger.
			if p == LowBest {
				if w, ok := s.Peak[INT8]; ok && w > v {
					return w, INT8, note, true
				}
			}
			return v, c, note, true
		}
	}
	return 0, "", i18n.Msg{}, false
}

var (
	chainFP32    = []Precision{FP32}
	chainTF32    = []Precision{TF32, FP32}
	chainFP16    = []Precision{FP16, FP32}
	chainFP8     = []Precision{FP8, FP16, FP32}
	chainINT8    = []Precision{INT8, FP16, FP32}
	chainLowBest = []Precision{FP8, INT8, FP16, FP32}
)

// intraBusBW is the all-reduce bus bandwidth (GB/s) inside one node of
// count GPUs linked by link ("nvswitch", "nvlink", "pcie", "none" or ""),
// as a share of the vendor's interconnect figure. Measured NCCL bus
// bandwidth is about 0.38–0.41 of the NVLink figure on 8×A100 (230 of 600
// GB/s) and 8×H100 (370 of 900 GB/s) NVSwitch systems; PCIe-only systems
// are assumed to reach 0.4 of a x16 Gen4 link's 64 GB/s.
func intraBusBW(s Spec, link string) (float64, i18n.Msg) {
	const share = 0.4
	switch {
	case (link == catalog.LinkNVSwitch || link == catalog.LinkNVLink || link == catalog.LinkXGMI || (link == "" && s.SXM)) && s.LinkGBs > 0:
		return share * s.LinkGBs, i18n.M("perf.as.intra", share*s.LinkGBs, s.LinkGBs, linkName(link, s))
	default:
		return share * 64, i18n.M("perf.as.intra_pcie")
	}
}

func linkName(link string, s Spec) i18n.Msg {
	if link == "" {
		if s.SXM {
			return i18n.M("perf.as.link.sxm")
		}
		return i18n.M("perf.as.link.pcie")
	}
	return i18n.M("perf.as.link." + link)
}

// railGbps is the RDMA rate per GPU of the usual GPU node built for
// multi-node training, one NIC per GPU ("rail-optimised"): NDR 400 Gb/s
// with Hopper, Blackwell and MI300X (DGX H100/B200: 8 × 400 Gb/s
// ConnectX-7), HDR 200 Gb/s with Ampere (DGX A100: 8 × 200 Gb/s), EDR
// 100 Gb/s before. An assumption, used only where the catalog does not
// state the fabric's rate, and stated in every estimate that uses it.
func railGbps(arch string) float64 {
	switch arch {
	case "Hopper", "Blackwell", "CDNA", "Ada":
		return 400
	case "Ampere":
		return 200
	}
	return 100
}

// fabricGbps is the rate across nodes the model uses for an instance's
// fabric, and the note that says where it comes from. InfiniBand is a
// network of its own beside the instance's Ethernet, so a catalog figure
// below the rail rate is the front-end Ethernet, not the fabric; any RDMA
// fabric without a figure gets the rail rate (one NIC per GPU on SXM
// boards, one per node otherwise).
func fabricGbps(f Fabric, s Spec, gpusPerNode int) (float64, i18n.Msg, bool) {
	if f.RDMA == "" || f.RDMA == catalog.RDMANone || !f.Instance {
		return f.NetworkGbps, i18n.Msg{}, false
	}
	rails := 1
	if s.SXM && gpusPerNode > 1 {
		rails = gpusPerNode
	}
	rail := railGbps(s.Arch)
	assumed := rail * float64(rails)
	switch {
	case f.NetworkGbps <= 0:
		return assumed, i18n.M("perf.as.rail_unknown", fabricLabel(f.RDMA), rails, rail), true
	case f.RDMA == catalog.RDMAInfiniBand && f.NetworkGbps < assumed:
		return assumed, i18n.M("perf.as.rail_frontend", f.NetworkGbps, rails, rail), true
	}
	return f.NetworkGbps, i18n.Msg{}, false
}

// fabricLabel is an RDMA fabric's name as its vendors write it.
func fabricLabel(rdma string) string {
	switch rdma {
	case catalog.RDMAInfiniBand:
		return "InfiniBand"
	case "roce":
		return "RoCE"
	case "erdma":
		return "eRDMA"
	}
	return strings.ToUpper(rdma)
}

// interBusBW is the all-reduce bandwidth (GB/s) across nodes from the
// node's network: 85 % of the line rate with RDMA (InfiniBand, EFA,
// RoCE, eRDMA, whose rate fabricGbps reads or assumes), 30 % over plain
// TCP (an assumption to calibrate). The fabric kind itself does not
// change the share: at the rates of GPU nodes, measured NCCL all-reduce
// bus bandwidth is set by the line rate, whichever RDMA carries it.
func interBusBW(f Fabric, s Spec, gpusPerNode int) (float64, []i18n.Msg) {
	gbps, note, assumed := fabricGbps(f, s, gpusPerNode)
	rdma := f.RDMA
	if gbps <= 0 {
		gbps, rdma = 100, ""
	}
	share, kind := 0.3, i18n.M("perf.as.tcp")
	if rdma != "" && rdma != catalog.RDMANone {
		share, kind = 0.85, i18n.M("perf.as.rdma_rate", fabricLabel(rdma))
	}
	bw := gbps / 8 * share
	notes := []i18n.Msg{i18n.M("perf.as.inter", bw, gbps, kind)}
	if assumed {
		notes = append(notes, note)
	}
	return bw, notes
}

// log guards against zero.
func logp(x float64) float64 {
	if x <= 0 {
		return math.Log(1e-9)
	}
	return math.Log(x)
}
