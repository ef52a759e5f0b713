package store

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// TestPanicInAWorkerIsAnError: a panic in a goroutine the store starts for a
// request (caught) comes back as an error wrapping ErrFault; the process lives.
func TestPanicInAWorkerIsAnError(t *testing.T) {
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			errs[i] = caught("work", func() error {
				if i%2 == 1 {
					var m map[string]int
					m["x"] = 1 // a nil map: a runtime panic
				}
				return nil
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if want := i%2 == 1; errors.Is(err, bench.ErrFault) != want {
			t.Errorf("worker %d: %v", i, err)
		}
	}
}

// TestImportSurvivesAFaultInOneFile: a decoder's panic while one file is read
// (the palette-PNG header comparison was one) rejects that file with a sentence;
// the other files import and the process — a team server's — goes on.
func TestImportSurvivesAFaultInOneFile(t *testing.T) {
	ctx := context.Background()
	w := newAuthWorld(t)
	p, err := w.db.CreateProject(ctx, w.lead, "p")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"a.png", "b.png"} {
		var b bytes.Buffer
		if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 5, 4))); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	testHookBeforeRead = func(abs string) {
		if filepath.Base(abs) == "b.png" {
			panic("a decoder's fault")
		}
	}
	defer func() { testHookBeforeRead = nil }()
	res, err := w.db.ImportImages(ctx, w.lead, p.ID, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 1 || len(res.Rejected) != 1 || res.Rejected[0].RelPath != "b.png" || !strings.Contains(res.Rejected[0].Reason, "a fault in Benchwright") {
		t.Errorf("import: %+v; want a.png imported and b.png rejected for a fault", res)
	}
}
