package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// TestDecodeRevisions checks the freeze's shared decoding (decoded.go): contents
// come back in order whether decoded on one goroutine or several, known contents
// are taken as they are (not decoded again), a content that does not decode is
// reported with the first such index, and more than decodedKeepBytes is not kept.
func TestDecodeRevisions(t *testing.T) {
	raw := func(n int) []rawRevision {
		out := make([]rawRevision, n)
		for i := range out {
			out[i] = rawRevision{int64(i + 1), fmt.Sprintf(`{"kind":"hop_qa","image":"img%d.jpg","question":"q%d?"}`, i, i)}
		}
		return out
	}
	known := map[int64]annotate.Sample{3: {Question: "known, not decoded"}}
	tests := []struct {
		name    string
		raws    []rawRevision
		known   map[int64]annotate.Sample
		bad     int // index of the first content that does not decode, else -1
		fromRaw int // contents to check against their raw question
	}{
		{"one goroutine", raw(10), nil, -1, 10},
		{"several goroutines", raw(1000), nil, -1, 1000},
		{"known taken as it is", raw(1000), known, -1, 1000},
		{"first bad one", append(append(raw(300), rawRevision{301, `{"kind":`}), append(raw(300), rawRevision{302, `[`})...), nil, 300, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, bad, err := decodeRevisions(context.Background(), tc.raws, tc.known)
			if tc.bad >= 0 {
				if err == nil || bad != tc.bad {
					t.Fatalf("bad %d, err %v; want index %d", bad, err, tc.bad)
				}
				return
			}
			if err != nil || len(got) != len(tc.raws) {
				t.Fatalf("%d contents, err %v", len(got), err)
			}
			for i := range tc.fromRaw {
				want, image := fmt.Sprintf("q%d?", i), "img"
				if k, ok := tc.known[tc.raws[i].id]; ok {
					want, image = k.Question, ""
				}
				if got[i].Question != want || !strings.HasPrefix(got[i].Image, image) || image == "" && got[i].Image != "" {
					t.Fatalf("content %d: %+v, want question %q", i, got[i], want)
				}
			}
		})
	}

	var c decodedRevisions
	c.keep(map[int64]annotate.Sample{1: {}}, decodedKeepBytes)
	if len(c.known()) != 1 {
		t.Errorf("%d contents kept of 1 within the bound", len(c.known()))
	}
	c.keep(map[int64]annotate.Sample{1: {}, 2: {}}, decodedKeepBytes+1)
	if c.known() != nil {
		t.Errorf("contents beyond the bound kept: %v", c.known())
	}
}
