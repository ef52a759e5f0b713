package store

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/agreement"
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// The bootstrap behind every confidence interval of [DB.Agreement]: fixed draws and
// seed, so that the same reviews always give the same interval.
const (
	AgreementDraws        = 1000
	AgreementSeed  uint64 = 1
)

// The pseudo-criteria of an [AgreementRow].
const (
	CriterionDecision = "decision"     // the approve/reject decision
	CriterionAll      = "all criteria" // every criterion of the round pooled: units are (revision, criterion)
)

// Figure is one Krippendorff's alpha (nominal) with its bootstrap interval and reading,
// or the reason it is undefined.
type Figure struct {
	Alpha     float64
	CI95      [2]float64 // 2.5th and 97.5th percentiles of AgreementDraws replicates
	Reading   string     // agreement.Reading of Alpha; "" when undefined
	Undefined string     // why alpha is undefined, "" when it is defined
	Units     int        // units with at least one value
	Pairable  int        // units with two or more values: the ones alpha is computed on
	Values    int        // values in the pairable units
}

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

// Table types, each exportable as CSV with stable columns.
type (
	AgreementTable     []AgreementRow
	VerifierAlphaTable []VerifierAlpha
	BoxTable           []BoxRow
)

// Agreement computes Krippendorff's alpha (nominal) over the project's verifier
// judgements, for verifiers and leads (annotators are refused with ErrForbidden).
//
// What alpha is computed on:
//   - a unit is a sample revision (for CriterionAll, a revision and a criterion) and
//     the coders are the verifiers who reviewed it;
//   - the decision's values are approve/reject; a criterion's values are yes/no. An
//     approval passes every criterion of its round, judged or not (an approval cannot
//     fail one); a rejection's value is its judgement, else "no" if the criterion is
//     among its reasons, else missing;
//   - rows for rounds 1–3 take that round's reviews, Round 0 every round's; a
//     verifier who reviewed a revision in two rounds (round3_allow_earlier) is one
//     coder there, with the later round's judgement;
//   - only closed rounds count: the round-3 votes of a revision whose round 3 is still
//     open (verify.CanSeeRound3Votes) are secret and left out entirely; they count
//     once the round closes.
//
// Rounds 1 and 2 have one verifier each, so a round-1 or round-2 row is undefined
// unless reviews of several verifiers meet on one revision; Round 0 pairs them.
// Because the first rejection closes a revision's review, a unit never holds two
// rejections: the decision's alpha is at most 0 once any pairable unit holds one.
//
// Every interval is bootstrapped with AgreementDraws draws and AgreementSeed.
func (d *DB) Agreement(ctx context.Context, actor User, projectID int64) (Agreement, error) {
	var out Agreement
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		if _, err := requireRole(ctx, tx, actor, "see agreement", RoleVerifier, RoleLead); err != nil {
			return err
		}
		p, err := statsProject(ctx, tx, projectID)
		if err != nil {
			return err
		}
		revs, err := visibleReviews(ctx, tx, projectID, p.Settings.Policy())
		if err != nil {
			return err
		}
		if out.Rows, err = agreementRows(revs); err != nil {
			return err
		}
		if out.Verifiers, err = verifierAlphas(revs); err != nil {
			return err
		}
		out.Boxes, err = boxAgreement(ctx, tx, projectID)
		return err
	})
	if err != nil {
		return Agreement{}, fmt.Errorf("agreement of project %d: %w", projectID, err)
	}
	return out, nil
}

