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
