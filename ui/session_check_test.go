package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// signInFile is the only ui source that touches bench.Service: it signs in (and
// out, and switches between the project file and a team server) and makes the
// one bench.Session every screen works with (issue 28 item 5).
const signInFile = "app.go"

// connectionFiles may read App.db besides app.go: the sign-in form
// (Authenticate, the first lead) and the connection (which server, its clock,
// polling LastChange).
var connectionFiles = map[string]bool{signInFile: true, "signin.go": true, "connect.go": true}

// TestScreensUseTheSession: identity comes from the session the app makes at
// sign-in, not from a person handed to every call. No ui source but app.go calls
// a method As (x.As(user): a Session for someone) or declares a field, parameter
// or result of type bench.Service; screens and their helpers take a
// bench.Session. errors.As is the standard library's, not a Session. Nor does a
// screen read App.db (x.db: a copy of the Service held as a local); only the
// sign-in and connection files do.
func TestScreensUseTheSession(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	bad := scanSessionRules(t, files)
	if len(bad) > 0 {
		t.Errorf("screens must work with the bench.Session the sign-in made (App.sess), not bench.Service:\n%s", strings.Join(bad, "\n"))
	}
}

// TestScreensUseTheSessionSeesViolations: the check finds each kind of breach
// (so that it cannot pass by seeing nothing), and leaves alone what is allowed.
func TestScreensUseTheSessionSeesViolations(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            int
	}{
		{"As on a service", "screen.go", `package ui
func f(u *App) { u.db.As(u.user).Projects(nil) }`, 2},
		{"As on a copy", "screen.go", `package ui
func f(db bench.Service, u *App) { _ = db.As(u.user) }`, 2},
		{"a copy of App.db", "screen.go", `package ui
func f(u *App) string { svc := u.db; return svc.Where() }`, 1},
		{"App.db in a type switch", "screen.go", `package ui
func f(u *App) bool { _, ok := u.db.(interface{ FilesDir() string }); return ok }`, 1},
		{"the connection may read App.db", "connect.go", `package ui
func f(u *App) bool { _, ok := u.db.(interface{ Close() error }); return ok }`, 0},
		{"Service parameter", "screen.go", `package ui
import "github.com/benchwright/benchwright/bench"
func f(db bench.Service, s bench.Session) {}`, 1},
		{"Service result", "screen.go", `package ui
import "github.com/benchwright/benchwright/bench"
func f() bench.Service { return nil }`, 1},
		{"Service field", "screen.go", `package ui
import "github.com/benchwright/benchwright/bench"
type q struct { db bench.Service; n int }`, 1},
		{"Service in a func literal's parameters", "screen.go", `package ui
import "github.com/benchwright/benchwright/bench"
var g = func(svc bench.Service) {}`, 1},
		{"errors.As is not a session", "screen.go", `package ui
import "errors"
func f(err error) bool { var e error; return errors.As(err, &e) }`, 0},
		{"a Session is fine", "screen.go", `package ui
import "github.com/benchwright/benchwright/bench"
type q struct { sess bench.Session }
func f(sess bench.Session, user bench.User) {}`, 0},
		{"the sign-in may", signInFile, `package ui
import "github.com/benchwright/benchwright/bench"
type A struct { db bench.Service }
func (u *A) in(user bench.User) { _ = u.db.As(user) }`, 0},
		{"a test file may", "screen_test.go", `package ui
import "github.com/benchwright/benchwright/bench"
type fake struct { bench.Service }
func (f fake) x(u bench.User) { _ = f.As(u) }`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := scanSessionRules(t, []string{path}); len(got) != tc.want {
				t.Errorf("%d findings, want %d: %q", len(got), tc.want, got)
			}
		})
	}
}

// scanSessionRules returns, for each file of files (test files skipped), where
// it breaks the rules of TestScreensUseTheSession.
func scanSessionRules(t *testing.T, files []string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var bad []string
	for _, name := range files {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") || base == signInFile {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "As" {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "errors" {
					return true
				}
				bad = append(bad, fset.Position(n.Pos()).String()+": "+exprString(n.Fun)+"(…): a Session for someone (use the sign-in's, App.sess)")
			case *ast.SelectorExpr:
				if n.Sel.Name == "db" && !connectionFiles[base] {
					bad = append(bad, fset.Position(n.Pos()).String()+": "+exprString(n)+": the Service (use the sign-in's Session, App.sess, or an App method in app.go)")
				}
			case *ast.Field:
				if isBenchService(n.Type) {
					bad = append(bad, fset.Position(n.Pos()).String()+": a field, parameter or result of type bench.Service (take a bench.Session)")
				}
			}
			return true
		})
	}
	return bad
}

// isBenchService tells whether e is the type bench.Service.
func isBenchService(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Service" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "bench"
}

// withService switches u to svc (a test's fake around the store) as signing in
// to it would: the screens' Session is svc's for the person signed in.
func withService(u *App, svc bench.Service) {
	u.db, u.sess = svc, svc.As(u.user)
}

// signedInAs binds u to user as the sign-in does, without its form or the
// project list it opens next.
func asSignedIn(u *App, user bench.User) {
	u.user, u.account, u.sess = user, user, u.db.As(user)
}
