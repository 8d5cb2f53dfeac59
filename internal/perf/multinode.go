package perf

import (
	"math"
	"strings"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/i18n"
)

// SystemFabric is the network between the nodes of a published benchmark
// system, as its vendor's documents state it.
type SystemFabric struct {
	// Match is a substring of a result's system name ("DGX A100").
	Match string
	// Rails NICs of RailGbps each per node, over RDMA.
	Rails    int
	RailGbps float64
	RDMA     string
	// Label is the fabric as its vendor writes it; Source the document.
	Label  string
	Source string
}

// URL is the address of the fabric's source document.
func (s SystemFabric) URL() string {
	if i := strings.Index(s.Source, "(http"); i >= 0 {
		if j := strings.Index(s.Source[i:], ")"); j > 0 {
			return s.Source[i+1 : i+j]
		}
	}
	return s.Source
}

// Gbps is the node's rate across nodes.
func (s SystemFabric) Gbps() float64 { return float64(s.Rails) * s.RailGbps }

// systemFabrics are the fabrics of the systems the embedded multi-node
// results were measured on. A result whose system is not listed here is
// not used to assume a fabric.
func systemFabrics() []SystemFabric {
	return []SystemFabric{
		{Match: "DGX A100", Rails: 8, RailGbps: 200, RDMA: catalog.RDMAInfiniBand, Label: "HDR InfiniBand",
			Source: "NVIDIA, Defining AI innovation with NVIDIA DGX A100 (https://developer.nvidia.com/blog/defining-ai-innovation-with-dgx-a100): eight single-port ConnectX-6 200 Gb/s HDR InfiniBand for the cluster"},
		{Match: "DGX H100", Rails: 8, RailGbps: 400, RDMA: catalog.RDMAInfiniBand, Label: "NDR InfiniBand",
			Source: "NVIDIA DGX BasePOD reference architecture, core components (https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html): eight single-port ConnectX-7 VPI, up to 400 Gb/s InfiniBand"},
		{Match: "Eos", Rails: 8, RailGbps: 400, RDMA: catalog.RDMAInfiniBand, Label: "NDR InfiniBand (Quantum-2)",
			Source: "NVIDIA DGX BasePOD reference architecture, core components (https://docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html): DGX H100 nodes, eight single-port ConnectX-7 VPI, up to 400 Gb/s InfiniBand"},
	}
}

// FabricOf is the fabric of a published result's system, when its vendor
// documents it.
func FabricOf(system string) (SystemFabric, bool) {
	for _, s := range systemFabrics() {
		if strings.Contains(system, s.Match) {
			return s, true
		}
	}
	return SystemFabric{}, false
}

// unstated reports whether a query says nothing about the network between
// nodes (a hypothetical GPU count with no --fabric).
func (f Fabric) unstated() bool { return f == Fabric{} }

// publishedFabric is the fabric of the published multi-node systems of a
// GPU (those of the query's benchmark first), with one of their results.
func (m *Model) publishedFabric(q Query) (SystemFabric, Point, bool) {
	var best SystemFabric
	var bp Point
	found := false
	for _, p := range m.points {
		if p.GPU != q.GPU || p.Nodes < 2 {
			continue
		}
		s, ok := FabricOf(p.System)
		if !ok {
			continue
		}
		if p.Benchmark == q.Benchmark {
			return s, p, true
		}
		if !found {
			best, bp, found = s, p, true
		}
	}
	return best, bp, found
}

// assumeFabric fills in the fabric of a multi-node query that states none:
// the fabric of the published multi-node systems of its GPU, or else
// 100 Gb/s TCP, with the note that says which.
func (m *Model) assumeFabric(q *Query) i18n.Msg {
	if q.Nodes < 2 || !q.Fabric.unstated() {
		return i18n.Msg{}
	}
	if s, _, ok := m.publishedFabric(*q); ok {
		q.Fabric = Fabric{NetworkGbps: s.Gbps(), RDMA: s.RDMA}
		return i18n.M("perf.as.published_fabric", s.Match, s.Rails, s.RailGbps, s.Label, s.URL())
	}
	q.Fabric = Fabric{NetworkGbps: 100}
	return i18n.M("perf.as.no_published_fabric", q.GPU)
}

