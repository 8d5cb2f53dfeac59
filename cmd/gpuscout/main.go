// Command gpuscout compares GPU cloud offers across providers and billing
// models. See `gpuscout --help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/gpuscout/gpuscout/internal/cli"
)

func main() {
	ctx, stop := context.Background(), func() {}
	args := os.Args[1:]
	if cli.HandlesSignals(args) {
		// Commands that serve, import or write stop gracefully on an
		// interrupt; the others (version, offers, recommend, ...) end at
		// once, as a Unix tool does, and start faster without the
		// signal-watching thread.
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	} else {
		// A query's heap stays small and is freed at exit: its first
		// collection can wait (delayFirstCycle).
		_, gogcSet := os.LookupEnv("GOGC")
		delayFirstCycle(gogcSet)
	}
	code := cli.Main(ctx, args, cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, cli.Env{})
	stop()
	os.Exit(code)
}
