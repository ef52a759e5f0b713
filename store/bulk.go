package store

// Bulk writes: the door through which a test-data generator (package synth) puts
// hundreds of thousands of rows into a project quickly. It takes finished values —
// accounts, and samples with their revisions, reviews, final state and times — and
// writes them in large batched transactions with one summary audit row per batch
// instead of one per event. It decides nothing about the protocol: the caller builds
// the histories with verify's functions, and the store only checks that the caller is
// a lead who may generate (verify.ActionGenerate), that references resolve, and that
// the values are well formed.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// BulkSample is one sample with its whole history, ready to be written.
type BulkSample struct {
	// Draft is the sample's editable content: its id, kind and image are the
	// sample's. For a submitted sample it is the content of its last revision.
	Draft      annotate.Sample
	Author     int64        // the sample's author (a user id)
	Status     verify.State // the state it ends in
	PrevStatus verify.State // the state before a withdrawal; empty otherwise
	Version    int          // the edit counter the optimistic checks compare
	Created    time.Time
	Updated    time.Time
	Revisions  []BulkRevision // oldest first; numbered from 1
	Reviews    []BulkReview
}

// BulkRevision is one immutable revision of a BulkSample.
type BulkRevision struct {
	Content annotate.Sample
	Author  int64  // who wrote it: the sample's author, or a corrector
	Change  string // "submit", "revise" or "correction"
	Reason  string // the acknowledged lint rules of a submit, a correction's comment
	At      time.Time
}

// BulkReview is one recorded review of a BulkSample.
type BulkReview struct {
	Revision   int // the number of the revision it is on (1 is the first)
	Round      int
	Verifier   int64
	Decision   verify.Decision
	Judgements map[string]bool
	Reasons    []string
	Comment    string
	Seconds    float64
	At         time.Time
}

// BulkResult counts the rows BulkWriteSamples wrote.
type BulkResult struct {
	Samples   int
	Revisions int
	Reviews   int
}

