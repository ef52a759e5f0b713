package store_test

import (
	"context"
	"errors"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// TestSettingsErrorsAreTyped: a refused change is a *bench.SettingsError with one
// {key, message} per value refused, every value refused at once, each message in
// words that follow the setting's name (a screen puts its label before them) and
// never the key.
func TestSettingsErrorsAreTyped(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tests := []struct {
		name   string
		values map[string]string
		want   []bench.FieldError
	}{
		{"not a number", map[string]string{"claim_minutes": "abc"},
			[]bench.FieldError{{Key: "claim_minutes", Message: `must be a whole number, got "abc"`}}},
		{"two refused by the policy and a bound", map[string]string{"round3_panel": "0", "claim_minutes": "2000"},
			[]bench.FieldError{{Key: "round3_panel", Message: "the round-3 panel needs at least 1 verifier, got 0"},
				{Key: "claim_minutes", Message: "at most 1440 (a day), got 2000"}}},
		{"a balance target and a group", map[string]string{"balance.hop_qa.1.ego": "-3", "group.nobody": "A"},
			[]bench.FieldError{{Key: "group.nobody", Message: `the project has no member named "nobody"`},
				{Key: "balance.hop_qa.1.ego", Message: "the target cannot be negative, got -3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.db.SetSettings(ctx, f.lead, f.project.ID, tt.values)
			var se *bench.SettingsError
			if !errors.As(err, &se) || !errors.Is(err, bench.ErrInvalid) {
				t.Fatalf("got %v (%T), want a *store.SettingsError that is ErrInvalid", err, err)
			}
			if !slices.EqualFunc(se.Fields, tt.want, func(a, b bench.FieldError) bool { return a.Key == b.Key && a.Message == b.Message }) {
				t.Errorf("fields %+v, want %+v", se.Fields, tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w.Key+": "+w.Message) {
					t.Errorf("the error's text %q does not name %s (a command line takes keys)", err, w.Key)
				}
			}
		})
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"rounds": "4"}); !errors.Is(err, verify.ErrInvalidPolicy) {
		t.Errorf("a policy refusal is no longer verify.ErrInvalidPolicy: %v", err)
	}
}

func TestSetSettingsValidatesEachKey(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	tests := []struct {
		name   string
		values map[string]string
		want   []string // every phrase must be in the error; nil: no error
	}{
		{"rounds out of range", map[string]string{"rounds": "4"}, []string{"rounds: a project runs 2 or 3 review rounds, got 4"}},
		{"panel zero", map[string]string{"round3_panel": "0"}, []string{"round3_panel: the round-3 panel needs at least 1 verifier, got 0"}},
		{"panel too large", map[string]string{"round3_panel": "12"}, []string{"round3_panel: at most 9 verifiers, got 12"}},
		{"claim not a number", map[string]string{"claim_minutes": "abc"}, []string{`claim_minutes: must be a whole number, got "abc"`}},
		{"flag not a bool", map[string]string{"round2_other_group": "maybe"}, []string{`round2_other_group: must be true or false, got "maybe"`}},
		{"unknown key", map[string]string{"panel": "2"}, []string{`there is no setting "panel"`, "round3_panel"}},
		{"bad balance cell", map[string]string{"balance.hop_qa.4.ego": "10"}, []string{"balance.hop_qa.4.ego: a hop-QA cell is balance.hop_qa.HOP.VIEW"}},
		{"negative target", map[string]string{"balance.hop_qa.1.ego": "-3"}, []string{"balance.hop_qa.1.ego: the target cannot be negative, got -3"}},
		{"unknown kind", map[string]string{"balance.essay": "3"}, []string{`balance.essay: "essay" is not a sample kind`}},
		{"bad task label", map[string]string{"tasks": "T0,a b"}, []string{`tasks: task label "a b" must be 1–40 characters`}},
		{"two bad keys at once", map[string]string{"round3_panel": "0", "claim_minutes": "0"}, []string{"round3_panel", "claim_minutes"}},
		{"one good, one bad: nothing changes", map[string]string{"round3_panel": "2", "rounds": "5"}, []string{"rounds"}},
	}
	before, err := f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		_, err := f.db.SetSettings(ctx, f.lead, f.project.ID, tt.values)
		if !errors.Is(err, bench.ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", tt.name, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tt.name, err, w)
			}
		}
	}
	after, _ := f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if !slices.Equal(after.Settings.Values(), before.Settings.Values()) {
		t.Errorf("refused changes altered the settings:\n%v\n%v", before.Settings.Values(), after.Settings.Values())
	}
}

