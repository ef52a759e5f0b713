package annotate

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestLintErrors: each sample's error texts, in the samples' order, under the
// environment env gives that sample; warnings left out; a panic comes back to
// the caller.
func TestLintErrors(t *testing.T) {
	noQuestion := with(mcq(), func(s *Sample) { s.ID, s.Question = "mc-2", "" })
	outside := with(hopQA(), func(s *Sample) { s.ID = "mh-2" })
	warned := with(mcq(), func(s *Sample) { s.ID, s.Extra = "mc-3", map[string]json.RawMessage{"mood": []byte(`"calm"`)} })
	var samples []Sample
	for i := range 40 { // more samples than goroutines, so each lints several
		samples = append(samples, with(mcq(), func(s *Sample) { s.ID = fmt.Sprint("ok-", i) }), noQuestion, outside, warned)
	}
	size := func(s Sample) LintEnv {
		if s.ID == "mh-2" { // the box lies outside a 100×100 image
			return LintEnv{ImageSize: func(string) (int, int, bool) { return 100, 100, true }}
		}
		return LintEnv{}
	}
	got := LintErrors(samples, size)
	if len(got) != len(samples) {
		t.Fatalf("%d results for %d samples", len(got), len(samples))
	}
	for i, s := range samples {
		var want []string
		for _, f := range Lint(s, size(s)) {
			if f.Severity == SeverityError {
				want = append(want, f.Text())
			}
		}
		if !slices.Equal(got[i], want) {
			t.Errorf("sample %d (%s): got %q, want %q", i, s.ID, got[i], want)
		}
		if (s.ID == "mc-2" || s.ID == "mh-2") != (len(want) > 0) {
			t.Errorf("sample %s: errors %q", s.ID, want)
		}
		if s.ID == "mc-3" && len(Lint(s, LintEnv{})) == 0 {
			t.Errorf("sample %s has no warning to leave out", s.ID)
		}
	}
	defer func() {
		if v := recover(); v != "env broke" {
			t.Errorf("recovered %v, want the env's panic", v)
		}
	}()
	LintErrors(samples, func(s Sample) LintEnv {
		if s.ID == "mh-2" {
			panic("env broke")
		}
		return LintEnv{}
	})
	t.Error("LintErrors returned after a panic")
}
