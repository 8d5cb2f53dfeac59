package recommend_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog"
	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/perf"
	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
)

func load(t *testing.T, name string) recommend.Requirements {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := jobfile.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// checkConstraints fails if any plan violates a hard constraint.
func checkConstraints(t *testing.T, e *recommend.Engine, r recommend.Requirements, plans []*recommend.Plan) {
	t.Helper()
	for _, p := range plans {
		o, it := p.Offer, p.Offer.Instance
		id := p.ID()
		if len(r.Residency) > 0 && !contains(r.Residency, o.Region.Residency) {
			t.Errorf("%s: residency %s not in %v", id, o.Region.Residency, r.Residency)
		}
		if len(r.Regions) > 0 && !contains(r.Regions, o.RegionCode) {
			t.Errorf("%s: region not allowed", id)
		}
		if len(r.Providers) > 0 && !contains(r.Providers, o.Provider) {
			t.Errorf("%s: provider not allowed", id)
		}
		if contains(r.ExcludeProviders, o.Provider) {
			t.Errorf("%s: excluded provider", id)
		}
		if r.DeadlineHours > 0 && p.Hours > r.DeadlineHours {
			t.Errorf("%s: %.1f h past the %.1f h deadline", id, p.Hours, r.DeadlineHours)
		}
		if r.MinVRAMGB > 0 && it.GPU.MemoryGB.InexactFloat64() < r.MinVRAMGB {
			t.Errorf("%s: VRAM %s", id, it.GPU.MemoryGB)
		}
		if r.MinGPUs > 0 && p.GPUs < r.MinGPUs || r.MaxGPUs > 0 && p.GPUs > r.MaxGPUs {
			t.Errorf("%s: %d GPUs outside [%d, %d]", id, p.GPUs, r.MinGPUs, r.MaxGPUs)
		}
		if r.RDMA && (it.RDMA == "" || it.RDMA == catalog.RDMANone) {
			t.Errorf("%s: no RDMA", id)
		}
		if r.Interconnect == "nvswitch" && recommend.GPULink(it) != catalog.LinkNVSwitch {
			t.Errorf("%s: interconnect %s", id, it.GPUInterconnect)
		}
		if !r.Interruptible && o.Billing == catalog.Spot {
			t.Errorf("%s: spot although the job must not be interrupted", id)
		}
		if !r.MultiNode && p.Instances > 1 {
			t.Errorf("%s: %d instances without multi_node", id, p.Instances)
		}
		for _, cat := range r.Ecosystem {
			if !e.Catalog.HasEcosystem(o.Provider, cat) {
				t.Errorf("%s: provider lacks %s", id, cat)
			}
		}
		if p.Estimate != nil && p.Estimate.Memory != nil && !p.Estimate.Memory.Fits {
			t.Errorf("%s: model does not fit", id)
		}
		if len(p.Reasons) == 0 {
			t.Errorf("%s: no reasons", id)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func TestExamples(t *testing.T) {
	e := engine(t)
	tests := []struct {
		file string
		// words the first plan's reasons must contain: the deciding factors
		want []string
	}{
		{"distributed-training.yaml", []string{"Ranked first for priority balanced", "runner-up"}},
		{"inference-china.yaml", []string{"cheapest", "month"}},
		{"hpc-mpi.yaml", []string{"priority time", "runner-up"}},
		{"spot-experiment.yaml", []string{"spot", "priority cost", "If interruptions came every"}},
		{"steady-cluster-3y.yaml", []string{"reserved", "utilisation"}},
		{"windows-onnx.yaml", []string{"priority cost"}},
		{"wechat-backend.yaml", []string{"tencent", "cheapest"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r := load(t, tt.file)
			res, err := e.Recommend(r, en)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Plans) == 0 {
				t.Fatal("no plans")
			}
			checkConstraints(t, e, r, res.Plans)
			all := strings.Join(res.Plans[0].Reasons, " ")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("first plan's reasons lack %q:\n%s", w, strings.Join(res.Plans[0].Reasons, "\n"))
				}
			}
		})
	}
}

// TestProperties checks, over many requirement sets, that no plan breaks a
// constraint and that no plan outranks one that beats it on cost, time and
// risk together.
func TestProperties(t *testing.T) {
	e := engine(t)
	var reqs []recommend.Requirements
	for _, res := range [][]string{nil, {"cn-mainland"}, {"us"}, {"eu"}} {
		for _, prio := range []string{"cost", "time", "balanced"} {
			for _, intr := range []bool{false, true} {
				reqs = append(reqs, recommend.Requirements{
					Workload:  recommend.Workload{Job: &perf.Job{Kind: perf.CNNTraining, Images: 1.28e6, Epochs: 30}},
					Residency: res, Priority: prio, Interruptible: intr, DeadlineHours: 48, MaxGPUs: 16, MultiNode: true, Limit: 10,
				})
			}
		}
	}
	reqs = append(reqs, recommend.Requirements{Workload: recommend.Workload{Benchmark: "mlperf-inf-bert-99", Samples: 1e9},
		MinVRAMGB: 40, Providers: []string{"aws", "gcp", "azure"}, Limit: 10})
	for i, r := range reqs {
		res, err := e.Recommend(r, en)
		if err != nil {
			var np *recommend.NoPlanError
			if errors.As(err, &np) {
				continue
			}
			t.Fatalf("requirements %d: %v", i, err)
		}
		checkConstraints(t, e, r, res.Plans)
		for a, pa := range res.Plans {
			for _, pb := range res.Plans[a+1:] {
				// pb ranks below pa: pb must not dominate pa.
				if pb.Cost < pa.Cost && pb.Hours < pa.Hours && pb.RiskScore < pa.RiskScore {
					t.Errorf("requirements %d: %s outranks %s, which is cheaper, faster and less risky", i, pa.ID(), pb.ID())
				}
			}
		}
		for _, p := range res.Pareto {
			for _, q := range res.Pareto {
				if q.Cost < p.Cost && q.Hours < p.Hours && q.RiskScore < p.RiskScore {
					t.Errorf("requirements %d: %s on the Pareto front is dominated by %s", i, p.ID(), q.ID())
				}
			}
		}
	}
}

func TestBadRequirements(t *testing.T) {
	e := engine(t)
	job := recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 7e9, Tokens: 1e11}}
	tests := []struct {
		name string
		r    recommend.Requirements
		want []string
	}{
		{"no workload", recommend.Requirements{}, []string{"workload", "describe the work"}},
		{"unknown benchmark", recommend.Requirements{Workload: recommend.Workload{Benchmark: "resnet", Samples: 1}}, []string{"unknown benchmark"}},
		{"contradictory counts", recommend.Requirements{Workload: job, MinGPUs: 16, MaxGPUs: 8}, []string{"min_gpus 16 is above max_gpus 8"}},
		{"provider both ways", recommend.Requirements{Workload: job, Providers: []string{"aws"}, ExcludeProviders: []string{"aws"}}, []string{"both required and excluded"}},
		{"impossible VRAM", recommend.Requirements{Workload: job, MinVRAMGB: 1000}, []string{"GPU memory", "largest GPU memory available is 288 GB"}},
		{"deadline too tight", recommend.Requirements{Workload: job, DeadlineHours: 0.5, MultiNode: true, MaxGPUs: 64},
			[]string{"deadline", "the fastest plan takes about"}},
		{"no GPU in region", recommend.Requirements{Workload: job, GPUs: []string{"H100"}, Residency: []string{"cn-mainland"}},
			[]string{"location", "these offers are sold in"}},
		{"wechat outside Tencent", recommend.Requirements{Workload: job, Ecosystem: []string{"wechat"}, Providers: []string{"aws"}},
			[]string{"ecosystem", "providers with WeChat (微信): tencent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Recommend(tt.r, en)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func BenchmarkRecommend(b *testing.B) {
	e := engine(b)
	r := recommend.Requirements{Workload: recommend.Workload{Job: &perf.Job{Kind: perf.TransformerTrain, Params: 7e9, Tokens: 2e11}},
		DeadlineHours: 200, MaxGPUs: 64, MultiNode: true, Interruptible: true}
	for b.Loop() {
		if _, err := e.Recommend(r, en); err != nil {
			b.Fatal(err)
		}
	}
}

// gpuHoursJob is `gpuscout recommend --gpu-hours 1000` as the CLI builds it.
var gpuHoursJob = recommend.Requirements{Workload: recommend.Workload{GPUHours: 1000}, Limit: 5, Currency: "USD"}

// BenchmarkRecommendGPUHours is the advisor's part of `gpuscout recommend
// --gpu-hours 1000` on the embedded catalog (every offer a candidate); its
// B/op is the working memory one run touches (docs/benchmarks.md).
func BenchmarkRecommendGPUHours(b *testing.B) {
	e := engine(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Recommend(gpuHoursJob, en); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildRecommendation renders the document of `recommend
// --gpu-hours 1000`: with the list of rejections (JSON, the API) and
// with their counts only (the CLI's table and report).
func BenchmarkBuildRecommendation(b *testing.B) {
	e := engine(b)
	res, err := e.Recommend(gpuHoursJob, en)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			document.BuildRecommendation(res, gpuHoursJob, 200)
		}
	})
	b.Run("counts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			document.BuildRecommendationCounts(res, gpuHoursJob)
		}
	})
}

// TestRecommendationCounts: the document without the list of rejections
// is the full one, rejections aside, and counts every rejection.
func TestRecommendationCounts(t *testing.T) {
	res, err := engine(t).Recommend(gpuHoursJob, en)
	if err != nil {
		t.Fatal(err)
	}
	full := document.BuildRecommendation(res, gpuHoursJob, 200)
	counts := document.BuildRecommendationCounts(res, gpuHoursJob)
	if len(full.Rejected) == 0 || len(counts.Rejected) != 0 || counts.Rejected == nil {
		t.Fatalf("rejections listed: %d in full, %d (nil %v) in counts", len(full.Rejected), len(counts.Rejected), counts.Rejected == nil)
	}
	n := 0
	for _, v := range counts.RejectedBy {
		n += v
	}
	if n != len(res.Rejected) {
		t.Errorf("counts total %d, want %d", n, len(res.Rejected))
	}
	full.Rejected = counts.Rejected
	a, _ := json.Marshal(full)
	b, _ := json.Marshal(counts)
	if string(a) != string(b) {
		t.Errorf("the documents differ beyond the rejections:\n%s\n%s", a, b)
	}
}