func TestSetSettingsAuditsOldAndNew(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	changes, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{
		"round3_panel": "2", "balance.hop_qa.1.ego": "300", "balance.hop_qa.2.exo": "0", "balance.open.T3": "40",
		"tasks": "T3, T4,T3", "round2_other_group": "false", "claim_minutes": "30",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []bench.SettingChange{
		{Key: "round3_panel", Old: "3", New: "2"},
		{Key: "round2_other_group", Old: "true", New: "false"},
		{Key: "tasks", Old: "", New: "T3,T4"},
		{Key: "balance.hop_qa.1.ego", Old: "750", New: "300"},
		{Key: "balance.open.T3", Old: "", New: "40"},
		{Key: "balance.hop_qa.2.exo", Old: "750", New: ""},
	}
	if !slices.Equal(changes, want) {
		t.Errorf("changes = %+v\nwant %+v", changes, want)
	}
	p, _ := f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if p.Settings.Round3Panel != 2 || p.Settings.Round2OtherGroup || !slices.Equal(p.Settings.Tasks, []string{"T3", "T4"}) {
		t.Errorf("stored settings %+v", p.Settings)
	}
	if pol := p.Settings.Policy(); pol.Round3Panel != 2 || pol.Round2DifferentGroup {
		t.Errorf("policy %+v does not follow the settings", pol)
	}
	events, err := f.db.ProjectHistory(ctx, f.ann, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range events {
		if e.Action == "project.settings" {
			got = append(got, e.Actor+" "+e.Detail)
		}
	}
	wantLog := []string{"lead round3_panel: 3 → 2", "lead round2_other_group: true → false", "lead tasks:  → T3,T4",
		"lead balance.hop_qa.1.ego: 750 → 300", "lead balance.open.T3:  → 40", "lead balance.hop_qa.2.exo: 750 → "}
	if !slices.Equal(got, wantLog) {
		t.Errorf("audit log %q\nwant %q", got, wantLog)
	}
	// Setting the same values again changes and audits nothing.
	if again, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"round3_panel": "2"}); err != nil || len(again) != 0 {
		t.Errorf("unchanged value: %v, %v", again, err)
	}
}

