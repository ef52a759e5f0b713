package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/verify"
)

// PreviewDir is where downscaled copies of this database's images are cached.
func (d *DB) PreviewDir() string { return filepath.Join(d.files, "previews") }

const importBatch = 64

// ImportImages imports every image below dir into the project. Files are probed on all
// cores; rows are written in batches of one transaction each, so that cancelling (ctx)
// or a crash keeps what was committed. Bad files are listed with a reason and never
// stop the import. Only leads and annotators may import.
func (d *DB) ImportImages(ctx context.Context, actor bench.User, projectID int64, dir string, progress func(bench.ImportProgress)) (bench.ImportResult, error) {
	var res bench.ImportResult
	root, err := filepath.Abs(dir)
	if err != nil {
		return res, fmt.Errorf("import %s: %w", dir, err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return res, fmt.Errorf("import %s: %w: not a readable folder", dir, bench.ErrInvalid)
	}
	// A folder given as a symbolic link is the user's explicit choice: it is followed
	// (its files are walked where they are) and recorded by the path given. Links
	// inside the folder are not followed: they are listed as skipped.
	walkRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return res, fmt.Errorf("import %s: %w: not a readable folder (%v)", dir, bench.ErrInvalid, err)
	}
	var rootID int64
	known := map[string]probe{}
	err = d.act(ctx, actor, "image.import", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionImportImages); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO image_roots (project_id, path) VALUES (?, ?) ON CONFLICT DO NOTHING`, projectID, root); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT id FROM image_roots WHERE project_id = ? AND path = ?`, projectID, root).Scan(&rootID); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT rel_path, sha256, size_bytes, mtime_ns FROM images WHERE project_id = ?`, projectID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var p probe
			if err := rows.Scan(&p.RelPath, &p.SHA256, &p.Size, &p.MtimeNS); err != nil {
				return err
			}
			known[p.RelPath] = p
		}
		return rows.Err()
	})
	if err != nil {
		return res, fmt.Errorf("import %s: %w", dir, err)
	}

	var files []string
	err = filepath.WalkDir(walkRoot, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			rel, _ := filepath.Rel(walkRoot, path)
			res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: filepath.ToSlash(rel), Reason: "cannot read: " + err.Error()})
			if e != nil && e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(e.Name(), ".") && path != walkRoot {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(walkRoot, path)
		switch {
		case e.IsDir():
		case e.Type().IsRegular():
			if imagefile.IsImageName(e.Name()) {
				files = append(files, rel)
			} else {
				res.Ignored++
			}
		default: // links, named pipes, devices, sockets: listed, never opened
			res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: filepath.ToSlash(rel), Reason: annotate.NotAFileReason(e.Type())})
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("import %s: %w", dir, err)
	}
	sort.Strings(files)

	prog := bench.ImportProgress{Total: len(files), Rejected: len(res.Rejected)}
	report := func(cur string) {
		if progress != nil {
			prog.Current = cur
			progress(prog)
		}
	}
	report("")

	type result struct {
		i   int
		p   probe
		err error
	}
	type job struct {
		i   int
		rel string
	}
	jobs := make(chan job)
	results := make(chan result)
	var wg sync.WaitGroup
	previews := d.PreviewDir()
	for w := 0; w < importWorkers(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				rel := j.rel
				abs := filepath.Join(walkRoot, rel)
				if k, ok := known[filepath.ToSlash(rel)]; ok {
					if st, err := os.Stat(abs); err == nil && st.Size() == k.Size && st.ModTime().UnixNano() == k.MtimeNS {
						results <- result{i: j.i, p: probe{RelPath: k.RelPath, SHA256: k.SHA256}, err: errUnchanged}
						continue
					}
				}
				// A fault in reading one file (a decoder's panic) rejects that
				// file, and the import — and a team server — go on.
				p := probe{RelPath: filepath.ToSlash(rel)}
				err := caught("probe "+p.RelPath, func() (err error) {
					p, err = probeImage(abs, rel, previews)
					return err
				})
				results <- result{j.i, p, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i, f := range files {
			select {
			case jobs <- job{i, f}:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var batch []probe
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		out, err := d.insertImages(context.WithoutCancel(ctx), actor, projectID, rootID, batch)
		if err != nil {
			return err
		}
		res.Duplicate = append(res.Duplicate, out.duplicate...)
		res.Rejected = append(res.Rejected, out.changed...)
		res.Unchanged += out.unchanged
		res.Imported += out.imported
		prog.Imported, prog.Duplicate, prog.Unchanged = res.Imported, len(res.Duplicate), res.Unchanged
		prog.Rejected += len(out.changed)
		batch = batch[:0]
		return nil
	}
	// Results are handled in file order (a small reorder buffer), so that of two files
	// with the same content the first by path is the one imported, whatever the timing.
	pending := map[int]result{}
	next := 0
	// Buffered for two batches: while a batch's rows are written (flush), the
	// workers go on reading the next files instead of waiting for the commit.
	ordered := make(chan result, 2*importBatch)
	go func() {
		defer close(ordered)
		for r := range results {
			pending[r.i] = r
			for {
				q, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				ordered <- q
			}
		}
	}()
	var flushErr error
	for r := range ordered {
		prog.Done++
		switch {
		case errors.Is(r.err, errUnchanged):
			res.Unchanged++
			prog.Unchanged++
		case r.err != nil:
			reason := strings.TrimPrefix(r.err.Error(), imagefile.ErrBadImage.Error()+": ")
			res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: r.p.RelPath, Reason: reason})
			prog.Rejected++
		default:
			if k, ok := known[r.p.RelPath]; ok && k.SHA256 != r.p.SHA256 {
				res.Rejected = append(res.Rejected, bench.RejectedFile{RelPath: r.p.RelPath, Reason: reasonChangedSinceImport})
				prog.Rejected++
				continue
			}
			batch = append(batch, r.p)
			if len(batch) >= importBatch && flushErr == nil {
				flushErr = flush()
			}
		}
		report(r.p.RelPath)
	}
	if flushErr == nil {
		flushErr = flush()
	}
	report("")
	sort.Slice(res.Rejected, func(i, j int) bool { return res.Rejected[i].RelPath < res.Rejected[j].RelPath })
	if flushErr != nil {
		return res, fmt.Errorf("import %s: %w", dir, flushErr)
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("import %s: cancelled after %d of %d files: %w", dir, prog.Done, prog.Total, err)
	}
	return res, nil
}

// importWorkers is how many files an import reads at once: two a core, so that a
// core whose file waits (its read, the preview's file writes, the decode budget)
// has another to work on. What they decode at once is bounded by
// imagefile.DecodeBudget, not by their number.
func importWorkers() int { return 2 * runtime.NumCPU() }

var errUnchanged = errors.New("unchanged")

// reasonChangedSinceImport is the reason given for a file whose content differs from
// the content imported at its path.
const reasonChangedSinceImport = "changed on disk since it was imported (different content); not re-imported, samples refer to the old content"

// batchOutcome is what insertImages did with a batch.
type batchOutcome struct {
	imported  int
	unchanged int                  // already imported at the same path, with the same content
	duplicate []bench.RejectedFile // the same content already imported under another path
	changed   []bench.RejectedFile // another content already imported at the same path
}

// insertImages writes one batch in one transaction (its checks and its rows in a
// few statements: importedAlready, insertMany). What is stored at each path is
// checked inside the transaction, so that rows another import wrote since this one
// began are seen: a file already stored at its path with the same content is counted
// unchanged (its size and time refreshed), with another content it is refused, and
// a content already stored under another path is a duplicate.
func (d *DB) insertImages(ctx context.Context, actor bench.User, projectID, rootID int64, batch []probe) (batchOutcome, error) {
	var out batchOutcome
	err := d.act(ctx, actor, "image.import", func(tx *sql.Tx) error {
		out = batchOutcome{}
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionImportImages)
		if err != nil {
			return err
		}
		now := d.now()
		stored, bySHA, err := importedAlready(ctx, tx, projectID, batch)
		if err != nil {
			return err
		}
		var rows [][]any
		for _, p := range batch {
			storedSHA, there := stored[p.RelPath]
			switch {
			case there && storedSHA == p.SHA256:
				if _, err := tx.ExecContext(ctx, `UPDATE images SET root_id = ?, size_bytes = ?, mtime_ns = ? WHERE project_id = ? AND rel_path = ?`,
					rootID, p.Size, p.MtimeNS, projectID, p.RelPath); err != nil {
					return fmt.Errorf("%s: %w", p.RelPath, err)
				}
				out.unchanged++
				continue
			case there:
				out.changed = append(out.changed, bench.RejectedFile{RelPath: p.RelPath, Reason: reasonChangedSinceImport})
				continue
			}
			if other, ok := bySHA[p.SHA256]; ok {
				out.duplicate = append(out.duplicate, bench.RejectedFile{RelPath: p.RelPath, Reason: "same content as " + other})
				continue
			}
			bySHA[p.SHA256] = p.RelPath // a later file of the batch with this content is its duplicate
			rows = append(rows, []any{projectID, rootID, p.RelPath, p.SHA256, p.Size, p.MtimeNS, p.Width, p.Height, p.Scene, a.ID, now, p.PHash})
			out.imported++
		}
		if err := insertMany(ctx, tx, "images", importImageCols, rows, nil); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "image.import", "project", fmt.Sprint(projectID),
			fmt.Sprintf("%d files, %d duplicates, %d already imported", out.imported, len(out.duplicate), out.unchanged))
	})
	return out, err
}

// importImageCols are the columns insertImages writes of an image.
var importImageCols = []string{"project_id", "root_id", "rel_path", "sha256", "size_bytes", "mtime_ns", "width", "height", "scene", "imported_by", "imported_at", "phash"}

// importedAlready reads, in the transaction that writes a batch of an import, the
// content stored at each of its paths (by path), and the path each of its other
// contents is stored at (by SHA-256: a project holds each content once, a unique
// key), in a few statements for the whole batch.
func importedAlready(ctx context.Context, tx *sql.Tx, projectID int64, batch []probe) (stored, bySHA map[string]string, err error) {
	stored, bySHA = map[string]string{}, map[string]string{}
	type pair struct{ a, b string }
	scanPair := func(r scanner) (pair, error) {
		var p pair
		return p, r.Scan(&p.a, &p.b)
	}
	var paths []any
	for _, p := range batch {
		paths = append(paths, p.RelPath)
	}
	for chunk := range slices.Chunk(paths, importInList) {
		found, err := queryAll(ctx, tx, scanPair, `SELECT rel_path, sha256 FROM images WHERE project_id = ? AND rel_path IN (`+placeholders(len(chunk))+`)`,
			append([]any{projectID}, chunk...)...)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range found {
			stored[f.a] = f.b
		}
	}
	var sums []any
	for _, p := range batch {
		if _, there := stored[p.RelPath]; !there {
			sums = append(sums, p.SHA256)
		}
	}
	for chunk := range slices.Chunk(sums, importInList) {
		found, err := queryAll(ctx, tx, scanPair, `SELECT sha256, rel_path FROM images WHERE project_id = ? AND sha256 IN (`+placeholders(len(chunk))+`)`,
			append([]any{projectID}, chunk...)...)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range found {
			bySHA[f.a] = f.b
		}
	}
	return stored, bySHA, nil
}

func projectExists(ctx context.Context, tx *sql.Tx, projectID int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM projects WHERE id = ?`, projectID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: project %d", bench.ErrNotFound, projectID)
	}
	return nil
}

