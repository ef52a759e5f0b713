package score

import (
	"reflect"
	"testing"
)

// A baseline's stored answers become one PersonAnswers per person, for
// EvaluatePeople to score each person's answers like a model's.
func TestGroupPeople(t *testing.T) {
	p := func(person, id, resp string) PersonPrediction {
		return PersonPrediction{person, Prediction{SampleID: id, Response: resp}}
	}
	tests := []struct {
		name string
		in   []PersonPrediction
		want []PersonAnswers
	}{
		{"none", nil, nil},
		{"sorted by person", []PersonPrediction{p("ann", "s1", "A"), p("ann", "s2", "B"), p("bob", "s1", "C")},
			[]PersonAnswers{
				{"ann", []Prediction{{SampleID: "s1", Response: "A"}, {SampleID: "s2", Response: "B"}}},
				{"bob", []Prediction{{SampleID: "s1", Response: "C"}}},
			}},
		{"interleaved", []PersonPrediction{p("bob", "s1", "C"), p("ann", "s1", "A"), p("bob", "s2", "D")},
			[]PersonAnswers{
				{"bob", []Prediction{{SampleID: "s1", Response: "C"}, {SampleID: "s2", Response: "D"}}},
				{"ann", []Prediction{{SampleID: "s1", Response: "A"}}},
			}},
	}
	for _, tt := range tests {
		if got := GroupPeople(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: GroupPeople = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
