package bench_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/benchwright/benchwright/"

// pure are the packages that need no database and no screen: the contract and
// the domain packages. What needs only them (remote's client, the screens'
// logic, bwctl's checks) must not link cgo SQLite, pgx or fyne through them.
var pure = []string{"bench", "annotate", "verify", "agreement", "sampling", "score", "release", "imagefile", "shortcut", "plant", "video"}

// never are import paths (or their prefixes) a pure package may not depend on,
// directly or through another package.
var never = []string{module + "store", module + "remote", module + "ui", "database/sql",
	"github.com/mattn/go-sqlite3", "github.com/jackc/pgx", "fyne.io/"}

// TestContractImportsNoStorage: the contract and the domain packages never
// depend on store, remote, database/sql, a SQL driver or fyne (go list -deps).
func TestContractImportsNoStorage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, p := range listDeps(t, pure) {
		for _, d := range p.Deps {
			if bad := forbidden(d, never); bad {
				t.Errorf("%s depends on %s", strings.TrimPrefix(p.ImportPath, module), d)
			}
		}
	}
}

// TestScreensImportOnlyTheContract: the screens work with the contract's
// Service and never link the database or the network client (issue 28 item 1):
// only main opens a file, a PostgreSQL URL or a team server (through a
// bench.Dialer it hands the app).
func TestScreensImportOnlyTheContract(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	storage := []string{module + "store", module + "remote", "database/sql",
		"github.com/mattn/go-sqlite3", "github.com/jackc/pgx"}
	for _, p := range listDeps(t, []string{"ui", "ui/boxcanvas"}) {
		for _, d := range p.Deps {
			if forbidden(d, storage) {
				t.Errorf("%s depends on %s", strings.TrimPrefix(p.ImportPath, module), d)
			}
		}
		if p.ImportPath == module+"ui" && !slices.Contains(p.Imports, module+"bench") {
			t.Errorf("ui does not import the contract (bench)")
		}
	}
}

// forbidden tells whether import path d is one of bad or below one of them.
func forbidden(d string, bad []string) bool {
	for _, b := range bad {
		if d == b || strings.HasPrefix(d, b+"/") || strings.HasSuffix(b, "/") && strings.HasPrefix(d, b) {
			return true
		}
	}
	return false
}

type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// listDeps is go list -deps of the module's packages pkgs, those packages only.
func listDeps(t *testing.T, pkgs []string) []listed {
	t.Helper()
	var roots []string
	for _, p := range pkgs {
		roots = append(roots, module+p)
	}
	cmd := exec.Command("go", append([]string{"list", "-deps", "-json"}, roots...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	var got []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if isRoot[p.ImportPath] {
			got = append(got, p)
		}
	}
	if len(got) != len(roots) {
		t.Fatalf("go list described %d of the %d packages", len(got), len(roots))
	}
	return got
}
