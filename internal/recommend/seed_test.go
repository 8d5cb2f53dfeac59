package recommend_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/document"
	"github.com/gpuscout/gpuscout/internal/i18n"
	"github.com/gpuscout/gpuscout/internal/recommend"
)

// jsonDoc is the part of gpuscout/recommendation@v1 the scenarios check.
type jsonDoc struct {
	Currency string `json:"currency"`
	Plans    []struct {
		Offer, Provider, GPU, Billing, Region string
		InstanceType                          string `json:"instance_type"`
		Count, GPUs                           int
		Fabric, Country, Residency            string
		GPUMemoryGB                           float64 `json:"gpu_memory_gb"`
		Time                                  *struct{ Hours, High float64 }
		Cost                                  struct {
			Total    float64
			Currency string
		}
		Reasons, Risks []string
		Sizing         string
		Basis          *struct {
			FLOPs       float64 `json:"flops"`
			Precision   string
			Utilization float64
			Scaling     float64 `json:"scaling_efficiency"`
			Sources     []string
		}
		Spot *struct {
			Interval float64 `json:"checkpoint_interval_minutes"`
			Overhead float64
			P90      float64 `json:"p90_hours"`
			MTBI     float64 `json:"mtbi_hours"`
		}
		Redundancy *struct {
			Instances int
			Cost      float64
			Chosen    bool
		}
	}
	Pareto []struct {
		Offer string
		Count int
		Cost  struct{ Total float64 }
		Time  *struct{ Hours float64 }
	}
	Constraints []struct {
		Stage, Constraint string
		Removed           int
	}
	Rejected []struct{ Offer, Stage, Reason string }
	Notes    []string
}

// seedDoc runs a requirement set and returns its JSON document, parsed.
func seedDoc(t *testing.T, r recommend.Requirements, p *i18n.Printer) jsonDoc {
	t.Helper()
	e := engine(t)
	res, err := e.Recommend(r, p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(document.BuildRecommendation(res, r, 100000))
	if err != nil {
		t.Fatal(err)
	}
	var d jsonDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Plans) == 0 {
		t.Fatal("no plans")
	}
	return d
}

func allText(d jsonDoc, top bool) string {
	var parts []string
	for i, p := range d.Plans {
		if top && i > 0 {
			break
		}
		parts = append(parts, p.Reasons...)
		parts = append(parts, p.Risks...)
	}
	return strings.Join(parts, "\n")
}

