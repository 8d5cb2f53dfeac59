// Command catalog-gen rewrites the curated offer files that are generated
// from kept excerpts of machine-readable third-party files (see package
// lineage). Run it from the repository root: `make catalog`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gpuscout/gpuscout/internal/lineage"
)

func main() {
	if err := run("internal/lineage/testdata", "internal/catalog/curated/data"); err != nil {
		fmt.Fprintln(os.Stderr, "catalog-gen:", err)
		os.Exit(1)
	}
}

func run(excerpts, data string) error {
	for _, src := range lineage.Sources() {
		b, err := lineage.Render(src, os.DirFS(filepath.Join(excerpts, src.Name)))
		if err != nil {
			return err
		}
		out := filepath.Join(data, src.Output)
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", out, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %s\n", src.Name, out)
	}
	return nil
}
