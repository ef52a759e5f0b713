package bench

import (
	"fmt"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
)

func TestDeriveCandidates(t *testing.T) {
	seq := func(id string, rev int) SampleInfo {
		images := make([]string, 4)
		for i := range images {
			images[i] = fmt.Sprintf("walk/frame-%02d.jpg", i+1)
		}
		s := annotate.Sample{ID: id, Kind: annotate.KindJudgment, Question: "Is the camera moving forward from A to D?", AnswerText: "yes", Task: "camera-movement"}
		s.SetImages(images)
		return SampleInfo{ID: id, Kind: s.Kind, Revision: rev, Content: s}
	}
	one := SampleInfo{ID: "yn-one", Revision: 1, Content: annotate.Sample{ID: "yn-one", Kind: annotate.KindJudgment, Image: "a.jpg", Question: "Is it left?", AnswerText: "yes"}}
	a, b := seq("yn-a", 2), seq("yn-a", 3) // b derives what a derives (listed twice, as no store would)
	derived, err := augment.Derive(a.Content)
	if err != nil || len(derived) == 0 {
		t.Fatalf("the fixture derives %d candidates: %v", len(derived), err)
	}
	refOf := func(p SampleInfo, c augment.Candidate) CandidateRef {
		return CandidateRef{Parent: p.ID, ParentRevision: p.Revision, Transform: c.Transform, Anchor: c.Anchor}
	}
	brief := func(cs []Candidate) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.CandidateRef.String()+" dup="+c.Duplicate)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		parents   []SampleInfo
		decided   map[CandidateRef]bool
		questions map[string]string
		want      func() []string
	}{
		{"one parent", []SampleInfo{a}, nil, nil, func() (w []string) {
			for _, c := range derived {
				w = append(w, refOf(a, c).String()+" dup=")
			}
			return w
		}},
		{"a parent that derives nothing", []SampleInfo{one}, nil, nil, func() []string { return nil }},
		{"decided ones left out", []SampleInfo{a}, map[CandidateRef]bool{refOf(a, derived[0]): true}, nil, func() (w []string) {
			for _, c := range derived[1:] {
				w = append(w, refOf(a, c).String()+" dup=")
			}
			return w
		}},
		{"the same question as a sample", []SampleInfo{a}, nil, map[string]string{annotate.QuestionKey(derived[0].Sample): "yn-x"}, func() (w []string) {
			for i, c := range derived {
				w = append(w, refOf(a, c).String()+" dup="+map[bool]string{true: "yn-x"}[i == 0])
			}
			return w
		}},
		{"the same question as an earlier candidate", []SampleInfo{a, b}, nil, nil, func() (w []string) {
			for _, c := range derived {
				w = append(w, refOf(a, c).String()+" dup=")
			}
			for _, c := range derived {
				w = append(w, refOf(b, c).String()+" dup=candidate "+refOf(a, c).String())
			}
			return w
		}},
	} {
		got, err := DeriveCandidates(tc.parents, nil, tc.decided, tc.questions)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := tc.want(); !slices.Equal(brief(got), want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, brief(got), want)
		}
		for _, c := range got {
			if c.Sample.Parent != c.Parent || c.ParentSample.ID != c.Parent {
				t.Errorf("%s: candidate %s: sample parent %q, parent sample %q", tc.name, c.CandidateRef, c.Sample.Parent, c.ParentSample.ID)
			}
		}
	}
}

func TestNewCandidateLints(t *testing.T) {
	p := annotate.Sample{ID: "yn-1", Kind: annotate.KindJudgment, Question: "Is it?", AnswerText: "yes"}
	c := augment.Candidate{Sample: annotate.Sample{Kind: annotate.KindJudgment, Parent: "yn-1", AnswerText: "no"}, Edit: "say more"}
	got := NewCandidate(CandidateRef{Parent: "yn-1"}, p, c)
	if got.Edit != "say more" || got.ParentSample.ID != "yn-1" || got.Sample.ID != "" {
		t.Errorf("candidate %+v", got)
	}
	want := annotate.Lint(annotate.Sample{ID: "candidate", Kind: annotate.KindJudgment, Parent: "yn-1", AnswerText: "no"}, annotate.LintEnv{})
	if !annotate.HasErrors(want) {
		t.Fatal("the fixture has no lint errors")
	}
	if len(got.Findings) != len(want) {
		t.Fatalf("%d findings, want %d", len(got.Findings), len(want))
	}
	for i, f := range got.Findings {
		if f.Sample != "" || f.Rule != want[i].Rule || f.Field != want[i].Field {
			t.Errorf("finding %d: %+v, want %+v without its sample", i, f, want[i])
		}
	}
}