// TestSeedScenarios runs the seed articles' questions and checks, on the
// JSON document, what any correct answer must satisfy, in English and
// Chinese.
func TestSeedScenarios(t *testing.T) {
	type check func(t *testing.T, d jsonDoc, lang i18n.Lang)
	mustSay := func(t *testing.T, d jsonDoc, lang i18n.Lang, en, zhWord string) {
		t.Helper()
		w := en
		if lang == i18n.ZH {
			w = zhWord
		}
		if s := allText(d, true); !strings.Contains(s, w) {
			t.Errorf("top plan's reasons do not name %q:\n%s", w, s)
		}
	}
	constraint := func(t *testing.T, d jsonDoc, stage string) {
		t.Helper()
		for _, c := range d.Constraints {
			if c.Stage == stage && c.Removed > 0 {
				return
			}
		}
		t.Errorf("no constraint %q with removals in %+v", stage, d.Constraints)
	}
	tests := []struct {
		name string
		req  func(t *testing.T) recommend.Requirements
		chk  check
	}{
		{"distributed pre-training", func(t *testing.T) recommend.Requirements { return load(t, "distributed-training.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if p.Fabric == "" || p.Fabric == "none" {
						t.Errorf("%s: no RDMA fabric", p.Offer)
					}
					if p.GPUs < 16 || p.GPUs > 256 {
						t.Errorf("%s: %d GPUs outside 16..256", p.Offer, p.GPUs)
					}
					if p.Time == nil || p.Time.Hours > 336 {
						t.Errorf("%s: past the deadline", p.Offer)
					}
					if p.Basis == nil || p.Basis.FLOPs != 6*13e9*300e9 || p.Basis.Precision != "bf16" || p.Basis.Utilization <= 0 {
						t.Errorf("%s: basis %+v: want 6·N·D FLOPs in bf16 with its utilisation", p.Offer, p.Basis)
					}
					if p.Count > 1 && (p.Basis == nil || !(p.Basis.Scaling > 0 && p.Basis.Scaling < 1)) {
						t.Errorf("%s: %d nodes scale linearly", p.Offer, p.Count)
					}
				}
				constraint(t, d, "interconnect")
				mustSay(t, d, lang, "NVSwitch", "NVSwitch")
			}},
		{"24/7 inference in mainland China near Shanghai", func(t *testing.T) recommend.Requirements { return load(t, "inference-china.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if p.Residency != "cn-mainland" {
						t.Errorf("%s: residency %s", p.Offer, p.Residency)
					}
					if p.Redundancy == nil || p.Redundancy.Instances != p.Count+1 || !(p.Redundancy.Cost > p.Cost.Total) {
						t.Errorf("%s: no priced N+1 variant: %+v", p.Offer, p.Redundancy)
					}
				}
				if r := d.Plans[0].Region; !strings.Contains(r, "shanghai") {
					t.Errorf("users in Shanghai, top plan in %s", r)
				}
				mustSay(t, d, lang, "N+1", "N+1")
				constraint(t, d, "location")
			}},
		{"MPI over InfiniBand in FP64", func(t *testing.T) recommend.Requirements { return load(t, "hpc-mpi.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if p.Fabric != "infiniband" {
						t.Errorf("%s: fabric %q, not InfiniBand", p.Offer, p.Fabric)
					}
					if strings.HasPrefix(p.GPU, "L40") {
						t.Errorf("%s: %s has no published FP64 peak", p.Offer, p.GPU)
					}
					if p.Basis == nil || p.Basis.Precision != "fp64" {
						t.Errorf("%s: basis %+v, want fp64", p.Offer, p.Basis)
					}
				}
				constraint(t, d, "fabric")
				mustSay(t, d, lang, "InfiniBand", "InfiniBand")
			}},
		{"short interruptible experiment", func(t *testing.T) recommend.Requirements { return load(t, "short-experiment.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				spot := 0
				for _, p := range d.Plans {
					if p.GPUs > 16 {
						t.Errorf("%s: %d GPUs for a job of a few GPU-hours", p.Offer, p.GPUs)
					}
					if p.Billing == "spot" {
						spot++
						if p.Spot == nil || !(p.Spot.Interval > 0) || !(p.Spot.P90 >= p.Time.Hours) || p.Spot.MTBI != 6 {
							t.Errorf("%s: spot advice %+v (want interval, P90 ≥ expected, MTBI 6 h as given)", p.Offer, p.Spot)
						}
					}
				}
				if spot == 0 {
					t.Error("no spot plan for an interruptible job")
				}
			}},
		{"3-year cluster", func(t *testing.T) recommend.Requirements { return load(t, "steady-cluster-3y.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if p.GPUs < 32 {
						t.Errorf("%s: %d GPUs, fewer than 32", p.Offer, p.GPUs)
					}
					if strings.HasPrefix(p.Billing, "reserved-1y") || p.Billing == "committed-1y" || strings.HasPrefix(p.Billing, "savings-plan-1y") {
						s := strings.Join(p.Reasons, "\n")
						want := map[i18n.Lang]string{i18n.EN: "renewals assume today's price", i18n.ZH: "续约按今天的价格假设"}[lang]
						if !strings.Contains(s, want) {
							t.Errorf("%s: a 1-year term over 36 months without the renewal assumption:\n%s", p.Offer, s)
						}
					}
				}
			}},
		{"Windows + ONNX team", func(t *testing.T) recommend.Requirements { return load(t, "windows-onnx.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				ok := regexp.MustCompile(`^(g4dn\.|g5\.|g4ad\.|p3\.|g6\.|gr6\.|g6e\.|g6f\.|gr6f\.|g7e\.|Standard_NV\d+a\w*_A10_v5|Standard_NG\d+ads_V620_v1|Standard_NC\d+r?s_v3|Standard_NC\d+as_T4_v3|Standard_NC\d+ads_A100_v4|Standard_NV\d+s_v3)`)
				for _, p := range d.Plans {
					if !ok.MatchString(p.InstanceType) {
						t.Errorf("%s: not documented to run Windows", p.Offer)
					}
					if !strings.Contains(strings.Join(p.Reasons, " "), "Windows") {
						t.Errorf("%s: no Windows licence statement", p.Offer)
					}
				}
				constraint(t, d, "os")
				mustSay(t, d, lang, "Windows", "Windows")
			}},
		{"WeChat backend", func(t *testing.T) recommend.Requirements { return load(t, "wechat-backend.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if p.Provider != "tencent" {
						t.Errorf("%s: WeChat needs Tencent Cloud", p.Offer)
					}
				}
				constraint(t, d, "ecosystem")
				mustSay(t, d, lang, "WeChat (微信)", "微信")
			}},
		{"EU residency", func(t *testing.T) recommend.Requirements { return load(t, "eu-residency.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if p.Residency != "eu" {
						t.Errorf("%s: residency %s", p.Offer, p.Residency)
					}
					if p.Cost.Currency != "EUR" {
						t.Errorf("%s: cost in %s", p.Offer, p.Cost.Currency)
					}
					for _, s := range p.Reasons {
						if regexp.MustCompile(`[0-9] USD`).MatchString(s) {
							t.Errorf("%s: a EUR report with a USD figure: %s", p.Offer, s)
						}
					}
				}
				constraint(t, d, "location")
			}},
		{"70B inference with latency budgets", func(t *testing.T) recommend.Requirements { return load(t, "inference-70b-latency.yaml") },
			func(t *testing.T, d jsonDoc, lang i18n.Lang) {
				for _, p := range d.Plans {
					if float64(p.GPUs)*p.GPUMemoryGB < 84 {
						t.Errorf("%s: %d × %.0f GB cannot hold 70B FP8 weights", p.Offer, p.GPUs, p.GPUMemoryGB)
					}
					if p.Redundancy == nil || !p.Redundancy.Chosen || p.Count < 2 {
						t.Errorf("%s: ha: true but %d instance(s), %+v", p.Offer, p.Count, p.Redundancy)
					}
				}
				tp := regexp.MustCompile(`(?:groups of|每组) (\d+)`)
				for _, p := range d.Plans {
					m := tp.FindStringSubmatch(strings.Join(p.Reasons, " "))
					if m == nil {
						t.Errorf("%s: no tensor-parallel group named", p.Offer)
						continue
					}
					g, _ := strconv.Atoi(m[1])
					if g < 1 || 64%g != 0 || g&(g-1) != 0 {
						t.Errorf("%s: tensor-parallel group of %d does not divide 64 heads", p.Offer, g)
					}
				}
			}},
	}
	for _, tt := range tests {
		for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
			t.Run(tt.name+"/"+string(lang), func(t *testing.T) {
				d := seedDoc(t, tt.req(t), i18n.NewPrinter(lang))
				tt.chk(t, d, lang)
				checkTrueCheapest(t, d, lang)
				checkRunnerUp(t, d, lang)
				checkPareto(t, d)
				if lang == i18n.ZH {
					checkChinese(t, d)
				}
			})
		}
	}
}

