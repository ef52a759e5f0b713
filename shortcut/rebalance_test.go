package shortcut

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// letterTask is n samples of task t, each of opts options, whose answer is the
// letter answer(i) of sample i.
func letterTask(t string, n, opts int, answer func(i int) int) []annotate.Sample {
	var out []annotate.Sample
	for i := range n {
		s := annotate.Sample{ID: fmt.Sprintf("%s-%03d", t, i), Kind: annotate.KindMCQ, Task: t, Image: "a.jpg",
			Question: fmt.Sprintf("What colour is thing %d?", i), AnswerIndex: answer(i)}
		for l := range opts {
			s.Options = append(s.Options, fmt.Sprintf("colour %d of %d", l, i))
		}
		out = append(out, s)
	}
	return out
}

// applied is samples with plan's moves made.
func applied(samples []annotate.Sample, plan Rebalancing) []annotate.Sample {
	out := slices.Clone(samples)
	for _, m := range plan.Moves {
		for i := range out {
			if out[i].ID == m.ID {
				out[i] = m.Sample
			}
		}
	}
	return out
}

func letterCounts(ss []annotate.Sample) map[int]int {
	c := map[int]int{}
	for _, s := range ss {
		c[s.AnswerIndex]++
	}
	return c
}

func TestRebalance(t *testing.T) {
	always := func(int) int { return 0 }
	sixty := func(i int) int { // A 60 %, the rest spread
		if i%10 < 6 {
			return 0
		}
		return 1 + i%3
	}
	mentions := letterTask("m", 40, 4, always)
	mentions[3].Question = "Is it (A) red or (B) blue?"
	mentions[5].Options[2] = "all of the above"
	mentions[7].Extra = map[string]json.RawMessage{"ls_answer": json.RawMessage(`"A"`)}
	mixed := append(letterTask("x", 30, 2, always), letterTask("x3", 30, 3, always)...)
	for i := range mixed {
		mixed[i].Task = "x"
	}
	cases := []struct {
		name    string
		samples []annotate.Sample
		chosen  func(string) bool
		moves   int            // how many samples change
		counts  map[int]int    // the letters' counts after
		left    map[string]int // the samples left, by id
	}{
		{"always A, 40 of 4 options", letterTask("a", 40, 4, always), nil, 30, map[int]int{0: 10, 1: 10, 2: 10, 3: 10}, nil},
		{"A 60 %: only the excess moves", letterTask("s", 100, 4, sixty), nil, 35, map[int]int{0: 25, 1: 25, 2: 25, 3: 25}, nil},
		{"unchosen samples stay and count", letterTask("c", 40, 4, always), func(id string) bool { return id >= "c-020" }, 20,
			map[int]int{0: 20, 1: 7, 2: 7, 3: 6}, nil},
		{"a sample naming letters stays", mentions, nil, 30, map[int]int{0: 10, 1: 10, 2: 10, 3: 10},
			map[string]int{"m-003": 1, "m-005": 1, "m-007": 1}},
		{"2 and 3 options mixed", mixed, nil, 35, map[int]int{0: 25, 1: 25, 2: 10}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan := Rebalance(c.samples, c.chosen, 7)
			if len(plan.Moves) != c.moves {
				t.Errorf("%d samples change, want %d", len(plan.Moves), c.moves)
			}
			after := applied(c.samples, plan)
			got := letterCounts(after)
			// Which of the letters get the one left over is the seed's: compare sorted counts then.
			if !reflect.DeepEqual(sortedCounts(got), sortedCounts(c.counts)) || got[0] != c.counts[0] {
				t.Errorf("letters after: %v, want %v", got, c.counts)
			}
			left := map[string]int{}
			for _, u := range plan.Left {
				left[u.ID]++
			}
			if len(left) == 0 {
				left = nil
			}
			if !reflect.DeepEqual(left, c.left) {
				t.Errorf("left: %v, want %v", plan.Left, c.left)
			}
			if len(plan.Moves)+len(plan.Kept)+len(plan.Left) != chosenCount(c.samples, c.chosen) {
				t.Errorf("%d moved + %d kept + %d left of %d chosen", len(plan.Moves), len(plan.Kept), len(plan.Left), chosenCount(c.samples, c.chosen))
			}
			for i, s := range after {
				orig := c.samples[i]
				if s.Options[s.AnswerIndex] != orig.Options[orig.AnswerIndex] {
					t.Errorf("%s: answer %q, was %q", s.ID, s.Options[s.AnswerIndex], orig.Options[orig.AnswerIndex])
				}
				a, b := slices.Clone(s.Options), slices.Clone(orig.Options)
				slices.Sort(a)
				slices.Sort(b)
				if !slices.Equal(a, b) {
					t.Errorf("%s: options %v, were %v", s.ID, s.Options, orig.Options)
				}
				if c.chosen != nil && !c.chosen(s.ID) && s.AnswerIndex != orig.AnswerIndex {
					t.Errorf("%s was not chosen but moved", s.ID)
				}
			}
			if again := Rebalance(c.samples, c.chosen, 7); !reflect.DeepEqual(again, plan) {
				t.Error("the same seed gave another plan")
			}
		})
	}
}

func sortedCounts(m map[int]int) []int {
	var out []int
	for _, v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

func chosenCount(ss []annotate.Sample, chosen func(string) bool) int {
	n := 0
	for _, s := range ss {
		if chosen == nil || chosen(s.ID) {
			n++
		}
	}
	return n
}

// TestRebalanceEndsTheFinding: a task whose answer is always A is a finding of
// the answer-position check; after the rebalance it is none.
func TestRebalanceEndsTheFinding(t *testing.T) {
	ss := letterTask("always-a", 60, 4, func(int) int { return 0 })
	before := Balance(ss, Options{})
	if before[0].Check != CheckAnswerPosition || !before[0].Finding {
		t.Fatalf("no answer-position finding before: %+v", before[0])
	}
	after := Balance(applied(ss, Rebalance(ss, nil, 1)), Options{})
	if after[0].Finding {
		t.Errorf("still a finding after the rebalance: %s", after[0].Detail)
	}
}
