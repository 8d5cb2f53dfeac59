// Command initfloor links every package gpuscout's commands link and runs
// none of them: it prints one line after the package initialisers ran.
// bench/cli.sh times it beside gpuscout version, as the floor below which
// no gpuscout command can start (the runtime, then every initialiser of
// the standard library, the SQLite driver and the rest, then main).
package main

import (
	"os"

	_ "github.com/gpuscout/gpuscout/internal/cli" // every command's packages
)

func main() { os.Stdout.WriteString("initialised\n") }
