package store

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// checkOrder is the checks of the integrity audit (bench.Check…) in report order.

var checkOrder = []string{bench.CheckLint, bench.CheckTrail, bench.CheckImageMissing, bench.CheckImageHash, bench.CheckDuplicate, bench.CheckSplit, bench.CheckNearDuplicate, bench.CheckAnswerPosition, bench.CheckOptionLength, bench.CheckBalance}

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
	in, err := d.auditInput(ctx, actor, "audit", projectID, releaseFilter{})
	if err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	hashes, err := hashImages(ctx, in.images, nil)
	if err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	return in.report(hashes), nil
}

// releaseFilter narrows the samples of a release; empty lists do not filter.
type releaseFilter struct {
	Kinds []annotate.Kind `json:"kinds,omitempty"`
	Tasks []string        `json:"tasks,omitempty"`
}

func (f releaseFilter) takes(s annotate.Sample) bool {
	return (len(f.Kinds) == 0 || slices.Contains(f.Kinds, s.Kind)) && (len(f.Tasks) == 0 || slices.Contains(f.Tasks, s.Task))
}

// covers reports whether balance target t is about samples the filter takes.
func (f releaseFilter) covers(t bench.BalanceTarget) bool {
	return (len(f.Kinds) == 0 || slices.Contains(f.Kinds, annotate.Kind(t.Kind))) &&
		(len(f.Tasks) == 0 || t.Task == "" || slices.Contains(f.Tasks, t.Task))
}

// auditSample is one accepted sample with what the audit needs to know of it.
type auditSample struct {
	ID             string
	AuthorID       int64
	RevisionID     int64
	RevisionAuthor int64
	Content        annotate.Sample
	Reviews        []verify.Review           // of the current revision, oldest first (auditReviews)
	Sampled        *verify.SampledAcceptance // accepted by sampling (validation.go), else nil
}

// auditData is what the audit reads from the database in one transaction.
type auditData struct {
	project bench.Project
	filter  releaseFilter
	samples []auditSample          // by id
	images  map[string]bench.Image // by path; an image the project lacks is absent
	// accepted is every accepted sample of the project, filtered or not, with its
	// current revision id: what a freeze compares before writing.
	accepted map[string]int64
	// phash is the perceptual hash of the images that have one, by path
	// (completeImageHashes gives one to those imported before migration 28).
	phash map[string]uint64
	// notAlike are the pairs of images whose hashes are close but whose
	// thumbnails differ (store/neardup.go): no near-duplicates.
	notAlike map[[2]string]bool
}

// auditInput reads the accepted samples that filter takes, in one transaction,
// checking that actor is a lead.
func (d *DB) auditInput(ctx context.Context, actor bench.User, action string, projectID int64, filter releaseFilter) (auditData, error) {
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
		return in, err
	}
	return in, d.nearInput(ctx, &in)
}

