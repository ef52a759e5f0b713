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

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/sampling"
	"github.com/benchwright/benchwright/verify"
)

// Sampled validation of generated sets (PCSR-Bench §3.2): a lead imports a
// machine-made set as a batch, which is audited on import; draws a seeded
// stratified sample whose items enter round 1 and are verified like any other;
// and, when the error rate's upper bound is below the threshold
// (sampling.CheckAcceptRest), accepts the unsampled rest in one audited action.
// How the items wait and move is verify's (verify/sampled.go).

// CheckIDTaken is bench.CheckIDTaken, the import audit's finding for a record
// whose id is taken (kept for bwctl's and the tests' callers).
const CheckIDTaken = bench.CheckIDTaken

// ImportBatch imports a generated set as a batch, running the integrity audit's
// checks on every record first: lint (schema, values, answer format), the image
// is the project's and its file still has the imported SHA-256, no two records
// and no sample of the project ask the same question about one image, the id is
// free. Records with a finding are left out and listed; the rest wait in the
// batch, outside the protocol, until they are drawn or accepted by sampling.
// Only a lead may. Records are linted and images hashed with no transaction
// open.
func (d *DB) ImportBatch(ctx context.Context, actor bench.User, in bench.ImportBatchInput) (bench.ImportBatchResult, error) {
	res, err := d.importBatch(ctx, actor, in)
	if err != nil {
		return bench.ImportBatchResult{}, fmt.Errorf("import batch %s: %w", in.Name, err)
	}
	return res, nil
}

