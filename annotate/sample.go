// Package annotate holds the benchmark's sample model and the guideline rules that
// an annotator's work must satisfy: the native record (spec §5), the lint rules
// (spec §6), the step-graph checks and box geometry. It is plain Go: no UI, no SQL.
package annotate

import (
	"encoding/json"
	"strconv"
)

// Kind is the kind of a sample.
type Kind string

// The sample kinds of spec §1.
const (
	KindHopQA     Kind = "hop_qa"
	KindStepGraph Kind = "step_graph"
	KindJudgment  Kind = "judgment"
	KindMCQ       Kind = "mcq"
	KindOpen      Kind = "open"
)

// Kinds lists every kind in a stable order.
var Kinds = []Kind{KindHopQA, KindStepGraph, KindJudgment, KindMCQ, KindOpen}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// AnswerLetter is the letter of option i: 0 → "A".
func AnswerLetter(i int) string {
	if i < 0 || i >= 26 {
		return strconv.Itoa(i)
	}
	return string(rune('A' + i))
}

// Category is a hop-QA reasoning category.
type Category string

// The reasoning categories of a hop question.
const (
	CatAtt Category = "att"
	CatPos Category = "pos"
	CatRel Category = "rel"
)

// View is the viewpoint of a hop question.
type View string

// Viewpoints.
const (
	ViewExo View = "exo"
	ViewEgo View = "ego"
)

// EgoSubject says whose first person an ego question takes.
type EgoSubject string

// Ego subjects.
const (
	EgoReal    EgoSubject = "real"
	EgoVirtual EgoSubject = "virtual"
)

// Box is [x1, y1, x2, y2] in pixels of the displayed (EXIF-oriented) original image.
type Box [4]float64

// Step is one node of a step/precondition graph.
type Step struct {
	ID           string   `json:"id"`
	Content      string   `json:"content"`
	Precondition []string `json:"precondition"`
}

// Sample is one native record (spec §5). Answer holds the 0-based option index for
// hop_qa and mcq (AnswerIndex) or the text answer for judgment and open (AnswerText).
// Extra keeps fields this version does not know, so that they survive a round trip.
//
// A sample shows an ordered list of 1 to MaxImages images (spec §1d; see
// sequence.go). Image is the first image — the only one of the common
// single-image sample — and MoreImages the second one onwards, nil for one image.
// The two together are the one list, each position held once: no field can
// disagree with another, and code written for one image (reading or rewriting
// Image) still handles the first image of a sequence. Code that must see every
// image uses AllImages, NumImages and SetImages instead of Image.
type Sample struct {
	ID    string
	Kind  Kind
	Image string
	// MoreImages are the images after Image, in order (nil for one image). A sample
	// with more images is written with "images": [Image, MoreImages...] instead of
	// "image" (never both).
	MoreImages []string
	// ImageLabels are the labels annotators, verifiers and models see for each image
	// ("image_labels", one per image); nil means DefaultLabels, and the record leaves
	// out labels equal to them. Read them with Labels.
	ImageLabels []string
	// Frames says, for a sample made of frames of a video, where each image came
	// from ("frames", one per image, in the images' order); nil for photographs.
	Frames   []Frame
	Question string
	// QuestionTag is Question with the phrase of each category tagged
	// (<ATT>…</ATT>, <POS>…</POS>, <REL>…</REL>; see ParseTagged), or "".
	QuestionTag string
	Options     []string
	AnswerIndex int
	AnswerText  string
	// AnswerNumber records that an open answer was a JSON number (AnswerText holds
	// its text), so that encoding writes it back as a number.
	AnswerNumber bool
	Categories   []Category
	Hop          int
	View         View
	EgoSubject   EgoSubject
	Box          *Box
	// BoxImage is the 0-based index of the image Box is drawn on ("box_image",
	// written when not 0); see BoxImagePath.
	BoxImage  int
	Scene     string
	Steps     []Step
	Tolerance *float64
	// ToleranceText is a tolerance written as text that is not a number — "1,5"
	// typed in the editor, a string in a record — while Tolerance is nil. It is
	// kept, and written back as that string, so that nothing typed is lost on
	// saving; lint reports it as an error until it is a number (ParseTolerance).
	ToleranceText string
	Task          string
	Split         string
	Tags          []string
	Parent        string
	// Transform names how a derived sample was made from Parent ("subgraph" or
	// "expand", package augment); "" for a sample written or imported as it is.
	Transform string
	Extra     map[string]json.RawMessage
}
