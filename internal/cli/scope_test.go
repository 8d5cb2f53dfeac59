package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTwoAWSRegionsAreBothRead imports the same AWS offer file as
// us-east-1 and as eu-west-1: both regions' imported prices are listed
// (the second import no longer hides the first, nor is refused as a
// shrink), and rolling back one region's scope leaves the other.
func TestTwoAWSRegionsAreBothRead(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	east := "../importer/aws/testdata/offer-small.json"
	body, err := os.ReadFile(east)
	if err != nil {
		t.Fatal(err)
	}
	west := filepath.Join(dir, "eu-west-1.json")
	wb := strings.ReplaceAll(strings.ReplaceAll(string(body), "us-east-1", "eu-west-1"), "US East (N. Virginia)", "EU (Ireland)")
	if err := os.WriteFile(west, []byte(wb), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{east, west} {
		if out, errOut, code := exec(t, true, nil, "catalog", "import", "aws", "--file", f, "--db", db); code != 0 {
			t.Fatalf("import %s: exit %d\n%s%s", f, code, out, errOut)
		}
	}
	imported := func() map[string]bool {
		out, _, code := exec(t, true, nil, "offers", "--provider", "aws", "--gpu", "H100", "--db", db, "-o", "json", "--limit", "0")
		if code != 0 {
			t.Fatalf("offers: exit %d", code)
		}
		var doc struct {
			Offers []struct {
				ID     string `json:"id"`
				Source struct {
					Ref string `json:"ref"`
				} `json:"source"`
			} `json:"offers"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, o := range doc.Offers {
			if strings.Contains(o.Source.Ref, ".json") && strings.HasPrefix(o.ID, "aws/p5.48xlarge/") && strings.HasSuffix(o.ID, "/on-demand") {
				got[strings.Split(o.ID, "/")[2]] = true
			}
		}
		return got
	}
	if got := imported(); !got["us-east-1"] || !got["eu-west-1"] {
		t.Fatalf("imported p5.48xlarge on-demand prices by region: %v", got)
	}
	out, _, code := exec(t, true, nil, "catalog", "snapshots", "--db", db)
	if code != 0 || !strings.Contains(out, "aws:aws@us-east-1") || !strings.Contains(out, "aws:aws@eu-west-1") {
		t.Fatalf("snapshots:\n%s", out)
	}
	if out, errOut, code := exec(t, true, nil, "catalog", "snapshots", "rollback", "aws:aws@eu-west-1", "--db", db); code != 0 {
		t.Fatalf("rollback: exit %d\n%s%s", code, out, errOut)
	}
	if got := imported(); !got["us-east-1"] || got["eu-west-1"] {
		t.Fatalf("after rolling back eu-west-1: %v", got)
	}
}
