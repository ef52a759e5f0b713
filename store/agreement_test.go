package store_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

// agreeFixture is a project with a two-seat round-3 panel: v1 (group A) verifies
// round 1, v2 (group B) round 2, and p1 and p2 (group C) sit on the panel.
type agreeFixture struct {
	fixture
	img            string
	v1, v2, p1, p2 bench.User
}

func newAgreeFixture(t *testing.T) *agreeFixture {
	t.Helper()
	ctx := context.Background()
	f := &agreeFixture{fixture: newFixture(t)}
	f.img = withImage(t, f.fixture)
	for _, v := range []struct {
		dst         *bench.User
		name, group string
	}{{&f.v1, "v1", "A"}, {&f.v2, "v2", "B"}, {&f.p1, "p1", "C"}, {&f.p2, "p2", "C"}} {
		u, err := f.db.AddUser(ctx, f.lead, v.name, bench.RoleVerifier, v.group, "secret")
		if err != nil {
			t.Fatal(err)
		}
		*v.dst = u
	}
	s := bench.DefaultSettings()
	s.Round3Panel = 2
	if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
	return f
}

// submit creates and submits a hop-QA sample by author.
func (f *agreeFixture) submit(t *testing.T, author bench.User, s annotate.Sample) bench.SampleInfo {
	t.Helper()
	ctx := context.Background()
	si, err := f.db.CreateSample(ctx, author, f.project.ID, s)
	if err != nil {
		t.Fatal(err)
	}
	if si, err = f.db.Submit(ctx, author, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	return si
}

var (
	agreeApprove = verify.Verdict{Decision: verify.DecisionApprove}
	// agreeReject fails the given round-3 criteria and passes the others named with true.
	agreeReject = func(j map[string]bool, reasons ...string) verify.Verdict {
		return verify.Verdict{Decision: verify.DecisionReject, Judgements: j, Reasons: reasons}
	}
)

// review records u's verdict on si in round, with seconds spent.
func (f *agreeFixture) review(t *testing.T, u bench.User, si bench.SampleInfo, round int, v verify.Verdict, seconds float64) {
	t.Helper()
	if _, err := submitReview(f.db, context.Background(), u, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision,
		Verdict: v, Seconds: seconds}); err != nil {
		t.Fatalf("%s round %d by %s: %v", si.ID, round, u.Name, err)
	}
}

