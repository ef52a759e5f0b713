package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// One schema, two dialects: SQLite's migrations (store/migrations) and PostgreSQL's
// baseline (store/migrations_pg) must build the same tables, columns, types,
// constraints, indexes and triggers. TestSchemasMatch migrates a fresh database of
// each engine, reads back what each holds from its catalog into one description
// (dbSchema.facts), and compares the two.
//
// What the two engines spell differently is normalised, and the exceptions are the
// rules below, nothing else:
//
//   - types: SQLite's INTEGER is bigint, TEXT is text (PostgreSQL's text columns
//     collate "C", the byte order SQLite's BINARY sorts by; any other collation
//     shows), REAL is double precision;
//   - a primary key column is NOT NULL on both (SQLite lets a non-integer key of a
//     rowid table hold NULL; the store never writes one and PostgreSQL cannot);
//   - SQLite's INTEGER PRIMARY KEY numbers the rows an insert leaves it out of; on
//     PostgreSQL that is an identity column (both: "auto"), except for the keys in
//     writtenKeys, which always copy another table's id;
//   - an FTS4 table of SQLite (sample_words) is, on PostgreSQL, a plain table of its
//     docid (the key) and its columns as text NOT NULL, searched through a stored
//     generated tsvector column (tsv, left out) and a GIN index of its own
//     (sample_words_body, checked to be there, not compared);
//     SQLite's shadow tables of it (sample_words_content, …) are left out;
//   - PostgreSQL's bw_schema_version (migratePG's bookkeeping) is left out;
//   - the indexes that back a PRIMARY KEY or UNIQUE constraint (sqlite_autoindex_*,
//     PostgreSQL's *_pkey and *_key) are compared as those constraints;
//   - expressions (CHECK, defaults, partial indexes' WHERE) are compared after
//     normExpr: casts, redundant parentheses, case and spacing do not count, and
//     PostgreSQL's "x = ANY (ARRAY[a, b])" and "x >= a AND x <= b" read as SQLite's
//     "x IN (a, b)" and "x BETWEEN a AND b";
//   - triggers are compared by name, table, timing and events; their bodies are in
//     different languages (SQLite's RAISE, PostgreSQL's plpgsql functions); those of
//     perStatementOnPG run per statement on PostgreSQL and read as per row, with
//     SQLite's timing.

// perStatementOnPG are the triggers PostgreSQL runs once per statement where
// SQLite runs them per row (SQLite has no other kind), by name: the timing of
// SQLite's. The same effect, without rewriting one row once per inserted row
// (migrations_pg/0024), or calling a function once per inserted row to check
// its release's seal (migrations_pg/0038: the inserted rows, a transition
// table, are there only after the statement, where SQLite checks each before).
var perStatementOnPG = map[string]string{"image_use_insert": "after", "release_samples_sealed": "before"}

// writtenKeys are the INTEGER PRIMARY KEY columns of SQLite that the store always
// writes (they hold another table's id), so PostgreSQL needs no identity for them.
var writtenKeys = map[string]bool{
	"stat_policy.project_id":     true,
	"stat_rev3.revision_id":      true,
	"stat_revisions.revision_id": true,
	"video_frames.image_id":      true,
}

var (
	ftsTable     = regexp.MustCompile(`(?is)^CREATE\s+VIRTUAL\s+TABLE\s+.*\bUSING\s+fts4\b`)
	withoutRowid = regexp.MustCompile(`(?i)\bWITHOUT\s+ROWID\s*$`)
	eachRow      = regexp.MustCompile(`(?i)\bFOR\s+EACH\s+(ROW|STATEMENT)\b`)
	indexOrder   = regexp.MustCompile(`(?is)\s+(COLLATE\s+\S+\s*)?(ASC|DESC)?\s*$`)
)

// ftsShadow are the suffixes of the tables SQLite's FTS4 keeps for an FTS4 table.
var ftsShadow = []string{"_content", "_segments", "_segdir", "_docsize", "_stat"}

// pgOnlyIndexes are PostgreSQL's indexes that stand for SQLite's FTS4 index: name → table.
var pgOnlyIndexes = map[string]string{"sample_words_body": "sample_words"}

