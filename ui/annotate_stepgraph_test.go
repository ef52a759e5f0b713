package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

func steps(spec ...[]string) []annotate.Step {
	// each spec: id, content, preconditions...
	out := make([]annotate.Step, len(spec))
	for i, s := range spec {
		out[i] = annotate.Step{ID: s[0], Content: s[1], Precondition: append([]string{}, s[2:]...)}
	}
	return out
}

func TestStepGraphLayout(t *testing.T) {
	tests := []struct {
		name      string
		steps     []annotate.Step
		cols      map[string]int
		edges     int
		redundant []string // "from→to"
		backward  int
	}{
		{"empty", nil, map[string]int{}, 0, nil, 0},
		{"chain with a transitive edge",
			steps([]string{"step1", "a"}, []string{"step2", "b", "step1"}, []string{"step3", "c", "step2", "step1"}),
			map[string]int{"step1": 0, "step2": 1, "step3": 2}, 3, []string{"step1→step3"}, 0},
		{"paper example",
			steps([]string{"step1", "a"}, []string{"step2", "b"}, []string{"step3", "c"}, []string{"step4", "d", "step1", "step2"}, []string{"step5", "e", "step3", "step4"}),
			map[string]int{"step1": 0, "step2": 0, "step3": 0, "step4": 1, "step5": 2}, 4, nil, 0},
		{"cycle, self and unknown refs, missing and repeated ids",
			steps([]string{"step1", "a", "step2", "step1"}, []string{"step2", "b", "step1", "nope"}, []string{"", "no id", "step1"}, []string{"step1", "dup", "step2"}),
			map[string]int{"step1": 0, "step2": 0}, 2, nil, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := layoutStepGraph(tt.steps, sgBoxW)
			if len(l.nodes) != len(tt.cols) {
				t.Fatalf("%d nodes, want %d", len(l.nodes), len(tt.cols))
			}
			for id, c := range tt.cols {
				if n := l.nodes[id]; n == nil || n.col != c {
					t.Errorf("%s: node %+v, want column %d", id, n, c)
				}
			}
			if len(l.edges) != tt.edges {
				t.Errorf("%d edges %+v, want %d", len(l.edges), l.edges, tt.edges)
			}
			var red []string
			back := 0
			for _, e := range l.edges {
				if e.redundant {
					red = append(red, e.from+"→"+e.to)
				}
				if e.backward {
					back++
				}
			}
			if len(red) != len(tt.redundant) || (len(red) > 0 && red[0] != tt.redundant[0]) {
				t.Errorf("redundant edges %v, want %v", red, tt.redundant)
			}
			if back != tt.backward {
				t.Errorf("%d backward edges, want %d", back, tt.backward)
			}
		})
	}
}

func TestStepGraphWidgetRedraws(t *testing.T) {
	test.NewTempApp(t)
	g := newStepGraph()
	w := test.NewWindow(g)
	w.SetPadded(false)
	defer w.Close()
	empty := g.MinSize()
	g.SetSteps(steps([]string{"step1", "a"}, []string{"step2", "b", "step1"}, []string{"step3", "c", "step2", "step1"}))
	three := g.MinSize()
	if three.Width <= empty.Width || three.Width != 2*sgPad+3*sgMinBoxW+2*sgGapX {
		t.Errorf("min size %v for three columns (empty %v)", three, empty)
	}
	// A cycle through an unknown reference neither panics nor loses the steps.
	g.SetSteps(steps([]string{"step1", "a", "step2", "x"}, []string{"step2", "b", "step1", "step2"}))
	if got := g.MinSize(); got.Width != 2*sgPad+sgMinBoxW {
		t.Errorf("cycle drawn %v wide, want one column", got)
	}
	// Boxes widen to the room given, up to sgBoxW.
	g.SetSteps(steps([]string{"step1", "a"}, []string{"step2", "b", "step1"}))
	for _, tt := range []struct{ width, box float32 }{{200, sgMinBoxW}, {2*sgPad + 2*130 + sgGapX, 130}, {1000, sgBoxW}} {
		w.Resize(fyne.NewSize(tt.width, 200))
		r := test.WidgetRenderer(g).(*stepGraphRenderer)
		if r.layout.boxW != tt.box {
			t.Errorf("width %g: boxes %g wide, want %g", tt.width, r.layout.boxW, tt.box)
		}
	}
}
