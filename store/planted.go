package store

// Planted samples (issue 30): defective (or clean) copies of accepted samples,
// made by package plant, that enter a verifier's queue exactly like real samples
// and measure how well each verifier catches errors.
//
// A copy is a sample row like any other: its id is drawn as createSample draws
// one, and its revisions, the reviews of its earlier rounds and its history are
// its origin's up to the moment the origin entered the copy's round, shifted in
// time so that it entered that round when it was planted. The table planted,
// which only leads read, names the copies. Each hiding is one explicit condition
// on that table in the query that must not show a copy:
//   - the queue (reviews.go queueSQL): a copy is only in its own verifier's
//     queue, and only until their review;
//   - sample listings (samples.go sampleWhere), and so the annotators' lists and
//     the augmentation candidates;
//   - the summaries behind every dashboard count (stats.go statsSample,
//     statsActivity, the rebuild), and so the sample manager's index too;
//   - agreement (agreement.go, the reviews it reads).
//
// A copy never becomes accepted, so no release, audit or export of accepted
// samples meets one; its one review retires it.

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/plant"
	"github.com/benchwright/benchwright/verify"
)

// plantedRow is a copy as the planted table holds it.
type plantedRow struct {
	sampleID, origin, mutation, field string
	verifier                          int64
	round                             int
	reviewed                          bool
}

// plantedOf reads the planted row of sample id; ok is false for a real sample.
func plantedOf(ctx context.Context, tx *sql.Tx, id string) (plantedRow, bool, error) {
	p, err := scanPlanted(tx.QueryRowContext(ctx, plantedSQL, id))
	if errors.Is(err, sql.ErrNoRows) {
		return plantedRow{}, false, nil
	}
	return p, err == nil, err
}

// plantedSQL is plantedOf's query; scanPlanted scans its row.
const plantedSQL = `SELECT sample_id, origin_id, mutation, field, verifier_id, round, review_id FROM planted WHERE sample_id = ?`

func scanPlanted(r scanner) (plantedRow, error) {
	var p plantedRow
	var review sql.NullInt64
	err := r.Scan(&p.sampleID, &p.origin, &p.mutation, &p.field, &p.verifier, &p.round, &review)
	p.reviewed = review.Valid
	return p, err
}

// plantedSeat is, for a copy planted for someone other than a, claims that
// hold every seat of its round (panel seats in round 3): verify then refuses a
// as it refuses anyone a round whose seats others hold, so that a verifier who
// guessed a copy's id learns nothing more than of a real sample others are
// reviewing.
// p is cur's planted row, ok false when cur is a real sample.
func plantedSeat(p plantedRow, ok bool, cur bench.SampleInfo, a bench.User, now time.Time, panel int) []verify.Claim {
	if !ok || p.verifier == a.ID {
		return nil
	}
	round, seats := cur.Status.Round(), 1
	if round == 3 {
		seats = max(panel, 1)
	}
	out := []verify.Claim{{Sample: cur.ID, Round: round, Verifier: uid(p.verifier), Expires: now.Add(24 * time.Hour)}}
	for i := 1; i < seats; i++ {
		out = append(out, verify.Claim{Sample: cur.ID, Round: round, Verifier: uid(-int64(i)), Expires: now.Add(24 * time.Hour)})
	}
	return out
}

// plantDraw is the draw for one real review: which reviews plant a copy, and
// which origin and mutation, follow from the project's secret salt, the
// verifier and the review, so that nobody who knows the code and a review's id
// can tell whether it planted one.
func plantDraw(ctx context.Context, tx *sql.Tx, projectID, verifier, reviewID int64) (*rand.Rand, error) {
	var salt string
	err := tx.QueryRowContext(ctx, `SELECT salt FROM plant_salts WHERE project_id = ?`, projectID).Scan(&salt)
	if errors.Is(err, sql.ErrNoRows) {
		var b [16]byte
		if _, err := crand.Read(b[:]); err != nil {
			return nil, err
		}
		salt = hex.EncodeToString(b[:])
		_, err = tx.ExecContext(ctx, `INSERT INTO plant_salts (project_id, salt) VALUES (?, ?)`, projectID, salt)
	}
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(fmt.Appendf(nil, "plant/%s/%d/%d/%d", salt, projectID, verifier, reviewID))
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(h[:8]), binary.LittleEndian.Uint64(h[8:16]))), nil
}

