package store_test

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestImagesByPaths: one call finds every image of a list of paths (each once,
// more than one IN list's worth), leaves out the paths the project lacks and the
// images of other projects, and is refused to a non-member, audited; a list longer
// than MaxImagePaths is refused.
func TestImagesByPaths(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	var paths []string
	for i := range 600 {
		p := fmt.Sprintf("0001-office-1/%03d.png", i)
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), encodePNG(t, 8+i, 6))
		paths = append(paths, p)
	}
	writeFile(t, filepath.Join(dir, "0002-kitchen-1", "a.jpg"), encodeJPEG(t, 64, 48, color.White))
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	other, err := f.db.CreateProject(ctx, f.lead, "other")
	if err != nil {
		t.Fatal(err)
	}
	otherDir := t.TempDir()
	writeFile(t, filepath.Join(otherDir, "elsewhere", "b.jpg"), encodeJPEG(t, 30, 20, color.Black))
	if _, err := f.db.ImportImages(ctx, f.lead, other.ID, otherDir, nil); err != nil {
		t.Fatal(err)
	}

	ask := append(slices.Clone(paths), "0002-kitchen-1/a.jpg", "0001-office-1/000.png", "0009-attic-1/missing.jpg", "elsewhere/b.jpg")
	got, err := f.db.ImagesByPaths(ctx, f.ann, f.project.ID, ask)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 601 {
		t.Errorf("found %d images, want 601", len(got))
	}
	for _, p := range []string{"0001-office-1/123.png", "0002-kitchen-1/a.jpg"} {
		one, err := f.db.ImageByPath(ctx, f.ann, f.project.ID, p)
		if err != nil {
			t.Fatal(err)
		}
		if got[p] != one {
			t.Errorf("%s: %+v, ImageByPath says %+v", p, got[p], one)
		}
	}
	if im := got["0002-kitchen-1/a.jpg"]; im.Width != 64 || im.Height != 48 {
		t.Errorf("a.jpg is %d×%d", im.Width, im.Height)
	}
	for _, p := range []string{"0009-attic-1/missing.jpg", "elsewhere/b.jpg"} {
		if _, ok := got[p]; ok {
			t.Errorf("%s found in the project", p)
		}
	}
	if none, err := f.db.ImagesByPaths(ctx, f.ann, f.project.ID, nil); err != nil || len(none) != 0 {
		t.Errorf("no paths: %v, %v", none, err)
	}

	// A user who is not a member of the project is refused, and the refusal audited.
	if err := f.db.RemoveMember(ctx, f.lead, f.project.ID, "ann2"); err != nil {
		t.Fatal(err)
	}
	denied := storetest.CountDenied(t, f.db)
	if res, err := f.db.ImagesByPaths(ctx, f.ann2, f.project.ID, ask); !errors.Is(err, bench.ErrForbidden) || len(res) != 0 {
		t.Errorf("a non-member: %d images, %v; want ErrForbidden", len(res), err)
	}
	if storetest.CountDenied(t, f.db) != denied+1 {
		t.Error("the refusal was not audited")
	}
	if _, err := f.db.ImagesByPaths(ctx, f.ann, f.project.ID, make([]string, store.MaxImagePaths+1)); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("%d paths: %v, want ErrInvalid", store.MaxImagePaths+1, err)
	}
}
