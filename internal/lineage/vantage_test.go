package lineage

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseVantageExcerpt(t *testing.T) {
	f, err := os.Open("testdata/vantage-aws/" + vantageFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e, err := ParseVantageJS(f)
	if err != nil {
		t.Fatal(err)
	}
	if e.LastUpdated != "2026-01-21" {
		t.Errorf("Last updated = %q", e.LastUpdated)
	}
	for _, it := range e.Instances {
		if it.Name == "g4ad.16xlarge" {
			if p := it.Pricing["eu-west-1"]; p.OnDemand != "3.872" || p.Reserved != "2.63817" {
				t.Errorf("g4ad.16xlarge eu-west-1 = %+v, want on-demand 3.872, reserved 2.63817 as the file shows", p)
			}
			return
		}
	}
	t.Error("no g4ad.16xlarge record")
}

func TestParseVantageErrorsNameTheField(t *testing.T) {
	const head = "// Last updated: 2026-01-21\nconst x = "
	for _, tc := range []struct{ doc, want string }{
		{"[]", "assignment"},
		{head + `[{"pricing":{}}];`, "record 0: name"},
		{head + `[{"name":"a.b","pricing":{"us-east-1":{"onDemand":0}}}];`, "a.b: pricing[us-east-1].onDemand"},
		{head + `[{"name":"a.b","pricing":{"us-east-1":{"reserved":-2}}}];`, "a.b: pricing[us-east-1].reserved"},
		{head + `[{"name":"a.b","pricing":{"US East":{}}}];`, "a.b: pricing[\"US East\"]"},
		{head + `[{"name":"a.b"},{"name":"a.b"}];`, "listed twice"},
		{head + `[] x`, "text after the array"},
	} {
		_, err := ParseVantageJS(strings.NewReader(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to name %q", tc.doc, err, tc.want)
		}
	}
}

// TestVantageElsewhereIsOffered requires every key the vantage-aws source
// leaves to another source to be offered by some other offer file, so
// skipping it leaves no gap.
func TestVantageElsewhereIsOffered(t *testing.T) {
	skip, err := readElsewhere(os.DirFS("testdata/vantage-aws"))
	if err != nil {
		t.Fatal(err)
	}
	offered := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dataDir, "offers", "aws*.csv"))
	for _, name := range files {
		if filepath.Base(name) == "aws-vantage.csv" {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs[1:] {
			offered[r[1]+"/"+r[2]+"/"+r[3]] = true
		}
	}
	for k := range skip {
		if !offered[k] {
			t.Errorf("elsewhere.csv leaves %s to another source, but no other AWS offer file has it", k)
		}
	}
}

func FuzzParseVantageJS(f *testing.F) {
	f.Add("// Last updated: 2026-01-21\nconst x = [{\"name\":\"g5.xlarge\",\"pricing\":{\"us-east-1\":{\"onDemand\":1.006,\"reserved\":0.6}}}];\n")
	f.Add("var y = [];")
	f.Fuzz(func(t *testing.T, doc string) {
		e, err := ParseVantageJS(strings.NewReader(doc))
		if err != nil {
			return
		}
		for _, it := range e.Instances {
			if !validToken(it.Name) {
				t.Fatalf("accepted name %q", it.Name)
			}
		}
	})
}
