package remote

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exportedErrs lists the exported Err… variables declared in the non-test files of
// the package in dir, as "pkg.ErrName".
func exportedErrs(t *testing.T, dir, pkg string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if strings.HasPrefix(n.Name, "Err") && n.IsExported() {
						out = append(out, pkg+"."+n.Name)
					}
				}
			}
		}
	}
	return out
}

// Every sentinel error of the contract (store), of verify and of agreement crosses
// the wire: errors.Is holds on a client as on a file (issue 28 item 5; ErrNotMember
// and ErrLastLead were once missing). The table is read from errors.go's source, so
// a sentinel added to a package without a row here fails.
func TestEverySentinelCrossesTheWire(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var table []string // each row's error, as "pkg.Name" ("remote.Name" for this package's own)
	ast.Inspect(file, func(n ast.Node) bool {
		v, ok := n.(*ast.ValueSpec)
		if !ok || len(v.Names) != 1 || v.Names[0].Name != "sentinels" {
			return true
		}
		for _, row := range v.Values[0].(*ast.CompositeLit).Elts {
			switch e := row.(*ast.CompositeLit).Elts[1].(type) {
			case *ast.SelectorExpr:
				table = append(table, e.X.(*ast.Ident).Name+"."+e.Sel.Name)
			case *ast.Ident:
				table = append(table, "remote."+e.Name)
			}
		}
		return false
	})
	if len(table) != len(sentinels) {
		t.Fatalf("read %d rows from errors.go, the table has %d", len(table), len(sentinels))
	}
	for _, pkg := range []string{"store", "verify", "agreement"} {
		for _, e := range exportedErrs(t, filepath.Join("..", pkg), pkg) {
			if !slices.Contains(table, e) {
				t.Errorf("%s is not in remote's sentinels: errors.Is(err, %s) fails through a server", e, e)
			}
		}
	}
	// Codes are unique.
	seen := map[string]bool{}
	for _, s := range sentinels {
		if seen[s.code] {
			t.Errorf("code %q twice", s.code)
		}
		seen[s.code] = true
	}
}
