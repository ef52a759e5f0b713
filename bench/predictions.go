package bench

import (
	"fmt"
	"slices"
	"strings"
)

// ModelRun is one model's predictions on a release.
type ModelRun struct {
	Release string // the release's NAME@VERSION
	Model   string
	// Blind marks the model's blind run: its answers given without the images
	// (PredictionRun.Blind). A model has at most one run with images and one blind
	// run on a release; both carry its name.
	Blind       bool
	Base        string // a blind run's text-only base LLM (PredictionRun.Base), or ""
	Predictions int    // samples with a prediction
	Missing     int    // samples of the release without one (scored as empty responses)
	Source      string // the file (or files) they were imported from
	ImportedAt  string
	ImportedBy  string
}

// PredictionRun says what kind of run an import is. The zero value is a run with
// the images, as every import was before blind runs.
type PredictionRun struct {
	// Blind: the model answered the questions without their images (text only),
	// as MMStar (arXiv 2403.20330) runs a model to measure its multi-modal gain
	// and leakage (score.MultiModalGains). Importing a blind run replaces only
	// the model's blind run, never its run with images.
	Blind bool `json:"blind,omitempty"`
	// Base names the text-only LLM the model is built on, itself a model imported
	// on the release (a blind run of a text-only model): its score is S_t of the
	// leakage. Only for a blind run; "" when unknown.
	Base string `json:"base,omitempty"`
}

// RunName names a model's run for people: the model's name, followed by
// " (blind)" for a blind run.
func RunName(model string, blind bool) string {
	if blind {
		return model + " (blind)"
	}
	return model
}

// BlindRunOf is the model whose blind run name (RunName(model, true)) names, and
// whether name is such a name at all. A model may itself be called "X (blind)",
// so a caller looks for a run named name first and takes this reading second.
func BlindRunOf(name string) (model string, ok bool) {
	model, ok = strings.CutSuffix(name, " (blind)")
	return model, ok && model != ""
}

// someIDsListed is how many ids a SomeIDs lists.
const someIDsListed = 5

// SomeIDs counts sample ids of one kind of problem and lists the first few.
type SomeIDs struct {
	Count int
	IDs   []string // the first ones (at most 5), in input order
}

// Add counts id, listing it among the first few.
func (s *SomeIDs) Add(id string) {
	s.Count++
	if len(s.IDs) < someIDsListed {
		s.IDs = append(s.IDs, id)
	}
}

// ImportPredictionsResult is what ImportPredictions did.
type ImportPredictionsResult struct {
	Release  Release
	Model    string
	Run      PredictionRun // what kind of run was imported
	Imported int           // predictions stored
	// Replaced is the model's earlier run on the release when there was one: all
	// its predictions were deleted and replaced by this import's.
	Replaced *ModelRun
	// Unknown are predictions whose sample id is not a sample of the release, and
	// Duplicate second (and later) predictions for one sample: neither is stored
	// (of a duplicated id the first prediction is). Missing are the release's
	// samples without a prediction, which Score scores as empty responses.
	Unknown, Duplicate, Missing SomeIDs
	// PixelBoxes are the stored hop_qa predictions whose box looks like pixel
	// coordinates (score.PixelBoxes): they are stored and scored as read, on the
	// 0–1 or 0–1000 scale, as the toolkits read them, so their IoU is near 0.
	PixelBoxes SomeIDs
}

// BoxScales says how the scorers read a predicted box, for people importing
// predictions.
const BoxScales = "boxes are read as 0–1, or as 0–1000 when a coordinate exceeds 1 (as MultihopSpatial's benchmark_qwen.py and lmms-eval read them), never as pixels"

// PixelBoxesWarning says, in one sentence, that the predictions named in b give
// boxes that look like pixel coordinates, and how boxes are read.
func PixelBoxesWarning(b SomeIDs) string {
	more := ""
	if n := b.Count - len(b.IDs); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	n, they := fmt.Sprintf("%d boxes look", b.Count), "they score"
	if b.Count == 1 {
		n, they = "1 box looks", "it scores"
	}
	return fmt.Sprintf("%s like pixel coordinates (%s%s); %s, so %s an IoU near 0: convert boxes to 0–1000 of the image's width and height and import again",
		n, strings.Join(b.IDs, ", "), more, BoxScales, they)
}

// ChooseModels is which models a call that scores or curates a release covers:
// those named, in the order named, or, when none is named, every model of
// available (the models with a run on the release, in its order; a model with
// two runs, with and without the images, listed side by side counts once). A
// model named twice is ErrInvalid and one without a run ErrNotFound; with none
// named, a release without models is ErrNotFound unless allowNone.
func ChooseModels(release string, named, available []string, allowNone bool) ([]string, error) {
	if len(named) == 0 {
		if len(available) == 0 && !allowNone {
			return nil, fmt.Errorf("%w: no model has predictions on %s", ErrNotFound, release)
		}
		return slices.Compact(slices.Clone(available)), nil
	}
	seen := make(map[string]bool, len(named))
	for _, m := range named {
		if seen[m] {
			return nil, fmt.Errorf("%w: model %s is named twice", ErrInvalid, m)
		}
		seen[m] = true
		if !slices.Contains(available, m) {
			return nil, fmt.Errorf("model %s: %w among the predictions of %s", m, ErrNotFound, release)
		}
	}
	return slices.Clone(named), nil
}