// TestBudgetVersusSpeed: priority cost puts the cheapest plan first,
// priority time the fastest, each with a reason that is true of it.
func TestBudgetVersusSpeed(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		r := load(t, "distributed-training.yaml")
		r.Limit = 8
		r.Priority = "cost"
		d := seedDoc(t, r, i18n.NewPrinter(lang))
		for _, p := range d.Plans[1:] {
			if p.Cost.Total < d.Plans[0].Cost.Total*0.995 {
				t.Errorf("%s: priority cost ranks %s (%.0f) above the cheaper %s (%.0f)", lang, d.Plans[0].Offer, d.Plans[0].Cost.Total, p.Offer, p.Cost.Total)
			}
		}
		r.Priority = "time"
		d = seedDoc(t, r, i18n.NewPrinter(lang))
		for _, p := range d.Plans[1:] {
			if p.Time.Hours < d.Plans[0].Time.Hours*0.995 {
				t.Errorf("%s: priority time ranks %s (%.1f h) above the faster %s (%.1f h)", lang, d.Plans[0].Offer, d.Plans[0].Time.Hours, p.Offer, p.Time.Hours)
			}
		}
	}
}

// checkTrueCheapest: a plan called the cheapest is the cheapest of all
// plans and of the Pareto front.
func checkTrueCheapest(t *testing.T, d jsonDoc, lang i18n.Lang) {
	t.Helper()
	word := map[i18n.Lang]string{i18n.EN: "the cheapest", i18n.ZH: "最便宜"}[lang]
	top := d.Plans[0]
	s := strings.Join(top.Reasons, "\n")
	claims := strings.Contains(s, word) && !strings.Contains(s, map[i18n.Lang]string{i18n.EN: "is cheaper", i18n.ZH: "更便宜"}[lang]) &&
		!strings.Contains(s, map[i18n.Lang]string{i18n.EN: "the cheapest is", i18n.ZH: "最便宜的是"}[lang])
	if !claims {
		return
	}
	for _, p := range d.Plans {
		if p.Cost.Total < top.Cost.Total*0.9999 {
			t.Errorf("%s is called the cheapest at %.2f, but %s costs %.2f", top.Offer, top.Cost.Total, p.Offer, p.Cost.Total)
		}
	}
	for _, p := range d.Pareto {
		if p.Cost.Total < top.Cost.Total*0.9999 {
			t.Errorf("%s is called the cheapest at %.2f, but the Pareto front has %s at %.2f", top.Offer, top.Cost.Total, p.Offer, p.Cost.Total)
		}
	}
}

