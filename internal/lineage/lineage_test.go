package lineage

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated catalog files from the kept excerpts")

// dataDir is the curated catalog's data directory, relative to this package.
const dataDir = "../catalog/curated/data"

// TestGeneratedFilesAreCurrent regenerates every source's rows from its kept
// excerpt and requires the curated file to equal them byte for byte, so no
// derived price can drift from the file it cites.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for _, src := range Sources() {
		t.Run(src.Name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join("testdata", src.Name, "SOURCE.md")); err != nil {
				t.Fatalf("testdata/%s/SOURCE.md: every excerpt says where it came from: %v", src.Name, err)
			}
			got, err := Render(src, os.DirFS(filepath.Join("testdata", src.Name)))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dataDir, src.Output)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run make catalog)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w []byte
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if !bytes.Equal(g, w) {
						t.Fatalf("%s line %d differs from a fresh generation (run make catalog):\n file: %s\n  gen: %s", src.Output, i+1, w, g)
					}
				}
			}
		})
	}
}

// TestOutputsAreDistinct keeps two sources from writing one file.
func TestOutputsAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, src := range Sources() {
		if other, ok := seen[src.Output]; ok {
			t.Errorf("%s and %s both write %s", other, src.Name, src.Output)
		}
		seen[src.Output] = src.Name
		if seen[src.Name+"\x00"] != "" {
			t.Errorf("two sources are named %s", src.Name)
		}
		seen[src.Name+"\x00"] = src.Name
	}
}
