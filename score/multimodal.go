package score

import (
	"cmp"
	"fmt"
	"slices"
)

// Multi-modal gain and leakage (MMStar, Chen et al., "Are We on the Right Way
// for Evaluating Large Vision-Language Models?", arXiv 2403.20330, §4.1): a
// model is run twice on a release, once as usual and once blind (the same
// questions without their images; Report.Blind). With S_v its score with images,
// S_wv its score without images and S_t the score of the text-only LLM it is
// built on,
//
//	MG = S_v − S_wv              what seeing the images adds
//	ML = max(0, S_wv − S_t)      what the model answers without images beyond its
//	                             base LLM: samples leaked into its multi-modal training
//
// S_t is the score of the base's run (Report.Base names it, a run imported as
// any other; its blind run when it has one, else its run with images: a
// text-only LLM sees no image either way). Without a base, or when the base's
// run is not among the reports, ML is not computed: MMStar defines it against
// the base LLM, and no other figure stands in for it.

// Gain is MMStar's multi-modal gain and leakage of one model on one figure, in
// the figure's unit (percentage points for the accuracies).
type Gain struct {
	Figure string  `json:"figure"` // a name from MetricNames
	SV     float64 `json:"s_v"`    // the model's score with images
	SWV    float64 `json:"s_wv"`   // its blind run's score, without images
	MG     float64 `json:"mg"`     // S_v − S_wv
	Base   string  `json:"base,omitempty"`
	// ST is the base LLM's score and ML = max(0, S_wv − S_t); both nil when the
	// blind run names no base or the base's run was not scored with the others.
	ST *float64 `json:"s_t,omitempty"`
	ML *float64 `json:"ml,omitempty"`
}

// gainFigures are the figures gains are computed on: every figure but
// "parsed" (a share of readable answers, not a score).
func gainFigures() []string { return MetricNames[1:] }

// MultiModalGains computes, for each model that has both a run with images and a
// blind run among reports, its Gain on every overall figure both runs have, in
// MetricNames' order; the result is by model name. A model with only one of the
// two runs has no entry. It is an error when a model has two runs of one kind.
func MultiModalGains(reports []*Report) (map[string][]Gain, error) {
	type pair struct{ seen, blind *Report }
	runs := map[string]*pair{}
	for _, r := range reports {
		p := runs[r.Model]
		if p == nil {
			p = &pair{}
			runs[r.Model] = p
		}
		slot := &p.seen
		if r.Blind {
			slot = &p.blind
		}
		if *slot != nil {
			return nil, fmt.Errorf("score: multi-modal gain: two %s runs of model %q", map[bool]string{true: "blind", false: "seeing"}[r.Blind], r.Model)
		}
		*slot = r
	}
	// text is the base LLM's report: its blind run when it has one.
	text := func(base string) *Report {
		if p := runs[base]; p != nil {
			return cmp.Or(p.blind, p.seen)
		}
		return nil
	}
	out := map[string][]Gain{}
	for model, p := range runs {
		if p.seen == nil || p.blind == nil {
			continue
		}
		var base *Report
		if b := p.blind.Base; b != "" && b != model {
			base = text(b)
		}
		for _, f := range gainFigures() {
			sv, swv := p.seen.Overall.Metric(f), p.blind.Overall.Metric(f)
			if sv == nil || swv == nil || sv.N == 0 || swv.N == 0 { // a figure over no sample is no score
				continue
			}
			g := Gain{Figure: f, SV: sv.Value, SWV: swv.Value, MG: sv.Value - swv.Value, Base: p.blind.Base}
			if base != nil {
				if st := base.Overall.Metric(f); st != nil && st.N > 0 {
					ml := max(0, swv.Value-st.Value)
					g.ST, g.ML = &st.Value, &ml
				}
			}
			out[model] = append(out[model], g)
		}
	}
	return out, nil
}

// AttachMultiModal sets MultiModal on each report of a run with images whose
// model has a blind run among reports (MultiModalGains), and reports whether any
// report is of a blind run.
func AttachMultiModal(reports []*Report) (bool, error) {
	gains, err := MultiModalGains(reports)
	if err != nil {
		return false, err
	}
	blind := false
	for _, r := range reports {
		blind = blind || r.Blind
		if !r.Blind {
			r.MultiModal = gains[r.Model]
		}
	}
	return blind, nil
}

// GainOn returns the gain of figure among gains, nil when there is none.
func GainOn(gains []Gain, figure string) *Gain {
	if i := slices.IndexFunc(gains, func(g Gain) bool { return g.Figure == figure }); i >= 0 {
		return &gains[i]
	}
	return nil
}

// RightIDs lists the samples results got right (Result.Correct), in results'
// order: for a blind run, the samples its model answered without seeing the
// images — candidates for a text-only shortcut or for leakage.
func RightIDs(results []Result) []string {
	var ids []string
	for _, r := range results {
		if r.Correct {
			ids = append(ids, r.SampleID)
		}
	}
	return ids
}
