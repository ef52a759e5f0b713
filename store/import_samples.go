package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// ImportSamples imports converted records (see annotate.ImportMultihop,
// annotate.ImportSpatiaLQA, or native records) as samples of the project, as drafts
// of opt.Author or, with opt.ToRound1, straight into round 1. Each record is all in or
// all out: a record is skipped, and reported with its line, when its id is taken
// (never overwritten), its image is not one of the project's (matched by relative
// path), or it has lint errors (named by rule id) unless opt.AcceptLintErrors; the
// others are imported. The refusals that concern the whole import (the actor's
// role, an unknown project or author) import nothing. Every imported sample is audited as "sample.import".
//
// The import is all or nothing to everyone, and keeps the database's write lock
// short so that a team's other writes go on during a large import (issue 25:
// 20,000 records once stopped every write for minutes; BenchmarkImportWhileOthersWrite):
//
//  1. the refusals are checked and the project's image sizes read in one read
//     transaction;
//  2. every record is linted with no transaction open (opt.Progress follows it, and
//     a cancelled ctx stops it);
//  3. the records are prepared, in batches of importPrepareBatch records each with a read
//     transaction of its own (which gives records without an id one),
//     and encoded, still with no write lock held;
//  4. the rows are written, each write checking again whatever may have changed
//     meanwhile — the refusals, the ids (an id taken since is skipped; a given id
//     taken since is given again), the images — and writing the samples with their
//     search rows and audit rows in a few multi-row statements (importWrite). On
//     SQLite, which has one writer at a time, each batch of importWriteBatch
//     records is a write transaction of its own (tens of milliseconds), and the
//     others' writes commit between them; a last short one writes the summaries
//     and makes the import visible (importInBatches, import_batches.go). On
//     PostgreSQL one transaction writes the rows beside the others' writes and
//     takes the lock only to check again, write the summaries and commit
//     (importBeside, import_beside.go: tens of milliseconds).
//
// Until that last commit, no reader sees any of the import; a failure or a
// cancellation before or during it leaves nothing behind (on SQLite the rows
// written are removed; after a crash, at the next open). Should an image a lint
// asked about arrive, go or change size meanwhile, the import checks again (three
// times at most, then it fails with ErrConflict).
func (d *DB) ImportSamples(ctx context.Context, actor bench.User, projectID int64, recs []annotate.Imported, opt bench.ImportSamplesOptions) (bench.ImportSamplesResult, error) {
	var res bench.ImportSamplesResult
	var err error
	for attempt := 1; ; attempt++ {
		res, err = d.importSamples(ctx, actor, projectID, recs, opt)
		if !importRetry(err) || attempt == 3 {
			break
		}
	}
	if err != nil {
		return bench.ImportSamplesResult{}, fmt.Errorf("import samples: %w", err)
	}
	return res, nil
}

// errImagesChanged aborts an import's write transaction when an image a record's
// lint asked about has arrived or changed size since it was read.
var errImagesChanged = fmt.Errorf("%w: the size of an image changed while the records were checked; import again", bench.ErrConflict)

// importPrepareBatch is how many records one read transaction of an import's preparation
// covers; importBatchDone, when set (by tests), is called after each batch with the
// records prepared so far and their number.
var (
	importPrepareBatch = 1000
	importBatchDone    func(done, total int)
	// importBeforeCommit, when set (by tests), runs in the import's write
	// transaction after its rows are written, before the commit; an error it
	// returns fails the import.
	importBeforeCommit func() error
	// importWriteTook, when set (by benchmarks), is told how long the import's
	// write transaction took, from asking for the write lock to its commit.
	importWriteTook func(time.Duration)
	// importBesideWritten, when set (by tests), runs on PostgreSQL when the
	// import's rows are written and it is about to ask for the write lock
	// (importBeside).
	importBesideWritten func()
)

// importSamples is one attempt at ImportSamples; errImagesChanged asks for another.
func (d *DB) importSamples(ctx context.Context, actor bench.User, projectID int64, recs []annotate.Imported, opt bench.ImportSamplesOptions) (bench.ImportSamplesResult, error) {
	var sizes map[string]bench.Dimensions
	var prefix string
	var limits []annotate.ImageLimit // the project's (store/settings.go)
	err := d.readAs(ctx, actor, "sample.import", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionImportSamples)
		if err != nil {
			return err
		}
		if _, err := importAuthor(ctx, tx, a, projectID, opt); err != nil {
			return err
		}
		if opt.AcceptLintErrors && opt.ToRound1 {
			return fmt.Errorf("%w: records with lint errors can be imported as drafts only, not into round 1", bench.ErrInvalid)
		}
		var pname string
		if err := tx.QueryRowContext(ctx, `SELECT name FROM projects WHERE id = ?`, projectID).Scan(&pname); err != nil {
			return err
		}
		prefix = annotate.IDPrefix(pname)
		limits = projectImageLimits(ctx, tx, projectID)
		sizes, err = projectImageSizes(ctx, tx, projectID)
		return err
	})
	if err != nil {
		return bench.ImportSamplesResult{}, err
	}
	checks := make([]bench.RecordCheck, len(recs))
	for i, rec := range recs {
		if err := ctx.Err(); err != nil {
			return bench.ImportSamplesResult{}, fmt.Errorf("cancelled after checking %d of %d records: %w", i, len(recs), err)
		}
		checks[i] = bench.CheckRecord(rec.Sample, sizes, limits)
		if opt.Progress != nil {
			opt.Progress(i+1, len(recs))
		}
	}
	plan, err := d.prepareImport(ctx, projectID, prefix, recs, checks, sizes, opt)
	if err != nil {
		return bench.ImportSamplesResult{}, err
	}
	if d.pg {
		return d.importBeside(ctx, actor, projectID, plan, opt)
	}
	plan.ids = map[string]bool{}
	for _, r := range plan.rows {
		if r.sample.ID != "" {
			plan.ids[r.sample.ID] = true
		}
	}
	return d.importInBatches(ctx, actor, projectID, plan, opt)
}