func TestSettingsRefusedForNonLeads(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, u := range []bench.User{f.ann, f.ver} {
		before := auditCount(t, f.db.Path(), "denied:project.settings")
		_, err := f.db.SetSettings(ctx, u, f.project.ID, map[string]string{"round3_panel": "2"})
		if !errors.Is(err, bench.ErrForbidden) || !strings.Contains(err.Error(), "only leads may change project settings") {
			t.Errorf("%s: got %v, want a refusal naming the rule", u.Name, err)
		}
		if got := auditCount(t, f.db.Path(), "denied:project.settings"); got != before+1 {
			t.Errorf("%s's refusal was not audited (%d → %d)", u.Name, before, got)
		}
	}
	events, err := f.db.ProjectHistory(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	denied := 0
	for _, e := range events {
		if e.Action == "denied:project.settings" {
			denied++
		}
	}
	if denied != 2 {
		t.Errorf("project history shows %d refused attempts, want 2: %+v", denied, events)
	}
	if p, _ := f.db.ProjectByName(ctx, bench.Owner(), f.project.Name); p.Settings.Round3Panel != 3 {
		t.Errorf("a refused change was stored: panel %d", p.Settings.Round3Panel)
	}
}

// TestSettingsApplyToTheNextDecision: a change never alters a sample's state or
// its reviews, and the next decision follows it.
func TestSettingsApplyToTheNextDecision(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1", "b1", "c1", "c2", "c3")
	si := submitted(t, f, f.ann, img)
	mustReview(t, f, vs["a1"], si, 1)
	mustReview(t, f, vs["b1"], si, 2)
	mustReview(t, f, vs["c1"], si, 3)
	mustReview(t, f, vs["c2"], si, 3) // 2 of 3 approvals

	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"round3_panel": "2"}); err != nil {
		t.Fatal(err)
	}
	cur, _ := f.db.Sample(ctx, bench.Owner(), si.ID)
	if cur.Status != verify.StateRound3 {
		t.Fatalf("the settings change moved the sample to %s", cur.Status)
	}
	// The panel is now full by the new size: one verifier takes the deciding seat.
	q, err := f.db.ReviewQueue(ctx, vs["c3"], f.project.ID, 3)
	if err != nil || !slices.ContainsFunc(q, func(it bench.QueueItem) bool { return it.SampleID == si.ID }) {
		t.Fatalf("the deciding seat is not in c3's queue: %v, %v", q, err)
	}
	out, err := submitReview(f.db, ctx, vs["c3"], bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: si.Revision, Verdict: approve})
	if err != nil || out.State != verify.StateAccepted {
		t.Fatalf("deciding approval: %+v, %v", out, err)
	}

	// Two rounds: the next round-2 approval accepts.
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"rounds": "2"}); err != nil {
		t.Fatal(err)
	}
	s2 := submitted(t, f, f.ann, img)
	mustReview(t, f, vs["a1"], s2, 1)
	out, err = submitReview(f.db, ctx, vs["b1"], bench.ReviewInput{SampleID: s2.ID, Round: 2, BasedOn: s2.Revision, Verdict: approve})
	if err != nil || out.State != verify.StateAccepted {
		t.Fatalf("round 2 of a 2-round project: %+v, %v; want accepted", out, err)
	}
	rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range rep.Findings {
		if fd.Check == bench.CheckTrail {
			t.Errorf("trail finding on a sample accepted under the policy of its time: %+v", fd)
		}
	}
}

func TestApproveNeedsEveryCriterion(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1")
	si := submitted(t, f, f.ann, img)
	partial := verify.AllPassed(annotate.KindHopQA, 1)
	delete(partial, "box_on_answer")
	for _, v := range []verify.Verdict{
		{Decision: verify.DecisionApprove},
		{Decision: verify.DecisionApprove, Judgements: partial},
	} {
		_, err := f.db.SubmitReview(ctx, vs["a1"], bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: 1, Verdict: v})
		if !errors.Is(err, verify.ErrIncompleteVerdict) || !strings.Contains(err.Error(), "Box on the answer (box_on_answer)") {
			t.Errorf("approve judging %v: got %v, want a refusal naming box_on_answer", v.Judgements, err)
		}
	}
	if cur, _ := f.db.Sample(ctx, bench.Owner(), si.ID); cur.Status != verify.StateRound1 {
		t.Errorf("a refused approval moved the sample to %s", cur.Status)
	}
	// A reject leaves unjudged criteria unjudged.
	rej := verify.Verdict{Decision: verify.DecisionReject, Judgements: map[string]bool{"answer_correct": false}}
	if _, err := f.db.SubmitReview(ctx, vs["a1"], bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: 1, Verdict: rej}); err != nil {
		t.Fatal(err)
	}
	rs, err := f.db.Reviews(ctx, f.lead, si.ID)
	if err != nil || len(rs) != 1 {
		t.Fatalf("reviews %v, %v", rs, err)
	}
	if want := map[string]bool{"answer_correct": false}; len(rs[0].Judgements) != 1 || rs[0].Judgements["answer_correct"] {
		t.Errorf("stored judgements %v, want %v", rs[0].Judgements, want)
	}
}

