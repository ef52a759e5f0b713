package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsPostgresURL tells whether a --db value names a PostgreSQL database
// (postgres://… or postgresql://…) rather than a SQLite file.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// pgWriteLock is the advisory lock every write transaction on PostgreSQL holds
// (DB.inTx), with the hash of the schema it works in as the lock's second key:
// writers of one Benchwright database take turns, on every server, as on SQLite;
// Benchwright databases in other schemas of the same PostgreSQL database do not
// wait for them.
const pgWriteLock int32 = 0x42656e63 // "Benc"

// pgBaseline is the schema version a new PostgreSQL database starts at
// (store/migrations_pg/0017_baseline.sql); later migrations come in pairs.
const pgBaseline = 17

// openPostgres opens the PostgreSQL database at url and applies pending migrations.
func openPostgres(ctx context.Context, rawURL string) (*DB, error) {
	trips := new(atomic.Int64)
	sdb, rdb, err := openPGPools(rawURL, trips)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", RedactURL(rawURL), err)
	}
	sdb.SetConnMaxIdleTime(5 * time.Minute)
	rdb.SetConnMaxIdleTime(5 * time.Minute)
	d := &DB{db: sdb, rdb: rdb, path: rawURL, pg: true, pgTrips: trips, files: pgFilesDir(rawURL), Now: func() time.Time { return time.Now().UTC() }}
	if err := sdb.PingContext(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %s: %w", RedactURL(rawURL), pgConnectRefusal(err), err)
	}
	if err := d.migratePG(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("open %s: %w", RedactURL(rawURL), err)
	}
	return d, nil
}

// pgConnectRefusal says why a first connection to a PostgreSQL server failed:
// the server's refusal when it answered (a setting of the address it does not
// know, a user or password it does not accept, a database it does not hold),
// that it could not be reached otherwise.
func pgConnectRefusal(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return "cannot reach the PostgreSQL server"
	}
	switch pe.Code {
	case "42704": // undefined_object: unrecognized configuration parameter "name"
		name := pe.Message
		if i := strings.IndexByte(name, '"'); i >= 0 {
			name = strings.Trim(name[i:], `"`)
		}
		return fmt.Sprintf("the PostgreSQL server does not know the setting %q the address gives it (a parameter after ?: check its spelling)", name)
	}
	switch pgRefused(pe) {
	case bench.RefusedSignIn:
		return "the PostgreSQL server refused the user name or password of the address"
	case bench.RefusedNoDatabase:
		return "the PostgreSQL server holds no database of the name in the address"
	}
	return "the PostgreSQL server refused the connection"
}

// pgRefused is why a PostgreSQL server refused a connection with pe, as
// bench.DatabaseError.Refused says it: the address's user or password
// (invalid_password, invalid_authorization_specification), its database
// (invalid_catalog_name), or "" for another reason.
func pgRefused(pe *pgconn.PgError) string {
	switch pe.Code {
	case "28P01", "28000":
		return bench.RefusedSignIn
	case "3D000":
		return bench.RefusedNoDatabase
	}
	return ""
}

// openPGSQL opens a pool of connections to rawURL that translate the store's SQL:
// the writers' pool of openPGPools, for tests that look at rows directly.
func openPGSQL(rawURL string) (*sql.DB, error) {
	w, r, err := openPGPools(rawURL, nil)
	if err == nil && r != w {
		r.Close()
	}
	return w, err
}

// openPGPools opens the two pools of connections to rawURL of a DB on
// PostgreSQL, whose connections count their round trips to the server in trips
// (pgConn.trip): the writers' (DB.db) and the readers' (DB.rdb), sized by
// pgPoolSize. With a total too small to split, the readers share the writers'.
func openPGPools(rawURL string, trips *atomic.Int64) (writers, readers *sql.DB, err error) {
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, nil, fmt.Errorf("the PostgreSQL address is not valid: %w", err)
	}
	w, r, err := pgPoolSize(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("the PostgreSQL address is not valid: %w", err)
	}
	open := func(n int) *sql.DB {
		sdb := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg), trips})
		sdb.SetMaxOpenConns(n)
		sdb.SetMaxIdleConns(n)
		return sdb
	}
	writers = open(w)
	readers = writers
	if r > 0 {
		readers = open(r)
	}
	return writers, readers, nil
}