// importActors checks, in a transaction, that actor may import into the project
// as opt says, and returns the actor and the samples' author as they are now.
func importActors(ctx context.Context, tx *sql.Tx, actor bench.User, projectID int64, opt bench.ImportSamplesOptions) (a, author bench.User, err error) {
	if a, err = requireProjectAction(ctx, tx, actor, projectID, verify.ActionImportSamples); err != nil {
		return bench.User{}, bench.User{}, err
	}
	if author, err = importAuthor(ctx, tx, a, projectID, opt); err != nil {
		return bench.User{}, bench.User{}, err
	}
	return a, author, nil
}

// projectImageSizes reads the size of every image of the project, by relative path.
func projectImageSizes(ctx context.Context, tx *sql.Tx, projectID int64) (map[string]bench.Dimensions, error) {
	type row struct {
		path string
		size bench.Dimensions
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (row, error) {
		var x row
		return x, r.Scan(&x.path, &x.size.W, &x.size.H)
	}, `SELECT rel_path, width, height FROM images WHERE project_id = ?`, projectID)
	if err != nil {
		return nil, fmt.Errorf("image sizes: %w", err)
	}
	sizes := make(map[string]bench.Dimensions, len(rows))
	for _, x := range rows {
		sizes[x.path] = x.size
	}
	return sizes, nil
}

// stillHolds reports whether the image sizes c's lint used are still the images'.
func stillHolds(ctx context.Context, tx *sql.Tx, projectID int64, c bench.RecordCheck) (bool, error) {
	for _, u := range c.Used {
		var now bench.Dimensions
		err := tx.QueryRowContext(ctx, `SELECT width, height FROM images WHERE project_id = ? AND rel_path = ?`, projectID, u.Path).Scan(&now.W, &now.H)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			if u.Known {
				return false, nil
			}
		case err != nil:
			return false, err
		case !u.Known || now != u.Size:
			return false, nil
		}
	}
	return true, nil
}

// importAuthor resolves and checks opt.Author for actor a.
func importAuthor(ctx context.Context, tx *sql.Tx, a bench.User, projectID int64, opt bench.ImportSamplesOptions) (bench.User, error) {
	if opt.ToRound1 {
		if err := verify.Permit(verify.ActionImportOnBehalf, vuser(a)); err != nil {
			return bench.User{}, fmt.Errorf("%w: %w", bench.ErrForbidden, err)
		}
		if opt.Author == "" {
			return bench.User{}, fmt.Errorf("%w: an import into round 1 must name the samples' author", bench.ErrInvalid)
		}
	}
	if opt.Author == "" || opt.Author == a.Name {
		return a, nil
	}
	if err := verify.Permit(verify.ActionImportOnBehalf, vuser(a)); err != nil {
		return bench.User{}, fmt.Errorf("%w: %w", bench.ErrForbidden, err)
	}
	u, err := userByName(ctx, tx, opt.Author)
	if err != nil {
		return bench.User{}, fmt.Errorf("author %q: %w", opt.Author, err)
	}
	return projectAuthor(ctx, tx, u, projectID)
}

// insertImported writes one checked record: the sample, and with toRound1 its first
// revision (warnings acknowledged) and the move to round 1.
func (d *DB) insertImported(ctx context.Context, tx *sql.Tx, a, author bench.User, projectID int64, rec annotate.Imported, warns []string, toRound1 bool) error {
	cur, err := d.createSample(ctx, tx, author, projectID, rec.Sample, verify.StateDraft)
	if err != nil {
		return err
	}
	detail := fmt.Sprintf("line %d, draft of %s", rec.Line, author.Name)
	if toRound1 {
		to, err := verify.Transition(cur.Status, verify.EventSubmit)
		if err != nil {
			return fmt.Errorf("%w: %v", bench.ErrForbidden, err)
		}
		if err := d.addRevision(ctx, tx, author.ID, cur, cur.Content, "import", strings.Join(warns, ",")); err != nil {
			return err
		}
		if err := d.setStatus(ctx, tx, a.ID, cur.ID, cur.Version, to, ""); err != nil {
			return err
		}
		detail = fmt.Sprintf("line %d, revision 1 by %s into round 1", rec.Line, author.Name)
		if len(warns) > 0 {
			detail += "; lint warnings acknowledged: " + strings.Join(warns, ", ")
		}
	}
	return d.audit(ctx, tx, a.ID, "sample.import", "sample", cur.ID, detail)
}

// dedupe drops repeated strings, keeping the first of each in order.
func dedupe(list []string) []string {
	var out []string
	for _, s := range list {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
