package ui

import (
	"errors"
	"fmt"
	"image"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/benchwright/benchwright/bench"
)

func keyImage(i int) image.Image { return image.NewGray(image.Rect(0, 0, i+1, 1)) }

func TestImageCacheBounded(t *testing.T) {
	for _, c := range []struct {
		name       string
		size, puts int
		touch      int // key read back after the first size puts (kept as recently used), or -1
		want       []int
	}{
		{"under size", 8, 3, -1, []int{0, 1, 2}},
		{"at size", 8, 8, -1, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"oldest dropped", 8, 12, -1, []int{4, 5, 6, 7, 8, 9, 10, 11}},
		{"used one kept", 4, 6, 0, []int{0, 3, 4, 5}},
		{"size one", 1, 5, -1, []int{4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := newDecodedCache(c.size)
			for i := range c.puts {
				if i == c.size && c.touch >= 0 {
					if _, ok := cache.get(fmt.Sprint(c.touch)); !ok {
						t.Fatalf("key %d missing before the cache was full", c.touch)
					}
				}
				cache.put(fmt.Sprint(i), keyImage(i))
			}
			if cache.len() != len(c.want) {
				t.Errorf("len %d, want %d", cache.len(), len(c.want))
			}
			for _, k := range c.want {
				img, ok := cache.get(fmt.Sprint(k))
				if !ok || img.Bounds().Dx() != k+1 {
					t.Errorf("key %d: %v %v, want its own image", k, ok, img)
				}
			}
		})
	}
}

func TestImageCacheConcurrentLoadDecodesOnce(t *testing.T) {
	cache := newDecodedCache(8)
	var calls atomic.Int32
	release := make(chan struct{})
	decode := func() (image.Image, error) {
		calls.Add(1)
		<-release // every loader is waiting before the decode ends
		return keyImage(41), nil
	}
	const loaders = 16
	var wg sync.WaitGroup
	got := make([]image.Image, loaders)
	for i := range loaders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			img, err := cache.load("big", decode)
			if err != nil {
				t.Error(err)
			}
			got[i] = img
		}()
	}
	for cache.decodeCount() == 0 {
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("%d decodes for one key, want 1", n)
	}
	for i, img := range got {
		if img != got[0] || img == nil {
			t.Fatalf("loader %d got %v, loader 0 %v", i, img, got[0])
		}
	}
	if img, ok := cache.get("big"); !ok || img != got[0] {
		t.Error("the decoded image is not cached")
	}
}

func TestImageCacheConcurrentGetPutStaysBounded(t *testing.T) {
	cache := newDecodedCache(8)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				k := (g*7 + i) % 40
				if img, ok := cache.get(fmt.Sprint(k)); ok && img.Bounds().Dx() != k+1 {
					t.Errorf("key %d holds the image of %d", k, img.Bounds().Dx()-1)
					return
				}
				cache.put(fmt.Sprint(k), keyImage(k))
				if n := cache.len(); n > 8 {
					t.Errorf("%d entries in a cache of 8", n)
					return
				}
			}
		}()
	}
	wg.Wait()
	if cache.len() != 8 {
		t.Errorf("len %d after 4000 puts of 40 keys, want 8", cache.len())
	}
}

func TestImageCacheFailedDecodeNotCached(t *testing.T) {
	cache := newDecodedCache(8)
	bad := errors.New("unreadable")
	if _, err := cache.load("k", func() (image.Image, error) { return nil, bad }); !errors.Is(err, bad) {
		t.Fatalf("error %v, want %v", err, bad)
	}
	if _, ok := cache.get("k"); ok {
		t.Fatal("a failed decode was cached")
	}
	img, err := cache.load("k", func() (image.Image, error) { return keyImage(1), nil })
	if err != nil || img.Bounds().Dx() != 2 || cache.decodeCount() != 2 {
		t.Fatalf("retry: %v %v, %d decodes", img, err, cache.decodeCount())
	}
}

// neighbours are the previews keys of the selectable items just before and after
// the open one.
func neighbours(t *testing.T, ws *workspace) []string {
	t.Helper()
	var keys []string
	for _, delta := range []int{1, -1} {
		for i := ws.current + delta; i >= 0 && i < len(ws.items); i += delta {
			it := ws.items[i]
			if !selectable(it) {
				continue
			}
			im := it.image
			if it.kind == qSample {
				var err error
				if im, err = ws.u.db.As(bench.Owner()).ImageByPath(ws.u.ctx(), ws.u.project.ID, it.sample.ImagePath); err != nil {
					t.Fatal(err)
				}
			}
			keys = append(keys, previewKey(ws.u.db.Where(), im.SHA256))
			break
		}
	}
	return keys
}

func TestAnnotatePrefetchesNeighbours(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	ws.allImages.SetChecked(true)
	// Open an item with a neighbour on each side.
	for i := range ws.items {
		if selectable(ws.items[i]) && i > 0 {
			prev := false
			for j := i - 1; j >= 0; j-- {
				prev = prev || selectable(ws.items[j])
			}
			if prev {
				previews.clear()
				ws.queue.Select(i)
				break
			}
		}
	}
	keys := neighbours(t, ws)
	if len(keys) != 2 {
		t.Fatalf("open item %d has neighbours %v, want two", ws.current, keys)
	}
	info, open := ws.imageInfo.Text, ws.image
	prefetches.Wait()
	for _, k := range keys {
		if !previews.has(k) {
			t.Errorf("neighbour %q not prefetched", k)
		}
	}
	// The prefetch changed nothing on screen: only the cache.
	if ws.imageInfo.Text != info || ws.image != open {
		t.Errorf("prefetch changed the screen: %q → %q", info, ws.imageInfo.Text)
	}
	// d opens the next item with the prefetched picture, not a second decode of it
	// (which would have replaced the cached image).
	pre, _ := previews.get(keys[0])
	test.Type(ws.host, "d")
	if got := previewKey(ws.u.db.Where(), ws.image.SHA256); got != keys[0] {
		t.Fatalf("d opened %q, want the next item %q", got, keys[0])
	}
	if img, _ := previews.get(keys[0]); img != pre || pre == nil {
		t.Error("d decoded the next preview again instead of using the prefetched one")
	}
	prefetches.Wait()
}
