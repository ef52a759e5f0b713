package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// A read asks one read call of the contract of c, which acts as u, with the
// arguments the fixture holds, and returns everything the call returned but its error (several
// results as a slice).
type read func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error)

// Reads is every read call of bench.Calls: testReads asks each through the
// Service and straight from the file, as several people, and wants the same
// answers. Writes lists the others. Every method of bench.Calls is in exactly one
// of them (the suite's EveryCallClassified): a new call is classified before the
// suite passes, and a new read is compared at once.
var reads = map[string]read{
	// Accounts
	"Users": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Users(ctx)
	},
	"UserByName": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.UserByName(ctx, "b1")
	},
	"Refusals": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Refusals(ctx, 50)
	},
	// Projects and settings
	"Projects": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Projects(ctx)
	},
	"ProjectByName": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ProjectByName(ctx, fx.Project.Project.Name)
	},
	"GroupSettings": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.GroupSettings(ctx, fx.pid())
	},
	"ProjectHistory": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ProjectHistory(ctx, fx.pid())
	},
	"Members": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Members(ctx, fx.pid())
	},
	// Images
	"Images": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Images(ctx, fx.pid(), 0, 50)
	},
	"CountImages": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.CountImages(ctx, fx.pid())
	},
	"ImageByPath": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ImageByPath(ctx, fx.pid(), fx.Image)
	},
	"ImagesByPaths": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ImagesByPaths(ctx, fx.pid(), append(slices.Clone(fx.images), "0009-nowhere/x.jpg"))
	},
	"ImageBySHA256": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ImageBySHA256(ctx, fx.pid(), fx.sha)
	},
	"ImagesWithoutSamples": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ImagesWithoutSamples(ctx, fx.pid(), 0, 50)
	},
	"CountImagesWithoutSamples": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.CountImagesWithoutSamples(ctx, fx.pid())
	},
	"VideoFrames": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.VideoFrames(ctx, fx.pid(), fx.images)
	},
	// Samples
	"Sample": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.each(func(id string) (any, error) { return c.Sample(ctx, id) })
	},
	"Samples": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		all, err := c.Samples(ctx, fx.pid(), bench.SampleFilter{}, 0, 500)
		if err != nil {
			return nil, err
		}
		r3, err := c.Samples(ctx, fx.pid(), bench.SampleFilter{Status: verify.StateRound3}, 0, 500)
		return []any{all, r3}, err
	},
	"CountSamples": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.CountSamples(ctx, fx.pid(), bench.SampleFilter{Status: verify.StateAccepted})
	},
	"StatusCounts": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.StatusCounts(ctx, fx.pid())
	},
	"SampleRevisions": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.each(func(id string) (any, error) { return c.SampleRevisions(ctx, id) })
	},
	"History": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.each(func(id string) (any, error) { return c.History(ctx, id) })
	},
	// Verification
	"ReviewQueue": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReviewQueue(ctx, fx.pid(), 0)
	},
	"ReviewQueueLimit": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReviewQueueLimit(ctx, fx.pid(), 0, 2)
	},
	"Reviews": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.each(func(id string) (any, error) { return c.Reviews(ctx, id) })
	},
	// The lead's views
	"Dashboard": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Dashboard(ctx, fx.pid())
	},
	"Agreement": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Agreement(ctx, fx.pid())
	},
	"Audit": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Audit(ctx, fx.pid())
	},
	"AuditPlan": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.AuditPlan(ctx, bench.FreezeInput{ProjectID: fx.pid(), Name: "plan", Version: "1"})
	},
	"ImageHashes": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ImageHashes(ctx, fx.pid())
	},
	"Shortcuts": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		// MinSamples 2: the fixture's few samples are judged, so every figure crosses the wire.
		return c.Shortcuts(ctx, fx.pid(), bench.ShortcutOptions{MinSamples: 2, Folds: 2, Seed: 3})
	},
	// Planted copies (leads only)
	"PlantedStatus": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.PlantedStatus(ctx, fx.pid())
	},
	"PlantedList": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.PlantedList(ctx, fx.pid())
	},
	// Releases
	"Releases": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Releases(ctx, fx.pid())
	},
	"ReleaseByRef": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReleaseByRef(ctx, fx.pid(), fx.release.Ref())
	},
	"ReleaseItems": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReleaseItems(ctx, fx.release.ID)
	},
	// Models on releases
	"Predictions": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Predictions(ctx, fx.release.Ref(), "half")
	},
	"Models": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.Models(ctx, fx.release.Ref())
	},
	"Score": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		all, err := c.Score(ctx, fx.release.Ref(), nil, score.Options{})
		if err != nil {
			return nil, err
		}
		some, err := c.Score(ctx, fx.release.Ref(), []string{"half", "oracle"},
			score.Options{YesNo: score.YesNoLRR, Denominator: score.DenomParsed, StepMode: score.StepMacro, LRRWeights: map[string]float64{"T1": 0.75}})
		return []any{all, some}, err
	},
	"SampleScores": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.eachOf(fx.frozen, func(id string) (any, error) {
			g, rs, err := c.SampleScores(ctx, fx.release.Ref(), id)
			return []any{g, rs}, err
		})
	},
	"ReleaseOutcomes": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ReleaseOutcomes(ctx, fx.release.Ref())
	},
	// The lead's sample manager
	"SearchSamples": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.queries(func(q bench.SampleQuery) (any, error) { return c.SearchSamples(ctx, fx.pid(), q) })
	},
	"SampleIDs": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.queries(func(q bench.SampleQuery) (any, error) { return c.SampleIDs(ctx, fx.pid(), q) })
	},
	"ExportSamples": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		var out []any
		for _, f := range []bench.SampleFormat{bench.FormatCSV, bench.FormatJSONL} {
			b, err := c.ExportSamples(ctx, fx.pid(), fx.samples, f)
			if err != nil {
				return nil, err
			}
			out = append(out, string(b))
		}
		return out, nil
	},
	// Augmentation
	"AugmentCandidates": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.AugmentCandidates(ctx, fx.pid(), bench.CandidateFilter{})
	},
	"SampleLineage": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return fx.each(func(id string) (any, error) {
			l, ok, err := c.SampleLineage(ctx, id)
			return []any{l, ok}, err
		})
	},
	// Hard subsets and the human baseline
	"HardSubsets": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.HardSubsets(ctx, fx.release.Ref())
	},
	"HardCandidates": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		h, cs, err := c.HardCandidates(ctx, fx.hard.ID)
		return []any{h, cs}, err
	},
	"HumanBaselineOf": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		h, ok, err := c.HumanBaselineOf(ctx, fx.release.Ref())
		return []any{h, ok}, err
	},
	"HumanItems": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.HumanItems(ctx, fx.release.Ref())
	},
	"HumanReport": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		r, ok, err := c.HumanReport(ctx, fx.release.Ref(), score.Options{})
		return []any{r, ok}, err
	},
	// Sampled validation
	"ValidationBatches": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ValidationBatches(ctx, fx.pid())
	},
	"ValidationStatus": func(ctx context.Context, c bench.Calls, u bench.User, fx *readsFixture) (any, error) {
		return c.ValidationStatus(ctx, fx.pid(), "gen-1")
	},
}

