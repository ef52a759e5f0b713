package bench_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/benchwright/benchwright/"

// pure are the packages that need no database and no screen: the contract and
// the domain packages. What needs only them (remote's client, the screens'
// logic, bwctl's checks) must not link cgo SQLite, pgx or fyne through them.
var pure = []string{"bench", "annotate", "verify", "agreement", "sampling", "score", "release", "imagefile", "shortcut", "plant"}

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
	var roots []string
	for _, p := range pure {
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
	seen := 0
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if !isRoot[p.ImportPath] {
			continue
		}
		seen++
		for _, d := range p.Deps {
			for _, bad := range never {
				if d == bad || strings.HasPrefix(d, bad+"/") || strings.HasSuffix(bad, "/") && strings.HasPrefix(d, bad) {
					t.Errorf("%s depends on %s", strings.TrimPrefix(p.ImportPath, module), d)
				}
			}
		}
	}
	if seen != len(roots) {
		t.Errorf("go list described %d of the %d packages", seen, len(roots))
	}
}
