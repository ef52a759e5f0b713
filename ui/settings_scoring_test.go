package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

// A lead adds LRR task weights and image limits on the Settings screen, they
// reach the store (audited), a bad one is refused beside its row naming the key,
// and Remove takes one away.
func TestSettingsWeightsAndImageLimits(t *testing.T) {
	u, db := settingsApp(t)
	ctx := context.Background()
	v := openSettings(t, u, "lead")
	for _, tc := range []struct {
		name     string
		edit     func(v *settingsView)
		refused  map[string]string // key → part of the sentence beside it; nil: saved
		weights  map[string]float64
		limits   []annotate.ImageLimit
		auditAdd int
	}{
		{"add a weight and a limit", func(v *settingsView) {
			test.Type(v.weightTask, "pos")
			test.Type(v.weightValue, "0.5")
			test.Tap(v.addWeight)
			v.limitKind.SetSelected("judgment")
			test.Type(v.limitTask, "cam")
			test.Type(v.limitValue, "3-4")
			test.Tap(v.addLimit)
		}, nil, map[string]float64{"pos": 0.5}, []annotate.ImageLimit{{Kind: annotate.KindJudgment, Task: "cam", Min: 3, Max: 4}}, 2},
		{"a weight of 0", func(v *settingsView) {
			retype(v.keyRows[0].value, "0")
		}, map[string]string{"lrr_weight.pos": "LRR weight of task pos: a task's weight is a number above 0"}, nil, nil, 0},
		{"a reversed limit", func(v *settingsView) {
			v.limitKind.SetSelected("mcq")
			test.Type(v.limitValue, "5-2")
			test.Tap(v.addLimit)
		}, map[string]string{"images.mcq": "Images of mcq: the minimum 5 is above the maximum 2"}, nil, nil, 0},
		{"remove the weight", func(v *settingsView) {
			test.Tap(findButtonIn(t, v.keyRows[0].row, ""))
		}, nil, nil, []annotate.ImageLimit{{Kind: annotate.KindJudgment, Task: "cam", Min: 3, Max: 4}}, 1},
	} {
		before, _ := db.AuditCounts(ctx)
		tc.edit(v)
		test.Tap(v.save)
		s := storedSettings(t, db)
		if tc.refused != nil {
			for key, want := range tc.refused {
				f := v.field(key)
				if f == nil || !f.err.Visible() || !strings.Contains(f.err.Text, want) {
					t.Errorf("%s: beside %s: %+v, want %q", tc.name, key, f, want)
				}
			}
			if !strings.HasPrefix(v.message.Text, "Nothing was saved") {
				t.Errorf("%s: message %q", tc.name, v.message.Text)
			}
			test.Tap(v.revert)
			continue
		}
		if v.message.Visible() {
			t.Errorf("%s: %s", tc.name, v.message.Text)
		}
		if len(s.LRRWeights) != len(tc.weights) || len(s.ImageLimits) != len(tc.limits) {
			t.Fatalf("%s: stored %v %+v, want %v %+v", tc.name, s.LRRWeights, s.ImageLimits, tc.weights, tc.limits)
		}
		for k, w := range tc.weights {
			if s.LRRWeights[k] != w {
				t.Errorf("%s: weight of %s = %v, want %v", tc.name, k, s.LRRWeights[k], w)
			}
		}
		for i, l := range tc.limits {
			if s.ImageLimits[i] != l {
				t.Errorf("%s: limit %+v, want %+v", tc.name, s.ImageLimits[i], l)
			}
		}
		if after, _ := db.AuditCounts(ctx); after["project.settings"]-before["project.settings"] != tc.auditAdd {
			t.Errorf("%s: %d changes audited, want %d", tc.name, after["project.settings"]-before["project.settings"], tc.auditAdd)
		}
	}
}