// statsProject loads a project for the statistics. Its balance targets are decoded
// afresh: decoding the stored JSON over DefaultSettings' targets (as scanProject does)
// would leave a default's hop or view in a target that omits them (omitempty) and
// turn a wildcard into a specific cell.
func statsProject(ctx context.Context, tx *sql.Tx, id int64) (Project, error) {
	var settings string
	err := tx.QueryRowContext(ctx, `SELECT settings FROM projects WHERE id = ?`, id).Scan(&settings)
	if errors.Is(err, sql.ErrNoRows) {
		return Project{}, fmt.Errorf("project %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Project{}, err
	}
	p := Project{ID: id, Settings: DefaultSettings()}
	var targets struct {
		Balance *[]BalanceTarget `json:"balance"`
	}
	if err := json.Unmarshal([]byte(settings), &targets); err != nil {
		return Project{}, fmt.Errorf("project %d settings: %w", id, err)
	}
	if err := json.Unmarshal([]byte(settings), &p.Settings); err != nil {
		return Project{}, fmt.Errorf("project %d settings: %w", id, err)
	}
	if targets.Balance != nil {
		p.Settings.Balance = *targets.Balance
	}
	return p, nil
}

// judgement is one visible review, reduced to what agreement needs.
type judgement struct {
	revision   int64
	kind       annotate.Kind
	round      int
	verifierID int64
	verifier   string
	decision   verify.Decision
	criteria   map[string]bool
	reasons    []string
}

// value is the review's yes/no on criterion c, or "" when it gave none (see
// Agreement); judged says whether c is a criterion of the review's kind and round.
func (j judgement) value(c string, judged bool) string {
	if !judged {
		return ""
	}
	passed, ok := j.criteria[c]
	switch {
	case ok:
	case j.decision == verify.DecisionApprove:
		passed = true
	case slices.Contains(j.reasons, c):
		passed = false
	default:
		return ""
	}
	if passed {
		return "yes"
	}
	return "no"
}

// visibleReviews loads the project's reviews of closed rounds, by revision.
func visibleReviews(ctx context.Context, tx *sql.Tx, projectID int64, p verify.Policy) ([]judgement, error) {
	rows, err := tx.QueryContext(ctx, `SELECT rv.revision_id, r.number, COALESCE(cur.number, 0), s.kind, rv.round, rv.verifier_id,
		u.name, rv.decision, rv.criteria, rv.reasons
		FROM reviews rv JOIN samples s ON s.id = rv.sample_id JOIN revisions r ON r.id = rv.revision_id
		JOIN users u ON u.id = rv.verifier_id LEFT JOIN revisions cur ON cur.id = s.current_rev
		WHERE s.project_id = ? ORDER BY rv.revision_id, rv.id`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out, group []judgement
	var number, current int
	var votes []verify.Review
	flush := func() {
		blind := verify.CanSeeRound3Votes(p, votes, number, current) != nil
		for _, j := range group {
			if !(blind && j.round == 3) {
				out = append(out, j)
			}
		}
		group, votes = group[:0], votes[:0]
	}
	for rows.Next() {
		var j judgement
		var n, cur int
		var kind, dec, crit, reasons string
		if err := rows.Scan(&j.revision, &n, &cur, &kind, &j.round, &j.verifierID, &j.verifier, &dec, &crit, &reasons); err != nil {
			return nil, err
		}
		if len(group) > 0 && group[0].revision != j.revision {
			flush()
		}
		number, current = n, cur
		j.kind, j.decision = annotate.Kind(kind), verify.Decision(dec)
		if crit != "{}" {
			if err := json.Unmarshal([]byte(crit), &j.criteria); err != nil {
				return nil, fmt.Errorf("review of revision %d by %s: criteria: %w", j.revision, j.verifier, err)
			}
		}
		if reasons != "[]" {
			if err := json.Unmarshal([]byte(reasons), &j.reasons); err != nil {
				return nil, fmt.Errorf("review of revision %d by %s: reasons: %w", j.revision, j.verifier, err)
			}
		}
		group = append(group, j)
		votes = append(votes, verify.Review{Round: j.round, Reviewer: uid(j.verifierID), Decision: j.decision})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(group) > 0 {
		flush()
	}
	return out, nil
}

// reliability accumulates reliability data: one value per unit and coder. A unit is a
// revision, or a revision and a criterion (crit >= 0) for pooled criteria. Values
// must come revision after revision (visibleReviews orders them so): a revision's
// units are buffered and handed to the builder when the next revision starts. A
// coder who gives a unit values in two rounds (a round-1 or round-2 verifier on the
// round-3 panel, when the project allows it) counts once, with the later round's value.
type reliability struct {
	b       agreement.Builder
	counts  Figure // Units, Pairable and Values so far
	rev     int64
	started bool
	bufs    [][]reliabilityValue // the current revision's values, by crit+1
	vals    []string
}

type reliabilityValue struct {
	coder int64
	value string
	round int
}

func (r *reliability) add(revision int64, crit int, coder int64, value string, round int) {
	if value == "" {
		return
	}
	if !r.started || revision != r.rev {
		r.flush()
		r.rev, r.started = revision, true
	}
	i := crit + 1
	for len(r.bufs) <= i {
		r.bufs = append(r.bufs, nil)
	}
	for n, v := range r.bufs[i] {
		if v.coder == coder {
			if round >= v.round {
				r.bufs[i][n] = reliabilityValue{coder, value, round}
			}
			return
		}
	}
	r.bufs[i] = append(r.bufs[i], reliabilityValue{coder, value, round})
}

// flush hands the current revision's units to the builder.
func (r *reliability) flush() {
	for i, buf := range r.bufs {
		if len(buf) == 0 {
			continue
		}
		r.vals = r.vals[:0]
		for _, v := range buf {
			r.vals = append(r.vals, v.value)
		}
		r.b.AddUnit(r.vals...)
		r.counts.Units++
		if len(buf) >= 2 {
			r.counts.Pairable++
			r.counts.Values += len(buf)
		}
		r.bufs[i] = buf[:0]
	}
}

// figure computes alpha, its interval and reading, or the reason it is undefined.
func (r *reliability) figure() (Figure, error) {
	r.flush()
	f := r.counts
	res, err := agreement.Alpha(r.b.Data(), agreement.Nominal)
	if errors.Is(err, agreement.ErrUndefined) {
		f.Undefined = strings.TrimPrefix(err.Error(), agreement.ErrUndefined.Error()+": ")
		if f.Units == 0 {
			f.Undefined = "no judgements yet"
		}
		return f, nil
	}
	if err != nil {
		return Figure{}, err
	}
	boot, err := res.Bootstrap(AgreementDraws, AgreementSeed)
	if err != nil {
		return Figure{}, err
	}
	f.Alpha, f.CI95, f.Reading = res.Alpha, boot.CI95, agreement.Reading(res.Alpha)
	return f, nil
}

// criteriaOf lists, in form order and once each, the criteria of round (0: every
// round) of the given kinds.
func criteriaOf(kinds map[annotate.Kind]bool, round int) []string {
	var out []string
	for _, k := range annotate.Kinds {
		if !kinds[k] {
			continue
		}
		for r := 1; r <= 3; r++ {
			if round != 0 && r != round {
				continue
			}
			for _, c := range verify.Criteria(k, r) {
				if !slices.Contains(out, c.ID) {
					out = append(out, c.ID)
				}
			}
		}
	}
	return out
}

// criterionValues gives every judgement's value on each of crits ("" when none):
// judgement i's value on crits[c] is at i*len(crits)+c.
func criterionValues(js []judgement, crits []string) []string {
	type kindRound struct {
		kind  annotate.Kind
		round int
	}
	judged := map[kindRound][]bool{}
	out := make([]string, len(js)*len(crits))
	for i, j := range js {
		kr := kindRound{j.kind, j.round}
		in, ok := judged[kr]
		if !ok {
			list := verify.Criteria(j.kind, j.round)
			in = make([]bool, len(crits))
			for c, id := range crits {
				in[c] = slices.ContainsFunc(list, func(x verify.Criterion) bool { return x.ID == id })
			}
			judged[kr] = in
		}
		for c, id := range crits {
			out[i*len(crits)+c] = j.value(id, in[c])
		}
	}
	return out
}

// agreementRows computes the decision, the pooled criteria and each criterion for
// rounds 1, 2, 3 and all rounds (0).
func agreementRows(js []judgement) (AgreementTable, error) {
	kinds := func(round int) map[annotate.Kind]bool {
		out := map[annotate.Kind]bool{}
		for _, j := range js {
			if round == 0 || j.round == round {
				out[j.kind] = true
			}
		}
		return out
	}
	all := criteriaOf(kinds(0), 0)
	values := criterionValues(js, all)
	var out AgreementTable
	for _, round := range []int{1, 2, 3, 0} {
		crits := criteriaOf(kinds(round), round)
		idx := make([]int, len(crits))
		for c, id := range crits {
			idx[c] = slices.Index(all, id)
		}
		// The decision, the pooled criteria, then each criterion.
		names := append([]string{CriterionDecision, CriterionAll}, crits...)
		rel := make([]reliability, len(names))
		for i, j := range js {
			if round != 0 && j.round != round {
				continue
			}
			rel[0].add(j.revision, -1, j.verifierID, string(j.decision), j.round)
			for c, a := range idx {
				v := values[i*len(all)+a]
				rel[1].add(j.revision, a, j.verifierID, v, j.round)
				rel[2+c].add(j.revision, -1, j.verifierID, v, j.round)
			}
		}
		for n, name := range names {
			f, err := rel[n].figure()
			if err != nil {
				return nil, err
			}
			out = append(out, AgreementRow{Round: round, Criterion: name, Figure: f})
		}
	}
	return out, nil
}

// verifierAlphas computes the decision agreement across rounds without each verifier.
func verifierAlphas(js []judgement) (VerifierAlphaTable, error) {
	decision := func(skip int64) (Figure, error) {
		var r reliability
		for _, j := range js {
			if j.verifierID != skip {
				r.add(j.revision, -1, j.verifierID, string(j.decision), j.round)
			}
		}
		return r.figure()
	}
	with, err := decision(0)
	if err != nil {
		return nil, err
	}
	count := map[int64]int{}
	names := map[int64]string{}
	for _, j := range js {
		count[j.verifierID]++
		names[j.verifierID] = j.verifier
	}
	ids := make([]int64, 0, len(count))
	for id := range count {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int64) int { return strings.Compare(names[a], names[b]) })
	var out VerifierAlphaTable
	for _, id := range ids {
		without, err := decision(id)
		if err != nil {
			return nil, err
		}
		out = append(out, VerifierAlpha{Verifier: names[id], Reviews: count[id], With: with, Without: without})
	}
	return out, nil
}

// boxAgreement compares, on every sample whose revisions carry boxes by two or more
// people, each person's latest box. Only those samples' revisions are read.
func boxAgreement(ctx context.Context, tx *sql.Tx, projectID int64) (BoxAgreement, error) {
	rows, err := tx.QueryContext(ctx, `SELECT r.sample_id, u.name, json_extract(r.content, '$.box') FROM revisions r
		JOIN users u ON u.id = r.author_id
		WHERE json_extract(r.content, '$.box') IS NOT NULL AND r.sample_id IN (
			SELECT r2.sample_id FROM revisions r2 JOIN samples s ON s.id = r2.sample_id
			WHERE s.project_id = ? AND json_extract(r2.content, '$.box') IS NOT NULL
			GROUP BY r2.sample_id HAVING count(DISTINCT r2.author_id) >= 2)
		ORDER BY r.sample_id, r.number`, projectID)
	if err != nil {
		return BoxAgreement{}, err
	}
	defer rows.Close()
	type sampleBoxes struct {
		id      string
		authors []string
		boxes   map[string][4]float64
	}
	var all []*sampleBoxes
	for rows.Next() {
		var id, author, box string
		if err := rows.Scan(&id, &author, &box); err != nil {
			return BoxAgreement{}, err
		}
		if len(all) == 0 || all[len(all)-1].id != id {
			all = append(all, &sampleBoxes{id: id, boxes: map[string][4]float64{}})
		}
		s := all[len(all)-1]
		var b [4]float64
		if err := json.Unmarshal([]byte(box), &b); err != nil {
			return BoxAgreement{}, fmt.Errorf("sample %s: box by %s: %w", id, author, err)
		}
		if _, ok := s.boxes[author]; !ok {
			s.authors = append(s.authors, author)
		}
		s.boxes[author] = b // later revisions replace an author's earlier box
	}
	if err := rows.Err(); err != nil {
		return BoxAgreement{}, err
	}
	var out BoxAgreement
	sum, at50 := 0.0, 0.0
	for _, s := range all {
		boxes := make([][4]float64, len(s.authors))
		for i, a := range s.authors {
			boxes[i] = s.boxes[a]
		}
		sum1, err := agreement.BoxAgreement(boxes...)
		if err != nil {
			return BoxAgreement{}, fmt.Errorf("sample %s: %w", s.id, err)
		}
		out.Rows = append(out.Rows, BoxRow{SampleID: s.id, Authors: s.authors, BoxSummary: sum1})
		out.Samples++
		out.Pairs += sum1.Pairs
		sum += sum1.MeanIoU * float64(sum1.Pairs)
		at50 += sum1.ShareAt50 * float64(sum1.Pairs)
	}
	if out.Pairs > 0 {
		out.MeanIoU, out.ShareAt50 = sum/float64(out.Pairs), at50/float64(out.Pairs)
	}
	return out, nil
}

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
