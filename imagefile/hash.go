package imagefile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// Hash is what hashing an image file again found: the file is gone (Missing), or
// the SHA-256 of its bytes, lower-case hex (as Info.SHA256).
type Hash struct {
	Missing bool
	SHA256  string
}

// HashFile hashes the file at path; a file that does not exist is Missing, not
// an error.
func HashFile(path string) (Hash, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return Hash{Missing: true}, nil
	}
	if err != nil {
		return Hash{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return Hash{}, err
	}
	return Hash{SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// HashFiles hashes files on up to four cores (the integrity audit re-hashes
// every image of a project): one Hash per name, in order, from hash (HashFile
// when nil; the store passes one that finds the file of a project path and turns
// a panic into an error). progress, when not nil, is called from the hashing
// goroutines with the number of files hashed so far and their total. The first
// error in names' order is returned as "name: error"; a cancelled ctx stops
// handing out files and is returned.
func HashFiles(ctx context.Context, names []string, hash func(name string) (Hash, error), progress func(done, total int)) ([]Hash, error) {
	if hash == nil {
		hash = HashFile
	}
	out := make([]Hash, len(names))
	errs := make([]error, len(names))
	var done atomic.Int64
	err := Each(ctx, len(names), func(i int) {
		out[i], errs[i] = hash(names[i])
		if n := done.Add(1); progress != nil {
			progress(int(n), len(names))
		}
	})
	if err != nil {
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
	}
	return out, nil
}

// Each runs work(i) for every i in [0, n) on up to four cores (an audit's work on
// each image of a project: re-hashing its file, hashing its thumbnail), and
// returns when all have run. A cancelled ctx stops handing out indexes: the
// indexes not yet handed out are not run, and ctx's error is returned.
func Each(ctx context.Context, n int, work func(i int)) error {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), 4, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				work(i)
			}
		}()
	}
	var cancelled error
	for i := range n {
		if cancelled = ctx.Err(); cancelled != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return cancelled
}
