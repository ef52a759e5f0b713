package verify

import (
	"fmt"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// Every criterion any kind is judged on in any round has fields, and those fields
// are fields of the native record.
func TestEveryCriterionHasFields(t *testing.T) {
	record := []string{"question", "options", "answer", "box", "categories", "hop", "view", "ego_subject", "steps"}
	for _, k := range annotate.Kinds {
		for round := 1; round <= 3; round++ {
			for _, c := range Criteria(k, round) {
				fs := ReasonFields(c.ID)
				if len(fs) == 0 {
					t.Errorf("%s round %d: criterion %s concerns no field", k, round, c.ID)
				}
				for _, f := range fs {
					if !slices.Contains(record, f) {
						t.Errorf("criterion %s names %q, not a record field", c.ID, f)
					}
				}
			}
		}
	}
	if ReasonFields(ReasonOther) != nil || ReasonFields("no_such") != nil {
		t.Error("other and unknown codes should concern the whole sample")
	}
}

func TestReasonsOn(t *testing.T) {
	reasons := []string{"box_on_answer", "natural_grammar", "other", "preconditions_correct", "bogus"}
	tests := []struct {
		field string
		want  []string
	}{
		{"box", []string{"box_on_answer"}},
		{"answer", []string{"box_on_answer"}},
		{"options[2]", []string{"natural_grammar"}},
		{"question", []string{"natural_grammar"}},
		{"steps[1].precondition", []string{"preconditions_correct"}},
		{"view", nil},
		{"", []string{"other", "bogus"}},
	}
	for _, tt := range tests {
		if got := ReasonsOn(reasons, tt.field); !slices.Equal(got, tt.want) {
			t.Errorf("ReasonsOn(%q) = %v, want %v", tt.field, got, tt.want)
		}
	}
}

func TestTopField(t *testing.T) {
	for in, want := range map[string]string{"options[2]": "options", "steps[1].precondition": "steps", "box": "box", "": ""} {
		if got := TopField(in); got != want {
			t.Errorf("TopField(%q) = %q, want %q", in, got, want)
		}
	}
}

func ExampleReasonsOn() {
	reasons := []string{"box_on_answer", "natural_grammar", "other"}
	for _, field := range []string{"box", "options[1]", ""} {
		fmt.Printf("%q: %v\n", field, ReasonsOn(reasons, field))
	}
	// Output:
	// "box": [box_on_answer]
	// "options[1]": [natural_grammar]
	// "": [other]
}
