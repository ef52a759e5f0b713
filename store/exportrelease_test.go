package store_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/store"
)

// demoRelease seeds the demo project and freezes its accepted samples as demo-bench@1.
func demoRelease(t *testing.T) (*store.DB, bench.User, bench.Release, string) {
	t.Helper()
	ctx := context.Background()
	db := MustOpenDB(t)
	images := filepath.Join(t.TempDir(), "images")
	if err := demo.Seed(ctx, db, assets.Demo(), images); err != nil {
		t.Fatal(err)
	}
	lead, err := db.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := db.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	rep, err := db.Audit(ctx, lead, p.ID)
	if err != nil || rep.Errors() > 0 {
		t.Fatalf("the demo does not pass the audit: %v %+v", err, rep.Findings)
	}
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.ID, Name: "demo-bench", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	return db, lead, rel, images
}

// readTree reads every file below dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameExceptCreated compares two exports' files, MANIFEST.json's created line aside.
func sameExceptCreated(t *testing.T, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	dropCreated := func(m []byte) string {
		var keep []string
		for _, l := range strings.Split(string(m), "\n") {
			if !strings.HasPrefix(l, `  "created": `) {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for name, x := range a {
		y, ok := b[name]
		switch {
		case !ok:
			t.Errorf("%s is missing from the second export", name)
		case name == release.ManifestName:
			if dropCreated(x) != dropCreated(y) {
				t.Errorf("the manifests differ beyond created:\n%s\n----\n%s", x, y)
			}
			if bytes.Equal(x, y) {
				t.Errorf("the manifests' created fields do not differ")
			}
		case !bytes.Equal(x, y):
			t.Errorf("%s differs between the exports", name)
		}
	}
}

func TestExportEveryFormatOfTheDemo(t *testing.T) {
	ctx := context.Background()
	db, lead, rel, images := demoRelease(t)
	sources := map[[32]byte]bool{}
	filepath.WalkDir(images, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			sources[sha256.Sum256(b)] = true
		}
		return nil
	})
	for _, format := range release.Formats() {
		f := format.Name()
		t.Run(f, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out", f)
			var last [2]int
			res, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: f, OutDir: out},
				func(done, total int) { last = [2]int{done, total} })
			if err != nil {
				t.Fatal(err)
			}
			if last[0] != last[1] || last[1] == 0 {
				t.Errorf("last progress %v", last)
			}
			m := res.Manifest
			if res.Dir != out || m.Release.Name != "demo-bench" || m.Release.Samples != 3 || m.Creator != "lead" ||
				m.Release.FrozenBy != "lead" || m.AppVersion != store.AppVersion || m.Format != f {
				t.Errorf("manifest %+v", m)
			}
			if m.Counts.Samples+sum(m.Skipped) != 3 {
				t.Errorf("counts %+v skipped %v", m.Counts, m.Skipped)
			}
			d, err := release.VerifyRelease(context.Background(), out)
			if err != nil || !d.OK() || d.Matched != len(m.Files) {
				t.Errorf("verify: %+v %v", d, err)
			}
			// Images are the original bytes (the demo's are stored upright), wherever
			// and under whatever name a format puts them.
			for _, fe := range m.Files {
				if strings.HasSuffix(fe.Path, ".jpg") || strings.HasSuffix(fe.Path, ".png") {
					b, _ := os.ReadFile(filepath.Join(out, fe.Path))
					if !sources[sha256.Sum256(b)] {
						t.Errorf("%s is not a copy of one of the project's images", fe.Path)
					}
				}
			}
			// A second export into the same, now full, folder is refused.
			if _, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: f, OutDir: out}, nil); !errors.Is(err, bench.ErrInvalid) ||
				!strings.Contains(err.Error(), "not empty") {
				t.Errorf("export into a full folder: %v", err)
			}
		})
	}
	if n := auditCount(t, db.Path(), "release.export"); n != len(release.Formats()) {
		t.Errorf("%d exports audited, want %d", n, len(release.Formats()))
	}
	// Anyone may export, even without signing in (scripts on the database: Owner).
	// The agreement summary of the demo: 5 approvals per sample, a unanimous panel
	// each, alpha undefined.
	res, err := db.Export(ctx, bench.Owner(), bench.ExportInput{Release: fmt.Sprint(rel.ID), Format: "native", OutDir: filepath.Join(t.TempDir(), "anon")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ag := res.Manifest.Agreement
	if res.Manifest.Creator != "" || ag == nil || ag.Reviews != 15 || ag.ByRound["3"].Approve != 9 || ag.ByRound["1"].Approve != 3 ||
		ag.Round3Unanimous != 3 || ag.Alpha != nil || ag.AlphaUnits != 3 || !strings.Contains(ag.AlphaNote, "undefined") {
		t.Errorf("anonymous export: creator %q, agreement %+v", res.Manifest.Creator, ag)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func TestExportIsFrozenAndDeterministic(t *testing.T) {
	ctx := context.Background()
	db, lead, _, _ := demoRelease(t)
	export := func(name string) map[string][]byte {
		out := filepath.Join(t.TempDir(), name)
		if _, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "native", OutDir: out}, nil); err != nil {
			t.Fatal(err)
		}
		return readTree(t, out)
	}
	clock := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return clock }
	first := export("first")
	// Later work on the released samples: a withdrawal, a withdrawal undone, a new
	// sample accepted — none of it reaches the frozen release.
	if err := db.Withdraw(ctx, lead, "demo-yn-001", "wrong answer"); err != nil {
		t.Fatal(err)
	}
	if err := db.Withdraw(ctx, lead, "demo-sg-001", "check"); err != nil {
		t.Fatal(err)
	}
	if err := db.Reopen(ctx, lead, "demo-sg-001", "fine"); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(48 * time.Hour)
	second := export("second")
	sameExceptCreated(t, first, second)
	if !bytes.Contains(second["samples.jsonl"], []byte(`"id":"demo-yn-001"`)) {
		t.Error("the withdrawn sample left the frozen release")
	}
}

