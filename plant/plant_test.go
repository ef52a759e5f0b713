package plant

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/verify"
)

// The fixtures: one accepted sample of each kind, lint-clean.
func fixtures() map[string]annotate.Sample {
	tol := 0.5
	return map[string]annotate.Sample{
		"hop": {ID: "mh-0001", Kind: annotate.KindHopQA, Image: "0001-kitchen-1/a.jpg",
			Question:    "From the perspective of the man in the blue shirt, which red object is closest to him?",
			QuestionTag: "From the perspective of the man in the blue shirt, which <ATT>red</ATT> object is <REL>closest to him</REL>?",
			Options:     []string{"the mug", "the kettle", "the apple", "the book"},
			Categories:  []annotate.Category{annotate.CatAtt, annotate.CatRel}, Hop: 2, View: annotate.ViewEgo, EgoSubject: annotate.EgoReal,
			AnswerIndex: 2, Box: &annotate.Box{412, 188, 470, 240}},
		"mcq": {ID: "mc-0001", Kind: annotate.KindMCQ, Image: "0001-kitchen-1/a.jpg", Question: "Where is the mug relative to the lamp?",
			Options: []string{"left of it", "right of it", "behind it"}, AnswerIndex: 1},
		"steps": {ID: "sg-0001", Kind: annotate.KindStepGraph, Image: "0001-kitchen-1/a.jpg", Scene: "0001-kitchen-1", Question: "Make tea",
			Steps: []annotate.Step{
				{ID: "step1", Content: "Take the cup from the shelf", Precondition: []string{}},
				{ID: "step2", Content: "Put a tea bag in the cup", Precondition: []string{"step1"}},
				{ID: "step3", Content: "Place the cup under the kettle", Precondition: []string{"step1"}},
				{ID: "step4", Content: "Pour the hot water", Precondition: []string{"step2", "step3"}}}},
		"yesno": {ID: "yn-0001", Kind: annotate.KindJudgment, Image: "0001-kitchen-1/a.jpg", Question: "Is the mug left of the lamp?", AnswerText: "yes"},
		"open":  {ID: "op-0001", Kind: annotate.KindOpen, Image: "0001-kitchen-1/a.jpg", Question: "How many mugs are on the table?", AnswerText: "3", Tolerance: &tol},
		"sequence": {ID: "sq-0001", Kind: annotate.KindMCQ, Image: "0001-kitchen-1/a.jpg", MoreImages: []string{"0001-kitchen-1/b.jpg"},
			Question: "In which image is the mug nearer the lamp?", Options: []string{"the first", "the second"}, AnswerIndex: 0},
	}
}

// lintRule is the lint rule a lint-visible mutation must raise.
var lintRule = map[Mutation]string{
	TagRemoved:         annotate.RuleHopMismatch,
	EgoSubjectStripped: annotate.RuleEgoPhrase,
	TransitiveEdge:     annotate.RuleStepTransitive,
}

func errorRules(s annotate.Sample) []string {
	var out []string
	for _, f := range annotate.Lint(s, annotate.LintEnv{}) {
		if f.Severity == annotate.SeverityError {
			out = append(out, f.Rule)
		}
	}
	return out
}

// TestEachMutationMakesOneError: every mutation a fixture takes changes exactly one
// thing a lint or a reviewer sees: a lint-visible one raises exactly its lint
// error; a reviewer-visible one raises none and changes exactly its field, as the
// guideline forbids (another key, a box with IoU < 0.3 or shrunk to half, an
// option naming the answer's object, a step before the one it needs, …). Every
// mutation applies to at least one fixture; a clean copy equals its original.
func TestEachMutationMakesOneError(t *testing.T) {
	used := map[Mutation]bool{}
	for name, s := range fixtures() {
		if rules := errorRules(s); len(rules) > 0 {
			t.Fatalf("fixture %s has lint errors %v", name, rules)
		}
		for _, m := range Applicable(s, 640, 480) {
			used[m] = true
			t.Run(name+"/"+string(m), func(t *testing.T) {
				c, err := Mutate(s, m, 640, 480, rand.New(rand.NewPCG(7, uint64(len(m)))))
				if err != nil {
					t.Fatal(err)
				}
				got := errorRules(c)
				if want, ok := lintRule[m]; ok {
					if !slices.Equal(got, []string{want}) {
						t.Errorf("lint errors %v, want exactly %s", got, want)
					}
					return
				}
				if len(got) > 0 {
					t.Errorf("a reviewer-visible mutation raised lint errors %v", got)
				}
				diff := changed(s, c)
				if want := fieldOf[m]; !slices.Equal(diff, []string{want}) {
					t.Errorf("changed %v, want only %s", diff, want)
				}
				switch m {
				case AnswerMoved:
					if c.AnswerIndex == s.AnswerIndex {
						t.Error("the key did not move")
					}
				case BoxMoved:
					if iou := c.Box.IoU(*s.Box); iou >= 0.3 || c.Box[0] < 0 || c.Box[2] > 640 || c.Box[3] > 480 {
						t.Errorf("moved box %v: IoU %.2f with the gold %v", *c.Box, iou, *s.Box)
					}
				case BoxShrunk:
					if w, h := c.Box[2]-c.Box[0], c.Box[3]-c.Box[1]; w != (s.Box[2]-s.Box[0])/2 || h != (s.Box[3]-s.Box[1])/2 {
						t.Errorf("shrunk box %v of %v", *c.Box, *s.Box)
					}
				case AnswerChanged:
					if c.AnswerText == s.AnswerText {
						t.Error("the answer did not change")
					}
				}
			})
		}
		if c, err := Mutate(s, Clean, 640, 480, rand.New(rand.NewPCG(1, 1))); err != nil || len(changed(s, c)) > 0 {
			t.Errorf("%s: a clean copy changed %v (%v)", name, changed(s, c), err)
		}
	}
	for _, m := range Mutations {
		if !used[m] {
			t.Errorf("no fixture takes %s", m)
		}
	}
	if _, err := Mutate(fixtures()["yesno"], BoxMoved, 640, 480, rand.New(rand.NewPCG(1, 1))); !errors.Is(err, ErrNotApplicable) {
		t.Errorf("a box move on a judgment: %v", err)
	}
}

