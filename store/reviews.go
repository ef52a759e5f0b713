package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

func uid(id int64) string { return strconv.FormatInt(id, 10) }

func vuser(u bench.User) verify.User {
	return verify.User{ID: uid(u.ID), Name: u.Name, Role: verify.Role(u.Role), Group: u.Group}
}

// reviewContext gathers what verify needs to judge actor's review of sample cur.
func (d *DB) reviewContext(ctx context.Context, tx *sql.Tx, cur bench.SampleInfo, actor bench.User, round, basedOn int) (verify.ReviewContext, verify.Policy, error) {
	c, p, _, err := d.reviewFacts(ctx, tx, cur, actor, round, basedOn)
	return c, p, err
}

// reviewFacts is what a review's write reads besides its review context: the
// actor's pause in the project (planted.go) and sample cur's planted row, read
// in reviewFacts' one batch.
type reviewFacts struct {
	paused      bool
	pauseReason string
	planted     plantedRow
	isPlanted   bool
	project     bench.Project
	// current is the current revision's summaries (statsReviewAdded).
	current revSummary
}

// reviewFacts is reviewContext with the review's other facts (reviewFacts).
func (d *DB) reviewFacts(ctx context.Context, tx *sql.Tx, cur bench.SampleInfo, actor bench.User, round, basedOn int) (verify.ReviewContext, verify.Policy, reviewFacts, error) {
	var f reviewFacts
	c := verify.ReviewContext{
		Kind: cur.Kind, State: cur.Status, Round: round, Revision: cur.Revision, BasedOn: basedOn,
		Author: uid(cur.AuthorID), Reviewer: vuser(actor), Now: d.Now(),
	}
	// The project's settings; everyone who authored or corrected any revision
	// (and the sample's author), with the current revision's author; the current
	// revision's reviews; the sample's claims; the actor's pause; the sample's
	// planted row: one batch of reads.
	var authors []int64
	var revs []bench.ReviewRecord
	found, current := false, false
	reads := []read{
		read{`SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, []any{cur.ProjectID}, func(r scanner) (err error) {
			f.project, err = scanProject(r)
			found = true
			return err
		}},
		read{`SELECT author_id, max(CASE WHEN id = ? THEN 1 ELSE 0 END) FROM revisions WHERE sample_id = ? GROUP BY author_id`,
			[]any{cur.RevisionID, cur.ID}, func(r scanner) error {
				var id int64
				var wrote int
				if err := r.Scan(&id, &wrote); err != nil {
					return err
				}
				authors = append(authors, id)
				if wrote == 1 {
					c.Author, current = uid(id), true
				}
				return nil
			}},
		read{reviewsSQL + `WHERE rv.revision_id = ? ORDER BY rv.id`, []any{cur.RevisionID}, func(r scanner) error {
			rv, err := scanReview(r)
			revs = append(revs, rv)
			return err
		}},
		read{claimsSQL, []any{cur.ID}, func(r scanner) error {
			cl, err := scanClaim(cur.ID)(r)
			c.Claims = append(c.Claims, cl)
			return err
		}},
		read{plantPausedSQL, []any{cur.ProjectID, actor.ID}, func(r scanner) error {
			f.paused = true
			return r.Scan(&f.pauseReason)
		}},
		read{plantedSQL, []any{cur.ID}, func(r scanner) (err error) {
			f.planted, err = scanPlanted(r)
			f.isPlanted = err == nil
			return err
		}},
	}
	// The summaries a review of the current revision counts in (statsReviewAdded).
	err := d.dialect().readAll(ctx, tx, append(reads, revSummaryReads(cur.RevisionID, &f.current)...)...)
	if err != nil {
		return c, verify.Policy{}, f, err
	}
	if !found {
		return c, verify.Policy{}, f, fmt.Errorf("project %d: %w", cur.ProjectID, bench.ErrNotFound)
	}
	p := f.project.Settings.Policy()
	if cur.RevisionID != 0 && !current {
		return c, verify.Policy{}, f, fmt.Errorf("revision %d of %s: %w", cur.RevisionID, cur.ID, sql.ErrNoRows)
	}
	for _, id := range append(authors, cur.AuthorID) {
		c.Correctors = append(c.Correctors, uid(id))
	}
	c.Reviews = domainReviews(revs)
	if round == 3 && basedOn > 0 && basedOn < cur.Revision {
		// A late round-3 vote on an earlier revision (verify.CanVoteLate) reads its reviews.
		id, err := revisionID(ctx, tx, cur.ID, basedOn)
		if err != nil {
			return c, verify.Policy{}, f, err
		}
		if revs, err = reviewsOf(ctx, tx, id); err != nil {
			return c, verify.Policy{}, f, err
		}
		c.BasedOnReviews = domainReviews(revs)
	}
	// A planted copy's seat is its own verifier's (planted.go).
	c.Claims = append(c.Claims, plantedSeat(f.planted, f.isPlanted, cur, actor, c.Now, p.Round3Panel)...)
	return c, p, f, nil
}

// domainReviews are stored reviews as verify sees them.
func domainReviews(rs []bench.ReviewRecord) []verify.Review {
	var out []verify.Review
	for _, r := range rs {
		out = append(out, verify.Review{Round: r.Round, Reviewer: uid(r.VerifierID), Group: r.Group,
			Decision: r.Decision, Reasons: r.Reasons, Judgements: r.Judgements})
	}
	return out
}

// revisionID is the id of revision number of a sample.
func revisionID(ctx context.Context, tx *sql.Tx, sampleID string, number int) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM revisions WHERE sample_id = ? AND number = ?`, sampleID, number).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("revision %d of %s: %w", number, sampleID, bench.ErrNotFound)
	}
	return id, err
}

