package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

func init() { afterMigration[17] = addAuditClient }

// addAuditClient is migration 17's Go part: audit_log.client, added once.
func addAuditClient(d *DB, ctx context.Context, tx *sql.Tx) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('audit_log') WHERE name = 'client'`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `ALTER TABLE audit_log ADD COLUMN client TEXT NOT NULL DEFAULT ''`)
	return err
}

// SessionTTL is how long a team-server session lasts after sign-in.
const SessionTTL = 12 * time.Hour

// clientKey carries the network address of the person acting (package remote sets
// it for every request) into the audit log.
type clientKey struct{}

// WithClientAddr returns ctx carrying the network address the request came from;
// every audit row written under it records the address.
func WithClientAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientKey{}, addr)
}

// ClientAddr is the address WithClientAddr put into ctx, or "" for local work.
func ClientAddr(ctx context.Context) string {
	s, _ := ctx.Value(clientKey{}).(string)
	return s
}

// signInClient is the address wrong passwords are counted under: an IPv4
// address as it is, an IPv6 address by its /64 (one machine is usually given a
// whole /64, and could otherwise take a fresh address for every guess).
func signInClient(addr string) string {
	ip := net.ParseIP(addr)
	if ip == nil || ip.To4() != nil {
		return addr
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// ServerSession is a signed-in person's session on a team server: its token (not
// bench.Session, the calls bound to a person, which DB.As gives).
type ServerSession struct {
	Token   string // secret; only its SHA-256 is stored
	User    bench.User
	Expires time.Time
}

func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// OpenSession checks name and password exactly as Authenticate does (the same
// wait after wrong passwords, the same audit rows) and opens a session for the
// account, recorded with ClientAddr(ctx).
func (d *DB) OpenSession(ctx context.Context, name, password string) (ServerSession, error) {
	u, err := d.Authenticate(ctx, name, password)
	if err != nil {
		return ServerSession{}, err
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return ServerSession{}, fmt.Errorf("open a session: %w", err)
	}
	s := ServerSession{Token: base64.RawURLEncoding.EncodeToString(raw[:]), User: u}
	err = d.inTx(ctx, func(tx *sql.Tx) error {
		now := d.Now().UTC()
		s.Expires = now.Add(SessionTTL)
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (token_sha256, user_id, created_at, expires_at, client) VALUES (?, ?, ?, ?, ?)`,
			tokenHash(s.Token), u.ID, now.Format(time.RFC3339Nano), s.Expires.Format(time.RFC3339Nano), ClientAddr(ctx))
		return err
	})
	if err != nil {
		return ServerSession{}, fmt.Errorf("open a session for %s: %w", name, err)
	}
	// The sign-in's audit row is written after the session, on its own: a disk
	// too full for it must not refuse a right password (the log says it is missing).
	if err := d.inTx(ctx, func(tx *sql.Tx) error { return d.audit(ctx, tx, u.ID, "session.open", "user", u.Name, "") }); err != nil {
		log.Printf("benchwright: the audit row of %s's sign-in was not written: %v", u.Name, err)
	}
	return s, nil
}

// SessionUser returns the account a live session token belongs to, read afresh
// (a role changed since sign-in counts at once). An unknown, expired or revoked
// token, or a disabled account, is ErrSessionEnded.
func (d *DB) SessionUser(ctx context.Context, token string) (bench.User, error) {
	var u bench.User
	var expires string
	var revoked sql.NullString
	var disabled bool
	err := d.rdb.QueryRowContext(ctx, `SELECT u.id, u.name, `+accountRole+`, u.grp, u.disabled, s.expires_at, s.revoked_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_sha256 = ?`, tokenHash(token)).
		Scan(&u.ID, &u.Name, &u.Role, &u.Group, &disabled, &expires, &revoked)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return bench.User{}, bench.ErrSessionEnded
	case err != nil:
		return bench.User{}, fmt.Errorf("check the session: %w", dbError(err))
	}
	at, err := time.Parse(time.RFC3339Nano, expires)
	if err != nil || !d.Now().Before(at) || revoked.Valid || disabled {
		return bench.User{}, bench.ErrSessionEnded
	}
	return u, nil
}

// CloseSession revokes a session (sign-out). Closing an ended session is not an error.
func (d *DB) CloseSession(ctx context.Context, token string) error {
	u, err := d.SessionUser(ctx, token)
	if errors.Is(err, bench.ErrSessionEnded) {
		return nil
	}
	if err != nil {
		return err
	}
	return d.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE token_sha256 = ? AND revoked_at IS NULL`,
			d.now(), tokenHash(token)); err != nil {
			return fmt.Errorf("sign out: %w", err)
		}
		return d.audit(ctx, tx, u.ID, "session.close", "user", u.Name, "")
	})
}

// AuditRefusal records a request the team server refused before it reached any
// store method (a bad token, a malformed or oversized body, an unknown call), with
// the client address of ctx. actor is the session's user when one is known.
func (d *DB) AuditRefusal(ctx context.Context, actor bench.User, what, why string) error {
	return d.inTx(ctx, func(tx *sql.Tx) error {
		return d.audit(ctx, tx, validActor(ctx, tx, actor.ID), "denied:"+what, "request", actor.Name, why)
	})
}

// LastChange is a number that grows whenever anyone acts on the database (the
// newest audit row): a team server's clients poll it to learn that their queues
// and dashboards need reading again.
func (d *DB) LastChange(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	// A refusal changes nothing: a workstation refused a read (its user left the
	// project) must not make every workstation reload, and itself again.
	if err := d.rdb.QueryRowContext(ctx, `SELECT id FROM audit_log WHERE action NOT LIKE 'denied:%' ORDER BY id DESC LIMIT 1`).Scan(&n); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("read the last change: %w", dbError(err))
	}
	return n.Int64, nil
}

// Refusals lists the newest refused requests and actions (the audit log's
// "denied:" rows), newest first, with who and from where: what a lead reads after
// a hostile client tried its luck. A lead reads the refusals of the accounts they
// see and of no account. At most limit rows (0: 200).
func (d *DB) Refusals(ctx context.Context, actor bench.User, limit int) ([]bench.Event, error) {
	if limit <= 0 {
		limit = 200
	}
	var out []bench.Event
	err := d.readAs(ctx, actor, string(verify.ActionManageUsers), func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionManageUsers)
		if err != nil {
			return err
		}
		// Refusals of accounts the lead sees (Users), and those of no account (a
		// bad token, a name without an account): another project's people and
		// what they were refused are not this lead's to read.
		cond, args := "1 = 1", []any(nil)
		if !a.IsOwner() {
			cond, args = visibleUsers(a)
		}
		out, err = queryAll(ctx, tx, func(r scanner) (bench.Event, error) {
			var e bench.Event
			return e, r.Scan(&e.At, &e.Actor, &e.Action, &e.Detail, &e.Client)
		}, `SELECT l.at, COALESCE(u.name, l.entity_id), l.action, l.detail, l.client FROM audit_log l LEFT JOIN users u ON u.id = l.actor_id
			WHERE l.action LIKE 'denied:%' AND (u.id IS NULL OR `+cond+`) ORDER BY l.id DESC LIMIT ?`, append(args, limit)...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("refused requests: %w", err)
	}
	return out, nil
}
