package store

import (
	"context"
	"database/sql"
	"testing"
)

// TestBesideReads: on PostgreSQL the transaction beside another sees what that
// one sees (a row written after its snapshot is not there) on a connection of
// its own, and there is none while every reader's connection is taken, nor on
// SQLite: the caller then reads on its own.
func TestBesideReads(t *testing.T) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		d, err := Open(ctx, t.TempDir()+"/b.db")
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		err = d.readTx(ctx, func(tx *sql.Tx) error {
			side := d.besideOf(tx)
			defer side.close()
			if side.open(ctx) != nil {
				t.Error("SQLite opened a transaction beside")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		d := pgLockDB(t)
		lead, err := d.CreateFirstLead(ctx, "lead", "lead-long-password")
		if err != nil {
			t.Fatal(err)
		}
		count := func(q interface {
			QueryRowContext(context.Context, string, ...any) *sql.Row
		}) int {
			t.Helper()
			var n int
			if err := q.QueryRowContext(ctx, `SELECT count(*) FROM audit_log WHERE entity = 'beside'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		write := func() {
			t.Helper()
			if _, err := d.db.ExecContext(ctx, `INSERT INTO audit_log (at, actor_id, action, entity, entity_id, detail, client) VALUES (?, ?, 'test', 'beside', '', '', '')`,
				d.now(), lead.ID); err != nil {
				t.Fatal(err)
			}
		}
		write()
		err = d.readTx(ctx, func(tx *sql.Tx) error {
			if n := count(tx); n != 1 { // the snapshot is taken
				t.Fatalf("the reader saw %d rows, want 1", n)
			}
			write()
			side := d.besideOf(tx)
			defer side.close()
			btx := side.open(ctx)
			if btx == nil {
				t.Fatal("no transaction beside, with the readers' connections free")
			}
			if side.open(ctx) != btx {
				t.Error("a second open gave another transaction")
			}
			if n := count(btx); n != 1 {
				t.Errorf("beside, %d rows: the row written after the snapshot is seen", n)
			}
			if n := count(d.rdb); n != 2 {
				t.Errorf("a new reader saw %d rows, want 2", n)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// Every reader's connection taken, the last by the caller's transaction.
		var held []*sql.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for range d.rdb.Stats().MaxOpenConnections - 1 {
			c, err := d.rdb.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
		}
		err = d.readTx(ctx, func(tx *sql.Tx) error {
			side := d.besideOf(tx)
			defer side.close()
			if side.open(ctx) != nil {
				t.Error("a transaction beside, with every reader's connection taken")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
