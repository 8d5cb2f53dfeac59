package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func testApp(args []string) *app {
	return &app{io: IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}, env: Env{Getenv: func(string) string { return "" }}, args: args}
}

// Each entry of the table of top-level commands builds the command it names.
func TestSubcommandNames(t *testing.T) {
	a := testApp(nil)
	for _, c := range a.subcommands() {
		if got := c.build().Name(); got != c.name {
			t.Errorf("subcommand %q builds %q", c.name, got)
		}
	}
}

// The command the lazy tree builds is the one cobra finds in the whole
// tree for the same arguments; where the name is not found the whole tree
// is built.
func TestLazyTreeFindsTheCommandCobraFinds(t *testing.T) {
	for _, line := range []string{
		"", "offers", "offers --gpu A100 --limit 0 -o csv", "-o json offers --gpu A100", "--output json version", "-ojson version",
		"--lang zh recommend --gpu-hours 1000", "--lang=zh gpus H100", "--db-read-only --db x.db offers", "--fx CNY=7 --fx EUR=0.9 tco",
		"--catalog dir catalog validate", "catalog stats", "--currency CNY spot --gpu H100", "help offers", "--help", "-h offers",
		"--unknown offers version", "-x offers version", "--unknown offers", "-- offers", "nosuch", "offers extra args", "completion bash",
		"__complete offers --g", "--output", "-o", "--lang zh", "version --lang zh", "export terraform --offer x", "serve --addr :0",
	} {
		args := strings.Fields(line)
		full := testApp(nil).rootCmd()
		want := ""
		if cmd, _, err := full.Find(args); err == nil && cmd != full {
			for cmd.Parent() != full {
				cmd = cmd.Parent()
			}
			want = cmd.Name()
		}
		lazy := testApp(args).rootCmd()
		got := ""
		if n := len(lazy.Commands()); n == 1 {
			got = lazy.Commands()[0].Name()
		} else if n != len(full.Commands()) {
			t.Errorf("%q: the lazy tree has %d commands", line, n)
		}
		if got != "" && got != want {
			t.Errorf("%q: the lazy tree built %q, cobra finds %q", line, got, want)
		}
		if got == "" && want != "" && want != "help" && want != "completion" {
			t.Logf("%q: whole tree built for %q", line, want)
		}
	}
}

// Running a command through the lazy tree gives the same answer as through
// the whole tree: help texts and errors included.
func TestLazyTreeAnswersAsTheWholeTree(t *testing.T) {
	for _, line := range []string{"offers --help", "recommend --help", "catalog --help", "version --bogus", "gpus --lang zh --help", "export terraform --help"} {
		args := strings.Fields(line)
		run := func(a *app, root *cobra.Command) string {
			var out, errOut strings.Builder
			root.SetArgs(args)
			root.SetOut(&out)
			root.SetErr(&errOut)
			err := root.Execute()
			return out.String() + "\n--\n" + errOut.String() + "\n--\n" + func() string {
				if err != nil {
					return err.Error()
				}
				return ""
			}()
		}
		a := testApp(args)
		lazy := run(a, a.rootCmd())
		b := testApp(nil)
		whole := run(b, b.rootCmd())
		if lazy != whole {
			t.Errorf("%q: lazy tree gives\n%s\nwhole tree gives\n%s", line, lazy, whole)
		}
	}
}

// The commands that serve, import or write watch for interrupts; those
// that only read and print, and help, do not.
func TestHandlesSignals(t *testing.T) {
	for line, want := range map[string]bool{"": false, "--help": false, "version": false, "--lang zh version": false,
		"offers --gpu A100 --limit 0 -o csv": false, "-o json recommend --gpu-hours 1000": false, "help serve": false,
		"serve": true, "--db x.db serve --addr :0": true, "watch": true, "catalog update": true, "catalog import aws --file f": true,
		"catalog publish --to f.db": true, "export terraform --offer x": true, "health": true, "nosuch": true, "--unknown version": true} {
		if got := HandlesSignals(strings.Fields(line)); got != want {
			t.Errorf("HandlesSignals(%q) = %v, want %v", line, got, want)
		}
	}
	// Every command the table names exists.
	names := map[string]bool{"help": true, "completion": true}
	for _, c := range testApp(nil).subcommands() {
		names[c.name] = true
	}
	for _, n := range []string{"version", "gpus", "instances", "offers", "cost", "tco", "estimate", "perf", "spot", "recommend", "providers", "rightsize"} {
		if !names[n] || HandlesSignals([]string{n}) {
			t.Errorf("%s: not a command, or handles signals", n)
		}
	}
}
