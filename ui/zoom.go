package ui

import (
	"fmt"

	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// zoomButton shows the canvas's zoom ("63%") and sets it to 100 % when tapped: it
// reads as the zoom level it is, where a fixed "100%" read as one that never
// changed (issue 17).
func zoomButton(c *boxcanvas.Canvas) *widget.Button {
	b := widget.NewButton(zoomText(100*c.View().Zoom), c.ActualSize)
	c.OnZoom = func(percent float32) { b.SetText(zoomText(percent)) }
	return b
}

func zoomText(percent float32) string {
	if percent <= 0 {
		return "100%"
	}
	return fmt.Sprintf("%.0f%%", percent)
}
