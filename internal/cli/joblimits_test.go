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

// TestServeMetricsFlag: --metrics takes on, off or token, and token needs
// its secret in the environment, not on the command line; --memory-limit
// takes auto, off or a size.
func TestServeMetricsFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--metrics", "maybe", "--addr", "127.0.0.1:0"}, `--metrics "maybe": use on, off or token.`},
		{[]string{"serve", "--metrics", "token", "--addr", "127.0.0.1:0"}, "--metrics token needs the token in $GPUSCOUT_METRICS_TOKEN."},
		{[]string{"serve", "--metrics", "token", "--addr", "127.0.0.1:0", "--lang", "zh"}, "--metrics token 需要在环境变量 $GPUSCOUT_METRICS_TOKEN 中提供令牌。"},
		{[]string{"serve", "--memory-limit", "lots", "--addr", "127.0.0.1:0"}, `--memory-limit "lots": use auto, off or a size such as 512MiB.`},
		{[]string{"serve", "--memory-limit", "-5MiB", "--addr", "127.0.0.1:0", "--lang", "zh"}, `--memory-limit "-5MiB"：请用 auto、off 或 512MiB 这样的大小。`},
	} {
		_, errOut, code := exec(t, false, nil, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errOut)
		}
	}
}
