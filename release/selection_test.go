package release

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestApplySplit(t *testing.T) {
	samples := func() []annotate.Sample {
		var out []annotate.Sample
		for i := range 20 {
			out = append(out, annotate.Sample{ID: fmt.Sprintf("s%02d", i), Kind: annotate.KindMCQ, Image: fmt.Sprintf("img%d.jpg", i/2), Split: "val"})
		}
		return out
	}
	spec := &annotate.SplitSpec{TestRatio: 0.3, Seed: 7}
	want, err := annotate.Split(samples(), *spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		spec *annotate.SplitSpec
		none bool
		want func(id string) string
	}{
		{"own split", nil, false, func(string) string { return "val" }},
		{"no split", nil, true, func(string) string { return "" }},
		{"spec", spec, false, func(id string) string { return want[id] }},
		{"spec wins over none", spec, true, func(id string) string { return want[id] }},
	} {
		got := samples()
		if err := ApplySplit(got, tc.spec, tc.none); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, s := range got {
			if s.Split != tc.want(s.ID) {
				t.Errorf("%s: %s split %q, want %q", tc.name, s.ID, s.Split, tc.want(s.ID))
			}
		}
	}
	if !slices.Contains(slices.Collect(maps.Values(want)), annotate.SplitTest) {
		t.Fatal("the spec put nothing in test; the test proves nothing")
	}
	got := samples()
	if err := ApplySplit(got, &annotate.SplitSpec{TestRatio: 1.5}, false); err == nil {
		t.Error("a ratio of 1.5 was taken")
	}
}

func TestSameSelection(t *testing.T) {
	revs := map[string]int64{"s1": 10, "s2": 20}
	images := map[string]string{"a.jpg": "sha-a", "b.jpg": "sha-b"}
	with := func(m map[string]int64, k string, v int64) map[string]int64 {
		out := map[string]int64{}
		for a, b := range m {
			out[a] = b
		}
		if v == 0 {
			delete(out, k)
		} else {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		now       map[string]int64
		nowImages map[string]string
		want      string
	}{
		{"unchanged", revs, images, ""},
		{"another image, not audited", revs, map[string]string{"a.jpg": "sha-a", "b.jpg": "sha-b", "c.jpg": "x"}, ""},
		{"a sample more", with(revs, "s3", 30), images, "the accepted samples changed during the audit (2, now 3); freeze again"},
		{"a sample less", with(revs, "s2", 0), images, "the accepted samples changed during the audit (2, now 1); freeze again"},
		{"a new revision", with(revs, "s2", 21), images, "sample s2 changed during the audit; freeze again"},
		{"another sample", with(with(revs, "s2", 0), "s9", 20), images, "sample s2 changed during the audit; freeze again"},
		{"an image changed", revs, map[string]string{"a.jpg": "sha-a", "b.jpg": "sha-B"}, "image b.jpg changed during the audit; freeze again"},
		{"an image gone", revs, map[string]string{"a.jpg": "sha-a"}, "image b.jpg changed during the audit; freeze again"},
	} {
		got := ""
		if err := SameSelection(revs, tc.now, images, tc.nowImages); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
