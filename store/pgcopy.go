package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Writing rows with PostgreSQL's COPY protocol in its binary format
// (https://www.postgresql.org/docs/15/sql-copy.html, "Binary Format"). pgx's
// CopyFrom encodes every value through its type map, which looks a plan up in
// three maps keyed by interfaces for each value: for a copy of 100,000 samples
// (1.1 million rows) that was about 0.6 s of the copy's 4 s of CPU in this
// process, on a machine whose two cores the copy keeps busy. The values a copy
// reads from SQLite are of four kinds (int64, float64, string, []byte), and the
// schema's columns of three types (bigint, double precision, text), so
// pgCopyRows writes those pairs itself — the bytes pgx's codecs write for them
// (TestPgCopyEncodesAsPgx) — and hands every other pair to pgx's type map as
// pgx's CopyFrom does (pgCopyEncodeOther).

// pgCopyFromRows writes the rows of src into the table name (its columns
// cols) with COPY … FROM STDIN BINARY on conn, and returns the rows written.
// The rows are read and encoded on a goroutine of its own, which has ended when
// pgCopyFromRows returns, as pgx's CopyFrom's has: pgconn's CopyFrom may return
// (a cancelled context, a broken connection) while the goroutine reading its
// io.Reader still runs, which would go on reading src.
func pgCopyFromRows(ctx context.Context, conn *pgx.Conn, name pgx.Identifier, cols []string, src pgx.CopyFromSource) (int64, error) {
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = pgx.Identifier{c}.Sanitize()
	}
	list := strings.Join(quoted, ", ")
	sd, err := conn.Prepare(ctx, "", "select "+list+" from "+name.Sanitize())
	if err != nil {
		return 0, fmt.Errorf("read the types of its columns: %w", err)
	}
	r := &pgCopyRows{m: conn.TypeMap(), src: src, cols: cols}
	for _, f := range sd.Fields {
		r.oids = append(r.oids, f.DataTypeOID)
	}
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for !r.ended {
			r.buf = r.buf[:0]
			if r.err = r.fill(); r.err != nil {
				pw.CloseWithError(r.err)
				return
			}
			if _, err := pw.Write(r.buf); err != nil {
				return // the copy has stopped reading (pr closed below)
			}
		}
		pw.Close()
	}()
	tag, err := conn.PgConn().CopyFrom(ctx, pr, "copy "+name.Sanitize()+" ( "+list+" ) from stdin binary;")
	pr.Close()
	<-done
	if r.err != nil { // the reason the copy was stopped, rather than PostgreSQL's word for it
		return 0, r.err
	}
	if err != nil && ctx.Err() != nil { // pgconn's word for it is the connection it closed
		return 0, ctx.Err()
	}
	return tag.RowsAffected(), err
}

// pgCopyRows encodes the rows of a CopyFromSource as COPY data.
type pgCopyRows struct {
	m       *pgtype.Map
	oids    []uint32 // each column's type
	cols    []string
	src     pgx.CopyFromSource
	buf     []byte // the chunk being encoded
	row     int64  // rows encoded
	largest int    // the longest row so far, in bytes
	// started: the header is written; ended: the trailer is.
	started, ended bool
	err            error
}

// pgCopySend is the most COPY data pgconn's CopyFrom sends in one message (its
// buffer of 64 KiB less the message's header): a chunk is kept under it, so
// that no chunk is sent as a full message and a scrap.
const pgCopySend = 65536 - 5