// writes is every call of bench.Calls that changes the project. The contract
// tests run some of them through a server; the reads' fixture is written with
// others straight into the file.
var writes = []string{
	"AddUser", "SetRole", "SetPassword", "AddUserToProject",
	"CreateProject", "UpdateSettings", "SetSettings", "AddMember", "RemoveMember", "SetMemberRole",
	"ImportUploads", "RecordVideoFrames",
	"CreateSample", "SaveDraft", "Submit", "Withdraw", "Reopen", "ImportSamples",
	"ClaimReview", "ReleaseClaim", "SubmitReview", "Correct",
	"WithdrawDuplicates",
	"Freeze",
	"ImportPredictions",
	"WithdrawSamples", "ReopenSamples", "ReassignDrafts", "ReleaseClaims", "DeleteDraft",
	"AcceptCandidate", "DiscardCandidate",
	"ProposeHardSubset", "ProposeDebiasedSubset", "DecideHardCandidates", "FreezeHardSubset", "DrawHumanBaseline", "AnswerHuman",
	"ImportBatch", "DrawValidation", "AcceptRest",
	"PlantResume",
	"RebalanceLetters",
}

// testCallsClassified fails for every method of bench.Calls that is neither a
// read nor a write, for every name classified twice, and for every name that is
// no call any more.
func testCallsClassified(t *testing.T) {
	calls := reflect.TypeFor[bench.Calls]()
	names := map[string]bool{}
	for i := range calls.NumMethod() {
		names[calls.Method(i).Name] = true
	}
	seen := map[string]string{}
	for name := range reads {
		seen[name] = "a read"
	}
	for _, name := range writes {
		if was, ok := seen[name]; ok {
			t.Errorf("%s is classified twice (a write and %s)", name, was)
		}
		seen[name] = "a write"
	}
	for name := range names {
		if _, ok := seen[name]; !ok {
			t.Errorf("bench.Calls.%s is neither a read nor a write: add it to storetest's reads (it is then compared through a server) or writes", name)
		}
	}
	for name, what := range seen {
		if !names[name] {
			t.Errorf("storetest classifies %s as %s, but bench.Calls has no such call", name, what)
		}
	}
	if len(names) < 80 {
		t.Errorf("bench.Calls has %d methods by reflection; the classification expects the whole contract", len(names))
	}
}

