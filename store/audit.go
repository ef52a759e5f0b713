package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// Audit checks a project's accepted samples before a freeze: every sample passes
// lint; every image exists and its SHA-256 matches the import's; no two samples ask
// the same normalised question about one image (or about near-duplicate images);
// every sample has the verification
// trail the project's policy requires (approved in rounds 1 and 2, a unanimous
// round-3 panel, nobody reviewing their own work); if samples carry a split, no image
// is in both train and test, nor two near-duplicate images (perceptual hashes
// within the project's distance: shortcut.NearDuplicates) in two splits (within
// one split a warning); balance targets are met (shortfalls are warnings). Only
// a lead may audit. The database is read in one transaction; the image files are then
// hashed outside it, so that a long audit does not hold the database.
func (d *DB) Audit(ctx context.Context, actor bench.User, projectID int64) (bench.AuditReport, error) {
	in, hashing, err := d.auditInput(ctx, actor, "audit", projectID, bench.ReleaseFilter{}, nil)
	if err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	hashes, err := hashing.wait()
	if err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	return in.Report(hashes), nil
}

// auditData is what the audit reads from the database in one transaction.
type auditData struct {
	bench.AuditSelection
	// accepted is every accepted sample of the project, filtered or not, with its
	// current revision id: what a freeze compares before writing.
	accepted map[string]int64
}

// auditInput reads the accepted samples that filter takes, in one transaction,
// checking that actor is a lead, and starts hashing their image files
// (startHashing, progress as hashImages calls it), which goes on while the
// near-duplicate check reads thumbnails and the caller splits. The caller
// waits for the hashes or stops the hashing (imageHashing).
func (d *DB) auditInput(ctx context.Context, actor bench.User, action string, projectID int64, filter bench.ReleaseFilter,
	progress func(done, total int)) (auditData, *imageHashing, error) {
	var in auditData
	err := d.act(ctx, actor, action, func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAuditRelease); err != nil {
			return err
		}
		var err error
		in, err = d.loadAudit(ctx, tx, projectID, filter)
		return err
	})
	if err != nil {
		return in, nil, err
	}
	if progress != nil {
		progress(0, len(in.Images))
	}
	hashing := startHashing(ctx, in.Images, progress)
	if err := d.nearInput(ctx, &in); err != nil {
		hashing.stop()
		return in, nil, err
	}
	return in, hashing, nil
}

func (d *DB) loadAudit(ctx context.Context, tx *sql.Tx, projectID int64, filter bench.ReleaseFilter) (auditData, error) {
	in := auditData{AuditSelection: bench.AuditSelection{Filter: filter, Images: map[string]bench.Image{}}}
	p, err := scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, projectID))
	if errors.Is(err, sql.ErrNoRows) {
		return in, fmt.Errorf("%w: project %d", bench.ErrNotFound, projectID)
	}
	if err != nil {
		return in, err
	}
	in.Settings = p.Settings
	// On PostgreSQL the reviews, the accepted selection and the hashes are read
	// beside (besideReads) while this connection reads the samples and Go
	// decodes them: at 11,801 accepted samples, 280 ms of the server's work
	// beside 143 of it and 354 of decoding. The two see one state: the caller's
	// write transaction holds the database's lock (inTx), so no writer commits
	// between the snapshot lent and this connection's reads.
	var (
		rest     auditRest
		restErr  error
		restDone chan struct{}
	)
	side := d.besideOf(tx)
	defer side.close()
	if btx := side.open(ctx); btx != nil {
		restDone = make(chan struct{})
		go func() {
			defer close(restDone)
			rest, restErr = readAuditRest(ctx, btx, projectID)
		}()
		defer func() { <-restDone }() // before side.close
	}
	var raws []rawRevision
	all, err := queryAll(ctx, tx, func(r scanner) (bench.AuditSample, error) {
		var s bench.AuditSample
		var content string
		var author, revAuthor int64
		err := r.Scan(&s.ID, &author, &s.RevisionID, &revAuthor, &content)
		s.Author, s.RevisionAuthor = uid(author), uid(revAuthor)
		raws = append(raws, rawRevision{s.RevisionID, content})
		return s, err
	}, `SELECT s.id, s.author_id, r.id, r.author_id, r.content FROM samples s JOIN revisions r ON r.id = s.current_rev
		WHERE s.project_id = ? AND s.status = ? ORDER BY s.id`, projectID, string(verify.StateAccepted))
	if err != nil {
		return in, err
	}
	// Each content decoded once (on all cores), and kept for the freeze and
	// export that follow (decodedRevisions).
	contents, bad, err := decodeRevisions(ctx, raws, d.decoded.known())
	if err != nil {
		if bad >= 0 {
			return in, fmt.Errorf("decode sample %s: %w", all[bad].ID, err)
		}
		return in, err
	}
	keep, size := make(map[int64]annotate.Sample, len(all)), 0
	for i := range all {
		all[i].Content = contents[i]
		keep[all[i].RevisionID] = contents[i]
		size += len(raws[i].content)
	}
	d.decoded.keep(keep, size)
	if restDone != nil {
		<-restDone
	} else {
		rest, restErr = readAuditRest(ctx, tx, projectID)
	}
	if restErr != nil {
		return in, restErr
	}
	reviews, images, sampled := rest.reviews, rest.images, rest.sampled
	in.accepted, in.PHash = rest.accepted, rest.phash
	for _, s := range all {
		if !filter.Takes(s.Content) {
			continue
		}
		s.Reviews = reviews[s.ID]
		if a, ok := sampled[s.ID]; ok {
			s.Sampled = &a
		}
		in.Samples = append(in.Samples, s)
		for _, p := range s.Content.AllImages() {
			if im, ok := images[p]; ok {
				in.Images[p] = im
			}
		}
	}
	return in, nil
}

