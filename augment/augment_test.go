package augment_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
)

// graph builds steps from "id: content <- pre1,pre2" lines.
func graph(lines ...string) []annotate.Step {
	var out []annotate.Step
	for _, l := range lines {
		id, rest, _ := strings.Cut(l, ": ")
		content, pre, _ := strings.Cut(rest, " <- ")
		s := annotate.Step{ID: id, Content: content, Precondition: []string{}}
		if pre != "" {
			s.Precondition = strings.Split(pre, ",")
		}
		out = append(out, s)
	}
	return out
}

// render writes steps back in graph's notation.
func render(steps []annotate.Step) []string {
	var out []string
	for _, s := range steps {
		l := s.ID + ": " + s.Content
		if len(s.Precondition) > 0 {
			l += " <- " + strings.Join(s.Precondition, ",")
		}
		out = append(out, l)
	}
	return out
}

func parent(id string, steps []annotate.Step) annotate.Sample {
	return annotate.Sample{ID: id, Kind: annotate.KindStepGraph, Image: "0001-office-1/a.jpg", Scene: "0001-office-1",
		Question: steps[len(steps)-1].Content, Steps: steps, Task: "T1", Split: "test"}
}

func chain(n int, last string) []annotate.Step {
	var lines []string
	for i := 1; i < n; i++ {
		l := fmt.Sprintf("s%d: Remove the box %d from the shelf", i, i)
		if i > 1 {
			l += fmt.Sprintf(" <- s%d", i-1)
		}
		lines = append(lines, l)
	}
	return graph(append(lines, fmt.Sprintf("s%d: %s <- s%d", n, last, n-1))...)
}

type want struct {
	key      string
	question string
	steps    []string // nil: not compared
	origin   []string // nil: not compared
	edit     string   // a substring of Edit; "" wants none
}

