package lineage

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// How much of the catalog is rebuilt by code from kept excerpts, and how
// many prices are undated? At least 80% of the offers come from a
// generated file, and fewer than 100 prices are undated.
// go test ./internal/catalog/lineage/ -run TestGeneratedShare -v prints
// the counts.
func TestGeneratedShare(t *testing.T) {
	generated := map[string]bool{}
	for _, src := range Sources() {
		generated[src.Output] = true
	}
	files, err := filepath.Glob(filepath.Join(dataDir, "offers", "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var all, byCode, undated int
	hand := map[string]int{}
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		asOf := -1
		for i, h := range recs[0] {
			if h == "as_of" {
				asOf = i
			}
		}
		rows := len(recs) - 1
		all += rows
		rel := "offers/" + filepath.Base(path)
		if generated[rel] {
			byCode += rows
		} else {
			hand[strings.TrimSuffix(filepath.Base(path), ".csv")] += rows
		}
		for _, r := range recs[1:] {
			if asOf < 0 || r[asOf] == "" {
				undated++
			}
		}
	}
	t.Logf("offers: %d; from code (kept excerpts): %d (%.1f%%); typed by hand: %d %v; undated: %d",
		all, byCode, 100*float64(byCode)/float64(all), all-byCode, hand, undated)
	if 5*byCode < 4*all {
		t.Errorf("%d of %d offers come from code, want at least 80%%", byCode, all)
	}
	if undated >= 100 {
		t.Errorf("%d undated prices, want fewer than 100", undated)
	}
}
