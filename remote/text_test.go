package remote_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// TestTextThatIsNotUTF8IsRefused: JSON carries each byte of a string that is not
// UTF-8 as U+FFFD, so a team server would store other text than was written. The
// client refuses such a call, in a sentence, before sending it; text in any
// other script crosses unchanged.
func TestTextThatIsNotUTF8IsRefused(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, func(t *testing.T, db *store.DB) bench.Service { _, dial := serve(t, db); return dial(t) })
	for _, c := range []struct {
		comment string
		refused bool
	}{
		{"the lamp is hidden \xff behind the mug", true},
		{"la lampe est cachée — 台灯被杯子挡住 ✓", false},
	} {
		si := p.Submitted(t, "ann1")
		svc, u := p.As(t, "a1")
		_, err := svc.As(u).SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}, Comment: c.comment}})
		_, lead := p.As(t, "lead")
		rs, rerr := p.DB.Reviews(ctx, lead, si.ID)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if !c.refused {
			if err != nil || len(rs) != 1 || rs[0].Comment != c.comment {
				t.Errorf("%q: %v; stored %+v", c.comment, err, rs)
			}
			continue
		}
		if !errors.Is(err, bench.ErrInvalid) || !strings.Contains(bench.Message(err), "not UTF-8") || !strings.Contains(bench.Message(err), "Comment") {
			t.Errorf("%q: %v (%q), want a refusal naming the comment", c.comment, err, bench.Message(err))
		}
		if len(rs) != 0 {
			t.Errorf("%q: the server stored %q", c.comment, rs[0].Comment)
		}
	}
}