// BulkAddUsers makes sure the accounts of want exist, for a generator: accounts
// missing are created with password (one hash shared by all of them, and one
// "generate.users" audit row naming them), existing accounts of the same name and
// role are reused. It returns the accounts in the order of want. An existing account
// with another role is ErrConflict, and so is a database MarkSynthetic did not
// mark. Only a lead may (verify.ActionGenerate).
func (d *DB) BulkAddUsers(ctx context.Context, lead bench.User, want []bench.User, password string) ([]bench.User, error) {
	var out []bench.User
	err := d.act(ctx, lead, "generate.users", func(tx *sql.Tx) error {
		out = nil
		a, err := requireAction(ctx, tx, lead, verify.ActionGenerate)
		if err != nil {
			return err
		}
		if err := requireSynthetic(ctx, tx); err != nil {
			return err
		}
		hash := ""
		var added []string
		for _, w := range want {
			u, err := userByName(ctx, tx, w.Name)
			switch {
			case errors.Is(err, bench.ErrNotFound):
				if err := bench.CheckUserName(w.Name); err != nil {
					return err
				}
				if !bench.ValidRole(w.Role) {
					return fmt.Errorf("%w: role %q of %s is not one of annotator, verifier, lead", bench.ErrInvalid, w.Role, w.Name)
				}
				if hash == "" {
					if hash, err = hashPassword(password); err != nil {
						return err
					}
				}
				u = bench.User{Name: w.Name, Role: w.Role, Group: w.Group}
				if err := tx.QueryRowContext(ctx, `INSERT INTO users (name, role, grp, password_hash, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
					w.Name, w.Role, w.Group, hash, d.now()).Scan(&u.ID); err != nil {
					return err
				}
				added = append(added, w.Name)
			case err != nil:
				return err
			case u.Role != w.Role:
				return fmt.Errorf("%w: account %s exists as %s, wanted as %s", bench.ErrConflict, u.Name, u.Role, w.Role)
			}
			// As AddUser: every account joins the lead's projects.
			if err := d.joinProjectsOf(ctx, tx, a.ID, bench.User{ID: u.ID, Role: w.Role, Group: w.Group}); err != nil {
				return err
			}
			out = append(out, u)
		}
		if len(added) == 0 {
			return nil
		}
		return d.audit(ctx, tx, a.ID, "generate.users", "user", strings.Join(added, ","), "testing aid: generated accounts")
	})
	if err != nil {
		return nil, fmt.Errorf("add generated accounts: %w", err)
	}
	return out, nil
}

// BulkWriteSamples writes the samples of batches into a project, for a generator.
// Only a lead may (verify.ActionGenerate), checked before the first batch and again
// in each. Each batch is one transaction that inserts the samples with their revisions and reviews
// (prepared statements, no per-row audit) and adds one "generate.samples" audit row.
// A sample's image is its Draft's, looked up by path in the project. When the
// sequence ends, or fails, the project's summaries are rebuilt in one more
// transaction. A failure of the sequence or of a batch stops the writing; the
// batches committed before stay. Nothing here judges the histories: a caller must
// build them with verify (package synth does). A database MarkSynthetic did not
// mark is ErrConflict: these writes put reviews under verifiers' names.
func (d *DB) BulkWriteSamples(ctx context.Context, lead bench.User, projectID int64, batches iter.Seq2[[]BulkSample, error]) (BulkResult, error) {
	res, err := d.bulkWriteSamples(ctx, lead, projectID, batches)
	if err != nil {
		return res, fmt.Errorf("write generated samples: %w", err)
	}
	return res, nil
}

func (d *DB) bulkWriteSamples(ctx context.Context, lead bench.User, projectID int64, batches iter.Seq2[[]BulkSample, error]) (BulkResult, error) {
	var res BulkResult
	images := map[string]int64{}
	err := d.readAs(ctx, lead, "generate.samples", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, lead, projectID, verify.ActionGenerate); err != nil {
			return err
		}
		if err := requireSynthetic(ctx, tx); err != nil {
			return err
		}
		if err := importUnderway(ctx, tx, projectID); err != nil { // its summaries are rebuilt at the end
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT rel_path, id FROM images WHERE project_id = ?`, projectID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var rel string
			var id int64
			if err := rows.Scan(&rel, &id); err != nil {
				return err
			}
			images[rel] = id
		}
		return rows.Err()
	})
	if err != nil {
		return res, err
	}
	var werr error
	if batches == nil {
		batches = func(func([]BulkSample, error) bool) {}
	}
	for batch, err := range batches {
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			err = d.insertBulk(ctx, lead, projectID, images, batch, res.Samples)
		}
		if err != nil {
			werr = err
			break
		}
		res.Samples += len(batch)
		for _, s := range batch {
			res.Revisions += len(s.Revisions)
			res.Reviews += len(s.Reviews)
		}
	}
	serr := d.inTx(ctx, func(tx *sql.Tx) error {
		// The rebuilds read every row, an import's under way too (import_batches.go).
		if err := importUnderway(ctx, tx, projectID); err != nil {
			return err
		}
		if err := d.rebuildStats(ctx, tx, projectID); err != nil {
			return err
		}
		return rebuildSearch(ctx, tx, projectID) // the sample manager's rows (manager.go)
	})
	return res, errors.Join(werr, serr)
}

// bulkTime formats a bulk value's time as the store keeps times.
func bulkTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// insertBulk writes one batch in one transaction, audited by one summary row. done
// is the number of samples written before it, for the audit detail.
func (d *DB) insertBulk(ctx context.Context, lead bench.User, projectID int64, images map[string]int64, batch []BulkSample, done int) error {
	return d.act(ctx, lead, "generate.samples", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, lead, projectID, verify.ActionGenerate)
		if err != nil {
			return err
		}
		var revID int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM revisions`).Scan(&revID); err != nil {
			return err
		}
		insS, err := tx.PrepareContext(ctx, `INSERT INTO samples (id, project_id, image_id, kind, status, prev_status, author_id,
			draft, current_rev, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insS.Close()
		insRev, err := tx.PrepareContext(ctx, `INSERT INTO revisions (id, sample_id, number, content, author_id, change, reason, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insRev.Close()
		insRv, err := tx.PrepareContext(ctx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision,
			reasons, comment, seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insRv.Close()
		insMore, err := tx.PrepareContext(ctx, `INSERT INTO sample_images (sample_id, pos, image_id) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insMore.Close()
		for _, s := range batch {
			if err := insertBulkSample(ctx, bulkStmts{insS, insRev, insRv, insMore}, projectID, images, s, &revID); err != nil {
				return fmt.Errorf("sample %s: %w", s.Draft.ID, err)
			}
		}
		if err := d.syncIdentity(ctx, tx, "revisions"); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "generate.samples", "project", fmt.Sprint(projectID),
			fmt.Sprintf("testing aid: samples %d–%d inserted directly", done+1, done+len(batch)))
	})
}

