package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func screenTitles(u *App) []string {
	var titles []string
	for _, s := range u.screens {
		titles = append(titles, s.title)
	}
	return titles
}

// visibleButtons are the texts of the buttons shown under o.
func visibleButtons(o fyne.CanvasObject) []string {
	var out []string
	for _, x := range test.LaidOutObjects(o) {
		if b, ok := x.(*widget.Button); ok && b.Visible() && b.Text != "" {
			out = append(out, b.Text)
		}
	}
	return out
}

// Each role sees the screens and buttons of its work, no others (issue 27, item 17):
// an annotator no Verify, Export, Augment, Human baseline or import; a verifier no
// import and no help for making samples of several images, which it cannot.
func TestEachRoleSeesOnlyWhatItCanUse(t *testing.T) {
	for _, tc := range []struct {
		who          string
		screens      []string
		imports      bool // Import folder… and Import video… on the Images screen
		sampleMaking bool // the choice of images for a new sample, and its help
	}{
		{"ann1", []string{"Images", "Annotate", "Dashboard"}, false, true},
		{"ver1", []string{"Images", "Annotate", "Verify", "Dashboard", "Export", "Validation", "Evaluate", "Human baseline"}, false, false},
		{"lead", []string{"Images", "Annotate", "Verify", "Dashboard", "Export", "Augment", "Validation", "Samples", "Evaluate",
			"Human baseline", "Settings", "Users"}, true, true},
	} {
		t.Run(tc.who, func(t *testing.T) {
			u, _ := demoApp(t)
			u.fyne.Preferences().SetString(prefLastProject, "demo")
			signInAs(t, u, tc.who, "demo")
			if got := screenTitles(u); !slices.Equal(got, tc.screens) {
				t.Errorf("%s sees the screens %q, want %q", tc.who, got, tc.screens)
			}
			u.nav.Select(0) // Images
			buttons := visibleButtons(u.content)
			if got := slices.Contains(buttons, "Import folder…") || slices.Contains(buttons, "Import video…"); got != tc.imports {
				t.Errorf("%s: import buttons shown %v, want %v (buttons %q)", tc.who, got, tc.imports, buttons)
			}
			texts := labelTexts(u.content)
			making := strings.Contains(texts, "Ctrl+click") || slices.Contains(buttons, "New sample…")
			if making != tc.sampleMaking {
				t.Errorf("%s: sample-making help shown %v, want %v:\n%s%q", tc.who, making, tc.sampleMaking, texts, buttons)
			}
		})
	}
}

// The demo accounts are named on the sign-in screen for the demo project, again after
// signing out, and never while a team server is chosen (its accounts are its own).
func TestDemoHintOnlyForTheDemoProject(t *testing.T) {
	u, _ := demoApp(t)
	hintShown := func(when string, want bool) {
		t.Helper()
		f := u.signInForm
		shown := f.hint.Visible() && strings.Contains(labelTexts(u.win.Content()), "Demo accounts")
		if shown != want {
			t.Errorf("%s: the demo accounts are shown %v, want %v", when, shown, want)
		}
	}
	hintShown("at start", true)
	u.signInForm.where.SetSelected(whereServer)
	hintShown("with a team server chosen", false)
	u.signInForm.where.SetSelected(whereLocal)
	hintShown("back on this workstation", true)

	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "ann1", "demo")
	if u.user.Name != "ann1" {
		t.Fatal("not signed in")
	}
	test.Tap(findButton(t, u.win.Content(), "Sign out"))
	hintShown("after signing out", true)

	// A team server chosen last time: the form opens on it, without the hint.
	u.fyne.Preferences().SetString(prefWhere, "server")
	u.showSignIn()
	hintShown("opening on a team server", false)
}
