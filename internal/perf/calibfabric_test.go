package perf

import "testing"

// TestCalibrationFabricIsTheSystems: which network does the model assume
// between the nodes of a published multi-node result when it removes that
// system's scaling? The one its vendor documents for the system (DGX H100
// and Eos on 8 × 400 Gb/s NDR, not the DGX A100's 8 × 200), else one rail
// per GPU of the GPU's generation; none on one node.
func TestCalibrationFabricIsTheSystems(t *testing.T) {
	hopper, ampere := Spec{Arch: "Hopper", SXM: true}, Spec{Arch: "Ampere", SXM: true}
	for _, c := range []struct {
		name string
		s    Spec
		p    Point
		gbps float64
	}{
		{"DGX H100", hopper, Point{System: "NVIDIA DGX H100 x8 nodes, MLPerf-ID 3.0-2071", Count: 64, Nodes: 8}, 3200},
		{"Eos", hopper, Point{System: "NVIDIA Eos (11,616 H100, Quantum-2 InfiniBand)", Count: 11616, Nodes: 1452}, 3200},
		{"DGX A100", ampere, Point{System: "8x NVIDIA DGX A100 (multi-node table)", Count: 64, Nodes: 8}, 1600},
		{"undocumented H100 cluster", hopper, Point{System: "CoreWeave HGX H100 (coreweave_hgxh100_n448)", Count: 3584, Nodes: 448}, 3200},
		{"one node", hopper, Point{System: "NVIDIA DGX H100", Count: 8, Nodes: 1}, 0},
	} {
		f := calibFabric(c.s, c.p)
		if f.NetworkGbps != c.gbps || (c.gbps > 0 && f.RDMA != "infiniband") {
			t.Errorf("%s: %v Gb/s %q, want %v Gb/s InfiniBand", c.name, f.NetworkGbps, f.RDMA, c.gbps)
		}
	}
}