func TestMessageHidesDriverText(t *testing.T) {
	db := MustOpenDB(t)
	raw, err := store.RawSQL(db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	// A damaged schema: every read of projects now fails inside the driver.
	if _, err := raw.Exec(`ALTER TABLE projects RENAME TO projects_gone`); err != nil {
		t.Fatal(err)
	}
	_, err = db.ProjectByName(context.Background(), bench.Owner(), "p")
	if err == nil {
		t.Fatal("a damaged database answered")
	}
	msg := bench.Message(err)
	if want := `Project "p" failed because of a database problem; the details are in the log.`; msg != want {
		t.Errorf("Message = %q, want %q", msg, want)
	}
	if !strings.Contains(err.Error(), "no such table") && !strings.Contains(err.Error(), `relation "projects" does not exist`) {
		t.Errorf("the wrapped error lost the driver's detail: %v", err)
	}
}

// Group names are one group whatever their spacing or case: " a" joins "A", and a
// round-2 review by a member of the round-1 verifier's group is refused.
func TestGroupNamesAreNormalised(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	a1, err := f.db.AddUser(ctx, f.lead, "a1", bench.RoleVerifier, "A", "secret")
	if err != nil {
		t.Fatal(err)
	}
	a2, err := f.db.AddUser(ctx, f.lead, "a2", bench.RoleVerifier, "  a ", "secret")
	if err != nil || a2.Group != "A" {
		t.Fatalf("a2's group %q (%v), want it to join A", a2.Group, err)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"group.ver": " kitchen   team "}); err != nil {
		t.Fatal(err)
	}
	// A group set in a project's settings is ver's group in that project.
	if g := memberGroup(t, f.db, f.project.ID, "ver"); g != "kitchen team" {
		t.Errorf("ver's group stored as %q", g)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"group.ver": "a,b"}); !errors.Is(err, bench.ErrInvalid) ||
		!strings.Contains(err.Error(), "group.ver: group \"a,b\": a group name has no commas") {
		t.Errorf("a bad group name: %v", err)
	}
	if _, err := f.db.AddUser(ctx, f.lead, "a3", bench.RoleVerifier, "x=1", "secret"); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("AddUser with a bad group: %v", err)
	}
	si := submitted(t, f, f.ann, img)
	mustReview(t, f, a1, si, 1)
	if q, _ := f.db.ReviewQueue(ctx, a2, f.project.ID, 2); len(q) != 0 {
		t.Errorf("a2 (group %q) sees round 2 after a1 (group A): %v", a2.Group, q)
	}
	if _, err := submitReview(f.db, ctx, a2, bench.ReviewInput{SampleID: si.ID, Round: 2, BasedOn: si.Revision, Verdict: approve}); !errors.Is(err, verify.ErrSameGroup) {
		t.Errorf("a2 in round 2: %v, want ErrSameGroup", err)
	}
}

func TestMigration9TrimsGroups(t *testing.T) {
	storetest.SkipOnPostgres(t, "migrates a SQLite file written by version 8")
	ctx := context.Background()
	f := newFixture(t)
	path := f.db.Path()
	sdb := rawDB(t, path)
	for _, q := range []string{`UPDATE users SET grp = ' A ' WHERE name = 'ver'`, `PRAGMA user_version = 8`} {
		if _, err := sdb.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	f.db.Close()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if u, err := db.UserByName(ctx, bench.Owner(), "ver"); err != nil || u.Group != "A" {
		t.Errorf("after migration 9 ver's group is %q (%v), want A", u.Group, err)
	}
}

// memberGroup is name's verifier group in project (Members, as the project's
// members read it).
func memberGroup(t *testing.T, db *store.DB, project int64, name string) string {
	t.Helper()
	ms, err := db.Members(context.Background(), bench.Owner(), project)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Name == name {
			return m.Group
		}
	}
	t.Fatalf("%s is not a member of project %d", name, project)
	return ""
}

