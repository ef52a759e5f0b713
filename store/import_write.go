package store

// The write half of ImportSamples (import_samples.go): the records are prepared
// with no write lock held (prepareImport), then written by one write transaction
// in multi-row statements (importWrite), which is all a team's other writers wait
// for on SQLite; on PostgreSQL they wait only for its last step (importBeside,
// import_beside.go). What it writes is what createSample, and with ToRound1
// addRevision and setStatus, write for each record — the sample, its revision, the
// summaries (stats.go), the sample manager's search row and words (manager.go) and
// the audit rows — added up over the records instead of one record at a time.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// importPlan is an import prepared outside the write lock.
type importPlan struct {
	prefix string                    // of the ids the import gives (annotate.IDPrefix of the project's name)
	rows   []importRow               // one per record, in file order (of one batch, importInBatches)
	ids    map[string]bool           // every id of every row, when rows are a batch's: a given id must not take one
	used   map[string]bench.UsedSize // every image the lints and the records relied on, by path
}

// importRow is one record of a plan: its check, and what could be decided and
// encoded before the write transaction.
type importRow struct {
	rec       annotate.Imported
	check     bench.RecordCheck
	sample    annotate.Sample // tidied, with its id (given when it had none)
	generated bool            // the id was given by the import
	invalid   error           // an ErrInvalid the sample's kind or id earns
	enc       importEncoded
}

// importEncoded is a row's values as the tables hold them.
type importEncoded struct {
	draft  string // the sample's JSON; with ToRound1 its revision's content too
	stats  statsRev
	search searchEntry
}

