package ui

import (
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// A verifier sees a sample of several images as its annotator did: the same
// filmstrip (read-only: nothing moves), the canvas on one image with the box where
// it was drawn, and the grid of the whole sequence with zoom and pan in step. [ and ]
// step through the images, g switches to the grid. Images are read off the UI
// goroutine. Round 3 stays blind: the strip shows only what the sample holds.

type verifySequence struct {
	o      *openSample
	sample annotate.Sample
	paths  []string
	labels []string
	images map[string]bench.Image
	thumbs map[string]string
	shown  int

	strip  *filmstrip
	info   *widget.Label
	view   *fyne.Container
	single fyne.CanvasObject
	grid   *seqGrid
	gridOn bool
	obj    fyne.CanvasObject
}

func newVerifySequence(o *openSample) *verifySequence {
	s := &verifySequence{o: o, sample: o.info.Content, images: map[string]bench.Image{}, thumbs: map[string]string{}}
	s.paths, s.labels = s.sample.AllImages(), s.sample.Labels()
	s.single = o.centre
	s.view = container.NewStack(s.single)
	s.strip = newFilmstrip(true)
	s.strip.onPick = func(i int) {
		s.show(i)
		o.v.releaseFocus()
	}
	s.info = caption("")
	s.info.Truncation = fyne.TextTruncateEllipsis
	gridBtn := widget.NewButtonWithIcon("Grid (g)", theme.GridIcon(), func() {
		s.toggleGrid()
		o.v.releaseFocus()
	})
	gridBtn.Importance = widget.LowImportance
	bar := container.NewBorder(nil, nil, nil, gridBtn, s.info)
	s.obj = container.NewBorder(nil, container.NewVBox(bar, s.strip.scroll), nil, nil, s.view)
	s.refresh()
	s.read()
	return s
}

// read reads the images' records and thumbnails off the UI goroutine.
func (s *verifySequence) read() {
	u := s.o.v.u
	sess, pid, ctx := u.sess, u.project.ID, u.ctx()
	paths := s.paths
	inBackground(func() {
		ims, err := sess.ImagesByPaths(ctx, pid, paths)
		thumbs := map[string]string{}
		for _, im := range ims {
			if p, err := sess.ImageFile(ctx, im.SHA256, bench.ImageThumb); err == nil {
				thumbs[im.SHA256] = p
			}
		}
		fyne.Do(func() {
			if err != nil {
				u.setStatus("The sequence's images cannot be read: %s", bench.Message(err))
			}
			for p, im := range ims {
				s.images[p] = im
			}
			for k, v := range thumbs {
				s.thumbs[k] = v
			}
			s.refresh()
		})
	})
}

func (s *verifySequence) refresh() {
	frames := make([]filmFrame, len(s.paths))
	for i, p := range s.paths {
		frames[i] = filmFrame{path: p, label: s.labels[i], hasBox: s.sample.Box != nil && s.sample.BoxImage == i}
		if im, ok := s.images[p]; ok {
			frames[i].thumb = s.thumbs[im.SHA256]
		}
	}
	s.strip.set(frames, s.shown)
	what := "images"
	if s.sample.Modality() == annotate.ModalityVideo {
		what = "frames of a video"
	}
	s.info.SetText(fmt.Sprintf("%s: %d of %d %s, in the annotator's order · [ ] previous/next", s.labels[s.shown], s.shown+1, len(s.paths), what))
}

// caption is the caption under the canvas for image pic, the one shown.
func (s *verifySequence) caption(pic verifyImage) string {
	var box *annotate.Box
	if s.sample.BoxImage == s.shown {
		box = s.sample.Box
	}
	text := s.labels[s.shown] + " · " + pic.caption(box)
	if s.sample.Box != nil && s.sample.BoxImage != s.shown && s.sample.BoxImage >= 0 && s.sample.BoxImage < len(s.labels) {
		text += " · the box is on image " + s.labels[s.sample.BoxImage]
	}
	return text
}

// show puts image i on the canvas, its box with it when it was drawn there.
func (s *verifySequence) show(i int) {
	if i < 0 || i >= len(s.paths) {
		return
	}
	if s.gridOn {
		s.toggleGrid()
	}
	s.shown = i
	s.refresh()
	o, u := s.o, s.o.v.u
	sess, pid, onServer := u.sess, u.project.ID, u.onServer()
	rel := s.paths[i]
	inBackground(func() {
		pic := loadVerifyImagePath(sess, pid, onServer, rel)
		fyne.Do(func() {
			if s.shown != i || o.v.cur != o {
				return
			}
			o.image = pic
			o.canvas.SetImage(pic.img, max(pic.width, 1), max(pic.height, 1))
			if s.sample.Box != nil && s.sample.BoxImage == i {
				o.canvas.SetBoxes([]annotate.Box{*s.sample.Box})
			}
			o.caption.SetText(s.caption(pic))
		})
	})
}

func (s *verifySequence) step(d int) { s.show(s.shown + d) }

// toggleGrid switches between the canvas and the grid (the page of 16 holding the
// image shown).
func (s *verifySequence) toggleGrid() {
	if s.gridOn {
		s.gridOn, s.grid = false, nil
		s.view.Objects = []fyne.CanvasObject{s.single}
		s.view.Refresh()
		return
	}
	first, count := gridPage(len(s.paths), s.shown)
	cells := make([]gridCell, count)
	for k := range cells {
		i := first + k
		im := s.images[s.paths[i]]
		cells[k] = gridCell{width: im.Width, height: im.Height, label: s.labels[i], path: s.paths[i]}
		if s.sample.Box != nil && s.sample.BoxImage == i {
			b := *s.sample.Box
			cells[k].box = &b
		}
	}
	g := newSeqGrid(cells, first, len(s.paths), s.show)
	s.grid, s.gridOn = g, true
	s.view.Objects = []fyne.CanvasObject{g.obj}
	s.view.Refresh()
	u := s.o.v.u
	sess, pid, onServer := u.sess, u.project.ID, u.onServer()
	paths := s.paths[first : first+count]
	inBackground(func() {
		pics := make([]verifyImage, len(paths))
		for k, p := range paths {
			pics[k] = loadVerifyImagePath(sess, pid, onServer, p)
		}
		fyne.Do(func() {
			if s.grid != g {
				return
			}
			for k, pic := range pics {
				var img image.Image = pic.img
				if img != nil {
					g.setImage(k, img, pic.width, pic.height, cells[k].box)
				}
			}
		})
	})
}
