package cli_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
)

// BenchmarkStartup runs, in process, the commands bench/cli.sh times as
// processes, on the embedded catalog with no database: what a command
// costs after the process has started.
//
//	go test ./internal/cli -run '^$' -bench Startup -benchmem
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	env := cli.Env{Catalog: curated.Embedded(), Getenv: func(k string) string {
		if k == "HOME" || k == "XDG_DATA_HOME" {
			return dir
		}
		return ""
	}, IsTTY: func() bool { return false }}
	for _, cmd := range []string{"--help", "version", "offers --gpu A100 --limit 20", "offers --gpu A100 --limit 0 -o csv", "recommend --gpu-hours 1000"} {
		b.Run(strings.ReplaceAll(cmd, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var errOut strings.Builder
				if code := cli.Main(context.Background(), strings.Fields(cmd), cli.IO{In: strings.NewReader(""), Out: io.Discard, Err: &errOut}, env); code != 0 {
					b.Fatalf("%s: exit %d\n%s", cmd, code, errOut.String())
				}
			}
		})
	}
}