// bracket finds the published multi-node results of the query's benchmark,
// GPU and precision, with as many GPUs per node, whose GPU counts enclose
// the query's: the nearest below and the nearest above (the median of the
// results at each count). ok is false when either side is missing, when the
// query is on one node, or when its fabric is slower than the published
// systems' (then the model's fabric terms answer instead).
func (m *Model) bracket(q Query) (lo, hi []Point, ok bool) {
	if q.Nodes < 2 || q.Count%q.Nodes != 0 {
		return nil, nil, false
	}
	per := q.Count / q.Nodes
	loN, hiN := 0, 0
	for _, p := range m.points {
		if p.Benchmark != q.Benchmark || p.GPU != q.GPU || p.Precision != q.Precision || p.IsTime() ||
			p.Nodes < 2 || p.Count%p.Nodes != 0 || p.Count/p.Nodes != per {
			continue
		}
		if p.Count < q.Count && p.Count > loN {
			loN = p.Count
		}
		if p.Count > q.Count && (hiN == 0 || p.Count < hiN) {
			hiN = p.Count
		}
	}
	if loN == 0 || hiN == 0 {
		return nil, nil, false
	}
	for _, p := range m.points {
		if p.Benchmark != q.Benchmark || p.GPU != q.GPU || p.Precision != q.Precision || p.IsTime() ||
			p.Nodes < 2 || p.Count/p.Nodes != per {
			continue
		}
		switch p.Count {
		case loN:
			lo = append(lo, p)
		case hiN:
			hi = append(hi, p)
		}
	}
	if !q.Fabric.unstated() {
		// A stated fabric must be as fast as the published systems'.
		for _, p := range append(append([]Point(nil), lo...), hi...) {
			s, known := FabricOf(p.System)
			if !known || q.Fabric.RDMA != s.RDMA || q.Fabric.NetworkGbps < s.Gbps() {
				return nil, nil, false
			}
		}
	}
	return lo, hi, true
}

// interpolateNodes answers a multi-node query between two published scales:
// per-GPU throughput is linear in log GPU count between them (so total
// throughput is monotone in the GPU count between the two points).
func (m *Model) interpolateNodes(e *Estimate, q Query, lo, hi []Point) {
	perGPU := func(ps []Point) (float64, int) {
		var v []float64
		for _, p := range ps {
			v = append(v, p.Value/float64(p.Count))
		}
		return median(v), ps[0].Count
	}
	t1, n1 := perGPU(lo)
	t2, n2 := perGPU(hi)
	w := (math.Log(float64(q.Count)) - math.Log(float64(n1))) / (math.Log(float64(n2)) - math.Log(float64(n1)))
	e.PerGPU = math.Exp((1-w)*math.Log(t1) + w*math.Log(t2))
	e.Throughput = e.PerGPU * float64(q.Count)
	e.Basis = append(append(e.Basis[:0], lo...), hi...)
	e.Confidence = Interpolated
	// Scaling efficiency against the single-GPU result, when published.
	var one []float64
	for _, p := range m.points {
		if p.Benchmark == q.Benchmark && p.GPU == q.GPU && p.Precision == q.Precision && p.Count == 1 && !p.IsTime() {
			one = append(one, p.Value)
		}
	}
	if len(one) > 0 {
		e.Efficiency = e.PerGPU / median(one)
	}
	e.Assumptions = append(e.Assumptions, i18n.M("perf.as.interp_nodes", n1, lo[0].Nodes, t1*float64(n1), n2, hi[0].Nodes, t2*float64(n2)))
	m.band(e)
}