// prepareImport decides what it can of each record and encodes the rows to write,
// in batches of importPrepareBatch records, each with a read transaction of its own:
// records without an id get one (the project's prefix and the next free number,
// as createSample gives). Nothing is written.
func (d *DB) prepareImport(ctx context.Context, projectID int64, prefix string, recs []annotate.Imported, checks []bench.RecordCheck,
	sizes map[string]bench.Dimensions, opt bench.ImportSamplesOptions) (importPlan, error) {
	plan := importPlan{prefix: prefix, rows: make([]importRow, len(recs)), used: map[string]bench.UsedSize{}}
	named := map[string]bool{} // the ids the file gives
	for i, rec := range recs {
		for _, u := range checks[i].Used {
			if _, ok := plan.used[u.Path]; !ok {
				plan.used[u.Path] = u
			}
		}
		for _, img := range rec.Sample.AllImages() {
			if _, ok := plan.used[img]; !ok && img != "" {
				size, known := sizes[img]
				plan.used[img] = bench.UsedSize{Path: img, Size: size, Known: known}
			}
		}
		if rec.Sample.ID != "" {
			named[rec.Sample.ID] = true
		}
	}
	next := -1 // the number after the last given id; -1 until the project's samples are counted
	for start := 0; start < len(recs); start += importPrepareBatch {
		end := min(start+importPrepareBatch, len(recs))
		err := d.readTx(ctx, func(tx *sql.Tx) error {
			if next < 0 {
				if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM samples WHERE project_id = ?`, projectID).Scan(&next); err != nil {
					return err
				}
			}
			for i := start; i < end; i++ {
				r := &plan.rows[i]
				r.rec, r.check = recs[i], checks[i]
				r.sample = annotate.TidyText(recs[i].Sample)
				switch {
				case !r.sample.Kind.Valid():
					r.invalid = fmt.Errorf("%w: unknown kind %q", bench.ErrInvalid, r.sample.Kind)
				case r.sample.ID != "":
					if err := annotate.CheckID(r.sample.ID); err != nil {
						r.invalid = fmt.Errorf("%w: %v", bench.ErrInvalid, err)
					}
				}
				if r.invalid != nil || len(r.check.Errs) > 0 && !opt.AcceptLintErrors {
					continue // skipped whatever the database says; nothing to encode
				}
				if r.sample.ID == "" {
					id, err := freeSampleID(ctx, tx, prefix, &next, named)
					if err != nil {
						return err
					}
					r.sample.ID, r.generated = id, true
				}
				if err := r.encode(projectID, opt.ToRound1); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return importPlan{}, fmt.Errorf("prepare records %d to %d: %w", start+1, end, err)
		}
		if importBatchDone != nil {
			importBatchDone(end, len(recs))
		}
		if err := ctx.Err(); err != nil && end < len(recs) {
			return importPlan{}, fmt.Errorf("cancelled after preparing %d of %d records: %w", end, len(recs), err)
		}
	}
	return plan, nil
}

// freeSampleID gives the next id of the form prefix-00042 after *next that neither
// the database (as tx sees it) nor taken holds, and records it in taken.
func freeSampleID(ctx context.Context, tx *sql.Tx, prefix string, next *int, taken map[string]bool) (string, error) {
	for {
		*next++
		id := fmt.Sprintf("%s-%05d", prefix, *next)
		if taken[id] {
			continue
		}
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM samples WHERE id = ?`, id).Scan(new(int))
		if err == sql.ErrNoRows {
			taken[id] = true
			return id, nil
		}
		if err != nil {
			return "", err
		}
	}
}

// encode fills r.enc from r.sample: its JSON as createSample stores it and, into
// round 1, as addRevision stores the revision (the draft read back and written
// again); the revision's summary; the search row as indexSample makes it.
func (r *importRow) encode(projectID int64, toRound1 bool) error {
	js, err := json.Marshal(r.sample)
	if err != nil {
		return fmt.Errorf("encode sample %s: %w", r.sample.ID, err)
	}
	e := importEncoded{draft: string(js)}
	change, reason := "", ""
	if toRound1 {
		var back annotate.Sample
		if err := json.Unmarshal(js, &back); err != nil {
			return fmt.Errorf("decode sample %s: %w", r.sample.ID, err)
		}
		if js, err = json.Marshal(back); err != nil {
			return fmt.Errorf("encode sample %s: %w", r.sample.ID, err)
		}
		e.draft = string(js)
		e.stats = newStatsRev(projectID, string(r.sample.Kind), 0, e.draft)
		change, reason = "import", strings.Join(r.check.Warns, ",")
	}
	e.search = searchEntry{id: r.sample.ID, kind: string(r.sample.Kind)}
	e.search.content(e.draft, change, reason)
	r.enc = e
	return nil
}

// importWrite is an import's write transaction: it decides each record's fate
// against the database as it is now, then writes the samples to import in a few
// multi-row statements. a is the acting user, author the samples'.
//
// way.beside says the transaction does not hold the write lock (PostgreSQL,
// importBeside): the rows' ids come from the sequences, and what other writers
// update too — the summaries, the images' counts — is left in the importSums
// returned, for applyImportSums under the lock. Otherwise the summaries are
// written too.
//
// way.batch says the transaction writes one batch of an import on SQLite
// (importInBatches): its rows carry the batch's id, and the summaries and the
// batch's last audit row are left in the importSums, for the import's last step.
//
// between, when set, runs before each statement that writes the rows; an error
// it returns stops the import (importBeside yields with it to a writer its rows
// stand in the way of).
func (d *DB) importWrite(ctx context.Context, tx *sql.Tx, a, author bench.User, projectID int64, plan importPlan, opt bench.ImportSamplesOptions, way importWay, between func() error) (bench.ImportSamplesResult, importSums, error) {
	images, err := d.importImagesStillHold(ctx, tx, projectID, plan.used)
	if err != nil {
		return bench.ImportSamplesResult{}, importSums{}, err
	}
	var ids []string
	planned := plan.ids // every id of the plan: a given id must not take one
	if planned == nil {
		planned = map[string]bool{}
	}
	for _, r := range plan.rows {
		if r.sample.ID != "" {
			ids = append(ids, r.sample.ID)
			planned[r.sample.ID] = true
		}
	}
	taken, err := takenSampleIDs(ctx, tx, ids)
	if err != nil {
		return bench.ImportSamplesResult{}, importSums{}, err
	}

	// Each record's fate, in file order, with the precedence a record-by-record
	// import has: a taken id, an unknown image, lint errors, then an invalid sample.
	var res bench.ImportSamplesResult
	var write []*importRow
	written := map[string]bool{}
	next := -1
	for i := range plan.rows {
		r := &plan.rows[i]
		s := r.rec.Sample
		p := bench.ImportProblem{Line: r.rec.Line, ID: s.ID}
		skip := func(reason bench.SkipReason, rules []string, format string, args ...any) {
			p.Reason, p.Rules, p.Message = reason, rules, fmt.Sprintf(format, args...)
			res.Skipped = append(res.Skipped, p)
		}
		switch {
		case s.ID != "" && (taken[s.ID] || written[s.ID]):
			skip(bench.SkipExists, nil, "a sample with id %q exists already; it is kept as it is", s.ID)
			continue
		case unknownImage(s, plan.used) != "":
			skip(bench.SkipUnknownImage, nil, "image %q is not in the project (import the images first; paths are relative to the imported folder)", unknownImage(s, plan.used))
			continue
		case checkImageCount(s) != nil:
			skip(bench.SkipInvalid, nil, "%v", checkImageCount(s))
			continue
		case len(r.check.Errs) > 0 && !opt.AcceptLintErrors:
			skip(bench.SkipLint, r.check.Errs, "%s", strings.Join(r.check.Msgs, "; "))
			continue
		case r.invalid != nil:
			skip(bench.SkipInvalid, nil, "%v", r.invalid)
			continue
		}
		if r.generated && (taken[r.sample.ID] || written[r.sample.ID]) {
			// The id given while preparing was taken meanwhile: give another.
			if next < 0 {
				if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM samples WHERE project_id = ?`, projectID).Scan(&next); err != nil {
					return bench.ImportSamplesResult{}, importSums{}, err
				}
			}
			id, err := freeSampleID(ctx, tx, plan.prefix, &next, planned)
			if err != nil {
				return bench.ImportSamplesResult{}, importSums{}, err
			}
			r.sample.ID = id
			if err := r.encode(projectID, opt.ToRound1); err != nil {
				return bench.ImportSamplesResult{}, importSums{}, err
			}
		}
		written[r.sample.ID] = true
		p.ID = r.sample.ID // a record without an id has the one the import gave it
		warns := r.check.Warns
		p.Rules = warns
		if len(warns) > 0 {
			p.Message = "imported with lint warnings: " + strings.Join(warns, ", ")
		}
		if len(r.check.Errs) > 0 {
			p.Rules = append(slices.Clone(r.check.Errs), warns...)
			p.Message = "imported as a draft with lint errors: " + strings.Join(r.check.Msgs, "; ")
		}
		switch {
		case len(r.check.Errs) > 0:
			res.Incomplete = append(res.Incomplete, p)
		case len(p.Rules) > 0:
			res.Warnings = append(res.Warnings, p)
		}
		res.Imported = append(res.Imported, p.ID)
		write = append(write, r)
	}
	if len(write) == 0 {
		return res, importSums{}, nil
	}
	sums, err := d.writeImported(ctx, tx, a, author, projectID, images, write, opt.ToRound1, way, between)
	if err != nil {
		return bench.ImportSamplesResult{}, importSums{}, err
	}
	if !way.deferred() {
		if err := d.applyImportSums(ctx, tx, projectID, sums); err != nil {
			return bench.ImportSamplesResult{}, importSums{}, err
		}
		sums = importSums{}
	}
	return res, sums, nil
}

// importImagesStillHold checks, in the write transaction, that the images the
// plan relied on are as the lints saw them — the same size, still there, still
// missing — and returns the ids of those there, by path; errImagesChanged when one
// is not.
func (d *DB) importImagesStillHold(ctx context.Context, tx *sql.Tx, projectID int64, used map[string]bench.UsedSize) (map[string]int64, error) {
	type now struct {
		path string
		id   int64
		size bench.Dimensions
	}
	paths := slices.Sorted(maps.Keys(used))
	ids := make(map[string]int64, len(paths))
	for chunk := range slices.Chunk(paths, importInList) {
		args := []any{projectID}
		for _, p := range chunk {
			args = append(args, p)
		}
		rows, err := queryAll(ctx, tx, func(r scanner) (now, error) {
			var x now
			return x, r.Scan(&x.path, &x.id, &x.size.W, &x.size.H)
		}, `SELECT rel_path, id, width, height FROM images WHERE project_id = ? AND rel_path IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("check the images: %w", err)
		}
		for _, x := range rows {
			if u := used[x.path]; !u.Known || u.Size != x.size {
				return nil, errImagesChanged
			}
			ids[x.path] = x.id
		}
	}
	for p, u := range used {
		if _, there := ids[p]; u.Known && !there {
			return nil, errImagesChanged
		}
	}
	return ids, nil
}

// importInList is the most values one IN (…) list of an import's checks holds.
const importInList = 500

// placeholders is "?, ?, …" for n values.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// takenSampleIDs returns which of ids the database holds.
func takenSampleIDs(ctx context.Context, tx *sql.Tx, ids []string) (map[string]bool, error) {
	taken := map[string]bool{}
	for chunk := range slices.Chunk(ids, importInList) {
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		found, err := queryAll(ctx, tx, scanString, `SELECT id FROM samples WHERE id IN (`+placeholders(len(chunk))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("check the ids: %w", err)
		}
		for _, id := range found {
			taken[id] = true
		}
	}
	return taken, nil
}

// importSums is what an import adds to rows other writers update too: the
// summaries (stats.go), and on PostgreSQL, when the import writes beside others,
// its samples' counts on their images and its last audit row. applyImportSums
// writes it, in the transaction that holds the write lock.
type importSums struct {
	status  verify.State
	author  int64
	n       int // samples written
	kinds   map[string]int
	balance map[importBalance]int
	images  map[int64]int // samples per image, when the trigger left them uncounted
	audit   [][]any       // audit rows to write last (LastChange must move on at the commit)
	day     string
	round1  bool
}

type importBalance struct {
	kind, view, task string
	hop              int
}

// writeImported writes the rows of an import's samples to import (write, in file
// order): what createSample, addRevision and setStatus would write for each, in
// multi-row statements, with one time for all of them, but for the summaries,
// returned. Holding the write lock (SQLite; beside false) the revisions and search
// rows get the ids after the largest there; beside others' writes (PostgreSQL) they
// take them from the tables' sequences, the images' counts are left to the
// importSums (importBeside sets benchwright.import_counts_images, which the
// trigger image_use_insert obeys), and so is the last audit row.
func (d *DB) writeImported(ctx context.Context, tx *sql.Tx, a, author bench.User, projectID int64, images map[string]int64, write []*importRow, toRound1 bool, way importWay,
	between func() error) (importSums, error) {
	beside := way.beside
	var batch any // the rows' import_batch: NULL but in a batch of importInBatches
	if way.batch != 0 {
		batch = way.batch
	}
	now := d.now()
	status, version := verify.StateDraft, 1
	if toRound1 {
		to, err := verify.Transition(verify.StateDraft, verify.EventSubmit)
		if err != nil {
			return importSums{}, fmt.Errorf("%w: %v", bench.ErrForbidden, err)
		}
		status, version = to, 2 // created, then moved (setStatus)
	}
	var revIDs, docs []int64
	if beside {
		var err error
		if toRound1 {
			if revIDs, err = nextIDs(ctx, tx, "revisions", "id", len(write)); err != nil {
				return importSums{}, err
			}
		}
		if docs, err = nextIDs(ctx, tx, "sample_search", "doc", len(write)); err != nil {
			return importSums{}, err
		}
	} else {
		var revBase, docBase int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0) FROM revisions`).Scan(&revBase); err != nil {
			return importSums{}, err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(max(doc), 0) FROM sample_search`).Scan(&docBase); err != nil {
			return importSums{}, err
		}
		for k := range write {
			revIDs = append(revIDs, revBase+int64(k)+1)
			docs = append(docs, docBase+int64(k)+1)
		}
	}
	client := ClientAddr(ctx)
	var samples, more, revisions, statRevs, search, words, audit [][]any
	sums := importSums{status: status, author: author.ID, n: len(write), kinds: map[string]int{}, balance: map[importBalance]int{},
		day: bench.ActivityDay(now), round1: toRound1}
	if beside {
		sums.images = map[int64]int{}
	}
	for k, r := range write {
		s, e := r.sample, r.enc
		var imageID any
		var image int64
		if s.Image != "" {
			image = images[s.Image]
			imageID = image
			if beside {
				sums.images[image]++
			}
		}
		var cur any
		var revID int64
		if toRound1 {
			revID = revIDs[k]
			cur = revID
		}
		samples = append(samples, []any{s.ID, projectID, imageID, string(s.Kind), string(status), author.ID, e.draft, cur, version, now, now, batch})
		for i, p := range s.MoreImages {
			more = append(more, []any{s.ID, i + 1, images[p], batch})
			if beside {
				sums.images[images[p]]++
			}
		}
		sums.kinds[string(s.Kind)]++
		audit = append(audit, []any{now, author.ID, "sample.create", "sample", s.ID, string(s.Kind), client, batch})
		detail := fmt.Sprintf("line %d, draft of %s", r.rec.Line, author.Name)
		if toRound1 {
			sr := e.stats
			sr.author = author.ID
			reason := strings.Join(r.check.Warns, ",")
			revisions = append(revisions, []any{revID, s.ID, 1, e.draft, author.ID, "import", reason, now, batch})
			statRevs = append(statRevs, []any{revID, projectID, sr.kind, author.ID, sr.categories, boolInt(sr.balanced), sr.hop, sr.view, sr.task, batch})
			if sr.balanced {
				sums.balance[importBalance{sr.kind, sr.view, sr.task, sr.hop}]++
			}
			audit = append(audit, []any{now, author.ID, "revision.import", "sample", s.ID, "revision 1", client, batch},
				[]any{now, a.ID, "sample.status", "sample", s.ID, bench.StatusChange{From: verify.StateDraft, To: status}.String(), client, batch})
			detail = fmt.Sprintf("line %d, revision 1 by %s into round 1", r.rec.Line, author.Name)
			if len(r.check.Warns) > 0 {
				detail += "; lint warnings acknowledged: " + strings.Join(r.check.Warns, ", ")
			}
		}
		audit = append(audit, []any{now, a.ID, "sample.import", "sample", s.ID, detail, client, batch})
		x := e.search
		doc := docs[k]
		search = append(search, []any{doc, projectID, x.kind, string(status), author.ID, image, x.hop, x.view, x.cats, x.task, x.split, "",
			boolInt(x.acked), boolInt(x.derived), now, now, s.ID, batch})
		words = append(words, []any{doc, x.words})
	}
	if way.deferred() {
		audit, sums.audit = audit[:len(audit)-1], audit[len(audit)-1:]
	}
	for _, w := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"samples", []string{"id", "project_id", "image_id", "kind", "status", "author_id", "draft", "current_rev", "version", "created_at", "updated_at", "import_batch"}, samples},
		{"sample_images", []string{"sample_id", "pos", "image_id", "import_batch"}, more},
		{"revisions", []string{"id", "sample_id", "number", "content", "author_id", "change", "reason", "created_at", "import_batch"}, revisions},
		{"stat_revisions", []string{"revision_id", "project_id", "kind", "author_id", "categories", "balanced", "hop", "view", "task", "import_batch"}, statRevs},
		{"sample_search", []string{"doc", "project_id", "kind", "status", "author_id", "image_id", "hop", "view", "categories", "task", "split",
			"reasons", "acked", "derived", "created_at", "updated_at", "sample_id", "import_batch"}, search},
		{"sample_words", []string{"docid", "body"}, words},
		{"audit_log", importAuditCols, audit},
	} {
		if err := insertMany(ctx, tx, w.table, w.cols, w.rows, between); err != nil {
			return importSums{}, err
		}
	}
	if d.pg && !beside {
		for _, seq := range [][2]string{{"revisions", "id"}, {"sample_search", "doc"}} {
			if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+seq[0]+`', '`+seq[1]+`'), (SELECT COALESCE(max(`+seq[1]+`), 0) + 1 FROM `+seq[0]+`), false)`); err != nil {
				return importSums{}, fmt.Errorf("move the %s ids on: %w", seq[0], err)
			}
		}
	}
	return sums, nil
}