// The LRR task weights and image limits: each bad value is refused naming its key
// and what it takes, and nothing changes.
func TestLRRWeightsAndImageLimitsValidate(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	for _, tc := range []struct {
		name   string
		values map[string]string
		want   []string
	}{
		{"weight zero", map[string]string{"lrr_weight.T1": "0"}, []string{"lrr_weight.T1: a task's weight is a number above 0 and at most 1000, got 0"}},
		{"weight negative", map[string]string{"lrr_weight.T1": "-2"}, []string{"lrr_weight.T1: a task's weight is a number above 0"}},
		{"weight not a number", map[string]string{"lrr_weight.T1": "heavy"}, []string{`lrr_weight.T1: must be a number above 0 (or empty for the default, 1), got "heavy"`}},
		{"weight NaN", map[string]string{"lrr_weight.T1": "NaN"}, []string{"lrr_weight.T1: a task's weight is a number above 0"}},
		{"weight too large", map[string]string{"lrr_weight.T1": "1e300"}, []string{"lrr_weight.T1: a task's weight is a number above 0 and at most 1000"}},
		{"weight of a bad task", map[string]string{"lrr_weight.a b": "2"}, []string{`lrr_weight.a b: task label "a b" must be 1–40 characters`}},
		{"weight of no task", map[string]string{"lrr_weight.": "2"}, []string{`lrr_weight.: task label "" must be`}},
		{"limit of an unknown kind", map[string]string{"images.essay": "2"}, []string{`images.essay: "essay" is not a sample kind (or any, for every kind)`}},
		{"limit not a count", map[string]string{"images.judgment": "three"}, []string{`images.judgment: takes a number of images (3), a range (3-4), a minimum (3-) or a maximum (-4), got "three"`}},
		{"limit reversed", map[string]string{"images.judgment.T1": "4-3"}, []string{"images.judgment.T1: the minimum 4 is above the maximum 3"}},
		{"limit above the most a sample shows", map[string]string{"images.any": "-65"}, []string{"images.any: a sample shows at most 64 images"}},
		{"limit of nothing", map[string]string{"images.judgment": "0"}, []string{"images.judgment: give at least a minimum or a maximum number of images"}},
		{"limit of a bad task", map[string]string{"images.any.a=b": "2"}, []string{`images.any.a=b: task label "a=b"`}},
		{"limit only a dash", map[string]string{"images.mcq": "-"}, []string{`images.mcq: takes a number of images`}},
		{"two bad keys", map[string]string{"images.mcq": "x", "lrr_weight.T2": "0"}, []string{"images.mcq", "lrr_weight.T2"}},
	} {
		_, err := f.db.SetSettings(ctx, f.lead, f.project.ID, tc.values)
		if !errors.Is(err, bench.ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", tc.name, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", tc.name, err, w)
			}
		}
	}
	// A whole Settings value is validated the same way (the settings screen saves one).
	for _, tc := range []struct {
		name string
		edit func(*bench.Settings)
		want string
	}{
		{"weight zero", func(s *bench.Settings) { s.LRRWeights = map[string]float64{"T1": 0} }, "lrr_weight.T1: a task's weight is a number above 0"},
		{"limit twice", func(s *bench.Settings) {
			s.ImageLimits = []annotate.ImageLimit{{Kind: annotate.KindJudgment, Min: 2}, {Kind: annotate.KindJudgment, Max: 3}}
		}, "images.judgment: set twice"},
		{"limit empty", func(s *bench.Settings) { s.ImageLimits = []annotate.ImageLimit{{Task: "T1"}} }, "images.any.T1: give at least a minimum or a maximum"},
		{"limit of a bad kind", func(s *bench.Settings) { s.ImageLimits = []annotate.ImageLimit{{Kind: "essay", Max: 2}} }, `images.essay: "essay" is not a sample kind`},
	} {
		s := bench.DefaultSettings()
		tc.edit(&s)
		err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, s)
		if !errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("whole settings, %s: %v, want %q", tc.name, err, tc.want)
		}
	}
	p, _ := f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if p.Settings.LRRWeights != nil || p.Settings.ImageLimits != nil {
		t.Errorf("refused changes were stored: %+v %+v", p.Settings.LRRWeights, p.Settings.ImageLimits)
	}
}

