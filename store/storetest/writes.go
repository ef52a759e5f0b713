package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// A writeStep is one write of bench.Calls as who (c acts as u, who signed in),
// with arguments drawn from the fixture (read from its file, which both twins
// hold alike).
type writeStep struct {
	call string
	who  string
	do   func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error)
}

// firstIn is the first sample of the fixture's file in state st whose id starts
// with prefix.
func (fx *readsFixture) firstIn(ctx context.Context, st verify.State, prefix string) bench.SampleInfo {
	ss, err := fx.DB.Samples(ctx, bench.Owner(), fx.pid(), bench.SampleFilter{Status: st}, 0, 1000)
	if err == nil {
		for _, s := range ss {
			if strings.HasPrefix(s.ID, prefix) {
				return s
			}
		}
	}
	return bench.SampleInfo{ID: "none-in-" + string(st)}
}

// writeSteps are the writes whose arguments and results are the riskiest on the
// wire (nested inputs, floats, maps, selections, refusals of part of a
// selection), which the other contract tests do not run through a server.
var writeSteps = []writeStep{
	{"AddUser", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.AddUser(ctx, "ann3", bench.RoleAnnotator, "", Password)
	}},
	{"SetRole", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.SetRole(ctx, "ann3", bench.RoleVerifier, "B")
	}},
	{"UpdateSettings", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		s := bench.DefaultSettings()
		s.Balance = []bench.BalanceTarget{{Kind: "hop_qa", Hop: 1, View: "exo", Count: 3}, {Kind: "open", Task: "T1", Count: 2}}
		s.Tasks = []string{"T1", "T2"}
		s.LRRWeights = map[string]float64{"T1": 0.1 + 0.2, "T2": 3}
		s.AugmentToRound1 = true
		return nil, c.UpdateSettings(ctx, fx.pid(), s)
	}},
	{"SetSettings", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.SetSettings(ctx, fx.pid(), map[string]string{"claim_minutes": "50", "lrr_weight.T2": "1.25", "balance.mcq": "4"})
	}},
	{"SubmitReview", "a1", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		si := fx.firstIn(ctx, verify.StateRound1, "ret-")
		return c.SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Seconds: 1.0 / 3,
			Verdict: verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther, "answer_correct"}, Comment: "two answers fit",
				Judgements: map[string]bool{"answer_correct": false, "objects_exist": true}}})
	}},
	{"Correct", "b1", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		si := fx.firstIn(ctx, verify.StateRound1, "gen-")
		s := si.Content
		s.Question, s.QuestionTag = "Which object is nearest to marker 1?", "Which object is <REL>nearest to marker 1</REL>?"
		s.Box = &annotate.Box{1.5, 2.25, 30, 20.125}
		return c.Correct(ctx, bench.CorrectionInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Content: s, Comment: "the marker is the nearest"})
	}},
	{"ImportPredictions", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ImportPredictions(ctx, fx.release.Ref(), "again", []score.Prediction{
			{SampleID: "hq-1", Response: "Answer: (b)\nBounding Box: [0.1, 0.2, 0.3, 0.4]"},
			{SampleID: "hq-1", Response: "twice"},
			{SampleID: "mc-1", Response: "C"},
			{SampleID: "nowhere", Response: "A"},
		}, "again.jsonl", bench.PredictionRun{})
	}},
	{"ProposeHardSubset", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ProposeHardSubset(ctx, fx.release.Ref(), bench.HardSubsetInput{Models: []string{"half", "blank", "again"}, K: 1, Target: 3, Seed: 7, Strict: true})
	}},
	{"DecideHardCandidates", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		_, cs, err := fx.DB.HardCandidates(ctx, u, fx.hard.ID)
		if err != nil {
			return nil, err
		}
		var ds []bench.HardDecision
		for i, hc := range cs {
			d := bench.HardDecision{SampleID: hc.SampleID, Decision: bench.DecisionKeep, Reason: "kept"}
			if i%2 == 1 {
				d.Decision, d.Reason = bench.DecisionDrop, "arguable"
			}
			ds = append(ds, d)
		}
		return c.DecideHardCandidates(ctx, fx.hard.ID, ds)
	}},
	{"FreezeHardSubset", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.FreezeHardSubset(ctx, fx.hard.ID, "reads-hard", "1")
	}},
	{"DrawHumanBaseline", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.DrawHumanBaseline(ctx, "reads-hard@1", 2, 99)
	}},
	{"AnswerHuman", "ann1", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		items, err := fx.DB.HumanItems(ctx, u, fx.release.Ref())
		if err != nil || len(items) < 2 {
			return nil, fmt.Errorf("human items: %d, %v", len(items), err)
		}
		return nil, c.AnswerHuman(ctx, fx.release.Ref(), items[1].SampleID, score.HumanAnswer{Option: 2, Text: "2", Box: &annotate.Box{0.5, 1.5, 7.25, 9}})
	}},
	{"AcceptCandidate", "ann2", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		cs, err := fx.DB.AugmentCandidates(ctx, u, fx.pid(), bench.CandidateFilter{})
		if err != nil || len(cs) < 2 {
			return nil, fmt.Errorf("candidates: %d, %v", len(cs), err)
		}
		return c.AcceptCandidate(ctx, fx.pid(), cs[0].CandidateRef, true)
	}},
	{"DiscardCandidate", "ann2", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		cs, err := fx.DB.AugmentCandidates(ctx, u, fx.pid(), bench.CandidateFilter{})
		if err != nil || len(cs) < 1 {
			return nil, fmt.Errorf("candidates: %d, %v", len(cs), err)
		}
		return nil, c.DiscardCandidate(ctx, fx.pid(), cs[len(cs)-1].CandidateRef)
	}},
	{"RecordVideoFrames", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return nil, c.RecordVideoFrames(ctx, fx.pid(), []bench.VideoFrame{{Path: "0003-kitchen/d.jpg",
			Frame: annotate.Frame{Video: "/videos/kitchen.mp4", VideoSHA256: strings.Repeat("a1", 32), Duration: 12.345678, Time: 2.0 / 3, Index: 20}}})
	}},
	{"ReassignDrafts", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReassignDrafts(ctx, []string{"dr-2", "hq-1"}, "ann1", "ann2 is away")
	}},
	{"DeleteDraft", "ann2", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		si, err := fx.DB.Sample(ctx, u, "dr-1")
		if err != nil {
			return nil, err
		}
		return c.DeleteDraft(ctx, "dr-1", si.Version)
	}},
	{"ReleaseClaims", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReleaseClaims(ctx, []string{"r3-late", "hq-1"})
	}},
	{"WithdrawSamples", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.WithdrawSamples(ctx, []string{"r3-open", "wd-1", "nowhere"}, "off topic")
	}},
	{"ReopenSamples", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReopenSamples(ctx, []string{"wd-1", "hq-1"}, "back in")
	}},
	{"Withdraw", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return nil, c.Withdraw(ctx, "op-1", "the count is arguable")
	}},
	{"Reopen", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return nil, c.Reopen(ctx, "op-1", "the count is fine")
	}},
	{"WithdrawDuplicates", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.WithdrawDuplicates(ctx, fx.pid(), "hq-1", "asked twice")
	}},
	{"ImportBatch", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		var recs []annotate.Imported
		for i := range 8 {
			s := hop(fmt.Sprintf("g2-%02d", i+1), fx.images[i%4], fmt.Sprintf("Which object is farthest from marker %d?", i))
			s.Task = fmt.Sprintf("T%d", i%2+1)
			recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
		}
		recs = append(recs, annotate.Imported{Line: 9, Sample: hop("g2-bad", "0009-nowhere/x.jpg", "Which object is lost?")})
		return c.ImportBatch(ctx, bench.ImportBatchInput{ProjectID: fx.pid(), Name: "gen-2", Source: "gen2.jsonl", Author: "ann1", Records: recs})
	}},
	{"DrawValidation", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.DrawValidation(ctx, bench.DrawInput{ProjectID: fx.pid(), Batch: "gen-2", Seed: 11, Margin: 0.15, Expected: 0.1, Threshold: 0.6, Level: 0.8})
	}},
	{"SubmitReview", "a1", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		ss, err := fx.DB.Samples(ctx, u, fx.pid(), bench.SampleFilter{Status: verify.StateRound1}, 0, 1000)
		if err != nil {
			return nil, err
		}
		var out []any
		for _, si := range ss {
			if strings.HasPrefix(si.ID, "g2-") {
				o, err := c.SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: Approve(si.Kind, 1), Seconds: 2.5})
				if err != nil {
					return nil, err
				}
				out = append(out, o)
			}
		}
		return out, nil
	}},
	{"AcceptRest", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.AcceptRest(ctx, fx.pid(), "gen-2")
	}},
	{"RebalanceLetters", "lead", func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		ids := []string{"g2-bad"} // not a sample: left, with why
		for i := range 8 {
			ids = append(ids, fmt.Sprintf("g2-%02d", i+1))
		}
		return c.RebalanceLetters(ctx, bench.RebalanceInput{ProjectID: fx.pid(), SampleIDs: ids, Reason: "every answer was B", Options: bench.ShortcutOptions{Seed: 5}})
	}},
}

