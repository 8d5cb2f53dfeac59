package perf_test

import (
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/perf"
)

const bertSeq128 = "bert-large-pretrain-seq128-throughput"

// "How fast does BERT-Large pre-training run on 32 A100s in 4 nodes?"
// NVIDIA publishes 16 GPUs → 9,191 and 64 GPUs → 35,774 sequences/s on
// DGX A100 nodes over InfiniBand: the answer lies between them and cites
// them, instead of a 100 Gb/s TCP guess (4,016 sequences/s).
func TestMultiNodeBetweenPublishedResults(t *testing.T) {
	_, _, m := setup(t)
	e, err := m.Estimate(perf.Query{Benchmark: bertSeq128, GPU: "A100-SXM4-80GB", Count: 32, Nodes: 4, Precision: perf.FP16})
	if err != nil {
		t.Fatal(err)
	}
	if per := e.Throughput / 32; per < 35774.0/64 || per > 9191.0/16 {
		t.Errorf("per GPU %.1f, want between the published 559.0 (64 GPUs) and 574.4 (16 GPUs)", per)
	}
	if e.Confidence != perf.Interpolated {
		t.Errorf("confidence %s, want %s", e.Confidence, perf.Interpolated)
	}
	counts := map[int]bool{}
	for _, p := range e.Basis {
		counts[p.Count] = true
	}
	if !counts[16] || !counts[64] || len(e.Basis) != 2 {
		t.Errorf("basis %v, want the 16- and 64-GPU results", e.Basis)
	}
	if !hasAssumption(e, "perf.as.interp_nodes") {
		t.Errorf("assumptions %v do not say the figure is interpolated", e.Assumptions)
	}
}

// "And on 512 A100s?" No published result above 256 GPUs: the model
// assumes the published systems' fabric (DGX A100: 8 × 200 Gb/s HDR
// InfiniBand) and says so; with --fabric tcp it uses TCP.
func TestMultiNodeAssumesPublishedFabric(t *testing.T) {
	_, _, m := setup(t)
	q := perf.Query{Benchmark: bertSeq128, GPU: "A100-SXM4-80GB", Count: 512, Precision: perf.FP16}
	e, err := m.Estimate(q)
	if err != nil {
		t.Fatal(err)
	}
	if !hasAssumption(e, "perf.as.published_fabric") {
		t.Errorf("assumptions %v do not name the published systems' fabric", e.Assumptions)
	}
	if e.Efficiency < 0.8 {
		t.Errorf("512 GPUs on HDR InfiniBand: scaling %.0f%%, want ≥ 80%% (the 256-GPU result scales at 93%%)", 100*e.Efficiency)
	}
	q.Fabric = perf.Fabric{NetworkGbps: 100, RDMA: "none"}
	tcp, err := m.Estimate(q)
	if err != nil {
		t.Fatal(err)
	}
	if tcp.Throughput >= e.Throughput || hasAssumption(tcp, "perf.as.published_fabric") {
		t.Errorf("--fabric tcp: %.0f sequences/s, want below %.0f on InfiniBand and no fabric assumed", tcp.Throughput, e.Throughput)
	}
	// A GPU with no published multi-node system: TCP, said so.
	l, err := m.Estimate(perf.Query{Benchmark: bertSeq128, GPU: "L40S", Count: 32, Precision: perf.FP16})
	if err != nil {
		t.Fatal(err)
	}
	if !hasAssumption(l, "perf.as.no_published_fabric") {
		t.Errorf("L40S ×32: assumptions %v do not say TCP was assumed for want of a published system", l.Assumptions)
	}
}

// FuzzInterpolatedMonotone: between two published multi-node results the
// interpolated throughput never falls as GPUs are added, and stays between
// the published totals.
func FuzzInterpolatedMonotone(f *testing.F) {
	_, _, m := setup(f)
	for _, s := range [][2]uint16{{3, 4}, {3, 7}, {2, 5}, {5, 6}, {1, 2}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b uint16) {
		// Node counts strictly between 2 (16 GPUs) and 8 (64 GPUs).
		na, nb := 3+int(a%5), 3+int(b%5)
		if na > nb {
			na, nb = nb, na
		}
		at := func(nodes int) float64 {
			e, err := m.Estimate(perf.Query{Benchmark: bertSeq128, GPU: "A100-SXM4-80GB", Count: 8 * nodes, Nodes: nodes, Precision: perf.FP16})
			if err != nil {
				t.Fatal(err)
			}
			return e.Throughput
		}
		ta, tb := at(na), at(nb)
		if ta > tb+1e-6 {
			t.Errorf("%d nodes: %.1f sequences/s, more than %.1f on %d nodes", na, ta, tb, nb)
		}
		for _, v := range []float64{ta, tb} {
			if v < 9191 || v > 35774 {
				t.Errorf("%.1f sequences/s lies outside the published 9,191 (16 GPUs) – 35,774 (64 GPUs)", v)
			}
		}
	})
}

func hasAssumption(e *perf.Estimate, key string) bool {
	for _, a := range e.Assumptions {
		if a.Key == key || strings.Contains(a.Key, key) {
			return true
		}
	}
	return false
}
