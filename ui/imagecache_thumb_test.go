package ui

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/benchwright/benchwright/bench"
)

// slowThumbs is a team server whose thumbnails take until release is closed; it
// counts the fetches running at once.
type slowThumbs struct {
	bench.Service
	release       chan struct{}
	mu            sync.Mutex
	running, most int
}

// As is the Session whose thumbnails are slow (the only call the test makes).
func (s *slowThumbs) As(bench.User) bench.Session { return slowThumbsAs{s: s} }

type slowThumbsAs struct {
	bench.Session // nil: the test makes no other call
	s             *slowThumbs
}

func (w slowThumbsAs) ImageFile(ctx context.Context, sha string, size bench.ImageSize) (string, error) {
	return w.s.imageFile(ctx, sha, size)
}

func (s *slowThumbs) imageFile(_ context.Context, sha string, _ bench.ImageSize) (string, error) {
	s.mu.Lock()
	s.running++
	s.most = max(s.most, s.running)
	s.mu.Unlock()
	<-s.release
	s.mu.Lock()
	s.running--
	s.mu.Unlock()
	return "/thumbs/" + sha, nil
}

// TestFetchThumbIsConcurrentAndBounded: a grid's thumbnails are fetched from a
// team server several at a time, never more than thumbSlots at once, and each
// reaches its cell.
func TestFetchThumbIsConcurrentAndBounded(t *testing.T) {
	test.NewTempApp(t)
	inBackground = func(f func()) { go f() }
	t.Cleanup(func() { inBackground = func(f func()) { f() } })
	srv := &slowThumbs{release: make(chan struct{})}
	u := &App{db: srv, sess: srv.As(bench.User{})}
	var mu sync.Mutex
	var got []string
	var want []string
	for i := range 20 {
		sha := string(rune('a'+i)) + "0"
		want = append(want, "/thumbs/"+sha)
		u.fetchThumb(sha, func(p string) { mu.Lock(); got = append(got, p); mu.Unlock() })
	}
	waitFor(t, "fetches to start", func() bool { srv.mu.Lock(); defer srv.mu.Unlock(); return srv.running == cap(thumbSlots) })
	time.Sleep(20 * time.Millisecond) // room for any fetch beyond the bound to start
	close(srv.release)
	waitFor(t, "every thumbnail", func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == len(want) })
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("thumbnails shown %v, want %v", got, want)
	}
	if srv.most != cap(thumbSlots) {
		t.Errorf("at most %d fetches ran at once, want %d", srv.most, cap(thumbSlots))
	}
}
