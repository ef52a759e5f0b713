package store_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

// managerFixture is a generated project (bulk-written, so its search rows come from
// the rebuild) to which a few samples were then written one by one (so theirs come
// from the incremental updates).
type managerFixture struct {
	db      *store.DB
	lead    bench.User
	project bench.Project
	users   map[string]bench.User
}

func newManagerFixture(t *testing.T) managerFixture {
	t.Helper()
	ctx := context.Background()
	db := MustOpenDB(t)
	if err := db.MarkSynthetic(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := synth.Generate(ctx, db, synth.Options{Project: "m", Lead: "lead", Password: "secret", Samples: 300, Images: 30,
		Large: -1, Seed: 3, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	f := managerFixture{db: db, project: res.Project, users: map[string]bench.User{}}
	us, err := db.Users(ctx, bench.Owner())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range us {
		f.users[u.Name] = u
	}
	f.lead = f.users["lead"]
	return f
}

// all lists every sample of the project, with its reviews as the lead may see them.
func (f managerFixture) all(t *testing.T) ([]bench.SampleInfo, map[string][]bench.ReviewRecord) {
	t.Helper()
	ctx := context.Background()
	ss, err := f.db.Samples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{}, 0, 100000)
	if err != nil {
		t.Fatal(err)
	}
	revs := map[string][]bench.ReviewRecord{}
	for _, s := range ss {
		if revs[s.ID], err = f.db.Reviews(ctx, f.lead, s.ID); err != nil {
			t.Fatal(err)
		}
	}
	return ss, revs
}

func catSet(cs []annotate.Category) string {
	if len(cs) == 0 {
		return "none"
	}
	ss := make([]string, len(cs))
	for i, c := range cs {
		ss[i] = string(c)
	}
	slices.Sort(ss)
	return strings.Join(slices.Compact(ss), "+")
}

// TestSearchSamplesAgreesWithTheRows checks every filter of the sample manager
// against the samples and reviews read one by one, on rows written in bulk and rows
// written one at a time (draft, edit, submit, reviews, reject, withdraw, reassign).
func TestSearchSamplesAgreesWithTheRows(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	ann1, ann2, ver1 := f.users["ann1"], f.users["ann2"], f.users["ver1"]

	// Incremental writes.
	imgs, err := f.db.Images(ctx, bench.Owner(), f.project.ID, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	s := hopSample(imgs[0].RelPath)
	s.Box = &annotate.Box{1, 1, 5, 5}
	s.Question = "Which zebra is closest to the camera?"
	s.QuestionTag = "Which zebra is <REL>closest to the camera</REL>?"
	d, err := f.db.CreateSample(ctx, ann1, f.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	s.Question, s.QuestionTag = "Which giraffe is closest to the camera?", "Which giraffe is <REL>closest to the camera</REL>?"
	if _, err := f.db.SaveDraft(ctx, ann1, d.ID, d.Version, s); err != nil {
		t.Fatal(err)
	}
	d2, err := f.db.CreateSample(ctx, ann1, f.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := f.db.Submit(ctx, ann1, d2.ID, d2.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.SubmitReview(ctx, ver1, bench.ReviewInput{SampleID: sub.ID, Round: 1, BasedOn: sub.Revision,
		Verdict: verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{"box_on_answer"}}}); err != nil {
		t.Fatal(err)
	}
	ss, _ := f.all(t)
	var accepted, draft string
	for _, x := range ss {
		if x.Status == verify.StateAccepted && accepted == "" {
			accepted = x.ID
		}
		if x.Status == verify.StateDraft && x.AuthorID == ann2.ID && draft == "" {
			draft = x.ID
		}
	}
	if _, err := f.db.WithdrawSamples(ctx, f.lead, []string{accepted}, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.ReassignDrafts(ctx, f.lead, []string{draft}, "ann1", ""); err != nil {
		t.Fatal(err)
	}

	ss, revs := f.all(t)
	reviewed := func(x bench.SampleInfo, verifier int64, round int) bool {
		return slices.ContainsFunc(revs[x.ID], func(r bench.ReviewRecord) bool {
			return (verifier == 0 || r.VerifierID == verifier) && (round == 0 || r.Round == round)
		})
	}
	rejected := func(x bench.SampleInfo, reason string) bool {
		return slices.ContainsFunc(revs[x.ID], func(r bench.ReviewRecord) bool {
			return r.Decision == verify.DecisionReject && slices.Contains(r.Reasons, reason)
		})
	}
	words := func(x bench.SampleInfo) string {
		return strings.ToLower(strings.Join(append(append([]string{x.ID, x.Content.Question}, x.Content.Options...), x.Content.AnswerText), " "))
	}
	for _, tc := range []struct {
		name string
		q    bench.SampleQuery
		want func(bench.SampleInfo) bool
	}{
		{"all", bench.SampleQuery{}, func(bench.SampleInfo) bool { return true }},
		{"state", bench.SampleQuery{States: []verify.State{verify.StateRound2, verify.StateWithdrawn}},
			func(x bench.SampleInfo) bool {
				return x.Status == verify.StateRound2 || x.Status == verify.StateWithdrawn
			}},
		{"kind", bench.SampleQuery{Kinds: []annotate.Kind{annotate.KindStepGraph}}, func(x bench.SampleInfo) bool { return x.Kind == annotate.KindStepGraph }},
		{"author", bench.SampleQuery{AuthorID: ann1.ID}, func(x bench.SampleInfo) bool { return x.AuthorID == ann1.ID }},
		{"hop", bench.SampleQuery{Hop: 2}, func(x bench.SampleInfo) bool { return x.Content.Hop == 2 }},
		{"view", bench.SampleQuery{View: annotate.ViewEgo}, func(x bench.SampleInfo) bool { return x.Content.View == annotate.ViewEgo }},
		{"categories", bench.SampleQuery{Categories: "rel"}, func(x bench.SampleInfo) bool { return catSet(x.Content.Categories) == "rel" }},
		{"task", bench.SampleQuery{Task: "T2"}, func(x bench.SampleInfo) bool { return x.Content.Task == "T2" }},
		{"image", bench.SampleQuery{ImageID: imgs[0].ID}, func(x bench.SampleInfo) bool { return x.ImageID == imgs[0].ID }},
		{"verifier", bench.SampleQuery{VerifierID: ver1.ID}, func(x bench.SampleInfo) bool { return reviewed(x, ver1.ID, 0) }},
		{"verifier in round 3", bench.SampleQuery{VerifierID: f.users["ver5"].ID, Round: 3},
			func(x bench.SampleInfo) bool { return reviewed(x, f.users["ver5"].ID, 3) }},
		{"round 2", bench.SampleQuery{Round: 2}, func(x bench.SampleInfo) bool { return reviewed(x, 0, 2) }},
		{"reject reason", bench.SampleQuery{RejectReason: "box_on_answer"}, func(x bench.SampleInfo) bool { return rejected(x, "box_on_answer") }},
		{"rejected", bench.SampleQuery{Rejected: true}, func(x bench.SampleInfo) bool {
			return slices.ContainsFunc(revs[x.ID], func(r bench.ReviewRecord) bool { return r.Decision == verify.DecisionReject })
		}},
		{"rejected in round 2", bench.SampleQuery{Rejected: true, Round: 2}, func(x bench.SampleInfo) bool {
			return slices.ContainsFunc(revs[x.ID], func(r bench.ReviewRecord) bool { return r.Decision == verify.DecisionReject && r.Round == 2 })
		}},
		{"text", bench.SampleQuery{Text: "giraffe"}, func(x bench.SampleInfo) bool { return strings.Contains(words(x), "giraffe") }},
		{"text prefix, two words", bench.SampleQuery{Text: "Giraf CLOSEST"}, func(x bench.SampleInfo) bool {
			return strings.Contains(words(x), "giraffe") && strings.Contains(words(x), "closest")
		}},
		{"id", bench.SampleQuery{Text: sub.ID}, func(x bench.SampleInfo) bool { return x.ID == sub.ID }},
		{"ids", bench.SampleQuery{IDs: []string{sub.ID, d.ID, "nope"}}, func(x bench.SampleInfo) bool { return x.ID == sub.ID || x.ID == d.ID }},
		{"combined", bench.SampleQuery{States: []verify.State{verify.StateAccepted}, Kinds: []annotate.Kind{annotate.KindHopQA}, Hop: 1},
			func(x bench.SampleInfo) bool {
				return x.Status == verify.StateAccepted && x.Kind == annotate.KindHopQA && x.Content.Hop == 1
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			for _, x := range ss {
				if tc.want(x) {
					want = append(want, x.ID)
				}
			}
			q := tc.q
			q.Sort, q.Limit = bench.SortID, 40
			var got []string
			total := -1
			for {
				page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, q)
				if err != nil {
					t.Fatal(err)
				}
				if total >= 0 && page.Total != total {
					t.Fatalf("total changed between pages: %d, %d", total, page.Total)
				}
				total = page.Total
				for _, r := range page.Rows {
					got = append(got, r.ID)
				}
				if len(page.Rows) < q.Limit {
					break
				}
				q.Offset += q.Limit
			}
			slices.Sort(want)
			if !slices.Equal(got, want) || total != len(want) {
				t.Fatalf("got %d (total %d), want %d\ngot  %.300v\nwant %.300v", len(got), total, len(want), got, want)
			}
			if len(want) == 0 && tc.name != "all" {
				t.Logf("no sample matches (the filter is not exercised)")
			}
		})
	}
}

// TestSearchSamplesHidesOpenRound3Votes: while a round 3 is open, the verifier
// filter does not tell whose votes it holds.
func TestSearchSamplesHidesOpenRound3Votes(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	// The votes of open round 3s, read behind the store's back.
	rows, err := rawDB(t, f.db.Path()).Query(`SELECT v.sample_id, v.verifier_id FROM reviews v JOIN samples s ON s.id = v.sample_id
		WHERE s.status = 'round3' AND v.revision_id = s.current_rev AND v.round = 3`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var id string
		var v int64
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		n++
		for _, q := range []bench.SampleQuery{{IDs: []string{id}, VerifierID: v, Round: 3}, {IDs: []string{id}, VerifierID: v}} {
			page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, q)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != 0 {
				if revs, _ := f.db.Reviews(ctx, f.lead, id); slices.ContainsFunc(revs, func(r bench.ReviewRecord) bool { return r.VerifierID == v && (q.Round == 0 || r.Round == q.Round) }) {
					continue // an earlier round of theirs, which is no secret
				}
				t.Fatalf("%s is in an open round 3, and the search (%+v) says user %d voted in it", id, q, v)
			}
		}
		// That the round holds votes is no secret from a lead.
		if page, _ := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{IDs: []string{id}, Round: 3}); page.Total != 1 {
			t.Fatalf("%s: round-3 filter finds %d", id, page.Total)
		}
	}
	if n == 0 {
		t.Fatal("no open round 3 holds votes: the test proves nothing")
	}
}

func TestSampleManagerSorts(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	for _, tc := range []struct {
		sort bench.SampleSort
		desc bool
		key  func(bench.SampleRow) string
	}{
		{bench.SortUpdated, true, func(r bench.SampleRow) string { return r.UpdatedAt }},
		{bench.SortCreated, false, func(r bench.SampleRow) string { return r.CreatedAt }},
		{bench.SortID, true, func(r bench.SampleRow) string { return r.ID }},
		{bench.SortState, false, func(r bench.SampleRow) string { return string(r.Status) }},
		{bench.SortKind, false, func(r bench.SampleRow) string { return string(r.Kind) }},
		{bench.SortAuthor, true, func(r bench.SampleRow) string { return r.AuthorName }},
		{bench.SortHop, false, func(r bench.SampleRow) string { return string(rune('0' + r.Content.Hop)) }},
	} {
		page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{Sort: tc.sort, Desc: tc.desc, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Rows) != page.Total || page.Total < 300 {
			t.Fatalf("%s: %d rows of %d", tc.sort, len(page.Rows), page.Total)
		}
		sorted := slices.IsSortedFunc(page.Rows, func(a, b bench.SampleRow) int {
			c := strings.Compare(tc.key(a), tc.key(b))
			if tc.desc {
				c = -c
			}
			if c == 0 && tc.sort != bench.SortID {
				c = strings.Compare(a.ID, b.ID) // ties in ascending id order
			}
			return c
		})
		if !sorted {
			t.Errorf("sort by %s (desc %v): rows out of order", tc.sort, tc.desc)
		}
	}
}

func TestSampleManagerActions(t *testing.T) {
	ctx := context.Background()
	f := newManagerFixture(t)
	ann1, ver1 := f.users["ann1"], f.users["ver1"]
	ids := func(st verify.State, n int) []string {
		page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{States: []verify.State{st}, Sort: bench.SortID, Limit: n})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range page.Rows {
			out = append(out, r.ID)
		}
		return out
	}

	// Only leads search and act; refusals are audited.
	if _, err := f.db.SearchSamples(ctx, ann1, f.project.ID, bench.SampleQuery{}); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("annotator search: %v", err)
	}
	if _, err := f.db.WithdrawSamples(ctx, ver1, ids(verify.StateAccepted, 1), ""); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("verifier withdraw: %v", err)
	}
	if n := auditCount(t, f.db.Path(), "denied:samples.search"); n != 1 {
		t.Fatalf("denied searches audited: %d", n)
	}

	// Withdraw three accepted samples and one already withdrawn: three move, and the
	// fourth is reported as withdrawn already, neither refused nor audited as a denial.
	acc, wd := ids(verify.StateAccepted, 3), ids(verify.StateWithdrawn, 1)
	denied := auditCount(t, f.db.Path(), "denied:samples.withdraw") // the verifier's, above
	res, err := f.db.WithdrawSamples(ctx, f.lead, append(slices.Clone(acc), wd...), "duplicate of another")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Done, acc) || len(res.Refused) != 0 || !slices.Equal(res.Withdrawn, wd) {
		t.Fatalf("withdraw: %+v", res)
	}
	if got := res.Summary("withdrew"); got != "withdrew 3 samples; 1 sample withdrawn already" {
		t.Fatalf("summary: %q", got)
	}
	if n := auditCount(t, f.db.Path(), "sample.withdraw"); n != 3 {
		t.Fatalf("withdrawals audited: %d", n)
	}
	if n := auditCount(t, f.db.Path(), "denied:samples.withdraw"); n != denied {
		t.Fatalf("a sample withdrawn already was audited as refused %d times", n-denied)
	}
	// One by one (the sample's own screen) it is still refused: nothing moved.
	if err := f.db.Withdraw(ctx, f.lead, wd[0], "again"); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("withdrawing a withdrawn sample alone: %v", err)
	}
	page, _ := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{IDs: acc})
	for _, r := range page.Rows {
		if r.Status != verify.StateWithdrawn {
			t.Fatalf("%s is %s after the withdrawal", r.ID, r.Status)
		}
	}
	res, err = f.db.ReopenSamples(ctx, f.lead, acc, "")
	if err != nil || len(res.Done) != 3 {
		t.Fatalf("reopen: %+v, %v", res, err)
	}
	if s, _ := f.db.Sample(ctx, bench.Owner(), acc[0]); s.Status != verify.StateAccepted {
		t.Fatalf("reopened to %s", s.Status)
	}

	// Reassign: drafts move to ann1; a sample in review is refused; a verifier cannot receive them.
	drafts, inReview := ids(verify.StateDraft, 4), ids(verify.StateRound1, 1)
	if _, err := f.db.ReassignDrafts(ctx, f.lead, drafts, "ver1", ""); !errors.Is(err, bench.ErrInvalid) {
		t.Fatalf("reassign to a verifier: %v", err)
	}
	res, err = f.db.ReassignDrafts(ctx, f.lead, append(slices.Clone(drafts), inReview...), "ann1", "ann2 left")
	if err != nil {
		t.Fatal(err)
	}
	moved := len(res.Done)
	if len(res.Refused) < 1 || res.Refused[len(res.Refused)-1].SampleID != inReview[0] {
		t.Fatalf("reassign: %+v", res)
	}
	page, _ = f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{IDs: drafts, AuthorID: ann1.ID})
	if page.Total != len(drafts) || moved+len(res.Refused)-1 != len(drafts) {
		t.Fatalf("after reassigning, %d of %d drafts are ann1's (%+v)", page.Total, len(drafts), res)
	}
	if n := auditCount(t, f.db.Path(), "sample.reassign"); n != moved {
		t.Fatalf("reassignments audited: %d, want %d", n, moved)
	}
	// ann1 can now edit one of them.
	d, _ := f.db.Sample(ctx, bench.Owner(), res.Done[0])
	if _, err := f.db.SaveDraft(ctx, ann1, d.ID, d.Version, d.Content); err != nil {
		t.Fatalf("new author's save: %v", err)
	}

	// Release claims: a verifier claims a sample and leaves it.
	r1 := ids(verify.StateRound1, 5)
	var claimed string
	for _, id := range r1 {
		if _, err := f.db.ClaimReview(ctx, ver1, id, 1); err == nil {
			claimed = id
			break
		}
	}
	if claimed == "" {
		t.Fatal("ver1 could claim none of the round-1 samples")
	}
	res, err = f.db.ReleaseClaims(ctx, f.lead, []string{claimed, r1[len(r1)-1]})
	if err != nil || !slices.Equal(res.Done, []string{claimed}) {
		t.Fatalf("release: %+v, %v", res, err)
	}

	// Export: CSV with a header and one row per sample in the given order; JSONL of native records.
	sel := ids(verify.StateAccepted, 3)
	slices.Reverse(sel)
	b, err := f.db.ExportSamples(ctx, f.lead, f.project.ID, sel, bench.FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) != 4 || recs[0][0] != "id" || recs[1][0] != sel[0] || recs[3][0] != sel[2] || recs[1][2] != "accepted" {
		t.Fatalf("csv: %v %q", err, recs)
	}
	b, err = f.db.ExportSamples(ctx, f.lead, f.project.ID, sel, bench.FormatJSONL)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 {
		t.Fatalf("jsonl: %d lines", len(lines))
	}
	for i, l := range lines {
		s, fs := annotate.ParseRecord([]byte(l))
		if s.ID != sel[i] || slices.ContainsFunc(fs, func(f annotate.Finding) bool { return f.Severity == annotate.SeverityError }) {
			t.Fatalf("jsonl line %d: %s %v", i+1, s.ID, fs)
		}
	}
	if n := auditCount(t, f.db.Path(), "samples.export"); n != 2 {
		t.Fatalf("exports audited: %d", n)
	}
	if _, err := f.db.ExportSamples(ctx, ann1, f.project.ID, sel, bench.FormatCSV); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("annotator export: %v", err)
	}
}

