package jobfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/recommend/jobfile"
)

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