// Weights and limits are stored (on either engine), read back, shown as keys,
// audited with old and new value, removed by an empty value, and refused to
// annotators and verifiers (audited).
func TestLRRWeightsAndImageLimitsPersist(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	changes, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{
		"lrr_weight.T1": "2", "lrr_weight.T2": "0.5", "images.judgment": "3-4", "images.any.T3": "-2", "images.mcq.T1": "2",
		"images.open": "5-",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []bench.SettingChange{
		{Key: "lrr_weight.T1", Old: "", New: "2"}, {Key: "lrr_weight.T2", Old: "", New: "0.5"},
		{Key: "images.any.T3", Old: "", New: "-2"}, {Key: "images.judgment", Old: "", New: "3-4"},
		{Key: "images.mcq.T1", Old: "", New: "2"}, {Key: "images.open", Old: "", New: "5-"},
	}
	if !slices.Equal(changes, want) {
		t.Errorf("changes %+v\nwant %+v", changes, want)
	}
	p, err := f.db.ProjectByName(ctx, f.ver, f.project.Name) // a fresh read, from the database
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Settings.LRRWeights; len(w) != 2 || w["T1"] != 2 || w["T2"] != 0.5 {
		t.Errorf("stored weights %v", w)
	}
	limits := map[string]annotate.ImageLimit{}
	for _, l := range p.Settings.ImageLimits {
		limits[string(l.Kind)+"/"+l.Task] = l
	}
	wantLimits := map[string]annotate.ImageLimit{
		"judgment/": {Kind: annotate.KindJudgment, Min: 3, Max: 4}, "/T3": {Task: "T3", Max: 2},
		"mcq/T1": {Kind: annotate.KindMCQ, Task: "T1", Min: 2, Max: 2}, "open/": {Kind: annotate.KindOpen, Min: 5},
	}
	if len(limits) != len(wantLimits) {
		t.Errorf("stored limits %+v", p.Settings.ImageLimits)
	}
	for k, w := range wantLimits {
		if limits[k] != w {
			t.Errorf("limit %s = %+v, want %+v", k, limits[k], w)
		}
	}
	shown := map[string]string{}
	for _, v := range p.Settings.Values() {
		shown[v.Key] = v.Value
	}
	for k, v := range map[string]string{"lrr_weight.T1": "2", "lrr_weight.T2": "0.5", "images.judgment": "3-4", "images.any.T3": "-2", "images.mcq.T1": "2", "images.open": "5-"} {
		if shown[k] != v {
			t.Errorf("Values shows %s = %q, want %q", k, shown[k], v)
		}
	}
	// Change one, remove two.
	changes, err = f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"lrr_weight.T1": "3", "lrr_weight.T2": "", "images.judgment": ""})
	if err != nil {
		t.Fatal(err)
	}
	want = []bench.SettingChange{{Key: "lrr_weight.T1", Old: "2", New: "3"}, {Key: "lrr_weight.T2", Old: "0.5", New: ""}, {Key: "images.judgment", Old: "3-4", New: ""}}
	if !slices.Equal(changes, want) {
		t.Errorf("changes %+v\nwant %+v", changes, want)
	}
	p, _ = f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if w := p.Settings.LRRWeights; len(w) != 1 || w["T1"] != 3 || len(p.Settings.ImageLimits) != 3 {
		t.Errorf("after removing: weights %v limits %+v", w, p.Settings.ImageLimits)
	}
	events, err := f.db.ProjectHistory(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range events {
		if e.Action == "project.settings" {
			got = append(got, e.Detail)
		}
	}
	for _, w := range []string{"lrr_weight.T1:  → 2", "images.judgment:  → 3-4", "lrr_weight.T1: 2 → 3", "lrr_weight.T2: 0.5 → ", "images.judgment: 3-4 → "} {
		if !slices.Contains(got, w) {
			t.Errorf("audit log %q lacks %q", got, w)
		}
	}
	// Removing the last weight alone is a change too (the stored map is not shared).
	changes, err = f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"lrr_weight.T1": ""})
	if err != nil || !slices.Equal(changes, []bench.SettingChange{{Key: "lrr_weight.T1", Old: "3", New: ""}}) {
		t.Errorf("removing the last weight: %+v, %v", changes, err)
	}
	if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, map[string]string{"lrr_weight.T1": "3"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []bench.User{f.ann, f.ver} {
		counts := func() int {
			c, err := f.db.AuditCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return c["denied:project.settings"]
		}
		before := counts()
		if _, err := f.db.SetSettings(ctx, u, f.project.ID, map[string]string{"lrr_weight.T1": "9", "images.any": "1"}); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("%s: %v, want a refusal", u.Name, err)
		}
		if got := counts(); got != before+1 {
			t.Errorf("%s's refusal was not audited", u.Name)
		}
	}
	p, _ = f.db.ProjectByName(ctx, bench.Owner(), f.project.Name)
	if p.Settings.LRRWeights["T1"] != 3 {
		t.Errorf("a refused change was stored: %v", p.Settings.LRRWeights)
	}
}