// auditRest is what loadAudit reads besides the samples.
type auditRest struct {
	reviews  map[string][]verify.Review
	accepted map[string]int64
	images   map[string]bench.Image
	sampled  map[string]verify.SampledAcceptance
	phash    map[string]uint64
}

// readAuditRest reads the reviews of the project's accepted samples, its
// accepted selection with their images, the samples accepted by sampling and
// the images' perceptual hashes, in tx.
func readAuditRest(ctx context.Context, tx *sql.Tx, projectID int64) (r auditRest, err error) {
	if r.reviews, err = auditReviews(ctx, tx, projectID); err != nil {
		return r, err
	}
	if r.accepted, r.images, err = acceptedSelection(ctx, tx, projectID); err != nil {
		return r, err
	}
	if r.sampled, err = sampledAcceptances(ctx, tx, projectID); err != nil {
		return r, err
	}
	r.phash, err = imageHashes(ctx, tx, projectID)
	return r, err
}

// auditReviews reads what the trail check needs of the reviews of the current
// revision of every accepted sample of a project (round, verifier, decision;
// no criteria or reasons to decode), oldest first, by sample id, in one query.
func auditReviews(ctx context.Context, tx *sql.Tx, projectID int64) (map[string][]verify.Review, error) {
	rows, err := tx.QueryContext(ctx, `SELECT rv.sample_id, rv.round, rv.verifier_id, u.name, rv.decision
		FROM reviews rv JOIN samples s ON s.current_rev = rv.revision_id JOIN users u ON u.id = rv.verifier_id
		WHERE s.project_id = ? AND s.status = ? ORDER BY rv.id`, projectID, string(verify.StateAccepted))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	by := map[string][]verify.Review{}
	for rows.Next() {
		var sample, name, decision string
		var round int
		var verifier int64
		if err := rows.Scan(&sample, &round, &verifier, &name, &decision); err != nil {
			return nil, err
		}
		by[sample] = append(by[sample], verify.Review{Round: round, Reviewer: uid(verifier), Name: name, Decision: verify.Decision(decision)})
	}
	return by, rows.Err()
}

// acceptedSelection reads the current revision of every accepted sample of a project
// and every image of the project (by path), the two things a freeze checks have not
// changed between its audit and its write.
func acceptedSelection(ctx context.Context, tx *sql.Tx, projectID int64) (map[string]int64, map[string]bench.Image, error) {
	accepted := map[string]int64{}
	rows, err := tx.QueryContext(ctx, `SELECT id, current_rev FROM samples WHERE project_id = ? AND status = ?`,
		projectID, string(verify.StateAccepted))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rev int64
		if err := rows.Scan(&id, &rev); err != nil {
			return nil, nil, err
		}
		accepted[id] = rev
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	ims, err := queryAll(ctx, tx, scanImage, `SELECT `+imageCols+` FROM images i JOIN image_roots r ON r.id = i.root_id
		WHERE i.project_id = ?`, projectID)
	if err != nil {
		return nil, nil, err
	}
	images := make(map[string]bench.Image, len(ims))
	for _, im := range ims {
		images[im.RelPath] = im
	}
	return accepted, images, nil
}

// imageHashing is hashImages under way on goroutines of its own, while its
// caller does other work (the near-duplicate check's thumbnails, the split:
// at 11,801 samples they and the hashing took 180 and 150 ms one after the
// other). images must not change until it ends.
type imageHashing struct {
	done   chan struct{}
	cancel context.CancelFunc
	hashes map[string]bench.ImageCheck
	err    error
}

// startHashing starts hashImages(images, progress).
func startHashing(ctx context.Context, images map[string]bench.Image, progress func(done, total int)) *imageHashing {
	ctx, cancel := context.WithCancel(ctx)
	h := &imageHashing{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(h.done)
		h.hashes, h.err = hashImages(ctx, images, progress)
	}()
	return h
}

