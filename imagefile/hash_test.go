package imagefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

func TestHashFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	abc, empty := write("abc.jpg", "abc"), write("empty.jpg", "")
	const (
		shaABC   = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" // sha256sum of "abc"
		shaEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	)
	gone := filepath.Join(dir, "gone.jpg")
	tests := []struct {
		name    string
		files   []string
		want    []Hash
		wantErr string // in the error; "" for none
	}{
		{"none", nil, []Hash{}, ""},
		{"hashed in order", []string{empty, abc, abc}, []Hash{{SHA256: shaEmpty}, {SHA256: shaABC}, {SHA256: shaABC}}, ""},
		{"missing is not an error", []string{abc, gone}, []Hash{{SHA256: shaABC}, {Missing: true}}, ""},
		{"a folder is an error naming it", []string{abc, dir}, nil, dir + ": "},
	}
	for _, tt := range tests {
		var calls atomic.Int64
		got, err := HashFiles(context.Background(), tt.files, nil, func(done, total int) {
			calls.Add(1)
			if total != len(tt.files) || done < 1 || done > total {
				t.Errorf("%s: progress(%d, %d)", tt.name, done, total)
			}
		})
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one starting %q", tt.name, err, tt.wantErr)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: HashFiles = %v, want %v", tt.name, got, tt.want)
		}
		if int(calls.Load()) != len(tt.files) {
			t.Errorf("%s: progress called %d times, want %d", tt.name, calls.Load(), len(tt.files))
		}
	}
}

// The store hashes project paths with its own function; the first failure in
// the names' order is the one reported, and a cancelled context is returned as it is.
func TestHashFilesWithAHashFuncAndCancel(t *testing.T) {
	boom := errors.New("boom")
	hash := func(name string) (Hash, error) {
		if strings.HasPrefix(name, "bad") {
			return Hash{}, boom
		}
		return Hash{SHA256: name}, nil
	}
	got, err := HashFiles(context.Background(), []string{"a", "b"}, hash, nil)
	if err != nil || !reflect.DeepEqual(got, []Hash{{SHA256: "a"}, {SHA256: "b"}}) {
		t.Errorf("HashFiles with a hash func = %v, %v", got, err)
	}
	names := []string{"a", "bad1", "c", "bad2"}
	if _, err := HashFiles(context.Background(), names, hash, nil); !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "bad1: ") {
		t.Errorf("failing hash: %v, want boom on bad1", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var hashed atomic.Int64
	counting := func(name string) (Hash, error) { hashed.Add(1); return hash(name) }
	if _, err := HashFiles(ctx, names, counting, nil); !errors.Is(err, context.Canceled) || hashed.Load() != 0 {
		t.Errorf("cancelled: %v after hashing %d files, want context.Canceled and none hashed", err, hashed.Load())
	}
}

func TestEach(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		n       int
		wantRun int
		wantErr error
	}{
		{"none", context.Background(), 0, 0, nil},
		{"one", context.Background(), 1, 1, nil},
		{"many", context.Background(), 1000, 1000, nil},
		{"cancelled", cancelled, 50, 0, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := make([]atomic.Int32, tc.n)
			err := Each(tc.ctx, tc.n, func(i int) { runs[i].Add(1) })
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Each: %v, want %v", err, tc.wantErr)
			}
			ran := 0
			for i := range runs {
				switch runs[i].Load() {
				case 0:
				case 1:
					ran++
				default:
					t.Fatalf("index %d ran %d times", i, runs[i].Load())
				}
			}
			if ran != tc.wantRun {
				t.Fatalf("%d of %d indexes ran, want %d", ran, tc.n, tc.wantRun)
			}
		})
	}
}
