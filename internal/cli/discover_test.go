package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportedNewInstanceTypeIsListed imports a SkyPilot AWS file that
// names a real instance type the curated catalog lacks (g6f.xlarge, 1/8
// of an L4): the type is created from the file's description, its offers
// are listed by offers, instances and recommend-like queries, marked as
// discovered in English and Chinese; a GPU name the catalog does not know
// (M60) is reported with its offer count.
func TestImportedNewInstanceTypeIsListed(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	file := "../importer/skypilot/testdata/aws-new-types.csv"
	out, errOut, code := exec(t, true, nil, "catalog", "import", "skypilot", "--cloud", "aws", "--file", file, "--db", db)
	if code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"aws/g6f.xlarge", `unknown GPU name "M60" of aws (offers: 2, instance types: 1, e.g. aws/g3.4xlarge)`} {
		if !strings.Contains(out, want) {
			t.Errorf("import report lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = exec(t, true, nil, "offers", "--gpu", "L4", "--provider", "aws", "--db", db, "--limit", "200")
	if code != 0 || !strings.Contains(out, "g6f.xlarge †") || !strings.Contains(out, "us-west-2") || !strings.Contains(out, "† discovered by import") {
		t.Fatalf("offers: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "g3.4xlarge") {
		t.Errorf("an instance type with an unresolved GPU is listed:\n%s", out)
	}
	out, _, code = exec(t, true, nil, "--lang", "zh", "instances", "--provider", "aws", "--family", "g6f", "--db", db)
	if code != 0 || !strings.Contains(out, "g6f.xlarge †") || !strings.Contains(out, "由导入发现") || !strings.Contains(out, "1/8× L4") {
		t.Fatalf("instances (zh): exit %d\n%s", code, out)
	}
	out, _, code = exec(t, true, nil, "offers", "--gpu", "L4", "--provider", "aws", "--db", db, "-o", "json", "--limit", "500")
	if code != 0 {
		t.Fatalf("offers json: exit %d", code)
	}
	var doc struct {
		Offers []struct {
			ID string `json:"id"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range doc.Offers {
		found = found || o.ID == "aws/g6f.xlarge/us-east-1/on-demand"
	}
	if !found {
		t.Errorf("offers -o json lacks the discovered type's offer:\n%.2000s", out)
	}
	// Without the database the type is unknown again.
	out, _, _ = exec(t, true, nil, "instances", "--provider", "aws", "--family", "g6f", "--db", filepath.Join(t.TempDir(), "none.db"))
	if strings.Contains(out, "g6f.xlarge") {
		t.Errorf("g6f.xlarge listed without imports:\n%s", out)
	}
	// The report in Chinese and in JSON.
	out, _, code = exec(t, true, nil, "--lang", "zh", "catalog", "import", "skypilot", "--cloud", "aws", "--file", file, "--db", db)
	if code != 0 || !strings.Contains(out, `未知的 GPU 名称 "M60"`) {
		t.Errorf("zh import report:\n%s", out)
	}
	out, _, code = exec(t, true, nil, "catalog", "import", "skypilot", "--cloud", "aws", "--file", file, "--db", db, "-o", "json")
	if code != 0 || !strings.Contains(out, `"gpu_name": "M60"`) || !strings.Contains(out, `"offers": 2`) {
		t.Errorf("json import report:\n%s", out)
	}
}
