package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/benchwright/benchwright/bench"
)

// A copy into PostgreSQL is one transaction, and so one server process, which on
// a machine of two cores leaves the other idle: the words' table alone (its
// generated tsv, to_tsvector of every body, and its text index) is a third of
// the server's work. The tables of copyBeside are therefore written beside the
// copy's transaction, on a second connection, into a staging schema of their
// own (copyStaging) that nothing else reads: each a new table made LIKE the
// destination's, its rows, its keys and indexes under their own names. That
// transaction commits on its own; the copy's transaction then swaps each
// staged table in for the destination's empty one (publishBeside: DROP TABLE,
// ALTER TABLE … SET SCHEMA) and commits as before. So nothing of the copy is
// seen in the destination's schema before that commit, all of it after, and a
// copy that fails — in either transaction, or between them — leaves the
// destination's tables as it found them: only the staging schema may remain,
// which the copy drops (dropStaging), or, after a crash, the next copy into the
// same destination does (it holds the destination's writers' lock, so no other
// copy into it runs meanwhile).
//
// Only a role that may create a schema in the database does this, and only
// tables that nothing else hangs on are staged (besideTables): no foreign
// key to or from them, no trigger, rule, view, policy, publication, inheritance,
// extended statistics, storage options, grants, comment, or owner other than the
// copy's role — all of which a swapped-in table would lose. A table that is not
// that plain, and every table when the source is PostgreSQL (its one read
// transaction cannot serve two readers at once), is copied in the copy's
// transaction as before. A SQLite source's one read transaction serves both
// connections (database/sql takes turns on its connection between the two
// goroutines' steps), so both read one snapshot.
//
// What another user of the destination sees meanwhile: as before, the tables
// whose indexes the copy's transaction dropped (most of them) are locked from
// the start, and their readers wait for its end; the staged tables' destination
// tables stay readable, empty, until the swap locks them, near the end; a schema
// named bw_copy_… is in the catalog while the copy runs. After the commit,
// everything at once; the swapped tables are new tables under the old names
// (other sessions' prepared statements are planned again, by PostgreSQL).

// copyBeside are the tables a copy into PostgreSQL may write on its second
// connection, in this order: the words (their generated tsv and text index) and
// the search rows (nine indexes), then the two largest of the dashboard's
// summaries (the verifiers' review times, each revision's tags), so that the two
// connections end at about the same time: with the words and search rows alone,
// at 100,000 samples, the second connection was done about 2.5 s before the
// copy's transaction, one core idle meanwhile.
var copyBeside = []string{"sample_words", "sample_search", "stat_review_times", "stat_revisions"}

// besideTable is one table staged beside the copy: its names, and its keys and
// indexes as the destination defines them, to be made on the staged table.
type besideTable struct {
	name    string   // unquoted, as in copyTables
	dst     string   // the destination's table, schema-qualified and quoted
	staged  string   // the staged table, schema-qualified and quoted
	keys    []pgKey  // primary key and UNIQUE constraints, added after the rows
	indexes []string // CREATE INDEX statements naming the staged table
}

// copyStaging is the staging schema of copies into the destination schema named
// schema: one name for each destination, so that a copy finds what a crashed one
// left.
func copyStaging(schema string) string {
	return fmt.Sprintf("bw_copy_%x", sha256.Sum256([]byte(schema)))[:24]
}

