// Command hello prints one line: the smallest Go program, the start-up
// floor bench/cli.sh compares gpuscout's instant commands with.
package main

import (
	"fmt"
	"os"
)

func main() { fmt.Fprintln(os.Stdout, "hello, world") }