func TestDerive(t *testing.T) {
	stapler := graph(
		"a: Remove the stapler from the top of the book",
		"b: Remove the book from the top of the laptop <- a",
		"c: Pick up the laptop <- b")
	diamond := graph(
		"s1: Open the cabinet door",
		"s2: Remove the box from the shelf <- s1",
		"s3: Remove the bag from the shelf <- s1",
		"s4: Pick up the vase <- s2,s3")
	roots := graph(
		"s1: Turn on the light",
		"s2: Open the drawer",
		"s3: Remove the pen from the drawer <- s2",
		"s4: Pick up the notebook <- s1,s3")
	cases := []struct {
		name  string
		steps []annotate.Step
		t     augment.Transform
		want  []want
	}{
		{"chain of 2: no proper subgraph", graph("s1: Remove the book", "s2: Pick up the laptop <- s1"), augment.Subgraph, nil},
		{"chain of 2: expansion", graph("s1: Remove the book from the top of the laptop", "s2: Pick up the laptop <- s1"), augment.Expand, []want{{
			key: "expand:s1", question: "Place the laptop on the book",
			steps: []string{"step1: Pick up the book", "step2: Pick up the laptop <- step1", "step3: Put down the book <- step1",
				"step4: Place the laptop on the book <- step2,step3"},
			origin: []string{"s1", "s2", "", ""},
		}}},
		{"chain of 3: subgraph", stapler, augment.Subgraph, []want{{
			key: "subgraph:b", question: "Remove the book from the top of the laptop",
			steps:  []string{"step1: Remove the stapler from the top of the book", "step2: Remove the book from the top of the laptop <- step1"},
			origin: []string{"a", "b"},
		}}},
		{"chain of 3: expansion of each remove", stapler, augment.Expand, []want{
			{key: "expand:a", question: "Place the laptop on the stapler", steps: []string{
				"step1: Pick up the stapler", "step2: Remove the book from the top of the laptop <- step1", "step3: Pick up the laptop <- step2",
				"step4: Put down the stapler <- step1", "step5: Place the laptop on the stapler <- step3,step4"}},
			{key: "expand:b", question: "Place the laptop on the book", steps: []string{
				"step1: Remove the stapler from the top of the book", "step2: Pick up the book <- step1", "step3: Pick up the laptop <- step2",
				"step4: Put down the book <- step2", "step5: Place the laptop on the book <- step3,step4"}},
		}},
		{"diamond: subgraphs", diamond, augment.Subgraph, []want{
			{key: "subgraph:s2", question: "Remove the box from the shelf", steps: []string{"step1: Open the cabinet door", "step2: Remove the box from the shelf <- step1"}},
			{key: "subgraph:s3", question: "Remove the bag from the shelf", steps: []string{"step1: Open the cabinet door", "step2: Remove the bag from the shelf <- step1"}, origin: []string{"s1", "s3"}},
		}},
		{"diamond: expansions", diamond, augment.Expand, []want{
			{key: "expand:s2", question: "Place the vase on the box"},
			{key: "expand:s3", question: "Place the vase on the bag", steps: []string{
				"step1: Open the cabinet door", "step2: Remove the box from the shelf <- step1", "step3: Pick up the bag <- step1",
				"step4: Pick up the vase <- step2,step3", "step5: Put down the bag <- step3", "step6: Place the vase on the bag <- step4,step5"}},
		}},
		{"several roots: subgraph", roots, augment.Subgraph, []want{
			{key: "subgraph:s3", question: "Remove the pen from the drawer", steps: []string{"step1: Open the drawer", "step2: Remove the pen from the drawer <- step1"}, origin: []string{"s2", "s3"}},
		}},
		{"several roots: expansion", roots, augment.Expand, []want{
			{key: "expand:s3", question: "Place the notebook on the pen", steps: []string{
				"step1: Turn on the light", "step2: Open the drawer", "step3: Pick up the pen <- step2", "step4: Pick up the notebook <- step1,step3",
				"step5: Put down the pen <- step3", "step6: Place the notebook on the pen <- step4,step5"}},
		}},
		{"chain of 10: eight subgraphs", chain(10, "Pick up the lamp"), augment.Subgraph, func() []want {
			var w []want
			for i := 2; i <= 9; i++ {
				w = append(w, want{key: fmt.Sprintf("subgraph:s%d", i), question: fmt.Sprintf("Remove the box %d from the shelf", i)})
			}
			return w
		}()},
		{"chain of 8: expansion reaches 10 steps", chain(8, "Pick up the lamp")[:8], augment.Expand, func() []want {
			var w []want
			for i := 1; i <= 7; i++ {
				w = append(w, want{key: fmt.Sprintf("expand:s%d", i), question: fmt.Sprintf("Place the lamp on the box %d", i)})
			}
			return w
		}()},
		{"chain of 9: expansion would have 11 steps", chain(9, "Pick up the lamp"), augment.Expand, func() []want {
			var w []want
			for i := 1; i <= 8; i++ {
				w = append(w, want{key: fmt.Sprintf("expand:s%d", i), question: fmt.Sprintf("Place the lamp on the box %d", i), edit: "11 steps, more than 10"})
			}
			return w
		}()},
		{"final step is not a pick-up", graph("s1: Remove the lid from the pot", "s2: Open the pot <- s1"), augment.Expand, nil},
		{"no remove step", graph("s1: Open the drawer", "s2: Pick up the pen <- s1"), augment.Expand, nil},
		{"final step names two objects", graph("s1: Remove the book from the tray", "s2: Pick up the cup and the saucer <- s1"), augment.Expand, []want{
			{key: "expand:s1", question: "Place the cup and the saucer on the book", edit: `the final step s2 "Pick up the cup and the saucer": "the cup and the saucer" does not name one object`},
		}},
		{"final step names a place", graph("s1: Remove the book from the tray", "s2: Pick up the cup from the table <- s1"), augment.Expand, []want{
			{key: "expand:s1", edit: "does not name one object"},
		}},
		{"remove names two objects", graph("s1: Remove the pens, the ruler from the tray", "s2: Pick up the tray <- s1"), augment.Expand, []want{
			{key: "expand:s1", edit: `step s1 "Remove the pens, the ruler from the tray": "the pens, the ruler" does not name one object`},
		}},
		{"remove names the picked-up object", graph("s1: Remove the laptop from the bag", "s2: Pick up the Laptop. <- s1"), augment.Expand, []want{
			{key: "expand:s1", edit: `removes "the laptop", the object the task picks up`},
		}},
		{"lower-case wording and a trailing period", graph("s1: remove the mug off the book.", "s2: pick up the book. <- s1"), augment.Expand, []want{
			{key: "expand:s1", question: "Place the book on the mug", steps: []string{"step1: Pick up the mug", "step2: pick up the book. <- step1",
				"step3: Put down the mug <- step1", "step4: Place the book on the mug <- step2,step3"}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := parent("p-1", tc.steps)
			got, err := augment.Derive(p, tc.t)
			if err != nil {
				t.Fatal(err)
			}
			var keys, wantKeys []string
			for _, c := range got {
				keys = append(keys, c.Key())
			}
			for _, w := range tc.want {
				wantKeys = append(wantKeys, w.key)
			}
			if !slices.Equal(keys, wantKeys) {
				t.Fatalf("candidates %v, want %v", keys, wantKeys)
			}
			for i, w := range tc.want {
				c := got[i]
				if w.question != "" && c.Sample.Question != w.question {
					t.Errorf("%s: question %q, want %q", w.key, c.Sample.Question, w.question)
				}
				if w.steps != nil && !slices.Equal(render(c.Sample.Steps), w.steps) {
					t.Errorf("%s: steps\n%s\nwant\n%s", w.key, strings.Join(render(c.Sample.Steps), "\n"), strings.Join(w.steps, "\n"))
				}
				if w.origin != nil && !slices.Equal(c.Origin, w.origin) {
					t.Errorf("%s: origin %q, want %q", w.key, c.Origin, w.origin)
				}
				switch {
				case w.edit == "" && c.Edit != "":
					t.Errorf("%s: marked for editing: %s", w.key, c.Edit)
				case w.edit != "" && !strings.Contains(c.Edit, w.edit):
					t.Errorf("%s: Edit %q, want it to say %q", w.key, c.Edit, w.edit)
				}
				checkCandidate(t, p, c)
			}
		})
	}
}

// checkCandidate checks what every candidate must hold: its provenance, and, unless
// it is marked for editing, a clean lint as a derived step graph (DAG, no transitive
// edge, one final step, 2–10 steps) whose final step is the question.
func checkCandidate(t *testing.T, p annotate.Sample, c augment.Candidate) {
	t.Helper()
	s := c.Sample
	if s.Parent != p.ID || s.Transform != string(c.Transform) || s.Image != p.Image || s.Scene != p.Scene || s.Task != p.Task || s.Split != p.Split || s.ID != "" {
		t.Errorf("%s: provenance not recorded: %+v", c.Key(), s)
	}
	if !slices.ContainsFunc(p.Steps, func(st annotate.Step) bool { return st.ID == c.Anchor }) {
		t.Errorf("%s: anchor %q is not a parent step", c.Key(), c.Anchor)
	}
	if len(c.Origin) != len(s.Steps) {
		t.Fatalf("%s: %d origins for %d steps", c.Key(), len(c.Origin), len(s.Steps))
	}
	for i, o := range c.Origin {
		j := slices.IndexFunc(p.Steps, func(st annotate.Step) bool { return st.ID == o })
		switch {
		case o == "" && c.Transform == augment.Subgraph:
			t.Errorf("%s: step %d has no origin", c.Key(), i)
		case o != "" && j < 0:
			t.Errorf("%s: origin %q is not a parent step", c.Key(), o)
		case o != "" && p.Steps[j].Content != s.Steps[i].Content && o != c.Anchor:
			t.Errorf("%s: step %d reads %q, its origin %q", c.Key(), i, s.Steps[i].Content, p.Steps[j].Content)
		}
	}
	if c.Edit != "" {
		return
	}
	s.ID = "derived-1"
	for _, f := range annotate.Lint(s, annotate.LintEnv{}) {
		if f.Severity == annotate.SeverityError || strings.HasPrefix(f.Rule, "step") {
			t.Errorf("%s: lint %s %s: %s", c.Key(), f.Severity, f.Rule, f.Message)
		}
	}
	last := s.Steps[len(s.Steps)-1]
	for _, st := range s.Steps {
		if slices.Contains(st.Precondition, last.ID) {
			t.Errorf("%s: the last step %s is a precondition of %s", c.Key(), last.ID, st.ID)
		}
	}
	if last.Content != s.Question {
		t.Errorf("%s: question %q is not the final step %q", c.Key(), s.Question, last.Content)
	}
}

func TestDeriveRefusesBadParents(t *testing.T) {
	cases := []struct {
		name string
		s    annotate.Sample
	}{
		{"hop question", annotate.Sample{ID: "h", Kind: annotate.KindHopQA}},
		{"cycle", parent("c", graph("s1: Open the box <- s2", "s2: Pick up the box <- s1"))},
		{"transitive edge", parent("t", graph("s1: Open the box", "s2: Remove the lid <- s1", "s3: Pick up the box <- s1,s2"))},
		{"two final steps", parent("f", graph("s1: Open the box", "s2: Remove the lid <- s1", "s3: Pick up the box <- s1"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := augment.Derive(tc.s); !errors.Is(err, augment.ErrParent) {
				t.Fatalf("Derive: %v, want ErrParent", err)
			}
		})
	}
}

// randomGraph is a valid step graph of n steps: random edges from earlier to later
// steps, every step but the last leading on, transitive edges removed. The contents
// mix the two patterns with wording that fits neither.
func randomGraph(r *rand.Rand, n int) []annotate.Step {
	objects := []string{"the book", "the mug", "the lid", "the laptop", "a red box", "the cups and plates", "the pen, the ruler", ""}
	verbs := []string{"Remove %s", "Remove %s from the top of the laptop", "Open %s", "remove %s off the shelf.", "Pick up %s", "Move %s aside"}
	steps := make([]annotate.Step, n)
	for i := range steps {
		content := fmt.Sprintf(verbs[r.IntN(len(verbs))], objects[r.IntN(len(objects))])
		if i == n-1 && r.IntN(4) > 0 {
			content = "Pick up " + objects[r.IntN(len(objects))]
		}
		steps[i] = annotate.Step{ID: fmt.Sprintf("n%d", i), Content: strings.TrimSpace(content)}
		if strings.TrimSpace(steps[i].Content) == "" {
			steps[i].Content = "Wait"
		}
	}
	for j := 1; j < n; j++ {
		for i := 0; i < j; i++ {
			if r.IntN(3) == 0 {
				steps[j].Precondition = append(steps[j].Precondition, steps[i].ID)
			}
		}
	}
	for i := 0; i < n-1; i++ { // every step leads on: at least one later step lists it
		listed := false
		for j := i + 1; j < n; j++ {
			listed = listed || slices.Contains(steps[j].Precondition, steps[i].ID)
		}
		if !listed {
			j := i + 1 + r.IntN(n-1-i)
			steps[j].Precondition = append(steps[j].Precondition, steps[i].ID)
		}
	}
	for _, e := range annotate.RedundantEdges(steps) {
		steps = annotate.RemovePrecondition(steps, e.From, e.To)
	}
	return steps
}

// TestDeriveProperty: on random valid graphs of 2–10 steps, every candidate not
// marked for editing is a valid derived step graph with its provenance.
func TestDeriveProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 7))
	var total, edits int
	for range 3000 {
		steps := randomGraph(r, 2+r.IntN(9))
		p := parent("p", steps)
		if fs := annotate.CheckGraph(steps); annotate.HasErrors(fs) {
			t.Fatalf("generator made an invalid graph: %v", fs)
		}
		cs, err := augment.Derive(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			total++
			if c.Edit != "" {
				edits++
			}
			checkCandidate(t, p, c)
		}
		if t.Failed() {
			t.Fatalf("parent:\n%s", strings.Join(render(steps), "\n"))
		}
	}
	if total < 3000 || edits == 0 || edits == total {
		t.Fatalf("%d candidates, %d for editing: the generator does not exercise both", total, edits)
	}
}

func TestParseTransform(t *testing.T) {
	for _, s := range []string{"subgraph", "expand", " expand "} {
		if _, err := augment.ParseTransform(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range []string{"", "Subgraph", "both"} {
		if _, err := augment.ParseTransform(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}
