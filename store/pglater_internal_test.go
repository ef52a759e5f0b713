package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// TestExecLater: on PostgreSQL a write sent later (execLater, pgLater) is seen by
// the transaction's next read and by the commit, goes in the same round trip as
// the statement after it, is dropped with a rollback, and fails the transaction
// when it fails, at the statement it went with or at the commit.
func TestExecLater(t *testing.T) {
	d := pgLockDB(t)
	ctx := context.Background()
	lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
	if err != nil {
		t.Fatal(err)
	}
	count := func(entity string) int {
		t.Helper()
		var n int
		if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM audit_log WHERE entity = ?`, entity).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	insert := func(tx *sql.Tx, entity string) error {
		return execLater(ctx, tx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, 'test', ?, '', '', '')`,
			d.now(), lead.ID, entity)
	}
	errBoom := errors.New("boom")
	cases := []struct {
		name    string
		fn      func(tx *sql.Tx) error
		wantErr bool
		kept    map[string]int
		trips   int64 // round trips of the transaction: the lock with its BEGIN, then fn's, then the COMMIT
	}{
		{"a read sees the writes waiting, in the same round trip", func(tx *sql.Tx) error {
			if err := insert(tx, "read-sees"); err != nil {
				return err
			}
			if err := insert(tx, "read-sees"); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM audit_log WHERE entity = 'read-sees'`).Scan(&n); err != nil {
				return err
			}
			if n != 2 {
				t.Errorf("the read saw %d of the 2 writes waiting", n)
			}
			return nil
		}, false, map[string]int{"read-sees": 2}, 4},
		{"a batch of reads takes them along", func(tx *sql.Tx) error {
			if err := insert(tx, "batch-sees"); err != nil {
				return err
			}
			n := 0
			err := dialect{pg: true}.readAll(ctx, tx, read{`SELECT count(*) FROM audit_log WHERE entity = 'batch-sees'`, nil,
				func(r scanner) error { return r.Scan(&n) }})
			if n != 1 {
				t.Errorf("the batch of reads saw %d of the 1 write waiting", n)
			}
			return err
		}, false, map[string]int{"batch-sees": 1}, 3},
		{"the commit takes the last ones", func(tx *sql.Tx) error {
			return insert(tx, "at-commit")
		}, false, map[string]int{"at-commit": 1}, 2},
		{"a rollback drops them", func(tx *sql.Tx) error {
			if err := insert(tx, "rolled-back"); err != nil {
				return err
			}
			return errBoom
		}, true, map[string]int{"rolled-back": 0}, 2},
		{"a write that fails fails the statement it went with", func(tx *sql.Tx) error {
			if err := insert(tx, "before-failure"); err != nil {
				return err
			}
			if err := execLater(ctx, tx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, 'test', 'x', '', '', '')`,
				d.now(), -7); err != nil { // no such user: a foreign key
				return err
			}
			_, err := tx.ExecContext(ctx, `UPDATE users SET grp = grp WHERE id = ?`, lead.ID)
			if err == nil {
				t.Error("the statement sent with a failing write succeeded")
			}
			return err
		}, true, map[string]int{"before-failure": 0}, 3},
		{"a write that fails fails the commit", func(tx *sql.Tx) error {
			return execLater(ctx, tx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, 'test', 'y', '', '', '')`,
				d.now(), -7)
		}, true, map[string]int{"y": 0}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := d.pgTrips.Load()
			err := d.inTx(lockProject(ctx, 1), c.fn)
			trips := d.pgTrips.Load() - before
			if (err != nil) != c.wantErr {
				t.Fatalf("the transaction's error: %v; want an error: %v", err, c.wantErr)
			}
			for entity, n := range c.kept {
				if got := count(entity); got != n {
					t.Errorf("%d rows of %q kept, want %d", got, entity, n)
				}
			}
			if !c.wantErr && trips != c.trips {
				t.Errorf("%d round trips, want %d", trips, c.trips)
			}
		})
	}
	// The result of a write sent later has no count to give.
	err = d.inTx(lockProject(ctx, 1), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET grp = grp WHERE id = ?`, lead.ID, pgLater{})
		if err != nil {
			return err
		}
		if _, err := res.RowsAffected(); err == nil {
			t.Error("a write sent later gave a count of rows")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadAllEnd: on PostgreSQL the last reads of a read-only transaction
// (readAllEnd) take its COMMIT along in their round trip; a statement after them
// is refused; a read that fails leaves the transaction to be rolled back as
// before, and the connection usable; in a write transaction no COMMIT goes early.
func TestReadAllEnd(t *testing.T) {
	d := pgLockDB(t)
	ctx := context.Background()
	lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
	if err != nil {
		t.Fatal(err)
	}
	pg := dialect{pg: true}
	countUsers := func(n *int) read {
		return read{`SELECT count(*) FROM users`, nil, func(r scanner) error { return r.Scan(n) }}
	}
	cases := []struct {
		name    string
		write   bool
		fn      func(tx *sql.Tx) error
		wantErr error // nil: none
		trips   int64
	}{
		{"the COMMIT goes with the last reads", false, func(tx *sql.Tx) error {
			var n int
			if err := pg.readAllEnd(ctx, tx, countUsers(&n)); err != nil {
				return err
			}
			if n != 1 {
				t.Errorf("read %d users, want 1", n)
			}
			return nil
		}, nil, 1},
		{"a statement after the last reads is refused", false, func(tx *sql.Tx) error {
			var n int
			if err := pg.readAllEnd(ctx, tx, countUsers(&n)); err != nil {
				return err
			}
			return tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n)
		}, errEnded, 1},
		{"a read that fails is rolled back as before", false, func(tx *sql.Tx) error {
			var n int
			return pg.readAllEnd(ctx, tx, countUsers(&n), read{`SELECT 1 / (count(*) - count(*)) FROM users`, nil,
				func(r scanner) error { return r.Scan(&n) }})
		}, errors.New("division by zero"), 2},
		{"a write transaction commits at its end", true, func(tx *sql.Tx) error {
			if err := d.audit(ctx, tx, lead.ID, "test.end", "user", "lead", ""); err != nil {
				return err
			}
			var n int
			if err := pg.readAllEnd(ctx, tx, countUsers(&n)); err != nil {
				return err
			}
			return d.audit(ctx, tx, lead.ID, "test.end", "user", "lead", "") // still in the transaction
		}, nil, 3}, // the lock with the BEGIN, the audit row with the reads, the last row with the COMMIT
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := d.pgTrips.Load()
			var err error
			if c.write {
				err = d.inTx(ctx, c.fn)
			} else {
				err = d.readTx(ctx, c.fn)
			}
			trips := d.pgTrips.Load() - before
			switch {
			case c.wantErr == nil && err != nil:
				t.Fatalf("got %v", err)
			case c.wantErr != nil && (err == nil || !errors.Is(err, c.wantErr) && !strings.Contains(err.Error(), c.wantErr.Error())):
				t.Fatalf("got %v, want %v", err, c.wantErr)
			}
			if trips != c.trips {
				t.Errorf("%d round trips, want %d", trips, c.trips)
			}
			// Every connection of the pools is out of its transaction: the next
			// read and write transactions work, and see the write committed.
			var n int
			if err := d.readTx(ctx, func(tx *sql.Tx) error { return pg.readAllEnd(ctx, tx, countUsers(&n)) }); err != nil || n != 1 {
				t.Fatalf("the read after: %d users, %v", n, err)
			}
			if err := d.inTx(ctx, func(tx *sql.Tx) error { return d.audit(ctx, tx, lead.ID, "test.after", "user", "lead", "") }); err != nil {
				t.Fatalf("the write after: %v", err)
			}
		})
	}
	var n int
	if err := d.db.QueryRowContext(ctx, `SELECT count(*) FROM audit_log WHERE action = 'test.end'`).Scan(&n); err != nil || n != 2 {
		t.Errorf("the write transaction's row: %d, %v", n, err)
	}
}
