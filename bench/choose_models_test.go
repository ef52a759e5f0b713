package bench

import (
	"errors"
	"slices"
	"testing"
)

func TestChooseModels(t *testing.T) {
	have := []string{"a", "b", "b", "c"} // b has a run with images and a blind run
	for _, tt := range []struct {
		name      string
		named     []string
		have      []string
		allowNone bool
		want      []string
		err       error
		msg       string
	}{
		{name: "none named: every model once", have: have, want: []string{"a", "b", "c"}},
		{name: "named, in the order named", named: []string{"c", "a"}, have: have, want: []string{"c", "a"}},
		{name: "a model named twice", named: []string{"b", "a", "b"}, have: have, err: ErrInvalid, msg: "invalid: model b is named twice"},
		{name: "a model without a run", named: []string{"a", "zz"}, have: have, err: ErrNotFound, msg: "model zz: not found among the predictions of r@1"},
		{name: "no model on the release", have: nil, err: ErrNotFound, msg: "not found: no model has predictions on r@1"},
		{name: "no model, and none is fine", have: nil, allowNone: true, want: []string{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ChooseModels("r@1", tt.named, tt.have, tt.allowNone)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || err.Error() != tt.msg {
					t.Fatalf("error %v, want %q (%v)", err, tt.msg, tt.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("ChooseModels = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	named := []string{"a"}
	got, _ := ChooseModels("r@1", named, have, false)
	got[0] = "x"
	if named[0] != "a" {
		t.Error("ChooseModels hands back the caller's slice")
	}
}
