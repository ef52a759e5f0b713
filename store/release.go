package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/release"
)

// validReleaseWord is release.CheckWord, refused as invalid input.
func validReleaseWord(what, s string, maxLen int) error {
	if err := release.CheckWord(what, s, maxLen); err != nil {
		return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	return nil
}

// Freeze makes a release of the project's accepted samples that the filter takes,
// recording exactly which revision of each went in, with its split and the image as
// it is now (path, SHA-256, size); nothing about the release changes afterwards, not
// even when a sample is corrected or withdrawn. Only a lead may freeze. With
// in.Split the samples are split image-disjointly by annotate.Split (stratified by hop
// × view, or kind × task); without it each keeps its own split. The integrity audit
// runs on the selection first and any error refuses the freeze with ErrInvalid,
// listing them. Samples that change while the images are hashed make it ErrConflict.
func (d *DB) Freeze(ctx context.Context, actor bench.User, in bench.FreezeInput) (bench.Release, error) {
	what := "freeze " + in.Name + "@" + in.Version
	if in.Name == "" || in.Version == "" {
		what = "freeze" // not "freeze @": the refusal says what is missing
	}
	rel, err := d.freeze(ctx, actor, in)
	if err != nil {
		return bench.Release{}, fmt.Errorf("%s: %w", what, err)
	}
	return rel, nil
}

func (d *DB) freeze(ctx context.Context, actor bench.User, in bench.FreezeInput) (bench.Release, error) {
	filter := bench.ReleaseFilter{Kinds: in.Kinds, Tasks: in.Tasks}
	// Phase 1: read the selection (and refuse non-leads, audited).
	var data auditData
	err := d.act(ctx, actor, "release.freeze", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, in.ProjectID, verify.ActionFreeze); err != nil {
			return err
		}
		if err := checkFreezeInput(ctx, tx, in); err != nil {
			return err
		}
		var err error
		data, err = d.loadAudit(ctx, tx, in.ProjectID, filter)
		return err
	})
	if err != nil {
		return bench.Release{}, err
	}
	if len(data.Samples) == 0 {
		return bench.Release{}, fmt.Errorf("%w: no accepted sample matches the filter", bench.ErrInvalid)
	}
	// The image files are hashed while the thumbnails are compared and the
	// samples split.
	hashing := startHashing(ctx, data.Images, nil)
	defer hashing.stop()
	if err := d.nearInput(ctx, &data); err != nil {
		return bench.Release{}, err
	}
	if err := splitSelection(in, &data); err != nil {
		return bench.Release{}, err
	}
	hashes, err := hashing.wait()
	if err != nil {
		return bench.Release{}, err
	}
	if afterFreezeAudit != nil {
		afterFreezeAudit()
	}
	if rep := data.Report(hashes); rep.Errors() > 0 {
		var lines []string
		for _, f := range rep.Findings {
			if f.Severity == bench.SeverityError {
				lines = append(lines, f.String())
			}
		}
		if len(lines) > 10 {
			lines = append(lines[:10], fmt.Sprintf("and %d more", len(lines)-10))
		}
		return bench.Release{}, bench.AuditErrorsOf(rep.Findings, fmt.Sprintf("%v: the audit found %s:\n%s", bench.ErrInvalid, annotate.Plural(rep.Errors(), "error"), strings.Join(lines, "\n")))
	}

	// Phase 2: write the release, if nothing changed meanwhile.
	var rel bench.Release
	err = d.act(ctx, actor, "release.freeze", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, in.ProjectID, verify.ActionFreeze)
		if err != nil {
			return err
		}
		if err := checkFreezeInput(ctx, tx, in); err != nil {
			return err
		}
		accepted, images, err := acceptedSelection(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		if err := release.SameSelection(data.accepted, accepted, data.Images, images); err != nil {
			return fmt.Errorf("%w: %w", bench.ErrConflict, err)
		}
		filterJSON, _ := json.Marshal(filter)
		split := ""
		if in.Split != nil {
			b, _ := json.Marshal(in.Split)
			split = string(b)
		}
		var id int64
		err = tx.QueryRowContext(ctx, `INSERT INTO releases (project_id, name, version, filter, split, sample_count, created_by, created_at, sealed)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id`, in.ProjectID, in.Name, in.Version, string(filterJSON), split, len(data.Samples), a.ID, d.now()).Scan(&id)
		if err != nil {
			return err
		}
		// Multi-row statements: one round trip per few hundred rows instead of one
		// per row (11,801 statements for the scale benchmark's release).
		rows := make([][]any, 0, len(data.Samples))
		var more [][]any
		for _, s := range data.Samples {
			im := data.Images[s.Content.Image]
			rows = append(rows, []any{id, s.ID, s.RevisionID, s.Content.Split, im.RelPath, im.SHA256, im.Width, im.Height})
			for i, p := range s.Content.MoreImages {
				im := data.Images[p]
				more = append(more, []any{id, s.ID, i + 1, im.RelPath, im.SHA256, im.Width, im.Height})
			}
		}
		if err := insertMany(ctx, tx, "release_samples", releaseSampleCols, rows, nil); err != nil {
			return err
		}
		if err := insertMany(ctx, tx, "release_images", releaseImageCols, more, nil); err != nil {
			return err
		}
		// Sealing checks the count once; from now on the release takes no rows.
		if _, err := tx.ExecContext(ctx, `UPDATE releases SET sealed = 1 WHERE id = ?`, id); err != nil {
			return err
		}
		if err := d.audit(ctx, tx, a.ID, "release.freeze", "release", in.Name+"@"+in.Version,
			fmt.Sprintf("project %d, %d samples", in.ProjectID, len(data.Samples))); err != nil {
			return err
		}
		rel, err = releaseByID(ctx, tx, id)
		return err
	})
	return rel, err
}