func (d *DB) importBatch(ctx context.Context, actor bench.User, in bench.ImportBatchInput) (bench.ImportBatchResult, error) {
	if err := validReleaseWord("batch name", in.Name, 64); err != nil {
		return bench.ImportBatchResult{}, err
	}
	if len(in.Records) == 0 {
		return bench.ImportBatchResult{}, fmt.Errorf("%w: the file holds no records", bench.ErrInvalid)
	}
	var (
		sizes    map[string]bench.Dimensions
		images   map[string]bench.Image
		existing []annotate.Sample
		taken    map[string]bool
	)
	err := d.readAs(ctx, actor, "batch.import", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, in.ProjectID, verify.ActionValidateBatches)
		if err != nil {
			return err
		}
		if _, err := batchAuthor(ctx, tx, a, in.ProjectID, in.Author); err != nil {
			return err
		}
		if sizes, err = projectImageSizes(ctx, tx, in.ProjectID); err != nil {
			return err
		}
		if _, images, err = acceptedSelection(ctx, tx, in.ProjectID); err != nil {
			return err
		}
		existing, taken, err = projectQuestions(ctx, tx, in.ProjectID)
		return err
	})
	if err != nil {
		return bench.ImportBatchResult{}, err
	}

	// The audit, outside any transaction.
	audit, err := bench.NewBatchAudit(ctx, in, taken, sizes, images)
	if err != nil {
		return bench.ImportBatchResult{}, err
	}
	hashes, err := hashImages(ctx, audit.Used, nil)
	if err != nil {
		return bench.ImportBatchResult{}, err
	}
	audit.CheckHashes(hashes)
	audit.CheckDuplicates(existing)
	res := bench.ImportBatchResult{Findings: audit.Findings()}

	err = d.act(ctx, actor, "batch.import", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, in.ProjectID, verify.ActionValidateBatches)
		if err != nil {
			return err
		}
		author, err := batchAuthor(ctx, tx, a, in.ProjectID, in.Author)
		if err != nil {
			return err
		}
		findings, _ := json.Marshal(res.Findings)
		now := d.now()
		var batchID int64
		err = tx.QueryRowContext(ctx, `INSERT INTO validation_batches (project_id, name, source, author_id, imported_by, imported_at, findings)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`, in.ProjectID, in.Name, in.Source, author.ID, a.ID, now, string(findings)).Scan(&batchID)
		if err != nil {
			if isUniqueViolation(err) {
				return fmt.Errorf("%w: the project has a batch named %q already", bench.ErrConflict, in.Name)
			}
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO validation_items (batch_id, line, sample_id, content, warnings) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		n := 0
		for i, rec := range in.Records {
			if audit.LeftOut(i) {
				continue
			}
			if ok, err := stillHolds(ctx, tx, in.ProjectID, audit.Checks[i]); err != nil {
				return err
			} else if !ok {
				return errImagesChanged
			}
			var clash int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM samples WHERE id = ?`, rec.Sample.ID).Scan(&clash); err != nil {
				return err
			}
			if clash > 0 {
				return fmt.Errorf("%w: sample %s was created meanwhile; import again", bench.ErrConflict, rec.Sample.ID)
			}
			content, err := json.Marshal(annotate.TidyText(rec.Sample))
			if err != nil {
				return err
			}
			if _, err := ins.ExecContext(ctx, batchID, rec.Line, rec.Sample.ID, string(content), strings.Join(audit.Checks[i].Warns, ",")); err != nil {
				if isUniqueViolation(err) {
					return fmt.Errorf("%w: item %s was imported by another batch meanwhile; import again", bench.ErrConflict, rec.Sample.ID)
				}
				return err
			}
			if w := audit.Checks[i].Warns; len(w) > 0 {
				res.Warnings = append(res.Warnings, bench.ImportProblem{Line: rec.Line, ID: rec.Sample.ID, Rules: w,
					Message: "imported with lint warnings: " + strings.Join(w, ", ")})
			}
			n++
		}
		if err := d.audit(ctx, tx, a.ID, "batch.import", "batch", in.Name, fmt.Sprintf("project %d, %d generated items from %s (author %s); %d left out by the import audit",
			in.ProjectID, n, cmp.Or(in.Source, "a file"), author.Name, len(in.Records)-n)); err != nil {
			return err
		}
		res.Batch, err = batchByName(ctx, tx, in.ProjectID, in.Name)
		return err
	})
	if err != nil {
		return bench.ImportBatchResult{}, err
	}
	return res, nil
}

// batchAuthor resolves whose samples a batch's items become.
func batchAuthor(ctx context.Context, tx *sql.Tx, a bench.User, projectID int64, name string) (bench.User, error) {
	if name == "" || name == a.Name {
		return a, nil
	}
	u, err := userByName(ctx, tx, name)
	if err != nil {
		return bench.User{}, fmt.Errorf("author %q: %w", name, err)
	}
	return projectAuthor(ctx, tx, u, projectID)
}

// projectQuestions reads the content of every sample of the project that is not
// withdrawn (for the duplicate check) and every id taken by a sample or a
// batch item.
func projectQuestions(ctx context.Context, tx *sql.Tx, projectID int64) ([]annotate.Sample, map[string]bool, error) {
	type row struct {
		id, content string
		live        bool
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.content, &x.live)
	}, `SELECT id, draft, status != ? FROM samples WHERE project_id = ?
		UNION ALL SELECT vi.sample_id, vi.content, vi.draw = 0 AND vi.by_sampling = 0 FROM validation_items vi
		JOIN validation_batches b ON b.id = vi.batch_id WHERE b.project_id = ?`, string(verify.StateWithdrawn), projectID, projectID)
	if err != nil {
		return nil, nil, err
	}
	taken := map[string]bool{}
	var out []annotate.Sample
	for _, x := range rows {
		taken[x.id] = true
		if !x.live {
			continue // a withdrawn sample, or an item that is a sample now (counted as one)
		}
		var s annotate.Sample
		if err := json.Unmarshal([]byte(x.content), &s); err != nil {
			return nil, nil, fmt.Errorf("decode %s: %w", x.id, err)
		}
		s.ID = x.id
		out = append(out, s)
	}
	// Ids of other projects' samples are taken too (sample ids are global).
	others, err := queryAll(ctx, tx, scanString, `SELECT id FROM samples WHERE project_id != ? UNION ALL SELECT sample_id FROM validation_items`, projectID)
	if err != nil {
		return nil, nil, err
	}
	for _, id := range others {
		taken[id] = true
	}
	return out, taken, nil
}

const batchCols = `b.id, b.name, b.source, au.name, ib.name, b.imported_at, b.findings, b.stratify, b.seed, b.method, b.level, b.threshold,
	b.draws, COALESCE(ab.name, ''), b.accepted_at,
	(SELECT count(*) FROM validation_items WHERE batch_id = b.id),
	(SELECT count(*) FROM validation_items WHERE batch_id = b.id AND draw > 0),
	(SELECT count(*) FROM validation_items WHERE batch_id = b.id AND by_sampling = 1)`

const batchFrom = ` FROM validation_batches b JOIN users au ON au.id = b.author_id JOIN users ib ON ib.id = b.imported_by
	LEFT JOIN users ab ON ab.id = b.accepted_by`

func scanBatch(r scanner) (bench.ValidationBatch, error) {
	var b bench.ValidationBatch
	var findings, draws string
	if err := r.Scan(&b.ID, &b.Name, &b.Source, &b.Author, &b.ImportedBy, &b.ImportedAt, &findings, &b.Stratify, &b.Seed, &b.Method,
		&b.Level, &b.Threshold, &draws, &b.AcceptedBy, &b.AcceptedAt, &b.Items, &b.Sampled, &b.BySampling); err != nil {
		return b, err
	}
	if err := json.Unmarshal([]byte(findings), &b.Findings); err != nil {
		return b, fmt.Errorf("decode the findings of batch %s: %w", b.Name, err)
	}
	if err := json.Unmarshal([]byte(draws), &b.Draws); err != nil {
		return b, fmt.Errorf("decode the draws of batch %s: %w", b.Name, err)
	}
	return b, nil
}

func batchByName(ctx context.Context, tx *sql.Tx, projectID int64, name string) (bench.ValidationBatch, error) {
	b, err := scanBatch(tx.QueryRowContext(ctx, `SELECT `+batchCols+batchFrom+` WHERE b.project_id = ? AND b.name = ?`, projectID, name))
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("%w: no batch named %q in the project", bench.ErrNotFound, name)
	}
	return b, err
}

// ValidationBatches lists the project's batches, newest first. Verifiers and
// leads may.
func (d *DB) ValidationBatches(ctx context.Context, actor bench.User, projectID int64) ([]bench.ValidationBatch, error) {
	var out []bench.ValidationBatch
	err := d.readAs(ctx, actor, "batch.list", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSeeValidation); err != nil {
			return err
		}
		var err error
		out, err = queryAll(ctx, tx, scanBatch, `SELECT `+batchCols+batchFrom+` WHERE b.project_id = ? ORDER BY b.id DESC`, projectID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list batches: %w", err)
	}
	return out, nil
}

// DrawValidation draws (or enlarges) a batch's validation sample: the newly
// drawn items become samples of the batch's author in round 1, to be verified
// with the normal criteria. Only a lead may; the draw is audited with its seed
// and size rule.
func (d *DB) DrawValidation(ctx context.Context, actor bench.User, in bench.DrawInput) (bench.ValidationStatus, error) {
	var st bench.ValidationStatus
	err := d.act(ctx, actor, "batch.draw", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, in.ProjectID, verify.ActionValidateBatches)
		if err != nil {
			return err
		}
		b, err := batchByName(ctx, tx, in.ProjectID, in.Batch)
		if err != nil {
			return err
		}
		if b.AcceptedAt != "" {
			return fmt.Errorf("%w: the rest of batch %s was accepted on %s; its sample is closed", bench.ErrInvalid, b.Name, b.AcceptedAt)
		}
		pol, err := drawPolicy(b, in)
		if err != nil {
			return err
		}
		rule := sampling.SizeRule{PerStratum: in.PerStratum, Margin: in.Margin, Level: pol.Level, Expected: in.Expected}
		if err := rule.Check(); err != nil {
			return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
		}
		type item struct {
			line        int
			id, content string
			warns       string
			drawn       bool
		}
		items, err := queryAll(ctx, tx, func(r scanner) (item, error) {
			var x item
			return x, r.Scan(&x.line, &x.id, &x.content, &x.warns, &x.drawn)
		}, `SELECT line, sample_id, content, warnings, draw > 0 FROM validation_items WHERE batch_id = ? ORDER BY line`, b.ID)
		if err != nil {
			return err
		}
		contents := make([]annotate.Sample, len(items))
		strata := make([]string, len(items))
		for i, x := range items {
			if err := json.Unmarshal([]byte(x.content), &contents[i]); err != nil {
				return fmt.Errorf("decode item %s: %w", x.id, err)
			}
			strata[i] = sampling.StratumOf(pol.Stratify, contents[i])
		}
		chosen := sampling.Draw(strata, rule.Size(), pol.Seed)
		author, err := batchAuthor(ctx, tx, a, in.ProjectID, b.Author)
		if err != nil {
			return err
		}
		drawNo := len(b.Draws) + 1
		added := 0
		for _, i := range chosen {
			x := items[i]
			if x.drawn {
				continue
			}
			var warns []string
			if x.warns != "" {
				warns = strings.Split(x.warns, ",")
			}
			rec := annotate.Imported{Line: x.line, Sample: contents[i]}
			if err := d.insertImported(ctx, tx, a, author, in.ProjectID, rec, warns, true); err != nil {
				return fmt.Errorf("item %s: %w", x.id, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE validation_items SET draw = ? WHERE batch_id = ? AND line = ?`, drawNo, b.ID, x.line); err != nil {
				return err
			}
			if err := d.audit(ctx, tx, a.ID, "batch.sampled", "sample", x.id, fmt.Sprintf("drawn into the validation sample of batch %s (draw %d, stratum %s)", b.Name, drawNo, strata[i])); err != nil {
				return err
			}
			added++
		}
		if b.Stratify == "" {
			set, err := tx.PrepareContext(ctx, `UPDATE validation_items SET stratum = ? WHERE batch_id = ? AND line = ?`)
			if err != nil {
				return err
			}
			defer set.Close()
			for i, x := range items {
				if _, err := set.ExecContext(ctx, strata[i], b.ID, x.line); err != nil {
					return err
				}
			}
		}
		now := d.now()
		draws, _ := json.Marshal(append(b.Draws, bench.ValidationDraw{PerStratum: in.PerStratum, Margin: in.Margin, Expected: in.Expected, Added: added, At: now, By: a.Name}))
		if _, err := tx.ExecContext(ctx, `UPDATE validation_batches SET stratify = ?, seed = ?, method = ?, level = ?, threshold = ?, draws = ? WHERE id = ?`,
			string(pol.Stratify), pol.Seed, string(pol.Method), pol.Level, pol.Threshold, string(draws), b.ID); err != nil {
			return err
		}
		if err := d.audit(ctx, tx, a.ID, "batch.draw", "batch", b.Name, fmt.Sprintf("draw %d by %s, seed %d, %s: %d items added; %s interval at %g, threshold %g",
			drawNo, pol.Stratify, pol.Seed, rule, added, pol.Method, pol.Level, pol.Threshold)); err != nil {
			return err
		}
		st, err = validationStatus(ctx, tx, in.ProjectID, in.Batch)
		return err
	})
	if err != nil {
		return bench.ValidationStatus{}, fmt.Errorf("draw the sample of batch %s: %w", in.Batch, err)
	}
	return st, nil
}