// maybePlant plants, after a's real review reviewID in round, a copy for a with
// the probability that makes plant_rate percent of a's reviewed items copies;
// pr is the project as the review's transaction read it.
func (d *DB) maybePlant(ctx context.Context, tx *sql.Tx, a bench.User, pr bench.Project, round int, reviewID int64) error {
	projectID := pr.ID
	s := pr.Settings
	if !s.PlantsRound(round) {
		return nil
	}
	if err := lockTally(ctx, tx, projectID); err != nil { // a copy is a new sample (lockScope)
		return err
	}
	rng, err := plantDraw(ctx, tx, projectID, a.ID, reviewID)
	if err != nil {
		return err
	}
	if !plant.Follows(rng, s.PlantRate) {
		return nil
	}
	return d.plant(ctx, tx, a, pr, round, rng)
}

// plant makes one copy for verifier a in round: an accepted sample a never
// wrote, corrected or reviewed, with a mutation the settings allow and the
// sample can take. Finding none plants nothing.
func (d *DB) plant(ctx context.Context, tx *sql.Tx, a bench.User, pr bench.Project, round int, rng *rand.Rand) error {
	origins, err := queryAll(ctx, tx, func(r scanner) (string, error) {
		var id string
		return id, r.Scan(&id)
	}, `SELECT s.id FROM samples s WHERE s.project_id = ? AND s.status = 'accepted' AND s.author_id != ?
		AND NOT EXISTS (SELECT 1 FROM revisions r WHERE r.sample_id = s.id AND r.author_id = ?)
		AND NOT EXISTS (SELECT 1 FROM reviews v WHERE v.sample_id = s.id AND v.verifier_id = ?)
		ORDER BY s.id`, pr.ID, a.ID, a.ID, a.ID)
	if err != nil {
		return err
	}
	rng.Shuffle(len(origins), func(i, j int) { origins[i], origins[j] = origins[j], origins[i] })
	for _, id := range origins[:min(len(origins), 20)] {
		origin, err := getSample(ctx, tx, id)
		if err != nil {
			return err
		}
		var w, h int
		if origin.ImageID != 0 {
			if err := tx.QueryRowContext(ctx, `SELECT width, height FROM images WHERE id = ?`, origin.ImageID).Scan(&w, &h); err != nil {
				return err
			}
		}
		can := plant.Choices(origin.Content, w, h, func(m plant.Mutation) bool { return pr.Settings.PlantsMutation(string(m)) })
		if len(can) == 0 {
			continue
		}
		m := can[rng.IntN(len(can))]
		content, err := plant.Mutate(origin.Content, m, w, h, rng)
		if err != nil {
			return err
		}
		planted, err := d.copyPlanted(ctx, tx, origin, content, round)
		if err != nil {
			return err
		}
		if planted == "" {
			continue // the origin never entered that round (a 2-round project's round 3)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO planted (sample_id, project_id, origin_id, mutation, field, verifier_id, round, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, planted, pr.ID, origin.ID, string(m), m.Field(), a.ID, round, d.now()); err != nil {
			return err
		}
		// The lead's audit log: entity "planted", which no verifier's call reads.
		return d.audit(ctx, tx, 0, "planted.create", "planted", planted,
			fmt.Sprintf("copy of %s with %s for %s in round %d", origin.ID, m, a.Name, round))
	}
	return nil
}

