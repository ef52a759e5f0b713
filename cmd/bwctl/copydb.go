package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

func init() {
	commands["copy-db"] = command{runCopyDB, "copy a whole database into a new file or an empty PostgreSQL database (either engine)"}
}

func runCopyDB(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("copy-db", stderr)
	from := fs.String("from", "", "the database to copy: a file, or postgres://USER@HOST/DB")
	to := fs.String("to", "", "a new file, or an empty PostgreSQL database postgres://USER@HOST/DB")
	quiet := fs.Bool("q", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, `usage: bwctl copy-db --from DB --to DB

Copies a whole Benchwright database, every project with its users, samples and their
revisions, reviews, claims, settings, releases and audit log, with the same ids, from
a SQLite file or a PostgreSQL database into a new file or an empty PostgreSQL
database (both ways, file to file, PostgreSQL to PostgreSQL). The source is read as
one snapshot, so a server may keep working on it; the destination is written in one
transaction, so a copy that fails leaves it empty. Images stay where they are.

flags:`)
		fs.PrintDefaults()
	}
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *from == "" || *to == "" {
		fmt.Fprintln(stderr, "bwctl copy-db: --from DB and --to DB are required, and nothing else")
		return exitUsage
	}
	newFile := !store.IsPostgresURL(*to)
	if newFile {
		if _, err := os.Stat(*to); err == nil {
			fmt.Fprintf(stderr, "bwctl copy-db: %s exists; name a new file\n", *to)
			return exitUsage
		} else if !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(stderr, "bwctl copy-db: %s: %v\n", *to, err)
			return exitUsage
		}
	}
	src, code := openDB(ctx, *from, stderr)
	if src == nil {
		return code
	}
	defer src.Close()
	dst, err := store.Open(ctx, *to)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl copy-db: %v\n", err)
		return exitUsage
	}
	// A new file that did not receive the copy goes again: nobody should open it as
	// the project.
	removeNew := func() {
		dst.Close()
		if newFile {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(*to + suffix)
			}
		}
	}
	last := time.Now()
	rep, err := store.CopyDatabase(ctx, src, dst, func(table string, rows int64) {
		if !*quiet && time.Since(last) >= 2*time.Second {
			fmt.Fprintf(stderr, "copying %s: %d rows\n", table, rows)
			last = time.Now()
		}
	})
	if err != nil {
		removeNew()
		state := "nothing was copied"
		if newFile {
			state += "; the new file " + *to + " was removed"
		}
		if code, ok := interrupted(stderr, "copy-db", state, err); ok {
			return code
		}
		fmt.Fprintf(stderr, "bwctl copy-db: %s\nbwctl copy-db: %s\n", bench.Message(err), state)
		if errors.Is(err, bench.ErrInvalid) {
			return exitFindings
		}
		return exitUsage
	}
	if err := dst.Close(); err != nil {
		fmt.Fprintf(stderr, "bwctl copy-db: close %s: %v\n", store.RedactURL(*to), err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "copied %s to %s:\n", store.RedactURL(*from), store.RedactURL(*to))
	for _, t := range rep.Tables {
		fmt.Fprintf(stdout, "  %-22s %10d\n", t.Name, t.Rows)
	}
	fmt.Fprintf(stdout, "%d tables, %d rows in %s\n", len(rep.Tables), rep.Rows, rep.Elapsed.Round(time.Millisecond))
	return exitOK
}
