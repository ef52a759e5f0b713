package release

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

func TestCheckOutDir(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(filepath.Join(full, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	for _, tc := range []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), ""},
		{filepath.Join(dir, "empty"), ""},
		{full, "output folder " + full + " is not empty"},
	} {
		got := ""
		if err := CheckOutDir(tc.dir); err != nil {
			var od *OutDirError
			if !errors.As(err, &od) {
				t.Errorf("%s: %v is no OutDirError", tc.dir, err)
			}
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckOutDir(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// deadPID is the id of a process that ran and has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	return cmd.Process.Pid
}

// TestRemoveStalePartials: the hidden folders of killed exports into out go;
// a running export's, another folder's and one it cannot attribute stay.
func TestRemoveStalePartials(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	dead := filepath.Join(parent, ".out.partial-"+strconv.Itoa(deadPID(t))+"-123")
	alive := filepath.Join(parent, ".out.partial-"+strconv.Itoa(os.Getpid())+"-456")
	other := filepath.Join(parent, ".other.partial-"+strconv.Itoa(deadPID(t))+"-789")
	junk := filepath.Join(parent, ".out.partial-x-1")
	for _, d := range []string{dead, alive, other, junk} {
		if err := os.MkdirAll(filepath.Join(d, "images"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := RemoveStalePartials(out); !slices.Equal(got, []string{dead}) {
		t.Fatalf("removed %q, want only %s", got, dead)
	}
	for _, d := range []string{alive, other, junk} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

// TestExportDir: an export lands in out whole (the manifest verifies), with
// no hidden folder left beside it and a killed export's removed; a failed
// export leaves neither out nor a hidden folder; a folder that is not empty is
// refused and left alone.
func TestExportDir(t *testing.T) {
	f, err := Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	recs, images := releaseFixture()
	req := ExportRequest{Format: f, Records: recs, Open: opener(images), Info: fixtureInfo(fixedTime)}
	parent := t.TempDir()
	out := filepath.Join(parent, "sub", "out")
	dead := filepath.Join(parent, "sub", ".out.partial-"+strconv.Itoa(deadPID(t))+"-1")
	os.MkdirAll(dead, 0o755)
	m, removed, err := ExportDir(context.Background(), out, req)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{dead}) {
		t.Errorf("removed %q, want %s", removed, dead)
	}
	if len(m.Files) == 0 {
		t.Fatal("no files in the manifest")
	}
	if _, err := VerifyRelease(context.Background(), out); err != nil {
		t.Errorf("the export does not verify: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 || entries[0].Name() != "out" {
		t.Errorf("beside the export: %v", entries)
	}
	// Into the same folder again: refused, nothing touched.
	_, _, err = ExportDir(context.Background(), out, req)
	var od *OutDirError
	if !errors.As(err, &od) || err.Error() != "output folder "+out+" is not empty" {
		t.Errorf("a second export into %s: %v", out, err)
	}
	if _, err := VerifyRelease(context.Background(), out); err != nil {
		t.Errorf("the refused export touched the first: %v", err)
	}
	// An image that changed: nothing is left.
	bad := ExportRequest{Format: f, Records: recs, Info: req.Info, Open: opener(map[string][]byte{})}
	for k := range images {
		bad.Open = opener(map[string][]byte{k: []byte("changed")})
		break
	}
	out2 := filepath.Join(parent, "out2")
	if _, _, err := ExportDir(context.Background(), out2, bad); err == nil {
		t.Fatal("an export with a changed image succeeded")
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("a failed export left %v", entries)
	}
}
