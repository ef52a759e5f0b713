package score

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Gold is one sample of a frozen release with the size of its image (pixels of
// the displayed, EXIF-oriented image, the space annotate.Box is in). The size is
// needed only to score the box of a hop question.
type Gold struct {
	Sample        annotate.Sample
	Width, Height int
}

// Prediction is a model's raw response to one sample.
type Prediction struct {
	SampleID string `json:"sample_id"`
	Response string `json:"response"`
	// StepMatch optionally gives the 0/1 match matrix of a step-graph sample:
	// StepMatch[i][j] is 1 when gold step i and predicted step j (in the order
	// ParseStepGraph returns them) describe the same action. SpatiaLQA has a judge
	// model fill it; without it steps match when their normalized texts are equal.
	StepMatch [][]int `json:"step_match,omitempty"`
	// Circular marks a prediction of a circular run (a release exported with
	// bwctl export --format vlmevalkit --circular): Response answers the question
	// as released, Copies[k-1] its copy k, whose options are rotated by k
	// (circular.go). A copy not answered is "" and is scored wrong.
	Circular bool     `json:"circular,omitempty"`
	Copies   []string `json:"copies,omitempty"`
}

// Counts are true positives, false positives and false negatives.
type Counts struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	FN int `json:"fn"`
}

// PRF is precision, recall and F1 as fractions, each 0 when undefined
// (xieyc99/SpatiaLQA metric.py compute_precondition_and_content_scores).
func (c Counts) PRF() (p, r, f1 float64) {
	if c.TP+c.FP > 0 {
		p = float64(c.TP) / float64(c.TP+c.FP)
	}
	if c.TP+c.FN > 0 {
		r = float64(c.TP) / float64(c.TP+c.FN)
	}
	if p+r > 0 {
		f1 = 2 * p * r / (p + r)
	}
	return p, r, f1
}

// Result is the scoring of one sample.
type Result struct {
	SampleID string        `json:"sample_id"`
	Kind     annotate.Kind `json:"kind"`
	// Missing is set when the model gave no prediction for the sample; it is
	// scored as an empty response.
	Missing bool `json:"missing,omitempty"`
	// Answer is what was read from the response: the option letter ("A"…) of
	// hop_qa and mcq, "yes" or "no" for judgment, the extracted answer text of
	// open; empty when nothing was read (then ParseError says why).
	Answer     string `json:"answer,omitempty"`
	ParseError string `json:"parse_error,omitempty"`
	// Correct: the right option or yes/no; for open the strict match; for a step
	// graph every gold step and precondition found and nothing else.
	Correct bool `json:"correct"`
	// Circular is, for a circular prediction of an option sample, the option
	// read from each copy (the question as released first), mapped back to the
	// question's own letters: "" where none was read, Refused where the copy was
	// declined. Correct then holds only when every one is the gold option.
	Circular []string `json:"circular,omitempty"`

	// Box is the box read from a hop_qa response, on the 0–1 scale (after dividing
	// by 1000 when a coordinate exceeded 1); BoxError says why there is none or
	// why it was not scored, IoU is set when it was.
	Box      *[4]float64 `json:"box,omitempty"`
	BoxError string      `json:"box_error,omitempty"`
	IoU      *float64    `json:"iou,omitempty"`
	Hit50    bool        `json:"hit50,omitempty"` // correct option and IoU >= 0.5

	// Open answers: the relaxed match, the number read from the response and the
	// mean relative accuracy (both only when the gold answer is a number).
	Relaxed bool     `json:"relaxed,omitempty"`
	Number  *float64 `json:"number,omitempty"`
	MRA     *float64 `json:"mra,omitempty"`

	// Step graphs: the predicted steps, the matched (gold, predicted) step
	// indices, and the counts of steps and of precondition edges.
	Steps   []annotate.Step `json:"steps,omitempty"`
	Matches [][2]int        `json:"matches,omitempty"`
	Content *Counts         `json:"content,omitempty"`
	Precond *Counts         `json:"precond,omitempty"`
}

// Parsed reports whether an answer was read from the response (for a step
// graph: whether a step graph was).
func (r Result) Parsed() bool {
	if r.Kind == annotate.KindStepGraph {
		return r.Steps != nil
	}
	return r.Answer != ""
}

// Denominator says which samples a hop_qa or mcq figure divides by.
type Denominator string

const (
	// DenomAll divides by every sample (lmms-eval lmms_eval/tasks/multihopspatial/utils.py).
	DenomAll Denominator = "all"
	// DenomParsed divides by the samples whose answer letter was read
	// (youngwanLEE/multihopspatial eval/benchmark_qwen.py calculate_mcq_accuracy).
	DenomParsed Denominator = "parsed"
)