// copyPlanted writes a sample that is origin as it entered round, with its
// current revision's content replaced by content: the sample row, its
// revisions, the reviews of the rounds before, its images and its history, every
// time moved so that it entered round now. It returns the copy's id, or "" when
// origin never entered round.
func (d *DB) copyPlanted(ctx context.Context, tx *sql.Tx, origin bench.SampleInfo, content annotate.Sample, round int) (string, error) {
	// The moment origin entered round: its last transition into it.
	var cutID int64
	var cutAt string
	err := tx.QueryRowContext(ctx, `SELECT id, at FROM audit_log WHERE entity = 'sample' AND entity_id = ? AND action = 'sample.status'
		AND detail LIKE ? ORDER BY id DESC LIMIT 1`, origin.ID, bench.IntoPattern(verify.State("round"+fmt.Sprint(round)))).Scan(&cutID, &cutAt)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	entered, err := time.Parse(time.RFC3339Nano, cutAt)
	if err != nil {
		return "", fmt.Errorf("time of %s entering round %d: %w", origin.ID, round, err)
	}
	now := d.Now().UTC()
	shift := func(at string) string {
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return at
		}
		return t.Add(now.Sub(entered)).UTC().Format(time.RFC3339Nano)
	}
	var statuses int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM audit_log WHERE entity = 'sample' AND entity_id = ? AND action = 'sample.status' AND id <= ?`,
		origin.ID, cutID).Scan(&statuses); err != nil {
		return "", err
	}
	var createdAt string
	if err := tx.QueryRowContext(ctx, `SELECT created_at FROM samples WHERE id = ?`, origin.ID).Scan(&createdAt); err != nil {
		return "", err
	}
	var imageID any
	if origin.ImageID != 0 {
		imageID = origin.ImageID
	}
	state := fmt.Sprintf("round%d", round)
	// The copy's id is numbered as createSample numbers one, the INSERT its check:
	// a sample created meanwhile under the id (creators do not take the tally) makes
	// it draw the next.
	var id string
	var final []byte
	for id == "" {
		if id, err = newSampleID(ctx, tx, origin.ProjectID); err != nil {
			return "", err
		}
		content.ID = id
		final, _ = json.Marshal(content)
		res, err := tx.ExecContext(ctx, `INSERT INTO samples (id, project_id, image_id, kind, status, author_id, draft, version, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, id, origin.ProjectID, imageID, string(origin.Kind), state, origin.AuthorID,
			string(final), 1+statuses, shift(createdAt), shift(cutAt))
		if err != nil {
			return "", err
		}
		if k, err := res.RowsAffected(); err != nil {
			return "", err
		} else if k == 0 {
			id = ""
		}
	}
	if err := setSampleImages(ctx, tx, origin.ProjectID, id, content); err != nil {
		return "", err
	}
	type rev struct {
		id                          int64
		number                      int
		content, change, reason, at string
		author                      int64
	}
	revs, err := queryAll(ctx, tx, func(r scanner) (rev, error) {
		var x rev
		return x, r.Scan(&x.id, &x.number, &x.content, &x.author, &x.change, &x.reason, &x.at)
	}, `SELECT id, number, content, author_id, change, reason, created_at FROM revisions WHERE sample_id = ? AND number <= ? ORDER BY number`,
		origin.ID, origin.Revision)
	if err != nil {
		return "", err
	}
	newRev := map[int64]int64{}
	for _, r := range revs {
		c := string(final)
		if r.number != origin.Revision {
			var s annotate.Sample
			if err := json.Unmarshal([]byte(r.content), &s); err != nil {
				return "", fmt.Errorf("decode revision %d of %s: %w", r.number, origin.ID, err)
			}
			s.ID = id
			js, _ := json.Marshal(s)
			c = string(js)
		}
		var nid int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO revisions (sample_id, number, content, author_id, change, reason, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, id, r.number, c, r.author, r.change, r.reason, shift(r.at)).Scan(&nid); err != nil {
			return "", err
		}
		newRev[r.id] = nid
		if r.number == origin.Revision {
			if _, err := tx.ExecContext(ctx, `UPDATE samples SET current_rev = ? WHERE id = ?`, nid, id); err != nil {
				return "", err
			}
		}
	}
	// The reviews recorded before origin entered round: those of the earlier
	// rounds (and revisions).
	type review struct {
		revision, verifier                   int64
		round                                int
		criteria, decision, reasons, comment string
		seconds                              float64
		at                                   string
	}
	rvs, err := queryAll(ctx, tx, func(r scanner) (review, error) {
		var x review
		return x, r.Scan(&x.revision, &x.round, &x.verifier, &x.criteria, &x.decision, &x.reasons, &x.comment, &x.seconds, &x.at)
	}, `SELECT revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at FROM reviews
		WHERE sample_id = ? AND created_at <= ? ORDER BY id`, origin.ID, cutAt)
	if err != nil {
		return "", err
	}
	for _, r := range rvs {
		nr, ok := newRev[r.revision]
		if !ok {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO reviews (sample_id, revision_id, round, verifier_id, criteria, decision, reasons, comment, seconds, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, nr, r.round, r.verifier, r.criteria, r.decision, r.reasons, r.comment, r.seconds, shift(r.at)); err != nil {
			return "", err
		}
	}
	// The history: origin's audit rows up to its entering round, moved in time.
	type event struct {
		at, action, detail, client string
		actor                      sql.NullInt64
	}
	evs, err := queryAll(ctx, tx, func(r scanner) (event, error) {
		var e event
		return e, r.Scan(&e.at, &e.actor, &e.action, &e.detail, &e.client)
	}, `SELECT at, actor_id, action, detail, client FROM audit_log WHERE entity = 'sample' AND entity_id = ? AND id <= ? ORDER BY id`, origin.ID, cutID)
	if err != nil {
		return "", err
	}
	for _, e := range evs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, ?, 'sample', ?, ?, ?)`,
			shift(e.at), e.actor, e.action, id, e.detail, e.client); err != nil {
			return "", err
		}
	}
	return id, nil
}

// newSampleID draws the next sample id of a project as createSample does.
func newSampleID(ctx context.Context, tx *sql.Tx, projectID int64) (string, error) {
	var pname string
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT name FROM projects WHERE id = ?`, projectID).Scan(&pname); err != nil {
		return "", err
	}
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM samples WHERE project_id = ?`, projectID).Scan(&n); err != nil {
		return "", err
	}
	for {
		n++
		id := fmt.Sprintf("%s-%05d", annotate.IDPrefix(pname), n)
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM samples WHERE id = ?`, id).Scan(new(int)); errors.Is(err, sql.ErrNoRows) {
			return id, nil
		} else if err != nil {
			return "", err
		}
	}
}