func TestSchemasMatch(t *testing.T) {
	base := os.Getenv("BENCHWRIGHT_TEST_POSTGRES")
	if base == "" {
		t.Skip("BENCHWRIGHT_TEST_POSTGRES is not set: comparing the schemas needs a PostgreSQL database (scripts/dev test sets it for a second run of the store's tests)")
	}
	ctx := context.Background()

	path := filepath.Join(t.TempDir(), "bw.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	lite, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	want, err := sqliteSchema(ctx, lite)
	if err != nil {
		t.Fatalf("read the SQLite schema: %v", err)
	}

	pgURL := newPGSchema(t, base)
	d, err = Open(ctx, pgURL)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	pg, err := sql.Open("pgx", pgURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	got, err := postgresSchema(ctx, pg)
	if err != nil {
		t.Fatalf("read the PostgreSQL schema: %v", err)
	}

	for name, table := range pgOnlyIndexes {
		if ix, ok := got.indexes[name]; !ok || ix.table != table || ix.method != "gin" {
			t.Errorf("PostgreSQL: there is no GIN index %s on %s, which serves MATCH on it", name, table)
		}
		delete(got.indexes, name)
	}
	if len(want.tables) < 30 || len(want.indexes) < 20 || len(want.triggers) < 10 { // today 40, 29, 16
		t.Fatalf("SQLite: read %d tables, %d indexes, %d triggers; the introspection misses some",
			len(want.tables), len(want.indexes), len(want.triggers))
	}
	if diff := diffFacts(want.facts(), got.facts()); len(diff) > 0 {
		t.Errorf("the schemas of SQLite (store/migrations) and PostgreSQL (store/migrations_pg) differ:\n\t%s",
			strings.Join(diff, "\n\t"))
	}
}

// newPGSchema makes a fresh schema in the PostgreSQL database at base, dropped when
// the test ends, and returns base addressing it (as storetest.NewDatabase does).
func newPGSchema(t *testing.T, base string) string {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "bwt_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("BENCHWRIGHT_TEST_POSTGRES: %v", err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatalf("PostgreSQL at BENCHWRIGHT_TEST_POSTGRES: create a test schema: %v", err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return
		}
		defer admin.Close()
		admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("BENCHWRIGHT_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// dbSchema is one engine's schema, normalised.
type dbSchema struct {
	tables   map[string]*tableSchema
	views    map[string]bool
	indexes  map[string]indexSchema
	triggers map[string]string // name → "on table timing events for each row"
}

type tableSchema struct {
	columns     []columnSchema
	primaryKey  []string
	unique      []string // "(a, b)"
	foreignKeys []string // "(a, b) references t (c, d)"
	checks      []string // normExpr
}

type columnSchema struct {
	name, typ, def string
	notNull, auto  bool
}

type indexSchema struct {
	table   string
	columns []string // name or expression, then " desc", " collate x"
	unique  bool
	method  string
	where   string
}

func newSchema() *dbSchema {
	return &dbSchema{tables: map[string]*tableSchema{}, views: map[string]bool{}, indexes: map[string]indexSchema{}, triggers: map[string]string{}}
}

// facts flattens s into one line per fact: a key naming the table, column, index
// or trigger, and its value.
func (s *dbSchema) facts() map[string]string {
	f := map[string]string{}
	for name, t := range s.tables {
		f["table "+name] = fmt.Sprintf("%d columns", len(t.columns))
		for i, c := range t.columns {
			v := fmt.Sprintf("#%d %s", i+1, c.typ)
			if c.notNull {
				v += " not null"
			}
			if c.def != "" {
				v += " default " + c.def
			}
			if c.auto {
				v += " auto"
			}
			f["table "+name+" column "+c.name] = v
		}
		f["table "+name+" primary key"] = "(" + strings.Join(t.primaryKey, ", ") + ")"
		count := func(kind string, list []string) {
			for _, x := range list {
				n, _ := strconv.Atoi(f["table "+name+" "+kind+" "+x])
				f["table "+name+" "+kind+" "+x] = strconv.Itoa(n + 1)
			}
		}
		count("unique", t.unique)
		count("foreign key", t.foreignKeys)
		count("check", t.checks)
	}
	for name := range s.views {
		f["view "+name] = ""
	}
	for name, ix := range s.indexes {
		v := "on " + ix.table + " (" + strings.Join(ix.columns, ", ") + ")"
		if ix.unique {
			v = "unique " + v
		}
		if ix.method != "btree" {
			v += " using " + ix.method
		}
		if ix.where != "" {
			v += " where " + ix.where
		}
		f["index "+name] = v
	}
	for name, v := range s.triggers {
		f["trigger "+name] = v
	}
	return f
}

// diffFacts lists, in key order, the facts sqlite and pg disagree on.
func diffFacts(sqlite, pg map[string]string) []string {
	var keys []string
	for k := range sqlite {
		keys = append(keys, k)
	}
	for k := range pg {
		if _, ok := sqlite[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		a, inA := sqlite[k]
		b, inB := pg[k]
		switch {
		case !inB:
			out = append(out, fmt.Sprintf("%s: only on SQLite (%s)", k, a))
		case !inA:
			out = append(out, fmt.Sprintf("%s: only on PostgreSQL (%s)", k, b))
		case a != b:
			out = append(out, fmt.Sprintf("%s: SQLite %q, PostgreSQL %q", k, a, b))
		}
	}
	return out
}

// sqliteSchema reads the schema of the SQLite database db.
func sqliteSchema(ctx context.Context, db *sql.DB) (*dbSchema, error) {
	s := newSchema()
	type object struct{ typ, name, table, sql string }
	objects, err := queryAll(ctx, db, func(r scanner) (o object, err error) {
		var text sql.NullString
		err = r.Scan(&o.typ, &o.name, &o.table, &text)
		o.sql = text.String
		return o, err
	}, `SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY type, name`)
	if err != nil {
		return nil, err
	}
	fts := map[string]bool{}
	for _, o := range objects {
		if o.typ == "table" && ftsTable.MatchString(o.sql) {
			fts[o.name] = true
		}
	}
	shadow := func(name string) bool {
		for t := range fts {
			for _, suffix := range ftsShadow {
				if name == t+suffix {
					return true
				}
			}
		}
		return false
	}
	for _, o := range objects {
		switch {
		case o.typ == "view":
			s.views[o.name] = true
		case o.typ == "trigger":
			v, err := triggerFact(o.sql, o.table, "row")
			if err != nil {
				return nil, err
			}
			s.triggers[o.name] = v
		case o.typ == "table" && !shadow(o.name):
			t, err := sqliteTable(ctx, db, o.name, o.sql, fts[o.name])
			if err != nil {
				return nil, fmt.Errorf("table %s: %w", o.name, err)
			}
			s.tables[o.name] = t
		case o.typ == "index": // sqlite_autoindex_* are left out: their constraints say them
			ix, err := sqliteIndex(ctx, db, o.name, o.table, o.sql)
			if err != nil {
				return nil, fmt.Errorf("index %s: %w", o.name, err)
			}
			s.indexes[o.name] = ix
		}
	}
	return s, nil
}

func sqliteTable(ctx context.Context, db *sql.DB, name, createSQL string, fts bool) (*tableSchema, error) {
	t := &tableSchema{}
	type col struct {
		name, typ string
		notNull   bool
		def       sql.NullString
		pk        int
	}
	cols, err := queryAll(ctx, db, func(r scanner) (c col, err error) {
		err = r.Scan(&c.name, &c.typ, &c.notNull, &c.def, &c.pk)
		return c, err
	}, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, name)
	if err != nil {
		return nil, err
	}
	if fts {
		// FTS4: docid and the text columns (see the rules above).
		t.columns = append(t.columns, columnSchema{name: "docid", typ: "bigint", notNull: true})
		for _, c := range cols {
			t.columns = append(t.columns, columnSchema{name: c.name, typ: "text", notNull: true})
		}
		t.primaryKey = []string{"docid"}
		return t, nil
	}
	pks := 0
	for _, c := range cols {
		if c.pk > 0 {
			pks++
		}
	}
	rowid := !withoutRowid.MatchString(stripComments(createSQL))
	t.primaryKey = make([]string, pks)
	for _, c := range cols {
		cs := columnSchema{name: c.name, typ: sqliteType(c.typ), notNull: c.notNull || c.pk > 0}
		if c.def.Valid {
			cs.def = normExpr(c.def.String)
		}
		if c.pk > 0 {
			t.primaryKey[c.pk-1] = c.name
			cs.auto = pks == 1 && strings.EqualFold(c.typ, "INTEGER") && rowid && !writtenKeys[name+"."+c.name]
		}
		t.columns = append(t.columns, cs)
	}
	type ix struct {
		name, origin string
	}
	ixs, err := queryAll(ctx, db, func(r scanner) (i ix, err error) {
		err = r.Scan(&i.name, &i.origin)
		return i, err
	}, `SELECT name, origin FROM pragma_index_list(?) WHERE origin = 'u' ORDER BY name`, name)
	if err != nil {
		return nil, err
	}
	for _, i := range ixs {
		cols, err := queryAll(ctx, db, scanString, `SELECT name FROM pragma_index_info(?) ORDER BY seqno`, i.name)
		if err != nil {
			return nil, err
		}
		t.unique = append(t.unique, "("+strings.Join(cols, ", ")+")")
	}
	type fkRow struct {
		id             int
		table, from    string
		to             sql.NullString
		update, delete string
	}
	fks, err := queryAll(ctx, db, func(r scanner) (f fkRow, err error) {
		err = r.Scan(&f.id, &f.table, &f.from, &f.to, &f.update, &f.delete)
		return f, err
	}, `SELECT id, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(fks); {
		j := i
		var from, to []string
		for ; j < len(fks) && fks[j].id == fks[i].id; j++ {
			from = append(from, fks[j].from)
			if fks[j].to.Valid {
				to = append(to, fks[j].to.String)
			}
		}
		if len(to) == 0 { // REFERENCES t: its primary key
			to, err = queryAll(ctx, db, scanString, `SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`, fks[i].table)
			if err != nil {
				return nil, err
			}
		}
		t.foreignKeys = append(t.foreignKeys, fkFact(from, fks[i].table, to, fks[i].update, fks[i].delete))
		i = j
	}
	for _, c := range sqlChecks(createSQL) {
		t.checks = append(t.checks, normExpr(c))
	}
	return t, nil
}

func sqliteIndex(ctx context.Context, db *sql.DB, name, table, createSQL string) (indexSchema, error) {
	ix := indexSchema{table: table, method: "btree"}
	unique, err := queryAll(ctx, db, func(r scanner) (u bool, err error) {
		err = r.Scan(&u)
		return u, err
	}, `SELECT "unique" FROM pragma_index_list(?) WHERE name = ?`, table, name)
	if err != nil || len(unique) != 1 {
		return ix, fmt.Errorf("not in pragma_index_list(%s): %v", table, err)
	}
	ix.unique = unique[0]
	exprs, where := splitIndexSQL(createSQL)
	type col struct {
		cid  int
		name sql.NullString
		desc bool
		coll string
	}
	cols, err := queryAll(ctx, db, func(r scanner) (c col, err error) {
		err = r.Scan(&c.cid, &c.name, &c.desc, &c.coll)
		return c, err
	}, `SELECT cid, name, "desc", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`, name)
	if err != nil {
		return ix, err
	}
	if len(cols) != len(exprs) {
		return ix, fmt.Errorf("%d columns in pragma_index_xinfo, %d in %q", len(cols), len(exprs), createSQL)
	}
	for i, c := range cols {
		v := strings.ToLower(c.name.String)
		if c.cid == -2 { // an expression
			v = normExpr(exprs[i])
		}
		if c.desc {
			v += " desc"
		}
		if !strings.EqualFold(c.coll, "BINARY") {
			v += " collate " + strings.ToLower(c.coll)
		}
		ix.columns = append(ix.columns, v)
	}
	if where != "" {
		ix.where = normExpr(where)
	}
	return ix, nil
}

// sqliteType is the PostgreSQL type that stands for SQLite's declared type decl.
func sqliteType(decl string) string {
	switch strings.ToUpper(decl) {
	case "INTEGER":
		return "bigint"
	case "TEXT":
		return "text"
	case "REAL":
		return "double precision"
	case "BLOB":
		return "bytea"
	case "":
		return "(no type)"
	}
	return strings.ToLower(decl)
}

// postgresSchema reads the schema of db's current schema (its search_path).
func postgresSchema(ctx context.Context, db *sql.DB) (*dbSchema, error) {
	s := newSchema()
	const ns = `(SELECT oid FROM pg_namespace WHERE nspname = current_schema())`
	type rel struct {
		name, kind string
	}
	rels, err := queryAll(ctx, db, func(r scanner) (x rel, err error) {
		err = r.Scan(&x.name, &x.kind)
		return x, err
	}, `SELECT relname, relkind::text FROM pg_class WHERE relnamespace = `+ns+` AND relkind IN ('r', 'p', 'v', 'm') ORDER BY relname`)
	if err != nil {
		return nil, err
	}
	for _, r := range rels {
		switch {
		case r.name == "bw_schema_version":
		case r.kind == "v" || r.kind == "m":
			s.views[r.name] = true
		default:
			s.tables[r.name] = &tableSchema{}
		}
	}
	if len(s.tables) == 0 {
		return nil, fmt.Errorf("no tables in the current schema")
	}

	type col struct {
		table, name, typ, def, identity, coll string
		notNull                               bool
	}
	cols, err := queryAll(ctx, db, func(r scanner) (c col, err error) {
		err = r.Scan(&c.table, &c.name, &c.typ, &c.notNull, &c.def, &c.identity, &c.coll)
		return c, err
	}, `SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
			COALESCE(pg_get_expr(d.adbin, d.adrelid), ''), a.attidentity::text, COALESCE(co.collname, '')
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		LEFT JOIN pg_collation co ON co.oid = a.attcollation
		WHERE c.relnamespace = `+ns+` AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
			AND NOT (c.relname = 'sample_words' AND a.attname = 'tsv' AND a.attgenerated = 's')
		ORDER BY c.relname, a.attnum`)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		t := s.tables[c.table]
		if t == nil {
			continue
		}
		cs := columnSchema{name: c.name, typ: c.typ, notNull: c.notNull, auto: c.identity != ""}
		if c.coll != "" && c.coll != "C" {
			cs.typ += " collate " + c.coll
		}
		if strings.HasPrefix(c.def, "nextval(") { // serial
			cs.auto = true
		} else if c.def != "" {
			cs.def = normExpr(c.def)
		}
		t.columns = append(t.columns, cs)
	}

	type con struct {
		table, kind, def, cols, ref, refCols, update, delete string
	}
	cons, err := queryAll(ctx, db, func(r scanner) (c con, err error) {
		err = r.Scan(&c.table, &c.kind, &c.def, &c.cols, &c.ref, &c.refCols, &c.update, &c.delete)
		return c, err
	}, `SELECT c.relname, k.contype::text, pg_get_constraintdef(k.oid, true),
			array_to_string(ARRAY(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(n, o)
				JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o), ', '),
			COALESCE(f.relname, ''),
			array_to_string(ARRAY(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(n, o)
				JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o), ', '),
			k.confupdtype::text, k.confdeltype::text
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid LEFT JOIN pg_class f ON f.oid = k.confrelid
		WHERE c.relnamespace = `+ns+` ORDER BY c.relname, k.conname`)
	if err != nil {
		return nil, err
	}
	actions := map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}
	for _, c := range cons {
		t := s.tables[c.table]
		if t == nil {
			continue
		}
		switch c.kind {
		case "p":
			t.primaryKey = strings.Split(c.cols, ", ")
		case "u":
			t.unique = append(t.unique, "("+c.cols+")")
		case "f":
			t.foreignKeys = append(t.foreignKeys, fkFact(strings.Split(c.cols, ", "), c.ref, strings.Split(c.refCols, ", "),
				actions[c.update], actions[c.delete]))
		case "c":
			def := strings.TrimSuffix(c.def, " NOT VALID")
			def, ok := strings.CutPrefix(def, "CHECK ")
			if !ok {
				return nil, fmt.Errorf("table %s: a check constraint reads %q", c.table, c.def)
			}
			t.checks = append(t.checks, normExpr(def))
		case "n": // NOT NULL (PostgreSQL 18 on): attnotnull says it
		default:
			t.checks = append(t.checks, "constraint of kind "+c.kind+": "+c.def)
		}
	}
	for _, t := range s.tables {
		if t.primaryKey == nil {
			t.primaryKey = []string{}
		}
	}

	type ixCol struct {
		name, table, method, where, expr, coll string
		unique, desc                           bool
		include                                int
	}
	ixCols, err := queryAll(ctx, db, func(r scanner) (c ixCol, err error) {
		err = r.Scan(&c.name, &c.table, &c.unique, &c.method, &c.where, &c.include, &c.expr, &c.desc, &c.coll)
		return c, err
	}, `SELECT i.relname, t.relname, ix.indisunique, am.amname, COALESCE(pg_get_expr(ix.indpred, ix.indrelid, true), ''),
			ix.indnatts - ix.indnkeyatts, pg_get_indexdef(ix.indexrelid, k, true), (ix.indoption[k - 1] & 1) = 1,
			COALESCE(co.collname, '')
		FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
		JOIN pg_am am ON am.oid = i.relam
		CROSS JOIN LATERAL generate_series(1, ix.indnkeyatts) k
		LEFT JOIN pg_collation co ON co.oid = ix.indcollation[k - 1]
		WHERE t.relnamespace = `+ns+` AND t.relname <> 'bw_schema_version'
			AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.conrelid = ix.indrelid
				AND c.contype IN ('p', 'u', 'x'))
		ORDER BY i.relname, k`)
	if err != nil {
		return nil, err
	}
	for _, c := range ixCols {
		ix, ok := s.indexes[c.name]
		if !ok {
			ix = indexSchema{table: c.table, unique: c.unique, method: c.method}
			if c.where != "" {
				ix.where = normExpr(c.where)
			}
			if c.include > 0 {
				ix.method += fmt.Sprintf(" including %d more columns", c.include)
			}
		}
		v := normExpr(c.expr)
		if c.desc {
			v += " desc"
		}
		if c.coll != "" && c.coll != "C" && c.coll != "default" {
			v += " collate " + strings.ToLower(c.coll)
		}
		ix.columns = append(ix.columns, v)
		s.indexes[c.name] = ix
	}

	type trig struct{ name, table, def string }
	trigs, err := queryAll(ctx, db, func(r scanner) (x trig, err error) {
		err = r.Scan(&x.name, &x.table, &x.def)
		return x, err
	}, `SELECT tg.tgname, c.relname, pg_get_triggerdef(tg.oid)
		FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
		WHERE NOT tg.tgisinternal AND c.relnamespace = `+ns+` ORDER BY tg.tgname`)
	if err != nil {
		return nil, err
	}
	for _, x := range trigs {
		level := "row"
		if m := eachRow.FindStringSubmatch(x.def); m != nil {
			level = strings.ToLower(m[1])
		}
		sqliteTiming, perStatement := perStatementOnPG[x.name]
		if perStatement && level == "statement" {
			level = "row" // the same effect, once per statement (migrations_pg/0024, 0038)
		}
		v, err := triggerFact(x.def, x.table, level)
		if err != nil {
			return nil, err
		}
		if perStatement && level == "row" {
			v = strings.Replace(v, " after ", " "+sqliteTiming+" ", 1)
		}
		s.triggers[x.name] = v
	}
	return s, nil
}

// fkFact describes a foreign key: "(from) references table (to)", and its actions
// when they are not the default.
func fkFact(from []string, table string, to []string, update, delete string) string {
	v := "(" + strings.Join(from, ", ") + ") references " + table + " (" + strings.Join(to, ", ") + ")"
	if !strings.EqualFold(update, "NO ACTION") {
		v += " on update " + strings.ToLower(update)
	}
	if !strings.EqualFold(delete, "NO ACTION") {
		v += " on delete " + strings.ToLower(delete)
	}
	return v
}

var triggerHead = regexp.MustCompile(`(?is)^CREATE\s+(?:CONSTRAINT\s+)?(?:TEMP\s+|TEMPORARY\s+)?TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?\S+\s+` +
	`(?:(BEFORE|AFTER|INSTEAD\s+OF)\s+)?(.+?)\s+ON\s`)

// triggerFact describes a trigger by its CREATE TRIGGER statement: its table,
// timing and events (SQLite's default timing is BEFORE).
func triggerFact(createSQL, table, level string) (string, error) {
	m := triggerHead.FindStringSubmatch(strings.Join(strings.Fields(stripComments(createSQL)), " "))
	if m == nil {
		return "", fmt.Errorf("cannot read the trigger %q", createSQL)
	}
	timing := strings.ToLower(m[1])
	if timing == "" {
		timing = "before"
	}
	return fmt.Sprintf("on %s %s %s for each %s", table, timing, normExpr(m[2]), level), nil
}

// stripComments replaces the comments of the SQL text s by a space.
func stripComments(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '"' || c == '`':
			j := skipQuoted(s, i)
			b.WriteString(s[i:j])
			i = j - 1
		case c == '-' && strings.HasPrefix(s[i:], "--"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				j = len(s) - i
			}
			b.WriteByte(' ')
			i += j - 1
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				j = len(s) - i - 4
			}
			b.WriteByte(' ')
			i += j + 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// skipQuoted returns the index just after the quoted literal or name at s[i].
func skipQuoted(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// closeParen returns the index of the parenthesis that closes the one at s[open],
// or -1.
func closeParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\'', '"', '`':
			i = skipQuoted(s, i) - 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// sqlChecks returns the expressions of the CHECK constraints in a CREATE TABLE.
func sqlChecks(createSQL string) []string {
	s := stripComments(createSQL)
	var out []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(s, i) - 1
		case isNameStart(c) && (i == 0 || !isNamePart(s[i-1])):
			j := i
			for j < len(s) && isNamePart(s[j]) {
				j++
			}
			if strings.EqualFold(s[i:j], "CHECK") {
				k := j
				for k < len(s) && strings.ContainsRune(" \t\r\n", rune(s[k])) {
					k++
				}
				if k < len(s) && s[k] == '(' {
					if end := closeParen(s, k); end > 0 {
						out = append(out, s[k+1:end])
						j = end + 1
					}
				}
			}
			i = j - 1
		}
	}
	return out
}

// splitIndexSQL returns the key expressions of a CREATE INDEX and its WHERE.
func splitIndexSQL(createSQL string) (exprs []string, where string) {
	s := stripComments(createSQL)
	open := strings.IndexByte(s, '(')
	end := closeParen(s, open)
	if open < 0 || end < 0 {
		return nil, ""
	}
	depth, start := 0, open+1
	for i := open + 1; i < end; i++ {
		switch s[i] {
		case '\'', '"', '`':
			i = skipQuoted(s, i) - 1
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				exprs = append(exprs, s[start:i])
				start = i + 1
			}
		}
	}
	exprs = append(exprs, s[start:end])
	for i, e := range exprs {
		// The order and collation are pragma_index_xinfo's to tell.
		e = indexOrder.ReplaceAllString(" "+e, "")
		exprs[i] = strings.TrimSpace(e)
	}
	rest := strings.TrimSpace(s[end+1:])
	if len(rest) >= 5 && strings.EqualFold(rest[:5], "WHERE") {
		where = strings.TrimSpace(rest[5:])
	}
	return exprs, where
}

// normExpr writes an SQL expression as one line both engines' spellings of it
// agree on (see the rules above).
func normExpr(s string) string {
	toks := sqlTokens(s)
	// Casts: x::text, x::double precision, x::text[].
	var out []string
	for i := 0; i < len(toks); i++ {
		if toks[i] != "::" {
			out = append(out, toks[i])
			continue
		}
		i++ // the type's first word
		for i+1 < len(toks) && slices.Contains([]string{"precision", "varying", "with", "without", "time", "zone"}, toks[i+1]) {
			i++
		}
		if i+2 < len(toks) && toks[i+1] == "(" && toks[i+3] == ")" {
			i += 3
		}
		for i+2 < len(toks) && toks[i+1] == "[" && toks[i+2] == "]" {
			i += 2
		}
	}
	toks = out
	// x = ANY (ARRAY[a, b]) → x IN (a, b); x <> ALL (ARRAY[a, b]) → x NOT IN (a, b).
	out = nil
	for i := 0; i < len(toks); i++ {
		if i+4 < len(toks) && (toks[i] == "=" && toks[i+1] == "any" || toks[i] == "<>" && toks[i+1] == "all") &&
			toks[i+2] == "(" && toks[i+3] == "array" && toks[i+4] == "[" {
			end := matchTok(toks, i+4, "[", "]")
			if end > 0 && end+1 < len(toks) && toks[end+1] == ")" {
				if toks[i] == "<>" {
					out = append(out, "not")
				}
				out = append(out, "in", "(")
				out = append(out, toks[i+5:end]...)
				out = append(out, ")")
				i = end + 1
				continue
			}
		}
		out = append(out, toks[i])
	}
	toks = out
	// x BETWEEN a AND b → x >= a AND x <= b (of single words).
	out = nil
	for i := 0; i < len(toks); i++ {
		if toks[i] == "between" && i > 0 && i+3 < len(toks) && toks[i+2] == "and" && out[len(out)-1] != ")" {
			x := out[len(out)-1]
			out = append(out, ">=", toks[i+1], "and", x, "<=", toks[i+3])
			i += 3
			continue
		}
		out = append(out, toks[i])
	}
	toks = out
	// Parentheses that only group go, except around an OR inside more (which
	// changes the meaning); those of a call or an IN list stay.
	keep := make([]bool, len(toks))
	call := make([]bool, len(toks))
	for i := range toks {
		keep[i] = true
	}
	for i, tok := range toks {
		if tok != "(" {
			continue
		}
		end := matchTok(toks, i, "(", ")")
		if end < 0 {
			continue
		}
		if i > 0 && isNameStart(toks[i-1][0]) &&
			!slices.Contains([]string{"and", "or", "not", "when", "then", "else", "where", "check", "on", "is", "select"}, toks[i-1]) {
			call[i] = toks[i-1] != "in"
			continue
		}
		whole := i == 0 && end == len(toks)-1
		if whole || !topLevelOr(toks[i+1:end]) {
			keep[i], keep[end] = false, false
		}
	}
	var b strings.Builder
	prev := ""
	for i, tok := range toks {
		if !keep[i] {
			continue
		}
		if b.Len() > 0 && !call[i] && prev != "(" && tok != ")" && tok != "," {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
		prev = tok
	}
	return b.String()
}

// topLevelOr tells whether toks hold an OR outside parentheses.
func topLevelOr(toks []string) bool {
	depth := 0
	for _, t := range toks {
		switch t {
		case "(":
			depth++
		case ")":
			depth--
		case "or":
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// matchTok returns the index of the token closing toks[open], or -1.
func matchTok(toks []string, open int, o, c string) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case o:
			depth++
		case c:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// sqlTokens splits an SQL expression into tokens: literals as written, names and
// keywords in lower case (unquoted), numbers, and operators.
func sqlTokens(s string) []string {
	var toks []string
	s = stripComments(s)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'':
			j := skipQuoted(s, i)
			toks = append(toks, s[i:j])
			i = j
		case c == '"' || c == '`':
			j := skipQuoted(s, i)
			toks = append(toks, strings.ToLower(s[i+1:max(j-1, i+1)]))
			i = j
		case isNameStart(c):
			j := i
			for j < len(s) && (isNamePart(s[j]) || s[j] == '$') {
				j++
			}
			toks = append(toks, strings.ToLower(s[i:j]))
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E') {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			op := string(c)
			for _, two := range []string{"::", "<=", ">=", "<>", "!=", "==", "||"} {
				if strings.HasPrefix(s[i:], two) {
					op = two
				}
			}
			i += len(op)
			switch op {
			case "==":
				op = "="
			case "!=":
				op = "<>"
			}
			toks = append(toks, op)
		}
	}
	return toks
}
