package store_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

// TestRefusalsNameTheReleaseNotItsID: the app names a release by its id (one
// NAME@VERSION may be frozen in two projects); a refusal of a release call says
// NAME@VERSION to a member of its project, but to a stranger only the id it was
// given, never the release's name.
func TestRefusalsNameTheReleaseNotItsID(t *testing.T) {
	ctx := context.Background()
	f := newMemberFixture(t)
	id := strconv.FormatInt(f.rel.ID, 10)
	calls := []struct {
		name string
		call func(u bench.User) error
	}{
		{"predictions", func(u bench.User) error {
			_, err := f.db.As(u).Predictions(ctx, id, "nobody")
			return err
		}},
		{"sample scores", func(u bench.User) error {
			_, _, err := f.db.As(u).SampleScores(ctx, id, "no-such-sample")
			return err
		}},
		{"human baseline", func(u bench.User) error {
			_, err := f.db.As(u).DrawHumanBaseline(ctx, id, -1, 0)
			return err
		}},
		{"human answer", func(u bench.User) error {
			return f.db.As(u).AnswerHuman(ctx, id, "no-such-sample", score.HumanAnswer{})
		}},
		{"score", func(u bench.User) error {
			_, err := f.db.As(u).Score(ctx, id, []string{"nobody"}, score.Options{})
			return err
		}},
		{"hard subset", func(u bench.User) error {
			_, err := f.db.As(u).ProposeHardSubset(ctx, id, bench.HardSubsetInput{K: 1})
			return err
		}},
		{"debiased subset", func(u bench.User) error {
			_, err := f.db.As(u).ProposeDebiasedSubset(ctx, id, bench.DebiasInput{Margin: 2})
			return err
		}},
		{"import predictions", func(u bench.User) error {
			_, err := f.db.As(u).ImportPredictions(ctx, id, "m", nil, "m.jsonl", bench.PredictionRun{Base: "x"})
			return err
		}},
		{"export", func(u bench.User) error {
			_, err := f.db.As(u).Export(ctx, bench.ExportInput{Release: id, Format: "no-such-format", OutDir: t.TempDir()}, nil)
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call(f.lead)
			if err == nil {
				t.Fatal("the lead's call was not refused")
			}
			if msg := bench.Message(err); !strings.Contains(msg, "bench@1") || strings.Contains(msg, " "+id+":") {
				t.Errorf("to the lead: %q, want it to name bench@1, not release %s", msg, id)
			}
			err = c.call(f.slead)
			if err == nil {
				t.Fatal("a stranger's call was not refused")
			}
			if msg := bench.Message(err); strings.Contains(msg, "bench@1") {
				t.Errorf("to a stranger: %q names the release", msg)
			}
		})
	}
}