// besideTables returns the copyBeside tables of the destination dst (the copy's
// transaction) that may be staged, with their keys and indexes, and the staging
// schema's name.
func besideTables(ctx context.Context, dst *sql.Tx) ([]besideTable, string, error) {
	var schema string
	var may bool
	if err := dst.QueryRowContext(ctx, `SELECT current_schema(),
			has_database_privilege(current_database(), 'CREATE') AND has_schema_privilege(current_schema(), 'CREATE')`).Scan(&schema, &may); err != nil {
		return nil, "", fmt.Errorf("read the destination's schema: %w", err)
	}
	if !may { // a role that may not make the staging schema, or move a table into the destination's
		return nil, "", nil
	}
	staging := copyStaging(schema)
	var out []besideTable
	for _, name := range copyBeside {
		var plain bool
		var dstName, stagedName string
		err := dst.QueryRowContext(ctx, `SELECT format('%I.%I', n.nspname, t.relname), format('%I.%I', ?::text, t.relname),
				t.relkind = 'r' AND t.relpersistence = 'p' AND t.relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)
				AND t.relacl IS NULL AND t.reloptions IS NULL AND NOT t.relrowsecurity AND NOT t.relhassubclass
				AND obj_description(t.oid, 'pg_class') IS NULL
				AND NOT EXISTS (SELECT 1 FROM pg_inherits WHERE inhrelid = t.oid)
				AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE contype = 'f' AND (conrelid = t.oid OR confrelid = t.oid))
				AND NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = t.oid)
				AND NOT EXISTS (SELECT 1 FROM pg_rewrite WHERE ev_class = t.oid)
				AND NOT EXISTS (SELECT 1 FROM pg_depend WHERE refobjid = t.oid AND classid = 'pg_rewrite'::regclass)
				AND NOT EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = t.oid)
				AND NOT EXISTS (SELECT 1 FROM pg_publication_rel WHERE prrelid = t.oid)
				AND NOT EXISTS (SELECT 1 FROM pg_statistic_ext WHERE stxrelid = t.oid)
			FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
			WHERE n.nspname = current_schema() AND t.relname = ?`, staging, name).Scan(&dstName, &stagedName, &plain)
		if err != nil {
			return nil, "", fmt.Errorf("read the destination's table %s: %w", name, err)
		}
		if !plain {
			continue
		}
		b := besideTable{name: name, dst: dstName, staged: stagedName}
		b.keys, err = queryAll(ctx, dst, func(r scanner) (pgKey, error) {
			var k pgKey
			return k, r.Scan(&k.name, &k.def)
		}, `SELECT format('%I', c.conname), pg_get_constraintdef(c.oid) FROM pg_constraint c
			WHERE c.conrelid = (quote_ident(current_schema()) || '.' || quote_ident(?))::regclass AND c.contype IN ('p', 'u')
			ORDER BY c.conname`, name)
		if err != nil {
			return nil, "", fmt.Errorf("read the keys of the destination's table %s: %w", name, err)
		}
		for i := range b.keys {
			b.keys[i].table = stagedName
		}
		defs, err := queryAll(ctx, dst, scanString, `SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
			WHERE i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(?))::regclass
				AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
			ORDER BY ic.relname`, name)
		if err != nil {
			return nil, "", fmt.Errorf("read the indexes of the destination's table %s: %w", name, err)
		}
		ok := true
		for _, def := range defs {
			on := " ON " + dstName + " USING "
			if strings.Count(def, on) != 1 {
				ok = false // a definition this code does not know how to point elsewhere
				break
			}
			b.indexes = append(b.indexes, strings.Replace(def, on, " ON "+stagedName+" USING ", 1))
		}
		if ok {
			out = append(out, b)
		}
	}
	return out, staging, nil
}

// besideCopy is the copy of the staged tables on the destination's second
// connection, running beside the copy's transaction.
type besideCopy struct {
	tables  []besideTable
	staging string
	done    chan struct{}
	err     error
	rows    map[string]int64
	cancel  context.CancelFunc
	// committed: the staging schema was committed, and is the destination's to
	// drop if the copy fails from here on.
	committed bool
}

