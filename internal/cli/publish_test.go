package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublishForReplicas: the update job imports and publishes; a server's
// read of the published snapshot with --db-read-only sees the imported
// price, writes nothing beside it, and refuses imports into it.
func TestPublishForReplicas(t *testing.T) {
	work := filepath.Join(t.TempDir(), "work.db")
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", offerFile, "--db", work); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	shared := t.TempDir()
	snap := filepath.Join(shared, "gpuscout.db")
	if _, errOut, code := exec(t, false, nil, "catalog", "publish", "--db", work, "--to", snap); code != 0 || !strings.Contains(errOut, "published "+snap) {
		t.Fatalf("publish: %d %s", code, errOut)
	}
	out, errOut, code := exec(t, false, nil, "offers", "--gpu", "H100", "--provider", "aws", "--region", "us-east-1", "--db", snap, "--db-read-only", "-o", "json")
	if code != 0 || !strings.Contains(out, `"effective_hourly": 55.04`) {
		t.Fatalf("offers from the published snapshot: %d %s\n%s", code, errOut, out)
	}
	if entries, _ := os.ReadDir(shared); len(entries) != 1 {
		t.Errorf("reading the snapshot left %d files in its directory, want 1", len(entries))
	}
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", offerFile, "--db", snap, "--db-read-only"); code == 0 || !strings.Contains(errOut, "read-only") {
		t.Errorf("import into a read-only snapshot: %d %s", code, errOut)
	}
	if _, errOut, code := exec(t, false, nil, "catalog", "publish", "--db", work); code != 2 || !strings.Contains(errOut, "--to") {
		t.Errorf("publish without --to: %d %s", code, errOut)
	}
	if _, errOut, code := exec(t, false, nil, "catalog", "publish", "--db", work, "--to", filepath.Join(shared, "nope", "x.db")); code != 2 || !strings.Contains(errOut, "does not exist") {
		t.Errorf("publish into a missing directory: %d %s", code, errOut)
	}
}
