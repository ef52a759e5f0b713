package release_test

// The fuzz target for what release reads from untrusted folders: MANIFEST.json. Its
// seed corpus (testdata/fuzz/FuzzManifest/, when there is one) runs with every go
// test; scripts/fuzz runs it for a while. DecodeManifest must also stay within an
// allocation bound linear in its input (allocBound).

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/release"
)

// Allocation bound of the readers: fixed bytes plus perByte per input byte, garbage
// included. The bound is generous per byte; what it catches is work that grows
// faster than the input, such as the square of it. (The same bound as annotate's
// fuzz targets.)
const (
	allocFixed   = 4 << 20
	allocPerByte = 1024
)

// allocBound runs fn and fails t when it allocated more than the bound for an input
// of n bytes. The heap counter is process-wide; fuzz workers run one input at a time.
func allocBound(t *testing.T, n int, fn func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(allocFixed+allocPerByte*n); got > limit {
		t.Errorf("allocated %d bytes for %d bytes of input, above the bound of %d", got, n, limit)
	}
}

// FuzzManifest reads MANIFEST.json files as verify-release does: DecodeManifest
// never panics, and what it accepts lists only relative paths inside the release
// and encodes again.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(`{"format":"native","release":"r@1","files":[{"path":"samples.jsonl","size":3,"sha256":"ab"}]}`))
	f.Add([]byte(`{"files":[{"path":"../etc/passwd","size":1,"sha256":""}]}`))
	f.Add([]byte(`{"files":[{"path":"/abs","size":-1}]}`))
	f.Add([]byte("{\"release\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m release.Manifest
		var err error
		allocBound(t, len(data), func() { m, err = release.DecodeManifest(bytes.NewReader(data)) })
		if err != nil {
			return
		}
		for _, file := range m.Files {
			if file.Path == "" || strings.HasPrefix(file.Path, "/") || slices.Contains(strings.Split(file.Path, "/"), "..") {
				t.Errorf("accepted a path outside the release: %q", file.Path)
			}
		}
		var buf bytes.Buffer
		if err := m.Encode(&buf); err != nil {
			t.Errorf("an accepted manifest does not encode: %v", err)
		}
	})
}
