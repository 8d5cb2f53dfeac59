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
	_, gogcSet := os.LookupEnv("GOGC")
	delayFirstCycle(gogcSet)
	ctx, stop := context.Background(), func() {}
	if args := os.Args[1:]; cli.HandlesSignals(args) {
		// Commands that serve, import or write stop gracefully on an
		// interrupt; the others (version, offers, recommend, ...) end at
		// once, as a Unix tool does, and start faster without the
		// signal-watching thread.
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	}
	code := cli.Main(ctx, os.Args[1:], cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, cli.Env{})
	stop()
	os.Exit(code)
}