// fieldOf is what a reviewer-visible mutation changes, as changed names it.
var fieldOf = map[Mutation]string{
	AnswerMoved: "answer", BoxMoved: "box", BoxShrunk: "box", OptionsNearIdentical: "options",
	PreconditionRemoved: "steps", StepsSwapped: "steps", AnswerFlipped: "answer", AnswerChanged: "answer", ImagesSwapped: "images",
}

// changed names the fields in which c differs from s.
func changed(s, c annotate.Sample) []string {
	var out []string
	add := func(differ bool, name string) {
		if differ {
			out = append(out, name)
		}
	}
	add(s.AnswerIndex != c.AnswerIndex || s.AnswerText != c.AnswerText, "answer")
	add((s.Box == nil) != (c.Box == nil) || s.Box != nil && *s.Box != *c.Box, "box")
	add(!slices.Equal(s.Options, c.Options), "options")
	add(s.Question != c.Question || s.QuestionTag != c.QuestionTag || !slices.Equal(s.Categories, c.Categories), "question")
	add(fmt.Sprint(s.Steps) != fmt.Sprint(c.Steps), "steps")
	add(!slices.Equal(s.AllImages(), c.AllImages()), "images")
	return out
}

// TestMutateLeavesTheOriginal: the copy shares nothing a mutation changes.
func TestMutateLeavesTheOriginal(t *testing.T) {
	for name, s := range fixtures() {
		before := fmt.Sprintf("%+v %v", s, *boxOr(s.Box))
		for _, m := range Mutations {
			_, _ = Mutate(s, m, 640, 480, rand.New(rand.NewPCG(3, 3)))
		}
		if after := fmt.Sprintf("%+v %v", s, *boxOr(s.Box)); after != before {
			t.Errorf("%s changed by its mutations:\n%s\n%s", name, before, after)
		}
	}
}

func boxOr(b *annotate.Box) *annotate.Box {
	if b == nil {
		return &annotate.Box{}
	}
	return b
}

// TestReviewOfPlanted: verify's rule of what a review of a planted copy counts as.
func TestReviewOfPlanted(t *testing.T) {
	tests := []struct {
		m        Mutation
		decision verify.Decision
		reasons  []string
		want     verify.PlantOutcome
	}{
		{AnswerMoved, verify.DecisionReject, []string{"answer_correct"}, verify.PlantCaught},
		{AnswerMoved, verify.DecisionReject, []string{"natural_grammar", "box_on_answer"}, verify.PlantCaught},
		{AnswerMoved, verify.DecisionReject, []string{"natural_grammar"}, verify.PlantPartly},
		{AnswerMoved, verify.DecisionApprove, nil, verify.PlantMissed},
		{BoxMoved, verify.DecisionReject, []string{"box_precise"}, verify.PlantCaught},
		{BoxMoved, verify.DecisionReject, []string{"answer_correct"}, verify.PlantPartly},
		{TransitiveEdge, verify.DecisionReject, []string{"preconditions_correct"}, verify.PlantCaught},
		{StepsSwapped, verify.DecisionReject, []string{"steps_valid"}, verify.PlantCaught},
		{TagRemoved, verify.DecisionReject, []string{"follows_template"}, verify.PlantCaught},
		{TagRemoved, verify.DecisionReject, []string{verify.ReasonOther}, verify.PlantPartly},
		{Clean, verify.DecisionApprove, nil, verify.PlantRight},
		{Clean, verify.DecisionReject, []string{"answer_correct"}, verify.PlantFalseAlarm},
	}
	for _, tt := range tests {
		if got := verify.ReviewOfPlanted(tt.m.Field(), tt.decision, tt.reasons); got != tt.want {
			t.Errorf("%s, %s %v: %s, want %s", tt.m, tt.decision, tt.reasons, got, tt.want)
		}
	}
}

