package deps

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/gpuscout/gpuscout/"

// imports maps each package directory under internal/ (relative to the
// module root, "internal/catalog") to the module packages its non-test
// files import.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		for _, is := range f.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if strings.HasPrefix(p, module) {
				out[rel] = append(out[rel], strings.TrimPrefix(p, module))
			}
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func under(pkg, tree string) bool { return pkg == tree || strings.HasPrefix(pkg, tree+"/") }

// TestImportDirection fails on an import against the rules, naming the
// edge. The one known exception is internal/lineage, the
// generator of lineage rows, which reads the SkyPilot and price-server
// importers' parsers and is to move above them (to internal/lineage, as
// STYLE.md section 5 says); no other edge of it is allowed.
func TestImportDirection(t *testing.T) {
	all := imports(t)
	if len(all) < 20 {
		t.Fatalf("found %d packages: not run from internal/deps?", len(all))
	}
	leaf := []string{"internal/catalog", "internal/csvtext", "internal/fx"}
	engines := []string{"internal/pricing", "internal/perf", "internal/spot", "internal/recommend", "internal/rightsize"}
	storage := []string{"internal/importer", "internal/sqlite", "internal/server", "internal/cli", "internal/web"}
	var bad []string
	pkgs := make([]string, 0, len(all))
	for p := range all {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		for _, imp := range all[pkg] {
			edge := pkg + " -> " + imp
			switch {
			case under(pkg, "internal/catalog"):
				ok := false
				for _, l := range leaf {
					ok = ok || under(imp, l)
				}
				if !ok {
					bad = append(bad, edge+" (the domain imports only catalog, csvtext and fx)")
				}
			case pkg == "internal/importer/httpapi":
				if imp != "internal/importer" {
					bad = append(bad, edge+" (the API client imports only the importer package)")
				}
			case under(pkg, "internal/importer"):
				for _, x := range append([]string{"internal/sqlite", "internal/server", "internal/cli", "internal/web", "internal/document", "internal/lineage"}, engines...) {
					if under(imp, x) {
						bad = append(bad, edge+" (importers never import storage, faces or engines)")
					}
				}
			}
			for _, e := range engines {
				if !under(pkg, e) {
					continue
				}
				for _, x := range storage {
					if under(imp, x) {
						bad = append(bad, edge+" (engines never import importers, storage or faces)")
					}
				}
			}
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
}
