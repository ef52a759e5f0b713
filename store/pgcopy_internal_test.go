package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgCopyCases are values of every kind a copy reads from SQLite (and some it
// does not), each with a column type of the schema's.
var pgCopyCases = []struct {
	oid uint32
	v   any
}{
	{pgtype.Int8OID, int64(0)}, {pgtype.Int8OID, int64(-1)}, {pgtype.Int8OID, int64(math.MaxInt64)},
	{pgtype.Int8OID, int64(math.MinInt64)}, {pgtype.Int8OID, int64(1796009867806758321)},
	{pgtype.Float8OID, 0.0}, {pgtype.Float8OID, math.Copysign(0, -1)}, {pgtype.Float8OID, 0.1},
	{pgtype.Float8OID, -1e308}, {pgtype.Float8OID, math.SmallestNonzeroFloat64}, {pgtype.Float8OID, math.Inf(1)},
	{pgtype.Float8OID, math.Inf(-1)}, {pgtype.Float8OID, math.NaN()},
	{pgtype.TextOID, ""}, {pgtype.TextOID, "bench-000001"}, {pgtype.TextOID, "é漢🙂 \t\n\\ '\""},
	{pgtype.TextOID, strings.Repeat("x", 70000)}, {pgtype.TextOID, []byte("bytes of text")}, {pgtype.TextOID, []byte{}},
	{pgtype.ByteaOID, []byte{0, 1, 0xff}}, {pgtype.TextOID, []byte(nil)}, {pgtype.ByteaOID, []byte(nil)},
	{pgtype.Int8OID, nil}, {pgtype.Float8OID, nil}, {pgtype.TextOID, nil},
	// Pairs pgCopyEncode leaves to pgx's type map.
	{pgtype.Float8OID, int64(3)}, {pgtype.Int8OID, int32(-7)}, {pgtype.Int8OID, 12},
	{pgtype.Int8OID, "42"}, {pgtype.Float8OID, "2.5"}, {pgtype.Int4OID, int64(9)},
	{pgtype.TimestamptzOID, time.Date(2026, 11, 30, 3, 29, 13, 0, time.UTC)},
}

// pgxCopyField is the field pgx's CopyFrom writes for v in a column of type
// oid (pgx/v5 values.go, encodeCopyValue): its length and binary encoding, or -1.
func pgxCopyField(t *testing.T, m *pgtype.Map, oid uint32, v any) []byte {
	t.Helper()
	out, err := m.Encode(oid, pgtype.BinaryFormatCode, v, []byte{}) // a buffer: an empty text is not NULL
	if err != nil {
		text, ok := []byte(nil), false
		if s, isString := v.(string); isString {
			text, ok = []byte(s), true
		} else if b, err := m.Encode(oid, pgtype.TextFormatCode, v, nil); err == nil {
			text, ok = b, true
		}
		var x any
		if !ok || m.Scan(oid, pgtype.TextFormatCode, text, &x) != nil {
			t.Fatalf("pgx cannot encode %T %v as type %d: %v", v, v, oid, err)
		}
		if out, err = m.Encode(oid, pgtype.BinaryFormatCode, x, []byte{}); err != nil {
			t.Fatalf("pgx cannot encode %T %v as type %d: %v", v, v, oid, err)
		}
	}
	if out == nil {
		return binary.BigEndian.AppendUint32(nil, math.MaxUint32)
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(out))), out...)
}

// TestPgCopyEncodesAsPgx: the fields pgCopyEncode writes are the bytes pgx's
// CopyFrom writes for the same values, those it encodes itself and those it
// leaves to pgx; and a value no codec takes is refused.
func TestPgCopyEncodesAsPgx(t *testing.T) {
	m := pgtype.NewMap()
	for _, c := range pgCopyCases {
		name := fmt.Sprintf("%T %.40v as %d", c.v, c.v, c.oid)
		got, err := pgCopyEncode(m, []byte("prefix"), c.oid, c.v)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.HasPrefix(got, []byte("prefix")) {
			t.Errorf("%s: the bytes before the field were changed", name)
			continue
		}
		if want := pgxCopyField(t, m, c.oid, c.v); !bytes.Equal(got[len("prefix"):], want) {
			t.Errorf("%s: wrote % x, pgx writes % x", name, head(got[len("prefix"):]), head(want))
		}
	}
	if _, err := pgCopyEncode(m, nil, pgtype.Int8OID, "not a number"); err == nil {
		t.Error("the text 'not a number' was encoded as a bigint")
	}
	if _, err := pgCopyEncode(m, nil, pgtype.Int8OID, struct{}{}); err == nil {
		t.Error("a struct was encoded as a bigint")
	}
	if _, err := pgCopyEncode(m, nil, pgtype.TextOID, int64(5)); err == nil {
		t.Error("an integer was encoded as a text (pgx's CopyFrom refuses it)")
	}
}

func head(b []byte) []byte { return b[:min(len(b), 24)] }

// pgCopyTestRows are rows for a CopyFromSource.
type pgCopyTestRows struct {
	rows [][]any
	at   int
	err  error // returned after the rows
}

func (s *pgCopyTestRows) Next() bool {
	s.at++
	return s.at <= len(s.rows) && (s.err == nil || s.at < len(s.rows))
}
func (s *pgCopyTestRows) Values() ([]any, error) { return s.rows[s.at-1], nil }
func (s *pgCopyTestRows) Err() error {
	if s.at > len(s.rows)-1 {
		return s.err
	}
	return nil
}

