package i18n

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template/parse"
)

// keyHelper is a function that takes a message key and its arguments:
// the key is argument key, the message's arguments start at argument args.
type keyHelper struct{ key, args int }

// keyHelpers are the module's (key, args...) functions by name. A name
// called both as a method and as a plain function with different shapes
// is listed twice: "." marks the method form.
var keyHelpers = map[string]keyHelper{
	"T":        {0, 1}, // (*Printer).T
	"M":        {0, 1}, // i18n.M
	".say":     {0, 1}, // pricing (*BreakEven).say
	".add":     {1, 2}, // recommend (*run).add(pl, key, args...)
	"add":      {0, 1}, // recommend explain's closures add(key, args...)
	"risk":     {0, 1}, // recommend explain's closure risk(key, args...)
	".reject":  {2, 3}, // recommend (*run).reject(o, stage, key, args...)
	"inputMsg": {2, 3}, // document inputMsg(field, hint, key, args...)
	".bad":     {2, 3}, // rightsize (*ParseReport).bad(line, text, key, args...)
	"fail":     {2, 4}, // server rightsize page fail(status, field, key, detail, args...)
}

// verbs is the number of arguments a format consumes: the highest
// argument it reads, counting explicit %[n] indexes, not %%. It also
// returns each argument's verb, to compare languages.
func verbs(format string) (int, map[int]byte) {
	used := map[int]byte{}
	n, highest := 0, 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		read := func() {
			if i < len(format) && format[i] == '[' {
				end := strings.IndexByte(format[i:], ']')
				if end > 0 {
					if k, err := strconv.Atoi(format[i+1 : i+end]); err == nil {
						n = k - 1
					}
					i += end + 1
				}
			}
		}
		read()
		for i < len(format) && (format[i] >= '0' && format[i] <= '9' || format[i] == '.' || format[i] == '*') {
			if format[i] == '*' {
				n++
			}
			i++
		}
		read()
		if i >= len(format) {
			break
		}
		used[n] = format[i]
		n++
		if n > highest {
			highest = n
		}
	}
	return highest, used
}

// moduleRoot is the directory holding go.mod above the test's directory.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

// TestCallArity parses every non-test Go file of the module and, for each
// call of a (key, args...) helper with a literal key, requires the number
// of arguments to equal the verbs of the English message and of the
// Chinese one, with the same verb for each argument: a message called
// with one argument too many prints "%!(EXTRA …)", one too few
// "%!v(MISSING)". Keys built at run time are listed, not checked.
func TestCallArity(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	calls, dynamic := 0, map[string]bool{}
	var problems []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "testdata", "vendor", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		// locals maps a variable of the function being read to the
		// literal keys assigned to it (nil once anything else is), so
		// that key := "a"; if … { key = "b" }; p.T(key, x) checks both.
		var locals map[string][]string
		ast.Inspect(file, func(n ast.Node) bool {
			if fn, ok := n.(*ast.FuncDecl); ok {
				locals = literalAssigns(fn)
				return true
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				name = f.Sel.Name
				if x, ok := f.X.(*ast.Ident); ok && x.Name == "i18n" {
					break // i18n.M is a function, not a method
				}
				if _, ok := keyHelpers["."+name]; ok {
					name = "." + name
				}
			case *ast.Ident:
				name = f.Name
			}
			h, ok := keyHelpers[name]
			if !ok || len(call.Args) <= h.key {
				return true
			}
			where := fset.Position(call.Pos())
			rel, _ := filepath.Rel(root, where.Filename)
			at := rel + ":" + strconv.Itoa(where.Line)
			var keys []string
			switch k := call.Args[h.key].(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(k.Value); err == nil && k.Kind == token.STRING {
					keys = []string{s}
				}
			case *ast.Ident:
				keys = locals[k.Name]
			}
			if len(keys) == 0 {
				dynamic[at] = true
				return true
			}
			for _, key := range keys {
				en, okEN := lookup(EN, key)
				zh, okZH := lookup(ZH, key)
				if !okEN || !okZH {
					continue // not a message key (another function of the same name)
				}
				if call.Ellipsis.IsValid() {
					dynamic[at] = true
					continue
				}
				calls++
				args := len(call.Args) - h.args
				if args < 0 {
					args = 0
				}
				nEN, vEN := verbs(en)
				nZH, vZH := verbs(zh)
				if args != nEN || args != nZH {
					problems = append(problems, at+": "+key+" called with "+strconv.Itoa(args)+" arguments; en reads "+strconv.Itoa(nEN)+", zh "+strconv.Itoa(nZH))
					continue
				}
				for i, v := range vEN {
					if vZH[i] != v {
						problems = append(problems, at+": "+key+": argument "+strconv.Itoa(i+1)+" is %"+string(v)+" in en, %"+string(vZH[i])+" in zh")
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Error(p)
	}
	if calls < 500 {
		t.Errorf("checked only %d calls: the helper list no longer matches the code", calls)
	}
	t.Logf("%d calls checked, %d with a key or arguments built at run time", calls, len(dynamic))
}

// literalAssigns maps each variable of fn that is only ever assigned
// string literals to those literals.
func literalAssigns(fn *ast.FuncDecl) map[string][]string {
	out, other := map[string][]string{}, map[string]bool{}
	set := func(lhs, rhs ast.Expr) {
		id, ok := lhs.(*ast.Ident)
		if !ok {
			return
		}
		if lit, ok := rhs.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out[id.Name] = append(out[id.Name], s)
				return
			}
		}
		other[id.Name] = true
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					set(n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i := range n.Names {
					set(n.Names[i], n.Values[i])
				}
			}
		}
		return true
	})
	for name := range other {
		delete(out, name)
	}
	return out
}