// checkPareto: the front has no repeated and no dominated point.
func checkPareto(t *testing.T, d jsonDoc) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range d.Pareto {
		k := p.Offer + "/" + string(rune('0'+p.Count))
		if seen[k] {
			t.Errorf("Pareto front repeats %s", k)
		}
		seen[k] = true
		for _, q := range d.Pareto {
			if p.Time == nil || q.Time == nil {
				continue
			}
			if q.Cost.Total < p.Cost.Total && q.Time.Hours < p.Time.Hours {
				t.Errorf("Pareto point %s is dominated by %s", p.Offer, q.Offer)
			}
		}
	}
}

// checkChinese: the Chinese text holds no English words other than names,
// units, IDs, flags/fields and cited sources.
func checkChinese(t *testing.T, d jsonDoc) {
	t.Helper()
	allowed := map[string]bool{}
	for _, w := range strings.Fields(`GB TFLOPS FLOPs CNY USD EUR JPY token InfiniBand EFA eRDMA RoCE RDMA Windows WeChat Kubernetes ONNX
		TensorRT Young Daly NVLink NVSwitch PCIe xGMI MPI MLPerf gpuscout perf validate mtbi allow_no_rdma multi_node max_gpus min_gpus interruptible allow-no-rdma multi-node max-gpus min-gpus book-quantile allow-likely-miss tco onprem plans.yaml ha interconnect ROCm PyTorch vLLM CUDA Python arm64 aarch64 x86-64 ARM
		fabric infiniband efa none Llama LoRA QLoRA Adam false true cn-mainland bf16 fp16 fp32 fp64 fp8 int8 tf32 Linux GPU NVIDIA AMD`) {
		allowed[strings.ToLower(w)] = true
	}
	token := regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9_.\-]*`)
	addIDs := func(s string) {
		for _, w := range token.FindAllString(s, -1) {
			allowed[strings.ToLower(w)] = true
		}
	}
	for _, p := range d.Plans {
		addIDs(strings.ReplaceAll(p.Offer, "/", " ") + " " + p.GPU + " " + p.Region + " " + p.Residency)
	}
	for _, g := range engine(t).Catalog.GPUs() {
		addIDs(g.ID)
	}
	for _, p := range d.Pareto {
		addIDs(strings.ReplaceAll(p.Offer, "/", " "))
	}
	for _, r := range d.Rejected {
		addIDs(strings.ReplaceAll(r.Offer, "/", " "))
	}
	cite := regexp.MustCompile(`（[^（）]*https?://[^（）]*(\([^()]*\)[^（）]*)*）|https?://\S+|\([^()]*https?://[^()]*\)`)
	letters := regexp.MustCompile(`[A-Za-z]{3,}`)
	var texts []string
	for _, p := range d.Plans {
		texts = append(texts, p.Reasons...)
		texts = append(texts, p.Risks...)
	}
	texts = append(texts, d.Notes...)
	for _, c := range d.Constraints {
		texts = append(texts, c.Constraint)
	}
	for _, s := range texts {
		// The spot risk cites its source (a document reference) verbatim.
		if i := strings.Index(s, "（"); i >= 0 && strings.Contains(s, "spot-advisor") {
			s = s[:i]
		}
		s = cite.ReplaceAllString(s, "")
		for _, w := range token.FindAllString(s, -1) {
			w = strings.TrimRight(w, ".")
			if !letters.MatchString(w) || allowed[strings.ToLower(w)] {
				continue
			}
			// Identifiers with digits (instance types such as g6e.12xlarge) are names, not English.
			if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, ".-_") {
				continue
			}
			if all := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' || r == '.' }); len(all) > 1 && allAllowed(all, allowed) {
				continue
			}
			{
				t.Errorf("English word %q in Chinese output: %s", w, s)
				break
			}
		}
	}
}

