package ui

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/ui/boxcanvas"
)

// The zoom readout says nothing while no picture is open (it read 6400 %, the fit
// of an empty editor's 1×1 stand-in), and the zoom once one is.
func TestZoomButtonWithoutPicture(t *testing.T) {
	test.NewTempApp(t)
	c := boxcanvas.New(nil, 1, 1)
	c.Resize(fyne.NewSize(640, 480))
	b := zoomButton(c)
	if b.Text != "–" || !b.Disabled() {
		t.Errorf("with no picture the zoom button reads %q (disabled %v), want – and disabled", b.Text, b.Disabled())
	}
	c.SetImage(image.NewRGBA(image.Rect(0, 0, 100, 80)), 1000, 800)
	if want := zoomText(100 * c.View().Zoom); b.Text != want || b.Disabled() {
		t.Errorf("with a picture the zoom button reads %q (disabled %v), want %q and enabled", b.Text, b.Disabled(), want)
	}
}