// plantedReviewed finishes a verifier's review of copy p (reviewID, already
// stored like any review): the copy moves as verify said, without touching a
// summary, and is retired; the review is judged (verify.ReviewOfPlanted); the
// verifier is told what was planted when the project says so, and paused when
// the lead's rule holds. It returns the sentence told to the verifier, if any.
func (d *DB) plantedReviewed(ctx context.Context, tx *sql.Tx, a bench.User, cur bench.SampleInfo, p plantedRow, reviewID int64, out verify.Outcome) (string, error) {
	if err := lockTally(ctx, tx, cur.ProjectID); err != nil { // a pause reads other samples' reviews (lockScope)
		return "", err
	}
	if out.State != cur.Status && out.State != verify.StateAccepted {
		// A copy is never accepted (no release meets one): an approval that
		// would accept it leaves it as it was, as one waiting for the panel.
		if _, err := tx.ExecContext(ctx, `UPDATE samples SET status = ?, prev_status = '', version = version + 1, updated_at = ? WHERE id = ?`,
			string(out.State), d.now(), cur.ID); err != nil {
			return "", err
		}
		if err := d.audit(ctx, tx, a.ID, "sample.status", "sample", cur.ID, bench.StatusChange{From: cur.Status, To: out.State}.String()); err != nil {
			return "", err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE sample_id = ?`, cur.ID); err != nil {
		return "", err
	}
	result := verify.ReviewOfPlanted(p.field, out.Review.Decision, out.Review.Reasons)
	pr, err := projectByID(ctx, tx, cur.ProjectID)
	if err != nil {
		return "", err
	}
	feedback := ""
	if pr.Settings.PlantFeedback {
		feedback = plant.Feedback(plant.Mutation(p.mutation), result)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE planted SET review_id = ?, outcome = ?, feedback = ?, reviewed_at = ? WHERE sample_id = ?`,
		reviewID, string(result), feedback, d.now(), cur.ID); err != nil {
		return "", err
	}
	if err := d.audit(ctx, tx, a.ID, "planted.review", "planted", cur.ID, string(result)); err != nil {
		return "", err
	}
	return feedback, d.pauseRule(ctx, tx, pr, a)
}

// plantReviews are the judged reviews of copies in a project (verifier by name),
// those of verifier only when it is not 0 and reviewed after since when it is
// not "".
func plantReviews(ctx context.Context, tx *sql.Tx, projectID, verifier int64, since string) ([]plant.Review, error) {
	q := `SELECT u.name, p.round, p.sample_id, p.mutation, p.outcome FROM planted p JOIN users u ON u.id = p.verifier_id
		WHERE p.project_id = ? AND p.review_id IS NOT NULL`
	args := []any{projectID}
	if verifier != 0 {
		q += ` AND p.verifier_id = ?`
		args = append(args, verifier)
	}
	if since != "" {
		q += ` AND p.reviewed_at > ?`
		args = append(args, since)
	}
	return queryAll(ctx, tx, func(r scanner) (plant.Review, error) {
		var x plant.Review
		var m, o string
		err := r.Scan(&x.Verifier, &x.Round, &x.Item, &m, &o)
		x.Mutation, x.Outcome = plant.Mutation(m), verify.PlantOutcome(o)
		return x, err
	}, q+` ORDER BY p.reviewed_at, p.sample_id`, args...)
}

// pauseRule pauses a when the lead's rule holds (plant_pause_below after
// plant_min_items planted errors, counted since a lead last resumed them).
func (d *DB) pauseRule(ctx context.Context, tx *sql.Tx, pr bench.Project, a bench.User) error {
	s := pr.Settings
	if s.PlantPauseBelow <= 0 {
		return nil
	}
	var since string
	var paused int
	err := tx.QueryRowContext(ctx, `SELECT paused, since FROM plant_pauses WHERE project_id = ? AND verifier_id = ?`, pr.ID, a.ID).Scan(&paused, &since)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if paused == 1 {
		return nil
	}
	rs, err := plantReviews(ctx, tx, pr.ID, a.ID, since)
	if err != nil {
		return err
	}
	for i := range rs {
		rs[i].Round = 0 // the rule reads every round together
	}
	fs := plant.Figures(rs)
	if len(fs) == 0 || !fs[0].Pause(float64(s.PlantPauseBelow)/100, s.PlantMinimum()) {
		return nil
	}
	f := fs[0]
	reason := f.PauseReason(s.PlantPauseBelow)
	if _, err := tx.ExecContext(ctx, `INSERT INTO plant_pauses (project_id, verifier_id, paused, reason, since) VALUES (?, ?, 1, ?, ?)
		ON CONFLICT (project_id, verifier_id) DO UPDATE SET paused = 1, reason = excluded.reason`, pr.ID, a.ID, reason, since); err != nil {
		return err
	}
	return d.audit(ctx, tx, 0, "planted.pause", "planted", pr.Name, fmt.Sprintf("paused %s: caught %d of %d", a.Name, f.Caught, f.Planted))
}

// errPaused refuses a paused verifier new work, with the reason.
func errPaused(reason string) error { return fmt.Errorf("%w: %s", bench.ErrForbidden, reason) }

// plantPausedSQL reads the reason of a verifier's pause in a project, if paused.
const plantPausedSQL = `SELECT reason FROM plant_pauses WHERE project_id = ? AND verifier_id = ? AND paused = 1`

// plantPaused refuses a new claims when the lead's rule paused them in the
// project.
func plantPaused(ctx context.Context, tx *sql.Tx, projectID int64, a bench.User) error {
	var reason string
	err := tx.QueryRowContext(ctx, plantPausedSQL, projectID, a.ID).Scan(&reason)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return errPaused(reason)
}

// PlantedStatus gives a lead the figures of a project's planting: per verifier
// and round the planted copies seen, caught, partly caught and missed, false
// alarms on clean copies, and the rates with exact intervals (plant.Figures); the
// panel's catch per round; who is paused. Anyone else is refused (audited).
func (d *DB) PlantedStatus(ctx context.Context, actor bench.User, projectID int64) (bench.PlantStatus, error) {
	var out bench.PlantStatus
	err := d.readAs(ctx, actor, "planted.status", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionChangeSettings); err != nil {
			return err
		}
		rs, err := plantReviews(ctx, tx, projectID, 0, "")
		if err != nil {
			return err
		}
		out = bench.NewPlantStatus(rs)
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM planted WHERE project_id = ? AND review_id IS NULL`, projectID).Scan(&out.Pending); err != nil {
			return err
		}
		out.Paused, err = queryAll(ctx, tx, func(r scanner) (bench.PlantPause, error) {
			var p bench.PlantPause
			return p, r.Scan(&p.Verifier, &p.Reason)
		}, `SELECT u.name, p.reason FROM plant_pauses p JOIN users u ON u.id = p.verifier_id WHERE p.project_id = ? AND p.paused = 1 ORDER BY u.name`, projectID)
		return err
	})
	if err != nil {
		return bench.PlantStatus{}, fmt.Errorf("planting status: %w", err)
	}
	return out, nil
}

// PlantedList gives a lead every planted copy of a project: its origin,
// mutation, verifier, round and outcome. Anyone else is refused (audited).
func (d *DB) PlantedList(ctx context.Context, actor bench.User, projectID int64) ([]bench.PlantedItem, error) {
	var out []bench.PlantedItem
	err := d.readAs(ctx, actor, "planted.list", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionChangeSettings); err != nil {
			return err
		}
		var err error
		out, err = queryAll(ctx, tx, func(r scanner) (bench.PlantedItem, error) {
			var x bench.PlantedItem
			return x, r.Scan(&x.SampleID, &x.Origin, &x.Mutation, &x.Verifier, &x.Round, &x.Created, &x.Outcome, &x.Reviewed)
		}, `SELECT p.sample_id, p.origin_id, p.mutation, u.name, p.round, p.created_at, p.outcome, COALESCE(p.reviewed_at, '')
			FROM planted p JOIN users u ON u.id = p.verifier_id WHERE p.project_id = ? ORDER BY p.created_at, p.sample_id`, projectID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("planted items: %w", err)
	}
	if out == nil {
		out = []bench.PlantedItem{}
	}
	return out, nil
}

// PlantResume lets a verifier the pause rule stopped claim again; only a lead
// may. Their figures for the rule start again from now.
func (d *DB) PlantResume(ctx context.Context, actor bench.User, projectID int64, verifier string) error {
	err := d.act(ctx, actor, "planted.resume", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionChangeSettings)
		if err != nil {
			return err
		}
		u, err := userByName(ctx, tx, strings.TrimSpace(verifier))
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE plant_pauses SET paused = 0, reason = '', since = ? WHERE project_id = ? AND verifier_id = ? AND paused = 1`,
			d.now(), projectID, u.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: %s is not paused", bench.ErrInvalid, u.Name)
		}
		pr, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "planted.resume", "planted", pr.Name, "resumed "+u.Name)
	})
	if err != nil {
		return fmt.Errorf("resume %s: %w", verifier, err)
	}
	return nil
}

