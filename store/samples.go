package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// CreateSample starts a draft by the acting annotator or lead. An empty s.ID gets a
// generated one; an existing id is a conflict. s.Image, when set, and every path of
// s.MoreImages must name one of the project's images.
func (d *DB) CreateSample(ctx context.Context, actor bench.User, projectID int64, s annotate.Sample) (bench.SampleInfo, error) {
	var out bench.SampleInfo
	err := d.act(lockNewSample(ctx, projectID), actor, "sample.create", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionWriteSamples)
		if err != nil {
			return err
		}
		out, err = d.createSample(ctx, tx, a, projectID, s, verify.StateDraft)
		return err
	})
	if err != nil {
		return bench.SampleInfo{}, fmt.Errorf("create sample: %w", err)
	}
	return out, nil
}

func (d *DB) createSample(ctx context.Context, tx *sql.Tx, author bench.User, projectID int64, s annotate.Sample, status verify.State) (bench.SampleInfo, error) {
	s = annotate.TidyText(s)
	if !s.Kind.Valid() {
		return bench.SampleInfo{}, fmt.Errorf("%w: unknown kind %q", bench.ErrInvalid, s.Kind)
	}
	// The project, for a sample without an id, which its name numbers after the
	// project's samples, their count, and the sample's image: one batch of reads.
	var pname string
	var n int
	found := false
	reads := []read{{`SELECT name, (SELECT count(*) FROM samples WHERE project_id = ? AND CAST(? AS TEXT) = '') FROM projects WHERE id = ?`,
		[]any{projectID, s.ID, projectID}, func(r scanner) error { found = true; return r.Scan(&pname, &n) }}}
	imageID, imageRead := imageIDRead(projectID, s.Image)
	if imageRead != nil {
		reads = append(reads, *imageRead)
	}
	if err := txDialect(tx).readAll(ctx, tx, reads...); err != nil {
		return bench.SampleInfo{}, err
	}
	if !found {
		return bench.SampleInfo{}, fmt.Errorf("%w: project %d", bench.ErrNotFound, projectID)
	}
	if s.Image != "" && imageID.Int64 == 0 {
		return bench.SampleInfo{}, imageNotInProject(s.Image)
	}
	more, err := moreImageIDs(ctx, tx, projectID, s)
	if err != nil {
		return bench.SampleInfo{}, err
	}
	var image any // NULL without an image
	if imageID.Valid {
		image = imageID.Int64
	}
	// A new id is the next number after the project's samples; the INSERT is its
	// check: when another writer's sample took that id meanwhile (on PostgreSQL
	// creating a sample takes no lock that other creators wait for, see lockScope),
	// or another creator's transaction is inserting it now (numberFree), it inserts
	// nothing and the next number is tried. A given id that exists is a conflict.
	numbered := s.ID == ""
	if numbered {
		n++
		s.ID = fmt.Sprintf("%s-%05d", annotate.IDPrefix(pname), n)
	} else if err := annotate.CheckID(s.ID); err != nil {
		return bench.SampleInfo{}, fmt.Errorf("%w: %v", bench.ErrInvalid, err)
	}
	now := d.now()
	for {
		content, err := json.Marshal(s)
		if err != nil {
			return bench.SampleInfo{}, fmt.Errorf("encode sample %s: %w", s.ID, err)
		}
		free, freeArgs := d.dialect().numberFree(numbered, s.ID)
		res, err := tx.ExecContext(ctx, `INSERT INTO samples (id, project_id, image_id, kind, status, author_id, draft, created_at, updated_at)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE `+free+` ON CONFLICT (id) DO NOTHING`,
			append([]any{s.ID, projectID, image, string(s.Kind), string(status), author.ID, string(content), now, now}, freeArgs...)...)
		if err != nil {
			return bench.SampleInfo{}, err
		}
		if k, err := res.RowsAffected(); err != nil {
			return bench.SampleInfo{}, err
		} else if k == 1 {
			break
		}
		if !numbered {
			return bench.SampleInfo{}, fmt.Errorf("%w: a sample with id %q exists already", bench.ErrConflict, s.ID)
		}
		n++
		s.ID = fmt.Sprintf("%s-%05d", annotate.IDPrefix(pname), n)
	}
	if err := addSampleImages(ctx, tx, s.ID, more); err != nil { // a new sample has none yet
		return bench.SampleInfo{}, err
	}
	counted, err := statsSampleCounted(ctx, tx, s.ID, 1)
	if err != nil {
		return bench.SampleInfo{}, err
	}
	if err := auditAt(ctx, tx, now, author.ID, "sample.create", "sample", s.ID, string(s.Kind)); err != nil {
		return bench.SampleInfo{}, err
	}
	if counted {
		if err := statsActivity(ctx, tx, projectID, now, "sample.create", string(s.Kind)); err != nil {
			return bench.SampleInfo{}, err
		}
	}
	return getSample(ctx, tx, s.ID)
}

