package store

import (
	"context"
	"runtime"
	"sync"

	"github.com/benchwright/benchwright/annotate"
)

// decodedRevisions keeps the decoded contents of the revisions the last audit of
// a database read (revision id → sample), so that the freeze after an audit and
// the exports of the release it writes do not decode every sample again (issue
// 31 item 3). A revision's content never changes (migration 1's trigger), so an
// entry never goes stale. It holds one selection at a time, and none whose
// contents exceed decodedKeepBytes. The map kept is never changed, only
// replaced, so readers use it without the lock.
type decodedRevisions struct {
	mu    sync.Mutex
	byRev map[int64]annotate.Sample
}

// decodedKeepBytes bounds the JSON contents a database keeps decoded: 64 MiB is
// about 150,000 generated samples.
const decodedKeepBytes = 64 << 20

// known returns the contents kept (nil when none); the caller must not change it.
func (c *decodedRevisions) known() map[int64]annotate.Sample {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byRev
}

// keep replaces the contents kept with byRev, decoded from size bytes of JSON
// (dropping them when that is more than decodedKeepBytes).
func (c *decodedRevisions) keep(byRev map[int64]annotate.Sample, size int) {
	if size > decodedKeepBytes {
		byRev = nil
	}
	c.mu.Lock()
	c.byRev = byRev
	c.mu.Unlock()
}

// rawRevision is a revision's content as read, to be decoded.
type rawRevision struct {
	id      int64
	content string
}

// decodeRevisions decodes raws' contents on the machine's cores (at most four
// goroutines), taking those known has already decoded as they are. It returns
// the contents in raws' order and, for a content that does not decode, the
// error of the first such (in raws' order) with its index. Each is decoded
// by annotate.Sample.UnmarshalJSON itself: json.Unmarshal would read the whole
// content once more first, to validate it, which the decoder does anyway (a
// fifth of the decoding's time).
func decodeRevisions(ctx context.Context, raws []rawRevision, known map[int64]annotate.Sample) ([]annotate.Sample, int, error) {
	out := make([]annotate.Sample, len(raws))
	errs := make([]error, len(raws))
	var todo []int
	for i, r := range raws {
		if s, ok := known[r.id]; ok {
			out[i] = s
		} else {
			todo = append(todo, i)
		}
	}
	workers := min(runtime.NumCPU(), 4, (len(todo)+63)/64)
	if workers <= 1 {
		for _, i := range todo {
			errs[i] = out[i].UnmarshalJSON([]byte(raws[i].content))
		}
	} else {
		// Shares of 64 samples handed out in turn: a share is too small for its
		// goroutine to wait long on another's.
		var next sync.Mutex
		at := 0
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					next.Lock()
					from := at
					at = min(at+64, len(todo))
					next.Unlock()
					if from >= len(todo) {
						return
					}
					for _, i := range todo[from:min(from+64, len(todo))] {
						errs[i] = out[i].UnmarshalJSON([]byte(raws[i].content))
					}
				}
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return nil, -1, err
		}
	}
	for i, err := range errs {
		if err != nil {
			return nil, i, err
		}
	}
	return out, -1, nil
}
