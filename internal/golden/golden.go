// Package golden compares a test's output with a golden file kept beside
// the test, and rewrites the file when GPUSCOUT_UPDATE_GOLDEN=1 is set
// (one switch for every package: `go test ./... -update` fails in packages
// that define no such flag).
package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// UpdateEnv is the environment variable that rewrites golden files.
const UpdateEnv = "GPUSCOUT_UPDATE_GOLDEN"

// Assert fails t when got differs from the file at path, showing the
// first line that differs; with GPUSCOUT_UPDATE_GOLDEN=1 it writes got to
// path instead.
func Assert(t testing.TB, path, got string) {
	t.Helper()
	if os.Getenv(UpdateEnv) == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (rewrite it with %s=1 go test)", err, UpdateEnv)
	}
	if got == string(want) {
		return
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Errorf("%s: line %d differs (%d lines, want %d)\n got: %q\nwant: %q\n(rewrite it with %s=1 go test if the change is intended)", path, i+1, len(g), len(w), gl, wl, UpdateEnv)
			return
		}
	}
}
