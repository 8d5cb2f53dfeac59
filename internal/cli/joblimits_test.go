package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecommendRefusesHostileJobFile (issue 25 item 4): recommend -f with
// a 90,000-key job file is refused before decoding, naming the file and the
// limit in the user's language.
func TestRecommendRefusesHostileJobFile(t *testing.T) {
	var b strings.Builder
	for i := range 90000 {
		fmt.Fprintf(&b, "k%d: 1\n", i)
	}
	file := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": file + ": The job description is over 65536 bytes", "zh": file + "：作业描述超过 65536 字节"} {
		_, errOut, code := exec(t, false, nil, "recommend", "-f", file, "--lang", lang)
		if code != 3 || !strings.Contains(errOut, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 3 and %q", lang, code, errOut, want)
		}
	}
}
