package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/benchwright/benchwright/agreement"
	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Agreement computes Krippendorff's alpha (nominal) over the project's verifier
// judgements, for verifiers and leads (annotators are refused with ErrForbidden).
//
// What alpha is computed on:
//   - a unit is a sample revision (for CriterionAll, a revision and a criterion) and
//     the coders are the verifiers who reviewed it;
//   - the decision's values are approve/reject; a criterion's values are yes/no: a
//     review's judgement where it gave one, else "no" if the criterion is among its
//     reasons, else missing. A criterion nobody judged is never taken as "yes"
//     (verify.CheckVerdict makes an approval judge every criterion; approvals stored
//     before that rule without judgements count as missing values);
//   - rows for rounds 1–3 take that round's reviews, Round 0 every round's; a
//     verifier who reviewed a revision in two rounds (round3_allow_earlier) is one
//     coder there, with the later round's judgement;
//   - only settled rounds count: the round-3 votes of a revision whose round 3 is
//     still open, or was closed by a reject while a panel member may still vote late
//     on it, are left out entirely (verify.Round3.Settled); they count once the round
//     closed and every late vote is cast or its claim ended, so that a late voter
//     learns nothing from the figures.
//
// Rounds 1 and 2 have one verifier each, so a round-1 or round-2 row is undefined
// unless reviews of several verifiers meet on one revision; Round 0 pairs them.
// A round-3 unit holds the votes cast before the first rejection and the late votes
// cast after it (see DB.SubmitReview), so it may hold several rejections.
//
// Every interval is bootstrapped with AgreementDraws draws and AgreementSeed.
func (d *DB) Agreement(ctx context.Context, actor bench.User, projectID int64) (bench.Agreement, error) {
	var out bench.Agreement
	err := d.readAs(ctx, actor, "agreement.read", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSeeAgreement); err != nil {
			return err
		}
		p, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		revs, err := visibleReviews(ctx, tx, d.dialect(), projectID, p.Settings.Policy(), d.Now())
		if err != nil {
			return err
		}
		if out.Rows, err = agreementRows(ctx, revs); err != nil {
			return err
		}
		if out.Verifiers, err = verifierAlphas(ctx, revs); err != nil {
			return err
		}
		out.Boxes, err = boxAgreement(ctx, tx, d.dialect(), projectID)
		return err
	})
	if err != nil {
		return bench.Agreement{}, fmt.Errorf("agreement of project %d: %w", projectID, err)
	}
	return out, nil
}

// judgement is one visible review, reduced to what agreement needs. Its values on
// the criteria of its kind and round (verify.Criteria order) are kept apart, in
// judgements.vals from vals on: valueNone, valueYes or valueNo.
type judgement struct {
	revision int64
	coder    int32 // index into judgements.coders
	vals     int32
	round    int8
	kind     int8 // index into judgements.kinds
	reject   bool
}

// The criterion values of a judgement, and their labels in the reliability data.
const (
	valueNone byte = iota
	valueYes
	valueNo
)

var valueLabels = [...]string{valueNone: "", valueYes: "yes", valueNo: "no"}

// decision is the judgement's decision as a reliability value.
func (j judgement) decision() string {
	if j.reject {
		return string(verify.DecisionReject)
	}
	return string(verify.DecisionApprove)
}

// judgements are a project's visible reviews in revision order, with the tables
// their small indexes point into.
type judgements struct {
	list   []judgement
	vals   []byte
	coders []agreementCoder
	kinds  []annotate.Kind
	// criteria[kind][round-1] is verify.Criteria(kind, round).
	criteria [][3][]verify.Criterion
}

type agreementCoder struct {
	id        int64
	name, uid string
}

// kindIndex returns the index of kind, adding it when new.
func (js *judgements) kindIndex(kind string) int {
	for i, k := range js.kinds {
		if string(k) == kind {
			return i
		}
	}
	k := annotate.Kind(kind)
	js.kinds = append(js.kinds, k)
	js.criteria = append(js.criteria, [3][]verify.Criterion{verify.Criteria(k, 1), verify.Criteria(k, 2), verify.Criteria(k, 3)})
	return len(js.kinds) - 1
}

// judged lists the criteria of j's kind and round, in the order of its values.
func (js *judgements) judged(j judgement) []verify.Criterion {
	if j.round < 1 || j.round > 3 {
		return nil
	}
	return js.criteria[j.kind][j.round-1]
}