// readsFixture is a project holding something for every read to return: samples
// of every kind in every state (accepted, in an open blind round 3, returned by a
// round-3 reject, under a claim, a draft), a frozen release with three models'
// predictions, a hard subset being decided, a human baseline with an answer, an
// augmented sample and its candidates, a drawn validation batch, video frames,
// a refusal.
type readsFixture struct {
	*Project
	images  []string // every image path
	sha     string   // the first image's content hash
	samples []string // every sample's id, sorted
	frozen  []string // the samples of the release
	release bench.Release
	hard    bench.HardSubset
	ids     map[string]int64 // every account's id by name
}

func (fx *readsFixture) pid() int64 { return fx.Project.Project.ID }

// each asks do for every sample, keyed by id (errors included, by their words).
func (fx *readsFixture) each(do func(id string) (any, error)) (any, error) {
	return fx.eachOf(fx.samples, do)
}

func (fx *readsFixture) eachOf(ids []string, do func(id string) (any, error)) (any, error) {
	out := map[string]any{}
	for _, id := range ids {
		v, err := do(id)
		if err != nil {
			out[id] = "error: " + bench.Message(err)
			continue
		}
		out[id] = v
	}
	return out, nil
}

// queries asks do for a few searches of the sample manager.
func (fx *readsFixture) queries(do func(q bench.SampleQuery) (any, error)) (any, error) {
	var out []any
	for _, q := range []bench.SampleQuery{
		{},
		{Text: "closest"},
		{States: []verify.State{verify.StateAccepted, verify.StateRound3}, Kinds: []annotate.Kind{annotate.KindHopQA}},
		{Round: 3},
		{IDs: fx.frozen},
		{VerifierID: fx.ids["b2"], Round: 3},
		{VerifierID: fx.ids["a1"]},
		{Rejected: true},
		{Sort: bench.SortUpdated, Desc: true, Offset: 2, Limit: 5},
		{From: "2000-01-01", To: "2999-12-31", Derived: true},
	} {
		v, err := do(q)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// hop is a valid hop question on image.
func hop(id, image, question string) annotate.Sample {
	s := HopSample(image)
	s.ID, s.Question = id, question
	s.QuestionTag = "<REL>" + question + "</REL>"
	return s
}

// newReadsFixture writes the fixture straight into the file (the reads are what
// is compared, not how it was written).
func newReadsFixture(t *testing.T, connect Connect) *readsFixture {
	t.Helper()
	return newReadsFixtureAt(t, connect, nil, true)
}

// newReadsFixtureAt is newReadsFixture on a database whose clock is now, with a
// planted copy when plant is set (two projects written alike would draw
// different copies: planting draws with a secret salt per project).
func newReadsFixtureAt(t *testing.T, connect Connect, now func() time.Time, plant bool) *readsFixture {
	t.Helper()
	ctx := context.Background()
	p := seedAt(t, connect, now)
	fx := &readsFixture{Project: p}
	db := p.DB
	us := map[string]bench.User{}
	for _, n := range []string{"lead", "ann1", "ann2", "a1", "a2", "b1", "b2", "c1", "c2"} {
		u, err := db.Authenticate(ctx, n, Password)
		if err != nil {
			t.Fatal(err)
		}
		us[n] = u
	}
	fx.ids = map[string]int64{}
	for n, u := range us {
		fx.ids[n] = u.ID
	}
	fx.images = append([]string{p.Image}, p.AddImages(t, "0002-seq/b.jpg", "0002-seq/c.jpg", "0003-kitchen/d.jpg", "0004-empty/e.jpg")...)
	im, err := db.ImageByPath(ctx, us["lead"], fx.pid(), p.Image)
	if err != nil {
		t.Fatal(err)
	}
	fx.sha = im.SHA256
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	submit := func(s annotate.Sample) bench.SampleInfo {
		t.Helper()
		si, err := db.CreateSample(ctx, us["ann1"], fx.pid(), s)
		must("create "+s.ID, err)
		si, err = db.Submit(ctx, us["ann1"], si.ID, si.Version, nil)
		must("submit "+s.ID, err)
		return si
	}
	vote := func(si bench.SampleInfo, who string, round int, reject bool) {
		t.Helper()
		v := Approve(si.Kind, round)
		if reject {
			v = verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.ReasonOther}, Comment: "the lamp is hidden"}
		}
		_, err := db.SubmitReview(ctx, us[who], bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision, Verdict: v, Seconds: 12.5})
		must(fmt.Sprintf("%s votes on %s in round %d", who, si.ID, round), err)
	}
	accept := func(s annotate.Sample) {
		t.Helper()
		si := submit(s)
		for _, r := range []struct {
			who   string
			round int
		}{{"a1", 1}, {"b1", 2}, {"a2", 3}, {"b2", 3}, {"c1", 3}} {
			vote(si, r.who, r.round, false)
		}
	}
	accept(hop("hq-1", p.Image, "Which object is closest to the camera?"))
	accept(annotate.Sample{ID: "mc-1", Kind: annotate.KindMCQ, Image: "0002-seq/b.jpg",
		Question: "Where is the mug relative to the lamp?", Options: []string{"left", "right", "behind"}, AnswerIndex: 1})
	accept(annotate.Sample{ID: "op-1", Kind: annotate.KindOpen, Image: "0002-seq/c.jpg",
		Question: "How many mugs stand on the counter?", AnswerText: "2"})
	accept(annotate.Sample{ID: "sg-1", Kind: annotate.KindStepGraph, Image: p.Image, Scene: "0001-office-1",
		Question: "Pick up the laptop", Steps: []annotate.Step{
			{ID: "step1", Content: "Remove the book from the laptop", Precondition: []string{}},
			{ID: "step2", Content: "Close the laptop", Precondition: []string{"step1"}},
			{ID: "step3", Content: "Pick up the laptop", Precondition: []string{"step2"}}}})
	accept(annotate.Sample{ID: "yn-1", Kind: annotate.KindJudgment, Image: "0003-kitchen/d.jpg",
		MoreImages: []string{"0002-seq/b.jpg"}, Question: "Is the mug left of the lamp?", AnswerText: "no"})
	var err2 error
	fx.release, err2 = db.Freeze(ctx, us["lead"], bench.FreezeInput{ProjectID: fx.pid(), Name: "reads", Version: "1"})
	must("freeze", err2)
	fx.frozen = []string{"hq-1", "mc-1", "op-1", "sg-1", "yn-1"}

	// Three models: every answer right, two right, none readable.
	perfect := []score.Prediction{
		{SampleID: "hq-1", Response: "Answer: (b) the lamp\nBounding Box: [0.15625, 0.20833333333333334, 0.625, 0.625]"},
		{SampleID: "mc-1", Response: "B"},
		{SampleID: "op-1", Response: "<answer>2</answer>"},
		{SampleID: "sg-1", Response: `<ans>{"step1": {"content": "Remove the book from the laptop", "precondition": []}, ` +
			`"step2": {"content": "Close the laptop", "precondition": ["step1"]}, "step3": {"content": "Pick up the laptop", "precondition": ["step2"]}}</ans>`},
		{SampleID: "yn-1", Response: "No."},
	}
	var half, blank []score.Prediction
	for i, pr := range perfect {
		h := score.Prediction{SampleID: pr.SampleID, Response: "I do not know."}
		if i < 2 {
			h = pr
		}
		half = append(half, h)
		blank = append(blank, score.Prediction{SampleID: pr.SampleID, Response: "I do not know."})
	}
	for _, m := range []struct {
		name  string
		preds []score.Prediction
	}{{"oracle", perfect}, {"half", half}, {"blank", blank}} {
		_, err := db.ImportPredictions(ctx, us["lead"], fx.release.Ref(), m.name, m.preds, m.name+".jsonl", bench.PredictionRun{})
		must("predictions of "+m.name, err)
	}
	fx.hard, err2 = db.ProposeHardSubset(ctx, us["lead"], fx.release.Ref(), bench.HardSubsetInput{K: 2, Seed: 5})
	must("hard subset", err2)
	_, cs, err := db.HardCandidates(ctx, us["lead"], fx.hard.ID)
	must("hard candidates", err)
	if len(cs) > 0 {
		_, err := db.DecideHardCandidates(ctx, us["lead"], fx.hard.ID, []bench.HardDecision{{SampleID: cs[0].SampleID, Decision: bench.DecisionKeep, Reason: "counting under occlusion"}})
		must("decide", err)
	}
	_, err = db.DrawHumanBaseline(ctx, us["lead"], fx.release.Ref(), 3, 1)
	must("human baseline", err)
	items, err := db.HumanItems(ctx, us["ann2"], fx.release.Ref())
	must("human items", err)
	if len(items) > 0 {
		must("answer", db.AnswerHuman(ctx, us["ann2"], fx.release.Ref(), items[0].SampleID, score.HumanAnswer{Option: 1, Text: "no", Box: &annotate.Box{4, 3, 10, 10}}))
	}

	// An augmented sample from the step graph; candidates left to take or discard.
	cands, err := db.AugmentCandidates(ctx, us["ann2"], fx.pid(), bench.CandidateFilter{})
	must("augment candidates", err)
	if len(cands) < 3 {
		t.Fatalf("%d augment candidates, want 3 or more", len(cands))
	}
	_, err = db.AcceptCandidate(ctx, us["ann2"], fx.pid(), cands[0].CandidateRef, false)
	must("accept candidate", err)
	// A question asked twice, accepted after the freeze.
	accept(hop("hq-2", p.Image, "Which object is closest to the camera?"))

	// Round 3 open with two approvals (blind); a round 3 closed by a reject with a
	// late voter's seat; a returned sample resubmitted changed; a claim; a draft.
	open := submit(hop("r3-open", "0002-seq/b.jpg", "Which object is left of the door?"))
	vote(open, "a1", 1, false)
	vote(open, "b1", 2, false)
	vote(open, "a2", 3, false)
	vote(open, "b2", 3, false)
	late := submit(hop("r3-late", "0002-seq/c.jpg", "Which object is right of the mug?"))
	vote(late, "a1", 1, false)
	vote(late, "b1", 2, false)
	_, err = db.ClaimReview(ctx, us["c2"], late.ID, 3)
	must("claim a round-3 seat", err)
	vote(late, "a2", 3, false)
	vote(late, "b2", 3, true)
	ret := submit(hop("ret-1", "0003-kitchen/d.jpg", "Which object is under the table?"))
	vote(ret, "c1", 1, true)
	cur, err := db.Sample(ctx, us["ann1"], ret.ID)
	must("returned", err)
	s := cur.Content
	s.AnswerIndex = 2
	v, err := db.SaveDraft(ctx, us["ann1"], ret.ID, cur.Version, s)
	must("save", err)
	_, err = db.Submit(ctx, us["ann1"], ret.ID, v, nil)
	must("resubmit", err)
	_, err = db.ClaimReview(ctx, us["a1"], ret.ID, 1)
	must("claim", err)
	_, err = db.CreateSample(ctx, us["ann2"], fx.pid(), hop("dr-1", "0003-kitchen/d.jpg", "Which object is on the shelf?"))
	must("draft", err)
	_, err = db.CreateSample(ctx, us["ann2"], fx.pid(), hop("dr-2", "0002-seq/b.jpg", "Which object is under the shelf?"))
	must("draft", err)

	// A withdrawn sample; a sample corrected by its round-2 verifier.
	wd := submit(hop("wd-1", p.Image, "Which object is behind the lamp?"))
	must("withdraw", db.Withdraw(ctx, us["lead"], wd.ID, "a duplicate of hq-1"))
	co := submit(hop("co-1", "0002-seq/c.jpg", "Which object is behind the mug?"))
	vote(co, "a1", 1, false)
	fixed := co.Content
	fixed.Question, fixed.QuestionTag = "Which object is behind the red mug?", "Which object is <REL>behind the red mug</REL>?"
	_, err = db.Correct(ctx, us["b1"], bench.CorrectionInput{SampleID: co.ID, Round: 2, BasedOn: co.Revision, Content: fixed, Comment: "the mug is red"})
	must("correct", err)
	// Settings of other shapes: a task's weight, the claims' minutes.
	_, err = db.SetSettings(ctx, us["lead"], fx.pid(), map[string]string{"lrr_weight.T1": "2.5", "claim_minutes": "45"})
	must("settings", err)

	// A generated batch, drawn.
	var recs []annotate.Imported
	for i := range 10 {
		s := hop(fmt.Sprintf("gen-%02d", i+1), fx.images[i%4], fmt.Sprintf("Which object is closest to marker %d?", i))
		s.Task = fmt.Sprintf("T%d", i%2+1)
		recs = append(recs, annotate.Imported{Line: i + 1, Sample: s})
	}
	_, err = db.ImportBatch(ctx, us["lead"], bench.ImportBatchInput{ProjectID: fx.pid(), Name: "gen-1", Source: "gen1.jsonl", Records: recs})
	must("import batch", err)
	_, err = db.DrawValidation(ctx, us["lead"], bench.DrawInput{ProjectID: fx.pid(), Batch: "gen-1", Seed: 3, PerStratum: 2, Threshold: 0.05, Level: 0.9})
	must("draw", err)

	// A frame of a video, at a time of every digit.
	must("video frames", db.RecordVideoFrames(ctx, us["lead"], fx.pid(), []bench.VideoFrame{{Path: "0002-seq/c.jpg",
		Frame: annotate.Frame{Video: "/videos/walk.mp4", VideoSHA256: strings.Repeat("0f", 32), Duration: 60.06, Time: 1.0 / 3, Index: 10}}}))
	// A refusal.
	if _, err := db.CreateProject(ctx, us["ann1"], "not mine"); err == nil {
		t.Fatal("an annotator created a project")
	}

	// A planted copy (issue 30), for the planted reads.
	if plant {
		plantOne(t, fx, us, submit, vote)
	}

	ss, err := db.Samples(ctx, us["lead"], fx.pid(), bench.SampleFilter{}, 0, 1000)
	must("samples", err)
	for _, si := range ss {
		fx.samples = append(fx.samples, si.ID)
	}
	slices.Sort(fx.samples)
	return fx
}