// TestPgCopyFromRows: a table written by pgCopyFromRows holds what pgx's
// CopyFrom writes from the same rows — 3,000 rows of every kind of value, over
// many of the COPY's 64-KiB messages, and none — and a row that cannot be
// encoded, or a source that fails, stops the copy with its reason and writes
// nothing.
func TestPgCopyFromRows(t *testing.T) {
	ctx := context.Background()
	u := pgTestURL(t, "writes with PostgreSQL's COPY")
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE ours (n BIGINT, x DOUBLE PRECISION, s TEXT, i INTEGER, at TIMESTAMPTZ, a BIGINT[]);
		CREATE TABLE theirs (LIKE ours)`); err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for i := range 3000 {
		c := pgCopyCases[i%len(pgCopyCases)]
		// Rows of up to 90 kB now and then, longer than one COPY message.
		row := []any{int64(i*7919 - 10_000_000), float64(i) / 7, fmt.Sprintf("row %d é漢 %s", i, strings.Repeat("w", i%300+i%97*(i%13)*70)), int64(i), nil, nil}
		if i%7 == 0 {
			row[5] = "{{1,2},{3,4}}" // an array's text: pgx keeps its dimensions
		}
		switch c.oid {
		case pgtype.Int8OID:
			row[0] = c.v
		case pgtype.Float8OID:
			row[1] = c.v
		case pgtype.TextOID:
			row[2] = c.v
		case pgtype.TimestamptzOID:
			row[4] = c.v
		}
		rows = append(rows, row)
	}
	dump := func(table string) string {
		t.Helper()
		var b strings.Builder
		r, err := conn.Query(ctx, `SELECT n::text, x::text, s, i::text, at::text, a::text, s IS NULL FROM `+table+` ORDER BY n, x, s`)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for r.Next() {
			v, err := r.Values()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(&b, v...)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	cols := []string{"n", "x", "s", "i", "at", "a"}
	for _, n := range []int{len(rows), 0} {
		for _, table := range []string{"ours", "theirs"} {
			if _, err := conn.Exec(ctx, `TRUNCATE `+table); err != nil {
				t.Fatal(err)
			}
		}
		got, err := pgCopyFromRows(ctx, conn, pgx.Identifier{"ours"}, cols, &pgCopyTestRows{rows: rows[:n]})
		if err != nil || got != int64(n) {
			t.Fatalf("%d rows: wrote %d, %v", n, got, err)
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{"theirs"}, cols, pgx.CopyFromRows(rows[:n])); err != nil {
			t.Fatal(err)
		}
		if ours, theirs := dump("ours"), dump("theirs"); ours != theirs {
			os.WriteFile(t.TempDir()+"/ours", []byte(ours), 0o644)
			t.Errorf("%d rows: the table differs from pgx's copy (%d and %d bytes)", n, len(ours), len(theirs))
		}
	}

	for _, c := range []struct {
		name string
		src  *pgCopyTestRows
		want string
	}{
		{"a value no codec takes", &pgCopyTestRows{rows: append(rows[:2000:2000], []any{"x", nil, nil, nil, nil, nil})}, "row 2001, column n"},
		{"a row too short", &pgCopyTestRows{rows: append(rows[:5:5], []any{int64(1)})}, "row 6 has 1 values for 6 columns"},
		{"a source that fails", &pgCopyTestRows{rows: rows[:2500], err: fmt.Errorf("the disk is gone")}, "the disk is gone"},
	} {
		if _, err := conn.Exec(ctx, `TRUNCATE ours`); err != nil {
			t.Fatal(err)
		}
		_, err := pgCopyFromRows(ctx, conn, pgx.Identifier{"ours"}, cols, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
		if got := dump("ours"); got != "" {
			t.Errorf("%s: the table has rows after the failed copy", c.name)
		}
	}
}

// pgCopyEndless is a source of rows without end that, like copy-db's, stops
// when its context is done, and counts the rows it was asked for.
type pgCopyEndless struct {
	ctx   context.Context
	calls atomic.Int64
	err   error
}

func (s *pgCopyEndless) Next() bool {
	s.calls.Add(1)
	if err := s.ctx.Err(); err != nil {
		s.err = err
		return false
	}
	return true
}
func (s *pgCopyEndless) Values() ([]any, error) {
	return []any{s.calls.Load(), 0.5, strings.Repeat("x", 100), int64(1), nil, nil}, nil
}
func (s *pgCopyEndless) Err() error { return s.err }

// TestPgCopyCancelled: a copy whose context is cancelled returns the
// cancellation, and its source is not read once it has returned (pgconn's
// CopyFrom may return while the goroutine reading the rows still runs).
func TestPgCopyCancelled(t *testing.T) {
	u := pgTestURL(t, "writes with PostgreSQL's COPY")
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `CREATE TABLE ours (n BIGINT, x DOUBLE PRECISION, s TEXT, i INTEGER, at TIMESTAMPTZ, a BIGINT[])`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	src := &pgCopyEndless{ctx: context.Background()} // the source does not see the copy's context: the copy must stop it
	_, err = pgCopyFromRows(ctx, conn, pgx.Identifier{"ours"}, []string{"n", "x", "s", "i", "at", "a"}, src)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a copy past its deadline: %v", err)
	}
	after := src.calls.Load()
	time.Sleep(200 * time.Millisecond)
	if n := src.calls.Load(); n != after {
		t.Errorf("the source was read %d more times after the copy returned", n-after)
	}
}