// The columns a freeze writes of each sample, and of each further image of a
// sequence's sample.
var (
	releaseSampleCols = []string{"release_id", "sample_id", "revision_id", "split", "image_path", "image_sha256", "width", "height"}
	releaseImageCols  = []string{"release_id", "sample_id", "pos", "image_path", "image_sha256", "width", "height"}
)

// afterFreezeAudit, when set (by tests only), runs between a freeze's audit and its
// write, where another user's change must make the freeze ErrConflict.
var afterFreezeAudit func()

// checkFreezeInput validates the name, version and split and refuses a taken name.
func checkFreezeInput(ctx context.Context, tx *sql.Tx, in bench.FreezeInput) error {
	if err := validReleaseWord("name", in.Name, 80); err != nil {
		return err
	}
	if err := validReleaseWord("version", in.Version, 40); err != nil {
		return err
	}
	if in.Split != nil {
		if err := in.Split.Validate(); err != nil {
			return fmt.Errorf("%w: %v", bench.ErrInvalid, err)
		}
	}
	for _, k := range in.Kinds {
		if !k.Valid() {
			return fmt.Errorf("%w: unknown kind %q in the filter", bench.ErrInvalid, k)
		}
	}
	if err := projectExists(ctx, tx, in.ProjectID); err != nil {
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM releases WHERE project_id = ? AND name = ? AND version = ?`,
		in.ProjectID, in.Name, in.Version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%w: release %s@%s exists already; give the new one another version", bench.ErrConflict, in.Name, in.Version)
	}
	return nil
}

const releaseCols = `rl.id, rl.project_id, p.name, rl.name, rl.version, rl.filter, rl.split, rl.sample_count, u.name, rl.created_at`

const releaseFrom = ` FROM releases rl JOIN projects p ON p.id = rl.project_id JOIN users u ON u.id = rl.created_by`

func scanRelease(r scanner) (bench.Release, error) {
	var rel bench.Release
	var filter, split string
	if err := r.Scan(&rel.ID, &rel.ProjectID, &rel.Project, &rel.Name, &rel.Version, &filter, &split, &rel.Samples, &rel.CreatedBy, &rel.CreatedAt); err != nil {
		return bench.Release{}, err
	}
	var f bench.ReleaseFilter
	if err := json.Unmarshal([]byte(filter), &f); err != nil {
		return bench.Release{}, fmt.Errorf("release %s: filter: %w", rel.Ref(), err)
	}
	rel.Kinds, rel.Tasks = f.Kinds, f.Tasks
	if split != "" {
		rel.Split = new(annotate.SplitSpec)
		if err := json.Unmarshal([]byte(split), rel.Split); err != nil {
			return bench.Release{}, fmt.Errorf("release %s: split: %w", rel.Ref(), err)
		}
	}
	return rel, nil
}

// withSplitCounts fills rel.SplitCounts.
func withSplitCounts(ctx context.Context, q querier, rel *bench.Release) error {
	type count struct {
		split string
		n     int
	}
	cs, err := queryAll(ctx, q, func(r scanner) (c count, err error) { err = r.Scan(&c.split, &c.n); return },
		`SELECT split, count(*) FROM release_samples WHERE release_id = ? GROUP BY split`, rel.ID)
	if err != nil {
		return err
	}
	rel.SplitCounts = map[string]int{}
	for _, c := range cs {
		rel.SplitCounts[c.split] = c.n
	}
	return nil
}

func releaseByID(ctx context.Context, tx *sql.Tx, id int64) (bench.Release, error) {
	rel, err := scanRelease(tx.QueryRowContext(ctx, `SELECT `+releaseCols+releaseFrom+` WHERE rl.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return bench.Release{}, fmt.Errorf("release %d: %w", id, bench.ErrNotFound)
	}
	if err != nil {
		return bench.Release{}, err
	}
	return rel, withSplitCounts(ctx, tx, &rel)
}

