package ui

import (
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/benchwright/benchwright/annotate"
)

// sampleHistory is the undo/redo history of the sample being edited: snapshots of the
// whole annotate.Sample, so that box edits on the canvas and text edits in the form
// share one history and one Ctrl+Z. The canvas's own box history is not used.
//
// Typing is coalesced: consecutive edits of the same text field (same key) less than
// coalesce apart make one undo step, as in a text editor; an edit with key "" (a box,
// a toggle, a structural change) is always its own step.
type sampleHistory struct {
	past, future []annotate.Sample
	lastKey      string
	lastAt       time.Time
	coalesce     time.Duration
}

// record stores before, the sample as it was before an edit of field key at now.
func (h *sampleHistory) record(before annotate.Sample, key string, now time.Time) {
	merge := key != "" && key == h.lastKey && len(h.past) > 0 && now.Sub(h.lastAt) < h.coalesce
	h.lastKey, h.lastAt = key, now
	h.future = nil
	if merge {
		return
	}
	h.past = append(h.past, cloneSample(before))
}

// undo returns the sample before the last edit; cur is kept for redo.
func (h *sampleHistory) undo(cur annotate.Sample) (annotate.Sample, bool) {
	if len(h.past) == 0 {
		return cur, false
	}
	prev := h.past[len(h.past)-1]
	h.past = h.past[:len(h.past)-1]
	h.future = append(h.future, cloneSample(cur))
	h.lastKey = ""
	return cloneSample(prev), true
}

// redo returns the sample of the last undone edit; cur is kept for undo.
func (h *sampleHistory) redo(cur annotate.Sample) (annotate.Sample, bool) {
	if len(h.future) == 0 {
		return cur, false
	}
	next := h.future[len(h.future)-1]
	h.future = h.future[:len(h.future)-1]
	h.past = append(h.past, cloneSample(cur))
	h.lastKey = ""
	return cloneSample(next), true
}

func (h *sampleHistory) reset() {
	h.past, h.future, h.lastKey = nil, nil, ""
}

// keptHistory is the undo history of a sample the annotator moved away from (to
// another queue item or another screen), with the sample as it was left.
type keptHistory struct {
	h    sampleHistory
	left annotate.Sample
}

// keptHistories holds, per main window, the histories of the samples left during
// this session, by sample id, so that Ctrl+Z still brings back a cleared box or a
// changed answer after going away and back (issue 27). UI goroutine only.
var keptHistories = map[*App]map[string]keptHistory{}

// keepHistory puts the open sample's history aside for when it is opened again.
func (ws *workspace) keepHistory() {
	if ws.sample == nil || len(ws.history.past)+len(ws.history.future) == 0 {
		return
	}
	m := keptHistories[ws.u]
	if m == nil {
		m = map[string]keptHistory{}
		keptHistories[ws.u] = m
	}
	h := ws.history
	h.lastKey = "" // typing after coming back is a new step
	m[ws.sample.ID] = keptHistory{h: h, left: cloneSample(ws.cur)}
}

// restoreHistory takes back the history kept for the sample just opened (cur), if
// the sample is still as it was left: changed elsewhere since, its old steps would
// undo someone else's work, and they are forgotten.
func (ws *workspace) restoreHistory() {
	m := keptHistories[ws.u]
	k, ok := m[ws.sample.ID]
	if !ok {
		return
	}
	delete(m, ws.sample.ID)
	if sameSample(annotate.TidyText(k.left), annotate.TidyText(ws.cur)) {
		ws.history = k.h
	}
}

// cloneSample deep-copies a sample, so that snapshots never share slices with the form.
func cloneSample(s annotate.Sample) annotate.Sample {
	s.Options = slices.Clone(s.Options)
	s.MoreImages = slices.Clone(s.MoreImages)
	s.ImageLabels = slices.Clone(s.ImageLabels)
	s.Frames = slices.Clone(s.Frames)
	s.Categories = slices.Clone(s.Categories)
	if s.Box != nil {
		b := *s.Box
		s.Box = &b
	}
	if s.Tolerance != nil {
		t := *s.Tolerance
		s.Tolerance = &t
	}
	s.Steps = cloneSteps(s.Steps)
	s.Tags = slices.Clone(s.Tags)
	s.Extra = maps.Clone(s.Extra)
	return s
}

func cloneSteps(steps []annotate.Step) []annotate.Step {
	if steps == nil {
		return nil
	}
	out := make([]annotate.Step, len(steps))
	for i, st := range steps {
		st.Precondition = slices.Clone(st.Precondition)
		out[i] = st
	}
	return out
}

func sameSample(a, b annotate.Sample) bool { return reflect.DeepEqual(a, b) }