// pgPoolSize is how many connections a DB opens to the server at most, for
// writes and, apart, for reads (0: reads share the writers' connections). The
// total is the address's pool_max_conns (pgx's own pool's parameter, taken out
// of the settings sent to the server), or else the greater of 12 and three times
// the machine's cores; a third of it is for reads, when that is at least one.
//
// About as many as PostgreSQL can run at once (twice its cores and its disks, by
// PostgreSQL's own rule of thumb), with room for writes that hold their
// connection while they wait for their lock. More buy nothing: each new
// connection is a new server process that loads its catalog and plans each
// statement afresh, and they contend for the same cores — the team server's load
// benchmark on 2 cores ran a median 525 requests a second with the 32 of
// earlier versions and 578 with 8, ten runs each (docs/PERFORMANCE.md, session
// 19), and its writes' p95 fell from 91 to 72 ms. Reads have connections of
// their own because writers hold theirs while they wait for a sample's or a
// project's lock: with one pool of 8, a verifier's queue waited behind them
// (its median 31–35 ms on that benchmark, 16–21 ms with 4 of its own; session
// 24). Requests beyond a pool wait their turn for a connection. At least 2 for
// writes: a copy into PostgreSQL writes on two at once.
func pgPoolSize(cfg *pgx.ConnConfig) (writers, readers int, err error) {
	total := max(12, 3*runtime.NumCPU())
	if s, set := cfg.RuntimeParams["pool_max_conns"]; set {
		delete(cfg.RuntimeParams, "pool_max_conns")
		n, err := strconv.Atoi(s)
		if err != nil || n < 2 {
			return 0, 0, fmt.Errorf("pool_max_conns is %q: it must be a whole number of connections, at least 2", s)
		}
		total = n
	}
	return total - total/3, total / 3, nil
}

// pgFilesDir is the default folder of a PostgreSQL database's own files: in the
// user's cache, named after the server and database (not the password).
func pgFilesDir(rawURL string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	sum := sha256.Sum256([]byte(RedactURL(rawURL)))
	return filepath.Join(base, "benchwright", "postgres-"+hex.EncodeToString(sum[:6]))
}

