package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/benchwright/benchwright/agreement"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/verify"
)

// AppVersion is Benchwright's version, written into every export's manifest. Keep it
// in step with FyneApp.toml (or set it with -ldflags -X).
var AppVersion = "0.1.0"

// Export writes a frozen release in a format (see release.Export) into in.OutDir,
// copying each image's original bytes from where it was imported and refusing one
// whose SHA-256 is no longer the frozen one, then MANIFEST.json with the hash of
// every file. The files are written into a hidden folder beside OutDir that is renamed
// to OutDir at the end, so a failed or cancelled export (ctx) leaves nothing behind, and
// the folder of one killed half-way is removed by the next export into OutDir
// (ExportResult.Removed).
// Everyone signed in may export, and so may a zero actor (scripts); the export is
// written to the audit log. progress, when set, is called from the exporting
// goroutine with the records done and the total.
func (d *DB) Export(ctx context.Context, actor bench.User, in bench.ExportInput, progress func(done, total int)) (bench.ExportResult, error) {
	res, err := d.export(ctx, actor, in, progress)
	if err != nil {
		return bench.ExportResult{}, fmt.Errorf("export %s as %s: %w", d.releaseWords(ctx, actor, in.Release), in.Format, err)
	}
	return res, nil
}

func (d *DB) export(ctx context.Context, actor bench.User, in bench.ExportInput, progress func(done, total int)) (bench.ExportResult, error) {
	format, err := release.Lookup(in.Format)
	if err != nil {
		return bench.ExportResult{}, fmt.Errorf("%w: %v", bench.ErrInvalid, err)
	}
	if in.OutDir == "" {
		return bench.ExportResult{}, fmt.Errorf("%w: no output folder", bench.ErrInvalid)
	}
	out, err := filepath.Abs(in.OutDir)
	if err != nil {
		return bench.ExportResult{}, err
	}
	if err := checkOutDir(out); err != nil {
		return bench.ExportResult{}, err
	}
	var (
		rel     bench.Release
		a       bench.User
		items   []bench.ReleaseItem
		roots   map[string]string // image path → the folder it was imported from
		summary *release.AgreementSummary
		curated *release.Curation // the provenance of a hard subset (store/curation.go)
		// samples accepted by sampling, and their batches' policies (store/validation.go)
		bySampling map[string]bool
		validation []release.SampledValidation
	)
	err = d.act(ctx, actor, "release.export", func(tx *sql.Tx) error {
		// Owner (a local file read without an account) may export too.
		var err error
		if a, rel, err = releaseFor(ctx, tx, actor, in.ProjectID, in.Release, verify.ActionExport); err != nil {
			return err
		}
		// The samples the freeze (or an audit) decoded are not decoded again.
		if items, err = releaseItemsKnown(ctx, tx, rel.ID, d.decoded.known()); err != nil {
			return err
		}
		if roots, err = releaseRoots(ctx, tx, rel.ID); err != nil {
			return err
		}
		for _, it := range items {
			for _, im := range it.Record().Images() {
				if _, ok := roots[im.Path]; !ok {
					return fmt.Errorf("image %s of %s: %w: no longer in the project", im.Path, it.SampleID, bench.ErrNotFound)
				}
			}
		}
		if summary, err = releaseAgreement(ctx, tx, rel.ID); err != nil {
			return err
		}
		if bySampling, validation, err = releaseSampling(ctx, tx, rel.ID); err != nil {
			return err
		}
		curated, err = releaseCuration(ctx, tx, rel.ID)
		return err
	})
	if err != nil {
		return bench.ExportResult{}, err
	}

	recs := make([]release.Record, len(items))
	for i, it := range items {
		recs[i] = it.Record()
		recs[i].BySampling = bySampling[it.SampleID]
	}
	req := release.ExportRequest{
		Format:  format,
		Records: recs,
		Open: func(image string) (io.ReadCloser, error) {
			root, ok := roots[image]
			if !ok {
				return nil, fmt.Errorf("%w: not in the release", bench.ErrNotFound)
			}
			return os.Open(filepath.Join(root, filepath.FromSlash(image)))
		},
		Info: release.ExportInfo{
			Release: release.ReleaseInfo{Project: rel.Project, Name: rel.Name, Version: rel.Version, FrozenAt: release.Stamp(rel.CreatedAt),
				FrozenBy: rel.CreatedBy, Kinds: rel.Kinds, Tasks: rel.Tasks, Split: rel.Split, Samples: rel.Samples, Curation: curated},
			Created: d.Now(), Creator: a.Name, AppVersion: AppVersion, Agreement: summary, Validation: validation,
		},
		Progress: progress,
	}
	m, removed, err := release.ExportDir(ctx, out, req)
	var refused *release.OutDirError
	if errors.Is(err, release.ErrImageChanged) || errors.Is(err, os.ErrNotExist) || errors.As(err, &refused) {
		err = fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	if err != nil {
		return bench.ExportResult{}, err
	}
	bg := context.WithoutCancel(ctx)
	_ = d.inTx(bg, func(tx *sql.Tx) error {
		return d.audit(bg, tx, a.ID, "release.export", "release", rel.Ref(), fmt.Sprintf("%s to %s", in.Format, out))
	})
	return bench.ExportResult{Release: rel, Dir: out, Manifest: m, Removed: removed}, nil
}

// checkOutDir is release.CheckOutDir, refused as invalid input.
func checkOutDir(dir string) error {
	if err := release.CheckOutDir(dir); err != nil {
		return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	return nil
}

// releaseRoots maps each image path of a release to the folder it was imported from,
// in one query.
func releaseRoots(ctx context.Context, tx *sql.Tx, releaseID int64) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT x.image_path, r.path
		FROM (SELECT release_id, image_path FROM release_samples WHERE release_id = ?
			UNION SELECT release_id, image_path FROM release_images WHERE release_id = ?) x
		JOIN releases rl ON rl.id = x.release_id
		JOIN images i ON i.project_id = rl.project_id AND i.rel_path = x.image_path
		JOIN image_roots r ON r.id = i.root_id`, releaseID, releaseID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	roots := map[string]string{}
	for rows.Next() {
		var path, root string
		if err := rows.Scan(&path, &root); err != nil {
			return nil, err
		}
		roots[path] = root
	}
	return roots, rows.Err()
}

// releaseAgreement sums up the reviews of every revision of a release's samples up
// to the revision that went in (see release.AgreementSummary).
func releaseAgreement(ctx context.Context, tx *sql.Tx, releaseID int64) (*release.AgreementSummary, error) {
	type vote struct {
		revision, verifier int64
		round              int
		decision           string
		released           bool
	}
	votes, err := queryAll(ctx, tx, func(r scanner) (v vote, err error) {
		err = r.Scan(&v.revision, &v.round, &v.verifier, &v.decision, &v.released)
		return
	}, `SELECT rv.revision_id, rv.round, rv.verifier_id, rv.decision, rv.revision_id = rs.revision_id
		FROM reviews rv JOIN release_samples rs ON rs.sample_id = rv.sample_id AND rv.revision_id <= rs.revision_id
		WHERE rs.release_id = ? ORDER BY rv.revision_id, rv.round, rv.verifier_id`, releaseID)
	if err != nil {
		return nil, err
	}
	s := &release.AgreementSummary{ByRound: map[string]release.ReviewCount{}}
	type unit struct {
		revision int64
		round    int
	}
	var units []unit
	values := map[unit][]string{}
	round3 := map[int64][2]int{} // released revision → round-3 approvals, rejections
	for _, v := range votes {
		s.Reviews++
		c := s.ByRound[strconv.Itoa(v.round)]
		approve := v.decision == string(verify.DecisionApprove)
		if approve {
			c.Approve++
		} else {
			c.Reject++
		}
		s.ByRound[strconv.Itoa(v.round)] = c
		u := unit{v.revision, v.round}
		if _, ok := values[u]; !ok {
			units = append(units, u)
		}
		values[u] = append(values[u], v.decision)
		if v.released && v.round == 3 {
			n := round3[v.revision]
			if approve {
				n[0]++
			} else {
				n[1]++
			}
			round3[v.revision] = n
		}
	}
	for _, n := range round3 {
		if n[0] > 0 && n[1] == 0 {
			s.Round3Unanimous++
		}
	}
	var b agreement.Builder
	for _, u := range units {
		b.AddUnit(values[u]...)
		if len(values[u]) > 1 {
			s.AlphaUnits++
		}
	}
	if r, err := agreement.Alpha(b.Data(), agreement.Nominal); err != nil {
		s.AlphaNote = err.Error()
	} else {
		s.Alpha = &r.Alpha
	}
	return s, nil
}
