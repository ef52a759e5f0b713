package main

import (
	"context"
	"fmt"
	"io"

	"github.com/benchwright/benchwright/bench"
)

func init() {
	commands["backup"] = command{runBackup, "copy a database into a new file, safely while the app or a server works on it"}
}

func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("backup", stderr)
	dbPath := fs.String("db", "", "database file")
	to := fs.String("to", "", "the backup file to write (must not exist)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	if *to == "" {
		fmt.Fprintln(stderr, "bwctl backup: --db FILE and --to FILE are required")
		return exitUsage
	}
	db, code := openDB(ctx, *dbPath, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	if err := db.Backup(ctx, *to); err != nil {
		if code, ok := interrupted(stderr, "backup", "no backup was written", err); ok {
			return code
		}
		fmt.Fprintf(stderr, "bwctl backup: %s\n", bench.Message(err))
		return exitUsage
	}
	fmt.Fprintf(stdout, "backed up %s to %s (restore: open the backup with --db, or copy it over the database while nothing runs on it)\n", *dbPath, *to)
	return exitOK
}