// The project's image limits reach lint wherever the store runs it: a sample
// submitted, a record imported, a correction.
func TestImageLimitsReachLint(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	for i, n := range []string{"a", "b", "c"} { // three images, not one and two duplicates of it
		writeFile(t, filepath.Join(dir, "0001-office-1", n+".jpg"), encodeJPEG(t, 64, 48, color.Gray{uint8(60 * (i + 1))}))
	}
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	seq := annotate.Sample{Kind: annotate.KindJudgment, Question: "Does the camera turn left from A to C?", AnswerText: "yes", Task: "cam",
		Image: "0001-office-1/a.jpg", MoreImages: []string{"0001-office-1/b.jpg", "0001-office-1/c.jpg"}}
	set := func(v map[string]string) {
		t.Helper()
		if _, err := f.db.SetSettings(ctx, f.lead, f.project.ID, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		limit map[string]string
		clean bool
	}{
		{"no limit", nil, true},
		{"judgments show one image", map[string]string{"images.judgment": "1"}, false},
		{"task cam shows 4 to 6", map[string]string{"images.any.cam": "4-6"}, false},
		{"another task's limit", map[string]string{"images.judgment.pos": "1"}, true},
		{"judgments show 3 or more", map[string]string{"images.judgment": "3-"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set(map[string]string{"images.judgment": "", "images.any.cam": "", "images.judgment.pos": ""})
			if tc.limit != nil {
				set(tc.limit)
			}
			si, err := f.db.CreateSample(ctx, f.ann, f.project.ID, seq)
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.db.Submit(ctx, f.ann, si.ID, si.Version, []string{"image-labels"})
			if tc.clean && err != nil {
				t.Errorf("submit: %v", err)
			}
			if !tc.clean && (!errors.Is(err, bench.ErrInvalid) || !strings.Contains(err.Error(), "image-count")) {
				t.Errorf("submit: %v, want an image-count refusal", err)
			}
			rec := seq
			rec.ID = "imp-" + strings.ReplaceAll(tc.name, " ", "-")
			res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, []annotate.Imported{{Line: 1, Sample: rec}}, bench.ImportSamplesOptions{})
			if err != nil {
				t.Fatal(err)
			}
			skipped := len(res.Skipped) == 1 && slices.Contains(res.Skipped[0].Rules, "image-count")
			if skipped == tc.clean {
				t.Errorf("import: imported %v, skipped %+v", res.Imported, res.Skipped)
			}
		})
	}
}

// TestSettingChangeWords: Settings → Recent changes reads each audited change as a
// sentence, never a raw key such as lrr_weight.counting (issue 27 item 10).
func TestSettingChangeWords(t *testing.T) {
	for _, tt := range []struct{ detail, want string }{
		{"rounds: 3 → 2", "changed the number of review rounds from 3 to 2"},
		{"round3_panel: 3 → 5", "changed the size of the round-3 panel from 3 to 5"},
		{"round2_other_group: true → false", "turned off round 2 by a verifier from another group than round 1's"},
		{"round3_allow_earlier: false → true", "turned on round-1 and round-2 verifiers on the round-3 panel"},
		{"lrr_weight.counting:  → 2", "set the LRR weight of task counting to 2"},
		{"lrr_weight.counting: 2 → ", "removed the LRR weight of task counting (was 2)"},
		{"balance.hop_qa.2.ego: 0 → 250", "set the balance target of hop QA, 2-hop, ego to 250"},
		{"balance.hop_qa.any.exo: 10 → 20", "changed the balance target of hop QA, exo from 10 to 20"},
		{"balance.mcq.T3: 40 → 0", "removed the balance target of multiple choice, task T3 (was 40)"},
		{"balance.step_graph:  → 30", "set the balance target of step graphs to 30"},
		{"images.mcq.T3:  → 3-4", "set the number of images of multiple choice in task T3 to 3-4"},
		{"images.any: 2 → 4", "changed the number of images of every kind from 2 to 4"},
		{"group.ver1: A → B", "changed the verifier group of ver1 from A to B"},
		{"tasks: T1 → T1,T2", "changed the project's task labels from T1 to T1,T2"},
		{"not allowed: only a lead changes settings", "not allowed: only a lead changes settings"},
	} {
		if got := bench.SettingChangeWords(tt.detail); got != tt.want {
			t.Errorf("%q reads %q, want %q", tt.detail, got, tt.want)
		}
	}
}
