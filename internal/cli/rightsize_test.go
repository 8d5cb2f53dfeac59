package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The rightsize fixtures (generated logs and a catalog overlay with the
// AWS g5, g6e and p5.4xlarge rows of the embedded catalog) live with the
// rightsize package.
const (
	rsData    = "../rightsize/testdata/"
	rsCatalog = rsData + "catalog"
)

func TestRightsizeGolden(t *testing.T) {
	en := map[string]string{"LANG": "en_US.UTF-8"}
	tests := []struct {
		name string
		args []string
	}{
		// 2 of 8 L40S busy: the 4-GPU g6e, or a 1-year reservation.
		{"rightsize-two-of-eight.txt", []string{"--metrics", rsData + "two-of-eight-l40s.csv", "--offer", "aws/g6e.48xlarge/us-east-1/on-demand"}},
		// Busy 09:00–18:00 on a 1-year reservation: on-demand for those hours.
		{"rightsize-idle-nights.json", []string{"--metrics", rsData + "idle-nights-8xa100.csv.gz", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront", "-o", "json"}},
		{"rightsize-idle-nights.txt", []string{"--metrics", rsData + "idle-nights-8xa100.csv.gz", "--offer", "aws/p4d.24xlarge/us-east-1/reserved-1y-no-upfront"}},
		// Bursty inference holding 20 GiB of an H100 (headerless CSV): the bursts on demand, or a 48 GB L40S.
		{"rightsize-bursty.txt", []string{"--metrics", rsData + "bursty-h100-noheader.csv.gz", "--offer", "aws/p5.4xlarge/us-east-1/on-demand"}},
		// DCGM scrapes with malformed lines, in CNY.
		{"rightsize-dcgm-cny.txt", []string{"--metrics", rsData + "steady-8xa100-malformed.prom.gz", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "--currency", "CNY"}},
		{"rightsize-dcgm.json", []string{"--metrics", rsData + "steady-8xa100-malformed.prom.gz", "--offer", "aws/p4d.24xlarge/us-east-1/on-demand", "-o", "json"}},
		{"rightsize-bursty.md", []string{"--metrics", rsData + "bursty-h100-noheader.csv.gz", "--offer", "aws/p5.4xlarge/us-east-1/on-demand", "-o", "markdown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"rightsize", "--catalog", rsCatalog}, tt.args...)
			out, errOut, code := exec(t, false, en, args...)
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errOut)
			}
			if strings.HasSuffix(tt.name, ".json") {
				out = canonicalJSON(t, out)
			}
			golden(t, tt.name, out)
		})
	}
}

// rsExecIn runs gpuscout on the test catalog with stdin.
func rsExecIn(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runCLI(os.DirFS("testdata/catalog"), now, nil, stdin, args...)
}

func TestRightsizeReadsStdin(t *testing.T) {
	data, err := os.ReadFile(rsData + "two-of-eight-l40s.csv")
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := rsExecIn(t, string(data), "rightsize", "--catalog", rsCatalog, "--metrics", "-", "--offer", "aws/g6e.48xlarge/us-east-1/on-demand", "-o", "csv")
	if code != 0 || !strings.Contains(out, "fewer-gpus,Move to aws/g6e.12xlarge/us-east-1/on-demand") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

func TestRightsizeErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.csv")
	os.WriteFile(garbage, []byte("timestamp, index, utilization.gpu [%]\nnot, a, row, at, all\n2026/11/30 10:00:00, 0, lots\n"), 0o644)
	empty := filepath.Join(dir, "empty.csv")
	os.WriteFile(empty, nil, 0o644)
	offer := "aws/p4d.24xlarge/us-east-1/on-demand"
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"no metrics", []string{"--offer", offer}, 2, []string{"--metrics is required"}},
		{"no offer", []string{"--metrics", garbage}, 2, []string{"--offer is required"}},
		{"missing file", []string{"--metrics", filepath.Join(dir, "nope.csv"), "--offer", offer}, 2, []string{"--metrics", "no such file"}},
		{"unknown offer", []string{"--metrics", garbage, "--offer", "aws/p4d.24xlarge/us-east-1/ondemand"}, 2, []string{"did you mean aws/p4d.24xlarge/us-east-1/on-demand"}},
		{"nothing parses", []string{"--metrics", garbage, "--offer", offer}, 3, []string{garbage + ": no GPU samples could be read (nvidia-smi CSV, 3 lines); first bad line 2: 5 fields where the columns are 3"}},
		{"empty file", []string{"--metrics", empty, "--offer", offer}, 3, []string{"empty.csv: no GPU samples could be read: the file is empty"}},
		{"bad format", []string{"--metrics", garbage, "--offer", offer, "--format", "xml"}, 2, []string{"unknown metrics format"}},
		{"bad columns", []string{"--metrics", garbage, "--offer", offer, "--columns", "index,power.draw"}, 2, []string{`unknown nvidia-smi column "power.draw"`}},
		{"negative interval", []string{"--metrics", garbage, "--offer", offer, "--interval", "-1s"}, 2, []string{"--interval must not be negative"}},
		{"bad headroom", []string{"--metrics", garbage, "--offer", offer, "--headroom", "0.5"}, 2, []string{"--headroom must be between 1 and 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := exec(t, false, nil, append([]string{"rightsize", "--catalog", rsCatalog}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, errOut)
				}
			}
		})
	}
}
