package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/jackc/pgx/v5/pgconn"
)

// Copying a whole database (bwctl copy-db): every row of every table, with its ids,
// from one database into a new one, across engines. The copy goes table by table
// in the order of copyTables, parents before the tables that refer to them, in
// multi-row INSERTs, and is checked against the schemas both databases hold: a
// table this list lacks (a new migration's) stops every copy until it is added.

// copyTables is every table of the schema, each after the tables its foreign keys
// name (TestCopyTablesFollowForeignKeys checks the order against the schema).
// SQLite's shadow tables of sample_words and PostgreSQL's bw_schema_version are
// the engines' own and are not copied; the destination's migrations made both.
var copyTables = []string{
	"users", "audit_log", "projects", "import_batches", "project_members", "image_roots", "images", "video_frames", "samples", "sample_images", "revisions", "reviews", "claims",
	"lineage", "augment_discards", "releases", "release_samples", "release_images", "model_runs", "predictions",
	"hard_subsets", "hard_candidates", "human_baselines", "human_items", "human_answers",
	"validation_batches", "validation_items", "sessions", "pending_uploads", "sign_in_failures", "database_info",
	"sample_search", "sample_words", "planted", "plant_salts", "plant_pauses",
	"stat_activity", "stat_balance", "stat_policy", "stat_reasons", "stat_rev3", "stat_review_authors",
	"stat_review_kinds", "stat_review_seconds", "stat_review_times", "stat_review_verifiers",
	"stat_revisions", "stat_samples", "stat_submissions",
}

// copyBatchRows is the most rows one INSERT writes; copyBatchArgs bounds its
// parameters below both engines' limits (SQLite 32,766, PostgreSQL 65,535).
const (
	copyBatchRows = 1000
	copyBatchArgs = 30000
)

// CopyReport says what CopyDatabase copied.
type CopyReport struct {
	Tables  []TableCount // in the order copied
	Rows    int64        // all tables' rows
	Elapsed time.Duration
}

// TableCount is one table's number of rows.
type TableCount struct {
	Name string
	Rows int64
}

