package score

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"
)

// csvNumber writes a figure exactly, as the shortest decimal that reads back the
// same float64.
func csvNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// WriteCSV writes reports as one row per model × group × figure: model,
// dimension ("overall" or a key of Dimensions), group label, metric name (of
// MetricNames, and lrr_score_max after lrr_score), value, the interval's ends
// (empty without one) and n.
//
// When a report is of a blind run (Report.Blind), and only then, a last column
// "blind" says true on its rows and false on the others, and each model's
// MultiModal gains follow its rows: dimension "multimodal", the figure as group,
// metrics s_v, s_wv, mg and, with a base, s_t and ml (no interval, no n).
func WriteCSV(w io.Writer, reports []*Report) error {
	cw := csv.NewWriter(w)
	blind := slices.ContainsFunc(reports, func(r *Report) bool { return r.Blind })
	head := []string{"model", "dimension", "group", "metric", "value", "ci_low", "ci_high", "n"}
	if blind {
		head = append(head, "blind")
	}
	cw.Write(head)
	var runBlind bool // the blind column's value for the report being written
	write := func(row []string) {
		if blind {
			row = append(row, strconv.FormatBool(runBlind))
		}
		cw.Write(row)
	}
	rows := func(model, dim, group string, f *Figures) {
		for _, name := range MetricNames {
			m := f.Metric(name)
			if m == nil {
				continue
			}
			lo, hi := "", ""
			if m.CI != nil {
				lo, hi = csvNumber(m.CI[0]), csvNumber(m.CI[1])
			}
			write([]string{model, dim, group, name, csvNumber(m.Value), lo, hi, strconv.Itoa(m.N)})
		}
		if f.LRRScoreMax != nil {
			write([]string{model, dim, group, "lrr_score_max", csvNumber(*f.LRRScoreMax), "", "", strconv.Itoa(f.LRRScore.N)})
		}
	}
	for _, r := range reports {
		runBlind = r.Blind
		rows(r.Model, "overall", "", &r.Overall)
		for _, dim := range Dimensions {
			for i := range r.By[dim] {
				g := &r.By[dim][i]
				rows(r.Model, dim, g.Label, &g.Figures)
			}
		}
		for _, g := range r.MultiModal {
			gain := func(metric string, v float64) {
				write([]string{r.Model, "multimodal", g.Figure, metric, csvNumber(v), "", "", ""})
			}
			gain("s_v", g.SV)
			gain("s_wv", g.SWV)
			gain("mg", g.MG)
			if g.ML != nil {
				gain("s_t", *g.ST)
				gain("ml", *g.ML)
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteLeaderboardCSV writes a leaderboard (from Leaderboard) as one row per model
// in rank order: rank, model, the models it is tied with (";"-separated) and, for
// each of the figures named in cols, its overall value, interval and n. A figure
// the model lacks, or an interval not drawn, leaves its cells empty.
func WriteLeaderboardCSV(w io.Writer, board []Standing, reports []*Report, cols []string) error {
	byModel := make(map[string]*Report, len(reports))
	for _, r := range reports {
		if !r.Blind { // blind runs are not ranked (Leaderboard)
			byModel[r.Model] = r
		}
	}
	cw := csv.NewWriter(w)
	head := []string{"rank", "model", "tied_with"}
	for _, c := range cols {
		head = append(head, c, c+"_ci_low", c+"_ci_high", c+"_n")
	}
	cw.Write(head)
	for _, s := range board {
		row := []string{strconv.Itoa(s.Rank), s.Model, strings.Join(s.TiedWith, ";")}
		for _, c := range cols {
			var m *Metric
			if r := byModel[s.Model]; r != nil {
				m = r.Overall.Metric(c)
			}
			switch {
			case m == nil:
				row = append(row, "", "", "", "")
			case m.CI == nil:
				row = append(row, csvNumber(m.Value), "", "", strconv.Itoa(m.N))
			default:
				row = append(row, csvNumber(m.Value), csvNumber(m.CI[0]), csvNumber(m.CI[1]), strconv.Itoa(m.N))
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
