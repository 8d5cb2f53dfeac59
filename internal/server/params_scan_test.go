package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestKnownParamsCoverHandlers reads the package's source and checks that
// every query parameter a handler reads by name is in knownParams, so that
// links built from known parameters never lose one a page needs. A name
// counts as read when it is a string argument of a reader (p.str, q.Get,
// num, paramFloat ...) or the key of a table of destinations
// ({"name", &field} or "name": &field).
func TestKnownParamsCoverHandlers(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	readers := map[string]bool{"str": true, "list": true, "int": true, "bool": true, "dec": true, "Get": true, "Has": true,
		"FormValue": true, "float": true, "num": true, "paramFloat": true}
	fset := token.NewFileSet()
	missing := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		check := func(e ast.Expr) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return
			}
			name, err := strconv.Unquote(lit.Value)
			if err != nil || name == "" || strings.IndexFunc(name, unicode.IsUpper) >= 0 || strings.ContainsAny(name, "-./ :") {
				return // a header or something else, not a parameter
			}
			if !knownParams[name] {
				missing[name] = fset.Position(lit.Pos()).String()
			}
		}
		isAddr := func(e ast.Expr) bool {
			u, ok := e.(*ast.UnaryExpr)
			return ok && u.Op == token.AND
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				var name string
				switch f := n.Fun.(type) {
				case *ast.SelectorExpr:
					name = f.Sel.Name
				case *ast.Ident:
					name = f.Name
				}
				if readers[name] {
					for _, a := range n.Args {
						check(a)
					}
				}
			case *ast.CompositeLit:
				if len(n.Elts) >= 2 && isAddr(n.Elts[1]) {
					check(n.Elts[0])
				}
			case *ast.KeyValueExpr:
				if isAddr(n.Value) {
					check(n.Key)
				}
			}
			return true
		})
	}
	var names []string
	for k, pos := range missing {
		names = append(names, k+" ("+pos+")")
	}
	sort.Strings(names)
	if len(names) > 0 {
		t.Errorf("handlers read parameters missing from knownParams (links.go): %s", strings.Join(names, ", "))
	}
}