// CopyDatabase copies every row of every table of from into to, with the same ids,
// values and types (REAL columns bit for bit): users and their password hashes,
// projects and their settings, images, samples with every revision, reviews,
// claims, releases, predictions, curation, validation batches, sessions, the audit
// log, the dashboard's summaries and the sample manager's search rows. Either may
// be a SQLite file or a PostgreSQL database; to must be freshly opened (migrated)
// and empty, and is refused otherwise, naming its first table that holds rows.
//
// The source is read in one read transaction, one consistent snapshot, so a server
// may keep working on it meanwhile. The destination is written in one transaction
// (on PostgreSQL holding the writers' lock, DB.inTx): a copy that fails or is
// cancelled leaves the destination as empty as it was, never a partial project,
// and may simply be run again. (From a SQLite file into PostgreSQL, the words, the
// search rows and two of the summaries are written beside it on a second connection, into a staging
// schema swapped in by that transaction: copydb_beside.go.) The database's files beside it (previews, a team
// server's uploads) are not copied: previews are made again on demand; the images
// are referenced in place by the paths the copy keeps.
//
// The destination's triggers hold during the copy: releases are inserted unsealed,
// take their samples, then are sealed as a freeze seals them; the image use counts
// that inserting samples raises are set back to the source's. A PostgreSQL
// destination whose role may turns its triggers off for the copy instead and
// checks its foreign keys once afterwards (pgQuietTriggers). A PostgreSQL
// destination's secondary indexes are dropped for the copy and built again from
// their definitions once the rows are in (pgDropIndexes), and so are, when its
// triggers are off, the keys no foreign key names (pgDropKeys). On PostgreSQL the
// identity columns' sequences are moved past the ids copied. progress, when set, is
// called after every batch with the table and its rows copied so far, and once more
// when the table is done (with 0 for an empty one).
func CopyDatabase(ctx context.Context, from, to *DB, progress func(table string, rows int64)) (CopyReport, error) {
	start := time.Now()
	var rep CopyReport
	fail := func(err error) (CopyReport, error) {
		return CopyReport{}, fmt.Errorf("copy %s to %s: %w", RedactURL(from.path), RedactURL(to.path), err)
	}
	if samePlace(from.path, to.path) {
		return fail(fmt.Errorf("%w: the source and the destination are the same database", bench.ErrInvalid))
	}
	var stagingUsed string // the staging schema of tables copied beside (copydb_beside.go)
	err := from.readTx(ctx, func(src *sql.Tx) error {
		srcTables, err := schemaTables(ctx, src, from.pg)
		if err != nil {
			return fmt.Errorf("read the tables of the source: %w", err)
		}
		if err := checkCopyTables(srcTables, "the source"); err != nil {
			return err
		}
		var importing int
		if err := src.QueryRowContext(ctx, `SELECT count(*) FROM import_batches WHERE done_at IS NULL`).Scan(&importing); err != nil {
			return fmt.Errorf("read the source: %w", err)
		}
		if importing > 0 {
			return fmt.Errorf("%w: an import of samples into the source is under way; copy it when the import has ended", bench.ErrConflict)
		}
		return to.inTx(ctx, func(dst *sql.Tx) error {
			rep = CopyReport{} // a PostgreSQL transaction run again starts over
			copied := map[string]int64{}
			dstTables, err := schemaTables(ctx, dst, to.pg)
			if err != nil {
				return fmt.Errorf("read the tables of the destination: %w", err)
			}
			if err := checkCopyTables(dstTables, "the destination"); err != nil {
				return err
			}
			for _, t := range copyTables {
				var one int
				err := dst.QueryRowContext(ctx, `SELECT 1 FROM `+t+` LIMIT 1`).Scan(&one)
				if err == nil {
					return fmt.Errorf("%w: the destination is not empty (its table %s has rows); copy into a new file or an empty PostgreSQL database",
						bench.ErrInvalid, t)
				}
				if !errors.Is(err, sql.ErrNoRows) {
					return fmt.Errorf("read table %s of the destination: %w", t, err)
				}
			}
			c := tableCopy{ctx: ctx, src: src, dst: dst, from: from, to: to, srcTables: srcTables, progress: progress}
			var indexes []pgIndex
			var keys []pgKey
			var side *besideCopy
			var staged []string
			if to.pg {
				if c.quiet, err = pgQuietTriggers(ctx, dst); err != nil {
					return err
				}
				if !from.pg { // a PostgreSQL source's one transaction cannot feed two copies at once
					tables, staging, err := besideTables(ctx, dst)
					if err != nil {
						return err
					}
					if len(tables) > 0 {
						c.progress = lockedProgress(progress)
						side = c.startBeside(tables, staging)
						stagingUsed = staging
						staged = besideNames(tables)
						defer side.stop()
					}
				}
				if c.quiet {
					if keys, err = pgDropKeys(ctx, dst, staged); err != nil {
						return err
					}
				}
				if indexes, err = pgDropIndexes(ctx, dst, staged); err != nil {
					return err
				}
			}
			for _, t := range copyTables {
				if slices.Contains(staged, t) {
					continue
				}
				n, err := c.table(t)
				if err != nil {
					return fmt.Errorf("copy table %s: %w", t, err)
				}
				copied[t] = n
			}
			if err := pgRebuildKeys(ctx, dst, keys); err != nil {
				return err
			}
			if err := pgRebuildIndexes(ctx, dst, indexes); err != nil {
				return err
			}
			if err := c.checkImageUse(); err != nil {
				return err
			}
			if c.quiet {
				// The staged tables have no foreign keys (besideTables): the
				// checks need not wait for them.
				if err := checkForeignKeys(ctx, dst); err != nil {
					return err
				}
			}
			if side != nil {
				if err := side.wait(); err != nil {
					return err
				}
				for t, n := range side.rows {
					copied[t] = n
				}
				if err := publishBeside(ctx, dst, side); err != nil {
					return err
				}
			}
			for _, t := range copyTables {
				rep.Tables = append(rep.Tables, TableCount{Name: t, Rows: copied[t]})
				rep.Rows += copied[t]
			}
			if to.pg {
				if err := syncAllIdentities(ctx, dst); err != nil {
					return fmt.Errorf("move the id sequences past the copied ids: %w", err)
				}
			}
			return nil
		})
	})
	if err != nil {
		if stagingUsed != "" {
			// The staged tables' transaction may have committed before the copy's failed.
			if derr := dropStaging(ctx, to, stagingUsed); derr != nil {
				err = fmt.Errorf("%w; and then: %w", err, derr)
			}
		}
		return fail(err)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// samePlace tells whether two database addresses name one database.
func samePlace(a, b string) bool {
	if IsPostgresURL(a) || IsPostgresURL(b) {
		return a == b
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// schemaTable is one table a database holds.
type schemaTable struct {
	withoutRowid bool // SQLite: a WITHOUT ROWID table, read in its key's order
	virtual      bool // SQLite: a virtual table (sample_words, FTS4)
}

// schemaTables lists the tables of the database tx reads, without the engines' own
// (SQLite's sqlite_* and the shadow tables of its virtual tables, PostgreSQL's
// bw_schema_version).
func schemaTables(ctx context.Context, tx *sql.Tx, pg bool) (map[string]schemaTable, error) {
	out := map[string]schemaTable{}
	if pg {
		names, err := queryAll(ctx, tx, scanString, `SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'bw_schema_version'`)
		for _, n := range names {
			out[n] = schemaTable{}
		}
		return out, err
	}
	type row struct{ name, sql string }
	rows, err := queryAll(ctx, tx, func(r scanner) (row, error) {
		var x row
		var s sql.NullString
		err := r.Scan(&x.name, &s)
		x.sql = strings.ToUpper(s.String)
		return x, err
	}, `SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`)
	if err != nil {
		return nil, err
	}
	var virtual []string
	for _, r := range rows {
		if strings.HasPrefix(r.sql, "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, r.name)
		}
	}
	for _, r := range rows {
		shadow := false
		for _, v := range virtual {
			shadow = shadow || strings.HasPrefix(r.name, v+"_")
		}
		if !shadow {
			out[r.name] = schemaTable{withoutRowid: strings.Contains(r.sql, "WITHOUT ROWID"), virtual: slices.Contains(virtual, r.name)}
		}
	}
	return out, nil
}

// checkCopyTables refuses a database (which: "the source" or "the destination")
// whose tables are not copyTables: a table this build does not copy would be lost.
func checkCopyTables(have map[string]schemaTable, which string) error {
	for name := range have {
		if !slices.Contains(copyTables, name) {
			return fmt.Errorf("%s has a table %s that copy-db does not know, and would lose", which, name)
		}
	}
	for _, name := range copyTables {
		if _, ok := have[name]; !ok {
			return fmt.Errorf("%s has no table %s; is it a Benchwright database of this version?", which, name)
		}
	}
	return nil
}

// tableCopy is one copy in progress.
type tableCopy struct {
	ctx       context.Context
	src, dst  *sql.Tx
	from, to  *DB
	srcTables map[string]schemaTable
	progress  func(table string, rows int64)

	sealed []releaseSeal // the releases to seal once their samples are in
	// quiet: a PostgreSQL destination's triggers, foreign keys' included, do not
	// fire during the copy (pgQuietTriggers).
	quiet bool
	// schema is the PostgreSQL schema the rows go to: "" for the destination's,
	// the staging schema for a table copied beside (copydb_beside.go).
	schema string
}

// pgQuietTriggers turns the triggers of a PostgreSQL copy's destination off for
// its transaction (session_replication_role = replica), when the role it
// connects as may (a superuser's; PostgreSQL 15 may grant others SET on it,
// which is not looked for): the rows come from a
// database whose rules held already, and the triggers' work per row — above all
// the foreign keys' check of every row's parents, most of the copy's time — is
// done once after the copy, set-based (checkForeignKeys; the images' counts,
// which no trigger raises then, stay the source's: checkImageUse). It tells
// whether it did; otherwise the triggers hold as for any write.
func pgQuietTriggers(ctx context.Context, dst *sql.Tx) (bool, error) {
	var may bool
	if err := dst.QueryRowContext(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&may); err != nil {
		return false, fmt.Errorf("read the destination's privileges: %w", err)
	}
	if !may {
		return false, nil
	}
	if _, err := dst.ExecContext(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
		return false, fmt.Errorf("turn the destination's triggers off for the copy: %w", err)
	}
	return true, nil
}

// pgKey is a PRIMARY KEY or UNIQUE constraint of a PostgreSQL destination, as
// pg_get_constraintdef defines it.
type pgKey struct {
	table string // schema-qualified and quoted, for ALTER TABLE
	name  string // quoted
	def   string // e.g. PRIMARY KEY (docid)
}

// pgDropKeys drops the PostgreSQL destination's primary keys and UNIQUE
// constraints that no foreign key refers to, for a copy whose triggers are off
// (pgQuietTriggers), and returns their definitions for pgRebuildKeys: checking
// each row's key as it comes costs an index insertion per row (the summaries'
// composite keys, the words' and search rows' keys), where adding the key once
// the rows are in is one sort and one pass. The keys a foreign key names stay
// (pgDropIndexes says why), and so does every key of a copy whose triggers run:
// they find rows by them. Only the tables the copy's role owns are touched; the
// drops are part of the copy's transaction.
func pgDropKeys(ctx context.Context, dst *sql.Tx, skip []string) ([]pgKey, error) {
	type key struct {
		pgKey
		rel string
	}
	all, err := queryAll(ctx, dst, func(r scanner) (key, error) {
		var k key
		return k, r.Scan(&k.table, &k.name, &k.def, &k.rel)
	}, `SELECT format('%I.%I', n.nspname, t.relname), format('%I', c.conname), pg_get_constraintdef(c.oid), t.relname
		FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE n.nspname = current_schema() AND c.contype IN ('p', 'u') AND t.relkind = 'r' AND pg_has_role(t.relowner, 'USAGE')
			AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = c.conindid)
		ORDER BY t.relname, c.conname`)
	if err != nil {
		return nil, fmt.Errorf("read the destination's keys: %w", err)
	}
	var keys []pgKey
	for _, k := range all {
		if !slices.Contains(skip, k.rel) {
			keys = append(keys, k.pgKey)
		}
	}
	for _, k := range keys {
		if _, err := dst.ExecContext(ctx, `ALTER TABLE `+k.table+` DROP CONSTRAINT `+k.name); err != nil {
			return nil, fmt.Errorf("drop the destination's key %s for the copy: %w", k.name, err)
		}
	}
	return keys, nil
}

// pgRebuildKeys adds the keys pgDropKeys dropped again, by their names and
// definitions, once the rows are in: each checks the rows' uniqueness then, and a
// source that breaks one fails the copy.
func pgRebuildKeys(ctx context.Context, dst *sql.Tx, keys []pgKey) error {
	if len(keys) == 0 {
		return nil
	}
	if _, err := dst.ExecContext(ctx, `SET LOCAL maintenance_work_mem = '256MB'`); err != nil {
		return fmt.Errorf("give the destination's index builds memory: %w", err)
	}
	for _, k := range keys {
		if _, err := dst.ExecContext(ctx, `ALTER TABLE `+k.table+` ADD CONSTRAINT `+k.name+` `+k.def); err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation
				return fmt.Errorf("%w: rows of table %s have the same key %s; the source breaks its own rules",
					bench.ErrInvalid, pe.TableName, strings.TrimPrefix(strings.TrimPrefix(k.def, "PRIMARY KEY "), "UNIQUE "))
			}
			return fmt.Errorf("add the destination's key %s again: %w", k.name, err)
		}
	}
	return nil
}

// pgIndex is one index of a PostgreSQL destination, as pg_indexes defines it
// (pg_get_indexdef).
type pgIndex struct {
	name string // schema-qualified and quoted, for DROP INDEX
	def  string // its CREATE INDEX statement, as the migrations made it
}

// pgDropIndexes drops the PostgreSQL destination's secondary indexes for the copy
// and returns their definitions, read from pg_indexes before, so that
// pgRebuildIndexes makes exactly the migrated ones again: PostgreSQL would
// otherwise insert every row into each of them one by one (the samples' nine, the
// search rows' nine, the words' text index), where building an index over rows
// already in is a sort. Kept are the indexes a constraint owns (primary keys and
// UNIQUE constraints) or a foreign key refers to: the keys name them, dropping them
// means dropping the keys, and they check the copied rows' uniqueness as they
// come, and serve the triggers' and checkForeignKeys' lookups of a parent by its
// key. Only the tables the copy's role may alter (their owner's) are touched. The
// drops are part of the copy's transaction: a copy that fails leaves the
// destination with its indexes, as empty as it was.
func pgDropIndexes(ctx context.Context, dst *sql.Tx, skip []string) ([]pgIndex, error) {
	type index struct {
		pgIndex
		rel string
	}
	all, err := queryAll(ctx, dst, func(r scanner) (index, error) {
		var x index
		return x, r.Scan(&x.name, &x.def, &x.rel)
	}, `SELECT format('%I.%I', n.nspname, ic.relname), pg_get_indexdef(ic.oid), t.relname
		FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
			JOIN pg_namespace n ON n.oid = ic.relnamespace
		WHERE n.nspname = current_schema() AND t.relkind = 'r' AND pg_has_role(t.relowner, 'USAGE')
			AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
		ORDER BY t.relname, ic.relname`)
	if err != nil {
		return nil, fmt.Errorf("read the destination's indexes: %w", err)
	}
	var idx []pgIndex
	for _, x := range all {
		if !slices.Contains(skip, x.rel) {
			idx = append(idx, x.pgIndex)
		}
	}
	for _, x := range idx {
		if _, err := dst.ExecContext(ctx, `DROP INDEX `+x.name); err != nil {
			return nil, fmt.Errorf("drop the destination's index %s for the copy: %w", x.name, err)
		}
	}
	return idx, nil
}

// pgRebuildIndexes makes the indexes pgDropIndexes dropped again, from their
// definitions, once the rows are in, with more memory for the sorts than
// PostgreSQL's default (for this transaction only).
func pgRebuildIndexes(ctx context.Context, dst *sql.Tx, idx []pgIndex) error {
	if len(idx) == 0 {
		return nil
	}
	if _, err := dst.ExecContext(ctx, `SET LOCAL maintenance_work_mem = '256MB'`); err != nil {
		return fmt.Errorf("give the destination's index builds memory: %w", err)
	}
	for _, x := range idx {
		if _, err := dst.ExecContext(ctx, x.def); err != nil {
			return fmt.Errorf("build the destination's index %s again: %w", x.name, err)
		}
	}
	return nil
}

// checkForeignKeys checks every foreign key of the PostgreSQL destination's
// schema in one query each, as its trigger would have row by row: a row whose
// key names no parent (the source's rules broken, or a table copied out of
// order) fails the copy, naming the table and the key.
func checkForeignKeys(ctx context.Context, dst *sql.Tx) error {
	type fk struct{ name, table, parent, cols, pcols string }
	fks, err := queryAll(ctx, dst, func(r scanner) (fk, error) {
		var k fk
		return k, r.Scan(&k.name, &k.table, &k.parent, &k.cols, &k.pcols)
	}, `SELECT c.conname, cl.relname, pcl.relname,
			(SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(c.conkey) WITH ORDINALITY k(att, n)
				JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.att),
			(SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(c.confkey) WITH ORDINALITY k(att, n)
				JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.att)
		FROM pg_constraint c JOIN pg_class cl ON cl.oid = c.conrelid JOIN pg_class pcl ON pcl.oid = c.confrelid
		WHERE c.contype = 'f' AND cl.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
		ORDER BY cl.relname, c.conname`)
	if err != nil {
		return fmt.Errorf("read the destination's foreign keys: %w", err)
	}
	for _, k := range fks {
		cols, pcols := strings.Split(k.cols, ","), strings.Split(k.pcols, ",")
		var notNull, match []string
		for i := range cols {
			notNull = append(notNull, `c.`+cols[i]+` IS NOT NULL`)
			match = append(match, `p.`+pcols[i]+` = c.`+cols[i])
		}
		var n int64
		if err := dst.QueryRowContext(ctx, `SELECT count(*) FROM `+k.table+` c WHERE `+strings.Join(notNull, ` AND `)+
			` AND NOT EXISTS (SELECT 1 FROM `+k.parent+` p WHERE `+strings.Join(match, ` AND `)+`)`).Scan(&n); err != nil {
			return fmt.Errorf("check the foreign key %s of table %s: %w", k.name, k.table, err)
		}
		if n > 0 {
			return fmt.Errorf("%w: %d rows of table %s name a row of %s that is not there (%s); the source breaks its own rules",
				bench.ErrInvalid, n, k.table, k.parent, k.cols)
		}
	}
	return nil
}

type releaseSeal struct {
	id     any
	sealed any
}

// columns returns the columns of table as the destination holds them, and checks
// that the source holds the same ones.
func (c *tableCopy) columns(table string) ([]string, error) {
	if table == "sample_words" {
		// SQLite's FTS4 table hides its docid from SELECT *; PostgreSQL's holds it.
		return []string{"docid", "body"}, nil
	}
	names := func(tx *sql.Tx) ([]string, error) {
		rows, err := tx.QueryContext(c.ctx, `SELECT * FROM `+table+` LIMIT 0`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		return rows.Columns()
	}
	dst, err := names(c.dst)
	if err != nil {
		return nil, fmt.Errorf("read its columns in the destination: %w", err)
	}
	src, err := names(c.src)
	if err != nil {
		return nil, fmt.Errorf("read its columns in the source: %w", err)
	}
	a, b := slices.Sorted(slices.Values(src)), slices.Sorted(slices.Values(dst))
	if !slices.Equal(a, b) {
		return nil, fmt.Errorf("the columns differ: the source has %s, the destination %s", strings.Join(a, ", "), strings.Join(b, ", "))
	}
	return dst, nil
}

// order is the ORDER BY that reads table in its natural order: on SQLite the
// order of its rows (rowid, or the key of a WITHOUT ROWID table), so that a file
// copied to a file reads back alike; on PostgreSQL, whose physical order is no
// one's, the primary key's.
func (c *tableCopy) order(table string) (string, error) {
	if !c.from.pg {
		if c.srcTables[table].withoutRowid {
			return "", nil
		}
		return " ORDER BY rowid", nil
	}
	keys, err := queryAll(c.ctx, c.src, scanString, `SELECT a.attname FROM pg_index i
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
		WHERE i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(?))::regclass AND i.indisprimary
		ORDER BY array_position(i.indkey::int2[], a.attnum)`, table)
	if err != nil {
		return "", fmt.Errorf("read its primary key: %w", err)
	}
	if len(keys) == 0 {
		return " ORDER BY ctid", nil
	}
	return " ORDER BY " + strings.Join(keys, ", "), nil
}

// table copies one table and returns its number of rows.
func (c *tableCopy) table(table string) (int64, error) {
	cols, err := c.columns(table)
	if err != nil {
		return 0, err
	}
	order, err := c.order(table)
	if err != nil {
		return 0, err
	}
	sealedCol, idCol := -1, -1
	if table == "releases" {
		sealedCol, idCol = slices.Index(cols, "sealed"), slices.Index(cols, "id")
	}
	from := table
	if !c.from.pg {
		from = "main." + table // the table, not the reader connection's view of it (import_batches.go)
	}
	if c.to.pg {
		total, err := c.copyFrom(table, cols, `SELECT `+strings.Join(cols, ", ")+` FROM `+from+order, sealedCol, idCol)
		if err != nil {
			return 0, err
		}
		if err := c.after(table); err != nil {
			return 0, err
		}
		if c.progress != nil {
			c.progress(table, total)
		}
		return total, nil
	}
	perBatch := max(1, min(copyBatchRows, copyBatchArgs/len(cols)))
	insert := func(n int) string {
		row := "(" + strings.Repeat("?, ", len(cols)-1) + "?)"
		return `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES ` + strings.Repeat(row+", ", n-1) + row
	}
	full, err := c.dst.PrepareContext(c.ctx, insert(perBatch))
	if err != nil {
		return 0, err
	}
	defer full.Close()

	rows, err := c.src.QueryContext(c.ctx, `SELECT `+strings.Join(cols, ", ")+` FROM `+from+order)
	if err != nil {
		return 0, fmt.Errorf("read it from the source: %w", err)
	}
	defer rows.Close()
	var total int64
	batch := make([]any, 0, perBatch*len(cols))
	flush := func() error {
		n := len(batch) / len(cols)
		if n == 0 {
			return nil
		}
		var err error
		if n == perBatch {
			_, err = full.ExecContext(c.ctx, batch...)
		} else {
			_, err = c.dst.ExecContext(c.ctx, insert(n), batch...)
		}
		if err != nil {
			return fmt.Errorf("write its rows %d to %d: %w", total+1, total+int64(n), err)
		}
		total += int64(n)
		batch = batch[:0]
		if c.progress != nil {
			c.progress(table, total)
		}
		return nil
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, fmt.Errorf("read it from the source: %w", err)
		}
		if sealedCol >= 0 {
			// A release takes its samples unsealed; it is sealed after them (seal).
			c.sealed = append(c.sealed, releaseSeal{id: vals[idCol], sealed: vals[sealedCol]})
			vals[sealedCol] = int64(0)
		}
		batch = append(batch, vals...)
		if len(batch) == perBatch*len(cols) {
			if err := flush(); err != nil {
				return 0, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read it from the source: %w", err)
	}
	if err := flush(); err != nil {
		return 0, err
	}
	if err := c.after(table); err != nil {
		return 0, err
	}
	if c.progress != nil {
		c.progress(table, total)
	}
	return total, nil
}

// copyFrom writes table into a PostgreSQL destination with the COPY protocol
// (pgCopyFrom), streaming the rows of query from the source as they are read: one
// round trip for the table instead of one per batch of rows, and no statement to
// parse. progress is told every copyBatchRows rows sent.
func (c *tableCopy) copyFrom(table string, cols []string, query string, sealedCol, idCol int) (int64, error) {
	rows, err := c.src.QueryContext(c.ctx, query)
	if err != nil {
		return 0, fmt.Errorf("read it from the source: %w", err)
	}
	defer rows.Close()
	src := &copySource{c: c, table: table, rows: rows, vals: make([]any, len(cols)), ptrs: make([]any, len(cols)), sealedCol: sealedCol, idCol: idCol}
	for i := range src.vals {
		src.ptrs[i] = &src.vals[i]
	}
	res, err := c.dst.ExecContext(c.ctx, "COPY "+table, &pgCopyFrom{schema: c.schema, table: table, columns: cols, rows: src})
	if src.err != nil {
		return 0, fmt.Errorf("read it from the source: %w", src.err)
	}
	if err != nil {
		return 0, fmt.Errorf("write its rows: %w", err)
	}
	n, err := res.RowsAffected()
	if err == nil && n != src.n {
		err = fmt.Errorf("%d rows written of the %d read", n, src.n)
	}
	return n, err
}

// copySource hands the source's rows to pgx's CopyFrom one by one.
type copySource struct {
	c                *tableCopy
	table            string
	rows             *sql.Rows
	vals, ptrs       []any
	sealedCol, idCol int
	n                int64
	err              error
}

func (s *copySource) Next() bool {
	if s.n > 0 && s.n%copyBatchRows == 0 && s.c.progress != nil {
		s.c.progress(s.table, s.n)
	}
	if err := s.c.ctx.Err(); err != nil {
		s.err = err
		return false
	}
	if !s.rows.Next() {
		s.err = s.rows.Err()
		return false
	}
	if err := s.rows.Scan(s.ptrs...); err != nil {
		s.err = err
		return false
	}
	for i, v := range s.vals {
		if b, ok := v.(bool); ok {
			s.vals[i] = int64(boolInt(b))
		}
	}
	if s.sealedCol >= 0 {
		// A release takes its samples unsealed; it is sealed after them (after).
		s.c.sealed = append(s.c.sealed, releaseSeal{id: s.vals[s.idCol], sealed: s.vals[s.sealedCol]})
		s.vals[s.sealedCol] = int64(0)
	}
	s.n++
	return true
}

func (s *copySource) Values() ([]any, error) { return s.vals, nil }
func (s *copySource) Err() error             { return s.err }

// after does what a table's triggers need once its rows are in.
func (c *tableCopy) after(table string) error {
	switch table {
	case "samples", "sample_images":
		if c.quiet { // no trigger counted them: the counts are the source's
			return nil
		}
	}
	switch table {
	case "samples":
		// Inserting a sample counted it on its image (trigger image_use_insert) on
		// top of the count copied with the image: take those counts off again.
		_, err := c.dst.ExecContext(c.ctx, `UPDATE images SET sample_count = sample_count -
			(SELECT count(*) FROM samples WHERE samples.image_id = images.id)
			WHERE id IN (SELECT image_id FROM samples)`)
		if err != nil {
			return fmt.Errorf("set the images' sample counts back: %w", err)
		}
	case "sample_images":
		// The same for the images after a sequence's first (trigger sample_images_use_insert).
		_, err := c.dst.ExecContext(c.ctx, `UPDATE images SET sample_count = sample_count -
			(SELECT count(*) FROM sample_images WHERE sample_images.image_id = images.id)
			WHERE id IN (SELECT image_id FROM sample_images)`)
		if err != nil {
			return fmt.Errorf("set the images' sample counts back: %w", err)
		}
	case "release_images":
		// Seal every release the source holds sealed, as a freeze does: the one
		// update the releases' trigger allows, once all its samples and their
		// further images are in.
		for _, r := range c.sealed {
			if r.sealed == int64(0) {
				continue
			}
			if _, err := c.dst.ExecContext(c.ctx, `UPDATE releases SET sealed = ? WHERE id = ?`, r.sealed, r.id); err != nil {
				return fmt.Errorf("seal release %v: %w", r.id, err)
			}
		}
	}
	return nil
}

// checkImageUse compares the images' sample counts with the source's.
func (c *tableCopy) checkImageUse() error {
	const q = `SELECT CAST(COALESCE(sum(sample_count), 0) AS BIGINT), CAST(COALESCE(sum(sample_count * (id % 1009)), 0) AS BIGINT) FROM images`
	var a, b [2]int64
	if err := c.src.QueryRowContext(c.ctx, q).Scan(&a[0], &a[1]); err != nil {
		return fmt.Errorf("check the images' sample counts: %w", err)
	}
	if err := c.dst.QueryRowContext(c.ctx, q).Scan(&b[0], &b[1]); err != nil {
		return fmt.Errorf("check the images' sample counts: %w", err)
	}
	if a != b {
		return fmt.Errorf("the images' sample counts came out different (%v, source %v)", b, a)
	}
	return nil
}

// syncAllIdentities moves every identity column's sequence past its largest id.
func syncAllIdentities(ctx context.Context, tx *sql.Tx) error {
	type col struct{ table, column string }
	cols, err := queryAll(ctx, tx, func(r scanner) (col, error) {
		var c col
		return c, r.Scan(&c.table, &c.column)
	}, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY table_name`)
	if err != nil {
		return err
	}
	for _, c := range cols {
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+c.table+`', '`+c.column+`'), (SELECT COALESCE(max(`+
			c.column+`), 0) + 1 FROM `+c.table+`), false)`); err != nil {
			return fmt.Errorf("table %s: %w", c.table, err)
		}
	}
	return nil
}
