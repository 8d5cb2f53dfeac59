package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A GCP file whose every region is unknown would store offers no read
// uses and hide the previous snapshot: the shrink guard counts only usable
// records and refuses it.
func TestShrinkGuardCountsUsableRecordsOnly(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "p.db")
	good := "../importer/gcp/testdata/skus-page1.json"
	if _, errOut, code := exec(t, true, nil, "catalog", "import", "gcp", "--file", good, "--db", db); code != 0 {
		t.Fatalf("first import: exit %d\n%s", code, errOut)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	moved := strings.NewReplacer(`"us-central1"`, `"xx-nowhere1"`, `"us-east1"`, `"xx-nowhere2"`).Replace(string(b))
	bad := filepath.Join(dir, "unknown-regions.json")
	if err := os.WriteFile(bad, []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := exec(t, true, nil, "catalog", "import", "gcp", "--file", bad, "--db", db)
	if code == 0 || !strings.Contains(errOut, "holds 0 usable offers") || !strings.Contains(errOut, "--allow-shrink") {
		t.Errorf("import with every region unknown: exit %d\n%s", code, errOut)
	}
}

// Trailing data after a JSON document refuses the file; a UTF-8 byte order
// mark is accepted by every JSON source.
func TestTrailingDataRefusedAndBOMAccepted(t *testing.T) {
	for _, g := range goodImports {
		if g[0] == "skypilot" || g[0] == "aws-savings-plans" {
			continue
		}
		b, err := os.ReadFile(g[len(g)-1])
		if err != nil {
			t.Fatal(err)
		}
		for name, in := range map[string]string{"trailing": string(b) + "\n{\"x\": 1}\n", "bom": "\xef\xbb\xbf" + string(b)} {
			p := filepath.Join(t.TempDir(), "f.json")
			if err := os.WriteFile(p, []byte(in), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{"catalog", "import"}, g[:len(g)-1]...), p, "--db", filepath.Join(t.TempDir(), "d.db"))
			_, errOut, code := exec(t, true, nil, args...)
			if name == "bom" && code != 0 {
				t.Errorf("%s with a byte order mark: exit %d\n%s", g[0], code, errOut)
			}
			if name == "trailing" && (code == 0 || !strings.Contains(errOut, "nothing was stored")) {
				t.Errorf("%s with trailing data: exit %d\n%s", g[0], code, errOut)
			}
		}
	}
}