// fill encodes a row into buf, and more while another row as long as the
// longest yet would still fit in one message, or until the rows end.
func (r *pgCopyRows) fill() error {
	if !r.started {
		r.buf = append(r.buf, "PGCOPY\n\377\r\n\000"...)
		r.buf = binary.BigEndian.AppendUint32(r.buf, 0) // flags
		r.buf = binary.BigEndian.AppendUint32(r.buf, 0) // header extension
		r.started = true
	}
	for first := true; first || len(r.buf)+r.largest <= pgCopySend; first = false {
		if !r.src.Next() {
			if err := r.src.Err(); err != nil {
				return err
			}
			r.buf = binary.BigEndian.AppendUint16(r.buf, 0xffff) // the trailer: -1 fields
			r.ended = true
			return nil
		}
		vals, err := r.src.Values()
		if err != nil {
			return err
		}
		if len(vals) != len(r.oids) {
			return fmt.Errorf("row %d has %d values for %d columns", r.row+1, len(vals), len(r.oids))
		}
		at := len(r.buf)
		r.buf = binary.BigEndian.AppendUint16(r.buf, uint16(len(vals)))
		for i, v := range vals {
			if r.buf, err = pgCopyEncode(r.m, r.buf, r.oids[i], v); err != nil {
				return fmt.Errorf("row %d, column %s: %w", r.row+1, r.cols[i], err)
			}
		}
		r.largest = max(r.largest, len(r.buf)-at)
		r.row++
	}
	return nil
}

// pgCopyEncode appends one field of a binary COPY row: its length and bytes, or
// -1 for NULL.
func pgCopyEncode(m *pgtype.Map, buf []byte, oid uint32, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return binary.BigEndian.AppendUint32(buf, math.MaxUint32), nil // -1
	case int64:
		if oid == pgtype.Int8OID {
			buf = binary.BigEndian.AppendUint32(buf, 8)
			return binary.BigEndian.AppendUint64(buf, uint64(x)), nil
		}
	case float64:
		if oid == pgtype.Float8OID {
			buf = binary.BigEndian.AppendUint32(buf, 8)
			return binary.BigEndian.AppendUint64(buf, math.Float64bits(x)), nil
		}
	case string:
		if oid == pgtype.TextOID && len(x) <= math.MaxInt32 {
			buf = binary.BigEndian.AppendUint32(buf, uint32(len(x)))
			return append(buf, x...), nil
		}
	case []byte:
		if x == nil { // NULL, as pgx's type map takes a nil slice
			return binary.BigEndian.AppendUint32(buf, math.MaxUint32), nil
		}
		if (oid == pgtype.TextOID || oid == pgtype.ByteaOID) && len(x) <= math.MaxInt32 {
			buf = binary.BigEndian.AppendUint32(buf, uint32(len(x)))
			return append(buf, x...), nil
		}
	}
	return pgCopyEncodeOther(m, buf, oid, v)
}

// pgCopyEncodeOther encodes a value pgCopyEncode does not know through pgx's
// type map, as pgx's CopyFrom does: in the binary format, or else, for a value
// that has a text form, by reading that text as the column's type.
func pgCopyEncodeOther(m *pgtype.Map, buf []byte, oid uint32, v any) ([]byte, error) {
	at := len(buf)
	buf = binary.BigEndian.AppendUint32(buf, math.MaxUint32) // -1, NULL until a value is written
	out, err := m.Encode(oid, pgtype.BinaryFormatCode, v, buf)
	if err != nil {
		s, ok := v.(string)
		if !ok {
			text, terr := m.Encode(oid, pgtype.TextFormatCode, v, nil)
			if terr != nil {
				return nil, err
			}
			s = string(text)
		}
		var x any
		if t, ok := m.TypeForOID(oid); ok {
			if _, isArray := t.Codec.(*pgtype.ArrayCodec); isArray {
				var a pgtype.Array[any] // keeps the text's dimensions
				if m.Scan(oid, pgtype.TextFormatCode, []byte(s), &a) == nil {
					x = a
				}
			}
		}
		if x == nil {
			if serr := m.Scan(oid, pgtype.TextFormatCode, []byte(s), &x); serr != nil {
				return nil, errors.Join(err, serr)
			}
		}
		if out, err = m.Encode(oid, pgtype.BinaryFormatCode, x, buf); err != nil {
			return nil, err
		}
	}
	if out == nil { // the value is NULL
		return buf, nil
	}
	binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	return out, nil
}
