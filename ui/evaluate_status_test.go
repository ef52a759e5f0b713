package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// shownText is the text a label draws, its lines joined by spaces.
func shownText(o fyne.CanvasObject) string {
	var lines []string
	for _, x := range test.LaidOutObjects(o) {
		if t, ok := x.(*canvas.Text); ok && t.Visible() && t.Text != "" {
			lines = append(lines, strings.TrimSpace(t.Text))
		}
	}
	return strings.Join(lines, " ")
}

// Evaluate's status (the release, its samples and models) is readable whole at
// 1024×700 and 1400×900, not cut to "3 mod…" by the toolbar (issue 17).
func TestEvaluateStatusIsReadableAt1024(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1024, Height: 700}, {Width: 1400, Height: 900}} {
		_, v := openEvaluate(t, "lead", size)
		want := v.status.Text
		if !strings.Contains(want, "3 models") {
			t.Fatalf("status %q", want)
		}
		if got := shownText(v.status); got != strings.Join(strings.Fields(want), " ") {
			t.Errorf("at %.0f×%.0f the status shows %q of %q", size.Width, size.Height, got, want)
		}
	}
}