// Releases lists a project's releases, newest first, to any member.
func (d *DB) Releases(ctx context.Context, actor bench.User, projectID int64) ([]bench.Release, error) {
	var rels []bench.Release
	err := d.readProject(ctx, actor, projectID, "releases.read", func(tx *sql.Tx) error {
		var err error
		rels, err = queryAll(ctx, tx, scanRelease, `SELECT `+releaseCols+releaseFrom+` WHERE rl.project_id = ? ORDER BY rl.created_at DESC, rl.id DESC`, projectID)
		if err != nil {
			return err
		}
		for i := range rels {
			if err := withSplitCounts(ctx, tx, &rels[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	return rels, nil
}

// ReleaseByRef finds a release by "NAME@VERSION" or by its numeric id, in project
// projectID or, when it is 0, in any project actor is a member of (a name@version
// held by two of them is then ErrInvalid: name the project). A release of a
// project actor is not a member of is refused (ErrForbidden).
func (d *DB) ReleaseByRef(ctx context.Context, actor bench.User, projectID int64, ref string) (bench.Release, error) {
	var rel bench.Release
	err := d.readAs(ctx, actor, "releases.read", func(tx *sql.Tx) error {
		var err error
		_, rel, err = releaseFor(ctx, tx, actor, projectID, ref, verify.ActionReadProject)
		return err
	})
	return rel, err
}

// releaseByRefAmong finds a release by "NAME@VERSION" or by its numeric id, in
// project projectID or, when it is 0, in any project of user member (member 0:
// any project). A name@version held by two of them is ErrInvalid.
func releaseByRefAmong(ctx context.Context, tx *sql.Tx, projectID int64, ref string, member int64) (bench.Release, error) {
	name, version, ok := strings.Cut(ref, "@")
	if !ok {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil {
			return bench.Release{}, fmt.Errorf("%w: release %q: want NAME@VERSION or a release id", bench.ErrInvalid, ref)
		}
		rel, err := releaseByID(ctx, tx, id)
		if err == nil && projectID != 0 && rel.ProjectID != projectID {
			return bench.Release{}, fmt.Errorf("release %d: %w in this project", id, bench.ErrNotFound)
		}
		return rel, err
	}
	q := `SELECT ` + releaseCols + releaseFrom + ` WHERE rl.name = ? AND rl.version = ?`
	args := []any{name, version}
	if projectID != 0 {
		q += ` AND rl.project_id = ?`
		args = append(args, projectID)
	} else if member != 0 {
		q += ` AND ` + memberProjects("rl.project_id")
		args = append(args, member)
	}
	rels, err := queryAll(ctx, tx, scanRelease, q+` ORDER BY p.name`, args...)
	if err != nil {
		return bench.Release{}, err
	}
	switch len(rels) {
	case 0:
		return bench.Release{}, fmt.Errorf("release %s: %w", ref, bench.ErrNotFound)
	case 1:
		return rels[0], withSplitCounts(ctx, tx, &rels[0])
	}
	var projects []string
	for _, r := range rels {
		projects = append(projects, r.Project)
	}
	return bench.Release{}, fmt.Errorf("%w: release %s exists in projects %s; name the project", bench.ErrInvalid, ref, strings.Join(projects, ", "))
}

// ReleaseItems lists a release's samples by id, to any member of its project.
func (d *DB) ReleaseItems(ctx context.Context, actor bench.User, releaseID int64) ([]bench.ReleaseItem, error) {
	var items []bench.ReleaseItem
	err := d.readAs(ctx, actor, "releases.read", func(tx *sql.Tx) error {
		if _, err := requireReleaseAction(ctx, tx, actor, releaseID, verify.ActionReadProject); err != nil {
			return err
		}
		var err error
		items, err = releaseItems(ctx, tx, releaseID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("release %d: %w", releaseID, err)
	}
	return items, nil
}

func releaseItems(ctx context.Context, tx *sql.Tx, releaseID int64) ([]bench.ReleaseItem, error) {
	return releaseItemsKnown(ctx, tx, releaseID, nil)
}

// releaseItemsKnown is releaseItems taking the contents known has decoded
// (decodedRevisions) as they are, and decoding the others on all cores.
func releaseItemsKnown(ctx context.Context, tx *sql.Tx, releaseID int64, known map[int64]annotate.Sample) ([]bench.ReleaseItem, error) {
	var raws []rawRevision
	items, err := queryAll(ctx, tx, func(r scanner) (bench.ReleaseItem, error) {
		var it bench.ReleaseItem
		var content string
		err := r.Scan(&it.SampleID, &it.RevisionID, &it.Revision, &it.Split, &it.ImagePath, &it.ImageSHA256, &it.Width, &it.Height, &content)
		raws = append(raws, rawRevision{it.RevisionID, content})
		return it, err
	}, `SELECT `+releaseItemCols+releaseItemFrom+` WHERE rs.release_id = ? ORDER BY rs.sample_id`, releaseID)
	if err != nil {
		return nil, err
	}
	contents, bad, err := decodeRevisions(ctx, raws, known)
	if err != nil {
		if bad >= 0 {
			return nil, fmt.Errorf("decode sample %s revision %d: %w", items[bad].SampleID, items[bad].Revision, err)
		}
		return nil, err
	}
	for i := range items {
		items[i].Content = contents[i]
		items[i].Content.Split = items[i].Split
	}
	return items, releaseMoreImages(ctx, tx, releaseID, items)
}

// releaseMoreImages fills the More of a release's items (any subset of them) from
// release_images, in position order.
func releaseMoreImages(ctx context.Context, tx *sql.Tx, releaseID int64, items []bench.ReleaseItem) error {
	type row struct {
		sample string
		pos    int
		facts  release.ImageFacts
	}
	rows, err := queryAll(ctx, tx, func(r scanner) (row, error) {
		var x row
		return x, r.Scan(&x.sample, &x.pos, &x.facts.Path, &x.facts.SHA256, &x.facts.Width, &x.facts.Height)
	}, `SELECT sample_id, pos, image_path, image_sha256, width, height FROM release_images WHERE release_id = ? ORDER BY sample_id, pos`, releaseID)
	if err != nil || len(rows) == 0 {
		return err
	}
	at := make(map[string]int, len(items))
	for i, it := range items {
		at[it.SampleID] = i
	}
	for _, x := range rows {
		if i, ok := at[x.sample]; ok {
			items[i].More = append(items[i].More, x.facts)
		}
	}
	return nil
}

// releaseItemCols and releaseItemFrom select what scanReleaseItem reads.
const (
	releaseItemCols = `rs.sample_id, rs.revision_id, r.number, rs.split, rs.image_path, rs.image_sha256, rs.width, rs.height, r.content`
	releaseItemFrom = ` FROM release_samples rs JOIN revisions r ON r.id = rs.revision_id`
)

// scanReleaseItem reads one release sample with its frozen revision's content.
func scanReleaseItem(r scanner) (bench.ReleaseItem, error) {
	var it bench.ReleaseItem
	var content string
	if err := r.Scan(&it.SampleID, &it.RevisionID, &it.Revision, &it.Split, &it.ImagePath, &it.ImageSHA256, &it.Width, &it.Height, &content); err != nil {
		return it, err
	}
	if err := json.Unmarshal([]byte(content), &it.Content); err != nil {
		return it, fmt.Errorf("decode sample %s revision %d: %w", it.SampleID, it.Revision, err)
	}
	it.Content.Split = it.Split
	return it, nil
}

// releaseWords names release ref in a sentence for actor. The app hands the
// store a release's id (one NAME@VERSION may be frozen in two projects), which
// people should not read: the id of a release in one of actor's projects becomes
// its NAME@VERSION. Any other ref, and an id actor may not see, is returned as
// given (a name says nothing actor could not already read).
func (d *DB) releaseWords(ctx context.Context, actor bench.User, ref string) string {
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return ref
	}
	q := `SELECT rl.name, rl.version FROM releases rl WHERE rl.id = ?`
	args := []any{id}
	if !actor.IsOwner() {
		q += ` AND ` + memberProjects("rl.project_id")
		args = append(args, actor.ID)
	}
	var rel bench.Release
	if err := d.rdb.QueryRowContext(ctx, q, args...).Scan(&rel.Name, &rel.Version); err != nil {
		return ref
	}
	return rel.Ref()
}
