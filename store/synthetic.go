package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// MarkSynthetic marks the database as made by the test-data generator, whose bulk
// writers (BulkAddUsers, BulkWriteSamples) refuse any other database: they write
// reviews under verifiers' names and accept samples nobody reviewed. Only a
// database without accounts can be marked, and a marked one stays marked; a
// database that holds real work is ErrConflict, with what it holds in the message.
// Marking a marked database again is not an error.
func (d *DB) MarkSynthetic(ctx context.Context) error {
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		ok, err := synthetic(ctx, tx)
		if err != nil || ok {
			return err
		}
		var users, projects int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM projects)`).Scan(&users, &projects); err != nil {
			return err
		}
		if users > 0 || projects > 0 {
			return fmt.Errorf("%w: this database holds real work (%s, %s); generated test data only goes into a new database or one made by the generator",
				bench.ErrConflict, annotate.Plural(users, "account"), annotate.Plural(projects, "project"))
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO database_info (key, value) VALUES ('synthetic', '1')`)
		return err
	})
	if err != nil {
		return fmt.Errorf("mark the database as generated: %w", err)
	}
	return nil
}

// Synthetic reports whether MarkSynthetic marked the database.
func (d *DB) Synthetic(ctx context.Context) (bool, error) {
	var ok bool
	err := d.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		ok, err = synthetic(ctx, tx)
		return err
	})
	return ok, err
}

func synthetic(ctx context.Context, tx *sql.Tx) (bool, error) {
	var v string
	err := tx.QueryRowContext(ctx, `SELECT value FROM database_info WHERE key = 'synthetic'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return v == "1", err
}

// requireSynthetic refuses the generator's bulk writes on a database with real work.
func requireSynthetic(ctx context.Context, tx *sql.Tx) error {
	ok, err := synthetic(ctx, tx)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: generated accounts and samples are only written to a database made by the generator (bwctl gen-project on a new database)", bench.ErrConflict)
	}
	return nil
}