func TestDeleteDraftAndUndo(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	d, err := f.db.CreateSample(ctx, f.ann, f.project.ID, hopSample(img))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.DeleteDraft(ctx, f.ann2, d.ID, d.Version); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("someone else's draft: %v", err)
	}
	if _, err := f.db.DeleteDraft(ctx, f.ann, d.ID, d.Version+1); !errors.Is(err, bench.ErrConflict) {
		t.Fatalf("stale version: %v", err)
	}
	gone, err := f.db.DeleteDraft(ctx, f.ann, d.ID, d.Version)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Sample(ctx, bench.Owner(), d.ID); !errors.Is(err, bench.ErrNotFound) {
		t.Fatalf("deleted draft still there: %v", err)
	}
	if n, _ := f.db.CountSamples(ctx, bench.Owner(), f.project.ID, bench.SampleFilter{}); n != 0 {
		t.Fatalf("%d samples after the deletion", n)
	}
	page, err := f.db.SearchSamples(ctx, f.lead, f.project.ID, bench.SampleQuery{})
	if err != nil || page.Total != 0 {
		t.Fatalf("search after the deletion: %d, %v", page.Total, err)
	}
	// Undo: the same id and content come back.
	back, err := f.db.CreateSample(ctx, f.ann, f.project.ID, gone)
	if err != nil {
		t.Fatal(err)
	}
	if back.ID != d.ID || back.Content.Question != d.Content.Question {
		t.Fatalf("undo: %s %q", back.ID, back.Content.Question)
	}
	// A submitted sample is not deleted.
	sub, err := f.db.Submit(ctx, f.ann, back.ID, back.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.DeleteDraft(ctx, f.ann, sub.ID, sub.Version); !errors.Is(err, bench.ErrForbidden) {
		t.Fatalf("submitted sample: %v", err)
	}
}
