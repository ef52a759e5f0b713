package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// lookupCounter is a bench.Service that counts the image lookups made through it:
// through a team server, each is a request.
type lookupCounter struct {
	bench.Service
	mu    sync.Mutex
	calls map[string]int
}

func (c *lookupCounter) count(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[name]++
}

// As is the Session of u with its image lookups counted.
func (c *lookupCounter) As(u bench.User) bench.Session { return lookupSession{c.Service.As(u), c} }

// lookupSession is the Session lookupCounter.As gives: its overrides, the rest u's.
type lookupSession struct {
	bench.Session
	c *lookupCounter
}

func (w lookupSession) ImageByPath(ctx context.Context, projectID int64, rel string) (bench.Image, error) {
	w.c.count("ImageByPath")
	return w.Session.ImageByPath(ctx, projectID, rel)
}

func (w lookupSession) ImagesByPaths(ctx context.Context, projectID int64, paths []string) (map[string]bench.Image, error) {
	w.c.count("ImagesByPaths")
	return w.Session.ImagesByPaths(ctx, projectID, paths)
}

func (w lookupSession) Images(ctx context.Context, projectID int64, offset, limit int) ([]bench.Image, error) {
	w.c.count("Images")
	return w.Session.Images(ctx, projectID, offset, limit)
}

// TestCOCOImportLooksImagesUpOnce: converting a COCO file and resolving its file
// names asks the project for its images a bounded number of times, whatever the
// number of annotations (issue 25 item 8: one request per annotation through a
// team server, 27 s for 40k annotations).
func TestCOCOImportLooksImagesUpOnce(t *testing.T) {
	ctx := context.Background()
	db := openStore(t, importDB(t))
	boss, err := db.Authenticate(ctx, "boss", "secret")
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, boss, "p1")
	if err != nil {
		t.Fatal(err)
	}
	// 300 annotations on three images: one named by its project path, one by its
	// file name only (resolved to 0002-kitchen-1/c.jpeg), one the project lacks.
	const n = 300
	var anns []string
	for i := range n {
		anns = append(anns, fmt.Sprintf(`{"id": %d, "image_id": %d, "category_id": 0, "bbox": [2, 2, 10, 10], "area": 100, "iscrowd": 0}`, i, i%3))
	}
	coco := `{"images": [{"id": 0, "file_name": "0001-office-1/a.jpg", "width": 64, "height": 48},
		{"id": 1, "file_name": "c.jpeg", "width": 40, "height": 40}, {"id": 2, "file_name": "0009-attic-1/gone.jpg", "width": 10, "height": 10}],
		"categories": [{"id": 0, "name": "mug"}], "annotations": [` + strings.Join(anns, ",\n") + `]}`
	counter := &lookupCounter{Service: db, calls: map[string]int{}}
	recs, bad, err := convertSamples(ctx, counter, boss, p.ID, formatCOCO, []byte(coco))
	if err != nil || len(bad) != 0 || len(recs) != n {
		t.Fatalf("converted %d of %d, problems %v: %v", len(recs), n, bad, err)
	}
	if err := resolveByFileName(ctx, counter, boss, p.ID, recs); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, k := range counter.calls {
		total += k
	}
	if total > 3 || counter.calls["ImageByPath"] > 0 {
		t.Errorf("%d image lookups for %d annotations (%v); want at most 3", total, n, counter.calls)
	}
	images := map[string]int{}
	for _, r := range recs {
		images[r.Sample.Image]++
	}
	if images["0001-office-1/a.jpg"] != n/3 || images["0002-kitchen-1/c.jpeg"] != n/3 || images["0009-attic-1/gone.jpg"] != n/3 {
		t.Errorf("the records' images: %v", images)
	}
}
