package cli_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

// TestNarrowedOffersAnswerAsAll: `offers --gpu X` decodes only the offers
// of X's instance types from the compiled catalog. For every GPU model of
// the embedded catalog, by ID and by family, its answer (table, CSV,
// stderr) must be the bytes of the answer from every offer, which an empty
// --catalog overlay forces (the CSV files are parsed whole). The day is
// late enough for the warning about the newest price's age, which must
// name the newest price of the whole catalog, not of the offers decoded;
// and a GPU a provider does not offer must still name the providers with
// no public price, which needs every offer.
func TestNarrowedOffersAnswerAsAll(t *testing.T) {
	ds, err := curated.Load(curated.Embedded(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := ds.Catalog
	newest := c.NewestAsOf()
	late := newest.AddDate(1, 0, 0)
	empty := t.TempDir()
	names := map[string]bool{}
	olderSubset := 0
	for _, g := range c.GPUs() {
		names[g.ID], names[g.Family] = true, true
		var subset time.Time
		for _, o := range c.Offers() {
			if o.Instance.GPUID == g.ID && o.Source.AsOf.After(subset) {
				subset = o.Source.AsOf
			}
		}
		if subset.Before(newest) {
			olderSubset++
		}
	}
	if olderSubset == 0 {
		t.Fatal("no GPU model whose newest price is older than the catalog's: the warning is not put to the test")
	}
	var cases [][]string
	for n := range names {
		cases = append(cases, []string{"offers", "--gpu", n, "--limit", "0", "-o", "csv"},
			[]string{"offers", "--gpu", n, "--limit", "5", "--lang", "zh"})
	}
	cases = append(cases,
		[]string{"offers", "--gpu", "B200", "--provider", "crusoe", "--provider", "huawei"}, // crusoe has offers, none of B200
		[]string{"offers", "--gpu", "H100,A100", "--cheapest-region", "-o", "json"},
		[]string{"offers", "--gpu", "B200", "--os", "windows"},
	)
	for _, args := range cases {
		name := strings.Join(args, " ")
		got, gotErr, code := runCLI(curated.Embedded(), late, nil, "", args...)
		want, wantErr, wantCode := runCLI(curated.Embedded(), late, nil, "", append([]string{"--catalog", empty}, args...)...)
		if code != wantCode || got != want || gotErr != wantErr {
			t.Errorf("%s: the narrowed load answers differently from every offer\n--- narrowed (exit %d) ---\n%s%s\n--- every offer (exit %d) ---\n%s%s",
				name, code, got, gotErr, wantCode, want, wantErr)
		}
	}
}

// TestNarrowedOffersWithImportsAnswerAsAll: with imported offers (a
// SkyPilot AWS file that overrides curated prices and adds an instance
// type), `offers --gpu X` still answers as the load of every curated
// offer does.
func TestNarrowedOffersWithImportsAnswerAsAll(t *testing.T) {
	db := t.TempDir() + "/g.db"
	if out, errOut, code := exec(t, true, nil, "catalog", "import", "skypilot", "--cloud", "aws", "--file", "../importer/skypilot/testdata/aws-new-types.csv", "--db", db); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	empty := t.TempDir()
	for _, args := range [][]string{
		{"offers", "--gpu", "L4", "--limit", "0", "-o", "csv"},
		{"offers", "--gpu", "L4", "--provider", "aws", "--lang", "zh"},
		{"offers", "--gpu", "A100,T4", "--limit", "0", "-o", "json"},
		{"offers", "--gpu", "B200", "--provider", "crusoe", "--provider", "huawei"},
		{"offers", "--gpu", "M60"},
	} {
		args = append(args, "--db", db)
		name := strings.Join(args, " ")
		got, gotErr, code := exec(t, true, nil, args...)
		want, wantErr, wantCode := exec(t, true, nil, append([]string{"--catalog", empty}, args...)...)
		if code != wantCode || got != want || gotErr != wantErr {
			t.Errorf("%s: the narrowed load answers differently from every offer\n--- narrowed (exit %d) ---\n%s%s\n--- every offer (exit %d) ---\n%s%s",
				name, code, got, gotErr, wantCode, want, wantErr)
		}
	}
}
