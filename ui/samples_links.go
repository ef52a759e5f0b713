package ui

import (
	"context"
	"errors"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Everything on a screen that names samples links to them in the sample manager
// (samples.go): audit findings and freeze errors, dashboard rows, images.

// findingsQuery is the search for the samples audit findings name: the samples
// themselves, and the accepted samples on the images they name (the audit reads
// accepted samples only). ok is false when the findings name none (balance).
//
//bw:background
func findingsQuery(ctx context.Context, sess bench.Session, projectID int64, fs []bench.AuditFinding) (bench.SampleQuery, bool) {
	var ids []string
	for _, f := range fs {
		if f.SampleID != "" && !slices.Contains(ids, f.SampleID) {
			ids = append(ids, f.SampleID)
		}
		if f.SampleID != "" || f.Image == "" {
			continue
		}
		im, err := sess.ImageByPath(ctx, projectID, f.Image)
		if err != nil {
			continue
		}
		if len(fs) == 1 {
			return bench.SampleQuery{ImageID: im.ID, States: []verify.State{verify.StateAccepted}, Desc: true}, true
		}
		on, err := sess.SampleIDs(ctx, projectID, bench.SampleQuery{ImageID: im.ID, States: []verify.State{verify.StateAccepted}})
		if err != nil {
			continue
		}
		for _, id := range on {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return bench.SampleQuery{}, false
	}
	return bench.SampleQuery{IDs: ids, Sort: bench.SortID}, true
}

// namesSamples tells whether findings name samples or images (findingsQuery may
// still find none on an image no longer there); it asks nothing of the store.
func namesSamples(fs []bench.AuditFinding) bool {
	return slices.ContainsFunc(fs, func(f bench.AuditFinding) bool { return f.SampleID != "" || f.Image != "" })
}

// errorFindings are the findings that block a freeze.
func errorFindings(fs []bench.AuditFinding) []bench.AuditFinding {
	return slices.DeleteFunc(slices.Clone(fs), func(f bench.AuditFinding) bool { return f.Severity != bench.SeverityError })
}

// linkRows makes a table made by dashTable open the samples behind a row when a
// cell of it is tapped (the header row excluded); query says which, or false for
// none. Without the sample manager (not a lead) the table stays as it was. query
// runs off the UI goroutine (an author's row looks the author up): it may read only
// the rows it was made with, never a widget.
func (u *App) linkRows(t fyne.CanvasObject, query func(row, col int) (bench.SampleQuery, bool)) fyne.CanvasObject {
	tb, ok := t.(*widget.Table)
	if !ok || !u.may(verify.ActionSearchSamples) {
		return t
	}
	tb.OnSelected = func(id widget.TableCellID) {
		tb.UnselectAll()
		if id.Row < 1 {
			return
		}
		type link struct {
			q  bench.SampleQuery
			ok bool
		}
		load(u, "samples.link", func() (link, error) {
			q, ok := query(id.Row-1, id.Col)
			return link{q, ok}, nil
		}, func(l link, _ error) {
			if l.ok {
				u.openSamples(l.q)
			}
		})
	}
	return t
}

// The states a balance cell counts: accepted, and in review.
var (
	acceptedStates = []verify.State{verify.StateAccepted}
	inReviewStates = verify.ReviewStates()
)

// balanceQuery is the search behind a balance row: its accepted samples (column
// "Accepted"), those in review ("In review"), or both.
func balanceQuery(c bench.BalanceCell, col string) bench.SampleQuery {
	q := bench.SampleQuery{Kinds: []annotate.Kind{annotate.Kind(c.Kind)}, Hop: c.Hop, View: annotate.View(c.View), Task: c.Task, Desc: true}
	switch col {
	case "Accepted":
		q.States = acceptedStates
	case "In review":
		q.States = inReviewStates
	default:
		q.States = append(slices.Clone(acceptedStates), inReviewStates...)
	}
	return q
}

// userID is the id of the account named name, or 0.
//
//bw:background
func userID(ctx context.Context, sess bench.Session, name string) int64 {
	us, err := sess.UserByName(ctx, name)
	if err != nil {
		return 0
	}
	return us.ID
}

// tapImage is a gallery cell that reports a double tap, and a single tap with the
// modifier keys held when the button went down (Ctrl or Shift: several images).
type tapImage struct {
	widget.BaseWidget
	content  fyne.CanvasObject
	onDouble func()
	onTap    func(mod fyne.KeyModifier)
	mod      fyne.KeyModifier // of the last MouseDown
}

func newTapImage(content fyne.CanvasObject) *tapImage {
	t := &tapImage{content: content}
	t.ExtendBaseWidget(t)
	return t
}

func (t *tapImage) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(t.content) }

// MouseDown records the modifiers held, for the tap that follows.
func (t *tapImage) MouseDown(ev *desktop.MouseEvent) { t.mod = ev.Modifier }

func (t *tapImage) MouseUp(*desktop.MouseEvent) {}

func (t *tapImage) Tapped(*fyne.PointEvent) {
	mod := t.mod
	t.mod = 0
	if t.onTap != nil {
		t.onTap(mod)
	}
}

func (t *tapImage) DoubleTapped(*fyne.PointEvent) {
	if t.onDouble != nil {
		t.onDouble()
	}
}

// openImage opens what a double tap on an image means: its samples in the sample
// manager (leads, when it has some), else a new sample on it in the Annotate screen
// (which asks its kind).
func (u *App) openImage(im bench.Image) {
	if !u.may(verify.ActionSearchSamples) {
		u.newSampleOnImage(im)
		return
	}
	sess, pid, ctx := u.sess, u.project.ID, u.ctx()
	load(u, "samples.image", func() (int, error) {
		return sess.CountSamples(ctx, pid, bench.SampleFilter{ImageID: im.ID})
	}, func(n int, err error) {
		if err == nil && n > 0 {
			u.openSamples(bench.SampleQuery{ImageID: im.ID, Desc: true})
			return
		}
		u.newSampleOnImage(im)
	})
}

// newSampleOnImage shows the Annotate screen on image im, asking the kind of a new
// sample on it.
func (u *App) newSampleOnImage(im bench.Image) {
	u.newSampleOnImages([]bench.Image{im})
}

// newSampleOnImages shows the Annotate screen on images ims, in order, asking the
// kind of a new sample of them all.
func (u *App) newSampleOnImages(ims []bench.Image) {
	paths := make([]string, len(ims))
	for i, im := range ims {
		paths[i] = im.RelPath
	}
	u.newSampleOfPaths(paths)
}

// newSampleOfPaths is newSampleOnImages for the images' project paths.
func (u *App) newSampleOfPaths(paths []string) {
	if !u.may(verify.ActionWriteSamples) {
		u.setStatus("Only annotators and leads write samples.")
		return
	}
	if len(paths) == 0 {
		return
	}
	if len(paths) == 1 {
		u.newSampleOn = paths[0]
	} else {
		u.newSampleOf = slices.Clone(paths)
	}
	for i, s := range u.screens {
		if s.title == "Annotate" {
			u.nav.Select(i)
			if u.newSampleOn != "" || len(u.newSampleOf) > 0 { // Annotate was already showing
				u.show(i)
			}
		}
	}
}

// openRequested opens what another screen asked the Annotate screen for: a sample
// in the editor (from the sample manager) or an image with the choice of a new
// sample's kind (from the gallery).
func (ws *workspace) openRequested() {
	u := ws.u
	if id := u.editSample; id != "" {
		u.editSample = ""
		ws.openSample(id)
	}
	if paths := u.newSampleOf; len(paths) > 0 {
		u.newSampleOf = nil
		sess, pid, ctx := u.sess, u.project.ID, u.ctx()
		load(u, "annotate.request", func() (map[string]bench.Image, error) {
			return sess.ImagesByPaths(ctx, pid, paths)
		}, func(m map[string]bench.Image, err error) {
			if err != nil {
				u.showError(err)
				return
			}
			ims := make([]bench.Image, 0, len(paths))
			for _, p := range paths {
				if im, ok := m[p]; ok {
					ims = append(ims, im)
				}
			}
			if len(ims) > 0 {
				ws.openImages(ims)
			}
		})
	}
	if p := u.newSampleOn; p != "" {
		u.newSampleOn = ""
		sess, pid, ctx := u.sess, u.project.ID, u.ctx()
		load(u, "annotate.requestOne", func() (bench.Image, error) {
			return sess.ImageByPath(ctx, pid, p)
		}, func(im bench.Image, err error) {
			if err != nil {
				u.showError(err)
				return
			}
			ws.openImage(im)
		})
	}
}

// linkFindings makes a tapped audit finding open the samples it names, and adds the
// buttons that open the samples of every error (of the audit, of a refused freeze).
func (v *exportView) linkFindings() {
	v.findingList.OnSelected = func(i widget.ListItemID) {
		v.findingList.UnselectAll()
		if i < 0 || i >= len(v.findings) {
			return
		}
		if f := v.findings[i]; f.Check == bench.CheckDuplicate && len(f.Group) > 1 && v.u.may(verify.ActionAuditRelease) {
			v.offerKeepOne(f) // export_audit.go
			return
		}
		v.openFindings(v.findings[i : i+1])
	}
	v.openErrors = widget.NewButton("Open the samples with errors", func() { v.openFindings(errorFindings(v.findings)) })
	v.openErrors.Hide()
	v.freezeOpen = widget.NewButton("Open these samples", func() { v.openFindings(errorFindings(v.freezeFindings)) })
	v.freezeOpen.Hide()
	v.restoreAudit() // export_audit.go: the screen is made anew on return from a finding
}

// openFindings opens the sample manager on the samples findings name.
func (v *exportView) openFindings(fs []bench.AuditFinding) {
	if !v.u.may(verify.ActionSearchSamples) {
		return
	}
	u := v.u
	sess, pid, ctx := u.sess, u.project.ID, u.ctx()
	type found struct {
		q  bench.SampleQuery
		ok bool
	}
	load(u, "samples.findings", func() (found, error) {
		q, ok := findingsQuery(ctx, sess, pid, fs)
		return found{q, ok}, nil
	}, func(f found, _ error) {
		if f.ok {
			u.openSamples(f.q)
			return
		}
		u.setStatus("This finding names no sample: it is about the whole project.")
	})
}

// showOpenErrors offers the samples of the audit's errors when they name some.
func (v *exportView) showOpenErrors() {
	if namesSamples(errorFindings(v.findings)) && v.u.may(verify.ActionSearchSamples) {
		v.openErrors.Show()
	} else {
		v.openErrors.Hide()
	}
}

// freezeRefused offers the samples a refused freeze's errors name.
func (v *exportView) freezeRefused(err error) {
	v.freezeFindings = nil
	var ae *bench.AuditErrors
	if errors.As(err, &ae) && v.u.may(verify.ActionSearchSamples) {
		v.freezeFindings = ae.Findings
		v.freezeOpen.Show()
		return
	}
	v.freezeOpen.Hide()
}

// annotatorQuery is the search behind a cell of an author's row: their samples, the
// accepted ones, or those rejected (in a round, or for any reason). It looks the
// author up: linkRows runs it off the UI goroutine.
//
//bw:background
func (u *App) annotatorQuery(name string, col int) bench.SampleQuery {
	q := bench.SampleQuery{AuthorID: userID(u.ctx(), u.sess, name), Desc: true}
	switch col {
	case 2: // Accepted
		q.States = acceptedStates
	case 5, 6, 7: // Rejected r1–r3
		q.Round, q.Rejected = col-4, true
	case 8: // Top reject reasons
		q.Rejected = true
	}
	return q
}

// errorRowQuery is the search behind a row of the error rate by category set: the
// samples of that kind and set that were rejected.
func errorRowQuery(e bench.ErrorRow) bench.SampleQuery {
	q := bench.SampleQuery{Kinds: []annotate.Kind{annotate.Kind(e.Kind)}, Rejected: true, Desc: true}
	if e.Kind == string(annotate.KindHopQA) {
		q.Categories = e.Set
	}
	return q
}
