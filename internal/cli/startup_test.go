package cli_test

import (
	"strings"
	"testing"
)

// TestCompiledCatalogAnswersAsTheCSVFiles runs commands on the embedded
// catalog, which is decoded from its compiled form (and, for version, only
// its price dates), and again with an empty --catalog overlay, which parses
// and validates the embedded CSV files: the answers must be the same bytes.
func TestCompiledCatalogAnswersAsTheCSVFiles(t *testing.T) {
	empty := t.TempDir()
	for _, args := range [][]string{
		{"version"},
		{"version", "-o", "json"},
		{"version", "--lang", "zh"},
		{"offers", "--gpu", "A100", "--limit", "20"},
		{"offers", "--gpu", "H100", "--min-gpus", "8", "--per", "gpu-hour", "--sort", "gpu-price", "-o", "json"},
		{"offers", "--residency", "cn-mainland", "--currency", "CNY", "--lang", "zh", "--limit", "50"},
		{"recommend", "--gpu-hours", "1000"},
		{"catalog", "stats", "-o", "json"},
		{"gpus", "-o", "csv"},
		{"instances", "--gpu", "L40S", "-o", "csv"},
		{"catalog", "validate"},
		{"tco", "--months", "36", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--onprem", "H100"},
	} {
		name := strings.Join(args, " ")
		got, gotErr, code := exec(t, true, nil, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, gotErr)
		}
		want, wantErr, code := exec(t, true, nil, append([]string{"--catalog", empty}, args...)...)
		if code != 0 {
			t.Fatalf("%s --catalog %s: exit %d: %s", name, empty, code, wantErr)
		}
		if got != want || gotErr != wantErr {
			t.Errorf("%s: the compiled catalog answers differently from the CSV files\n--- compiled ---\n%s%s\n--- CSV ---\n%s%s", name, got, gotErr, want, wantErr)
		}
	}
}
