package boxcanvas

import (
	"slices"

	"github.com/benchwright/benchwright/annotate"
)

// History is an undo/redo stack of box-list snapshots. The zero value is empty
// and ready to use. It stores copies, so callers may keep using their slices.
type History struct {
	past, future [][]annotate.Box
}

// Record stores before, the box list as it was before a change, as the next
// undo step and forgets any redo steps.
func (h *History) Record(before []annotate.Box) {
	h.past = append(h.past, slices.Clone(before))
	h.future = nil
}

// CanUndo reports whether there is a step to undo.
func (h *History) CanUndo() bool { return len(h.past) > 0 }

// CanRedo reports whether there is an undone step to redo.
func (h *History) CanRedo() bool { return len(h.future) > 0 }

// Undo returns the box list before the last change; current is kept for Redo.
// ok is false, and current returned, when there is nothing to undo.
func (h *History) Undo(current []annotate.Box) (boxes []annotate.Box, ok bool) {
	if len(h.past) == 0 {
		return current, false
	}
	prev := h.past[len(h.past)-1]
	h.past = h.past[:len(h.past)-1]
	h.future = append(h.future, slices.Clone(current))
	return slices.Clone(prev), true
}

// Redo returns the box list of the last undone change; current is kept for Undo.
// ok is false, and current returned, when there is nothing to redo.
func (h *History) Redo(current []annotate.Box) (boxes []annotate.Box, ok bool) {
	if len(h.future) == 0 {
		return current, false
	}
	next := h.future[len(h.future)-1]
	h.future = h.future[:len(h.future)-1]
	h.past = append(h.past, slices.Clone(current))
	return slices.Clone(next), true
}

// Reset forgets every step.
func (h *History) Reset() { h.past, h.future = nil, nil }