const imageCols = `i.id, r.path, i.rel_path, i.sha256, i.size_bytes, i.mtime_ns, i.width, i.height, i.scene`

func scanImage(r scanner) (bench.Image, error) {
	var im bench.Image
	err := r.Scan(&im.ID, &im.Root, &im.RelPath, &im.SHA256, &im.Size, &im.MtimeNS, &im.Width, &im.Height, &im.Scene)
	return im, err
}

// Images lists a project's images by scene and path, a page at a time.
func (d *DB) Images(ctx context.Context, actor bench.User, projectID int64, offset, limit int) ([]bench.Image, error) {
	var ims []bench.Image
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		var err error
		ims, err = queryAll(ctx, tx, scanImage, `SELECT `+imageCols+` FROM images i JOIN image_roots r ON r.id = i.root_id
			WHERE i.project_id = ? ORDER BY i.scene, i.rel_path LIMIT ? OFFSET ?`, projectID, limit, offset)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list images: %w", err)
	}
	return ims, nil
}

// CountImages counts a project's images.
func (d *DB) CountImages(ctx context.Context, actor bench.User, projectID int64) (int, error) {
	var n int
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT count(*) FROM images WHERE project_id = ?`, projectID).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("count images: %w", err)
	}
	return n, nil
}

// ImageByPath finds a project's image by its relative path.
func (d *DB) ImageByPath(ctx context.Context, actor bench.User, projectID int64, rel string) (bench.Image, error) {
	im, err := d.imageWhere(ctx, actor, projectID, "i.rel_path = ?", rel)
	if err != nil {
		return bench.Image{}, fmt.Errorf("image %q: %w", rel, err)
	}
	return im, nil
}

// ImageBySHA256 finds a project's image by the SHA-256 of its file (lower-case hex;
// a project holds each content once), so that an import that writes image files
// (bwctl import-samples --format vlmevalkit) can name an image the project already
// has by the path it has.
func (d *DB) ImageBySHA256(ctx context.Context, actor bench.User, projectID int64, sum string) (bench.Image, error) {
	im, err := d.imageWhere(ctx, actor, projectID, "i.sha256 = ?", sum)
	if err != nil {
		return bench.Image{}, fmt.Errorf("image with SHA-256 %s: %w", sum, err)
	}
	return im, nil
}

// imageWhere reads the image of project projectID that cond (on images i) with
// arg selects, for a member of the project.
func (d *DB) imageWhere(ctx context.Context, actor bench.User, projectID int64, cond string, arg any) (bench.Image, error) {
	var im bench.Image
	err := d.readProject(ctx, actor, projectID, "images.read", func(tx *sql.Tx) error {
		var err error
		im, err = scanImage(tx.QueryRowContext(ctx, `SELECT `+imageCols+` FROM images i JOIN image_roots r ON r.id = i.root_id
			WHERE i.project_id = ? AND `+cond, projectID, arg))
		if errors.Is(err, sql.ErrNoRows) {
			return bench.ErrNotFound
		}
		return err
	})
	return im, err
}
