package score

import (
	"cmp"
	"fmt"
	"slices"
)

// Standing is one model's place on a leaderboard.
type Standing struct {
	// Rank is 1 + the number of models whose interval lies wholly above this
	// model's (models that are better beyond doubt), so models whose intervals
	// overlap can share a rank.
	Rank  int     `json:"rank"`
	Model string  `json:"model"`
	Value float64 `json:"value"`
	// CI is the figure's 95 % interval; without one the value stands for it.
	CI *[2]float64 `json:"ci,omitempty"`
	// TiedWith lists the other models whose intervals overlap this one's, in
	// leaderboard order; empty when the model is separated from all others.
	TiedWith []string `json:"tied_with,omitempty"`
}

// Leaderboard ranks models by one overall figure (a name from MetricNames,
// e.g. "acc50iou"), best first; equal values are ordered by model name. A model
// is tied with every model whose confidence interval overlaps its own (touching
// ends overlap); without intervals only equal values tie. It is an error when a
// report lacks the figure, or two reports name the same model. Reports of blind
// runs (Report.Blind) are not ranked: they are what MultiModalGains compares a
// model's run with images to.
func Leaderboard(reports []*Report, metric string) ([]Standing, error) {
	if (&Figures{}).slot(metric) == nil {
		return nil, fmt.Errorf("score: leaderboard: unknown figure %q", metric)
	}
	rows := make([]Standing, 0, len(reports))
	seen := map[string]bool{}
	for _, r := range reports {
		if r.Blind {
			continue
		}
		if seen[r.Model] {
			return nil, fmt.Errorf("score: leaderboard: two reports for model %q", r.Model)
		}
		seen[r.Model] = true
		m := r.Overall.Metric(metric)
		if m == nil {
			return nil, fmt.Errorf("score: leaderboard: model %q has no %s figure", r.Model, metric)
		}
		rows = append(rows, Standing{Model: r.Model, Value: m.Value, CI: m.CI})
	}
	slices.SortStableFunc(rows, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Value, a.Value), cmp.Compare(a.Model, b.Model))
	})
	bounds := func(s Standing) (lo, hi float64) {
		if s.CI == nil {
			return s.Value, s.Value
		}
		return s.CI[0], s.CI[1]
	}
	for i := range rows {
		lo, hi := bounds(rows[i])
		rows[i].Rank = 1
		for j := range rows {
			if j == i {
				continue
			}
			olo, ohi := bounds(rows[j])
			switch {
			case olo > hi:
				rows[i].Rank++
			case ohi >= lo:
				rows[i].TiedWith = append(rows[i].TiedWith, rows[j].Model)
			}
		}
	}
	return rows, nil
}