// bulkStmts are a bulk batch's prepared inserts.
type bulkStmts struct{ sample, revision, review, more *sql.Stmt }

// insertBulkSample writes one sample, its further images, its revisions (ids from *revID on) and its
// reviews with the batch's prepared statements.
func insertBulkSample(ctx context.Context, st bulkStmts, projectID int64, images map[string]int64, s BulkSample, revID *int64) error {
	insS, insRev, insRv := st.sample, st.revision, st.review
	switch {
	case s.Draft.ID == "":
		return fmt.Errorf("%w: a sample needs an id", bench.ErrInvalid)
	case annotate.CheckID(s.Draft.ID) != nil:
		return fmt.Errorf("%w: %v", bench.ErrInvalid, annotate.CheckID(s.Draft.ID))
	case !s.Draft.Kind.Valid():
		return fmt.Errorf("%w: unknown kind %q", bench.ErrInvalid, s.Draft.Kind)
	case !s.Status.Valid():
		return fmt.Errorf("%w: unknown state %q", bench.ErrInvalid, s.Status)
	case s.PrevStatus != "" && !s.PrevStatus.Valid():
		return fmt.Errorf("%w: unknown previous state %q", bench.ErrInvalid, s.PrevStatus)
	}
	var imageID any
	if s.Draft.Image != "" {
		id, ok := images[s.Draft.Image]
		if !ok {
			return fmt.Errorf("%w: image %q is not in the project", bench.ErrInvalid, s.Draft.Image)
		}
		imageID = id
	}
	if err := checkImageCount(s.Draft); err != nil {
		return err
	}
	more := make([]int64, len(s.Draft.MoreImages))
	for i, p := range s.Draft.MoreImages {
		id, ok := images[p]
		if !ok {
			return fmt.Errorf("%w: image %q is not in the project", bench.ErrInvalid, p)
		}
		more[i] = id
	}
	draft, err := json.Marshal(s.Draft)
	if err != nil {
		return fmt.Errorf("encode draft: %w", err)
	}
	first := *revID + 1
	var cur any
	if len(s.Revisions) > 0 {
		cur = first + int64(len(s.Revisions)) - 1
	}
	if _, err := insS.ExecContext(ctx, s.Draft.ID, projectID, imageID, string(s.Draft.Kind), string(s.Status), string(s.PrevStatus),
		s.Author, string(draft), cur, s.Version, bulkTime(s.Created), bulkTime(s.Updated)); err != nil {
		return err
	}
	for i, id := range more {
		if _, err := st.more.ExecContext(ctx, s.Draft.ID, i+1, id); err != nil {
			return err
		}
	}
	for k, r := range s.Revisions {
		content, err := json.Marshal(r.Content)
		if err != nil {
			return fmt.Errorf("encode revision %d: %w", k+1, err)
		}
		*revID++
		if _, err := insRev.ExecContext(ctx, *revID, s.Draft.ID, k+1, string(content), r.Author, r.Change, r.Reason, bulkTime(r.At)); err != nil {
			return fmt.Errorf("revision %d: %w", k+1, err)
		}
	}
	for _, r := range s.Reviews {
		if r.Revision < 1 || r.Revision > len(s.Revisions) {
			return fmt.Errorf("%w: a review on revision %d of %d", bench.ErrInvalid, r.Revision, len(s.Revisions))
		}
		crit, err := json.Marshal(r.Judgements)
		if err != nil {
			return fmt.Errorf("encode judgements: %w", err)
		}
		if r.Judgements == nil {
			crit = []byte("{}")
		}
		reasons := []byte("[]")
		if len(r.Reasons) > 0 {
			if reasons, err = json.Marshal(r.Reasons); err != nil {
				return fmt.Errorf("encode reasons: %w", err)
			}
		}
		if _, err := insRv.ExecContext(ctx, s.Draft.ID, first+int64(r.Revision-1), r.Round, r.Verifier, string(crit), string(r.Decision),
			string(reasons), r.Comment, r.Seconds, bulkTime(r.At)); err != nil {
			return fmt.Errorf("round-%d review on revision %d: %w", r.Round, r.Revision, err)
		}
	}
	return nil
}
