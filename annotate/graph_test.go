package annotate

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// steps builds a step list from "id:pre1,pre2" specs; contents are "do <id>".
func steps(specs ...string) []Step {
	out := make([]Step, len(specs))
	for i, s := range specs {
		id, pre, _ := strings.Cut(s, ":")
		out[i] = Step{ID: id, Content: "do " + id, Precondition: []string{}}
		if pre != "" {
			out[i].Precondition = strings.Split(pre, ",")
		}
	}
	return out
}

// brief renders findings as "rule severity field: message" for comparison.
func brief(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Rule + " " + f.Severity + " " + f.Field + ": " + f.Message
	}
	return out
}

func TestCheckGraph(t *testing.T) {
	tests := []struct {
		name  string
		steps []Step
		want  []string
	}{
		{"chain", steps("step1", "step2:step1", "step3:step2"), nil},
		{"spatialqa example", steps("step1", "step2", "step3", "step4:step1,step2", "step5:step3,step4"), nil},
		{"diamond", steps("a", "b:a", "c:a", "d:b,c"), nil},
		{"cycle of length 1", steps("step1:step1", "step2:step1"), []string{
			"step-self-ref error steps[0].precondition: step1 lists itself as a precondition",
		}},
		{"cycle of length 2", steps("step1:step2", "step2:step1", "step3:step2"), []string{
			"step-cycle error steps[0].precondition: precondition cycle: step1 → step2 → step1",
		}},
		{"cycle of length 3", steps("step1:step3", "step2:step1", "step3:step2", "step4:step3"), []string{
			"step-cycle error steps[0].precondition: precondition cycle: step1 → step2 → step3 → step1",
		}},
		{"cycle without a final step", steps("a:b", "b:a"), []string{
			"step-cycle error steps[0].precondition: precondition cycle: a → b → a",
			"step-final error steps: no final step: every step is a precondition of another",
		}},
		{"cycle off the path to the final step", steps("a", "b:a", "x:y", "y:x"), []string{
			"step-cycle error steps[2].precondition: precondition cycle: x → y → x",
			"step-unreachable warning steps[2]: x does not lead to the final step b",
			"step-unreachable warning steps[3]: y does not lead to the final step b",
		}},
		{"two cycles", steps("a:b", "b:a", "c:d,a", "d:c", "e:c"), []string{
			"step-cycle error steps[0].precondition: precondition cycle: a → b → a",
			"step-cycle error steps[2].precondition: precondition cycle: c → d → c",
		}},
		{"diamond with redundant edge", steps("a", "b:a", "c:a", "d:b,c,a"), []string{
			"step-transitive error steps[3].precondition: redundant edge a → d: already implied by a → b → d",
		}},
		{"long redundant edge", steps("s1", "s2:s1", "s3:s2", "s4:s3,s1"), []string{
			"step-transitive error steps[3].precondition: redundant edge s1 → s4: already implied by s1 → s2 → s3 → s4",
		}},
		{"redundancy not reported while cyclic", steps("a", "b:a,c", "c:b", "d:b,a"), []string{
			"step-cycle error steps[1].precondition: precondition cycle: b → c → b",
		}},
		{"unknown ref", steps("step1", "step2:step1,step9"), []string{
			`step-unknown-ref error steps[1].precondition: step2 lists "step9", which is not a step`,
		}},
		{"disconnected step", steps("step1", "step2:step1", "step3"), []string{
			"step-final error steps: 2 steps are not a precondition of any other step (step2, step3); exactly one, the final step, should be",
			"step-unreachable warning steps[2]: step3 does not lead to the final step step2",
		}},
		{"two separate chains", steps("a", "b:a", "c", "d:c"), []string{
			"step-final error steps: 2 steps are not a precondition of any other step (b, d); exactly one, the final step, should be",
			"step-unreachable warning steps[0]: a does not lead to the final step d",
			"step-unreachable warning steps[1]: b does not lead to the final step d",
		}},
		{"schema problems", []Step{{ID: "step1", Content: "x"}, {ID: "", Content: "y"}, {ID: "step1", Content: " "}, {ID: "step3", Content: "z", Precondition: []string{"step1", "step1"}}}, []string{
			"schema error steps[1].id: step 2 has no id",
			`schema error steps[2].id: step id "step1" is also used by step #1`,
			"schema error steps[2].content: step step1 has no content",
			`schema warning steps[3].precondition: step3 lists "step1" twice`,
		}},
		{"empty", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := brief(MergeFindings(CheckGraph(tt.steps)))
			if !slices.Equal(got, tt.want) {
				t.Errorf("CheckGraph:\ngot  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestCheckGraphHints(t *testing.T) {
	fs := CheckGraph(steps("a", "b:a", "c:b,a"))
	if len(fs) != 1 || fs[0].Hint != "remove a from the preconditions of c" {
		t.Fatalf("findings = %+v", fs)
	}
}

func TestLayers(t *testing.T) {
	tests := []struct {
		name  string
		steps []Step
		want  [][]string
	}{
		{"spatialqa example", steps("step1", "step2", "step3", "step4:step1,step2", "step5:step3,step4"),
			[][]string{{"step1", "step2", "step3"}, {"step4"}, {"step5"}}},
		{"diamond", steps("a", "b:a", "c:a", "d:b,c,a"), [][]string{{"a"}, {"b", "c"}, {"d"}}},
		{"listed out of order", steps("d:b,c", "c:a", "b:a", "a"), [][]string{{"a"}, {"c", "b"}, {"d"}}},
		{"cycle shares a column", steps("a", "b:a,c", "c:b", "d:c"), [][]string{{"a"}, {"b", "c"}, {"d"}}},
		{"all cyclic", steps("a:b", "b:a"), [][]string{{"a", "b"}}},
		{"self and unknown refs ignored", steps("a:a,zz", "b:a"), [][]string{{"a"}, {"b"}}},
		{"missing and duplicate ids left out", []Step{{ID: "a"}, {ID: ""}, {ID: "a"}, {ID: "b", Precondition: []string{"a"}}}, [][]string{{"a"}, {"b"}}},
		{"empty", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Layers(tt.steps); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Layers = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRedundantEdgesAndRemove(t *testing.T) {
	in := steps("a", "b:a", "c:a", "d:b,c,a", "e:d,a,b")
	got := RedundantEdges(in)
	want := []Edge{{"a", "d"}, {"a", "e"}, {"b", "e"}}
	if !slices.Equal(got, want) {
		t.Fatalf("RedundantEdges = %v, want %v", got, want)
	}
	if s := want[0].String(); s != "a → d" {
		t.Errorf("Edge.String = %q", s)
	}
	fixed := in
	for _, e := range got {
		fixed = RemovePrecondition(fixed, e.From, e.To)
	}
	if r := RedundantEdges(fixed); r != nil {
		t.Errorf("after removing every redundant edge: %v", r)
	}
	if fs := CheckGraph(fixed); len(fs) != 0 {
		t.Errorf("after removing every redundant edge: %q", brief(fs))
	}
	if !slices.Equal(fixed[3].Precondition, []string{"b", "c"}) || !slices.Equal(fixed[4].Precondition, []string{"d"}) {
		t.Errorf("fixed = %+v", fixed)
	}
	if !slices.Equal(in[3].Precondition, []string{"b", "c", "a"}) {
		t.Errorf("RemovePrecondition changed its input: %v", in[3].Precondition)
	}
	if RedundantEdges(steps("a:b", "b:a", "c:a,b")) != nil {
		t.Error("RedundantEdges on a cyclic graph should be nil")
	}
}
