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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}, cli.Env{})
	stop()
	os.Exit(code)
}
