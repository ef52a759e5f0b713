package ui

import (
	"fmt"
	"image/color"
	"path"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// Choosing several images in the gallery for one sample (issue 26): a click chooses
// an image, Ctrl+click adds one (or takes it out), Shift+click adds the range from
// the last one clicked; Space on the focused image adds it (the keyboard's way), and
// "Tap adds" makes every tap add (the touch screen's way). The images keep the order
// they were chosen in, shown as a number on each and in the bar above the grid;
// "New sample of N images" opens the Annotate screen on them in that order.

type imageSelection struct {
	picked []bench.Image
	at     map[int64]int // grid index of each picked image, for Shift ranges
	anchor int           // grid index of the last image tapped, -1 for none

	label   *widget.Label
	several *widget.Check
	create  *widget.Button
	clear   *widget.Button
}

// bar is the row above the grid saying what is chosen, with its buttons.
func (s *imageSelection) bar(b *imageBrowser) fyne.CanvasObject {
	s.anchor = -1
	s.at = map[int64]int{}
	s.label = widget.NewLabel("")
	s.label.Truncation = fyne.TextTruncateEllipsis
	s.several = widget.NewCheck("Tap adds", nil)
	s.create = widget.NewButtonWithIcon("", theme.ContentAddIcon(), func() {
		if len(s.picked) > 0 {
			b.u.newSampleOnImages(slices.Clone(s.picked))
		}
	})
	s.create.Importance = widget.HighImportance
	s.clear = widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), func() {
		s.picked, s.anchor = nil, -1
		clear(s.at)
		s.update()
		b.grid.Refresh()
	})
	s.update()
	return container.NewBorder(nil, nil, s.several, container.NewHBox(s.create, s.clear), s.label)
}

// tap applies a tap on grid cell i (image im) with modifiers mod.
func (b *imageBrowser) tap(i int, im bench.Image, mod fyne.KeyModifier) {
	s := &b.sel
	switch {
	case mod&fyne.KeyModifierShift != 0 && s.anchor >= 0:
		step := 1
		if i < s.anchor {
			step = -1
		}
		for j := s.anchor; ; j += step {
			if o, ok := b.image(j); ok && s.index(o.ID) < 0 {
				s.add(o, j)
			}
			if j == i {
				break
			}
		}
	case mod&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 || s.several.Checked:
		if k := s.index(im.ID); k >= 0 {
			s.picked = slices.Delete(s.picked, k, k+1)
			delete(s.at, im.ID)
		} else {
			s.add(im, i)
		}
	default:
		s.picked = nil
		clear(s.at)
		s.add(im, i)
	}
	s.anchor = i
	b.describe(im)
	s.update()
	b.grid.Refresh()
}

func (s *imageSelection) add(im bench.Image, i int) {
	s.picked = append(s.picked, im)
	s.at[im.ID] = i
}

// index is the place of image id in the choice, or -1.
func (s *imageSelection) index(id int64) int {
	return slices.IndexFunc(s.picked, func(im bench.Image) bool { return im.ID == id })
}

// update says how many images are chosen, and which, in order.
func (s *imageSelection) update() {
	n := len(s.picked)
	switch {
	case n == 0:
		s.label.SetText("No image chosen.")
	case n == 1:
		s.label.SetText("1 image chosen: " + s.picked[0].RelPath)
	default:
		labels := annotate.DefaultLabels(n, false)
		parts := make([]string, n)
		for i, im := range s.picked {
			parts[i] = labels[i] + " " + path.Base(im.RelPath)
		}
		s.label.SetText(fmt.Sprintf("%d images chosen, in this order: %s", n, strings.Join(parts, " · ")))
	}
	switch {
	case n == 0:
		s.create.SetText("New sample…")
		s.create.Disable()
		s.clear.Disable()
	case n > annotate.MaxImages:
		s.create.SetText(fmt.Sprintf("%d images: at most %d", n, annotate.MaxImages))
		s.create.Disable()
		s.clear.Enable()
	case n == 1:
		s.create.SetText("New sample on it")
		s.create.Enable()
		s.clear.Enable()
	default:
		s.create.SetText(fmt.Sprintf("New sample of %d images", n))
		s.create.Enable()
		s.clear.Enable()
	}
}

// mark shows on a cell whether its image is chosen, and its place.
func (s *imageSelection) mark(m *pickMark, im bench.Image, ok bool) {
	k := -1
	if ok {
		k = s.index(im.ID)
	}
	m.set(k)
}

// pickMark is the outline and number of a chosen image in the grid.
type pickMark struct {
	widget.BaseWidget
	place int // 0-based, -1 when not chosen
	rect  *canvas.Rectangle
	badge *canvas.Rectangle
	text  *canvas.Text
}

func newPickMark() *pickMark {
	m := &pickMark{place: -1}
	m.rect = canvas.NewRectangle(color.Transparent)
	m.rect.StrokeColor = filmShownColor
	m.rect.StrokeWidth = 3
	m.badge = canvas.NewRectangle(filmShownColor)
	m.badge.CornerRadius = 4
	m.text = canvas.NewText("", color.White)
	m.text.TextStyle.Bold = true
	m.ExtendBaseWidget(m)
	m.Hide()
	return m
}

func (m *pickMark) set(place int) {
	m.place = place
	if place < 0 {
		m.Hide()
		return
	}
	m.text.Text = annotate.DefaultLabels(place+1, false)[place] // the image's label in the sample: A, B, C…
	m.Show()
	m.Refresh()
}

func (m *pickMark) CreateRenderer() fyne.WidgetRenderer {
	return &pickMarkRenderer{m: m}
}

type pickMarkRenderer struct{ m *pickMark }

func (r *pickMarkRenderer) Layout(size fyne.Size) {
	m := r.m
	m.rect.Move(fyne.NewPos(0, 0))
	m.rect.Resize(size)
	ts := m.text.MinSize()
	bs := fyne.NewSize(max(ts.Width+8, ts.Height+2), ts.Height+2)
	m.badge.Move(fyne.NewPos(4, 4))
	m.badge.Resize(bs)
	m.text.Move(fyne.NewPos(4+(bs.Width-ts.Width)/2, 5))
	m.text.Resize(ts)
}

func (r *pickMarkRenderer) MinSize() fyne.Size { return fyne.NewSize(0, 0) }

func (r *pickMarkRenderer) Refresh() {
	r.Layout(r.m.Size())
	canvas.Refresh(r.m)
}

func (r *pickMarkRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.m.rect, r.m.badge, r.m.text}
}

func (r *pickMarkRenderer) Destroy() {}
