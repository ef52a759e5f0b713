package augment

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func sequenceParent(id string, n int, answer string) annotate.Sample {
	images := make([]string, n)
	frames := make([]annotate.Frame, n)
	for i := range images {
		images[i] = fmt.Sprintf("walk/frame-%02d.jpg", i+1)
		frames[i] = annotate.Frame{Video: "walk.mp4", VideoSHA256: strings.Repeat("ab", 32), Duration: float64(n), Time: float64(i), Index: 30 * i}
	}
	s := annotate.Sample{ID: id, Kind: annotate.KindJudgment, Question: "Is the camera moving forward from A to D?", AnswerText: answer,
		Task: "camera-movement", Frames: frames, Box: &annotate.Box{1, 2, 3, 4}, BoxImage: 1}
	s.SetImages(images)
	return s
}

func TestShuffleNegative(t *testing.T) {
	for _, tc := range []struct {
		name   string
		parent annotate.Sample
		answer string
	}{
		{"a yes of four frames becomes a no", sequenceParent("lrr-cm-0001", 4, "yes"), "no"},
		{"a no of two images becomes a yes", sequenceParent("lrr-cm-0002", 2, "no"), "yes"},
		{"sixteen images", sequenceParent("lrr-cm-0003", 16, "yes"), "no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := Derive(tc.parent)
			if err != nil || len(cs) != 1 {
				t.Fatalf("Derive: %d candidates, %v", len(cs), err)
			}
			c := cs[0]
			s := c.Sample
			was := tc.parent.AllImages()
			now := s.AllImages()
			if slices.Equal(now, was) {
				t.Fatalf("the candidate shows the original order %v", now)
			}
			if !slices.Equal(slices.Sorted(slices.Values(now)), slices.Sorted(slices.Values(was))) {
				t.Fatalf("the candidate shows %v, not the parent's images %v", now, was)
			}
			if s.AnswerText != tc.answer || s.Parent != tc.parent.ID || s.Transform != string(Shuffle) || s.Kind != annotate.KindJudgment {
				t.Errorf("answer %q parent %q transform %q kind %s", s.AnswerText, s.Parent, s.Transform, s.Kind)
			}
			if s.Question != tc.parent.Question || s.Task != tc.parent.Task {
				t.Errorf("question %q task %q: not the parent's", s.Question, s.Task)
			}
			// Frames move with their images; the box stays on the image it was drawn on;
			// labels stay with positions.
			for i, p := range now {
				from := slices.Index(was, p)
				if s.Frames[i] != tc.parent.Frames[from] {
					t.Errorf("image %d (%s) has frame %+v, want %+v", i, p, s.Frames[i], tc.parent.Frames[from])
				}
			}
			if s.BoxImagePath() != tc.parent.BoxImagePath() || *s.Box != *tc.parent.Box {
				t.Errorf("the box is on %s, want %s", s.BoxImagePath(), tc.parent.BoxImagePath())
			}
			if !slices.Equal(s.Labels(), tc.parent.Labels()) {
				t.Errorf("labels %v, want the positions' %v", s.Labels(), tc.parent.Labels())
			}
			// The anchor names the order, and the same parent derives the same candidate.
			var order []string
			for _, p := range now {
				order = append(order, fmt.Sprint(slices.Index(was, p)+1))
			}
			if want := "order " + strings.Join(order, ","); c.Anchor != want {
				t.Errorf("anchor %q, want %q", c.Anchor, want)
			}
			again, _ := Derive(tc.parent, Shuffle)
			if len(again) != 1 || again[0].Anchor != c.Anchor {
				t.Errorf("derived again: %+v, want the same order %q", again, c.Anchor)
			}
			probe := s
			probe.ID = "candidate"
			for _, f := range annotate.Lint(probe, annotate.LintEnv{}) {
				if f.Severity == annotate.SeverityError {
					t.Errorf("the candidate breaks %s: %s", f.Rule, f.Message)
				}
			}
		})
	}
}

// Two images can only be swapped; over many seeds the original order never comes
// back, and seeds differ in what they draw.
func TestShuffleNeverTheOriginalOrder(t *testing.T) {
	orders := map[string]int{}
	for i := range 300 {
		for _, n := range []int{2, 3, 4} {
			p := sequenceParent(fmt.Sprintf("s-%d", i), n, "yes")
			cs, err := Derive(p, Shuffle)
			if err != nil || len(cs) != 1 {
				t.Fatalf("%s: %v", p.ID, err)
			}
			if slices.Equal(cs[0].Sample.AllImages(), p.AllImages()) {
				t.Fatalf("%s of %d: the original order", p.ID, n)
			}
			if n == 4 {
				orders[cs[0].Anchor]++
			}
		}
	}
	if len(orders) != 23 { // every order of four but the original
		t.Errorf("%d orders of four drawn over 300 seeds, want all 23 others: %v", len(orders), orders)
	}
}

func TestShuffleRefuses(t *testing.T) {
	one := sequenceParent("one", 1, "yes")
	one.Frames = nil
	mcq := sequenceParent("mcq", 3, "yes")
	mcq.Kind, mcq.Options, mcq.AnswerText = annotate.KindMCQ, []string{"a", "b"}, ""
	maybe := sequenceParent("maybe", 3, "maybe")
	for _, p := range []annotate.Sample{one, mcq, maybe} {
		if cs, err := Derive(p, Shuffle); !errors.Is(err, ErrParent) {
			t.Errorf("%s: %d candidates, %v; want ErrParent", p.ID, len(cs), err)
		}
	}
	// The same image twice and nothing else: no other order to show.
	same := sequenceParent("same", 2, "yes")
	same.SetImages([]string{"a.jpg", "a.jpg"})
	if cs, err := Derive(same, Shuffle); err != nil || len(cs) != 0 {
		t.Errorf("a sequence of one image twice: %d candidates, %v; want none", len(cs), err)
	}
	// A step graph is not shuffled, and a yes/no question gets no step-graph transforms.
	if cs, err := Derive(sequenceParent("yn", 3, "yes")); err != nil || len(cs) != 1 || cs[0].Transform != Shuffle {
		t.Errorf("all transforms of a yes/no sequence: %+v, %v", cs, err)
	}
}