func TestExportRefusesChangedImagesAndCancels(t *testing.T) {
	ctx := context.Background()
	db, lead, _, images := demoRelease(t)
	parent := t.TempDir()

	// An image changed after the freeze: refused, nothing left behind.
	path := filepath.Join(images, "0002-kitchen-1", "img_001.jpg")
	orig, _ := os.ReadFile(path)
	tampered := append([]byte{}, orig...)
	tampered[len(tampered)/2] ^= 0xff
	os.WriteFile(path, tampered, 0o644)
	_, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "native", OutDir: filepath.Join(parent, "x")}, nil)
	if !errors.Is(err, bench.ErrInvalid) || !errors.Is(err, release.ErrImageChanged) || !strings.Contains(err.Error(), "0002-kitchen-1/img_001.jpg") {
		t.Errorf("export of a changed image: %v", err)
	}
	// The TSV embeds the image rather than copying it: refused too.
	_, err = db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "vlmevalkit", OutDir: filepath.Join(parent, "y")}, nil)
	if !errors.Is(err, release.ErrImageChanged) {
		t.Errorf("vlmevalkit export of a changed image: %v", err)
	}
	os.WriteFile(path, orig, 0o644)

	// Cancelled half way: nothing left behind either.
	cctx, cancel := context.WithCancel(ctx)
	_, err = db.Export(cctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "hf-imagefolder", OutDir: filepath.Join(parent, "z")},
		func(done, total int) {
			if done == 1 {
				cancel()
			}
		})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled export: %v", err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("failed exports left %v behind", left)
	}
	// Into an existing empty folder it works, and a format or release that does not exist is refused.
	empty := filepath.Join(parent, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "coco", OutDir: empty}, nil); err != nil {
		t.Errorf("export into an empty folder: %v", err)
	}
	if _, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "xml", OutDir: filepath.Join(parent, "w")}, nil); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@9", Format: "coco", OutDir: filepath.Join(parent, "w")}, nil); !errors.Is(err, bench.ErrNotFound) {
		t.Errorf("unknown release: %v", err)
	}
}

// A folder left by an export killed half-way (its process gone) is removed by the
// next export into the same folder, and said; one of a running export, or of
// another output folder, stays.
func TestExportRemovesStalePartials(t *testing.T) {
	ctx := context.Background()
	db, lead, _, _ := demoRelease(t)
	parent := t.TempDir()
	out := filepath.Join(parent, "bench")
	// A process id that is not running: a finished child's.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	stale := filepath.Join(parent, fmt.Sprintf(".bench.partial-%d-123", dead))
	running := filepath.Join(parent, fmt.Sprintf(".bench.partial-%d-456", os.Getpid()))
	other := filepath.Join(parent, fmt.Sprintf(".elsewhere.partial-%d-789", dead))
	for _, d := range []string{stale, running, other} {
		if err := os.MkdirAll(filepath.Join(d, "images"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	res, err := db.Export(ctx, lead, bench.ExportInput{Release: "demo-bench@1", Format: "native", OutDir: out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Removed, []string{stale}) {
		t.Errorf("removed %v, want only %s", res.Removed, stale)
	}
	for _, d := range []string{running, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale folder is still there: %v", err)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 3 { // bench, and the two kept hidden folders
		t.Errorf("the parent holds %d entries after the export", len(entries))
	}
}