// normalized is v as JSON with what differs between two projects seeded alike
// set aside: the folder their images were imported from and when they were
// written, and the network address a team server records for each write.
func normalized(v any, dirs ...string) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "unencodable: " + err.Error()
	}
	s := string(b)
	for _, d := range dirs {
		s = strings.ReplaceAll(s, jsonString(d), "DIR")
	}
	s = mtimeField.ReplaceAllString(s, `"MtimeNS":0`)
	return clientField.ReplaceAllString(s, `"Client":""`)
}

var (
	clientField = regexp.MustCompile(`"Client":"[^"]*"`)
	mtimeField  = regexp.MustCompile(`"MtimeNS":[0-9]+`) // when the image files were written
)

// jsonString is s as it appears inside a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// testWrites makes two projects alike, at the same fixed time: on one, writes
// go through the Service; on the other, straight to the file. Each write must
// answer alike (refusals in the same words), and afterwards every read of
// bench.Calls must find the two files alike: what a write carries over the
// network loses nothing that the file would have stored.
func testWrites(t *testing.T, connect Connect) {
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	now := func() time.Time { return at }
	via := newReadsFixtureAt(t, connect, now, false)
	direct := newReadsFixtureAt(t, connect, now, false)
	dirs := []string{via.Dir, direct.Dir}
	covered := map[string]bool{}
	for _, w := range writeSteps {
		covered[w.call] = true
		if !slices.Contains(writes, w.call) {
			t.Errorf("writeSteps runs %s, which is no write", w.call)
		}
		svc, u := via.As(t, w.who)
		du, err := direct.DB.Authenticate(ctx, w.who, Password)
		if err != nil {
			t.Fatal(err)
		}
		a, errVia := w.do(ctx, svc.As(u), u, via)
		b, errDirect := w.do(ctx, direct.DB.As(du), du, direct)
		switch {
		case (errVia == nil) != (errDirect == nil):
			t.Errorf("%s: error %v through the service, %v on the file", w.call, errVia, errDirect)
		case errVia != nil:
			if x, y := bench.Message(errVia), bench.Message(errDirect); x != y {
				t.Errorf("%s: the refusal says %q through the service, %q on the file", w.call, x, y)
			}
			for _, kind := range []error{bench.ErrForbidden, bench.ErrInvalid, bench.ErrNotFound, bench.ErrConflict} {
				if errors.Is(errVia, kind) != errors.Is(errDirect, kind) {
					t.Errorf("%s: through the service %v, on the file %v", w.call, errVia, errDirect)
				}
			}
		default:
			if x, y := normalized(a, dirs...), normalized(b, dirs...); x != y {
				t.Errorf("%s answers differently:\nthrough the service %s\non the file         %s", w.call, x, y)
			}
		}
	}
	names := make([]string, 0, len(reads))
	for name := range reads {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, who := range []string{"lead", "c2"} {
		u1, err := via.DB.Authenticate(ctx, who, Password)
		if err != nil {
			t.Fatal(err)
		}
		u2, err := direct.DB.Authenticate(ctx, who, Password)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			a, e1 := reads[name](ctx, via.DB.As(u1), u1, via)
			b, e2 := reads[name](ctx, direct.DB.As(u2), u2, direct)
			if e1 != nil || e2 != nil {
				if (e1 == nil) != (e2 == nil) || bench.Message(e1) != bench.Message(e2) {
					t.Errorf("after the writes, %s as %s: %v in the file written through the service, %v in the other", name, who, e1, e2)
				}
				continue
			}
			if x, y := normalized(a, dirs...), normalized(b, dirs...); x != y {
				t.Errorf("after the writes, %s as %s differs:\nwritten through the service %s\nwritten on the file         %s", name, who, x, y)
			}
		}
	}
	var missing []string
	for _, w := range writes {
		if !covered[w] {
			missing = append(missing, w)
		}
	}
	t.Logf("writes this test does not run through the service (others may): %s", strings.Join(missing, ", "))
}