func (d *DB) loadAudit(ctx context.Context, tx *sql.Tx, projectID int64, filter releaseFilter) (auditData, error) {
	in := auditData{filter: filter, images: map[string]bench.Image{}}
	p, err := scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, projectID))
	if errors.Is(err, sql.ErrNoRows) {
		return in, fmt.Errorf("%w: project %d", bench.ErrNotFound, projectID)
	}
	if err != nil {
		return in, err
	}
	in.project = p
	var raws []rawRevision
	all, err := queryAll(ctx, tx, func(r scanner) (auditSample, error) {
		var s auditSample
		var content string
		err := r.Scan(&s.ID, &s.AuthorID, &s.RevisionID, &s.RevisionAuthor, &content)
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
	reviews, err := auditReviews(ctx, tx, projectID)
	if err != nil {
		return in, err
	}
	var images map[string]bench.Image
	in.accepted, images, err = acceptedSelection(ctx, tx, projectID)
	if err != nil {
		return in, err
	}
	sampled, err := sampledAcceptances(ctx, tx, projectID)
	if err != nil {
		return in, err
	}
	if in.phash, err = imageHashes(ctx, tx, projectID); err != nil {
		return in, err
	}
	for _, s := range all {
		if !filter.takes(s.Content) {
			continue
		}
		s.Reviews = reviews[s.ID]
		if a, ok := sampled[s.ID]; ok {
			s.Sampled = &a
		}
		in.samples = append(in.samples, s)
		for _, p := range s.Content.AllImages() {
			if im, ok := images[p]; ok {
				in.images[p] = im
			}
		}
	}
	return in, nil
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

// imageCheck is the outcome of re-hashing one image file.
type imageCheck struct {
	missing bool
	sha256  string
}

// hashImages re-hashes the image files on all cores, calling progress (when not nil)
// with the number of files hashed so far and their total, from the hashing goroutines.
func hashImages(ctx context.Context, images map[string]bench.Image, progress func(done, total int)) (map[string]imageCheck, error) {
	paths := make([]string, 0, len(images))
	for p := range images {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := make([]imageCheck, len(paths))
	errs := make([]error, len(paths))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var done atomic.Int64
	for range min(runtime.NumCPU(), 4) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				p := images[paths[i]].Path()
				errs[i] = caught("hash "+p, func() (err error) { out[i], err = hashImage(p); return err })
				if n := done.Add(1); progress != nil {
					progress(int(n), len(paths))
				}
			}
		}()
	}
	var cancelled error
	for i := range paths {
		if cancelled = ctx.Err(); cancelled != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if cancelled != nil {
		return nil, cancelled
	}
	res := make(map[string]imageCheck, len(paths))
	for i, p := range paths {
		if errs[i] != nil {
			return nil, fmt.Errorf("image %s: %w", p, errs[i])
		}
		res[p] = out[i]
	}
	return res, nil
}

func hashImage(path string) (imageCheck, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return imageCheck{missing: true}, nil
	}
	if err != nil {
		return imageCheck{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return imageCheck{}, err
	}
	return imageCheck{sha256: hex.EncodeToString(h.Sum(nil))}, nil
}

// report runs every check on what was read and hashed.
func (in auditData) report(hashes map[string]imageCheck) bench.AuditReport {
	r := bench.AuditReport{Samples: len(in.samples), Images: len(hashes)}
	add := func(sev, check, sample, image, format string, args ...any) {
		r.Findings = append(r.Findings, bench.AuditFinding{Severity: sev, Check: check, SampleID: sample, Image: image, Message: fmt.Sprintf(format, args...)})
	}
	policy := in.project.Settings.Policy()
	usedBy := map[string][]string{}
	contents := make([]annotate.Sample, len(in.samples))
	for i, s := range in.samples {
		contents[i] = s.Content
	}
	imageSize := func(p string) (int, int, bool) {
		im, known := in.images[p]
		return im.Width, im.Height, known
	}
	lint := annotate.LintErrors(contents, func(s annotate.Sample) annotate.LintEnv {
		return annotate.LintEnv{HandWritten: s.Parent == "", ImageSize: imageSize, ImageLimits: in.project.Settings.ImageLimits}
	})
	for i, s := range in.samples {
		for _, img := range s.Content.AllImages() {
			if img != "" && !slices.Contains(usedBy[img], s.ID) {
				usedBy[img] = append(usedBy[img], s.ID)
			}
		}
		for _, text := range lint[i] {
			add(bench.SeverityError, bench.CheckLint, s.ID, "", "%s", text)
		}
		for _, msg := range verify.AcceptedTrail(policy, uid(s.AuthorID), uid(s.RevisionAuthor), s.Sampled, s.Reviews) {
			add(bench.SeverityError, bench.CheckTrail, s.ID, "", "%s", msg)
		}
	}
	paths := make([]string, 0, len(usedBy))
	for p := range usedBy {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		who := strings.Join(usedBy[p], ", ")
		im, known := in.images[p]
		h := hashes[p]
		switch {
		case !known:
			add(bench.SeverityError, bench.CheckImageMissing, "", p, "image %s is not in the project (used by %s)", p, who)
		case h.missing:
			add(bench.SeverityError, bench.CheckImageMissing, "", p, "image file %s is missing (used by %s)", im.Path(), who)
		case h.sha256 != im.SHA256:
			add(bench.SeverityError, bench.CheckImageHash, "", p, "image file %s changed since import: sha256 %s…, imported %s… (used by %s)",
				im.Path(), h.sha256[:12], im.SHA256[:min(12, len(im.SHA256))], who)
		}
	}
	near := shortcut.Confirmed(shortcut.NearDuplicates(contents, in.phash, in.project.Settings.NearDistance()), in.notAlike)
	for _, ids := range annotate.DuplicateQuestions(shortcut.SameImages(contents, near)) {
		for _, id := range ids {
			s := in.sample(id)
			add(bench.SeverityError, bench.CheckDuplicate, id, s.Content.Image, "the same question as %s on %s%s: %q",
				strings.Join(slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id }), ", "),
				imagesPhrase(s.Content), nearImagesPhrase(in, ids, s), s.Content.Question)
			r.Findings[len(r.Findings)-1].Group = ids
		}
	}
	for _, img := range annotate.SplitOverlap(contents) {
		var train, test []string
		for _, s := range in.samples {
			if slices.Contains(s.Content.AllImages(), img) {
				switch s.Content.Split {
				case annotate.SplitTrain:
					train = append(train, s.ID)
				case annotate.SplitTest:
					test = append(test, s.ID)
				}
			}
		}
		add(bench.SeverityError, bench.CheckSplit, "", img, "image %s is in train (%s) and in test (%s)", img, strings.Join(train, ", "), strings.Join(test, ", "))
	}
	for _, nd := range near {
		if nd.Cross {
			add(bench.SeverityError, bench.CheckNearDuplicate, "", nd.A, "%s, in two splits: a model trained on one is tested on the other (a perceptual-hash heuristic: look at both)", nd.Describe())
		} else {
			add(bench.SeverityWarning, bench.CheckNearDuplicate, "", nd.A, "%s (a perceptual-hash heuristic: look at both)", nd.Describe())
		}
	}
	for _, t := range in.project.Settings.Balance {
		if t.Count == 0 || !in.filter.covers(t) {
			continue
		}
		n := 0
		for _, c := range contents {
			if string(c.Kind) == t.Kind && (t.Hop == 0 || c.Hop == t.Hop) && (t.View == "" || string(c.View) == t.View) && (t.Task == "" || c.Task == t.Task) {
				n++
			}
		}
		if n < t.Count {
			add(bench.SeverityWarning, bench.CheckBalance, "", "", "%s: %d of %d accepted, %d short", t.Words(), n, t.Count, t.Count-n)
		}
	}
	// Shortcuts a model could take without looking (issue 29, checks 1 and 2):
	// warnings, per task, with the samples that drive them.
	for _, res := range shortcut.Balance(contents, shortcut.Options{}) {
		if res.Finding {
			add(bench.SeverityWarning, res.Check, "", "", "task %s: %s (%s)", res.Task, res.Detail, plural(len(res.Samples), "sample"))
		}
	}
	slices.SortStableFunc(r.Findings, func(a, b bench.AuditFinding) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			cmp.Compare(slices.Index(checkOrder, a.Check), slices.Index(checkOrder, b.Check)),
			cmp.Compare(a.SampleID, b.SampleID),
			cmp.Compare(a.Image, b.Image),
		)
	})
	return r
}

