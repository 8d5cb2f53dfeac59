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
// generated file, and no more prices are undated than maxUndated.
// go test ./internal/lineage/ -run TestGeneratedShare -v prints
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
	if undated > maxUndated {
		t.Errorf("%d undated prices, want at most %d", undated, maxUndated)
	}
}

// maxUndated is the most undated prices the catalog may hold: 352 on
// 2026-12-05; 154 on 2026-12-06 after the Lambda price list became one row
// per type, RunPod's pods were dated by the page copy and the Paperspace
// rows were dropped. The rest have no dated source that could be reached:
// 64 AWS spot zone prices, 32 Vast marketplace offers and 20 Nebius, 12
// Hyperstack, 12 Lambda, 12 Verda and 2 RunPod rows from SkyPilot files
// whose commit dates could not be read; a live import dates them.
const maxUndated = 154