// StepMode says how step-graph precision, recall and F1 are aggregated.
type StepMode string

const (
	// StepMicro pools the counts of all samples, then divides (SpatiaLQA metric.py
	// mode "total", the mode its __main__ runs and the paper reports).
	StepMicro StepMode = "micro"
	// StepMacro computes the figures per sample and averages them (metric.py mode "split").
	StepMacro StepMode = "macro"
)

// StepSkip says which step-graph samples are left out of the step figures.
type StepSkip string

const (
	// SkipNone counts every sample: one whose response holds no step graph has
	// every gold step and edge missed.
	SkipNone StepSkip = "none"
	// SkipUnparsed leaves out samples whose response holds no step graph, as
	// metric.py does (gen_sim_matrix.py writes no matrix for them).
	SkipUnparsed StepSkip = "unparsed"
	// SkipUnmatched also leaves out samples with no matched step, as metric.py's
	// "total" mode does (it skips all-zero matrices).
	SkipUnmatched StepSkip = "unmatched"
)

// YesNoRule says how a judgment (yes/no) response is read.
type YesNoRule string

const (
	// YesNoVLMEvalKit reads "yes" or "no" when exactly one of the two words is in
	// the response, else nothing (YesNo; VLMEvalKit's YOrN_Extraction).
	YesNoVLMEvalKit YesNoRule = "vlmevalkit"
	// YesNoLRR reads "no" when the word No is in the response and "yes" otherwise
	// (LRRYesNo; LRR-Bench §III-D).
	YesNoLRR YesNoRule = "lrr"
)

// YesNoRules lists the rules, the default first.
var YesNoRules = []YesNoRule{YesNoVLMEvalKit, YesNoLRR}

// Options tune scoring and summarizing. The zero value is the default.
type Options struct {
	// YesNo is how judgment responses are read: YesNoVLMEvalKit (default) or YesNoLRR.
	YesNo YesNoRule
	// LRRWeights are the task weights w_i of lrr_score (task label → weight > 0); a
	// task not named weighs 1. The store fills them from the project's settings
	// when they are nil.
	LRRWeights map[string]float64
	// Denominator of mcq_acc and acc50iou: DenomAll (default) or DenomParsed.
	// Both are always reported under their own names as well.
	Denominator Denominator
	// StepMode: StepMicro (default) or StepMacro.
	StepMode StepMode
	// StepSkip: SkipNone (default), SkipUnparsed or SkipUnmatched.
	StepSkip StepSkip
	// CollapseUnmatchedEdges counts predicted precondition edges with an endpoint
	// outside the matching as metric.py does: the endpoint becomes "x" and the
	// edges go into a set, so all such edges with the same matched endpoint (or
	// none) are one false positive. Off, each such edge is a false positive.
	CollapseUnmatchedEdges bool
	// Draws is the number of bootstrap replicates: 0 means 1000, a negative
	// number disables the confidence intervals.
	Draws int
	// Seed seeds the bootstrap; the same inputs and seed give the same intervals.
	Seed uint64
	// Workers bounds the goroutines used; 0 means GOMAXPROCS.
	Workers int
}

func (o Options) withDefaults() (Options, error) {
	switch o.Denominator {
	case "":
		o.Denominator = DenomAll
	case DenomAll, DenomParsed:
	default:
		return o, fmt.Errorf("score: unknown denominator %q (want %q or %q)", o.Denominator, DenomAll, DenomParsed)
	}
	switch o.YesNo {
	case "":
		o.YesNo = YesNoVLMEvalKit
	case YesNoVLMEvalKit, YesNoLRR:
	default:
		return o, fmt.Errorf("score: unknown yes/no rule %q (want %q or %q)", o.YesNo, YesNoVLMEvalKit, YesNoLRR)
	}
	for t, w := range o.LRRWeights {
		if !(w > 0) || math.IsInf(w, 0) {
			return o, fmt.Errorf("score: the lrr_score weight of task %q must be a number above 0, got %v", t, w)
		}
	}
	switch o.StepMode {
	case "":
		o.StepMode = StepMicro
	case StepMicro, StepMacro:
	default:
		return o, fmt.Errorf("score: unknown step mode %q (want %q or %q)", o.StepMode, StepMicro, StepMacro)
	}
	switch o.StepSkip {
	case "":
		o.StepSkip = SkipNone
	case SkipNone, SkipUnparsed, SkipUnmatched:
	default:
		return o, fmt.Errorf("score: unknown step skip %q (want %s)", o.StepSkip,
			strings.Join([]string{string(SkipNone), string(SkipUnparsed), string(SkipUnmatched)}, ", "))
	}
	if o.Draws == 0 {
		o.Draws = 1000
	}
	return o, nil
}
