package ui

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // cached previews are JPEG
	"os"
	"sync"

	"github.com/benchwright/benchwright/bench"
)

// Decoded previews for the Annotate screen, and their prefetch: when an item opens,
// the previews of the items before and after it in the queue are decoded on a
// goroutine, so that a and d show a decoded picture at once. A 4000×3000 image's
// preview (1600 px wide) takes tens of milliseconds to decode; from the cache the
// next item costs only the widgets.

// previewCacheSize is how many decoded previews are kept: the open item, its
// neighbours and a few just left behind (a 1600×1200 preview is about 3 MB decoded).
const previewCacheSize = 8

// previews is the cache of decoded previews of every Annotate screen, keyed by
// previewKey: the preview file, named by the image's SHA-256 in the database's
// preview folder.
var previews = newDecodedCache(previewCacheSize)

// previewKey is the cache key of the preview of the image with SHA-256 sha.
func previewKey(where, sha string) string { return where + "\x00" + sha }

// prefetches counts the prefetch goroutines running, so tests and benchmarks can wait
// for them.
var prefetches sync.WaitGroup

// decodedCache is a bounded, least-recently-used map of decoded images, safe for
// concurrent use. A key being decoded is decoded once: later loads wait for it.
type decodedCache struct {
	mu      sync.Mutex
	size    int
	entries map[string]*list.Element // sha → element of order holding a *cacheEntry
	order   *list.List               // most recently used first
	loading map[string]*pending
	decodes int // decodes started by load, for tests
}

type cacheEntry struct {
	key string
	img image.Image
}

// pending is a decode in progress; done is closed when img and err are set.
type pending struct {
	done chan struct{}
	img  image.Image
	err  error
}

func newDecodedCache(size int) *decodedCache {
	return &decodedCache{size: max(size, 1), entries: map[string]*list.Element{}, order: list.New(), loading: map[string]*pending{}}
}

// get returns the image cached under key, marking it recently used.
func (c *decodedCache) get(key string) (image.Image, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*cacheEntry).img, true
	}
	return nil, false
}

// has reports whether key is cached, without marking it used.
func (c *decodedCache) has(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[key]
	return ok
}

// put caches img under key, dropping the least recently used image beyond the size.
func (c *decodedCache) put(key string, img image.Image) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(key, img)
}

func (c *decodedCache) putLocked(key string, img image.Image) {
	if e, ok := c.entries[key]; ok {
		e.Value.(*cacheEntry).img = img
		c.order.MoveToFront(e)
		return
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key: key, img: img})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*cacheEntry).key)
	}
}

// len is the number of cached images.
func (c *decodedCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// clear empties the cache (decodes in progress still finish and are cached).
func (c *decodedCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.order.Init()
}

// load returns the image cached under key, or decodes it with decode and caches it.
// When another goroutine is already decoding key, load waits for its result instead
// of decoding again. Failed decodes are not cached.
func (c *decodedCache) load(key string, decode func() (image.Image, error)) (image.Image, error) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*cacheEntry).img, nil
	}
	if p, ok := c.loading[key]; ok {
		c.mu.Unlock()
		<-p.done
		return p.img, p.err
	}
	p := &pending{done: make(chan struct{})}
	c.loading[key] = p
	c.decodes++
	c.mu.Unlock()

	p.img, p.err = decode()
	c.mu.Lock()
	delete(c.loading, key)
	if p.err == nil {
		c.putLocked(key, p.img)
	}
	c.mu.Unlock()
	close(p.done)
	return p.img, p.err
}

// decodeCount is how many decodes load has started.
func (c *decodedCache) decodeCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.decodes
}

// errNoPreview is a preview file that is not there.
var errNoPreview = errors.New("the cached preview is missing")

// decodePreview reads and decodes the cached preview of the image with SHA-256
// sha (fetched first when the project is on a team server), as user. It calls the
// store and decodes: run it off the UI goroutine.
//
//bw:background
func decodePreview(ctx context.Context, sess bench.Session, sha string) (image.Image, error) {
	if len(sha) < 2 {
		return nil, errors.New("no content hash")
	}
	p, err := sess.ImageFile(ctx, sha, bench.ImagePreview)
	if err != nil {
		if errors.Is(err, bench.ErrImageMissing) {
			return nil, errNoPreview
		}
		return nil, errors.New(bench.Message(err))
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, errNoPreview
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("the cached preview is unreadable (%v)", err)
	}
	return img, nil
}

// prefetchTarget is a queue item whose preview to decode ahead: an image (sha known)
// or a sample's image (looked up by path).
type prefetchTarget struct {
	sha, path string
}

// prefetchPreviews decodes the targets' previews into cache on a goroutine of its
// own. It is handed plain values only, never the workspace or a widget: nothing it
// does touches the UI, so it needs no fyne.Do.
func prefetchPreviews(ctx context.Context, sess bench.Session, where string, projectID int64, cache *decodedCache, targets []prefetchTarget) {
	if len(targets) == 0 {
		return
	}
	prefetches.Add(1)
	go func() {
		defer prefetches.Done()
		dir := where
		for _, t := range targets {
			if ctx.Err() != nil {
				return
			}
			sha := t.sha
			if sha == "" {
				im, err := sess.ImageByPath(ctx, projectID, t.path)
				if err != nil {
					continue // the open will say what is wrong
				}
				sha = im.SHA256
			}
			key := previewKey(dir, sha)
			if len(sha) < 2 || cache.has(key) {
				continue
			}
			_, _ = cache.load(key, func() (image.Image, error) { return decodePreview(ctx, sess, sha) })
		}
	}()
}

// prefetchNeighbours starts decoding the previews of the items next to the open one
// (the next first: d is pressed more than a). It runs on the UI goroutine, reads the
// queue there and hands prefetchPreviews copies.
func (ws *workspace) prefetchNeighbours() {
	if ws.current < 0 || ws.current >= len(ws.items) {
		return
	}
	var targets []prefetchTarget
	for _, delta := range []int{1, -1} {
		for i := ws.current + delta; i >= 0 && i < len(ws.items); i += delta {
			if it := ws.items[i]; selectable(it) {
				switch it.kind {
				case qImage:
					targets = append(targets, prefetchTarget{sha: it.image.SHA256})
				case qSample:
					if it.sample.ImagePath != "" {
						targets = append(targets, prefetchTarget{path: it.sample.ImagePath})
					}
				}
				break
			}
		}
	}
	prefetchPreviews(ws.u.ctx(), ws.u.sess, ws.u.where(), ws.u.project.ID, previews, targets)
}

// thumbSlots bounds the thumbnails fetched at once from a team server: a grid of
// 200 images must not open 200 requests together.
var thumbSlots = make(chan struct{}, 6)

// fetchThumb fetches the thumbnail of the image with SHA-256 sha off the UI
// goroutine (load: the tests run it in place, where a bare goroutine's fyne.Do
// raced them) and hands its file to show on the UI goroutine; nothing when it
// cannot be had. Fetches run concurrently, at most cap(thumbSlots) at a time; show
// must check that its cell still wants sha (cells are reused while scrolling).
func (u *App) fetchThumb(sha string, show func(path string)) {
	sess, ctx := u.sess, u.ctx()
	load(u, "", func() (string, error) {
		thumbSlots <- struct{}{}
		defer func() { <-thumbSlots }()
		return sess.ImageFile(ctx, sha, bench.ImageThumb)
	}, func(p string, err error) {
		if err == nil {
			show(p)
		}
	})
}
