package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/benchwright/benchwright/agreement"
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
	var (
		tables    agreement.Tables
		tablesErr error
		drawn     []agreement.Drawn
	)
	err := d.readAs(ctx, actor, "agreement.read", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSeeAgreement); err != nil {
			return err
		}
		p, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		side := d.besideOf(tx) // the reviews read beside (PostgreSQL)
		defer side.close()
		js, boxRevs, listed, err := visibleReviews(ctx, tx, side, d.dialect(), projectID, p.Settings.Policy(), d.Now())
		if err != nil {
			return err
		}
		// The statistics need no transaction: they are computed while the boxes
		// are read, of the revisions the packed reviews listed or found in SQL.
		done := make(chan struct{})
		go func() {
			defer close(done)
			tables, tablesErr = js.Tables(ctx, bench.AgreementDraws, bench.AgreementSeed)
		}()
		if listed {
			drawn, err = drawnBoxesOf(ctx, tx, d.dialect(), boxRevs)
		} else {
			drawn, err = drawnBoxes(ctx, tx, d.dialect(), projectID)
		}
		<-done // before the transaction is run again or ends
		return err
	})
	if err == nil {
		err = tablesErr
	}
	if err != nil {
		return bench.Agreement{}, fmt.Errorf("agreement of project %d: %w", projectID, err)
	}
	boxes, err := agreement.Boxes(drawn)
	if err != nil {
		return bench.Agreement{}, fmt.Errorf("agreement of project %d: %w", projectID, err)
	}
	return bench.NewAgreement(tables, boxes), nil
}

type agreementCoder struct {
	id        int64
	name, uid string
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
	infos, err := queryAll(ctx, tx, func(r scanner) (i round3Info, err error) {
		err = r.Scan(&i.revision, &i.number, &i.current, &i.currentReviewed, &i.sample)
		return i, err
	}, `SELECT r.id, r.number, COALESCE(cur.number, 0), EXISTS (SELECT 1 FROM reviews x WHERE x.revision_id = s.current_rev), s.id
		FROM `+from+` `+dl.fixedJoin()+` samples s ON s.id = r.sample_id LEFT JOIN revisions cur ON cur.id = s.current_rev
		WHERE `+where, arg)
	if err != nil {
		return nil, err
	}
	// Sorted here rather than by the query: SQLite sorted them in a temporary B-tree.
	slices.SortFunc(infos, func(a, b round3Info) int { return cmp.Compare(a.revision, b.revision) })
	return infos, nil
}

// visibleReviews loads the project's reviews of settled rounds, sorted by
// revision, and the round-3 facts of the revisions with round-3 votes, which
// decide whether those votes count (verify.Round3.Settled). A project holding most
// of the database's samples (a team's one project, the usual case) reads every
// review packed (packedReviews); otherwise the database joins each review to its
// sample (projectReviews). When the reviews were read packed, listed is true
// and boxRevs lists the revisions whose boxes the agreement compares
// (drawnBoxesOf reads them); otherwise drawnBoxes finds them.
func visibleReviews(ctx context.Context, tx *sql.Tx, side *besideReads, dl dialect, projectID int64, p verify.Policy, now time.Time) (js *agreement.Judgements, boxRevs []int64, listed bool, err error) {
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
		return nil, nil, false, err
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
		return nil, nil, false, err
	}
	scan, err := scanAllReviews(ctx, tx, projectID)
	if err != nil {
		return nil, nil, false, err
	}
	rc := &reviewCollector{users: users}
	rc.reset()
	var facts map[int64]round3Info
	if scan {
		if facts, boxRevs, scan, err = packedReviews(ctx, tx, side, dl, projectID, rc); err != nil {
			return nil, nil, false, err
		}
	}
	if !scan {
		if facts, err = joinedReviews(ctx, tx, dl, projectID, rc); err != nil {
			return nil, nil, false, err
		}
	}
	out, coders := rc.out, rc.coders
	// In the order of the reviews' unique index: revision, round, verifier. Sorting
	// here costs less than walking the index and reading each row it points to.
	byIndex := func(a, b agreement.Judgement) int {
		switch {
		case a.Revision != b.Revision:
			return cmp.Compare(a.Revision, b.Revision)
		case a.Round != b.Round:
			return cmp.Compare(a.Round, b.Round)
		}
		return cmp.Compare(coders[a.Coder].id, coders[b.Coder].id)
	}
	if !slices.IsSortedFunc(out.List, byIndex) {
		sortByRevision(out.List, byIndex)
	}
	for _, r := range out.Round3Revisions() {
		if _, ok := facts[r]; !ok {
			return nil, nil, false, fmt.Errorf("revision %d: %w", r, bench.ErrNotFound)
		}
	}
	var r3 verify.Round3
	out.DropUnsettledRound3(func(group []agreement.Judgement) bool {
		in := facts[group[0].Revision]
		r3.Revision, r3.Current, r3.CurrentReviewed, r3.Claims, r3.Now = in.number, in.current, in.currentReviewed, claims[in.sample], now
		r3.Reviews = r3.Reviews[:0]
		for _, j := range group {
			r3.Reviews = append(r3.Reviews, verify.Review{Round: int(j.Round), Reviewer: coders[j.Coder].uid, Decision: j.Decision()})
		}
		return r3.Settled(p)
	})
	return out, boxRevs, scan, nil
}