// drawPolicy is the batch b with the policy a draw runs under
// (sampling.PolicyOf): the batch's, when an earlier draw fixed it, else in's
// with sampling's defaults.
func drawPolicy(b bench.ValidationBatch, in bench.DrawInput) (bench.ValidationBatch, error) {
	p, err := sampling.PolicyOf(b.Name,
		sampling.DrawPolicy{Stratify: b.Stratify, Seed: b.Seed, Method: b.Method, Level: b.Level, Threshold: b.Threshold},
		sampling.DrawPolicy{Stratify: in.Stratify, Seed: in.Seed, Method: in.Method, Level: in.Level, Threshold: in.Threshold})
	if err != nil {
		return b, fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	b.Stratify, b.Seed, b.Method, b.Level, b.Threshold = p.Stratify, p.Seed, p.Method, p.Level, p.Threshold
	return b, nil
}

// ValidationStatus estimates each stratum's and the batch's error rate from the
// sampled items judged so far (verify.SampledOutcome), with the batch's
// interval, and says whether the rest may be accepted. Verifiers and leads may.
func (d *DB) ValidationStatus(ctx context.Context, actor bench.User, projectID int64, batch string) (bench.ValidationStatus, error) {
	var st bench.ValidationStatus
	err := d.readAs(ctx, actor, "batch.status", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionSeeValidation); err != nil {
			return err
		}
		var err error
		st, err = validationStatus(ctx, tx, projectID, batch)
		return err
	})
	if err != nil {
		return bench.ValidationStatus{}, fmt.Errorf("status of batch %s: %w", batch, err)
	}
	return st, nil
}