// claimsOf lists the claims on a sample, expired ones included.
func claimsOf(ctx context.Context, tx *sql.Tx, sampleID string) ([]verify.Claim, error) {
	return queryAll(ctx, tx, scanClaim(sampleID), claimsSQL, sampleID)
}

// claimsSQL is claimsOf's query.
const claimsSQL = `SELECT round, verifier_id, expires_at FROM claims WHERE sample_id = ? ORDER BY verifier_id`

// scanClaim scans a row of claimsSQL on sampleID.
func scanClaim(sampleID string) func(scanner) (verify.Claim, error) {
	return func(r scanner) (verify.Claim, error) {
		var cl verify.Claim
		var vid int64
		var exp string
		err := r.Scan(&cl.Round, &vid, &exp)
		cl.Sample, cl.Verifier = sampleID, uid(vid)
		cl.Expires, _ = time.Parse(time.RFC3339Nano, exp)
		return cl, err
	}
}

// scanSampleClaim scans a claim read with its sample: sample_id, round,
// verifier_id, expires_at.
func scanSampleClaim(r scanner) (verify.Claim, error) {
	var cl verify.Claim
	var vid int64
	var exp string
	err := r.Scan(&cl.Sample, &cl.Round, &vid, &exp)
	cl.Verifier = uid(vid)
	cl.Expires, _ = time.Parse(time.RFC3339Nano, exp)
	return cl, err
}

// reviewsOf lists the reviews on one revision, oldest first; the group is the
// verifier's group in the sample's project now ("" once they left it).
func reviewsOf(ctx context.Context, tx *sql.Tx, revisionID int64) ([]bench.ReviewRecord, error) {
	return queryReviews(ctx, tx, `WHERE rv.revision_id = ? ORDER BY rv.id`, revisionID)
}

// queryReviews reads reviews with their verifier and revision number; where is the
// rest of the query after the joins (rv is reviews, r revisions, u users).
func queryReviews(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]bench.ReviewRecord, error) {
	return queryAll(ctx, tx, scanReview, reviewsSQL+where, args...)
}

// reviewsSQL is queryReviews' query up to its where.
const reviewsSQL = `SELECT rv.id, rv.sample_id, r.number, rv.round, rv.verifier_id, u.name, COALESCE(gm.grp, ''), rv.decision,
		rv.criteria, rv.reasons, rv.comment, rv.seconds, rv.created_at
		FROM reviews rv JOIN users u ON u.id = rv.verifier_id JOIN revisions r ON r.id = rv.revision_id
		JOIN samples gs ON gs.id = r.sample_id LEFT JOIN project_members gm ON gm.project_id = gs.project_id AND gm.user_id = rv.verifier_id `

// scanReview scans a row of reviewsSQL.
func scanReview(rows scanner) (bench.ReviewRecord, error) {
	var r bench.ReviewRecord
	var dec, crit, reasons string
	if err := rows.Scan(&r.ID, &r.SampleID, &r.Revision, &r.Round, &r.VerifierID, &r.VerifierName, &r.Group, &dec,
		&crit, &reasons, &r.Comment, &r.Seconds, &r.CreatedAt); err != nil {
		return bench.ReviewRecord{}, err
	}
	r.Decision = verify.Decision(dec)
	_ = json.Unmarshal([]byte(crit), &r.Judgements)
	_ = json.Unmarshal([]byte(reasons), &r.Reasons)
	return r, nil
}

