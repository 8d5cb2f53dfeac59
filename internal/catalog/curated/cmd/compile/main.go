// Command compile writes the compiled form of the embedded catalog
// (internal/catalog/curated/compiled.bin) from its CSV files: run it after
// editing them, through `make catalog` or `go generate
// ./internal/catalog/curated`. It fails, naming file, line and field, when
// the CSV files do not validate.
//
//	go run ./internal/catalog/curated/cmd/compile [-dir internal/catalog/curated]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuscout/gpuscout/internal/catalog/curated"
)

func main() {
	dir := flag.String("dir", ".", "the directory of package curated (holding data/ and "+curated.CompiledFile+")")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintf(os.Stderr, "compile: %v\n", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "data", "providers.csv")); err != nil && dir == "." {
		// Run from the repository root (make catalog) rather than by go generate.
		dir = filepath.Join("internal", "catalog", "curated")
	}
	b, err := curated.Compile(os.DirFS(filepath.Join(dir, "data")))
	if err != nil {
		return err
	}
	out := filepath.Join(dir, curated.CompiledFile)
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes)\n", out, len(b))
	return nil
}