// setValues stores j's value on each criterion of its kind and round: its judgement
// when it gave one; else no when the criterion is among its reasons; else none.
// crit and reasons are the review's JSON as stored.
func (js *judgements) setValues(j *judgement, crit, reasons string) error {
	list := js.judged(*j)
	j.vals = int32(len(js.vals))
	js.vals = slices.Grow(js.vals, len(list))[:len(js.vals)+len(list)]
	vals := js.vals[j.vals:]
	clear(vals)
	if crit != "{}" && !parseCriteria(crit, list, vals) {
		var m map[string]bool
		if err := json.Unmarshal([]byte(crit), &m); err != nil {
			return fmt.Errorf("criteria: %w", err)
		}
		for i, c := range list {
			if passed, ok := m[c.ID]; ok {
				vals[i] = valueOf(passed)
			}
		}
	}
	var rs []string
	if reasons != "[]" {
		var ok bool
		if rs, ok = parseStrings(reasons); !ok {
			if err := json.Unmarshal([]byte(reasons), &rs); err != nil {
				return fmt.Errorf("reasons: %w", err)
			}
		}
	}
	for i, c := range list {
		switch {
		case vals[i] != valueNone:
		case slices.Contains(rs, c.ID):
			vals[i] = valueNo
		}
	}
	return nil
}

func valueOf(passed bool) byte {
	if passed {
		return valueYes
	}
	return valueNo
}

// parseCriteria reads the criteria object json.Marshal writes for a review
// ({"id":true,"id2":false}: no spaces, no escapes, booleans only) into vals, one per
// criterion of list; a criterion named twice takes the last value, as json.Unmarshal
// does. It reports false, having set nothing, for any other form.
func parseCriteria(s string, list []verify.Criterion, vals []byte) bool {
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' || !plainJSON(s) {
		return false
	}
	type kv struct {
		i int
		v byte
	}
	var found [16]kv
	set := found[:0]
	for rest := s[1 : len(s)-1]; rest != ""; {
		if rest[0] != '"' {
			return false
		}
		end := strings.IndexByte(rest[1:], '"') + 1
		if end == 0 || end+1 >= len(rest) || rest[end+1] != ':' {
			return false
		}
		key := rest[1:end]
		rest = rest[end+2:]
		var v byte
		switch {
		case strings.HasPrefix(rest, "true"):
			v, rest = valueYes, rest[4:]
		case strings.HasPrefix(rest, "false"):
			v, rest = valueNo, rest[5:]
		default:
			return false
		}
		if rest != "" {
			if rest[0] != ',' || len(rest) == 1 {
				return false
			}
			rest = rest[1:]
		}
		if i := slices.IndexFunc(list, func(c verify.Criterion) bool { return c.ID == key }); i >= 0 {
			set = append(set, kv{i, v})
		}
	}
	for _, x := range set {
		vals[x.i] = x.v
	}
	return true
}

// plainJSON reports whether s holds neither escapes nor control characters, so that
// its strings read as they stand.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == '\\' {
			return false
		}
	}
	return true
}

// parseStrings reads an array of strings without escapes (["a","b"]), and reports
// false for any other form.
func parseStrings(s string) ([]string, bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || !plainJSON(s) {
		return nil, false
	}
	var out []string
	for rest := s[1 : len(s)-1]; rest != ""; {
		if rest[0] != '"' {
			return nil, false
		}
		end := strings.IndexByte(rest[1:], '"') + 1
		if end == 0 {
			return nil, false
		}
		out = append(out, rest[1:end])
		rest = rest[end+1:]
		if rest != "" {
			if rest[0] != ',' || len(rest) == 1 {
				return nil, false
			}
			rest = rest[1:]
		}
	}
	return out, true
}

// round3Info is what verify.Round3 needs to know of a revision with round-3 votes
// besides its reviews.
type round3Info struct {
	revision        int64
	number, current int
	currentReviewed bool
	sample          string
}

// round3Infos reads round3Info for the revisions that from (a FROM clause naming
// them r) and where pick, in revision order.
func round3Infos(ctx context.Context, tx *sql.Tx, dl dialect, from, where string, arg any) ([]round3Info, error) {
	return queryAll(ctx, tx, func(r scanner) (i round3Info, err error) {
		err = r.Scan(&i.revision, &i.number, &i.current, &i.currentReviewed, &i.sample)
		return i, err
	}, `SELECT r.id, r.number, COALESCE(cur.number, 0), EXISTS (SELECT 1 FROM reviews x WHERE x.revision_id = s.current_rev), s.id
		FROM `+from+` `+dl.fixedJoin()+` samples s ON s.id = r.sample_id LEFT JOIN revisions cur ON cur.id = s.current_rev
		WHERE `+where+` ORDER BY r.id`, arg)
}