func severityRank(s string) int {
	if s == bench.SeverityError {
		return 0
	}
	return 1
}

func (in auditData) sample(id string) auditSample {
	i := slices.IndexFunc(in.samples, func(s auditSample) bool { return s.ID == id })
	return in.samples[i]
}

// imagesPhrase names a sample's images in a finding: "image a.jpg", or "images
// a.jpg, b.jpg in this order" for a sequence.
func imagesPhrase(s annotate.Sample) string {
	all := s.AllImages()
	if len(all) <= 1 {
		return "image " + s.Image
	}
	return "images " + strings.Join(all, ", ") + " in this order"
}

// nearImagesPhrase names, for a duplicate-question finding about s, the other
// samples' images that differ from s's (near-duplicates of them): ", near-duplicate
// of b.jpg (s2)", or nothing when every sample of ids shows s's images.
func nearImagesPhrase(in auditData, ids []string, s auditSample) string {
	var others []string
	for _, id := range ids {
		o := in.sample(id).Content
		if id != s.ID && !slices.Equal(o.AllImages(), s.Content.AllImages()) {
			others = append(others, fmt.Sprintf("%s (%s)", strings.Join(o.AllImages(), ", "), id))
		}
	}
	if len(others) == 0 {
		return ""
	}
	return ", near-duplicate of " + strings.Join(others, "; ")
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
