//go:build unix

package store_test

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// A folder given as a symbolic link is followed: its images import, recorded by the
// path given.
func TestImportThroughSymlinkedFolder(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	real := t.TempDir()
	writeFile(t, filepath.Join(real, "0001-office", "a.jpg"), encodeJPEG(t, 20, 10, color.White))
	link := filepath.Join(t.TempDir(), "photos")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, link, nil)
	if err != nil || res.Imported != 1 || len(res.Rejected) != 0 {
		t.Fatalf("import through a link: %+v %v", res, err)
	}
	im, err := f.db.ImageByPath(ctx, bench.Owner(), f.project.ID, "0001-office/a.jpg")
	if err != nil || im.Root != link || im.CheckFile() != nil {
		t.Errorf("stored %+v (%v); want it under %s and readable", im, err, link)
	}
}

// Inside an import folder, symbolic links (to files or folders) and named pipes are
// listed as skipped with a reason, and never opened (a pipe would block the import).
func TestImportListsLinksAndPipes(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir, other := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "s", "a.jpg"), encodeJPEG(t, 20, 10, color.White))
	writeFile(t, filepath.Join(other, "b.jpg"), encodeJPEG(t, 10, 20, color.Black))
	for link, target := range map[string]string{"s/link.jpg": "a.jpg", "linked-folder": other, "dangling.jpg": "nowhere.jpg"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "s", "pipe.jpg"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	res, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"s/link.jpg":    "a symbolic link: Benchwright imports the files themselves",
		"linked-folder": "a symbolic link",
		"dangling.jpg":  "a symbolic link",
		"s/pipe.jpg":    "a named pipe, not an image file",
	}
	got := map[string]string{}
	for _, r := range res.Rejected {
		got[r.RelPath] = r.Reason
	}
	for path, reason := range want {
		if !strings.Contains(got[path], reason) {
			t.Errorf("%s: reason %q, want %q", path, got[path], reason)
		}
	}
	if res.Imported != 1 || len(res.Rejected) != len(want) {
		t.Errorf("imported %d, rejected %v", res.Imported, res.Rejected)
	}
}