// visibleReviews loads the project's reviews of settled rounds in one pass over them
// in revision order (the reviews' revision index), and the revisions' round-3 facts
// in a second ordered pass that the first walks along.
func visibleReviews(ctx context.Context, tx *sql.Tx, dl dialect, projectID int64, p verify.Policy, now time.Time) (*judgements, error) {
	claims := map[string][]verify.Claim{} // sample id → its round-3 claims
	cls, err := queryAll(ctx, tx, func(r scanner) (verify.Claim, error) {
		var cl verify.Claim
		var vid int64
		var exp string
		err := r.Scan(&cl.Sample, &vid, &exp)
		cl.Round, cl.Verifier = 3, uid(vid)
		cl.Expires, _ = time.Parse(time.RFC3339Nano, exp)
		return cl, err
	}, `SELECT c.sample_id, c.verifier_id, c.expires_at FROM claims c `+dl.fixedJoin()+` samples s ON s.id = c.sample_id
		WHERE s.project_id = ? AND c.round = 3 ORDER BY c.sample_id, c.verifier_id`, projectID)
	if err != nil {
		return nil, err
	}
	for _, cl := range cls {
		claims[cl.Sample] = append(claims[cl.Sample], cl)
	}
	users, err := queryAll(ctx, tx, func(r scanner) (c agreementCoder, err error) {
		err = r.Scan(&c.id, &c.name)
		c.uid = uid(c.id)
		return c, err
	}, `SELECT id, name FROM users ORDER BY id`)
	if err != nil {
		return nil, err
	}
	// The revisions with round-3 votes are those of stat_rev3 (migration 0008, kept
	// by stats.go).
	infos, err := round3Infos(ctx, tx, dl, `stat_rev3 t `+dl.fixedJoin()+` revisions r ON r.id = t.revision_id`, `s.project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	// Should stat_rev3 miss a revision with round-3 votes, its facts are read from
	// the revisions themselves, here: no query may run while the reviews below are
	// read (a PostgreSQL connection answers one query at a time).
	missed, err := round3Infos(ctx, tx, dl, `revisions r`, `r.id IN (SELECT v.revision_id FROM reviews v WHERE v.round = 3
		AND NOT EXISTS (SELECT 1 FROM stat_rev3 t WHERE t.revision_id = v.revision_id)) AND s.project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	if len(missed) > 0 {
		infos = append(infos, missed...)
		slices.SortFunc(infos, func(a, b round3Info) int { return cmp.Compare(a.revision, b.revision) })
	}
	// info returns the round-3 facts of revision: the next of infos.
	info := func(revision int64) (round3Info, error) {
		for len(infos) > 0 && infos[0].revision < revision {
			infos = infos[1:]
		}
		if len(infos) > 0 && infos[0].revision == revision {
			return infos[0], nil
		}
		return round3Info{}, fmt.Errorf("revision %d: %w", revision, bench.ErrNotFound)
	}
	// Reviews first, in the order of their revision index; the sample's project and
	// kind come from the covering index stat_samples_of (migration 0004).
	rows, err := tx.QueryContext(ctx, `SELECT rv.revision_id, s.kind, rv.round, rv.verifier_id, rv.decision = 'reject',
			rv.criteria, NULLIF(rv.reasons, '[]')
		FROM reviews rv `+dl.fixedJoin()+` samples s ON s.id = rv.sample_id
		WHERE s.project_id = ? AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = rv.sample_id) ORDER BY rv.revision_id`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := &judgements{}
	coder := map[int64]int32{} // user id → index into out.coders
	// The current revision's judgements are out.list[start:].
	start := 0
	var r3 verify.Round3
	flush := func() error {
		group := out.list[start:]
		if !slices.ContainsFunc(group, func(j judgement) bool { return j.round == 3 }) {
			return nil
		}
		in, err := info(group[0].revision)
		if err != nil {
			return err
		}
		r3.Revision, r3.Current, r3.CurrentReviewed, r3.Claims, r3.Now = in.number, in.current, in.currentReviewed, claims[in.sample], now
		r3.Reviews = r3.Reviews[:0]
		for _, j := range group {
			r3.Reviews = append(r3.Reviews, verify.Review{Round: int(j.round), Reviewer: out.coders[j.coder].uid, Decision: verify.Decision(j.decision())})
		}
		blind := !r3.Settled(p)
		if blind {
			out.list = append(out.list[:start], slices.DeleteFunc(group, func(j judgement) bool { return j.round == 3 })...)
		}
		return nil
	}
	// Scanned into once, declared outside the loop: Scan takes their addresses.
	var (
		j          judgement
		verifier   int64
		round      int
		kind, crit string
		reasons    sql.NullString // null: "[]"
	)
	for rows.Next() {
		j = judgement{}
		if err := rows.Scan(&j.revision, &kind, &round, &verifier, &j.reject, &crit, &reasons); err != nil {
			return nil, err
		}
		if start < len(out.list) && out.list[start].revision != j.revision {
			if err := flush(); err != nil {
				return nil, err
			}
			start = len(out.list)
		}
		c, ok := coder[verifier]
		if !ok {
			i, found := slices.BinarySearchFunc(users, verifier, func(u agreementCoder, id int64) int { return cmp.Compare(u.id, id) })
			if !found {
				continue // no such user: the review cannot be shown
			}
			c = int32(len(out.coders))
			coder[verifier] = c
			out.coders = append(out.coders, users[i])
		}
		if !reasons.Valid {
			reasons.String = "[]"
		}
		j.coder, j.round, j.kind = c, int8(round), int8(out.kindIndex(kind))
		if err := out.setValues(&j, crit, reasons.String); err != nil {
			return nil, fmt.Errorf("review of revision %d by %s: %w", j.revision, out.coders[c].name, err)
		}
		out.list = append(out.list, j)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
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
	counts  bench.Figure // Units, Pairable and Values so far
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
func (r *reliability) figure(ctx context.Context) (bench.Figure, error) {
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
		return bench.Figure{}, err
	}
	boot, err := res.Bootstrap(ctx, bench.AgreementDraws, bench.AgreementSeed)
	if err != nil {
		return bench.Figure{}, err
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

// criterionTables gives, per kind index and round 1–3, the position of each of crits
// among the values of a judgement of that kind and round, or -1 when it does not
// judge the criterion.
func criterionTables(js *judgements, crits []string) [][3][]int {
	out := make([][3][]int, len(js.kinds))
	for k := range js.kinds {
		for r := range 3 {
			pos := make([]int, len(crits))
			for c, id := range crits {
				pos[c] = slices.IndexFunc(js.criteria[k][r], func(x verify.Criterion) bool { return x.ID == id })
			}
			out[k][r] = pos
		}
	}
	return out
}

// value is j's value on the criterion at position pos of its values (-1: none).
func (js *judgements) value(j judgement, pos int) string {
	if pos < 0 {
		return ""
	}
	return valueLabels[js.vals[int(j.vals)+pos]]
}

// agreementRows computes the decision, the pooled criteria and each criterion for
// rounds 1, 2, 3 and all rounds (0).
func agreementRows(ctx context.Context, js *judgements) (bench.AgreementTable, error) {
	kinds := func(round int) map[annotate.Kind]bool {
		out := map[annotate.Kind]bool{}
		for _, j := range js.list {
			if round == 0 || int(j.round) == round {
				out[js.kinds[j.kind]] = true
			}
		}
		return out
	}
	all := criteriaOf(kinds(0), 0)
	pos := criterionTables(js, all)
	var out bench.AgreementTable
	for _, round := range []int{1, 2, 3, 0} {
		crits := criteriaOf(kinds(round), round)
		idx := make([]int, len(crits))
		for c, id := range crits {
			idx[c] = slices.Index(all, id)
		}
		// The decision, the pooled criteria, then each criterion.
		names := append([]string{bench.CriterionDecision, bench.CriterionAll}, crits...)
		rel := make([]reliability, len(names))
		for _, j := range js.list {
			if round != 0 && int(j.round) != round {
				continue
			}
			coder, r := int64(j.coder), int(j.round)
			rel[0].add(j.revision, -1, coder, j.decision(), r)
			var at []int
			if r >= 1 && r <= 3 {
				at = pos[j.kind][r-1]
			}
			for c, a := range idx {
				v := ""
				if at != nil {
					v = js.value(j, at[a])
				}
				rel[1].add(j.revision, a, coder, v, r)
				rel[2+c].add(j.revision, -1, coder, v, r)
			}
		}
		for n, name := range names {
			f, err := rel[n].figure(ctx)
			if err != nil {
				return nil, err
			}
			out = append(out, bench.AgreementRow{Round: round, Criterion: name, Figure: f})
		}
	}
	return out, nil
}

// verifierAlphas computes the decision agreement across rounds without each verifier.
func verifierAlphas(ctx context.Context, js *judgements) (bench.VerifierAlphaTable, error) {
	decision := func(skip int32) (bench.Figure, error) {
		var r reliability
		for _, j := range js.list {
			if j.coder != skip {
				r.add(j.revision, -1, int64(j.coder), j.decision(), int(j.round))
			}
		}
		return r.figure(ctx)
	}
	with, err := decision(-1)
	if err != nil {
		return nil, err
	}
	count := make([]int, len(js.coders))
	for _, j := range js.list {
		count[j.coder]++
	}
	var ids []int32
	for c, n := range count {
		if n > 0 {
			ids = append(ids, int32(c))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int { return strings.Compare(js.coders[a].name, js.coders[b].name) })
	var out bench.VerifierAlphaTable
	for _, c := range ids {
		without, err := decision(c)
		if err != nil {
			return nil, err
		}
		out = append(out, bench.VerifierAlpha{Verifier: js.coders[c].name, Reviews: count[c], With: with, Without: without})
	}
	return out, nil
}

// boxAgreement compares, on every sample whose revisions carry boxes by two or more
// people, each person's latest box. Only the revisions of samples with two or more
// authors are read (found through the index stat_revisions_author).
func boxAgreement(ctx context.Context, tx *sql.Tx, dl dialect, projectID int64) (bench.BoxAgreement, error) {
	rows, err := tx.QueryContext(ctx, `WITH multi AS (SELECT sample_id FROM revisions GROUP BY sample_id HAVING count(DISTINCT author_id) >= 2)
		SELECT r.sample_id, r.author_id, u.name, json_extract(r.content, '$.box') FROM multi m
			`+dl.fixedJoin()+` samples s ON s.id = m.sample_id JOIN revisions r ON r.sample_id = m.sample_id
			LEFT JOIN users u ON u.id = r.author_id
		WHERE s.project_id = ? AND json_extract(r.content, '$.box') IS NOT NULL
		ORDER BY r.sample_id, r.number`, projectID)
	if err != nil {
		return bench.BoxAgreement{}, err
	}
	defer rows.Close()
	type drawn struct {
		sample string
		author int64
		name   sql.NullString // null: no such user, the box is not shown
		box    string
	}
	var out bench.BoxAgreement
	sum, at50 := 0.0, 0.0
	// sample takes one sample's boxes in revision order, if two or more people drew them.
	sample := func(ds []drawn) error {
		if slices.IndexFunc(ds, func(d drawn) bool { return d.author != ds[0].author }) < 0 {
			return nil
		}
		var authors []string
		var boxes [][4]float64
		for _, d := range ds {
			if !d.name.Valid {
				continue
			}
			var b [4]float64
			if err := json.Unmarshal([]byte(d.box), &b); err != nil {
				return fmt.Errorf("sample %s: box by %s: %w", d.sample, d.name.String, err)
			}
			if i := slices.Index(authors, d.name.String); i >= 0 {
				boxes[i] = b // later revisions replace an author's earlier box
			} else {
				authors, boxes = append(authors, d.name.String), append(boxes, b)
			}
		}
		if len(authors) == 0 {
			return nil
		}
		sum1, err := agreement.BoxAgreement(boxes...)
		if err != nil {
			return fmt.Errorf("sample %s: %w", ds[0].sample, err)
		}
		out.Rows = append(out.Rows, bench.BoxRow{SampleID: ds[0].sample, Authors: authors, BoxSummary: sum1})
		out.Samples++
		out.Pairs += sum1.Pairs
		sum += sum1.MeanIoU * float64(sum1.Pairs)
		at50 += sum1.ShareAt50 * float64(sum1.Pairs)
		return nil
	}
	var group []drawn
	for rows.Next() {
		var d drawn
		if err := rows.Scan(&d.sample, &d.author, &d.name, &d.box); err != nil {
			return bench.BoxAgreement{}, err
		}
		if len(group) > 0 && group[0].sample != d.sample {
			if err := sample(group); err != nil {
				return bench.BoxAgreement{}, err
			}
			group = group[:0]
		}
		group = append(group, d)
	}
	if err := rows.Err(); err != nil {
		return bench.BoxAgreement{}, err
	}
	if len(group) > 0 {
		if err := sample(group); err != nil {
			return bench.BoxAgreement{}, err
		}
	}
	if out.Pairs > 0 {
		out.MeanIoU, out.ShareAt50 = sum/float64(out.Pairs), at50/float64(out.Pairs)
	}
	return out, nil
}
