package synth

import (
	"context"
	"fmt"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// WithdrawAuditErrors withdraws, as lead, every accepted sample of the project the
// integrity audit finds a sample-level error in (the generator repeats some
// questions), so that a freeze of the generated project goes through; the
// image-level split overlaps are left to a freeze that splits again.
func WithdrawAuditErrors(ctx context.Context, db *store.DB, lead bench.User, projectID int64) error {
	// Withdrawing one sample of a repeated pair can leave another pair of the same
	// question listed next time: audit again until no sample-level error is left.
	for range 5 {
		rep, err := db.Audit(ctx, lead, projectID)
		if err != nil {
			return err
		}
		done := map[string]bool{}
		for _, f := range rep.Findings {
			if f.Severity == bench.SeverityError && f.SampleID != "" && f.Check != "split-overlap" && !done[f.SampleID] {
				done[f.SampleID] = true
				if err := db.Withdraw(ctx, lead, f.SampleID, "benchmark set-up: "+f.Check); err != nil {
					return err
				}
			}
		}
		if len(done) == 0 {
			return nil
		}
	}
	return fmt.Errorf("the audit still finds repeated questions after five rounds of withdrawals")
}