// testReads asks every read of bench.Calls through the Service and straight from
// the file, as a lead, an annotator, and two verifiers (a panel member of the open
// round 3 and the late voter), and wants the same answers, refusals included: what
// the network carries loses nothing (times, maps, nested structs, empty lists,
// floats, the blindness of round 3).
func testReads(t *testing.T, connect Connect) {
	ctx := context.Background()
	fx := newReadsFixture(t, connect)
	names := make([]string, 0, len(reads))
	for name := range reads {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, who := range []string{"lead", "ann1", "b2", "c2"} {
		svc, u := fx.As(t, who)
		for _, name := range names {
			via, errVia := reads[name](ctx, svc.As(u), u, fx)
			direct, errDirect := reads[name](ctx, fx.DB.As(u), u, fx)
			switch {
			case (errVia == nil) != (errDirect == nil):
				t.Errorf("%s as %s: error %v through the service, %v from the file", name, who, errVia, errDirect)
			case errVia != nil:
				if a, b := bench.Message(errVia), bench.Message(errDirect); a != b {
					t.Errorf("%s as %s: the refusal says %q through the service, %q from the file", name, who, a, b)
				}
				if !errors.Is(errVia, bench.ErrForbidden) {
					t.Errorf("%s as %s: %v", name, who, errVia)
				}
			case !reflect.DeepEqual(via, direct):
				t.Errorf("%s as %s differs:\nthrough the service %+v\nfrom the file       %+v", name, who, via, direct)
			}
		}
	}
	// The lead reads every read without a refusal: the fixture holds something
	// for each (an empty answer compared is no comparison).
	_, lead := fx.As(t, "lead")
	for _, name := range names {
		v, err := reads[name](ctx, fx.DB.As(lead), lead, fx)
		if err != nil {
			t.Errorf("%s as the lead: %v", name, err)
			continue
		}
		if isEmpty(reflect.ValueOf(v)) {
			t.Errorf("%s as the lead is empty: the fixture must hold something for it to compare", name)
		}
	}
}

// isEmpty reports whether v holds nothing: a zero value, an empty list or map,
// or a list of such.
func isEmpty(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		return v.IsNil() || isEmpty(v.Elem())
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			return true
		}
		if v.Kind() == reflect.Slice {
			for i := range v.Len() {
				if !isEmpty(v.Index(i)) {
					return false
				}
			}
			return true
		}
		return false
	}
	return v.IsZero()
}

