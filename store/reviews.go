package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/benchwright/benchwright/verify"
)

// Policy is the verification policy these settings describe.
func (s Settings) Policy() verify.Policy {
	p := verify.DefaultPolicy()
	p.Round3Panel = s.Round3Panel
	p.Round3AllowEarlierVerifiers = s.Round3AllowEarlier
	p.CorrectionReentersRound1 = s.CorrectionToRound1
	p.ClaimTTL = time.Duration(s.ClaimMinutes) * time.Minute
	return p
}

func uid(id int64) string { return strconv.FormatInt(id, 10) }

func vuser(u User) verify.User {
	return verify.User{ID: uid(u.ID), Name: u.Name, Role: verify.Role(u.Role), Group: u.Group}
}

// ReviewInput is one verifier's decision on a sample in a round.
type ReviewInput struct {
	SampleID string
	Round    int
	BasedOn  int // the revision number the verifier looked at
	Verdict  verify.Verdict
	Comment  string
	Seconds  float64 // time spent, for the dashboards
}

// ReviewRecord is a stored review.
type ReviewRecord struct {
	ID           int64
	SampleID     string
	Revision     int
	Round        int
	VerifierID   int64
	VerifierName string
	Group        string
	Decision     verify.Decision
	Judgements   map[string]bool
	Reasons      []string
	Comment      string
	Seconds      float64
	CreatedAt    string
}

// reviewContext gathers what verify needs to judge actor's review of sample cur.
func (d *DB) reviewContext(ctx context.Context, tx *sql.Tx, cur SampleInfo, actor User, round, basedOn int) (verify.ReviewContext, verify.Policy, error) {
	var settings string
	if err := tx.QueryRowContext(ctx, `SELECT settings FROM projects WHERE id = ?`, cur.ProjectID).Scan(&settings); err != nil {
		return verify.ReviewContext{}, verify.Policy{}, err
	}
	s := DefaultSettings()
	if err := json.Unmarshal([]byte(settings), &s); err != nil {
		return verify.ReviewContext{}, verify.Policy{}, fmt.Errorf("project settings: %w", err)
	}
	c := verify.ReviewContext{
		Kind: cur.Kind, State: cur.Status, Round: round, Revision: cur.Revision, BasedOn: basedOn,
		Author: uid(cur.AuthorID), Reviewer: vuser(actor), Now: d.Now(),
	}
	if cur.RevisionID != 0 {
		var author int64
		if err := tx.QueryRowContext(ctx, `SELECT author_id FROM revisions WHERE id = ?`, cur.RevisionID).Scan(&author); err != nil {
			return c, verify.Policy{}, err
		}
		c.Author = uid(author)
	}
	// Everyone who authored or corrected any revision, and the sample's author.
	authors, err := queryAll(ctx, tx, scanInt64, `SELECT DISTINCT author_id FROM revisions WHERE sample_id = ?`, cur.ID)
	if err != nil {
		return c, verify.Policy{}, err
	}
	for _, id := range append(authors, cur.AuthorID) {
		c.Correctors = append(c.Correctors, uid(id))
	}
	revs, err := reviewsOf(ctx, tx, cur.RevisionID)
	if err != nil {
		return c, verify.Policy{}, err
	}
	for _, r := range revs {
		c.Reviews = append(c.Reviews, verify.Review{Round: r.Round, Reviewer: uid(r.VerifierID), Group: r.Group,
			Decision: r.Decision, Reasons: r.Reasons, Judgements: r.Judgements})
	}
	crows, err := tx.QueryContext(ctx, `SELECT round, verifier_id, expires_at FROM claims WHERE sample_id = ?`, cur.ID)
	if err != nil {
		return c, verify.Policy{}, err
	}
	defer crows.Close()
	for crows.Next() {
		var cl verify.Claim
		var vid int64
		var exp string
		if err := crows.Scan(&cl.Round, &vid, &exp); err != nil {
			return c, verify.Policy{}, err
		}
		cl.Sample, cl.Verifier = cur.ID, uid(vid)
		cl.Expires, _ = time.Parse(time.RFC3339Nano, exp)
		c.Claims = append(c.Claims, cl)
	}
	return c, s.Policy(), crows.Err()
}

