package cli_test

import (
	"context"
	"io"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
	"github.com/gpuscout/gpuscout/internal/cli"
)

// BenchmarkBigImport runs cold commands in process against a database
// holding 100,000 imported offers (bench/genvms's synthetic SkyPilot AWS
// file, every instance type discovered by import) and against none: what
// bench/big-import.sh times as processes, without the process start and
// with allocations counted.
//
//	go test ./internal/cli -run '^$' -bench BigImport -benchtime 10x -benchmem
func BenchmarkBigImport(b *testing.B) {
	dir := b.TempDir()
	vms := filepath.Join(dir, "vms.csv")
	if out, err := osexec.Command("go", "run", "../../bench/genvms", "-o", vms, "-offers", strconv.Itoa(100000)).CombinedOutput(); err != nil {
		b.Fatalf("genvms: %v\n%s", err, out)
	}
	env := cli.Env{Catalog: curated.Embedded(), Getenv: func(string) string { return "" }, IsTTY: func() bool { return false }}
	run := func(b *testing.B, args ...string) {
		var errOut strings.Builder
		if code := cli.Main(context.Background(), args, cli.IO{In: strings.NewReader(""), Out: io.Discard, Err: &errOut}, env); code != 0 {
			b.Fatalf("%v: exit %d\n%s", args, code, errOut.String())
		}
	}
	big := filepath.Join(dir, "big.db")
	run(b, "--db", big, "catalog", "import", "skypilot", "--cloud", "aws", "--file", vms)
	for _, db := range []struct{ name, path string }{{"none", filepath.Join(dir, "none.db")}, {"100k", big}} {
		for _, cmd := range []struct{ name, args string }{
			{"offers", "offers --gpu A100 --limit 20"},
			{"recommend", "recommend -f ../../examples/distributed-training.yaml"},
		} {
			b.Run(cmd.name+"/"+db.name, func(b *testing.B) {
				args := append([]string{"--db", db.path}, strings.Fields(cmd.args)...)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					run(b, args...)
				}
			})
		}
	}
}