// startBeside starts copying the tables of side from the source, which c reads,
// into the staging schema, in a transaction of its own on another of to's
// connections. wait tells how it ended.
func (c *tableCopy) startBeside(tables []besideTable, staging string) *besideCopy {
	ctx, cancel := context.WithCancel(c.ctx)
	b := &besideCopy{tables: tables, staging: staging, done: make(chan struct{}), rows: map[string]int64{}, cancel: cancel}
	go func() {
		defer close(b.done)
		b.err = runTx(ctx, c.to.db, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, func(tx *sql.Tx) error {
			// What a crashed copy into this destination left (the copy's
			// transaction holds the destination's writers' lock: no other
			// copy into it runs).
			for _, q := range []string{`DROP SCHEMA IF EXISTS ` + staging + ` CASCADE`, `CREATE SCHEMA ` + staging,
				`SET LOCAL maintenance_work_mem = '256MB'`} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("make the copy's staging schema %s: %w", staging, err)
				}
			}
			side := *c
			side.ctx, side.dst, side.schema = ctx, tx, staging
			for _, t := range tables {
				if _, err := tx.ExecContext(ctx, `CREATE TABLE `+t.staged+` (LIKE `+t.dst+` INCLUDING ALL EXCLUDING INDEXES)`); err != nil {
					return fmt.Errorf("copy table %s: make its staged table: %w", t.name, err)
				}
				n, err := side.table(t.name)
				if err != nil {
					return fmt.Errorf("copy table %s: %w", t.name, err)
				}
				b.rows[t.name] = n
				if err := pgRebuildKeys(ctx, tx, t.keys); err != nil {
					return err
				}
				for _, def := range t.indexes {
					if _, err := tx.ExecContext(ctx, def); err != nil {
						return fmt.Errorf("copy table %s: build its index: %w", t.name, err)
					}
				}
			}
			return nil
		})
		b.committed = b.err == nil
	}()
	return b
}

// wait waits for the staged copy to end and returns its error.
func (b *besideCopy) wait() error {
	<-b.done
	return b.err
}

// stop ends the staged copy (if it still runs) and waits for it.
func (b *besideCopy) stop() {
	b.cancel()
	<-b.done
}

// publishBeside swaps the staged tables in for the destination's, in the copy's
// transaction dst, once the staged copy has committed: each destination table,
// locked and found still empty, is dropped and its staged one moved into the
// destination's schema, with its keys, indexes and identity sequence; the
// staging schema, empty then, is dropped.
func publishBeside(ctx context.Context, dst *sql.Tx, b *besideCopy) error {
	for _, t := range b.tables {
		if _, err := dst.ExecContext(ctx, `LOCK TABLE `+t.dst+` IN ACCESS EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("copy table %s: lock the destination's: %w", t.name, err)
		}
		var one int
		err := dst.QueryRowContext(ctx, `SELECT 1 FROM `+t.dst+` LIMIT 1`).Scan(&one)
		if err == nil {
			return fmt.Errorf("%w: the destination's table %s got rows during the copy (another program writes to it); nothing was copied",
				bench.ErrConflict, t.name)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("copy table %s: read the destination's: %w", t.name, err)
		}
		var schema string
		if err := dst.QueryRowContext(ctx, `SELECT quote_ident(current_schema())`).Scan(&schema); err != nil {
			return fmt.Errorf("read the destination's schema: %w", err)
		}
		for _, q := range []string{`DROP TABLE ` + t.dst, `ALTER TABLE ` + t.staged + ` SET SCHEMA ` + schema} {
			if _, err := dst.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("copy table %s: put its rows in place: %w", t.name, err)
			}
		}
	}
	if _, err := dst.ExecContext(ctx, `DROP SCHEMA `+b.staging); err != nil {
		return fmt.Errorf("drop the copy's staging schema %s: %w", b.staging, err)
	}
	return nil
}

// dropStaging drops the staging schema a failed copy committed, on a connection
// of its own once the copy's transaction has ended; a copy cancelled by its
// caller still cleans up, for a while.
func dropStaging(ctx context.Context, to *DB, staging string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if _, err := to.db.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+staging+` CASCADE`); err != nil {
		return fmt.Errorf("drop the copy's staging schema %s: %w", staging, err)
	}
	return nil
}

// besideNames are the names of the staged tables.
func besideNames(tables []besideTable) []string {
	var out []string
	for _, t := range tables {
		out = append(out, t.name)
	}
	return out
}

// lockedProgress serializes calls to progress, which the staged copy makes from
// its own goroutine.
func lockedProgress(progress func(string, int64)) func(string, int64) {
	if progress == nil {
		return nil
	}
	var mu sync.Mutex
	return func(table string, rows int64) {
		mu.Lock()
		defer mu.Unlock()
		progress(table, rows)
	}
}
