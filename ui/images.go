package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

const imagePage = 200

// imageBrowser pages through a project's images as a thumbnail grid. Its count and
// pages are loaded off the UI goroutine (load) and read on it only (the grid's
// callbacks): a page not yet there shows empty cells until it comes.
type imageBrowser struct {
	u       *App
	count   int
	pages   map[int][]bench.Image
	loading map[int]bool // pages asked for and not yet there
	grid    *widget.GridWrap
	info    *widget.Label
	total   *widget.Label // "N images", once counted

	sel   imageSelection // the images chosen for a sample of several (images_select.go)
	write bool           // the user writes samples: a tap chooses images for one
}

func (u *App) imagesScreen() fyne.CanvasObject {
	b := &imageBrowser{u: u, pages: map[int][]bench.Image{}, loading: map[int]bool{}, info: widget.NewLabel(""), write: u.may(verify.ActionWriteSamples)}
	b.info.Truncation = fyne.TextTruncateEllipsis
	b.grid = widget.NewGridWrap(
		func() int { return b.count },
		func() fyne.CanvasObject {
			img := canvas.NewImageFromResource(nil)
			img.FillMode = canvas.ImageFillContain
			img.SetMinSize(fyne.NewSize(160, 110))
			l := widget.NewLabel("0000-scene-1/image.jpg")
			l.Truncation = fyne.TextTruncateEllipsis
			// A double tap opens the image's samples or a new sample on it (samples_links.go);
			// a tap chooses it, Ctrl and Shift add to the choice (images_select.go).
			return newTapImage(container.NewStack(container.NewBorder(nil, l, nil, nil, img), newPickMark()))
		},
		func(i widget.GridWrapItemID, o fyne.CanvasObject) {
			im, ok := b.image(i)
			t := o.(*tapImage)
			t.onDouble, t.onTap = nil, nil
			if ok && b.write {
				t.onDouble = func() { u.openImage(im) }
				t.onTap = func(mod fyne.KeyModifier) { b.tap(i, im, mod) }
			} else if ok {
				t.onTap = func(fyne.KeyModifier) { b.describe(im) }
			}
			stack := t.content.(*fyne.Container)
			c := stack.Objects[0].(*fyne.Container)
			b.sel.mark(stack.Objects[1].(*pickMark), im, ok)
			img, l := c.Objects[0].(*canvas.Image), c.Objects[1].(*widget.Label)
			if !ok {
				l.SetText("")
				img.File = ""
				img.Refresh()
				return
			}
			l.SetText(im.RelPath)
			u.showThumb(img, im.SHA256)
		},
	)
	b.grid.OnSelected = func(i widget.GridWrapItemID) {
		// Space on the focused image (the keyboard's way) adds it to the choice or
		// takes it out, as a Ctrl+click does.
		b.grid.UnselectAll()
		if im, ok := b.image(i); ok && b.write {
			b.tap(i, im, fyne.KeyModifierShortcutDefault)
		}
	}
	importBtn := widget.NewButton("Import folder…", func() {
		dialog.ShowFolderOpen(func(dir fyne.ListableURI, err error) {
			if err != nil || dir == nil {
				return
			}
			u.runImport(dir.Path(), func() {
				u.show(0) // a new browser: fresh count and pages
				u.refreshStatus()
			})
		}, u.win)
	})
	importBtn.Importance = widget.HighImportance
	videoBtn := widget.NewButtonWithIcon("Import video…", theme.MediaVideoIcon(), u.askImportVideo)
	// Only what the user can do shows: importing is offered to leads (verify.Offered),
	// making samples of the images to those who write samples.
	b.total = widget.NewLabelWithStyle("Counting images…", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewHBox(b.total)
	if u.offers(verify.ActionImportImages) {
		top.Add(importBtn)
		top.Add(videoBtn)
	}
	help := "Click an image for its size, scene and samples."
	if b.write {
		help = "Double-click an image for its samples or a new sample on it. Ctrl+click adds an image to a sample of several, Shift+click a range; Space on the focused image adds it."
	}
	hint := caption(help)
	hint.Wrapping = fyne.TextWrapWord
	head := container.NewVBox(container.NewBorder(nil, nil, top, nil, hint))
	if b.write {
		head.Add(b.sel.bar(b))
	}
	b.countImages()
	return container.NewBorder(head, b.info, nil, nil, b.grid)
}

// countImages counts the project's images off the UI goroutine and sizes the grid.
func (b *imageBrowser) countImages() {
	u := b.u
	sess, pid, ctx := u.sess, u.project.ID, u.ctx()
	load(u, "images.count", func() (int, error) {
		return sess.CountImages(ctx, pid)
	}, func(n int, err error) {
		if err != nil {
			b.total.SetText("Images")
			b.info.SetText("The images cannot be counted: " + bench.Message(err))
			return
		}
		b.count = n
		b.total.SetText(annotate.Plural(n, "image"))
		if n == 0 {
			b.info.SetText("No images yet. The project's leads import them.")
			if u.offers(verify.ActionImportImages) {
				b.info.SetText("No images yet. Import a folder: its sub-folders become scenes (e.g. 0001-office-1).")
			}
		}
		b.grid.Refresh()
	})
}

// image returns the i-th image when its page is there; on first use it loads the
// page off the UI goroutine and refreshes the grid when it comes (false meanwhile).
func (b *imageBrowser) image(i int) (bench.Image, bool) {
	page := i / imagePage
	ims, ok := b.pages[page]
	if !ok {
		b.loadPage(page)
		return bench.Image{}, false
	}
	if j := i - page*imagePage; j < len(ims) {
		return ims[j], true
	}
	return bench.Image{}, false
}

// loadPage reads page of the images once at a time; a failure is said and the
// page asked for again on the next look.
func (b *imageBrowser) loadPage(page int) {
	if b.loading[page] {
		return
	}
	b.loading[page] = true
	u := b.u
	sess, pid, ctx := u.sess, u.project.ID, u.ctx()
	load(u, fmt.Sprintf("images.page.%d", page), func() ([]bench.Image, error) {
		return sess.Images(ctx, pid, page*imagePage, imagePage)
	}, func(ims []bench.Image, err error) {
		delete(b.loading, page)
		if err != nil {
			b.info.SetText("The images cannot be listed: " + bench.Message(err))
			return
		}
		b.pages[page] = ims
		b.grid.Refresh()
	})
}

// describe says what an image is, with how many samples are on it (counted off the
// UI goroutine; a newer tap's answer replaces an older one's).
func (b *imageBrowser) describe(im bench.Image) {
	state := "file present and unchanged"
	if b.u.onServer() {
		state = "file on the team server"
	}
	if err := imageFileProblem(im, b.u.onServer()); err != nil {
		state = "WARNING: " + err.Error()
	}
	line := func(samples string) string {
		return fmt.Sprintf("%s  ·  %d×%d px  ·  scene %q  ·  %s  ·  %s  ·  sha256 %s…",
			im.RelPath, im.Width, im.Height, im.Scene, samples, state, im.SHA256[:12])
	}
	b.info.SetText(line("samples…"))
	u := b.u
	sess, pid, ctx := u.sess, u.project.ID, u.ctx()
	load(u, "images.describe", func() ([]bench.SampleInfo, error) {
		return sess.Samples(ctx, pid, bench.SampleFilter{ImageID: im.ID}, 0, 100)
	}, func(samples []bench.SampleInfo, err error) {
		if err != nil {
			b.info.SetText(line("samples unknown: " + bench.Message(err)))
			return
		}
		b.info.SetText(line(annotate.Plural(len(samples), "sample")))
	})
}

// importer is the progress dialog of a running import.
type importer struct {
	bar     *widget.ProgressBar
	counts  *widget.Label
	cancel  context.CancelFunc
	dlg     dialog.Dialog
	reports atomic.Int32 // progress reports the import made, for tests
	updates int          // those shown (the pacer's), for tests
}

// runImport imports dir off the UI goroutine with a progress bar and a Cancel button,
// then lists what was rejected. done runs on the UI goroutine afterwards.
func (u *App) runImport(dir string, done func()) *importer {
	ctx, cancel := context.WithCancel(u.ctx())
	im := &importer{bar: widget.NewProgressBar(), counts: widget.NewLabel("Reading the folder…"), cancel: cancel}
	im.dlg = dialog.NewCustomWithoutButtons("Importing "+dir,
		container.NewVBox(im.bar, im.counts, widget.NewButton("Cancel", cancel)), u.win)
	im.dlg.Resize(fyne.NewSize(520, 180))
	im.dlg.Show()
	sess, pid := u.sess, u.project.ID
	// inBackground, not load: the dialog is its busy state, and the tests run it in
	// place (a bare goroutine's fyne.Do raced them).
	inBackground(func() {
		pace := newPacer() // a report per file would flood the UI goroutine (ui/progress.go)
		res, err := sess.ImportImages(ctx, pid, dir, func(p bench.ImportProgress) {
			im.reports.Add(1)
			if !pace.due(p.Done, p.Total) {
				return
			}
			fyne.Do(func() { im.updates++; im.update(p) })
		})
		fyne.Do(func() {
			im.dlg.Hide()
			u.importDone(dir, res, err)
			if done != nil {
				done()
			}
		})
	})
	return im
}

func (im *importer) update(p bench.ImportProgress) {
	if p.Total > 0 {
		im.bar.SetValue(float64(p.Done) / float64(p.Total))
	}
	im.counts.SetText(fmt.Sprintf("%d of %d files  ·  %d imported  ·  %d unchanged  ·  %d duplicates  ·  %d rejected",
		p.Done, p.Total, p.Imported, p.Unchanged, p.Duplicate, p.Rejected))
}

// importDone shows an import's summary with every rejected file and its reason.
func (u *App) importDone(dir string, res bench.ImportResult, err error) {
	var lines []string
	for _, r := range res.Rejected {
		lines = append(lines, "rejected  "+r.RelPath+": "+r.Reason)
	}
	for _, r := range res.Duplicate {
		lines = append(lines, "duplicate "+r.RelPath+": "+r.Reason)
	}
	head := fmt.Sprintf("Imported %d, unchanged %d, duplicates %d, rejected %d, not images %d.",
		res.Imported, res.Unchanged, len(res.Duplicate), len(res.Rejected), res.Ignored)
	if err != nil {
		head = bench.Message(err) + "\n" + head
	}
	detail := widget.NewLabel(strings.Join(lines, "\n"))
	body := container.NewBorder(widget.NewLabel(head), nil, nil, nil, container.NewVScroll(detail))
	d := dialog.NewCustom("Import of "+dir, "Close", body, u.win)
	d.Resize(fyne.NewSize(720, 420))
	d.Show()
	u.lastImport = &res
}