var importAuditCols = []string{"at", "actor_id", "action", "entity", "entity_id", "detail", "client", "import_batch"}

// importWay is how an import's write transaction writes (importWrite).
type importWay struct {
	beside bool  // PostgreSQL, without the write lock (importBeside)
	batch  int64 // SQLite, one batch of an import under way (importInBatches)
}

// deferred says the summaries and the last audit row are left to the import's
// last step.
func (w importWay) deferred() bool { return w.beside || w.batch != 0 }

// nextIDs takes n values of the sequence of table's column (PostgreSQL).
func nextIDs(ctx context.Context, tx *sql.Tx, table, col string, n int) ([]int64, error) {
	ids, err := queryAll(ctx, tx, func(r scanner) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	}, `SELECT nextval(pg_get_serial_sequence('`+table+`', '`+col+`')) FROM generate_series(1, ?)`, n)
	if err != nil {
		return nil, fmt.Errorf("number the %s: %w", table, err)
	}
	return ids, nil
}

// applyImportSums writes what an import adds to the rows others update too (see
// importSums): the samples in their state, their balance (into round 1, where
// the revision is read), and the day's activity — every create, and every move
// into round 1 —, and where left to it the images' counts and the last audit row.
func (d *DB) applyImportSums(ctx context.Context, tx *sql.Tx, projectID int64, sums importSums) error {
	if sums.n == 0 {
		return nil
	}
	for _, id := range slices.Sorted(maps.Keys(sums.images)) {
		if _, err := tx.ExecContext(ctx, `UPDATE images SET sample_count = sample_count + ? WHERE id = ?`, sums.images[id], id); err != nil {
			return fmt.Errorf("count the imported samples on their images: %w", err)
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(sums.kinds)) {
		if _, err := tx.ExecContext(ctx, upStatSamples, projectID, kind, string(sums.status), sums.author, sums.kinds[kind]); err != nil {
			return fmt.Errorf("summary of the imported samples: %w", err)
		}
	}
	for key, n := range sums.balance {
		if _, err := tx.ExecContext(ctx, upStatBalance, projectID, key.kind, key.hop, key.view, key.task, string(sums.status), n); err != nil {
			return fmt.Errorf("balance of the imported samples: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, upStatActivity, projectID, sums.day, string(verify.StateDraft), sums.n); err != nil {
		return fmt.Errorf("activity of the imported samples: %w", err)
	}
	if sums.round1 {
		if _, err := tx.ExecContext(ctx, upStatActivity, projectID, sums.day, string(sums.status), sums.n); err != nil {
			return fmt.Errorf("activity of the imported samples: %w", err)
		}
	}
	return insertMany(ctx, tx, "audit_log", importAuditCols, sums.audit, nil)
}

// insertMany inserts rows (each a value per column of cols) into table in
// multi-row INSERTs, each within both engines' limits of parameters; between,
// when set, runs before each of them, and an error it returns stops the writing.
func insertMany(ctx context.Context, tx *sql.Tx, table string, cols []string, rows [][]any, between func() error) error {
	per := max(1, min(importInList, copyBatchArgs/len(cols)))
	row := "(" + placeholders(len(cols)) + ")"
	for chunk := range slices.Chunk(rows, per) {
		args := make([]any, 0, len(chunk)*len(cols))
		for _, r := range chunk {
			args = append(args, r...)
		}
		if between != nil {
			if err := between(); err != nil {
				return err
			}
		}
		q := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` + strings.Repeat(row+", ", len(chunk)-1) + row
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("write %s: %w", table, err)
		}
	}
	return nil
}

// unknownImage returns the first of s's images the import's plan does not know in
// the project, or "".
func unknownImage(s annotate.Sample, used map[string]bench.UsedSize) string {
	for _, p := range s.AllImages() {
		if p != "" && !used[p].Known {
			return p
		}
	}
	return ""
}
