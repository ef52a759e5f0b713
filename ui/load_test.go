package ui

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// TestLoad: a load's result reaches its screen unless a newer load of the same
// slot started meanwhile, whichever finishes first; a load running past busyAfter
// shows the status bar's busy mark until it ends, and one that ends sooner never
// shows it.
func TestLoad(t *testing.T) {
	test.NewTempApp(t)
	var pending []func()
	var timers []func()
	stopped := 0
	inBackground = func(f func()) { pending = append(pending, f) }
	afterBusy = func(_ time.Duration, f func()) func() bool {
		timers = append(timers, f)
		n := len(timers) - 1
		return func() bool { stopped++; timers[n] = nil; return true }
	}
	t.Cleanup(func() {
		inBackground = func(f func()) { f() }
		afterBusy = func(time.Duration, func()) func() bool { return func() bool { return true } }
	})
	run := func(i int) { f := pending[i]; pending[i] = nil; f() }

	tests := []struct {
		name  string
		slots []string // one load each, in order
		order []int    // the order their runs end
		want  []string // what was shown, in order
	}{
		{"one load", []string{"samples"}, []int{0}, []string{"0"}},
		{"a newer load of the slot wins, ending last", []string{"samples", "samples"}, []int{0, 1}, []string{"1"}},
		{"a newer load of the slot wins, ending first", []string{"samples", "samples"}, []int{1, 0}, []string{"1"}},
		{"other slots keep theirs", []string{"samples", "queue"}, []int{1, 0}, []string{"1", "0"}},
		{"no slot: every result shows", []string{"", ""}, []int{1, 0}, []string{"1", "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := &App{}
			pending, timers = nil, nil
			var shown []string
			for i, slot := range tt.slots {
				load(u, slot, func() (int, error) { return i, nil }, func(v int, err error) {
					shown = append(shown, string(rune('0'+v)))
				})
			}
			for _, i := range tt.order {
				run(i)
			}
			if !slices.Equal(shown, tt.want) {
				t.Errorf("shown %v, want %v", shown, tt.want)
			}
		})
	}

	t.Run("busy mark", func(t *testing.T) {
		u := &App{}
		pending, timers = nil, nil
		mark := u.busyMark()
		var got error
		load(u, "dashboard", func() (int, error) { return 0, errors.New("the server is away") }, func(_ int, err error) { got = err })
		load(u, "queue", func() (int, error) { return 0, nil }, func(int, error) {})
		if mark.Visible() {
			t.Fatal("the busy mark shows before busyAfter")
		}
		timers[0]() // the dashboard's load runs past busyAfter
		if !mark.Visible() {
			t.Fatal("a load past busyAfter shows no busy mark")
		}
		run(1) // the queue's ends before busyAfter: its timer is stopped
		if timers[1] != nil || !mark.Visible() {
			t.Errorf("the quick load's timer is left running (%v) or the mark went with it (%v)", timers[1] != nil, mark.Visible())
		}
		run(0)
		if mark.Visible() || got == nil {
			t.Errorf("after the slow load ended: mark shown %v, its error %v", mark.Visible(), got)
		}
	})
}

// storeNames are the names a screen holds the store by: App.db and App.local,
// and the local copies loads take of them (db := v.u.db), and the Session the
// screens call (x.sess, or sess := v.u.sess).
var storeNames = map[string]bool{"db": true, "local": true, "svc": true, "sess": true}

// TestNoStoreCallOnTheUIGoroutine: no screen calls the store on the UI goroutine
// (issue 28 item 6). A call of an exported method on the store (x.db.M, x.local.M,
// or a copy named db or svc) must sit inside a function literal handed to load,
// act or inBackground, or run by a go statement, or in a function whose doc
// comment holds the directive //bw:background (it is only called off the UI
// goroutine). A call of such a function is held to the same rule as a store call,
// so the directive moves the check to its callers instead of ending it.
func TestNoStoreCallOnTheUIGoroutine(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var bad []string
	calls := 0
	var parsed []*ast.File
	background := map[string]bool{} // names of the //bw:background functions and methods
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil && strings.Contains(directives(fd.Doc), "//bw:background") {
				background[fd.Name.Name] = true
			}
		}
	}
	for _, f := range parsed {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fd.Doc != nil && strings.Contains(fd.Doc.Text()+directives(fd.Doc), "//bw:background") {
				continue
			}
			var stack []ast.Node
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				call, ok := n.(*ast.CallExpr)
				if !ok || !isStoreCall(call) && !background[calleeName(call.Fun)] {
					return true
				}
				calls++
				if !offUI(stack) {
					bad = append(bad, fset.Position(call.Pos()).String()+": "+exprString(call.Fun))
				}
				return true
			})
		}
	}
	if calls < 50 {
		t.Fatalf("found %d store calls in ui/: the check no longer sees them", calls)
	}
	perFile := map[string][]string{}
	for _, b := range bad {
		file := b[:strings.Index(b, ":")]
		perFile[file] = append(perFile[file], b)
	}
	for file, b := range perFile {
		if len(b) > stillOnUI[file] {
			t.Errorf("%s: %d store calls run on the UI goroutine, %d are known (use load or act, load.go):\n%s", file, len(b), stillOnUI[file], strings.Join(b, "\n"))
		}
	}
	for file, n := range stillOnUI {
		if len(perFile[file]) < n {
			t.Errorf("%s: %d store calls left on the UI goroutine: lower stillOnUI to %d", file, len(perFile[file]), len(perFile[file]))
		}
	}
}

// stillOnUI is how many store calls each screen still makes on the UI goroutine:
// the check fails on any more, and asks for the number to come down with them.
// Issue 28 item 6 ends when it is empty.
var stillOnUI = map[string]int{}

// directives is a comment group's //directive lines, which Text leaves out.
func directives(g *ast.CommentGroup) string {
	var b strings.Builder
	for _, c := range g.List {
		if strings.HasPrefix(c.Text, "//bw:") {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// asksNothing are the Service's methods that answer from what the client holds,
// without a read or a request (bench.Service.Where: the file's path or the
// server's address; As: the Session of a person, whose calls do ask).
var asksNothing = map[string]bool{"Where": true, "As": true}

// isStoreCall tells whether call calls an exported method of the store, or of
// the Session its As gives (x.db.As(me).M).
func isStoreCall(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !ast.IsExported(sel.Sel.Name) || asksNothing[sel.Sel.Name] {
		return false
	}
	return isStore(sel.X)
}

// isStore tells whether x is the store (db, x.db, local, svc) or a Session of it
// (the store's As called).
func isStore(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return storeNames[x.Name]
	case *ast.SelectorExpr:
		return storeNames[x.Sel.Name]
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "As" && isStore(sel.X)
	}
	return false
}

// offUI tells whether the innermost function literal around the call (stack ends
// with it) is handed to load, act or inBackground, or run by a go statement.
func offUI(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.GoStmt:
			return true
		case *ast.FuncLit:
			if i == 0 {
				return false
			}
			switch p := stack[i-1].(type) {
			case *ast.GoStmt:
				return true
			case *ast.CallExpr:
				if p.Fun == n { // func(){…}() called in place
					continue
				}
				switch name := calleeName(p.Fun); name {
				case "load", "act", "inBackground":
					return true
				case "linkRows": // runs its query through load (samples_links.go)
					return true
				}
			}
			// Another function literal (a button's callback, a closure): look further out.
		}
	}
	return false
}

func calleeName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.IndexExpr: // load[T]
		return calleeName(f.X)
	case *ast.IndexListExpr:
		return calleeName(f.X)
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	}
	return "…"
}
