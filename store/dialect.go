package store

import (
	"context"
	"database/sql"
	"strings"
	"unicode"
)

// dialect is where the store's SQL says something differently to SQLite and to
// PostgreSQL beyond placeholders (which the driver renumbers, store/pgsql.go): each
// difference is a call made where the query is built, so a query reads as what
// runs, as grafana's migrator/dialect.go does it (issue 28 item 3). The three such
// differences were once rewritten in every statement at the driver, changing
// meaning at a distance.
type dialect struct{ pg bool }

func (d *DB) dialect() dialect { return dialect{pg: d.pg} }

// jsonEach is the table function over a JSON array of values (one column, value):
// SQLite's json_each, or bw_json_each of the PostgreSQL schema
// (store/migrations_pg).
func (dl dialect) jsonEach() string {
	if dl.pg {
		return "bw_json_each"
	}
	return "json_each"
}

// numberFree is the condition, and its arguments, under which createSample's INSERT
// of a new sample under id goes ahead. For an id the store numbered, on PostgreSQL,
// it is that no other transaction under way is inserting the same id: each creator
// takes a transaction-level advisory lock on the id it tries, without waiting
// (pg_try_advisory_xact_lock), and moves to the next number when another holds it.
// Without it, two creators that counted the same samples both try one number, and
// the second's ON CONFLICT waits for the first's whole transaction to end before it
// finds the number taken (28 ms a sample, and most of CreateSample's p95, in the
// team load's profile of session 17). A given id (not numbered), and SQLite, which
// has one writer at a time, insert unconditionally.
func (dl dialect) numberFree(numbered bool, id string) (cond string, args []any) {
	if dl.pg && numbered {
		return `pg_try_advisory_xact_lock(hashtextextended(current_schema() || '/new-sample/' || CAST(? AS TEXT), 0))`, []any{id}
	}
	return "1 = 1", nil
}

// jsonField is the text of the member key of the JSON object in column col, or
// NULL when it is missing or null: SQLite's json_extract(col, '$.key'); on
// PostgreSQL the ->> of the text read as json once (the schema's json_extract
// reads it twice, to tell a null member: ->> says NULL for it already). key is
// the store's own, never a user's.
func (dl dialect) jsonField(col, key string) string {
	if dl.pg {
		return "(CAST(" + col + " AS json) ->> '" + key + "')"
	}
	return "json_extract(" + col + ", '$." + key + "')"
}

// fixedJoin joins the next table in the order written. SQLite's planner keeps the
// order of a CROSS JOIN (the store uses it where SQLite would start from the wrong
// table); PostgreSQL's CROSS JOIN takes no ON clause, and its planner chooses well.
func (dl dialect) fixedJoin() string {
	if dl.pg {
		return "JOIN"
	}
	return "CROSS JOIN"
}

// wordsMatch is the condition that the sample_words row (alias, with its dot, or
// "") holds every word of an FTS4 query of matchQuery's form, and the argument its
// one placeholder takes: SQLite's FTS4 MATCH, or on PostgreSQL a text search of the
// row's tsv column (its body's words, stored by the schema) with the query in
// tsquery syntax (tsQuery).
func (dl dialect) wordsMatch(alias, fts string) (cond string, arg any) {
	if dl.pg {
		return alias + "tsv @@ to_tsquery('simple', ?)", tsQuery(fts)
	}
	return alias + "sample_words MATCH ?", fts
}

// tsQuery turns an FTS4 query of matchQuery's form ("w1 w2*" "w3*": phrases whose
// last word is a prefix, all required) into PostgreSQL's tsquery syntax.
func tsQuery(fts string) string {
	var phrases []string
	for _, p := range strings.Split(fts, `"`) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		prefix := strings.HasSuffix(p, "*")
		words := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(words) == 0 {
			continue
		}
		if prefix {
			words[len(words)-1] += ":*"
		}
		phrases = append(phrases, "("+strings.Join(words, " <-> ")+")")
	}
	if len(phrases) == 0 {
		return "''"
	}
	return strings.Join(phrases, " & ")
}

// read is one query of readAll: its SQL and arguments, and scan, called with
// each row it returns.
type read struct {
	query string
	args  []any
	scan  func(scanner) error
}

// readRow runs one read of one row in tx, as tx.QueryRowContext(…).Scan does,
// sql.ErrNoRows when there is none; through readAll, so that on PostgreSQL the
// writes waiting in the transaction (execLater) go in its round trip rather than
// in one of their own before it.
func readRow(ctx context.Context, tx *sql.Tx, query string, args []any, scan func(scanner) error) error {
	found := false
	err := txDialect(tx).readAll(ctx, tx, read{query, args, func(r scanner) error {
		if found {
			return nil // the first row, as QueryRowContext
		}
		found = true
		return scan(r)
	}})
	if err == nil && !found {
		err = sql.ErrNoRows
	}
	return err
}

// readAllEnd is readAll of the last reads of a read-only transaction (readTx): on
// PostgreSQL its COMMIT goes in their round trip instead of one of its own after
// them, and tx sends nothing more (a statement after them is an error).
func (dl dialect) readAllEnd(ctx context.Context, tx *sql.Tx, reads ...read) error {
	if dl.pg {
		_, err := tx.ExecContext(ctx, "reads", &pgReads{reads: reads, end: true})
		return err
	}
	return dl.readAll(ctx, tx, reads...)
}

// readAll runs reads, in order, in tx. On PostgreSQL they go in one round trip
// (a pgx batch, pgReads): reads that do not depend on one another's results —
// what a write checks before it writes — cost one wait for the server instead
// of one each. SQLite, in the process, runs them one by one.
func (dl dialect) readAll(ctx context.Context, tx *sql.Tx, reads ...read) error {
	if dl.pg {
		_, err := tx.ExecContext(ctx, "reads", &pgReads{reads: reads})
		return err
	}
	for _, r := range reads {
		if err := func() error {
			rows, err := tx.QueryContext(ctx, r.query, r.args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				if err := r.scan(rows); err != nil {
					return err
				}
			}
			return rows.Err()
		}(); err != nil {
			return err
		}
	}
	return nil
}
