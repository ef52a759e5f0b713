package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2"
)

// TestAnnotateNeverWidensTheWindow: at 1024×700 the Annotate screen's smallest
// width fits the window with a sample open and with a sequence being made, so no
// part of it is pushed off a 1024-pixel screen (issue 27 item 11; the editor's
// buttons on one row needed 1,101 px).
func TestAnnotateNeverWidensTheWindow(t *testing.T) {
	u, ws := openAnnotate(t, "ann1")
	u.win.Resize(fyne.NewSize(1024, 700))
	check := func(when string) {
		t.Helper()
		if w := u.win.Content().MinSize().Width; w > 1024 {
			t.Errorf("%s: the screen needs %.0f px, wider than the 1024-px window", when, w)
		}
	}
	ws.openIndex(0)
	waitFor(t, "a sample", func() bool { return ws.cur.ID != "" })
	check("a draft open")
	ims, err := u.db.As(u.user).Images(context.Background(), u.project.ID, 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	ws.openImages(ims)
	check("a sequence of four being made")
}
