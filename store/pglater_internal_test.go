package store

import (
	"context"
	"database/sql"
	"errors"
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
