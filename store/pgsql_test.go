package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	neturl "net/url"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/jackc/pgx/v5"
)

// pgPos and pgNamed build the arguments database/sql hands the driver.
func pgPos(vs ...any) []driver.NamedValue {
	out := make([]driver.NamedValue, len(vs))
	for i, v := range vs {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

func pgNamed(args []driver.NamedValue, name string, v any) []driver.NamedValue {
	return append(args, driver.NamedValue{Name: name, Ordinal: len(args) + 1, Value: v})
}

// TestPostgresTranslation lists the rewrites pgTranslate makes of the store's SQL
// for PostgreSQL (store/pgsql.go), and what it leaves alone.
func TestPostgresTranslation(t *testing.T) {
	tests := []struct {
		name  string
		query string
		args  []driver.NamedValue
		want  string
		vals  []any  // the arguments PostgreSQL gets, for $1, $2, …
		err   string // part of the error, when the query cannot be translated
	}{{
		name:  "placeholders are numbered in order",
		query: `SELECT a FROM t WHERE x = ? AND y IN (?, ?)`,
		args:  pgPos(int64(1), "b", 2.5),
		want:  `SELECT a FROM t WHERE x = $1 AND y IN ($2, $3)`,
		vals:  []any{int64(1), "b", 2.5},
	}, {
		name:  "a name used twice is one parameter",
		query: `UPDATE t SET a = :v WHERE b = :v OR c = :w`,
		args:  pgNamed(pgNamed(nil, "w", "second"), "v", "first"),
		want:  `UPDATE t SET a = $1 WHERE b = $1 OR c = $2`,
		vals:  []any{"first", "second"},
	}, {
		name:  "names and positions mix; positions skip the named arguments",
		query: `SELECT ?, :n, ?, :n`,
		args:  append(pgNamed(pgPos(int64(10)), "n", int64(20)), driver.NamedValue{Ordinal: 3, Value: int64(30)}),
		want:  `SELECT $1, $2, $3, $2`,
		vals:  []any{int64(10), int64(20), int64(30)},
	}, {
		name: "literals, quoted names, casts and comments are left alone",
		query: `SELECT '?', 'it''s :x ?', "we?ird:y", x::text FROM t -- why? :z it's
			WHERE y = ?`,
		args: pgPos("v"),
		want: `SELECT '?', 'it''s :x ?', "we?ird:y", x::text FROM t -- why? :z it's
			WHERE y = $1`,
		vals: []any{"v"},
	}, {
		name:  "what SQLite and PostgreSQL say differently is left as written (store/dialect.go says it)",
		query: `SELECT value FROM json_each(?) a CROSS JOIN b ON a.x = b.x WHERE sample_words MATCH ?`,
		args:  pgPos(`["a","b"]`, `"cup*"`),
		want:  `SELECT value FROM json_each($1) a CROSS JOIN b ON a.x = b.x WHERE sample_words MATCH $2`,
		vals:  []any{`["a","b"]`, `"cup*"`},
	}, {
		name:  "plus signs stay as written (the store writes SQLite's unary + only for SQLite)",
		query: `SELECT a +b, c+d, e + 1 FROM t WHERE +f = ?`,
		args:  pgPos(int64(1)),
		want:  `SELECT a +b, c+d, e + 1 FROM t WHERE +f = $1`,
		vals:  []any{int64(1)},
	}, {
		name:  "bool arguments are the integers SQLite stores",
		query: `INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, :flag)`,
		args:  pgNamed(pgPos(true, false, "x"), "flag", true),
		want:  `INSERT INTO t (a, b, c, d) VALUES ($1, $2, $3, $4)`,
		vals:  []any{int64(1), int64(0), "x", int64(1)},
	}, {
		name:  "too few arguments",
		query: `SELECT a FROM t WHERE b = ? AND c = ?`,
		args:  pgPos(int64(1)),
		err:   "more placeholders than arguments",
	}, {
		name:  "too many arguments",
		query: `SELECT a FROM t WHERE b = ?`,
		args:  pgPos(int64(1), int64(2)),
		err:   "fewer placeholders than arguments",
	}, {
		name:  "a name no argument has",
		query: `SELECT a FROM t WHERE b = :nope`,
		args:  pgNamed(nil, "x", int64(1)),
		err:   "names :nope",
	}, {
		name: "a query without arguments is passed through as it is (schema scripts' $$ bodies)",
		query: `CREATE FUNCTION f(a text) RETURNS text LANGUAGE plpgsql AS $$
			BEGIN RETURN CASE WHEN a ~ '?' OR a = :x THEN json_each(a) END; END $$;
			SELECT +a FROM t CROSS JOIN u ON true WHERE sample_words MATCH ?`,
		want: `CREATE FUNCTION f(a text) RETURNS text LANGUAGE plpgsql AS $$
			BEGIN RETURN CASE WHEN a ~ '?' OR a = :x THEN json_each(a) END; END $$;
			SELECT +a FROM t CROSS JOIN u ON true WHERE sample_words MATCH ?`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, args, err := pgTranslate(tt.query, tt.args)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("pgTranslate(%q) = %q, %v; want an error saying %q", tt.query, got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("pgTranslate(%q): %v", tt.query, err)
			}
			if got != tt.want {
				t.Errorf("pgTranslate(%q)\n got %q\nwant %q", tt.query, got, tt.want)
			}
			var vals []any
			for i, a := range args {
				if a.Ordinal != i+1 || a.Name != "" {
					t.Errorf("argument %d is %+v; PostgreSQL takes positional arguments $1, $2, …", i+1, a)
				}
				vals = append(vals, a.Value)
			}
			if !reflect.DeepEqual(vals, tt.vals) {
				t.Errorf("pgTranslate(%q) arguments %#v, want %#v", tt.query, vals, tt.vals)
			}
		})
	}
}

func TestTSQuery(t *testing.T) {
	tests := []struct{ fts, want string }{
		{`"kitchen*"`, `(kitchen:*)`},
		{`"m 00302*"`, `(m <-> 00302:*)`},
		{`"red cup*" "table*"`, `(red <-> cup:*) & (table:*)`},
		{`"Kitchen*"`, `(kitchen:*)`},
		{`"exact"`, `(exact)`},
		{`"Küche*"`, `(küche:*)`},
		{`"a&b|!c:*"`, `(a <-> b <-> c:*)`}, // tsquery's operators never pass through
		{matchQuery("  m-00302   it's "), `(m <-> 00302:*) & (it <-> s:*)`},
		{`""`, `''`},
		{`"***" "--"`, `''`},
		{``, `''`},
	}
	for _, tt := range tests {
		if got := tsQuery(tt.fts); got != tt.want {
			t.Errorf("tsQuery(%q) = %q, want %q", tt.fts, got, tt.want)
		}
	}
}

// A PostgreSQL server that cannot be reached is said in a sentence, without the
// driver's words; the address's password never shows.
func TestMessageUnreachablePostgres(t *testing.T) {
	url := "postgres://bw:hunter2-secret@/bench?host=" + t.TempDir() // no server listens there
	_, err := Open(context.Background(), url)
	if err == nil {
		t.Fatal("opened a database on a server that does not exist")
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the error shows the password: %v", err)
	}
	want := "The PostgreSQL server cannot be reached; nothing was changed. Try again when it is back (the details are in the log)."
	if got := bench.Message(err); got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
}

// TestMessageRefusedPostgres: a PostgreSQL server that answers and refuses the
// address's user or database is said as such, not as a server that cannot be
// reached (people would wait for a server that is there); what it said is for
// the log.
func TestMessageRefusedPostgres(t *testing.T) {
	base := os.Getenv("BENCHWRIGHT_TEST_POSTGRES")
	if base == "" {
		t.Skip("PostgreSQL only: a server must answer")
	}
	for _, c := range []struct {
		name string
		edit func(u *neturl.URL)
		want string
	}{
		{"no such user", func(u *neturl.URL) { u.User = neturl.UserPassword("bw_no_such_role", "hunter2-secret") },
			"The PostgreSQL server refused the user name or password in the database address; nothing was changed. Check the address (the details are in the log)."},
		{"no such database", func(u *neturl.URL) { u.Path = "/bw_no_such_database" },
			"The PostgreSQL server has no database of the name in the address; nothing was changed. Check the address, or create the database (the details are in the log)."},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, err := neturl.Parse(base)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(u)
			_, err = Open(context.Background(), u.String())
			if err == nil {
				t.Fatal("opened a database the server refused")
			}
			if got := bench.Message(err); got != c.want {
				t.Errorf("Message = %q, want %q (%v)", got, c.want, err)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

// A DB on PostgreSQL holds as many connections as the address's pool_max_conns
// says (pgx's pool's parameter, never sent to the server as a setting), else three
// times the cores, at least 12: a third of them for reads, apart from the writers'
// (none when that third is less than one: reads then share the writers'); a value
// that is not a number of at least 2 is refused, naming the parameter.
func TestPostgresPoolSize(t *testing.T) {
	total := max(12, 3*runtime.NumCPU())
	for _, tc := range []struct {
		query            string
		writers, readers int
		refused          bool
	}{
		{"", total - total/3, total / 3, false},
		{"?sslmode=disable", total - total/3, total / 3, false},
		{"?pool_max_conns=7", 5, 2, false},
		{"?pool_max_conns=3", 2, 1, false},
		{"?pool_max_conns=2&sslmode=disable", 2, 0, false},
		{"?pool_max_conns=1", 0, 0, true},
		{"?pool_max_conns=0", 0, 0, true},
		{"?pool_max_conns=-3", 0, 0, true},
		{"?pool_max_conns=eight", 0, 0, true},
		{"?pool_max_conns=", 0, 0, true},
	} {
		cfg, err := pgx.ParseConfig("postgres://bw@db-host/bench" + tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		w, r, err := pgPoolSize(cfg)
		switch {
		case tc.refused && (err == nil || !strings.Contains(err.Error(), "pool_max_conns")):
			t.Errorf("%q: %d+%d, %v; want a refusal naming pool_max_conns", tc.query, w, r, err)
		case !tc.refused && (err != nil || w != tc.writers || r != tc.readers):
			t.Errorf("%q: %d writers' and %d readers' connections, %v; want %d and %d", tc.query, w, r, err, tc.writers, tc.readers)
		case !tc.refused && cfg.RuntimeParams["pool_max_conns"] != "":
			t.Errorf("%q: pool_max_conns is still among the server's settings: %v", tc.query, cfg.RuntimeParams)
		}
	}
	if _, err := Open(context.Background(), "postgres://bw@/bench?pool_max_conns=1&host="+t.TempDir()); err == nil ||
		!strings.Contains(err.Error(), "pool_max_conns") {
		t.Errorf("Open with one connection: %v, want a refusal naming pool_max_conns", err)
	}

	// On a server: the parameter is not sent as a setting (PostgreSQL would refuse
	// an unknown one), and the pools keep to it.
	for _, tc := range []struct {
		total, writers, readers int
		shared                  bool
	}{{3, 2, 1, false}, {2, 2, 2, true}} {
		url := pgTestURL(t, "a SQLite file has no pool of server connections") + fmt.Sprintf("&pool_max_conns=%d", tc.total)
		d, err := Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.db.Stats().MaxOpenConnections; got != tc.writers {
			t.Errorf("pool_max_conns=%d: the writers' pool holds up to %d connections, want %d", tc.total, got, tc.writers)
		}
		if got := d.rdb.Stats().MaxOpenConnections; got != tc.readers || (d.rdb == d.db) != tc.shared {
			t.Errorf("pool_max_conns=%d: the readers' pool holds up to %d connections (shared with the writers: %v), want %d (%v)",
				tc.total, got, d.rdb == d.db, tc.readers, tc.shared)
		}
		var one int
		if err := d.readTx(context.Background(), func(tx *sql.Tx) error { return tx.QueryRow(`SELECT 1`).Scan(&one) }); err != nil || one != 1 {
			t.Errorf("pool_max_conns=%d: a read: %d, %v", tc.total, one, err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("pool_max_conns=%d: close: %v", tc.total, err)
		}
	}
}

// Database addresses are shown without their passwords, wherever they are written.
func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, secret string }{
		{"postgres://bw:s3cret-a@db/bench", "s3cret-a"},
		{"postgres://bw@db/bench?password=s3cret-b&sslmode=require", "s3cret-b"},
		{"postgresql://bw@db/bench?sslpassword=s3cret-c", "s3cret-c"},
	} {
		got := RedactURL(tc.in)
		if strings.Contains(got, tc.secret) || !strings.Contains(got, "db") {
			t.Errorf("RedactURL(%q) = %q", tc.in, got)
		}
	}
	if got := RedactURL("/srv/bw/lab.db"); got != "/srv/bw/lab.db" {
		t.Errorf("a file path: %q", got)
	}
}

// The dialect says, where a query is built, what each engine is told.
func TestDialect(t *testing.T) {
	sqlite, pg := dialect{}, dialect{pg: true}
	for _, tc := range []struct{ name, got, want string }{
		{"SQLite's JSON array table", sqlite.jsonEach(), "json_each"},
		{"PostgreSQL's", pg.jsonEach(), "bw_json_each"},
		{"SQLite's fixed join order", sqlite.fixedJoin(), "CROSS JOIN"},
		{"PostgreSQL's plain join", pg.fixedJoin(), "JOIN"},
		{"SQLite's JSON member", sqlite.jsonField("r.content", "box"), "json_extract(r.content, '$.box')"},
		{"PostgreSQL's, its JSON read once", pg.jsonField("r.content", "box"), "(CAST(r.content AS json) ->> 'box')"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	for _, tc := range []struct {
		dl         dialect
		alias, fts string
		cond       string
		arg        any
	}{
		{sqlite, "", matchQuery("kitchen m-00302"), "sample_words MATCH ?", `"kitchen*" "m 00302*"`},
		{pg, "", matchQuery("kitchen m-00302"), "tsv @@ to_tsquery('simple', ?)", `(kitchen:*) & (m <-> 00302:*)`},
		{sqlite, "w.", `"cup*"`, "w.sample_words MATCH ?", `"cup*"`},
		{pg, "w.", `"cup*"`, "w.tsv @@ to_tsquery('simple', ?)", `(cup:*)`},
		{pg, "", `"*"`, "tsv @@ to_tsquery('simple', ?)", `''`},
	} {
		cond, arg := tc.dl.wordsMatch(tc.alias, tc.fts)
		if cond != tc.cond || arg != tc.arg {
			t.Errorf("pg %v, wordsMatch(%q, %q) = %q, %v; want %q, %v", tc.dl.pg, tc.alias, tc.fts, cond, arg, tc.cond, tc.arg)
		}
	}
}

// A server that answers but refuses the connection is not "cannot reach": the
// person is told what it refused, naming the setting the address got wrong.
func TestPostgresConnectRefusals(t *testing.T) {
	url := pgTestURL(t, "a SQLite file has no server to refuse it")
	other, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	other.Path = "/no_such_db_bw"
	for _, tc := range []struct {
		name, url string
		want      []string
	}{
		{"unknown setting", url + "&statment_timeout=5s", []string{`setting "statment_timeout"`, "check its spelling"}},
		{"no such database", other.String(), []string{"holds no database of the name"}},
		{"nothing listening", "postgres://bw@/postgres?host=" + t.TempDir(), []string{"cannot reach the PostgreSQL server"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(context.Background(), tc.url)
			if err == nil {
				d.Close()
				t.Fatalf("%s opened", tc.url)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nwant it to say %q", err, w)
				}
			}
			if tc.name != "nothing listening" && strings.Contains(err.Error(), "cannot reach") {
				t.Errorf("a server that answered is said unreachable: %v", err)
			}
		})
	}
}
