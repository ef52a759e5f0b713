package store

import (
	"context"
	"database/sql"
	"regexp"
	"time"
)

// besideReads lends a read-only transaction a second one, on another of the
// readers' connections, that sees exactly what it sees: PostgreSQL's exported
// snapshot (pg_export_snapshot, SET TRANSACTION SNAPSHOT, as parallel pg_dump
// does). A long read split in two then runs on two of the server's cores, where
// one connection's statements run one after another on one (the agreement's
// reviews beside its samples and revisions: packedQueries).
//
// There is none on SQLite, nor when the readers' pool has no connection free
// within besideWait: the caller reads everything on its own transaction, as it
// would have. Waiting no longer than that, a read that holds a connection never
// waits for another that every other such read holds.
type besideReads struct {
	d    *DB
	tx   *sql.Tx // the transaction whose snapshot is lent
	conn *sql.Conn
	btx  *sql.Tx
}

// besideOffForTests, set by tests only, reads everything on the caller's
// transaction, as SQLite does.
var besideOffForTests bool

// besideWait is the longest besideReads.open waits for a free connection.
const besideWait = 20 * time.Millisecond

// snapshotID is what pg_export_snapshot returns ("00000003-0000001B-1"): it is
// written into SET TRANSACTION SNAPSHOT, which takes no parameter.
var snapshotID = regexp.MustCompile(`^[0-9A-Fa-f]+(-[0-9A-Fa-f]+)+$`)

// besideOf prepares a second transaction for tx, opened by open when needed.
func (d *DB) besideOf(tx *sql.Tx) *besideReads { return &besideReads{d: d, tx: tx} }

// open returns the transaction beside b's, or nil when there is none to be had
// (SQLite, no connection free, an error: the read runs on b's own).
func (b *besideReads) open(ctx context.Context) *sql.Tx {
	if b == nil || !b.d.pg || besideOffForTests {
		return nil
	}
	if b.btx != nil {
		return b.btx
	}
	if st := b.d.rdb.Stats(); st.MaxOpenConnections > 0 && st.InUse >= st.MaxOpenConnections {
		return nil
	}
	var id string
	if err := b.tx.QueryRowContext(ctx, `SELECT pg_export_snapshot()`).Scan(&id); err != nil || !snapshotID.MatchString(id) {
		return nil
	}
	wait, cancel := context.WithTimeout(ctx, besideWait)
	conn, err := b.d.rdb.Conn(wait)
	cancel()
	if err != nil {
		return nil
	}
	btx, err := conn.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		conn.Close()
		return nil
	}
	if _, err := btx.ExecContext(ctx, `SET TRANSACTION SNAPSHOT '`+id+`'`); err != nil {
		btx.Rollback()
		conn.Close()
		return nil
	}
	b.conn, b.btx = conn, btx
	return btx
}

// close ends the transaction beside, if one was opened, and gives its
// connection back; the caller's own transaction is its own to end.
func (b *besideReads) close() {
	if b == nil || b.btx == nil {
		return
	}
	b.btx.Rollback()
	b.conn.Close()
	b.btx, b.conn = nil, nil
}
