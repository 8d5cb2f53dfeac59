package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeT records failures instead of failing the test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Helper()                        {}
func (f *fakeT) Errorf(string, ...any)          { f.failed = true }
func (f *fakeT) Fatalf(format string, _ ...any) { f.failed, f.msg = true, format }
func (f *fakeT) Fatal(...any)                   { f.failed = true }

// Equal output passes, a change fails, and the update switch rewrites the
// file so that the same output then passes.
func TestAssert(t *testing.T) {
	path := filepath.Join(t.TempDir(), "case", "golden.txt")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &fakeT{TB: t}
	Assert(f, path, "a\nb\n")
	if f.failed {
		t.Error("equal output failed")
	}
	f = &fakeT{TB: t}
	Assert(f, path, "a\nc\n")
	if !f.failed {
		t.Error("a changed line passed")
	}
	t.Setenv(UpdateEnv, "1")
	Assert(&fakeT{TB: t}, path, "a\nc\n")
	t.Setenv(UpdateEnv, "")
	f = &fakeT{TB: t}
	Assert(f, path, "a\nc\n")
	if f.failed {
		t.Error("the rewritten file does not match")
	}
}