// reviewCollector gathers the judgements of the reviews read, naming each
// verifier once.
type reviewCollector struct {
	users  []agreementCoder // every user, by id
	out    *agreement.Judgements
	coder  map[int64]int32  // user id → index into out.Coders
	coders []agreementCoder // by index into out.Coders
}

// reset forgets every judgement added.
func (rc *reviewCollector) reset() {
	rc.out, rc.coder, rc.coders = &agreement.Judgements{}, map[int64]int32{}, nil
}

// addReview adds the review of j's revision by verifier in round, of a sample of
// kind, with its stored criteria and reasons ("" or nil: none). kept is false
// for a review by no known user, which cannot be shown.
func addReview[T ~string | ~[]byte](rc *reviewCollector, j agreement.Judgement, kind string, round int, verifier int64, crit, reasons T) (kept bool, err error) {
	c, ok := rc.coder[verifier]
	if !ok {
		i, found := slices.BinarySearchFunc(rc.users, verifier, func(u agreementCoder, id int64) int { return cmp.Compare(u.id, id) })
		if !found {
			return false, nil
		}
		c = rc.out.Coder(rc.users[i].name)
		rc.coder[verifier] = c
		rc.coders = append(rc.coders, rc.users[i])
	}
	j.Coder, j.Round = c, int8(round)
	switch v := any(crit).(type) {
	case string:
		err = rc.out.AddText(j, kind, v, string(reasons))
	default:
		err = rc.out.Add(j, kind, []byte(crit), []byte(reasons))
	}
	if err != nil {
		return false, fmt.Errorf("review of revision %d by %s: %w", j.Revision, rc.out.Coders[c], err)
	}
	return true, nil
}

