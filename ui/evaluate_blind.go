package ui

import (
	"fmt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

// Blind runs on the Evaluate screen (issue 29 item 6): a model's run without the
// images (bwctl predictions import --blind) is listed among the model runs but
// not ranked; when a release has one, the leaderboard gains MMStar's columns
// (arXiv 2403.20330), on the ranking figure: MG = S_v − S_wv, the model's score
// with the images less its blind run's, and ML = max(0, S_wv − S_t), its blind
// score beyond its base LLM's (score.MultiModalGains). The Samples tab marks the
// samples a blind run got right and can list only those; a sample's comparison
// shows the blind answer as "MODEL (blind)".

// splitBlind parts the reports into those of runs with images (and the human
// baseline), which are ranked, and those of blind runs.
func splitBlind(reports []*score.Report) (seeing, blind []*score.Report) {
	for _, r := range reports {
		if r.Blind {
			blind = append(blind, r)
		} else {
			seeing = append(seeing, r)
		}
	}
	return seeing, blind
}

// evalRunName names a model run in the runs table: a blind run is marked, with
// its base LLM when it named one.
func evalRunName(r bench.ModelRun) string {
	name := bench.RunName(r.Model, r.Blind)
	if r.Base != "" {
		name += ", base " + r.Base
	}
	return name
}

// gainHeads are the leaderboard's MMStar columns: none without a blind run.
func (v *evaluateView) gainHeads() []string {
	if len(v.blind) == 0 {
		return nil
	}
	return []string{"MG", "ML"}
}

// gainCells are a ranked model's MG and ML on the ranking figure, "–" where it
// has no blind run (or, for ML, no base LLM scored).
func (v *evaluateView) gainCells(model, metric string) []string {
	if len(v.blind) == 0 {
		return nil
	}
	mg, ml := "–", "–"
	for _, r := range v.reports {
		if r.Model != model {
			continue
		}
		if g := score.GainOn(r.MultiModal, metric); g != nil {
			mg = fmt.Sprintf("%.1f", g.MG)
			if g.ML != nil {
				ml = fmt.Sprintf("%.1f", *g.ML)
			}
		}
	}
	return []string{mg, ml}
}

// gainNote says what MG and ML are, after the leaderboard's note.
func (v *evaluateView) gainNote(metric string) string {
	if len(v.blind) == 0 {
		return ""
	}
	return fmt.Sprintf(" MG and ML on %s, in points (MMStar, arXiv 2403.20330): MG = S_v − S_wv, the score with the images less the blind run's "+
		"(answered without the images); ML = max(0, S_wv − S_t), S_t the score of the base LLM the blind run named; – without a blind run or a base. "+
		"Blind runs are not ranked.", metric)
}