func allAllowed(parts []string, allowed map[string]bool) bool {
	for _, p := range parts {
		if !allowed[strings.ToLower(p)] && regexp.MustCompile(`[A-Za-z]{3,}`).MatchString(p) {
			return false
		}
	}
	return true
}

// TestWindowsEcosystemIsPerInstance: ecosystem windows keeps only instance
// types documented to run Windows (not every instance of a provider that
// has some), as os: windows does: the H100 v5 sizes, which the Windows
// driver extension does not list, are rejected at the os stage.
func TestWindowsEcosystemIsPerInstance(t *testing.T) {
	r := recommend.Requirements{Workload: recommend.Workload{GPUHours: 100}, Ecosystem: []string{"windows"}, Providers: []string{"azure"}, Limit: 50}
	d := seedDoc(t, r, en)
	for _, p := range d.Plans {
		if !regexp.MustCompile(`_A10_v5$|V620|^Standard_NC\d+r?s_v3$|_T4_v3$|_A100_v4$|^Standard_NV\d+s_v3$`).MatchString(p.InstanceType) {
			t.Errorf("%s passes ecosystem windows; the evidence covers NVadsA10 v5, NGads V620, NCv3, NCasT4_v3, NC A100 v4 and NVv3 only", p.Offer)
		}
	}
	for _, rj := range d.Rejected {
		if strings.Contains(rj.Offer, "NC80adis_H100_v5") && rj.Stage != "os" {
			t.Errorf("%s rejected at %s, want os", rj.Offer, rj.Stage)
		}
	}
}

// checkRunnerUp: the trade-off sentence about the runner-up is true of it.
func checkRunnerUp(t *testing.T, d jsonDoc, lang i18n.Lang) {
	t.Helper()
	if len(d.Plans) < 2 {
		return
	}
	a, b := d.Plans[0], d.Plans[1]
	prefix := map[i18n.Lang]string{i18n.EN: "The runner-up", i18n.ZH: "第二名"}[lang]
	for _, s := range a.Reasons {
		if !strings.HasPrefix(s, prefix) {
			continue
		}
		cheaper := map[i18n.Lang]string{i18n.EN: "cheaper", i18n.ZH: "便宜"}[lang]
		dearer := map[i18n.Lang]string{i18n.EN: "more", i18n.ZH: "贵"}[lang]
		faster := map[i18n.Lang]string{i18n.EN: "faster", i18n.ZH: "快"}[lang]
		longer := map[i18n.Lang]string{i18n.EN: "longer", i18n.ZH: "耗时多"}[lang]
		if strings.Contains(s, cheaper) && !(b.Cost.Total < a.Cost.Total) {
			t.Errorf("%q but %.2f ≥ %.2f", s, b.Cost.Total, a.Cost.Total)
		}
		if strings.Contains(s, dearer) && !strings.Contains(s, cheaper) && b.Cost.Total < a.Cost.Total {
			t.Errorf("%q but %.2f < %.2f", s, b.Cost.Total, a.Cost.Total)
		}
		if a.Time != nil && b.Time != nil {
			if strings.Contains(s, faster) && !(b.Time.Hours < a.Time.Hours) {
				t.Errorf("%q but %.2f h ≥ %.2f h", s, b.Time.Hours, a.Time.Hours)
			}
			if strings.Contains(s, longer) && !(b.Time.Hours > a.Time.Hours) {
				t.Errorf("%q but %.2f h ≤ %.2f h", s, b.Time.Hours, a.Time.Hours)
			}
		}
		return
	}
	t.Errorf("the first plan has no runner-up sentence")
}