// reviewsOf lists the reviews on one revision, oldest first; the group is the
// verifier's group now.
func reviewsOf(ctx context.Context, tx *sql.Tx, revisionID int64) ([]ReviewRecord, error) {
	rows, err := tx.QueryContext(ctx, `SELECT rv.id, rv.sample_id, r.number, rv.round, rv.verifier_id, u.name, u.grp, rv.decision,
		rv.criteria, rv.reasons, rv.comment, rv.seconds, rv.created_at
		FROM reviews rv JOIN users u ON u.id = rv.verifier_id JOIN revisions r ON r.id = rv.revision_id
		WHERE rv.revision_id = ? ORDER BY rv.id`, revisionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ReviewRecord
	for rows.Next() {
		var r ReviewRecord
		var dec, crit, reasons string
		if err := rows.Scan(&r.ID, &r.SampleID, &r.Revision, &r.Round, &r.VerifierID, &r.VerifierName, &r.Group, &dec,
			&crit, &reasons, &r.Comment, &r.Seconds, &r.CreatedAt); err != nil {
			return nil, err
		}
		r.Decision = verify.Decision(dec)
		_ = json.Unmarshal([]byte(crit), &r.Judgements)
		_ = json.Unmarshal([]byte(reasons), &r.Reasons)
		out = append(out, r)
	}
	return out, rows.Err()
}

// refusal maps a verify refusal to ErrForbidden (or ErrConflict for a stale revision,
// ErrInvalid for a malformed verdict), keeping the domain error for errors.Is.
func refusal(err error) error {
	switch {
	case errors.Is(err, verify.ErrStaleRevision):
		return fmt.Errorf("%w: %w", ErrConflict, err)
	case errors.Is(err, verify.ErrInvalidReview), errors.Is(err, verify.ErrNoReason),
		errors.Is(err, verify.ErrUnknownCriterion), errors.Is(err, verify.ErrApproveWithFailure):
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return fmt.Errorf("%w: %w", ErrForbidden, err)
}

// ClaimReview holds a seat in a sample's round for the acting verifier for the
// project's claim time, so that two verifiers never review the same slot.
func (d *DB) ClaimReview(ctx context.Context, actor User, sampleID string, round int) (verify.Claim, error) {
	var cl verify.Claim
	err := d.act(ctx, actor, "review.claim", func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "review samples", RoleVerifier, RoleLead)
		if err != nil {
			return err
		}
		cur, err := getSample(ctx, tx, sampleID)
		if err != nil {
			return err
		}
		c, p, err := d.reviewContext(ctx, tx, cur, a, round, cur.Revision)
		if err != nil {
			return err
		}
		if err := verify.CanReview(p, c); err != nil {
			return refusal(err)
		}
		cl = verify.NewClaim(p, sampleID, round, uid(a.ID), d.Now())
		_, err = tx.ExecContext(ctx, `INSERT INTO claims (sample_id, round, verifier_id, expires_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (sample_id, verifier_id) DO UPDATE SET round = excluded.round, expires_at = excluded.expires_at`,
			sampleID, round, a.ID, cl.Expires.UTC().Format(time.RFC3339Nano))
		return err
	})
	if err != nil {
		return verify.Claim{}, fmt.Errorf("claim %s round %d: %w", sampleID, round, err)
	}
	return cl, nil
}

// SubmitReview claims and records a verifier's decision in one step. verify decides
// whether the actor may (self-review, group, panel, stale revision, round) and what
// the decision does to the sample; every refusal is a store error with its reason.
func (d *DB) SubmitReview(ctx context.Context, actor User, in ReviewInput) (verify.Outcome, error) {
	var out verify.Outcome
	err := d.act(ctx, actor, "review.submit", func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "review samples", RoleVerifier, RoleLead)
		if err != nil {
			return err
		}
		cur, err := getSample(ctx, tx, in.SampleID)
		if err != nil {
			return err
		}
		c, p, err := d.reviewContext(ctx, tx, cur, a, in.Round, in.BasedOn)
		if err != nil {
			return err
		}
		out, err = verify.Record(p, c, in.Verdict)
		if err != nil {
			return refusal(err)
		}
		crit, _ := json.Marshal(out.Review.Judgements)
		reasons, _ := json.Marshal(out.Review.Reasons)
		if out.Review.Reasons == nil {
			reasons = []byte("[]")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, cur.ID, cur.RevisionID, in.Round, a.ID, string(crit), string(in.Verdict.Decision),
			string(reasons), in.Comment, in.Seconds, d.now()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ? AND verifier_id = ?`, cur.ID, a.ID); err != nil {
			return err
		}
		if err := d.audit(ctx, tx, a.ID, "review."+string(in.Verdict.Decision), "sample", cur.ID,
			fmt.Sprintf("round %d revision %d", in.Round, cur.Revision)); err != nil {
			return err
		}
		if out.State != cur.Status {
			// The round closed: the other verifiers' claims on it are void.
			if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ?`, cur.ID); err != nil {
				return err
			}
			return d.setStatus(ctx, tx, a.ID, cur.ID, cur.Version, out.State, "")
		}
		return nil
	})
	if err != nil {
		return verify.Outcome{}, fmt.Errorf("review %s round %d: %w", in.SampleID, in.Round, err)
	}
	return out, nil
}

// QueueItem is a sample a verifier may take now.
type QueueItem struct {
	SampleID string
	Round    int
	Kind     string
	Revision int
}

