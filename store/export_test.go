package store

import (
	"context"
	"database/sql"

	"golang.org/x/crypto/bcrypt"
)

// Tests hash with the cheapest cost; production keeps bcrypt.DefaultCost.
func init() { bcryptCost = bcrypt.MinCost }

// HoldRead runs fn while a read transaction that has read the users table is open.
func (d *DB) HoldRead(ctx context.Context, fn func()) error {
	return d.readTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return err
		}
		fn()
		return nil
	})
}

// SetAfterFreezeAudit makes fn run inside every freeze between its audit and its
// write, until the test ends.
func SetAfterFreezeAudit(tb interface{ Cleanup(func()) }, fn func()) {
	afterFreezeAudit = fn
	tb.Cleanup(func() { afterFreezeAudit = nil })
}