// wait returns hashImages' result once it has ended.
func (h *imageHashing) wait() (map[string]bench.ImageCheck, error) {
	<-h.done
	h.cancel()
	return h.hashes, h.err
}

// stop ends the hashing, for a caller that returns without its result; after
// wait it does nothing.
func (h *imageHashing) stop() {
	h.cancel()
	<-h.done
}

// hashImages re-hashes the image files (imagefile.HashFiles over the relative
// paths, each file's panic caught as an error), by relative path, calling progress (when not nil) with the number of
// files hashed so far and their total, from the hashing goroutines.
func hashImages(ctx context.Context, images map[string]bench.Image, progress func(done, total int)) (map[string]bench.ImageCheck, error) {
	rels := slices.Sorted(maps.Keys(images))
	hashes, err := imagefile.HashFiles(ctx, rels, func(rel string) (h imagefile.Hash, err error) {
		p := images[rel].Path()
		err = caught("hash "+p, func() (err error) { h, err = imagefile.HashFile(p); return err })
		return h, err
	}, progress)
	if err != nil {
		return nil, fmt.Errorf("image %w", err) // "image a/b.jpg: …"
	}
	res := make(map[string]bench.ImageCheck, len(rels))
	for i, p := range rels {
		res[p] = bench.ImageCheck{Missing: hashes[i].Missing, SHA256: hashes[i].SHA256}
	}
	return res, nil
}

// WithdrawDuplicates resolves a duplicate-question finding: it keeps the accepted
// sample keep of project projectID and withdraws, in one transaction, every other
// accepted sample that asks the same question about the same images, or about
// near-duplicates of them (annotate.DuplicateQuestions over
// shortcut.SameImages, the audit's own grouping). Only a lead may; reason
// is required and audited with each withdrawal, which names the sample kept. A
// sample that has no duplicate among the accepted ones is refused (ErrInvalid):
// there is nothing to resolve, and a stale finding must not withdraw anything.
func (d *DB) WithdrawDuplicates(ctx context.Context, actor bench.User, projectID int64, keep, reason string) (bench.SelectionResult, error) {
	var out bench.SelectionResult
	reason = strings.TrimSpace(reason)
	err := d.act(ctx, actor, "samples.withdraw-duplicates", func(tx *sql.Tx) error {
		out = bench.SelectionResult{}
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionAuditRelease)
		if err != nil {
			return err
		}
		if reason == "" {
			return fmt.Errorf("%w: say why the duplicates are withdrawn", bench.ErrInvalid)
		}
		accepted, err := queryAll(ctx, tx, func(r scanner) (annotate.Sample, error) {
			var id, content string
			var s annotate.Sample
			if err := r.Scan(&id, &content); err != nil {
				return s, err
			}
			if err := json.Unmarshal([]byte(content), &s); err != nil {
				return s, fmt.Errorf("decode sample %s: %w", id, err)
			}
			s.ID = id
			return s, nil
		}, `SELECT s.id, r.content FROM samples s JOIN revisions r ON r.id = s.current_rev
			WHERE s.project_id = ? AND s.status = ? ORDER BY s.id`, projectID, string(verify.StateAccepted))
		if err != nil {
			return err
		}
		p, err := scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, projectID))
		if err != nil {
			return err
		}
		hashes, err := imageHashes(ctx, tx, projectID)
		if err != nil {
			return err
		}
		_, images, err := acceptedSelection(ctx, tx, projectID)
		if err != nil {
			return err
		}
		dist := p.Settings.NearDistance()
		near := shortcut.Confirmed(shortcut.NearDuplicates(accepted, hashes, dist), d.notAlike(images, hashes, dist))
		var group []string
		for _, ids := range annotate.DuplicateQuestions(shortcut.SameImages(accepted, near)) {
			if slices.Contains(ids, keep) {
				group = ids
			}
		}
		if group == nil {
			return fmt.Errorf("%w: %s is not an accepted sample with a duplicate question; run the audit again", bench.ErrInvalid, keep)
		}
		for _, id := range group {
			if id == keep {
				continue
			}
			err := d.leadMoveTx(ctx, tx, a, id, verify.EventWithdraw, fmt.Sprintf("%s (the same question as %s, which is kept)", reason, keep))
			switch {
			case err == nil:
				out.Done = append(out.Done, id)
			case errors.Is(err, bench.ErrForbidden) || errors.Is(err, bench.ErrNotFound):
				out.Refused = append(out.Refused, bench.Refusal{SampleID: id, Reason: bench.Message(err)})
			default:
				return err
			}
		}
		return d.auditRefusals(ctx, tx, a, "samples.withdraw", out.Refused)
	})
	if err != nil {
		return bench.SelectionResult{}, fmt.Errorf("withdraw the duplicates of %s: %w", keep, err)
	}
	return out, nil
}
