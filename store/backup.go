package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/benchwright/benchwright/bench"
	"github.com/mattn/go-sqlite3"
)

// Backup copies the database into a new file at to with SQLite's online backup
// in one step from one read snapshot: safe while the app, bwctl or a team server
// keep working on it (WAL mode lets them write meanwhile), and the copy is one
// committed state. The copy is written beside to and renamed at the end, so a failed or
// cancelled backup leaves no half file. to must not exist. The image files are
// referenced in place and are not copied; the previews are made again on demand.
//
// A failure of the database or the disk is marked as StorageError marks it.
func (d *DB) Backup(ctx context.Context, to string) (err error) {
	defer func() { err = dbError(err) }()
	if d.pg {
		return fmt.Errorf("backup: %w: a PostgreSQL database is backed up with pg_dump (see the README), or copied into a SQLite file with bwctl copy-db", bench.ErrInvalid)
	}
	if _, err := os.Stat(to); err == nil {
		return fmt.Errorf("backup: %w: %s exists; name a new file", bench.ErrInvalid, to)
	}
	tmp, err := os.CreateTemp(filepath.Dir(to), "."+filepath.Base(to)+".part-*")
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	dst, err := sql.Open("sqlite3", "file:"+tmp.Name())
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer dst.Close()
	dc, err := dst.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer dc.Close()
	sc, err := d.rdb.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer sc.Close()
	err = dc.Raw(func(dconn any) error {
		return sc.Raw(func(sconn any) error {
			dd, ok1 := dconn.(*sqlite3.SQLiteConn)
			ss, ok2 := sconn.(*sqlite3.SQLiteConn)
			if !ok1 || !ok2 {
				return errors.New("not SQLite connections")
			}
			b, err := dd.Backup("main", ss, "main")
			if err != nil {
				return err
			}
			// One step copies everything from one read snapshot: in WAL mode
			// writers go on meanwhile. (Small steps would restart after every
			// write, and never finish on a busy server.)
			done, err := b.Step(-1)
			if err == nil && !done {
				err = errors.New("the backup stopped before the end")
			}
			if ferr := b.Finish(); err == nil {
				err = ferr
			}
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("backup of %s: %w", d.path, err)
	}
	dc.Close()
	dst.Close()
	if err := os.Rename(tmp.Name(), to); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}