// joinedReviews reads the project's reviews row by row, each joined to its
// sample in the database (projectReviews), into rc, and the round-3 facts of the
// revisions with round-3 votes from stat_rev3 (migration 0008, kept by stats.go)
// or, for those it misses, from the revisions themselves.
func joinedReviews(ctx context.Context, tx *sql.Tx, dl dialect, projectID int64, rc *reviewCollector) (map[int64]round3Info, error) {
	infos, err := round3Infos(ctx, tx, dl, `stat_rev3 t `+dl.fixedJoin()+` revisions r ON r.id = t.revision_id`, `s.project_id = ?`, projectID)
	if err != nil {
		return nil, err
	}
	rows, err := projectReviews(ctx, tx, dl, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	// Scanned into once, declared outside the loop: Scan takes their addresses. The
	// criteria and reasons are read in place (agreement decodes each form once).
	var (
		j             agreement.Judgement
		verifier      int64
		round         int
		kind          string
		crit, reasons sql.RawBytes // reasons null: none
	)
	for rows.Next() {
		j = agreement.Judgement{}
		if err := rows.Scan(&j.Revision, &kind, &round, &verifier, &j.Reject, &crit, &reasons); err != nil {
			return nil, err
		}
		if _, err := addReview(rc, j, kind, round, verifier, crit, reasons); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	facts := make(map[int64]round3Info, len(infos))
	for _, in := range infos {
		facts[in.revision] = in
	}
	revs := rc.out.Round3Revisions()
	if slices.ContainsFunc(revs, func(r int64) bool { _, ok := facts[r]; return !ok }) {
		if infos, err = round3Infos(ctx, tx, dl, `revisions r`, `r.id IN (SELECT v.revision_id FROM reviews v WHERE v.round = 3
			AND NOT EXISTS (SELECT 1 FROM stat_rev3 t WHERE t.revision_id = v.revision_id)) AND s.project_id = ?`, projectID); err != nil {
			return nil, err
		}
		for _, in := range infos {
			facts[in.revision] = in
		}
	}
	return facts, nil
}

// scanAllReviews reports whether the project holds most of the database's
// samples, so that reading every review and keeping the project's in Go costs
// less than looking each review's sample up in the database (its project and
// kind, whether it is planted), which costs about twice as much per review as
// reading a review that is then left out (BenchmarkScaleAgreement: 0.46 of 0.67 s
// of SQLite's CPU at 100,000 samples, read row by row). The counts are the
// dashboard's (stat_samples, a few hundred rows; planted copies are not in them):
// counting the samples themselves took PostgreSQL 90–100 ms at 100,000.
func scanAllReviews(ctx context.Context, tx *sql.Tx, projectID int64) (bool, error) {
	if scanReviewsForTests != nil {
		return *scanReviewsForTests, nil
	}
	var mine, all int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(sum(CASE WHEN project_id = ? THEN n ELSE 0 END), 0), COALESCE(sum(n), 0) FROM stat_samples`,
		projectID).Scan(&mine, &all); err != nil {
		return false, err
	}
	return 2*mine >= all, nil
}

// projectReviews queries the project's reviews of real samples (not planted
// copies), each joined to its sample, for joinedReviews, in the order the table
// holds them (no index to walk): revision, kind, round, verifier, rejected,
// criteria, reasons (null for none).
func projectReviews(ctx context.Context, tx *sql.Tx, dl dialect, projectID int64) (*sql.Rows, error) {
	return tx.QueryContext(ctx, `SELECT rv.revision_id, s.kind, rv.round, rv.verifier_id, rv.decision = 'reject', rv.criteria, NULLIF(rv.reasons, '[]')
		FROM reviews rv `+dl.fixedJoin()+` samples s ON s.id = rv.sample_id
		WHERE s.project_id = ? AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = rv.sample_id)`, projectID)
}

// scanReviewsForTests, when set, chooses projectReviews' way whatever the
// project's share of the samples (tests run both ways on one project).
var scanReviewsForTests *bool

// drawnBoxes reads the boxes of every sample of the project whose revisions
// have two or more authors, for agreement.Boxes, which compares them. Planted
// copies are left out: a copy carries its origin's revisions and authors, and
// its planted defect may be its box, which no annotator drew. Only the
// revisions of those samples are read (found through the index
// stat_revisions_author). Two or more authors: the least and the greatest
// differ, which needs no sort of each sample's authors, as count(DISTINCT) does
// (on PostgreSQL at 100k samples 41 against 130 ms). Each box is read from its
// revision's JSON once, and a revision without one is left out here.
func drawnBoxes(ctx context.Context, tx *sql.Tx, dl dialect, projectID int64) ([]agreement.Drawn, error) {
	return queryDrawn(ctx, tx, `WITH multi AS (SELECT sample_id FROM revisions GROUP BY sample_id HAVING min(author_id) <> max(author_id))
		SELECT r.sample_id, r.author_id, u.name, `+dl.jsonField("r.content", "box")+` FROM multi m
			`+dl.fixedJoin()+` samples s ON s.id = m.sample_id JOIN revisions r ON r.sample_id = m.sample_id
			LEFT JOIN users u ON u.id = r.author_id
		WHERE s.project_id = ? AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = m.sample_id)
		ORDER BY r.sample_id, r.number`, projectID)
}

// drawnBoxesOf reads the boxes of the revisions listed (packedReviews chose
// them), as drawnBoxes does: by probing each revision's key, where drawnBoxes
// groups every revision of the database by sample (on PostgreSQL at 100k
// samples, 380-440 ms of the agreement's 1.2 s).
func drawnBoxesOf(ctx context.Context, tx *sql.Tx, dl dialect, revisions []int64) ([]agreement.Drawn, error) {
	if len(revisions) == 0 {
		return nil, nil
	}
	ids, err := json.Marshal(revisions)
	if err != nil {
		return nil, err
	}
	return queryDrawn(ctx, tx, `SELECT r.sample_id, r.author_id, u.name, `+dl.jsonField("r.content", "box")+` FROM revisions r
			LEFT JOIN users u ON u.id = r.author_id
		WHERE r.id IN (SELECT CAST(value AS BIGINT) FROM `+dl.jsonEach()+`(?))
		ORDER BY r.sample_id, r.number`, string(ids))
}

// queryDrawn runs a query of drawnBoxes' columns (sample, author, the
// author's name or null, the box or null) and keeps the rows with a box.
func queryDrawn(ctx context.Context, tx *sql.Tx, query string, arg any) ([]agreement.Drawn, error) {
	drawn, err := queryAll(ctx, tx, func(r scanner) (d agreement.Drawn, err error) {
		var name sql.NullString // null: no such user, the box is not shown
		err = r.Scan(&d.Sample, &d.Author, &name, &d.Box)
		d.Name, d.Known = name.String, name.Valid
		return d, err
	}, query, arg)
	return slices.DeleteFunc(drawn, func(d agreement.Drawn) bool { return d.Box == nil }), err
}