// seed12 submits twelve samples, each approved in round 1 by v1 and round 2 by v2.
// In round 3, p1 votes first on samples 0-9 and always approves; p2 approves 0-6,
// rejects 7 (box_precise), 8 (box_precise, answer_unique) and 9 ("other", nothing
// judged), and rejects 10 and 11 (box_precise) before p1 votes, which closes them.
func (f *agreeFixture) seed12(t *testing.T) []bench.SampleInfo {
	t.Helper()
	var out []bench.SampleInfo
	for i := range 12 {
		si := f.submit(t, f.ann, hopSample(f.img))
		f.review(t, f.v1, si, 1, agreeApprove, 10)
		f.review(t, f.v2, si, 2, agreeApprove, 20)
		switch {
		case i < 7:
			f.review(t, f.p1, si, 3, agreeApprove, 30)
			f.review(t, f.p2, si, 3, agreeApprove, 40)
		case i == 7:
			f.review(t, f.p1, si, 3, agreeApprove, 30)
			f.review(t, f.p2, si, 3, agreeReject(map[string]bool{"option_entities_exist": true, "box_precise": false, "answer_unique": true}), 40)
		case i == 8:
			f.review(t, f.p1, si, 3, agreeApprove, 30)
			f.review(t, f.p2, si, 3, agreeReject(map[string]bool{"option_entities_exist": true, "box_precise": false, "answer_unique": false}), 40)
		case i == 9:
			f.review(t, f.p1, si, 3, agreeApprove, 30)
			f.review(t, f.p2, si, 3, agreeReject(nil, verify.ReasonOther), 40)
		default:
			f.review(t, f.p2, si, 3, agreeReject(map[string]bool{"box_precise": false}), 40)
		}
		out = append(out, si)
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func findRow(t *testing.T, a bench.Agreement, round int, criterion string) bench.AgreementRow {
	t.Helper()
	for _, r := range a.Rows {
		if r.Round == round && r.Criterion == criterion {
			return r
		}
	}
	t.Fatalf("no agreement row for round %d, %s", round, criterion)
	return bench.AgreementRow{}
}

// With every pairable unit holding at most one negative value (a rejection closes
// the round), nominal alpha reduces to a closed form. With n pairable values of
// which k are negative, each in its own unit, paired with positives:
//
//	o(yes,no) = o(no,yes) = k (a unit of m values adds (m-1)·1/(m-1) = 1 each way)
//	D_o = 2k/n,  D_e = 2·(n-k)·k / (n(n-1)),  alpha = 1 - D_o/D_e = 1 - (n-1)/(n-k).
//
// Round-3 decision: 10 pairable units (p1, p2), 3 rejections: n = 20, k = 3,
// alpha = 1 - 19/17 = -2/17. Units 10 and 11 hold one value each and drop out.
// Round-3 box_precise: units 0-8 pair (unit 9: p2 judged nothing), k = 2 (7, 8):
// n = 18, alpha = 1 - 17/16 = -1/16. answer_unique: k = 1 (8): 1 - 17/17 = 0.
// option_entities_exist: every value is yes: undefined. All round-3 criteria pooled
// over (revision, criterion): n = 54, k = 3: 1 - 53/51 = -2/51.
// Every round, decision: units 0-6 hold 4 approvals, 7-9 three approvals and a
// rejection, 10-11 two approvals and a rejection: n = 46, k = 5: 1 - 45/41 = -4/41.
func TestAgreementHandComputed(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	f.seed12(t)
	a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		round                   int
		criterion               string
		alpha                   float64
		units, pairable, values int
		undefined               string // a substring of the reason, when undefined
	}{
		{3, bench.CriterionDecision, -2.0 / 17, 12, 10, 20, ""},
		{3, "box_precise", -1.0 / 16, 12, 9, 18, ""},
		{3, "answer_unique", 0, 10, 9, 18, ""},
		{3, "option_entities_exist", 0, 10, 9, 18, `all 18 pairable values are "yes"`},
		{3, bench.CriterionAll, -2.0 / 51, 32, 27, 54, ""},
		{0, bench.CriterionDecision, -4.0 / 41, 12, 12, 46, ""},
		{0, "box_precise", -1.0 / 16, 12, 9, 18, ""},
		{0, "objects_exist", 0, 12, 12, 24, "no expected disagreement"},
		{1, bench.CriterionDecision, 0, 12, 0, 0, "fewer than two pairable values"},
		{2, "natural_grammar", 0, 12, 0, 0, "fewer than two pairable values"},
	}
	for _, tt := range tests {
		r := findRow(t, a, tt.round, tt.criterion)
		if r.Units != tt.units || r.Pairable != tt.pairable || r.Values != tt.values {
			t.Errorf("round %d %s: units %d pairable %d values %d, want %d %d %d", tt.round, tt.criterion,
				r.Units, r.Pairable, r.Values, tt.units, tt.pairable, tt.values)
		}
		if tt.undefined != "" {
			if r.Defined() || !strings.Contains(r.Undefined, tt.undefined) || !strings.HasPrefix(r.AlphaText(), "undefined: ") {
				t.Errorf("round %d %s: want undefined (%s), got %s (%q)", tt.round, tt.criterion, tt.undefined, r.AlphaText(), r.Undefined)
			}
			if math.IsNaN(r.Alpha) || r.CIText() != "" {
				t.Errorf("round %d %s: an undefined alpha carries %v %q", tt.round, tt.criterion, r.Alpha, r.CIText())
			}
			continue
		}
		if !r.Defined() || !near(r.Alpha, tt.alpha) {
			t.Errorf("round %d %s: alpha %s, want %.6f", tt.round, tt.criterion, r.AlphaText(), tt.alpha)
		}
		if r.Reading != "not reliable" {
			t.Errorf("round %d %s: reading %q", tt.round, tt.criterion, r.Reading)
		}
		if r.CI95[0] > r.CI95[1] || r.CI95[0] < -1 || r.CI95[1] > 1 {
			t.Errorf("round %d %s: interval %v", tt.round, tt.criterion, r.CI95)
		}
	}
	// The rows come in a fixed order: rounds 1, 2, 3, then all; per round the
	// decision, the pooled criteria, then the criteria in form order.
	var order []string
	for _, r := range a.Rows {
		if r.Round == 3 {
			order = append(order, r.Criterion)
		}
	}
	if got, want := strings.Join(order, ","), "decision,all criteria,option_entities_exist,box_precise,answer_unique"; got != want {
		t.Errorf("round-3 rows %s, want %s", got, want)
	}
	if a.Rows[0].Round != 1 || a.Rows[len(a.Rows)-1].Round != 0 {
		t.Errorf("rows run from round %d to %d", a.Rows[0].Round, a.Rows[len(a.Rows)-1].Round)
	}

	// The bootstrap is seeded: the same data gives the same intervals.
	again, err := f.db.Agreement(ctx, f.v1, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Rows {
		if a.Rows[i].CI95 != again.Rows[i].CI95 {
			t.Fatalf("row %d: interval %v, then %v", i, a.Rows[i].CI95, again.Rows[i].CI95)
		}
	}
}

// Without a verifier the decision data across rounds loses that verifier's values:
// without v1 or v2 (12 approvals each) n = 34, k = 5: 1 - 33/29 = -4/29; without p1
// (10 approvals) n = 36: 1 - 35/31 = -4/31; without p2 every value is an approval.
func TestAgreementWithoutEachVerifier(t *testing.T) {
	f := newAgreeFixture(t)
	f.seed12(t)
	a, err := f.db.Agreement(context.Background(), f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name    string
		reviews int
		without float64 // NaN: undefined
	}{{"p1", 10, -4.0 / 31}, {"p2", 12, math.NaN()}, {"v1", 12, -4.0 / 29}, {"v2", 12, -4.0 / 29}}
	if len(a.Verifiers) != len(want) {
		t.Fatalf("%d verifier rows, want %d: %+v", len(a.Verifiers), len(want), a.Verifiers)
	}
	for i, w := range want {
		v := a.Verifiers[i]
		if v.Verifier != w.name || v.Reviews != w.reviews || !near(v.With.Alpha, -4.0/41) {
			t.Errorf("row %d: %s %d reviews, with %s; want %s %d, %.6f", i, v.Verifier, v.Reviews, v.With.AlphaText(), w.name, w.reviews, -4.0/41)
		}
		change, ok := v.Change()
		if math.IsNaN(w.without) {
			if v.Without.Defined() || ok {
				t.Errorf("without %s: %s, want undefined", w.name, v.Without.AlphaText())
			}
			continue
		}
		if !near(v.Without.Alpha, w.without) || !ok || !near(change, w.without+4.0/41) {
			t.Errorf("without %s: %s (change %.6f), want %.6f", w.name, v.Without.AlphaText(), change, w.without)
		}
	}
}

// An open round 3 is secret: its votes are left out until the round closes.
func TestAgreementLeavesOpenRound3Out(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	f.seed12(t)
	si := f.submit(t, f.ann, hopSample(f.img))
	f.review(t, f.v1, si, 1, agreeApprove, 10)
	f.review(t, f.v2, si, 2, agreeApprove, 20)
	f.review(t, f.p1, si, 3, agreeApprove, 30) // one of two seats: round 3 stays open

	a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Round 3 knows only the twelve closed panels; across rounds the new revision
	// adds v1's and v2's approvals but not p1's vote: n = 48, k = 5: 1 - 47/43.
	if r := findRow(t, a, 3, bench.CriterionDecision); r.Units != 12 || r.Values != 20 || !near(r.Alpha, -2.0/17) {
		t.Errorf("round 3 with an open panel: units %d values %d alpha %s", r.Units, r.Values, r.AlphaText())
	}
	if r := findRow(t, a, 0, bench.CriterionDecision); r.Units != 13 || r.Values != 48 || !near(r.Alpha, -4.0/43) {
		t.Errorf("all rounds with an open panel: units %d values %d alpha %s", r.Units, r.Values, r.AlphaText())
	}
	for _, v := range a.Verifiers {
		if v.Verifier == "p1" && v.Reviews != 10 {
			t.Errorf("p1's open vote counts: %d reviews", v.Reviews)
		}
	}

	// p2 completes the panel: both votes count now. Round 3: 11 approving pairs and
	// 3 mixed: n = 22, 1 - 21/19; all rounds n = 50: 1 - 49/45.
	f.review(t, f.p2, si, 3, agreeApprove, 40)
	if a, err = f.db.Agreement(ctx, f.lead, f.project.ID); err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, a, 3, bench.CriterionDecision); r.Units != 13 || r.Values != 22 || !near(r.Alpha, -2.0/19) {
		t.Errorf("round 3 after the panel closed: units %d values %d alpha %s", r.Units, r.Values, r.AlphaText())
	}
	if r := findRow(t, a, 0, bench.CriterionDecision); r.Values != 50 || !near(r.Alpha, -4.0/45) {
		t.Errorf("all rounds after the panel closed: values %d alpha %s", r.Values, r.AlphaText())
	}
}

func TestAgreementPermissions(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	for _, tt := range []struct {
		who  bench.User
		want error
	}{{f.ann, bench.ErrForbidden}, {bench.User{ID: 999}, bench.ErrForbidden}, {f.ver, nil}, {f.lead, nil}} {
		before := auditCount(t, f.db.Path(), "denied:agreement.read")
		_, err := f.db.Agreement(ctx, tt.who, f.project.ID)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("%q: got %v, want %v", tt.who.Name, err, tt.want)
		}
		// A refused read is audited like a refused write.
		if got, want := auditCount(t, f.db.Path(), "denied:agreement.read")-before, map[bool]int{true: 1, false: 0}[tt.want != nil]; got != want {
			t.Errorf("%q: %d refusals audited, want %d", tt.who.Name, got, want)
		}
	}
	// A project that does not exist is refused as another project is (not a member): the answer tells a stranger nothing.
	if _, err := f.db.Agreement(ctx, f.lead, 999); !errors.Is(err, verify.ErrNotMember) {
		t.Errorf("unknown project: %v", err)
	}
	// Without reviews every figure is undefined, with the reason.
	a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 8 { // decision and pooled criteria for rounds 1-3 and all
		t.Errorf("%d rows without reviews, want 8", len(a.Rows))
	}
	for _, r := range a.Rows {
		if r.AlphaText() != "undefined: no judgements yet" {
			t.Errorf("round %d %s without reviews: %q", r.Round, r.Criterion, r.AlphaText())
		}
	}
}

