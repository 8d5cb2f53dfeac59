package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const offerFile = "../importer/aws/testdata/offer-small.json"

func TestImportHistoryDiff(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	out, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", offerFile, "--db", db)
	if code != 0 || !strings.Contains(out, "Imported aws as snapshot 1") || !strings.Contains(out, "Capacity Block") {
		t.Fatalf("import: %d\n%s%s", code, out, errOut)
	}
	raw, _ := os.ReadFile(offerFile)
	second := filepath.Join(dir, "offer2.json")
	os.WriteFile(second, []byte(strings.Replace(string(raw), "55.0400000000", "49.5000000000", 1)), 0o644)
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", second, "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	// The imported price wins over the curated one.
	out, _, _ = exec(t, false, nil, "offers", "--gpu", "H100", "--provider", "aws", "--region", "us-east-1", "--db", db, "-o", "json")
	if !strings.Contains(out, `"effective_hourly": 49.5`) {
		t.Errorf("imported price not in offers:\n%s", out)
	}
	out, _, code = exec(t, false, nil, "catalog", "history", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--db", db, "-o", "json")
	var h struct {
		Schema string `json:"schema"`
		Points []struct {
			Snapshot  int64       `json:"snapshot"`
			Effective json.Number `json:"effective_hourly"`
		} `json:"points"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &h) != nil || h.Schema != "gpuscout/price-history@v1" || len(h.Points) != 3 ||
		h.Points[0].Snapshot != 0 || h.Points[2].Effective.String() != "49.5" {
		t.Errorf("history: %d %s", code, out)
	}
	out, _, code = exec(t, false, nil, "catalog", "diff", "--db", db)
	if code != 0 || !strings.Contains(out, "aws/p5.48xlarge/us-east-1/on-demand  changed") || !strings.Contains(out, "-10.1") {
		t.Errorf("diff: %d\n%s", code, out)
	}
	out, _, _ = exec(t, false, nil, "catalog", "history", "--offer", "aws/p5.48xlarge/us-east-1/on-demand", "--db", db)
	if !strings.Contains(out, "-10.1%") {
		t.Errorf("history chart:\n%s", out)
	}
}

func TestBrokenImportStoresNothing(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", offerFile, "--db", db); code != 0 {
		t.Fatal(errOut)
	}
	raw, _ := os.ReadFile(offerFile)
	trunc := filepath.Join(dir, "trunc.json")
	os.WriteFile(trunc, raw[:len(raw)*2/3], 0o644)
	_, errOut, code := exec(t, false, nil, "catalog", "import", "aws", "--file", trunc, "--db", db)
	if code != 3 || !strings.Contains(errOut, "trunc.json") || !strings.Contains(errOut, "nothing was stored") {
		t.Errorf("truncated import: exit %d\n%s", code, errOut)
	}
	out, _, _ := exec(t, false, nil, "catalog", "snapshots", "--db", db)
	if strings.Count(out, "offer-small.json") != 1 || strings.Contains(out, "trunc") {
		t.Errorf("snapshots after a broken import:\n%s", out)
	}
	for _, args := range [][]string{
		{"catalog", "import", "ftp", "--file", offerFile, "--db", db},
		{"catalog", "import", "aws", "--db", db},
		{"catalog", "history", "--offer", "nope", "--db", db},
		{"catalog", "diff", "--from", "1", "--to", "9", "--db", db},
	} {
		if _, _, code := exec(t, false, nil, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestUpdateFromRecordedSources(t *testing.T) {
	raw, _ := os.ReadFile(offerFile)
	adv, _ := os.ReadFile("../importer/aws/testdata/advisor.json")
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls[r.URL.Path]++
		switch r.URL.Path {
		case "/offers/v1.0/aws/AmazonEC2/current/region_index.json":
			w.Write([]byte(`{"regions":{"us-east-1":{"regionCode":"us-east-1","currentVersionUrl":"/offers/v1.0/aws/AmazonEC2/20261101/us-east-1/index.json"},
				"eu-west-1":{"regionCode":"eu-west-1","currentVersionUrl":"/offers/v1.0/aws/AmazonEC2/20261101/eu-west-1/index.json"}}}`))
		case "/offers/v1.0/aws/AmazonEC2/20261101/us-east-1/index.json":
			if calls[r.URL.Path] == 1 {
				w.WriteHeader(http.StatusTooManyRequests) // rate-limited once
				return
			}
			w.Write(raw)
		case "/advisor.json":
			w.Write(adv)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "g.db")
	env := map[string]string{"GPUSCOUT_AWS_PRICING_URL": srv.URL, "GPUSCOUT_AWS_SPOT_ADVISOR_URL": srv.URL + "/advisor.json"}
	out, errOut, code := exec(t, false, env, "catalog", "update", "--provider", "aws", "--region", "us-east-1", "--db", db)
	if code != 0 || !strings.Contains(out, "Imported aws as snapshot 1") || !strings.Contains(out, "Imported aws-spot-advisor as snapshot 2") {
		t.Fatalf("update: exit %d\n%s%s", code, out, errOut)
	}
	// A region the index lacks is an error before anything is fetched.
	if _, _, code := exec(t, false, env, "catalog", "update", "--provider", "aws", "--region", "mars-1", "--db", db); code == 0 {
		t.Error("unknown region accepted")
	}
}

func TestImportOtherSources(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	for _, args := range [][]string{
		{"catalog", "import", "skypilot", "--cloud", "aws", "--file", "../importer/skypilot/testdata/aws-vms.csv", "--db", db},
		{"catalog", "import", "azure", "--file", "../importer/azure/testdata/page1.json", "--db", db},
		{"catalog", "import", "aws-savings-plans", "--file", "../importer/aws/testdata/savings.csv", "--db", db},
		{"catalog", "import", "aws-spot-advisor", "--file", "../importer/aws/testdata/advisor.json", "--db", db},
	} {
		out, errOut, code := exec(t, false, nil, args...)
		if code != 0 || !strings.Contains(out, "Imported "+args[2]) {
			t.Errorf("%v: exit %d\n%s%s", args[2:4], code, out, errOut)
		}
	}
	if _, errOut, code := exec(t, false, nil, "catalog", "import", "skypilot", "--file", "../importer/skypilot/testdata/lambda-crlf.csv", "--db", db); code != 2 || !strings.Contains(errOut, "--cloud") {
		t.Errorf("skypilot without --cloud: exit %d %s", code, errOut)
	}
	out, _, _ := exec(t, false, nil, "catalog", "snapshots", "--db", db, "-o", "json")
	if strings.Count(out, `"Source"`) != 4 {
		t.Errorf("snapshots:\n%s", out)
	}
}