// ReviewQueue lists what actor may review now in the project, optionally one round
// (0 = all rounds): samples in a round whose rules let actor take a seat.
func (d *DB) ReviewQueue(ctx context.Context, actor User, projectID int64, round int) ([]QueueItem, error) {
	var out []QueueItem
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "review samples", RoleVerifier, RoleLead)
		if err != nil {
			return err
		}
		ids, err := queryAll(ctx, tx, scanString, `SELECT id FROM samples WHERE project_id = ? AND status IN ('round1','round2','round3')
			AND author_id != ? ORDER BY updated_at, id`, projectID, a.ID)
		if err != nil {
			return err
		}
		for _, id := range ids {
			cur, err := getSample(ctx, tx, id)
			if err != nil {
				return err
			}
			r := cur.Status.Round()
			if round != 0 && r != round {
				continue
			}
			c, p, err := d.reviewContext(ctx, tx, cur, a, r, cur.Revision)
			if err != nil {
				return err
			}
			if verify.CanReview(p, c) == nil {
				out = append(out, QueueItem{SampleID: id, Round: r, Kind: string(cur.Kind), Revision: cur.Revision})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("review queue: %w", err)
	}
	return out, nil
}

// Reviews lists the reviews of a sample's revisions that actor may see: round-3 votes
// on an open round are hidden from everyone but their own verifier (blind round 3).
func (d *DB) Reviews(ctx context.Context, actor User, sampleID string) ([]ReviewRecord, error) {
	var out []ReviewRecord
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "read reviews")
		if err != nil {
			return err
		}
		cur, err := getSample(ctx, tx, sampleID)
		if err != nil {
			return err
		}
		_, p, err := d.reviewContext(ctx, tx, cur, a, 0, cur.Revision)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT id, number FROM revisions WHERE sample_id = ? ORDER BY number`, sampleID)
		if err != nil {
			return err
		}
		type rev struct {
			id     int64
			number int
		}
		var revs []rev
		for rows.Next() {
			var r rev
			if err := rows.Scan(&r.id, &r.number); err != nil {
				rows.Close()
				return err
			}
			revs = append(revs, r)
		}
		rows.Close()
		for _, r := range revs {
			rs, err := reviewsOf(ctx, tx, r.id)
			if err != nil {
				return err
			}
			var vr []verify.Review
			for _, x := range rs {
				vr = append(vr, verify.Review{Round: x.Round, Decision: x.Decision, Reviewer: uid(x.VerifierID)})
			}
			blind := verify.CanSeeRound3Votes(p, vr, r.number, cur.Revision) != nil
			for _, x := range rs {
				if blind && x.Round == 3 && x.VerifierID != a.ID {
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

// Event is one line of a sample's timeline.
type Event struct {
	At     string
	Actor  string
	Action string
	Detail string
}

// History is a sample's timeline from the audit log: creation, revisions, reviews and
// transitions, oldest first. Round-3 votes of an open round are shown as "a vote was
// cast" without the decision unless actor cast it (blind round 3).
func (d *DB) History(ctx context.Context, actor User, sampleID string) ([]Event, error) {
	var out []Event
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		a := actor // a zero actor reads anonymously and sees no open round-3 vote
		if actor.ID != 0 {
			var err error
			if a, err = requireRole(ctx, tx, actor, "read history"); err != nil {
				return err
			}
		}
		cur, err := getSample(ctx, tx, sampleID)
		if err != nil {
			return err
		}
		revs, err := reviewsOf(ctx, tx, cur.RevisionID)
		if err != nil {
			return err
		}
		_, p, err := d.reviewContext(ctx, tx, cur, a, 0, cur.Revision)
		if err != nil {
			return err
		}
		var vr []verify.Review
		for _, x := range revs {
			vr = append(vr, verify.Review{Round: x.Round, Decision: x.Decision, Reviewer: uid(x.VerifierID)})
		}
		blind := verify.CanSeeRound3Votes(p, vr, cur.Revision, cur.Revision) != nil
		rows, err := tx.QueryContext(ctx, `SELECT l.at, COALESCE(u.name, ''), l.actor_id, l.action, l.detail FROM audit_log l
			LEFT JOIN users u ON u.id = l.actor_id WHERE l.entity = 'sample' AND l.entity_id = ? ORDER BY l.id`, sampleID)
		if err != nil {
			return err
		}
		defer rows.Close()
		round3 := fmt.Sprintf("round 3 revision %d", cur.Revision)
		for rows.Next() {
			var e Event
			var actorID sql.NullInt64
			if err := rows.Scan(&e.At, &e.Actor, &actorID, &e.Action, &e.Detail); err != nil {
				return err
			}
			if blind && e.Detail == round3 && actorID.Int64 != a.ID &&
				(e.Action == "review.approve" || e.Action == "review.reject") {
				e.Action, e.Actor = "review.vote", "(hidden until round 3 closes)"
			}
			out = append(out, e)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", sampleID, err)
	}
	return out, nil
}
