package ui

import (
	"testing"

	"github.com/benchwright/benchwright/demo"
)

// The status bar names every state, so its parts add up to the total (issue 27
// item 15: the withdrawn sample was left out).
func TestStatusBarCountsAddUp(t *testing.T) {
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInAs(t, u, "lead", demo.DemoPassword)
	want := "lead (lead)  ·  demo  ·  8 images  ·  12 samples: 1 draft, 6 in review, 3 accepted, 1 returned, 1 withdrawn"
	if got := u.status.Text; got != want {
		t.Errorf("status bar %q, want %q", got, want)
	}
}