// addRevision appends, as the database's own rows, a revision of sampleID by author
// holding box: what a verifier's correction writes (the store has no correction
// call yet).
func addRevision(t *testing.T, db *store.DB, sampleID string, author bench.User, s annotate.Sample, box annotate.Box) {
	t.Helper()
	sdb, err := store.RawSQL(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	s.ID, s.Box = sampleID, &box
	if box == (annotate.Box{}) { // a revision without a box
		s.Box = nil
	}
	content, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec(`INSERT INTO revisions (sample_id, number, content, author_id, change, created_at)
		SELECT ?, max(number) + 1, ?, ?, 'correct', '2025-01-01T00:00:00Z' FROM revisions WHERE sample_id = ?`,
		sampleID, string(content), author.ID, sampleID); err != nil {
		t.Fatal(err)
	}
}

// Boxes: ann drew [10,10,40,30] (600 px²) on each sample.
// Sample A: p1 corrected to [10,10,40,20] (IoU 300/600 = 0.5), then back to
// [10,10,40,30]; p1's latest box counts (IoU 1). p2 drew [10,10,40,20]: ann-p2 0.5,
// p1-p2 0.5. Sample B: p2 drew [25,10,55,30]: 15×20 = 300 over 900, IoU 1/3.
// Sample C: only ann, twice: one person, no agreement. Sample D: p1's revision has
// no box: one box, no agreement. Over the 4 pairs: mean IoU
// (1 + 0.5 + 0.5 + 1/3)/4 = 7/12, share >= 0.5: 3/4.
func TestAgreementBoxes(t *testing.T) {
	f := newAgreeFixture(t)
	base := hopSample(f.img)
	a := f.submit(t, f.ann, base)
	b := f.submit(t, f.ann, base)
	c := f.submit(t, f.ann, base)
	addRevision(t, f.db, a.ID, f.p1, base, annotate.Box{10, 10, 40, 20})
	addRevision(t, f.db, a.ID, f.p1, base, annotate.Box{10, 10, 40, 30})
	addRevision(t, f.db, a.ID, f.p2, base, annotate.Box{10, 10, 40, 20})
	addRevision(t, f.db, b.ID, f.p2, base, annotate.Box{25, 10, 55, 30})
	addRevision(t, f.db, c.ID, f.ann, base, annotate.Box{0, 0, 20, 20})
	d := f.submit(t, f.ann, base)
	addRevision(t, f.db, d.ID, f.p1, base, annotate.Box{})

	ag, err := f.db.Agreement(context.Background(), f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	bx := ag.Boxes
	if bx.Samples != 2 || bx.Pairs != 4 || !near(bx.MeanIoU, 7.0/12) || !near(bx.ShareAt50, 0.75) {
		t.Fatalf("boxes: %d samples, %d pairs, mean %.6f, share %.3f; want 2, 4, %.6f, 0.75", bx.Samples, bx.Pairs, bx.MeanIoU, bx.ShareAt50, 7.0/12)
	}
	ra, rb := bx.Rows[0], bx.Rows[1]
	if ra.SampleID != a.ID || strings.Join(ra.Authors, ",") != "ann,p1,p2" || ra.Boxes != 3 || !near(ra.MeanIoU, 2.0/3) || ra.ShareAt50 != 1 {
		t.Errorf("sample A: %+v", ra)
	}
	if rb.SampleID != b.ID || rb.Boxes != 2 || !near(rb.MeanIoU, 1.0/3) || rb.ShareAt50 != 0 {
		t.Errorf("sample B: %+v", rb)
	}
	var buf strings.Builder
	if err := bx.Rows.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	want := "sample,authors,boxes,pairs,mean_iou,share_iou50\n" +
		a.ID + ",ann+p1+p2,3,3,0.6667,1.0000\n" +
		b.ID + ",ann+p2,2,1,0.3333,0.0000\n"
	if buf.String() != want {
		t.Errorf("box CSV:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestAgreementCSV(t *testing.T) {
	f := newAgreeFixture(t)
	f.seed12(t)
	a, err := f.db.Agreement(context.Background(), f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if err := a.Rows.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "round,criterion,units,pairable_units,values,alpha,ci95_low,ci95_high,reading,undefined" {
		t.Fatalf("header %s", got)
	}
	if len(recs) != len(a.Rows)+1 {
		t.Fatalf("%d records for %d rows", len(recs), len(a.Rows))
	}
	byKey := map[string][]string{}
	for _, r := range recs[1:] {
		byKey[r[0]+"/"+r[1]] = r
	}
	for key, want := range map[string]string{
		"3/decision":              "3,decision,12,10,20,-0.1176,",
		"all/decision":            "all,decision,12,12,46,-0.0976,",
		"1/decision":              "1,decision,12,0,0,,,,,fewer than two pairable values",
		"3/option_entities_exist": `3,option_entities_exist,10,9,18,,,,,all 18 pairable values are "yes"`,
	} {
		got := strings.Join(byKey[key], ",")
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s: %s, want it to start with %s", key, got, want)
		}
	}
	var vbuf strings.Builder
	if err := a.Verifiers.WriteCSV(&vbuf); err != nil {
		t.Fatal(err)
	}
	vrecs, err := csv.NewReader(strings.NewReader(vbuf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(vrecs) != 5 || strings.Join(vrecs[0][:3], ",") != "verifier,reviews,alpha_with" ||
		strings.Join(vrecs[2][:3], ",") != "p2,12,-0.0976" || vrecs[2][7] != "" || vrecs[2][12] != "" ||
		vrecs[2][11] != `all 34 pairable values are "approve", so there is no expected disagreement` ||
		strings.Join(vrecs[1][:1], "") != "p1" || vrecs[1][7] != "-0.1290" || vrecs[1][12] != "-0.0315" {
		t.Errorf("verifier CSV:\n%s", vbuf.String())
	}
}

// A round-1 verifier who also sits on the round-3 panel (round3_allow_earlier) is one
// coder of the revision, with the round-3 vote. X and Z: v1 approves round 1, v2
// round 2, then v1 rejects in round 3; Y: approved by v1, v2, p1 and p2. Across
// rounds: X {v1 reject, v2 approve}, Z the same, Y four approvals: n = 8, k = 2,
// alpha = 1 - 7/6 = -1/6. (Keeping v1's round-1 approval instead would leave only
// approvals: undefined.)
func TestAgreementVerifierOnTwoRounds(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	s := bench.DefaultSettings()
	s.Round3Panel, s.Round3AllowEarlier = 2, true
	if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		si := f.submit(t, f.ann, hopSample(f.img))
		f.review(t, f.v1, si, 1, agreeApprove, 10)
		f.review(t, f.v2, si, 2, agreeApprove, 20)
		if i == 1 {
			f.review(t, f.p1, si, 3, agreeApprove, 30)
			f.review(t, f.p2, si, 3, agreeApprove, 30)
			continue
		}
		f.review(t, f.v1, si, 3, agreeReject(map[string]bool{"box_precise": false}), 30)
	}
	a, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, a, 0, bench.CriterionDecision); r.Units != 3 || r.Values != 8 || !near(r.Alpha, -1.0/6) {
		t.Errorf("all rounds: units %d values %d alpha %s, want 3, 8, %.6f", r.Units, r.Values, r.AlphaText(), -1.0/6)
	}
	if v := a.Verifiers[2]; v.Verifier != "v1" || v.Reviews != 5 {
		t.Errorf("v1's row: %+v", v)
	}
}

// An approval stored before every approval had to judge every criterion (no
// judgements) is never read as "yes" on the criteria it left unjudged: they are
// missing values, like a rejection's unjudged criteria.
func TestAgreementUnjudgedIsMissing(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	f.seed12(t)
	before, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, before, 0, "objects_exist"); r.Pairable != 12 {
		t.Fatalf("objects_exist across rounds: %d pairable units, want 12 (v1 in round 1, v2 in round 2)", r.Pairable)
	}
	// v1's round-1 approvals as an older build stored them: no judgements.
	if _, err := rawDB(t, f.db.Path()).Exec(`UPDATE reviews SET criteria = '{}' WHERE round = 1 AND verifier_id = ?`, f.v1.ID); err != nil {
		t.Fatal(err)
	}
	after, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, after, 0, "objects_exist"); r.Pairable != 0 || r.Units != 12 {
		t.Errorf("objects_exist with v1's judgements gone: %d units, %d pairable; want 12 units (v2's values), 0 pairable", r.Units, r.Pairable)
	}
	if r := findRow(t, after, 0, bench.CriterionDecision); r.Pairable != findRow(t, before, 0, bench.CriterionDecision).Pairable {
		t.Errorf("the decisions themselves still pair: %+v", r)
	}
}

// The reviews table holds reviews in the order they were written, which is not the
// order of their revisions once verifiers take samples in turn: a revision's
// judgements are still one unit.
func TestAgreementReviewsOutOfRevisionOrder(t *testing.T) {
	ctx := context.Background()
	f := newAgreeFixture(t)
	a := f.submit(t, f.ann, hopSample(f.img))
	b := f.submit(t, f.ann, hopSample(f.img))
	// Written b, a, b, a: the rows of a's reviews are apart.
	f.review(t, f.v1, b, 1, agreeApprove, 10)
	f.review(t, f.v1, a, 1, agreeApprove, 10)
	f.review(t, f.v2, b, 2, agreeApprove, 10)
	f.review(t, f.v2, a, 2, agreeApprove, 10)
	got, err := f.db.Agreement(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := findRow(t, got, 0, bench.CriterionDecision); r.Units != 2 || r.Pairable != 2 || r.Values != 4 {
		t.Errorf("decision across rounds: %d units, %d pairable, %d values; want 2 revisions with 2 values each", r.Units, r.Pairable, r.Values)
	}
}

var updateAgreement = flag.Bool("update-agreement", false, "rewrite testdata/agreement_generated.json from the store's Agreement")

// TestAgreementGeneratedProject pins the whole agreement of a generated project of
// 600 samples (every kind, every round, several revisions, rejections for several
// reasons, nine verifiers) to the tables the store computed before the statistics
// moved to package agreement (issue 28): rows, per-verifier figures and boxes, with
// every seeded bootstrap interval, to the last bit of each float (JSON keeps them
// exact). Rewrite with -update-agreement only when the figures change on purpose.
func TestAgreementGeneratedProject(t *testing.T) {
	db, res := generated(t, synth.Options{Samples: 600, Images: 60, Seed: 5, Large: -1})
	lead, err := db.UserByName(context.Background(), bench.Owner(), "lead")
	if err != nil {
		t.Fatal(err)
	}
	// The project holds every sample of the database, so the store reads every
	// review and keeps the project's in Go; joined to their samples in SQL, the
	// same figures. A second project, with its own reviews, changes neither.
	a, err := db.Agreement(context.Background(), lead, res.Project.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(a, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	other, err := synth.Generate(context.Background(), db, synth.Options{Project: "other", Password: "secret", Samples: 200, Images: 20, Seed: 9,
		Large: -1, ImageDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if other.Reviews == 0 {
		t.Fatal("the second project has no reviews")
	}
	// On PostgreSQL the reviews are read on a connection of their own beside
	// the samples' (besideReads), or on the one connection: the same figures.
	for _, scan := range []bool{true, false} {
		for _, beside := range []bool{true, false} {
			store.SetScanAllReviews(t, scan)
			store.SetReadBeside(t, beside)
			b, err := db.Agreement(context.Background(), lead, res.Project.ID)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := json.MarshalIndent(b, "", "\t"); string(again) != string(got) {
				t.Errorf("read with scan=%v, beside=%v, beside a second project, the agreement differs:\n%s", scan, beside, firstDiff(string(again), string(got)))
			}
		}
	}
	store.SetReadBeside(t, true)
	golden := filepath.Join("testdata", "agreement_generated.json")
	if *updateAgreement {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got)+"\n" != string(want) {
		t.Errorf("the agreement of the generated project differs from %s (-update-agreement rewrites it):\n%s", golden, firstDiff(string(got)+"\n", string(want)))
	}
	// The project must exercise what the tables compute: defined figures in every
	// round with intervals, undefined ones, each verifier, boxes.
	defined := map[int]int{}
	undefined := 0
	for _, r := range a.Rows {
		if r.Defined() {
			defined[r.Round]++
		} else {
			undefined++
		}
	}
	if defined[0] == 0 || defined[3] == 0 || len(a.Verifiers) != 9 {
		t.Errorf("the generated project is too thin to pin the tables: defined rows per round %v, %d undefined, %d verifiers", defined, undefined, len(a.Verifiers))
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, gl, wl)
		}
	}
	return "(same lines)"
}
