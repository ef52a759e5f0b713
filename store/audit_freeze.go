package store

import (
	"context"
	"fmt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
)

// AuditFreeze audits what Freeze(in) would write: the accepted samples in's kinds
// and tasks take, with in's split applied (image-disjoint, so it never overlaps),
// or with no split at all when in.NoSplit, or with each sample's own split. in's
// name and version are not looked at. progress, when not nil, is called with the
// number of image files hashed so far and their total, from the hashing goroutines.
//
// It is in Service, not Calls (progress is a callback); a team server carries
// AuditPlan, the same audit without progress.
func (d *DB) AuditFreeze(ctx context.Context, actor bench.User, in bench.FreezeInput, progress func(done, total int)) (bench.AuditReport, error) {
	data, hashing, err := d.auditInput(ctx, actor, "audit", in.ProjectID, bench.ReleaseFilter{Kinds: in.Kinds, Tasks: in.Tasks}, progress)
	if err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	defer hashing.stop()
	if err := splitSelection(in, &data); err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	hashes, err := hashing.wait()
	if err != nil {
		return bench.AuditReport{}, fmt.Errorf("audit: %w", err)
	}
	return data.Report(hashes), nil
}

// splitSelection gives the selection the split the release will carry
// (release.ApplySplit).
func splitSelection(in bench.FreezeInput, data *auditData) error {
	contents := data.Contents()
	if err := release.ApplySplit(contents, in.Split, in.NoSplit); err != nil {
		return fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	for i := range data.Samples {
		data.Samples[i].Content.Split = contents[i].Split
	}
	return nil
}

// AuditPlan is AuditFreeze without progress: the plain call a team server
// carries (a workstation's AuditFreeze asks the server for it).
func (d *DB) AuditPlan(ctx context.Context, actor bench.User, in bench.FreezeInput) (bench.AuditReport, error) {
	return d.AuditFreeze(ctx, actor, in, nil)
}
