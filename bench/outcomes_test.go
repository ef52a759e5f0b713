package bench

import (
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/score"
)

func TestNewSampleOutcomes(t *testing.T) {
	gs := []score.Gold{{Sample: annotate.Sample{ID: "s1"}}, {Sample: annotate.Sample{ID: "s2"}}, {Sample: annotate.Sample{ID: "s3"}}}
	res := func(right ...bool) []score.Result {
		out := make([]score.Result, len(right))
		for i, r := range right {
			out[i] = score.Result{SampleID: gs[i].Sample.ID, Correct: r}
		}
		return out
	}
	tests := []struct {
		name    string
		runs    []ModelRun
		results [][]score.Result
		want    []SampleOutcome
	}{
		{"no models", nil, nil, []SampleOutcome{{SampleID: "s1"}, {SampleID: "s2"}, {SampleID: "s3"}}},
		{"two models and a blind run", []ModelRun{{Model: "m1"}, {Model: "m1", Blind: true}, {Model: "m2"}},
			[][]score.Result{res(true, false, false), res(false, true, true), res(false, false, true)},
			[]SampleOutcome{
				{SampleID: "s1", Models: 2, Wrong: []string{"m2"}},
				{SampleID: "s2", Models: 2, Wrong: []string{"m1", "m2"}, BlindRight: []string{"m1"}},
				{SampleID: "s3", Models: 2, Wrong: []string{"m1"}, BlindRight: []string{"m1"}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewSampleOutcomes(gs, tt.runs, tt.results); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}
