package main

import (
	"fmt"
	"io"

	"github.com/benchwright/benchwright/score"
)

// circularNote says, after a predictions import, that the run was read as a
// circular one (score/circular.go: a VLMEvalKit result file of a circular export,
// recognised by its indexes of 1,000,000 and more or its name) and how it is
// scored. Nothing for a plain run.
func circularNote(w io.Writer, preds []score.Prediction) {
	questions, copies := score.CircularCounts(preds)
	if questions == 0 {
		return
	}
	fmt.Fprintf(w, "note: a circular run (VLMEvalKit's rotated copies, indexes of %d and more): %d questions with %d answered copies; "+
		"a question counts as right only when it and every copy are answered right, a copy without an answer counting wrong\n",
		score.CircularStride, questions, copies)
}