// RedactURL is a database address fit to show and log: a PostgreSQL URL without
// its password; a file path as it is.
func RedactURL(s string) string {
	if !IsPostgresURL(s) {
		return s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "the PostgreSQL database"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if q := u.Query(); q.Has("password") || q.Has("sslpassword") {
		for _, k := range []string{"password", "sslpassword"} {
			if q.Has(k) {
				q.Set(k, "xxxxx")
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// migratePG brings a PostgreSQL database to this build's schema: a new one gets the
// baseline, then every numbered migration of migrations_pg after its version. The
// writers' lock (inTx) keeps two servers starting at once from migrating twice.
func (d *DB) migratePG(ctx context.Context) error {
	names, err := migrationNamesIn("migrations_pg")
	if err != nil {
		return err
	}
	newest := pgBaseline - 1 + len(names)
	return d.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS bw_schema_version (version BIGINT NOT NULL)`); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		have := 0
		if err := tx.QueryRowContext(ctx, `SELECT version FROM bw_schema_version`).Scan(&have); errors.Is(err, sql.ErrNoRows) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO bw_schema_version (version) VALUES (0)`); err != nil {
				return err
			}
		} else if err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if have > newest {
			return fmt.Errorf("%w: schema version %d, this build knows up to %d; update Benchwright", bench.ErrNewerSchema, have, newest)
		}
		for i, name := range names {
			n := pgBaseline + i
			if want, err := strconv.Atoi(strings.SplitN(name[strings.LastIndex(name, "/")+1:], "_", 2)[0]); err != nil || want != n {
				return fmt.Errorf("migration %s: files of migrations_pg are numbered %04d, %04d, … without gaps", name, pgBaseline, pgBaseline+1)
			}
			if n <= have {
				continue
			}
			body, err := migrationFS.ReadFile(name)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
			if after := afterMigration[n]; after != nil && n > pgBaseline {
				if err := after(d, ctx, tx); err != nil {
					return fmt.Errorf("migration %s: %w", name, err)
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE bw_schema_version SET version = `+strconv.Itoa(n)); err != nil {
				return err
			}
		}
		return nil
	})
}

// pgConnector hands database/sql connections that translate the store's SQL
// (pgTranslate).
type pgConnector struct {
	driver.Connector
	trips *atomic.Int64
}

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{Conn: conn.(*stdlib.Conn), trips: c.trips}, nil
}

type pgConn struct {
	*stdlib.Conn
	// trips counts the statements and batches the connection sends, each one
	// round trip to the server (a statement's first use on a connection costs
	// pgx one more, to prepare it, which is not counted): what a write costs
	// beside its SQL (TestWriteRoundTrips).
	trips *atomic.Int64
	// counts holds the summaries' increments a transaction deferred to its commit
	// (pgDeferCounts), by statement and row; nil when it does not defer them.
	counts map[string]*pgCounted
	// begin is the BEGIN of the transaction under way while it is still to be
	// sent (BeginTx), else "".
	begin string
	// later holds the transaction's writes whose result no one reads (pgLater),
	// translated, until its next round trip takes them along.
	later []pgQueued
	// readOnly tells that the transaction under way is read-only; ended, that its
	// COMMIT went with its last reads (pgReads.end) and it is over.
	readOnly, ended bool
}

// pgQueued is a translated statement waiting in a connection (pgConn.later).
type pgQueued struct {
	query string
	args  []any
}

// pgLater is the last argument of an Exec (execLater) whose caller reads nothing of
// its result: an audit row, the search row, a summary row of the sample's own, a
// claim removed. Such a write is not sent by itself: it waits in the connection and
// goes, in order, in one batch with the transaction's next statement, batch of
// reads or COMMIT, so every later statement sees it as if it had been sent at
// once. An error of it (a lost connection, a deadlock) is the error of the
// statement it went with, and the transaction fails or is run again as before. On
// a write of one sample these were 4 to 6 of the 18 round trips of Submit and
// SubmitReview (TestWriteRoundTrips).
type pgLater struct{}

// pgLaterResult is the result of an Exec that waits (pgLater): its rows are not
// known when the Exec returns.
type pgLaterResult struct{}

func (pgLaterResult) LastInsertId() (int64, error) {
	return 0, errors.New("store: a write sent later has no id to give")
}

func (pgLaterResult) RowsAffected() (int64, error) {
	return 0, errors.New("store: a write sent later has no count of rows yet; use ExecContext")
}

// queueLater puts the statements waiting in c (pgConn.later), and the BEGIN still to
// be sent, at the head of b, and empties them.
func (c *pgConn) queueLater(b *pgx.Batch) {
	if c.begin != "" {
		b.Queue(c.begin)
		c.begin = ""
	}
	for _, l := range c.later {
		b.Queue(l.query, l.args...)
	}
	c.later = nil
}

// sendLater sends the BEGIN still to be sent and the statements waiting in c, if any,
// in one round trip: before a statement that cannot go in a batch with them.
func (c *pgConn) sendLater(ctx context.Context) error {
	if len(c.later) == 0 {
		return c.sendBegin(ctx)
	}
	b := &pgx.Batch{}
	c.queueLater(b)
	c.trip()
	if err := c.Conn.Conn().SendBatch(ctx, b).Close(); err != nil {
		if pgconn.SafeToRetry(err) {
			return driver.ErrBadConn
		}
		return err
	}
	return nil
}

// pgCounted is one row of a summary a transaction adds to (pgDeferCounts): its
// upsert and arguments, the last one the sum of the numbers added.
type pgCounted struct {
	query string
	args  []driver.NamedValue
	n     int64
}

// pgDeferCounts is the one argument of the Exec (tx.ExecContext(ctx, "defer
// counts", pgDeferCounts{})) by which a write transaction of one sample's (inTx)
// defers the dashboard's counts to its commit: each increment of a summary
// (pgCountable) is added up in the connection instead of sent, and at the commit
// (pgTx) they go in one batch, in the order of their rows, just before the COMMIT.
// They are only ever added to, and nothing such a transaction does reads them, so
// the rows end as the statements one by one would leave them; but the rows, which
// every writer of the project counts in, stay locked for one round trip instead of
// from the first count to the end, and two writers lock them in the same order, so
// they never deadlock.
type pgDeferCounts struct{}

// pgCountable are the summaries' increments a transaction may defer: the upserts
// of stats.go whose last argument is the number added.
var pgCountable = map[string]bool{
	upStatSamples: true, upStatBalance: true, upStatActivity: true, upStatSubmissions: true, upStatReasons: true,
	upStatAuthors: true, upStatVerifiers: true, upStatKinds: true, upStatSeconds: true,
}

// BeginTx begins a transaction whose commit sends the counts it deferred first.
// Its BEGIN is not sent alone: it goes in one batch with the transaction's first
// statement when that is an Exec (inTx's locks) or a batch of reads (readAll: a
// read transaction's first round trip, its snapshot taken at the first read as
// before), else just before it; a transaction that sends nothing sends no BEGIN
// either.
func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if c.Conn.Conn().IsClosed() {
		return nil, driver.ErrBadConn
	}
	c.counts, c.later, c.ended = nil, nil, false
	c.readOnly = opts.ReadOnly
	begin := "begin"
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault:
	case sql.LevelReadCommitted:
		begin += " isolation level read committed"
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		begin += " isolation level repeatable read"
	case sql.LevelSerializable:
		begin += " isolation level serializable"
	default:
		return nil, fmt.Errorf("unsupported isolation: %v", opts.Isolation)
	}
	if opts.ReadOnly {
		begin += " read only"
	}
	c.begin = begin // sent with the first statement or batch of reads, or before a query (sendLater)
	return &pgTx{c: c, ctx: ctx}, nil
}

// sendBegin sends the transaction's BEGIN if it is still to be sent (BeginTx).
func (c *pgConn) sendBegin(ctx context.Context) error {
	if c.begin == "" {
		return nil
	}
	begin := c.begin
	c.begin = ""
	c.trip()
	if _, err := c.Conn.Conn().Exec(ctx, begin); err != nil {
		if pgconn.SafeToRetry(err) {
			return driver.ErrBadConn
		}
		return err
	}
	return nil
}

// pgTx is a transaction of pgConn (BeginTx).
type pgTx struct {
	c   *pgConn
	ctx context.Context
}

// Commit sends the counts the transaction deferred and the COMMIT in one batch.
func (t *pgTx) Commit() error {
	c := t.c
	counts := c.counts
	c.counts = nil
	if c.ended { // the COMMIT went with the last reads (pgReads.end)
		c.ended = false
		return nil
	}
	if c.begin != "" && len(c.later) == 0 { // nothing was sent: there is nothing to commit
		c.begin = ""
		return nil
	}
	b := &pgx.Batch{}
	c.queueLater(b)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		q, a, err := pgTranslate(counts[k].query, append(counts[k].args, driver.NamedValue{Ordinal: len(counts[k].args) + 1, Value: counts[k].n}))
		if err != nil {
			t.Rollback()
			return err
		}
		b.Queue(q, namedValues(a)...)
	}
	commit := b.Queue("commit")
	var tag pgconn.CommandTag
	commit.Exec(func(ct pgconn.CommandTag) error { tag = ct; return nil })
	c.trip()
	if err := c.Conn.Conn().SendBatch(t.ctx, b).Close(); err != nil {
		if c.Conn.Conn().PgConn().TxStatus() != 'I' {
			t.Rollback()
		}
		if len(counts) > 0 {
			return fmt.Errorf("count in the summaries: %w", err)
		}
		return err
	}
	if tag.String() == "ROLLBACK" { // a statement had failed: the server rolled it back
		return pgx.ErrTxCommitRollback
	}
	return nil
}

func (t *pgTx) Rollback() error {
	c := t.c
	c.counts, c.later = nil, nil
	if c.ended { // committed with its last reads: a read-only transaction has nothing to undo
		c.ended = false
		return nil
	}
	if c.begin != "" {
		c.begin = ""
		return nil
	}
	c.trip()
	if _, err := c.Conn.Conn().Exec(t.ctx, "rollback"); err != nil {
		if c.Conn.Conn().PgConn().TxStatus() != 'I' {
			_ = c.Conn.Conn().Close(t.ctx) // the connection cannot be used again
		}
		return err
	}
	return nil
}

// namedValues are the values of args.
func namedValues(args []driver.NamedValue) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a.Value
	}
	return out
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.ended {
		return nil, errEnded
	}
	if len(args) == 1 {
		switch v := args[0].Value.(type) {
		case *pgCopyFrom:
			if err := c.sendLater(ctx); err != nil {
				return nil, err
			}
			c.trip()
			name := pgx.Identifier{v.table}
			if v.schema != "" {
				name = pgx.Identifier{v.schema, v.table}
			}
			n, err := pgCopyFromRows(ctx, c.Conn.Conn(), name, v.columns, v.rows)
			return driver.RowsAffected(n), err
		case *pgReads:
			return driver.RowsAffected(0), c.reads(ctx, v)
		case pgDeferCounts:
			c.counts = map[string]*pgCounted{}
			return driver.RowsAffected(0), nil
		}
	}
	if c.counts != nil && pgCountable[query] && len(args) > 1 {
		var n int64
		switch v := args[len(args)-1].Value.(type) {
		case int:
			n = int64(v)
		case int64:
			n = v
		default:
			return nil, fmt.Errorf("count in the summaries: the number added is a %T", v)
		}
		k := query + "\x00" + fmt.Sprintf("%#v", namedValues(args[:len(args)-1]))
		if counted := c.counts[k]; counted != nil {
			counted.n += n
		} else {
			c.counts[k] = &pgCounted{query: query, args: slices.Clone(args[:len(args)-1]), n: n}
		}
		return driver.RowsAffected(1), nil
	}
	if len(args) > 0 {
		if _, ok := args[len(args)-1].Value.(pgLater); ok {
			q, a, err := pgTranslate(query, args[:len(args)-1])
			if err != nil {
				return nil, err
			}
			c.later = append(c.later, pgQueued{query: q, args: namedValues(a)})
			return pgLaterResult{}, nil
		}
	}
	q, a, err := pgTranslate(query, args)
	if err != nil {
		return nil, err
	}
	if c.begin != "" || len(c.later) > 0 { // BEGIN, the writes waiting and this statement in one round trip
		b := &pgx.Batch{}
		c.queueLater(b)
		var n int64
		b.Queue(q, namedValues(a)...).Exec(func(ct pgconn.CommandTag) error { n = ct.RowsAffected(); return nil })
		c.trip()
		if err := c.Conn.Conn().SendBatch(ctx, b).Close(); err != nil {
			if pgconn.SafeToRetry(err) {
				return nil, driver.ErrBadConn
			}
			return nil, err
		}
		return driver.RowsAffected(n), nil
	}
	c.trip()
	return c.Conn.ExecContext(ctx, q, a)
}

// trip counts one round trip to the server (pgConn.trips).
func (c *pgConn) trip() {
	if c.trips != nil {
		c.trips.Add(1)
	}
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.ended {
		return nil, errEnded
	}
	q, a, err := pgTranslate(query, args)
	if err != nil {
		return nil, err
	}
	if err := c.sendLater(ctx); err != nil {
		return nil, err
	}
	c.trip()
	return c.Conn.QueryContext(ctx, q, a)
}

// PrepareContext returns a statement that translates at each use: pgx keeps its own
// cache of prepared statements per connection, keyed by the translated text.
func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return &pgStmt{c, query}, nil
}

type pgStmt struct {
	c     *pgConn
	query string
}

func (s *pgStmt) Close() error  { return nil }
func (s *pgStmt) NumInput() int { return -1 }
func (s *pgStmt) Exec(args []driver.Value) (driver.Result, error) {
	return nil, errors.New("store: use ExecContext")
}
func (s *pgStmt) Query(args []driver.Value) (driver.Rows, error) {
	return nil, errors.New("store: use QueryContext")
}
func (s *pgStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.c.ExecContext(ctx, s.query, args)
}
func (s *pgStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.QueryContext(ctx, s.query, args)
}

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// pgReads is the one argument of the Exec by which dialect.readAll sends its
// reads in one batch on the transaction's connection; end (readAllEnd) sends a
// read-only transaction's COMMIT after them in the same batch.
type pgReads struct {
	reads []read
	end   bool
}

// errEnded is the error of a statement sent in a transaction after its last reads
// (readAllEnd), which ended it.
var errEnded = errors.New("store: a statement after the transaction's last reads (readAllEnd)")

// reads runs the reads of p in one batch, each row scanned by its read's scan, and
// the COMMIT of a read-only transaction after them when p.end.
func (c *pgConn) reads(ctx context.Context, p *pgReads) error {
	rs := p.reads
	b := &pgx.Batch{}
	c.queueLater(b) // the BEGIN and the writes waiting go first, in the same round trip
	for _, r := range rs {
		args := make([]driver.NamedValue, len(r.args))
		for i, a := range r.args {
			args[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
			if na, ok := a.(sql.NamedArg); ok {
				args[i].Name, args[i].Value = na.Name, na.Value
			}
		}
		q, a, err := pgTranslate(r.query, args)
		if err != nil {
			return err
		}
		b.Queue(q, namedValues(a)...).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				if err := r.scan(rows); err != nil {
					return err
				}
			}
			return rows.Err()
		})
	}
	end := p.end && c.readOnly && len(c.counts) == 0
	if end {
		b.Queue("commit")
	}
	c.trip()
	if err := c.Conn.Conn().SendBatch(ctx, b).Close(); err != nil {
		return err // the COMMIT, if any, was not run: the transaction is rolled back as before
	}
	c.ended = end
	return nil
}

// pgCopyFrom is the one argument of an Exec that writes rows with PostgreSQL's COPY
// protocol (pgCopyFromRows) on the transaction's connection, which database/sql
// does not otherwise reach: tx.ExecContext(ctx, "COPY table", &pgCopyFrom{…}). The
// rows go through the table's triggers and constraints as INSERTs do; a bool is
// the integer 0 or 1, as pgTranslate makes it.
type pgCopyFrom struct {
	schema  string // "": the connection's (search_path)
	table   string
	columns []string
	rows    pgx.CopyFromSource
}

// pgRetry tells whether err is PostgreSQL's verdict that the transaction lost a race
// (serialization failure, deadlock): it is run again, never shown to a person.
func pgRetry(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// syncIdentity moves table's id sequence past the ids written explicitly (bulk
// writes number revisions themselves); SQLite needs nothing.
func (d *DB) syncIdentity(ctx context.Context, tx *sql.Tx, table string) error {
	if !d.pg {
		return nil
	}
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+table+`', 'id'), (SELECT COALESCE(max(id), 0) + 1 FROM `+table+`), false)`)
	return err
}
