package jobfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/recommend"
	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
)

func TestReadNeeds(t *testing.T) {
	tests := []struct {
		name, yaml string
		check      func(t *testing.T, r recommend.Requirements)
	}{
		{"rdma as a fabric name", "workload: {gpu_hours: 10}\ngpu: {rdma: infiniband, multi_node: true}\n", func(t *testing.T, r recommend.Requirements) {
			if r.Fabric != "infiniband" || r.RDMA {
				t.Errorf("fabric %q rdma %v, want infiniband", r.Fabric, r.RDMA)
			}
		}},
		{"rdma true stays any", "workload: {gpu_hours: 10}\ngpu: {rdma: true}\n", func(t *testing.T, r recommend.Requirements) {
			if !r.RDMA || r.Fabric != "" {
				t.Errorf("rdma %v fabric %q", r.RDMA, r.Fabric)
			}
		}},
		{"fp64 and bf16 kept as written", "workload: {job: {kind: flops, flops: 1e18, precision: FP64}}\n", func(t *testing.T, r recommend.Requirements) {
			if r.Workload.Job.Precision != recommend.FP64 || r.Workload.Precision != "fp64" {
				t.Errorf("precision %q / %q", r.Workload.Job.Precision, r.Workload.Precision)
			}
		}},
		{"inference by requests", "workload:\n  inference: {params: 70e9, qps: 4, input_tokens: 1000, output_tokens: 250, ttft_ms: 2000, tpot_ms: 100, attention_heads: 64}\nhorizon_months: 12\nha: true\nos: windows\nmtbi_hours: 8\n",
			func(t *testing.T, r recommend.Requirements) {
				i := r.Workload.Inference
				if i.QPS != 4 || i.InputTokens != 1000 || i.OutputTokens != 250 || i.TTFTMs != 2000 || i.TPOTMs != 100 || i.Heads != 64 {
					t.Errorf("inference %+v", i)
				}
				if i.OutputRate() != 1000 || !r.HA || r.OS != "windows" || r.MTBIHours != 8 {
					t.Errorf("rate %.0f ha %v os %q mtbi %v", i.OutputRate(), r.HA, r.OS, r.MTBIHours)
				}
			}},
		{"near users by city", "workload: {gpu_hours: 1}\nlocation: {near_users: [Shanghai, CN]}\ngpu: {allow_no_rdma: true}\n", func(t *testing.T, r recommend.Requirements) {
			if strings.Join(r.NearUsers, ",") != "Shanghai,CN" || !r.AllowNoRDMA {
				t.Errorf("near %v allow %v", r.NearUsers, r.AllowNoRDMA)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := jobfile.Read(strings.NewReader(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

// TestReadReservationBudgetAndPlaces: a guaranteed two-week reservation
// with a budget, and users in two places with their loads, read from a
// job file as the flags would set them.
func TestReadReservationBudgetAndPlaces(t *testing.T) {
	r, err := jobfile.Read(strings.NewReader("workload: {cluster_gpus: 8}\nhours: 336\nstart_within_days: 7\nbudget: 20000\nbudget_period: Total\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Hours != 336 || r.StartWithinDays != 7 || r.Budget != 20000 || r.BudgetPeriod != "total" {
		t.Errorf("got hours %v, start within %v, budget %v per %q", r.Hours, r.StartWithinDays, r.Budget, r.BudgetPeriod)
	}
	r, err = jobfile.Read(strings.NewReader("workload: {inference: {params: 8e9, qps: 4, input_tokens: 10, output_tokens: 10}}\nhorizon_months: 12\n" +
		"location:\n  near_users:\n    - {place: Frankfurt, qps: 3}\n    - Virginia=1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.NearUsers, ",") != "Frankfurt=3,Virginia=1" {
		t.Errorf("near users %q", r.NearUsers)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ name, yaml, want string }{
		{"unknown fabric", "workload: {gpu_hours: 1}\ngpu: {rdma: myrinet}\n", `line 2: gpu.rdma: "myrinet" is not a fabric`},
		{"fabrics disagree", "workload: {gpu_hours: 1}\ngpu: {rdma: efa, fabric: infiniband}\n", `gpu.rdma "efa" and gpu.fabric "infiniband" disagree`},
		{"bad fabric field", "workload: {gpu_hours: 1}\ngpu: {fabric: token-ring}\n", `fabric: "token-ring"`},
		{"qps without sizes", "workload: {inference: {params: 7e9, qps: 10}}\n", "qps needs input_tokens and output_tokens"},
		{"fp64 on a transformer", "workload: {job: {kind: transformer-train, params: 1e9, tokens: 1e9, precision: fp64}}\n", "fp64 applies to flops jobs only"},
		{"bad os", "workload: {gpu_hours: 1}\nos: macos\n", `os: "macos": use linux or windows`},
		{"unknown key", "workload: {gpu_hours: 1}\ngpu: {rdma_kind: efa}\n", "rdma_kind"},
		{"budget period", "workload: {gpu_hours: 1}\nbudget: 10\nbudget_period: week\n", `budget_period: "week": use total, month, hour`},
		{"period without budget", "workload: {gpu_hours: 1}\nbudget_period: month\n", "budget_period: needs a budget"},
		{"hours without a cluster", "workload: {gpu_hours: 1}\nhours: 336\n", "hours: holds a cluster"},
		{"guaranteed and interruptible", "workload: {cluster_gpus: 8}\nhours: 24\nstart_within_days: 7\ninterruptible: true\n", "guaranteed capacity excludes interruptions"},
		{"near place without a name", "workload: {inference: {params: 7e9, tokens_per_second: 100}}\nlocation:\n  near_users:\n    - {qps: 3}\n", "line 4: location.near_users: the entry needs a place"},
		{"near place unknown key", "workload: {inference: {params: 7e9, tokens_per_second: 100}}\nlocation:\n  near_users:\n    - {place: Paris, users: 3}\n", `unknown key "users"`},
		{"near loads for some", "workload: {inference: {params: 7e9, tokens_per_second: 100}}\nlocation:\n  near_users: [{place: Paris, tokens_per_second: 60}, Tokyo]\n", "give a load for every location"},
		{"near users not a list", "workload: {gpu_hours: 1}\nlocation: {near_users: Paris}\n", "line 2: location.near_users: use a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := jobfile.Read(strings.NewReader(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// FuzzRead: any input gives requirements that validate, or an error with a
// message; never a panic.
func FuzzRead(f *testing.F) {
	f.Add("workload: {gpu_hours: 10}\ngpu: {rdma: infiniband}\n")
	f.Add("workload: {inference: {params: 7e9, qps: 3, input_tokens: 100, output_tokens: 10, tpot_ms: 50}}\n")
	f.Add("workload: {job: {kind: flops, flops: 1e18, precision: fp64}}\nlocation: {near_users: [Shanghai]}\n")
	f.Add("gpu: {rdma: [1, 2]}\n")
	f.Add("workload: {cluster_gpus: 8}\nhours: 336\nstart_within_days: 7\nbudget: 20000\nbudget_period: total\n")
	f.Add("workload: {inference: {params: 8e9, qps: 4, input_tokens: 10, output_tokens: 10}}\nlocation: {near_users: [{place: Frankfurt, qps: 3}, Virginia=1]}\n")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := jobfile.Read(strings.NewReader(s))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("Read accepted requirements that do not validate: %v", err)
		}
	})
}

// TestExamplesRead: every example job file parses into valid requirements.
func TestExamplesRead(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/*.yaml")
	n := 0
	for _, p := range files {
		if strings.HasSuffix(p, "plans.yaml") || strings.HasSuffix(p, "usage.yaml") {
			continue // plan and usage files, not job files
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jobfile.Read(f); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		f.Close()
		n++
	}
	if n < 5 {
		t.Errorf("only %d example job files found", n)
	}
}

// FuzzReadJob feeds arbitrary bytes to the job-file reader behind
// recommend -f and POST /api/v1/recommend: it must never panic, an error
// says what is wrong, and what it accepts validates and encodes as JSON.
func FuzzReadJob(f *testing.F) {
	files, _ := filepath.Glob("../../../examples/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"workload":{"inference":{"params":7e9,"tokens_per_second":1000}},"currency":"cny"}`))
	f.Add([]byte("workload:\n  job: {kind: transformer-train, params: 7e9, tokens: 1e12, precision: fp8}\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := jobfile.Read(strings.NewReader(string(data)))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if err := req.Validate(); err != nil {
			t.Fatalf("accepted requirements do not validate: %v", err)
		}
		if _, err := json.Marshal(req); err != nil {
			t.Fatalf("accepted requirements do not encode: %v", err)
		}
	})
}

// A job file with a value of the wrong kind names the line and says what
// was expected in words, never a Go type.
func TestWrongKindsInWords(t *testing.T) {
	for in, want := range map[string]string{
		"workload:\n  gpu_hours: many\n":                         "line 2: `many` is not a number",
		"workload:\n  gpu_hours: 3\ngpu:\n  models: H100\n":      "line 4: `H100` is not a list",
		"workload:\n  gpu_hours: 3\ngpu: 5\n":                    "line 3: `5` is not the expected form",
		"workload:\n  gpu_hours: 3\ngpu:\n  multi_node: maybe\n": "line 4: `maybe` is not true or false",
		// A wrong kind under a nested mapping, a field the format lacks
		// (at the top and nested) and a list for the whole file: no Go
		// type names (jobfile.File, struct {...}) reach the reader.
		"name: x\nworkload: 5\n": "line 2: `5` is not the expected form",
		"foo: bar\n":             "line 1: unknown field foo",
		"workload:\n  job: {kind: transformer-train, params: 7e9, tokens: 1e9}\ngpu:\n  model: H1000\n": "line 4: unknown field model",
		"- a\n- b\n": "line 1: a list is not a job description",
	} {
		_, err := jobfile.Read(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", in, err, want)
		}
		if err != nil && (strings.Contains(err.Error(), "float64") || strings.Contains(err.Error(), "struct") || strings.Contains(err.Error(), "[]string") || strings.Contains(err.Error(), "jobfile.") || strings.Contains(err.Error(), "yaml:")) {
			t.Errorf("%q: Go type in %v", in, err)
		}
	}
}

// "Where is the mistake in my job file?" A syntax error is reported on the
// line it is on, counted from 1 as editors count: yaml.v3 numbers its
// parser's errors (unclosed [ or {, a bad tag, a wrong indent) from 0.
func TestSyntaxErrorLines(t *testing.T) {
	for in, want := range map[string]string{
		"workload:\n  job: [transformer-train\n":      "line 2:", // unclosed flow sequence
		"workload: {gpu_hours: 1\nname: x\n":          "line 2:", // where the parser noticed it
		"name: x\nworkload: {gpu_hours: 1\n":          "line 2:",
		"name: x\nworkload: !x!y 1\n":                 "line 2:", // undefined tag handle
		"name: x\nworkload:\n  - 1\n  x: 2\n":         "line 3:", // the block sequence that breaks
		"name: x\nworkload:\n  gpu_hours: 1\n x: 2\n": "line 4:",
		"name: x\nworkload: {gpu_hours: 1}: 2\n":      "line 2:", // scanner errors were right already
	} {
		_, err := jobfile.Read(strings.NewReader(in))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want it to start %q", in, err, want)
		}
	}
}