func validationStatus(ctx context.Context, tx *sql.Tx, projectID int64, name string) (bench.ValidationStatus, error) {
	b, err := batchByName(ctx, tx, projectID, name)
	if err != nil {
		return bench.ValidationStatus{}, err
	}
	st := bench.ValidationStatus{Batch: b}
	if b.Stratify == "" {
		st.Overall = bench.ValidationStratum{Name: "batch", Items: b.Items, Unsampled: b.Items}
		st.Refusal = "no sample has been drawn yet"
		return st, nil
	}
	type row struct {
		stratum            string
		drawn, bySampling  bool
		status             sql.NullString
		rejected, approved bool
		corrected          bool
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (row, error) {
		var x row
		return x, r.Scan(&x.stratum, &x.drawn, &x.bySampling, &x.status, &x.rejected, &x.approved, &x.corrected)
	}, `SELECT vi.stratum, vi.draw > 0, vi.by_sampling, s.status,
			EXISTS (SELECT 1 FROM reviews rv JOIN revisions r ON r.id = rv.revision_id WHERE r.sample_id = vi.sample_id AND r.number = 1 AND rv.round = 1 AND rv.decision = 'reject'),
			EXISTS (SELECT 1 FROM reviews rv JOIN revisions r ON r.id = rv.revision_id WHERE r.sample_id = vi.sample_id AND r.number = 1 AND rv.round = 1 AND rv.decision = 'approve'),
			EXISTS (SELECT 1 FROM revisions r WHERE r.sample_id = vi.sample_id AND r.number > 1)
		FROM validation_items vi LEFT JOIN samples s ON s.id = vi.sample_id AND vi.draw > 0
		WHERE vi.batch_id = ?`, b.ID)
	if err != nil {
		return st, err
	}
	type tally struct{ items, sampled, pending, judged, errors, unsampled int }
	by := map[string]*tally{}
	var all tally
	for _, x := range rows {
		t := by[x.stratum]
		if t == nil {
			t = &tally{}
			by[x.stratum] = t
		}
		for _, t := range []*tally{t, &all} {
			t.items++
			if !x.drawn {
				if !x.bySampling {
					t.unsampled++
				}
				continue
			}
			t.sampled++
			switch verify.SampledOutcome(verify.State(x.status.String), x.rejected, x.approved, x.corrected) {
			case verify.OutcomePending:
				t.pending++
			case verify.OutcomeError:
				t.judged++
				t.errors++
			default:
				t.judged++
			}
		}
	}
	mk := func(name string, t tally) (bench.ValidationStratum, error) {
		e, err := sampling.Estimated(b.Method, t.errors, t.judged, b.Level)
		if err != nil {
			return bench.ValidationStratum{}, err
		}
		return bench.ValidationStratum{Name: name, Items: t.items, Sampled: t.sampled, Pending: t.pending, Unsampled: t.unsampled,
			Estimate: e, Below: e.Below(b.Threshold)}, nil
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	slices.Sort(names)
	var strata []sampling.Stratum
	var counts []sampling.StratumCount
	for _, n := range names {
		s, err := mk(n, *by[n])
		if err != nil {
			return st, err
		}
		st.Strata = append(st.Strata, s)
		strata = append(strata, sampling.Stratum{Name: n, Estimate: s.Estimate, Pending: s.Pending, Unsampled: s.Unsampled})
		counts = append(counts, sampling.StratumCount{Items: s.Items, N: s.N, Errors: s.Errors})
	}
	// The batch's figure weights each stratum by its size (sampling.Stratified),
	// never the pooled count.
	overall, err := sampling.Stratified(b.Method, counts, b.Level)
	if err != nil {
		return st, err
	}
	st.Overall = bench.ValidationStratum{Name: "batch", Items: all.items, Sampled: all.sampled, Pending: all.pending, Unsampled: all.unsampled,
		Estimate: overall, Below: overall.Below(b.Threshold)}
	switch {
	case b.AcceptedAt != "":
		st.Refusal = fmt.Sprintf("the rest was accepted by %s on %s", b.AcceptedBy, b.AcceptedAt)
	default:
		if err := sampling.CheckAcceptRest(st.Overall.Estimate, strata, b.Threshold); err != nil {
			st.Refusal = err.Error()
		}
	}
	return st, nil
}

// sampledPolicy is what a batch's acceptance recorded: the estimates it rested
// on, as the release MANIFEST reports them (Overall is the stratified estimate).
type sampledPolicy struct {
	Overall sampling.Estimate   `json:"overall"`
	High    float64             `json:"high"`
	Strata  []sampledPolicyCell `json:"strata"`
}

type sampledPolicyCell struct {
	Name   string  `json:"name"`
	N      int     `json:"n"`
	Errors int     `json:"errors"`
	High   float64 `json:"high"`
}

// AcceptRest accepts the unsampled rest of a batch by sampling, in one
// transaction: each item becomes a sample of the batch's author whose first
// revision is accepted (verify.EventAcceptSampled), marked accepted by sampling.
// It is refused, with the numbers, unless sampling.CheckAcceptRest allows it;
// the refusal is audited too. Only a lead may.
func (d *DB) AcceptRest(ctx context.Context, actor bench.User, projectID int64, batch string) (bench.AcceptRestResult, error) {
	var res bench.AcceptRestResult
	var refusal error
	err := d.act(ctx, actor, "batch.accept_rest", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionValidateBatches)
		if err != nil {
			return err
		}
		st, err := validationStatus(ctx, tx, projectID, batch)
		if err != nil {
			return err
		}
		if st.Refusal != "" {
			refusal = fmt.Errorf("%w: %s", bench.ErrInvalid, st.Refusal)
			return refusal
		}
		if err := verify.Authorize(verify.EventAcceptSampled, vuser(a), false); err != nil {
			return fmt.Errorf("%w: %v", bench.ErrForbidden, err)
		}
		b := st.Batch
		author, err := batchAuthor(ctx, tx, a, projectID, b.Author)
		if err != nil {
			return err
		}
		items, err := queryAll(ctx, tx, func(r scanner) (restItem, error) {
			var x restItem
			return x, r.Scan(&x.line, &x.id, &x.content, &x.warns)
		}, `SELECT line, sample_id, content, warnings FROM validation_items WHERE batch_id = ? AND draw = 0 AND by_sampling = 0 ORDER BY line`, b.ID)
		if err != nil {
			return err
		}
		why := fmt.Sprintf("accepted by sampling with batch %s: upper bound %.4f below the threshold %g (%s at %g, %d errors in %d sampled, %.4f weighted by stratum size)",
			b.Name, st.Overall.CI.High, b.Threshold, b.Method, b.Level, st.Overall.Errors, st.Overall.N, st.Overall.Rate)
		now := d.now()
		if res.Accepted, err = d.acceptSampled(ctx, tx, a, author, projectID, items, why, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE validation_items SET by_sampling = 1 WHERE batch_id = ? AND draw = 0 AND by_sampling = 0`, b.ID); err != nil {
			return err
		}
		pol := sampledPolicy{Overall: st.Overall.Estimate, High: st.Overall.CI.High}
		for _, s := range st.Strata {
			pol.Strata = append(pol.Strata, sampledPolicyCell{s.Name, s.N, s.Errors, s.CI.High})
		}
		acceptance, _ := json.Marshal(pol)
		if _, err := tx.ExecContext(ctx, `UPDATE validation_batches SET accepted_by = ?, accepted_at = ?, acceptance = ? WHERE id = ?`,
			a.ID, now, string(acceptance), b.ID); err != nil {
			return err
		}
		if err := d.audit(ctx, tx, a.ID, "batch.accept_rest", "batch", b.Name, fmt.Sprintf("%d items %s", len(res.Accepted), why)); err != nil {
			return err
		}
		res.Status, err = validationStatus(ctx, tx, projectID, batch)
		return err
	})
	if refusal != nil && errors.Is(err, refusal) {
		bg := context.WithoutCancel(ctx)
		_ = d.inTx(bg, func(tx *sql.Tx) error {
			return d.audit(bg, tx, validActor(bg, tx, actor.ID), "denied:batch.accept_rest", "batch", batch, refusal.Error())
		})
	}
	if err != nil {
		return bench.AcceptRestResult{}, fmt.Errorf("accept the rest of batch %s: %w", batch, err)
	}
	return res, nil
}

// sampledAcceptances reads, for the samples of a project accepted by sampling,
// their batch's acceptance (for the audit's trail check).
func sampledAcceptances(ctx context.Context, tx *sql.Tx, projectID int64) (map[string]verify.SampledAcceptance, error) {
	type row struct {
		id, batch, by, acceptance string
		threshold                 float64
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.batch, &x.by, &x.acceptance, &x.threshold)
	}, `SELECT vi.sample_id, b.name, COALESCE(u.name, ''), b.acceptance, b.threshold FROM validation_items vi
		JOIN validation_batches b ON b.id = vi.batch_id LEFT JOIN users u ON u.id = b.accepted_by
		WHERE b.project_id = ? AND vi.by_sampling = 1`, projectID)
	if err != nil {
		return nil, fmt.Errorf("sampled acceptances: %w", err)
	}
	out := make(map[string]verify.SampledAcceptance, len(rows))
	for _, x := range rows {
		var pol sampledPolicy
		if x.acceptance != "" {
			if err := json.Unmarshal([]byte(x.acceptance), &pol); err != nil {
				return nil, fmt.Errorf("decode the acceptance of batch %s: %w", x.batch, err)
			}
		}
		out[x.id] = verify.SampledAcceptance{Batch: x.batch, AcceptedBy: x.by, Upper: pol.High, Threshold: x.threshold}
	}
	return out, nil
}

// releaseSampling is what a release's MANIFEST says of sampled validation: which
// of its samples were accepted by sampling, and the policy of each batch they
// came from.
func releaseSampling(ctx context.Context, tx *sql.Tx, releaseID int64) (map[string]bool, []release.SampledValidation, error) {
	type member struct {
		id    string
		batch int64
	}
	members, err := queryAll(ctx, tx, func(r scanner) (member, error) {
		var x member
		return x, r.Scan(&x.id, &x.batch)
	}, `SELECT rs.sample_id, vi.batch_id FROM release_samples rs
		JOIN validation_items vi ON vi.sample_id = rs.sample_id AND vi.by_sampling = 1 WHERE rs.release_id = ?`, releaseID)
	if err != nil {
		return nil, nil, fmt.Errorf("sampled validation of the release: %w", err)
	}
	marked := map[string]bool{}
	inRelease := map[int64]int{}
	for _, x := range members {
		marked[x.id] = true
		inRelease[x.batch]++
	}
	var out []release.SampledValidation
	for batchID, n := range inRelease {
		var x struct {
			stratify, method, acceptance string
			pol                          sampledPolicy
		}
		v := release.SampledValidation{InRelease: n}
		err := tx.QueryRowContext(ctx, `SELECT b.name, b.source, COALESCE(u.name, ''), b.accepted_at, b.stratify, b.method, b.acceptance, b.seed, b.level, b.threshold,
				(SELECT count(*) FROM validation_items WHERE batch_id = b.id), (SELECT count(*) FROM validation_items WHERE batch_id = b.id AND draw > 0)
			FROM validation_batches b LEFT JOIN users u ON u.id = b.accepted_by WHERE b.id = ?`, batchID).
			Scan(&v.Batch, &v.Source, &v.AcceptedBy, &v.AcceptedAt, &x.stratify, &x.method, &x.acceptance, &v.Seed, &v.Level, &v.Threshold, &v.Items, &v.Sampled)
		if err != nil {
			return nil, nil, fmt.Errorf("sampled validation of the release: %w", err)
		}
		if err := json.Unmarshal([]byte(x.acceptance), &x.pol); err != nil {
			return nil, nil, fmt.Errorf("decode the acceptance of batch %s: %w", v.Batch, err)
		}
		v.Stratify, v.Method = x.stratify, x.method
		v.N, v.Errors, v.Upper = x.pol.Overall.N, x.pol.Overall.Errors, x.pol.High
		for _, c := range x.pol.Strata {
			v.Strata = append(v.Strata, release.SampledStratum{Name: c.Name, N: c.N, Errors: c.Errors, Upper: c.High})
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b release.SampledValidation) int { return cmp.Compare(a.Batch, b.Batch) })
	return marked, out, nil
}