func imageIDFor(ctx context.Context, tx *sql.Tx, projectID int64, rel string) (any, error) {
	if rel == "" {
		return nil, nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM images WHERE project_id = ? AND rel_path = ?`, projectID, rel).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, imageNotInProject(rel)
	}
	return id, err
}

// imageIDRead is imageIDFor as a read for a caller's batch (readAll): id is the
// image's id once it ran, invalid (NULL) when the image is not in the project; no
// read and a NULL id for no image (rel "").
func imageIDRead(projectID int64, rel string) (*sql.NullInt64, *read) {
	id := &sql.NullInt64{}
	if rel == "" {
		return id, nil
	}
	return id, &read{`SELECT id FROM images WHERE project_id = ? AND rel_path = ?`, []any{projectID, rel},
		func(r scanner) error { id.Valid = true; return r.Scan(&id.Int64) }}
}

// imageNotInProject is the refusal of a sample naming an image the project lacks.
func imageNotInProject(rel string) error {
	return fmt.Errorf("%w: image %q is not in the project", bench.ErrInvalid, rel)
}

// SaveDraft stores the author's edits of a draft or returned sample. baseVersion is
// the Version the editor loaded; if someone changed the sample meanwhile it fails with
// ErrConflict and nothing is overwritten.
func (d *DB) SaveDraft(ctx context.Context, actor bench.User, id string, baseVersion int, s annotate.Sample) (int, error) {
	s = annotate.TidyText(s) // no stray spaces; a question edited without its tags keeps them
	var version int
	err := d.act(lockSample(ctx, id), actor, "sample.edit", func(tx *sql.Tx) error {
		_, cur, err := authorsSample(ctx, tx, actor, id, baseVersion, "edit")
		if err != nil {
			return err
		}
		if cur.Status != verify.StateDraft && cur.Status != verify.StateReturned {
			return fmt.Errorf("%w: %s is in %s; only drafts and returned samples are edited", bench.ErrForbidden, id, cur.Status)
		}
		s.ID, s.Kind = id, cur.Kind
		imageID, err := imageIDFor(ctx, tx, cur.ProjectID, s.Image)
		if err != nil {
			return err
		}
		content, err := json.Marshal(s)
		if err != nil {
			return fmt.Errorf("encode sample %s: %w", id, err)
		}
		version = cur.Version + 1
		// The version was checked under the sample's lock (authorsSample): the
		// UPDATE's count of rows is not read, and it goes with the next round trip.
		if err = execLater(ctx, tx, `UPDATE samples SET draft = ?, image_id = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?`,
			string(content), imageID, version, d.now(), id, baseVersion); err != nil {
			return err
		}
		if err := setSampleImages(ctx, tx, cur.ProjectID, id, s); err != nil {
			return err
		}
		return indexSample(ctx, tx, id) // the sample manager's row (manager.go)
	})
	if err != nil {
		return 0, fmt.Errorf("save draft %s: %w", id, err)
	}
	return version, nil
}

// Submit turns the author's draft into an immutable revision and sends it to round 1.
// Lint errors block it; warnings must each be acknowledged (their rule ids in ack),
// and the acknowledgement is stored with the revision.
func (d *DB) Submit(ctx context.Context, actor bench.User, id string, baseVersion int, ack []string) (bench.SampleInfo, error) {
	var out bench.SampleInfo
	err := d.act(lockSample(ctx, id), actor, "sample.submit", func(tx *sql.Tx) error {
		a, cur, err := authorsSample(ctx, tx, actor, id, baseVersion, "submit")
		if err != nil {
			return err
		}
		if err := verify.Authorize(verify.EventSubmit, vuser(a), cur.AuthorID == a.ID); err != nil {
			return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
		}
		to, err := verify.Transition(cur.Status, verify.EventSubmit)
		if err != nil {
			return fmt.Errorf("%w: %v", bench.ErrForbidden, err)
		}
		if err := lintGate(ctx, tx, cur.ProjectID, cur.Content, ack); err != nil {
			return err
		}
		if cur.Status == verify.StateReturned {
			if err := changedSinceReturn(ctx, tx, cur); err != nil {
				return err
			}
		}
		change := "submit"
		if cur.Revision > 0 {
			change = "revise"
		}
		// addRevisionID and setStatusOf, with the sample counted out of the
		// summaries once before both and in once after (not in and out between).
		if err := statsSample(ctx, tx, cur.ID, -1); err != nil {
			return err
		}
		revID, err := d.writeRevision(ctx, tx, a.ID, cur, cur.Content, change, strings.Join(ack, ","))
		if err != nil {
			return err
		}
		at, err := d.moveUncounted(ctx, tx, a.ID, cur.ID, cur.ProjectID, cur.Status, cur.Version, to, "")
		if err != nil {
			return err
		}
		// The sample as written: its new revision (of its draft) and state.
		out = cur
		out.Status, out.PrevStatus, out.Version, out.UpdatedAt = to, "", cur.Version+1, at
		out.Revision, out.RevisionID = cur.Revision+1, revID
		return nil
	})
	if err != nil {
		return bench.SampleInfo{}, fmt.Errorf("submit %s: %w", id, err)
	}
	return out, nil
}

// authorsSample loads sample id for its author's edit or submit: the actor must be an
// annotator or lead, its author, and have based the change on the current version.
func authorsSample(ctx context.Context, tx *sql.Tx, actor bench.User, id string, baseVersion int, verb string) (bench.User, bench.SampleInfo, error) {
	a, cur, err := sampleForAction(ctx, tx, actor, id, verify.ActionWriteSamples)
	if err != nil {
		return bench.User{}, bench.SampleInfo{}, err
	}
	if cur.AuthorID != a.ID {
		return bench.User{}, bench.SampleInfo{}, fmt.Errorf("%w: %s is %s's sample; only its author may %s it", bench.ErrForbidden, id, cur.AuthorName, verb)
	}
	if cur.Version != baseVersion {
		return bench.User{}, bench.SampleInfo{}, fmt.Errorf("%w: %s is at version %d, the %s was based on %d", bench.ErrConflict, id, cur.Version, verb, baseVersion)
	}
	return a, cur, nil
}

// lintGate refuses content with lint errors or unacknowledged warnings.
func lintGate(ctx context.Context, tx *sql.Tx, projectID int64, s annotate.Sample, ack []string) error {
	env := annotate.LintEnv{HandWritten: true, ImageSize: func(path string) (int, int, bool) {
		var w, h int
		err := tx.QueryRowContext(ctx, `SELECT width, height FROM images WHERE project_id = ? AND rel_path = ?`, projectID, path).Scan(&w, &h)
		return w, h, err == nil
	}, ImageLimits: projectImageLimits(ctx, tx, projectID)}
	var problems []string
	for _, f := range annotate.Lint(s, env) {
		if f.Severity == annotate.SeverityError || !slices.Contains(ack, f.Rule) {
			problems = append(problems, fmt.Sprintf("%s (%s, %s): %s", f.Rule, f.Severity, f.Field, f.Message))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", bench.ErrInvalid, strings.Join(problems, "; "))
	}
	return nil
}

// addRevision appends the next immutable revision of cur and makes it current, with
// the summaries (stats.go): the revision and the sample's balance. Every caller then
// moves the sample with setStatus, which decides its round 3s again.
func (d *DB) addRevision(ctx context.Context, tx *sql.Tx, authorID int64, cur bench.SampleInfo, s annotate.Sample, change, reason string) error {
	_, err := d.addRevisionID(ctx, tx, authorID, cur, s, change, reason)
	return err
}

// addRevisionID is addRevision, returning the new revision's id.
func (d *DB) addRevisionID(ctx context.Context, tx *sql.Tx, authorID int64, cur bench.SampleInfo, s annotate.Sample, change, reason string) (int64, error) {
	if err := statsSample(ctx, tx, cur.ID, -1); err != nil {
		return 0, err
	}
	revID, err := d.writeRevision(ctx, tx, authorID, cur, s, change, reason)
	if err != nil {
		return 0, err
	}
	return revID, statsSample(ctx, tx, cur.ID, 1)
}

// writeRevision is addRevisionID of a sample its caller counted out of the
// summaries (statsSample -1) and counts in again after.
func (d *DB) writeRevision(ctx context.Context, tx *sql.Tx, authorID int64, cur bench.SampleInfo, s annotate.Sample, change, reason string) (int64, error) {
	content, err := json.Marshal(s)
	if err != nil {
		return 0, fmt.Errorf("encode sample %s: %w", cur.ID, err)
	}
	now := d.now()
	var revID int64
	err = tx.QueryRowContext(ctx, `INSERT INTO revisions (sample_id, number, content, author_id, change, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		cur.ID, cur.Revision+1, string(content), authorID, change, reason, now).Scan(&revID)
	if err != nil {
		return 0, err
	}
	if err := statsRevisionAdded(ctx, tx, revID, newStatsRev(cur.ProjectID, string(cur.Kind), authorID, string(content)), change, now); err != nil {
		return 0, err
	}
	if err := execLater(ctx, tx, `UPDATE samples SET current_rev = ?, draft = ? WHERE id = ?`, revID, string(content), cur.ID); err != nil {
		return 0, err
	}
	return revID, d.audit(ctx, tx, authorID, "revision."+change, "sample", cur.ID, fmt.Sprintf("revision %d", cur.Revision+1))
}

// setStatus moves a sample to a new state, bumping its version (baseVersion guards
// against a concurrent change), and audits the transition, with the summaries
// (stats.go): the sample's state, the activity and its round 3s.
func (d *DB) setStatus(ctx context.Context, tx *sql.Tx, actorID int64, id string, baseVersion int, to verify.State, prev verify.State) error {
	var from string
	var project int64
	if err := tx.QueryRowContext(ctx, `SELECT status, project_id FROM samples WHERE id = ?`, id).Scan(&from, &project); err != nil {
		return err
	}
	_, err := d.moveSample(ctx, tx, actorID, id, project, verify.State(from), baseVersion, to, prev)
	return err
}

// setStatusOf is setStatus of sample cur as the transaction read it (its state
// and project, under the sample's lock), without reading it again. It returns
// the time written as the sample's updated_at.
func (d *DB) setStatusOf(ctx context.Context, tx *sql.Tx, actorID int64, cur bench.SampleInfo, to verify.State, prev verify.State) (string, error) {
	return d.moveSample(ctx, tx, actorID, cur.ID, cur.ProjectID, cur.Status, cur.Version, to, prev)
}

// moveSample is setStatus of sample id of project, now in state from.
func (d *DB) moveSample(ctx context.Context, tx *sql.Tx, actorID int64, id string, project int64, from verify.State, baseVersion int, to verify.State, prev verify.State) (string, error) {
	if err := statsSample(ctx, tx, id, -1); err != nil {
		return "", err
	}
	return d.moveUncounted(ctx, tx, actorID, id, project, from, baseVersion, to, prev)
}

// moveUncounted is moveSample of a sample its caller counted out of the summaries
// (statsSample -1); it counts the sample in again.
func (d *DB) moveUncounted(ctx context.Context, tx *sql.Tx, actorID int64, id string, project int64, from verify.State, baseVersion int, to verify.State, prev verify.State) (string, error) {
	now := d.now()
	res, err := tx.ExecContext(ctx, `UPDATE samples SET status = ?, prev_status = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ?`,
		string(to), string(prev), now, id, baseVersion)
	if err != nil {
		return "", err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return "", fmt.Errorf("%w: %s changed meanwhile", bench.ErrConflict, id)
	}
	counted, err := statsSampleCounted(ctx, tx, id, 1)
	if err != nil {
		return "", err
	}
	change := bench.StatusChange{From: from, To: to}.String()
	if err := auditAt(ctx, tx, now, actorID, "sample.status", "sample", id, change); err != nil {
		return "", err
	}
	if counted {
		if err := statsActivity(ctx, tx, project, now, "sample.status", change); err != nil {
			return "", err
		}
	}
	return now, d.statsRound3(ctx, tx, id)
}

const sampleCols = `s.id, s.project_id, COALESCE(s.image_id, 0), COALESCE(i.rel_path, ''), s.kind, s.status, s.prev_status,
	s.author_id, u.name, s.version, COALESCE(r.number, 0), COALESCE(r.id, 0), s.draft, s.updated_at`

const sampleFrom = ` FROM samples s JOIN users u ON u.id = s.author_id
	LEFT JOIN images i ON i.id = s.image_id LEFT JOIN revisions r ON r.id = s.current_rev`

func scanSample(r scanner) (bench.SampleInfo, error) {
	var si bench.SampleInfo
	var kind, status, prev, content string
	if err := r.Scan(&si.ID, &si.ProjectID, &si.ImageID, &si.ImagePath, &kind, &status, &prev,
		&si.AuthorID, &si.AuthorName, &si.Version, &si.Revision, &si.RevisionID, &content, &si.UpdatedAt); err != nil {
		return bench.SampleInfo{}, err
	}
	si.Kind, si.Status, si.PrevStatus = annotate.Kind(kind), verify.State(status), verify.State(prev)
	if err := json.Unmarshal([]byte(content), &si.Content); err != nil {
		return bench.SampleInfo{}, fmt.Errorf("decode sample %s: %w", si.ID, err)
	}
	return si, nil
}

func getSample(ctx context.Context, tx *sql.Tx, id string) (bench.SampleInfo, error) {
	var si bench.SampleInfo
	err := readRow(ctx, tx, `SELECT `+sampleCols+sampleFrom+` WHERE s.id = ?`, []any{id}, func(r scanner) (err error) {
		si, err = scanSample(r)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return bench.SampleInfo{}, fmt.Errorf("sample %q: %w", id, bench.ErrNotFound)
	}
	return si, err
}

// Sample loads one sample, for a member of its project.
func (d *DB) Sample(ctx context.Context, actor bench.User, id string) (bench.SampleInfo, error) {
	var si bench.SampleInfo
	err := d.readAs(ctx, actor, "sample.read", func(tx *sql.Tx) error {
		if _, err := requireSampleAction(ctx, tx, actor, id, verify.ActionReadProject); err != nil {
			return err
		}
		var err error
		si, err = getSample(ctx, tx, id)
		return err
	})
	if err != nil {
		return bench.SampleInfo{}, fmt.Errorf("read sample: %w", err)
	}
	return si, nil
}

// Samples lists a project's samples matching f, newest first, a page at a time:
// limit samples after skipping offset, or, with f.After, after that sample.
func (d *DB) Samples(ctx context.Context, actor bench.User, projectID int64, f bench.SampleFilter, offset, limit int) ([]bench.SampleInfo, error) {
	where, args := sampleWhere(projectID, f)
	if f.After != nil {
		where += ` AND s.updated_at <= ? AND (s.updated_at < ? OR s.id > ?)`
		args = append(args, f.After.UpdatedAt, f.After.UpdatedAt, f.After.ID)
	}
	var out []bench.SampleInfo
	err := d.readProject(ctx, actor, projectID, "samples.read", func(tx *sql.Tx) error {
		var err error
		out, err = queryAll(ctx, tx, scanSample, `SELECT `+sampleCols+sampleFrom+where+
			` ORDER BY s.updated_at DESC, s.id LIMIT ? OFFSET ?`, append(args, limit, offset)...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list samples: %w", err)
	}
	return out, nil
}

// CountSamples counts a project's samples matching f (f.After is ignored): the total
// beside a list shown a page at a time.
func (d *DB) CountSamples(ctx context.Context, actor bench.User, projectID int64, f bench.SampleFilter) (int, error) {
	where, args := sampleWhere(projectID, f)
	var n int
	err := d.readProject(ctx, actor, projectID, "samples.read", func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM samples s`+where, args...).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("count samples: %w", err)
	}
	return n, nil
}

// sampleWhere is the WHERE clause (on samples s) selecting f's samples of a project.
func sampleWhere(projectID int64, f bench.SampleFilter) (string, []any) {
	// A planted copy (planted.go) is listed to no one: leads list them apart.
	q := ` WHERE s.project_id = ? AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = s.id)`
	args := []any{projectID}
	if f.Status != "" {
		q += ` AND s.status = ?`
		args = append(args, string(f.Status))
	}
	if f.AuthorID != 0 {
		q += ` AND s.author_id = ?`
		args = append(args, f.AuthorID)
	}
	if f.Kind != "" {
		q += ` AND s.kind = ?`
		args = append(args, string(f.Kind))
	}
	if f.ImageID != 0 { // in any position of a sequence
		q += ` AND (s.image_id = ? OR s.id IN (SELECT sample_id FROM sample_images WHERE image_id = ?))`
		args = append(args, f.ImageID, f.ImageID)
	}
	return q, args
}

// StatusCounts counts a project's samples per state (every state present, zero or not).
func (d *DB) StatusCounts(ctx context.Context, actor bench.User, projectID int64) (map[verify.State]int, error) {
	out := map[verify.State]int{}
	for _, s := range verify.States {
		out[s] = 0
	}
	// stat_samples (stats.go) is kept by every write of a sample: a few rows per
	// state instead of counting every sample on each status-line refresh.
	err := d.readProject(ctx, actor, projectID, "samples.read", func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT status, sum(n) FROM stat_samples WHERE project_id = ? GROUP BY status`, projectID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			var n int
			if err := rows.Scan(&s, &n); err != nil {
				return err
			}
			out[verify.State(s)] = n
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("count samples: %w", err)
	}
	return out, nil
}

// Withdraw takes a sample out of the process (kept, excluded); only a lead may.
func (d *DB) Withdraw(ctx context.Context, actor bench.User, id, reason string) error {
	return d.leadMove(ctx, actor, id, verify.EventWithdraw, reason)
}

// Reopen puts a withdrawn sample back in the state it had; only a lead may.
func (d *DB) Reopen(ctx context.Context, actor bench.User, id, reason string) error {
	return d.leadMove(ctx, actor, id, verify.EventReopen, reason)
}

func (d *DB) leadMove(ctx context.Context, actor bench.User, id string, ev verify.Event, reason string) error {
	err := d.act(ctx, actor, "sample."+string(ev), func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionReadSamples)
		if err != nil {
			return err
		}
		return d.leadMoveTx(ctx, tx, a, id, ev, reason)
	})
	if err != nil {
		return fmt.Errorf("%s %s: %w", ev, id, err)
	}
	return nil
}

// errWithdrawnAlready is a withdrawal of a withdrawn sample.
var errWithdrawnAlready = errors.New("it is withdrawn already")

// leadMoveTx withdraws or reopens sample id for a, who must be a member of its
// project and allowed the move (verify.Authorize), and audits it with reason.
func (d *DB) leadMoveTx(ctx context.Context, tx *sql.Tx, a bench.User, id string, ev verify.Event, reason string) error {
	a, err := requireSampleAction(ctx, tx, a, id, verify.ActionReadSamples)
	if err != nil {
		return err
	}
	cur, err := getSample(ctx, tx, id)
	if err != nil {
		return err
	}
	if err := verify.Authorize(ev, vuser(a), cur.AuthorID == a.ID); err != nil {
		return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
	}
	if ev == verify.EventWithdraw && cur.Status == verify.StateWithdrawn {
		return fmt.Errorf("%w: %w", bench.ErrForbidden, errWithdrawnAlready) // refused by Withdraw, reported by WithdrawSamples
	}
	var to, prev verify.State
	if ev == verify.EventWithdraw {
		if to, err = verify.Transition(cur.Status, ev); err != nil {
			return fmt.Errorf("%w: %v", bench.ErrForbidden, err)
		}
		prev = cur.Status
	} else {
		if to, err = verify.Reopen(cur.Status, cur.PrevStatus); err != nil {
			return fmt.Errorf("%w: %v", bench.ErrForbidden, err)
		}
	}
	if err := d.setStatus(ctx, tx, a.ID, id, cur.Version, to, prev); err != nil {
		return err
	}
	return d.audit(ctx, tx, a.ID, "sample."+string(ev), "sample", id, reason)
}

// changedSinceReturn applies annotate.CheckResubmit to a returned sample: its
// draft against the revision the reviewers returned.
func changedSinceReturn(ctx context.Context, tx *sql.Tx, cur bench.SampleInfo) error {
	var stored string
	if err := tx.QueryRowContext(ctx, `SELECT content FROM revisions WHERE id = ?`, cur.RevisionID).Scan(&stored); err != nil {
		return err
	}
	var returned annotate.Sample
	if err := json.Unmarshal([]byte(stored), &returned); err != nil {
		return err
	}
	if err := annotate.CheckResubmit(returned, cur.Content); err != nil {
		return fmt.Errorf("%w: %s: %w", bench.ErrInvalid, cur.ID, err)
	}
	return nil
}
