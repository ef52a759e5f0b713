package ui

import (
	"fmt"

	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// zoomButton shows the canvas's zoom ("63%") and sets it to 100 % when tapped: it
// reads as the zoom level it is, where a fixed "100%" read as one that never
// changed (issue 17). With no picture open it reads "–" and is disabled: an empty
// editor has no zoom (it read 6400 %, the fit of its 1×1 stand-in).
func zoomButton(c *boxcanvas.Canvas) *widget.Button {
	b := widget.NewButton("", c.ActualSize)
	show := func(percent float32) {
		if c.Picture() == nil {
			b.SetText("–")
			b.Disable()
			return
		}
		b.SetText(zoomText(percent))
		b.Enable()
	}
	show(100 * c.View().Zoom)
	c.OnZoom = show
	return b
}

func zoomText(percent float32) string {
	if percent <= 0 {
		return "100%"
	}
	return fmt.Sprintf("%.0f%%", percent)
}