// isPlantedCopy tells whether sample id is a planted copy; a failed read says no.
func isPlantedCopy(ctx context.Context, tx *sql.Tx, id string) bool {
	_, ok, _ := plantedOf(ctx, tx, id)
	return ok
}

// notPlanted is the condition that leaves planted copies out of a query on
// samples, col naming the sample's id: the rebuilds of the summaries and of the
// search (stats.go, manager.go). It is empty in the Go parts of the migrations
// before 29, which run before the table planted exists.
func notPlanted(ctx context.Context, col string) string {
	if ctx.Value(beforePlanting{}) != nil {
		return ""
	}
	return ` AND NOT EXISTS (SELECT 1 FROM planted pl WHERE pl.sample_id = ` + col + `)`
}

// beforePlanting marks the context of a migration's Go part older than 29.
type beforePlanting struct{}

// plantedMigration is the migration that made the table planted.
const plantedMigration = 29

// The Go parts of the earlier migrations run without the table (the files
// that register them, import_batches.go, manager.go, members.go, come before
// this one, and stats.go's is its variable's).
func init() {
	for n, f := range afterMigration {
		if n < plantedMigration {
			afterMigration[n] = func(d *DB, ctx context.Context, tx *sql.Tx) error {
				return f(d, context.WithValue(ctx, beforePlanting{}, true), tx)
			}
		}
	}
}