// TestFigures: the counts and rates are those counted by hand, the intervals
// sampling's Clopper–Pearson of those counts; the panel catches what any of its
// verifiers caught; the pause rule reads the upper bound.
func TestFigures(t *testing.T) {
	r := func(v string, round int, item string, m Mutation, o verify.PlantOutcome) Review {
		return Review{Verifier: v, Round: round, Item: item, Mutation: m, Outcome: o}
	}
	rs := []Review{
		r("ver1", 1, "p1", AnswerMoved, verify.PlantCaught), r("ver1", 1, "p2", BoxMoved, verify.PlantMissed),
		r("ver1", 1, "p3", AnswerMoved, verify.PlantPartly), r("ver1", 1, "c1", Clean, verify.PlantFalseAlarm),
		r("ver1", 1, "c2", Clean, verify.PlantRight), r("ver2", 1, "p2", BoxMoved, verify.PlantCaught),
		r("ver2", 1, "p1", AnswerMoved, verify.PlantMissed), r("ver1", 2, "p4", StepsSwapped, verify.PlantMissed),
	}
	fs := Figures(rs)
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%s r%d planted %d caught %d partly %d missed %d clean %d false %d",
			f.Verifier, f.Round, f.Planted, f.Caught, f.Partly, f.Missed, f.Clean, f.FalseAlarms))
		if f.CatchRate.CI != sampling.ClopperPearson(f.Caught, f.Planted, 0.95) || f.FalseAlarmRate.CI != sampling.ClopperPearson(f.FalseAlarms, f.Clean, 0.95) {
			t.Errorf("%s round %d: intervals %v %v", f.Verifier, f.Round, f.CatchRate.CI, f.FalseAlarmRate.CI)
		}
	}
	want := []string{
		"ver1 r1 planted 3 caught 1 partly 1 missed 1 clean 2 false 1",
		"ver1 r2 planted 1 caught 0 partly 0 missed 1 clean 0 false 0",
		"ver2 r1 planted 2 caught 1 partly 0 missed 1 clean 0 false 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("figures\n%v\nwant\n%v", got, want)
	}
	if am := fs[0].ByMutation[AnswerMoved]; am.K != 1 || am.N != 2 {
		t.Errorf("ver1's answer-moved: %+v", am)
	}
	panel := PanelCatch(rs)
	if p := panel[1]; p.K != 2 || p.N != 3 { // p1 (ver1) and p2 (ver2) of p1, p2, p3
		t.Errorf("round 1 panel: %+v", p)
	}
	if p := panel[2]; p.K != 0 || p.N != 1 {
		t.Errorf("round 2 panel: %+v", p)
	}
	if fs[1].Pause(0.5, 1) != (sampling.ClopperPearson(0, 1, 0.95).High < 0.5) || !(VerifierFigures{Planted: 20, CatchRate: rate(0, 20)}).Pause(0.5, 10) ||
		(VerifierFigures{Planted: 5, CatchRate: rate(0, 5)}).Pause(0.5, 10) {
		t.Error("the pause rule")
	}
}

// TestCatchRateIntervalsCover: verifiers with a known chance of catching a planted
// error, simulated over 400 seeds of 40 planted items each: the catch rate's 95 %
// interval covers the true chance at least 95 % of the time (Clopper–Pearson is
// conservative), and the estimates centre on it.
func TestCatchRateIntervalsCover(t *testing.T) {
	for _, p := range []float64{0.1, 0.5, 0.85} {
		covered, sum := 0, 0.0
		const seeds = 400
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(seed), 9))
			var rs []Review
			for i := range 40 {
				o := verify.PlantMissed
				if rng.Float64() < p {
					o = verify.PlantCaught
				}
				rs = append(rs, Review{Verifier: "v", Round: 1, Item: fmt.Sprint(i), Mutation: AnswerMoved, Outcome: o})
			}
			f := Figures(rs)[0]
			if f.CatchRate.CI.Low <= p && p <= f.CatchRate.CI.High {
				covered++
			}
			sum += f.CatchRate.Value
		}
		if c := float64(covered) / seeds; c < 0.95 {
			t.Errorf("p %.2f: covered %.3f of the time", p, c)
		}
		if mean := sum / seeds; mean < p-0.02 || mean > p+0.02 {
			t.Errorf("p %.2f: mean estimate %.3f", p, mean)
		}
	}
}