// refusal maps a verify refusal to ErrForbidden (or ErrConflict for a stale revision,
// ErrInvalid for a malformed verdict), keeping the domain error for errors.Is.
func refusal(err error) error {
	switch {
	case errors.Is(err, verify.ErrStaleRevision):
		return fmt.Errorf("%w: %w", bench.ErrConflict, err)
	case errors.Is(err, verify.ErrInvalidReview), errors.Is(err, verify.ErrNoReason),
		errors.Is(err, verify.ErrUnknownCriterion), errors.Is(err, verify.ErrApproveWithFailure):
		return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
}

// ClaimReview holds a seat in a sample's round for the acting verifier for the
// project's claim time, so that two verifiers never review the same slot.
func (d *DB) ClaimReview(ctx context.Context, actor bench.User, sampleID string, round int) (verify.Claim, error) {
	var cl verify.Claim
	err := d.act(lockSample(ctx, sampleID), actor, "review.claim", func(tx *sql.Tx) error {
		a, cur, err := sampleForAction(ctx, tx, actor, sampleID, verify.ActionReview)
		if err != nil {
			return err
		}
		c, p, f, err := d.reviewFacts(ctx, tx, cur, a, round, cur.Revision)
		if err != nil {
			return err
		}
		if f.paused {
			return errPaused(f.pauseReason)
		}
		if err := verify.CanReview(p, c); err != nil {
			return refusal(err)
		}
		cl = verify.NewClaim(p, sampleID, round, uid(a.ID), d.Now())
		if err := execLater(ctx, tx, `INSERT INTO claims (sample_id, round, verifier_id, expires_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (sample_id, verifier_id) DO UPDATE SET round = excluded.round, expires_at = excluded.expires_at`,
			sampleID, round, a.ID, cl.Expires.UTC().Format(time.RFC3339Nano)); err != nil {
			return err
		}
		// A claim replacing one on an earlier round 3 may end a late voter's seat
		// (its reads take the claim along, execLater).
		return d.statsRound3(ctx, tx, sampleID)
	})
	if err != nil {
		return verify.Claim{}, fmt.Errorf("claim %s round %d: %w", sampleID, round, err)
	}
	return cl, nil
}

// ReleaseClaim gives up actor's seat on a sample without a decision (a skipped
// sample), so that it returns to the other verifiers' queues at once instead of when
// the claim expires. Releasing a seat one does not hold is not an error.
func (d *DB) ReleaseClaim(ctx context.Context, actor bench.User, sampleID string) error {
	err := d.act(lockSample(ctx, sampleID), actor, "review.release", func(tx *sql.Tx) error {
		a, err := requireSampleAction(ctx, tx, actor, sampleID, verify.ActionReview)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ? AND verifier_id = ?`, sampleID, a.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			if err := d.audit(ctx, tx, a.ID, "review.release", "sample", sampleID, ""); err != nil {
				return err
			}
			// A late voter giving up their seat may settle a round 3.
			return d.statsRound3(ctx, tx, sampleID)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("release claim on %s: %w", sampleID, err)
	}
	return nil
}

// SubmitReview claims and records a verifier's decision in one step. verify decides
// whether the actor may (self-review, group, panel, stale revision, round) and what
// the decision does to the sample; every refusal is a store error with its reason.
//
// Late votes: a reject in round 3 returns the sample at once, but the other panel
// members' round-3 claims stay. Each of them may still submit their round-3 vote on
// that revision while their claim is active (verify.CanVoteLate), also after the
// author resubmitted, until the new revision is first reviewed (which drops every
// claim). A late vote is stored on the revision voted on (Outcome.Revision) and
// audited as "review.late"; it changes no state (Outcome.Result is
// verify.ResultLate) and counts only for agreement. Any other vote on a closed round
// is refused as before.
func (d *DB) SubmitReview(ctx context.Context, actor bench.User, in bench.ReviewInput) (verify.Outcome, error) {
	var out verify.Outcome
	err := d.act(lockSample(ctx, in.SampleID), actor, "review.submit", func(tx *sql.Tx) error {
		a, cur, err := sampleForAction(ctx, tx, actor, in.SampleID, verify.ActionReview)
		if err != nil {
			return err
		}
		c, p, f, err := d.reviewFacts(ctx, tx, cur, a, in.Round, in.BasedOn)
		if err != nil {
			return err
		}
		if f.paused {
			return errPaused(f.pauseReason)
		}
		planted, isPlanted := f.planted, f.isPlanted
		out, err = verify.Record(p, c, in.Verdict)
		if err != nil {
			return refusal(err)
		}
		crit, _ := json.Marshal(out.Review.Judgements)
		reasons, _ := json.Marshal(out.Review.Reasons)
		if out.Review.Reasons == nil {
			reasons = []byte("[]")
		}
		revID := cur.RevisionID
		if out.Revision != cur.Revision { // a late vote on the revision before
			if revID, err = revisionID(ctx, tx, cur.ID, out.Revision); err != nil {
				return err
			}
		}
		var reviewID int64
		err = tx.QueryRowContext(ctx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, cur.ID, revID, in.Round, a.ID, string(crit), string(in.Verdict.Decision),
			string(reasons), out.Review.Comment, in.Seconds, d.now()).Scan(&reviewID)
		if err != nil {
			return err
		}
		if isPlanted { // stored like any review, counted nowhere (planted.go)
			if err := d.audit(ctx, tx, a.ID, "review."+string(in.Verdict.Decision), "sample", cur.ID, voteDetail(in.Round, out.Revision)); err != nil {
				return err
			}
			out.Feedback, err = d.plantedReviewed(ctx, tx, a, cur, planted, reviewID, out)
			return err
		}
		known := &f.current // read with the review's facts, under the sample's lock
		if revID != cur.RevisionID {
			known = nil
		}
		if err := statsReviewAdded(ctx, tx, revID, statsReview{id: reviewID, verifier: a.ID, round: in.Round,
			decision: string(in.Verdict.Decision), seconds: in.Seconds}, out.Review.Reasons, known); err != nil {
			return err
		}
		if out.Result != verify.ResultLate {
			// Planting (planted.go): after a real review, maybe a copy for this verifier.
			if err := d.maybePlant(ctx, tx, a, f.project, in.Round, reviewID); err != nil {
				return err
			}
		}
		if err := execLater(ctx, tx, `DELETE FROM claims WHERE sample_id = ? AND verifier_id = ?`, cur.ID, a.ID); err != nil {
			return err
		}
		action, detail := "review."+string(in.Verdict.Decision), voteDetail(in.Round, out.Revision)
		if out.Result == verify.ResultLate {
			action, detail = lateVoteAction, detail+": "+string(in.Verdict.Decision)
		}
		if err := d.auditVote(ctx, tx, a.ID, action, cur.ID, detail, in.Round, out.Revision); err != nil {
			return err
		}
		if out.State != cur.Status {
			// The round closed: the other verifiers' claims on it are void, except the
			// round-3 seats a reject leaves open for late votes.
			drop := `DELETE FROM claims WHERE sample_id = ?`
			if out.Result == verify.ResultReturned && in.Round == 3 {
				drop += ` AND round != 3`
			}
			if err := execLater(ctx, tx, drop, cur.ID); err != nil {
				return err
			}
			_, err := d.setStatusOf(ctx, tx, a.ID, cur, out.State, "") // decides the round 3s again
			return err
		}
		// The vote, and the voter's claim gone, may settle a round 3 (stats.go).
		return d.statsRound3(ctx, tx, cur.ID)
	})
	if err != nil {
		return verify.Outcome{}, fmt.Errorf("review %s round %d: %w", in.SampleID, in.Round, err)
	}
	return out, nil
}

// lateVoteAction is the audit action of a late round-3 vote; its detail is
// voteDetail's followed by ": approve" or ": reject".
const lateVoteAction = "review.late"

// voteDetail is the audit detail of a review, for people: "round 3 revision 2".
// Nothing reads it back: the audit row carries the round and revision as values
// (auditVote).
func voteDetail(round, revision int) string {
	return fmt.Sprintf("round %d revision %d", round, revision)
}

// ReviewQueue lists everything actor may review now in the project, optionally one
// round (0 = all rounds), oldest change first. See ReviewQueueLimit.
func (d *DB) ReviewQueue(ctx context.Context, actor bench.User, projectID int64, round int) ([]bench.QueueItem, error) {
	return d.ReviewQueueLimit(ctx, actor, projectID, round, 0)
}

// ReviewQueueLimit lists at most limit (0 = no limit) samples that actor may review
// now in the project, optionally in one round (0 = all rounds), oldest change first.
//
// The candidates are chosen in SQL, so that the queue stays fast on large projects: a
// sample in the round, not written by actor, no revision of it authored or corrected by
// actor, not yet reviewed by actor on its current revision (in any round unless the
// project lets round-1/2 verifiers sit on round 3), with a seat free after the reviews
// recorded and other verifiers' unexpired claims in that round (actor's own claim keeps
// the sample in actor's queue), and in round 2 a round-1 verifier from another group.
// verify.CanReview then judges each returned row, so verify stays the authority.
func (d *DB) ReviewQueueLimit(ctx context.Context, actor bench.User, projectID int64, round, limit int) ([]bench.QueueItem, error) {
	var out []bench.QueueItem
	err := d.readAs(ctx, actor, "review.queue", func(tx *sql.Tx) error {
		// The actor's account and membership (requireProjectAction's read), whether
		// the lead's rule paused their claims, and the project's policy: one round
		// trip on PostgreSQL, with the transaction's BEGIN. The candidates go in it
		// too, read as the actor's last queue of the project read them (its policy
		// and the actor's group: queueShape); they are read again after when that
		// changed, and count only once the actor may review.
		now := d.Now() // one instant for the SQL and for verify
		var who actorRow
		paused, why := false, ""
		found, project := false, bench.Project{}
		reads := []read{
			{plantPausedSQL, []any{projectID, actor.ID}, func(r scanner) error {
				paused = true
				return r.Scan(&why)
			}},
			{`SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, []any{projectID}, func(r scanner) (err error) {
				found = true
				project, err = scanProject(r)
				return err
			}}}
		if !actor.IsOwner() {
			reads = append(reads, who.read(actor, projectID))
		}
		shapeKey := [2]int64{projectID, actor.ID}
		var cands []queueCandidate
		guess, guessed := d.queueShapes.Load(shapeKey)
		if guessed {
			reads = append(reads, guess.(queueShape).candidates(actor.ID, projectID, round, limit, now, &cands))
		}
		if err := d.dialect().readAll(ctx, tx, reads...); err != nil {
			return err
		}
		var a bench.User
		var err error
		if actor.IsOwner() {
			a, err = requireProjectAction(ctx, tx, actor, projectID, verify.ActionReview)
		} else {
			a, err = who.require(verify.ActionReview, fmt.Sprintf("project %d", projectID))
		}
		if err != nil {
			return err
		}
		if round < 0 || round > 3 {
			return fmt.Errorf("%w: there is no round %d", bench.ErrInvalid, round)
		}
		if paused {
			return errPaused(why)
		}
		if !found {
			return fmt.Errorf("project %d: %w", projectID, bench.ErrNotFound)
		}
		p := project.Settings.Policy()
		shape := newQueueShape(p, a)
		if !guessed || guess.(queueShape) != shape {
			cands = nil
			if err := d.dialect().readAll(ctx, tx, shape.candidates(a.ID, projectID, round, limit, now, &cands)); err != nil {
				return err
			}
			d.queueShapes.Store(shapeKey, shape)
		}
		facts, err := loadQueueFacts(ctx, tx, d.dialect(), projectID, cands)
		if err != nil {
			return err
		}
		for _, c := range cands {
			rc := verify.ReviewContext{
				Kind: annotate.Kind(c.kind), State: c.state, Round: c.state.Round(), Revision: c.revision, BasedOn: c.revision,
				Author: uid(c.revAuthor), Correctors: facts.correctors[c.id], Reviewer: vuser(a),
				Reviews: facts.reviews[c.revisionID], Claims: facts.claims[c.id], Now: now,
			}
			if verify.CanReview(p, rc) == nil {
				out = append(out, bench.QueueItem{SampleID: c.id, Round: rc.Round, Kind: c.kind, Revision: c.revision})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("review queue: %w", err)
	}
	return out, nil
}

// queueCandidate is a sample the queue's SQL let through.
type queueCandidate struct {
	id, kind   string
	state      verify.State
	revision   int
	revisionID int64
	revAuthor  int64
	author     int64
}

// queueSQL selects the samples of a project that a verifier may review; the named
// parameters are bound by queueCandidates. The round of each sample is its state's.
// {{earlier}} and {{group}} are replaced by policy-dependent conditions. The literal
// status list lets SQLite walk the partial index samples_queue (0003_queue.sql) in
// queue order, so that a page stops after its limit instead of sorting every candidate.
// The revision's number and author are read per candidate (scalar subqueries, not a
// join), so that PostgreSQL's planner, too, walks the samples in order and stops,
// instead of hashing every revision of the database (0.7 s at 100k samples).
// A verifier reviews a round of a revision once (UNIQUE (revision_id, round,
// verifier_id)), so counting a round's reviews counts its verifiers. A round 3
// whose votes already fill a panel the lead has since shrunk has one deciding
// seat (verify's checkSeat). This SQL only narrows the candidates; verify.CanReview
// decides each one.
const queueSQL = `
WITH cand AS (
	SELECT s.id, s.kind, s.status, s.author_id, s.updated_at, s.current_rev AS rev_id,
		(SELECT r.number FROM revisions r WHERE r.id = s.current_rev) AS number,
		(SELECT r.author_id FROM revisions r WHERE r.id = s.current_rev) AS rev_author,
		CASE s.status WHEN 'round1' THEN 1 WHEN 'round2' THEN 2 ELSE 3 END AS rnd
	FROM samples s
	WHERE s.project_id = :project AND s.status IN ('round1', 'round2', 'round3') AND (:round = 0 OR s.status = :state)
		AND s.author_id != :actor AND s.current_rev IS NOT NULL
)
SELECT c.id, c.kind, c.status, c.number, c.rev_id, c.rev_author, c.author_id FROM cand c
WHERE NOT EXISTS (SELECT 1 FROM revisions r2 WHERE r2.sample_id = c.id AND r2.author_id = :actor)
	AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.revision_id = c.rev_id AND v.verifier_id = :actor {{earlier}})
	AND (SELECT count(*) FROM reviews v WHERE v.revision_id = c.rev_id AND v.round = c.rnd)
		+ (SELECT count(*) FROM claims cl WHERE cl.sample_id = c.id AND cl.round = c.rnd AND cl.verifier_id != :actor
			AND julianday(cl.expires_at) > julianday(:now)
			AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.revision_id = c.rev_id AND v.round = c.rnd AND v.verifier_id = cl.verifier_id))
		< CASE c.rnd WHEN 3 THEN max(:panel, (SELECT count(*) FROM reviews v WHERE v.revision_id = c.rev_id AND v.round = 3) + 1) ELSE 1 END
	{{group}}
	AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = c.id AND (pl.verifier_id != :actor OR pl.review_id IS NOT NULL))
ORDER BY c.updated_at, c.id`

// queueShape is what queueSQL is read under besides the verifier and the page: the
// project's policy's rules it applies and the verifier's group.
type queueShape struct {
	earlier, differentGroup bool
	panel                   int
	group                   string
}

func newQueueShape(p verify.Policy, a bench.User) queueShape {
	return queueShape{earlier: p.Round3AllowEarlierVerifiers, differentGroup: p.Round2DifferentGroup, panel: p.Round3Panel, group: a.Group}
}

// candidates is the read of queueSQL for verifier actor under shape q, appending
// to out; now is the time its claims expire against.
func (q queueShape) candidates(actor, projectID int64, round, limit int, now time.Time, out *[]queueCandidate) read {
	state := fmt.Sprintf("round%d", round)
	earlier := "" // a verifier of any round of the revision is out of every later round
	if q.earlier {
		earlier = "AND (v.round = c.rnd OR c.rnd = 2)"
	}
	group := ""
	if q.differentGroup {
		// checkGroup: a round-1 verifier (there is one at most) in no group or in
		// actor's group (verify.SameGroup ignores case; names are stored trimmed),
		// or actor in no group, keeps a round-2 sample out.
		// (c.rnd = 2 inside NOT EXISTS rather than "c.rnd != 2 OR NOT EXISTS": the
		// same condition, which PostgreSQL checks per candidate instead of hashing
		// every round-1 review of the database first.)
		// Groups are the project's memberships' (a round-1 verifier who left the
		// project has none).
		group = `AND NOT EXISTS (SELECT 1 FROM reviews v LEFT JOIN project_members u ON u.user_id = v.verifier_id AND u.project_id = :project
			WHERE v.revision_id = c.rev_id AND v.round = 1 AND c.rnd = 2 AND (COALESCE(u.grp, '') = '' OR lower(u.grp) = lower(:grp) OR :grp = ''))`
	}
	sqlText := strings.NewReplacer("{{earlier}}", earlier, "{{group}}", group).Replace(queueSQL)
	if limit > 0 {
		sqlText += ` LIMIT :limit`
	}
	return read{sqlText, []any{sql.Named("project", projectID), sql.Named("round", round), sql.Named("state", state), sql.Named("actor", actor),
		sql.Named("now", now.UTC().Format(time.RFC3339Nano)), sql.Named("panel", q.panel), sql.Named("grp", q.group), sql.Named("limit", limit)},
		func(r scanner) error {
			var c queueCandidate
			var status string
			err := r.Scan(&c.id, &c.kind, &status, &c.revision, &c.revisionID, &c.revAuthor, &c.author)
			c.state = verify.State(status)
			*out = append(*out, c)
			return err
		}}
}

// queueFacts is what verify.CanReview needs about the queue's candidates, loaded in
// three queries rather than three per candidate.
type queueFacts struct {
	correctors map[string][]string       // sample id → its author and every revision's author
	reviews    map[int64][]verify.Review // revision id → its reviews
	claims     map[string][]verify.Claim // sample id → its claims
}

func loadQueueFacts(ctx context.Context, tx *sql.Tx, dl dialect, projectID int64, cands []queueCandidate) (queueFacts, error) {
	f := queueFacts{correctors: map[string][]string{}, reviews: map[int64][]verify.Review{}, claims: map[string][]verify.Claim{}}
	if len(cands) == 0 {
		return f, nil
	}
	ids := make([]string, len(cands))
	revs := make([]int64, len(cands))
	for i, c := range cands {
		ids[i], revs[i] = c.id, c.revisionID
		f.correctors[c.id] = []string{uid(c.author)}
	}
	jsIDs, _ := json.Marshal(ids)
	jsRevs, _ := json.Marshal(revs)
	// The three reads depend on the candidates only: on PostgreSQL one round trip,
	// with the COMMIT of the queue's read transaction (its last reads).
	err := dl.readAllEnd(ctx, tx,
		read{`SELECT DISTINCT sample_id, author_id FROM revisions WHERE sample_id IN (SELECT value FROM ` + dl.jsonEach() + `(?))`,
			[]any{string(jsIDs)}, func(r scanner) error {
				var id string
				var author int64
				if err := r.Scan(&id, &author); err != nil {
					return err
				}
				f.correctors[id] = append(f.correctors[id], uid(author))
				return nil
			}},
		read{`SELECT v.revision_id, v.round, v.verifier_id, COALESCE(u.grp, ''), v.decision FROM reviews v
		LEFT JOIN project_members u ON u.user_id = v.verifier_id AND u.project_id = ?
		WHERE v.revision_id IN (SELECT CAST(value AS BIGINT) FROM ` + dl.jsonEach() + `(?)) ORDER BY v.id`,
			[]any{projectID, string(jsRevs)}, func(r scanner) error {
				var rev, verifier int64
				var rv verify.Review
				var dec string
				if err := r.Scan(&rev, &rv.Round, &verifier, &rv.Group, &dec); err != nil {
					return err
				}
				rv.Reviewer, rv.Decision = uid(verifier), verify.Decision(dec)
				f.reviews[rev] = append(f.reviews[rev], rv)
				return nil
			}},
		read{`SELECT sample_id, round, verifier_id, expires_at FROM claims WHERE sample_id IN (SELECT value FROM ` + dl.jsonEach() + `(?))`,
			[]any{string(jsIDs)}, func(r scanner) error {
				cl, err := scanSampleClaim(r)
				f.claims[cl.Sample] = append(f.claims[cl.Sample], cl)
				return err
			}})
	return f, err
}

// closeRows closes rows and returns the error that ended their iteration, if any.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// AuditCounts counts the audit log's rows per action, across all projects. It is for
// audits and tests: an overview of what happened, not a report of who did it.
func (d *DB) AuditCounts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	err := d.readTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT action, count(*) FROM audit_log GROUP BY action`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var action string
			var n int
			if err := rows.Scan(&action, &n); err != nil {
				rows.Close()
				return err
			}
			out[action] = n
		}
		return closeRows(rows)
	})
	if err != nil {
		return nil, fmt.Errorf("audit counts: %w", err)
	}
	return out, nil
}

// Reviews lists the reviews of a sample's revisions that actor may see: the round-3
// votes verify.Round3.ViewFor shows actor (blind round 3: on an open round only
// their own verifier's, and to a panel member who may still vote late on a round
// closed by a reject only their own). A review carries its decision and verifier,
// so a vote ViewFor would mask is left out here.
func (d *DB) Reviews(ctx context.Context, actor bench.User, sampleID string) ([]bench.ReviewRecord, error) {
	var out []bench.ReviewRecord
	err := d.readAs(ctx, actor, "review.read", func(tx *sql.Tx) error {
		a, err := requireSampleAction(ctx, tx, actor, sampleID, verify.ActionReadSamples)
		if err != nil {
			return err
		}
		cur, err := getSample(ctx, tx, sampleID)
		if err != nil {
			return err
		}
		p, err := projectPolicy(ctx, tx, cur.ProjectID)
		if err != nil {
			return err
		}
		revs, err := sampleReviews(ctx, tx, cur, d.Now())
		if err != nil {
			return err
		}
		for _, r := range revs {
			view := r.round3.ViewFor(p, vuser(a))
			for _, x := range r.reviews {
				if x.Round == 3 && view.Vote(uid(x.VerifierID)) != verify.VoteShown {
					continue
				}
				out = append(out, x)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reviews of %s: %w", sampleID, err)
	}
	return out, nil
}

// revisionReviews is one revision of a sample with its reviews and its round 3.
type revisionReviews struct {
	number  int
	reviews []bench.ReviewRecord
	round3  verify.Round3
}

// sampleReviews loads every revision of cur with its reviews, oldest first, and the
// round 3 of each at now, for verify's blindness and late-vote rules.
func sampleReviews(ctx context.Context, tx *sql.Tx, cur bench.SampleInfo, now time.Time) ([]revisionReviews, error) {
	type rev struct {
		id     int64
		number int
	}
	revs, err := queryAll(ctx, tx, func(r scanner) (rev, error) {
		var x rev
		return x, r.Scan(&x.id, &x.number)
	}, `SELECT id, number FROM revisions WHERE sample_id = ? ORDER BY number`, cur.ID)
	if err != nil {
		return nil, err
	}
	claims, err := claimsOf(ctx, tx, cur.ID)
	if err != nil {
		return nil, err
	}
	out := make([]revisionReviews, len(revs))
	currentReviewed := false
	for i, r := range revs {
		if out[i].reviews, err = reviewsOf(ctx, tx, r.id); err != nil {
			return nil, err
		}
		out[i].number = r.number
		if r.number == cur.Revision {
			currentReviewed = len(out[i].reviews) > 0
		}
	}
	for i := range out {
		out[i].round3 = verify.Round3{Revision: out[i].number, Current: cur.Revision, Reviews: domainReviews(out[i].reviews),
			CurrentReviewed: currentReviewed, Claims: claims, Now: now}
	}
	return out, nil
}

// History is a sample's timeline from the audit log: creation, revisions, reviews and
// transitions, oldest first, for a signed-in user. What actor sees of each round-3
// vote is verify.Round3.ViewFor's: shown; masked as "review.vote" with neither the
// decision nor the verifier (while the round is open, to a lead, who may count open
// votes; to a panel member who may still vote late); or not at all (while the round
// is open, to everyone else, since each vote of an open round is one more
// approval). To a late voter the actor of the transition that closed round 3 is
// hidden too, since it names the rejecter; the new state itself stays visible, as it
// does everywhere. A row is a vote by its vote_round and vote_revision (auditVote),
// never by its words.
func (d *DB) History(ctx context.Context, actor bench.User, sampleID string) ([]bench.Event, error) {
	var out []bench.Event
	err := d.readAs(ctx, actor, "sample.history", func(tx *sql.Tx) error {
		a, err := requireSampleAction(ctx, tx, actor, sampleID, verify.ActionReadSamples)
		if err != nil {
			return err
		}
		cur, err := getSample(ctx, tx, sampleID)
		if err != nil {
			return err
		}
		p, err := projectPolicy(ctx, tx, cur.ProjectID)
		if err != nil {
			return err
		}
		revs, err := sampleReviews(ctx, tx, cur, d.Now())
		if err != nil {
			return err
		}
		views := map[int]verify.Round3View{} // revision number → what actor sees of its round 3
		hideCloser := false                  // actor may still vote late on a closed round 3
		for _, r := range revs {
			v := r.round3.ViewFor(p, vuser(a))
			views[r.number] = v
			hideCloser = hideCloser || v.HideCloser
		}
		rows, err := tx.QueryContext(ctx, `SELECT l.at, COALESCE(u.name, ''), l.actor_id, l.action, l.detail, l.client, l.vote_round, l.vote_revision
			FROM audit_log l LEFT JOIN users u ON u.id = l.actor_id WHERE l.entity = 'sample' AND l.entity_id = ? ORDER BY l.id`, sampleID)
		if err != nil {
			return err
		}
		defer rows.Close()
		closing, closer := -1, int64(0) // the last transition out of round 3 by a reject, and its actor
		for rows.Next() {
			var e bench.Event
			var actorID, round, revision sql.NullInt64
			if err := rows.Scan(&e.At, &e.Actor, &actorID, &e.Action, &e.Detail, &e.Client, &round, &revision); err != nil {
				return err
			}
			if round.Valid && round.Int64 == 3 {
				view, ok := views[int(revision.Int64)]
				if !ok { // revisions are never removed; were one, its votes stay blind
					view = verify.Round3View{Others: verify.VoteHidden}
				}
				switch view.Vote(uid(actorID.Int64)) {
				case verify.VoteHidden:
					continue
				case verify.VoteMasked:
					e.Action, e.Actor, e.Detail = "review.vote", view.Mask, voteDetail(3, int(revision.Int64))
					e.Client = "" // the address would name the hidden voter
				}
			}
			if e.Action == "sample.status" && e.Detail == (bench.StatusChange{From: verify.StateRound3, To: verify.StateReturned}).String() {
				closing, closer = len(out), actorID.Int64
			}
			out = append(out, e)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if hideCloser && closing >= 0 && closer != a.ID {
			out[closing].Actor, out[closing].Client = verify.MaskLate, ""
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", sampleID, err)
	}
	return out, nil
}