// TestVerbs pins the verb counter the arity test relies on.
func TestVerbs(t *testing.T) {
	for _, tt := range []struct {
		format string
		want   int
	}{
		{"plain", 0},
		{"100%% sure", 0},
		{"%d of %d", 2},
		{"共 %[2]d 条，显示 %[1]d 条", 2},
		{"%.1f%% at %s", 2},
		{"%[1]s and %[1]s", 1},
		{"%-8s|%5.2f", 2},
		{"50% of", 1}, // a bare percent is a verb: write %%
	} {
		if got, _ := verbs(tt.format); got != tt.want {
			t.Errorf("verbs(%q) = %d, want %d", tt.format, got, tt.want)
		}
	}
}

// TestTemplateArity is TestCallArity over the web templates: every
// {{$p.T "key" args…}} passes as many arguments as the message's verbs in
// both languages, and {{$p.Format "key"}} (a format a script fills in)
// passes none.
func TestTemplateArity(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "internal", "web", "templates")
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates in %s: %v", dir, err)
	}
	calls := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr := parse.New(filepath.Base(f))
		tr.Mode = parse.SkipFuncCheck
		trees := map[string]*parse.Tree{}
		if _, err := tr.Parse(string(src), "{{", "}}", trees); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tree := range trees {
			walkTemplate(tree.Root, func(cmd *parse.CommandNode) {
				if len(cmd.Args) < 2 {
					return
				}
				var method string
				switch fn := cmd.Args[0].(type) {
				case *parse.VariableNode:
					method = fn.Ident[len(fn.Ident)-1]
				case *parse.FieldNode:
					method = fn.Ident[len(fn.Ident)-1]
				case *parse.ChainNode:
					method = fn.Field[len(fn.Field)-1]
				}
				if method != "T" && method != "Format" {
					return
				}
				key, ok := cmd.Args[1].(*parse.StringNode)
				if !ok {
					return // a key built in the template: messages without arguments
				}
				en, okEN := lookup(EN, key.Text)
				zh, okZH := lookup(ZH, key.Text)
				at := filepath.Base(f) + ": " + key.Text
				if !okEN || !okZH {
					t.Errorf("%s: no such message", at)
					return
				}
				calls++
				args := len(cmd.Args) - 2
				nEN, _ := verbs(en)
				nZH, _ := verbs(zh)
				switch {
				case method == "Format" && args != 0:
					t.Errorf("%s: Format takes no arguments", at)
				case method == "T" && (args != nEN || args != nZH):
					t.Errorf("%s: called with %d arguments; en reads %d, zh %d (a script's format: use Format)", at, args, nEN, nZH)
				}
			})
		}
	}
	if calls < 100 {
		t.Errorf("checked only %d template calls", calls)
	}
}

// walkTemplate calls fn on every command of a template's tree.
func walkTemplate(n parse.Node, fn func(*parse.CommandNode)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walkTemplate(c, fn)
			}
		}
	case *parse.ActionNode:
		walkTemplate(n.Pipe, fn)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walkTemplate(c, fn)
			}
		}
	case *parse.CommandNode:
		fn(n)
		for _, a := range n.Args {
			walkTemplate(a, fn)
		}
	case *parse.IfNode:
		walkTemplate(n.Pipe, fn)
		walkTemplate(n.List, fn)
		walkTemplate(n.ElseList, fn)
	case *parse.RangeNode:
		walkTemplate(n.Pipe, fn)
		walkTemplate(n.List, fn)
		walkTemplate(n.ElseList, fn)
	case *parse.WithNode:
		walkTemplate(n.Pipe, fn)
		walkTemplate(n.List, fn)
		walkTemplate(n.ElseList, fn)
	case *parse.TemplateNode:
		walkTemplate(n.Pipe, fn)
	}
}

// TestVariantsReadTheSameArguments: a variant (the web's "form."+key
// wording, which Printer.Variant renders in the key's place) reads the
// same arguments, with the same verbs, as its key in both languages.
func TestVariantsReadTheSameArguments(t *testing.T) {
	n := 0
	for _, k := range Keys(EN) {
		base, ok := strings.CutPrefix(k, "form.")
		if !ok {
			continue
		}
		for _, l := range []Lang{EN, ZH} {
			b, ok := lookup(l, base)
			if !ok {
				t.Errorf("%s: a variant of no message", k)
				continue
			}
			v, _ := lookup(l, k)
			nb, vb := verbs(b)
			nv, vv := verbs(v)
			if nb != nv || fmt.Sprint(vb) != fmt.Sprint(vv) {
				t.Errorf("%s %s reads %d arguments %v; its variant %s reads %d %v", l, base, nb, vb, k, nv, vv)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d variants checked", n)
	}
}
