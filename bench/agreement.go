package bench

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/agreement"
)

// Figure is one Krippendorff's alpha (nominal) with its bootstrap interval of
// AgreementDraws replicates and its reading, or the reason it is undefined: the
// figure package agreement computes, with its texts for people.
type Figure agreement.Figure

// Defined reports whether the figure has an alpha.
func (f Figure) Defined() bool { return f.Undefined == "" }

// AlphaText is the alpha with three decimals, or "undefined: <reason>".
func (f Figure) AlphaText() string {
	if !f.Defined() {
		return "undefined: " + f.Undefined
	}
	return strconv.FormatFloat(f.Alpha, 'f', 3, 64)
}

// CIText is the 95% interval as "[lo, hi]", or "" when alpha is undefined.
func (f Figure) CIText() string {
	if !f.Defined() {
		return ""
	}
	return fmt.Sprintf("[%.3f, %.3f]", f.CI95[0], f.CI95[1])
}

// AgreementRow is the agreement on one criterion (or the decision, or all criteria
// pooled) in one round; Round 0 takes every round together, with each verifier of
// any round as a coder of the revision.
type AgreementRow struct {
	Round     int
	Criterion string // a criterion id, CriterionDecision or CriterionAll
	Figure
}

// VerifierAlpha is the decision agreement across rounds with and without one
// verifier: a verifier whose removal raises alpha markedly is the outlier.
type VerifierAlpha struct {
	Verifier string
	Reviews  int // the verifier's visible reviews
	With     Figure
	Without  Figure
}

// Change is Without.Alpha - With.Alpha, and false when either is undefined.
func (v VerifierAlpha) Change() (float64, bool) {
	if !v.With.Defined() || !v.Without.Defined() {
		return 0, false
	}
	return v.Without.Alpha - v.With.Alpha, true
}

// BoxRow is the agreement of the boxes that two or more people drew on one sample's
// target: each person's latest box among the sample's revisions.
type BoxRow struct {
	SampleID string
	Authors  []string // in the order of their first boxed revision
	agreement.BoxSummary
}

// The bootstrap behind every confidence interval of the store's Agreement call: fixed draws and
// seed, so that the same reviews always give the same interval.
const (
	AgreementDraws        = 1000
	AgreementSeed  uint64 = 1
)

// The pseudo-criteria of an [AgreementRow].
const (
	CriterionDecision = agreement.CriterionDecision // the approve/reject decision
	CriterionAll      = agreement.CriterionAll      // every criterion of the round pooled: units are (revision, criterion)
)

// BoxAgreement sums the box rows up, weighting every pair of boxes equally.
type BoxAgreement struct {
	Samples   int
	Pairs     int
	MeanIoU   float64
	ShareAt50 float64 // share of pairs with IoU >= 0.5
	Rows      BoxTable
}

// Agreement is the inter-rater reliability of a project's verifier judgements.
type Agreement struct {
	Rows      AgreementTable
	Verifiers VerifierAlphaTable
	Boxes     BoxAgreement
}

// NewAgreement is the agreement of tables and boxes computed by package agreement
// (agreement.Judgements.Tables, agreement.Boxes).
func NewAgreement(t agreement.Tables, boxes agreement.BoxTotals) Agreement {
	a := Agreement{Boxes: BoxAgreement{Samples: boxes.Samples, Pairs: boxes.Pairs, MeanIoU: boxes.MeanIoU, ShareAt50: boxes.ShareAt50}}
	for _, b := range boxes.Rows {
		a.Boxes.Rows = append(a.Boxes.Rows, BoxRow{SampleID: b.Sample, Authors: b.Authors, BoxSummary: b.BoxSummary})
	}
	for _, r := range t.Rows {
		a.Rows = append(a.Rows, AgreementRow{Round: r.Round, Criterion: r.Criterion, Figure: Figure(r.Figure)})
	}
	for _, c := range t.Coders {
		a.Verifiers = append(a.Verifiers, VerifierAlpha{Verifier: c.Coder, Reviews: c.Judgements, With: Figure(c.With), Without: Figure(c.Without)})
	}
	return a
}

// Table types, each exportable as CSV with stable columns.
type (
	AgreementTable     []AgreementRow
	VerifierAlphaTable []VerifierAlpha
	BoxTable           []BoxRow
)

// RoundName is "all" for round 0, else the round's number.
func RoundName(round int) string {
	if round == 0 {
		return "all"
	}
	return strconv.Itoa(round)
}

// writeCSV writes a header and rows.
func writeCSVTable(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

func csvFloat(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }

// figureCols are a figure's CSV columns: alpha, ci95_low, ci95_high, reading,
// undefined (alpha and the interval are empty when undefined).
func figureCols(f Figure) []string {
	if !f.Defined() {
		return []string{"", "", "", "", f.Undefined}
	}
	return []string{csvFloat(f.Alpha, 4), csvFloat(f.CI95[0], 4), csvFloat(f.CI95[1], 4), f.Reading, ""}
}

// WriteCSV writes round, criterion, units, pairable_units, values, alpha, ci95_low,
// ci95_high, reading, undefined.
func (t AgreementTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, r := range t {
		rows[i] = append([]string{RoundName(r.Round), r.Criterion, strconv.Itoa(r.Units), strconv.Itoa(r.Pairable), strconv.Itoa(r.Values)},
			figureCols(r.Figure)...)
	}
	return writeCSVTable(w, []string{"round", "criterion", "units", "pairable_units", "values", "alpha", "ci95_low", "ci95_high", "reading", "undefined"}, rows)
}

// WriteCSV writes verifier, reviews, the decision alpha across rounds with everyone
// (alpha, ci95, reading, undefined) and without the verifier, and the change.
func (t VerifierAlphaTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, v := range t {
		change := ""
		if c, ok := v.Change(); ok {
			change = csvFloat(c, 4)
		}
		rows[i] = append(append(append([]string{v.Verifier, strconv.Itoa(v.Reviews)}, figureCols(v.With)...), figureCols(v.Without)...), change)
	}
	return writeCSVTable(w, []string{"verifier", "reviews",
		"alpha_with", "ci95_low_with", "ci95_high_with", "reading_with", "undefined_with",
		"alpha_without", "ci95_low_without", "ci95_high_without", "reading_without", "undefined_without", "change"}, rows)
}

// WriteCSV writes sample, authors (joined by "+"), boxes, pairs, mean_iou, share_iou50.
func (t BoxTable) WriteCSV(w io.Writer) error {
	rows := make([][]string, len(t))
	for i, b := range t {
		rows[i] = []string{b.SampleID, strings.Join(b.Authors, "+"), strconv.Itoa(b.Boxes), strconv.Itoa(b.Pairs),
			csvFloat(b.MeanIoU, 4), csvFloat(b.ShareAt50, 4)}
	}
	return writeCSVTable(w, []string{"sample", "authors", "boxes", "pairs", "mean_iou", "share_iou50"}, rows)
}