// plantOne plants a copy for c2 by c2's round-1 review of a new sample at
// plant_rate 50 (which plants after every review) and has c2 approve the copy,
// a miss, so that the planted reads have a copy and a figure to compare.
func plantOne(t *testing.T, fx *readsFixture, us map[string]bench.User, submit func(annotate.Sample) bench.SampleInfo,
	vote func(bench.SampleInfo, string, int, bool)) {
	t.Helper()
	ctx := context.Background()
	db := fx.DB
	if _, err := db.SetSettings(ctx, us["lead"], fx.pid(), map[string]string{"plant_rate": "50", "plant_mutations": "answer-moved"}); err != nil {
		t.Fatal(err)
	}
	vote(submit(hop("pl-1", "0003-kitchen/d.jpg", "Which object is right of the door?")), "c2", 1, false)
	planted, err := db.PlantedList(ctx, us["lead"], fx.pid())
	if err != nil || len(planted) != 1 {
		t.Fatalf("%d copies planted after one review at plant_rate 50: %v", len(planted), err)
	}
	copyOf, err := db.Sample(ctx, us["c2"], planted[0].SampleID)
	if err != nil {
		t.Fatal(err)
	}
	vote(copyOf, "c2", 1, false)
	if _, err := db.SetSettings(ctx, us["lead"], fx.pid(), map[string]string{"plant_rate": "0"}); err != nil {
		t.Fatal(err)
	}
}
