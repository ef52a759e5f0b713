package bench

import (
	"github.com/benchwright/benchwright/score"
)

// ModelResult is one model's scoring of one sample of a release.
type ModelResult struct {
	Model string
	Blind bool // the result of the model's blind run (answered without the images)
	// Response is the model's raw text. It is empty when the model gave none
	// (Result.Missing) and when the reader may not read predictions
	// (verify.ActionReadPredictions: verifiers see results, not raw text).
	Response string
	Result   score.Result // package score's reading and scoring of the response
}

// SampleOutcome is how the models run on a release did on one of its samples.
type SampleOutcome struct {
	SampleID string
	Wrong    []string // the models that did not get it right (score.Result.Correct false; a missing prediction is wrong), by name
	Models   int      // the models run on the release
	// BlindRight are the models whose blind run (answered without the images)
	// got the sample right, by name; blind runs are not counted in Wrong or Models.
	BlindRight []string
}
