package ui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// TestAuditDuplicatesKeepOneWithdrawTheRest: a question accepted three times gives
// three audit findings; a tap on one offers its group, which opens in the sample
// manager; back on the Export screen the audit's findings are still there; "keep
// one, withdraw the rest" keeps the chosen sample, withdraws the other two with the
// reason, and takes the group off the list, and the next audit finds no duplicate
// (issue 27 item 12: it took one audit per copy).
func TestAuditDuplicatesKeepOneWithdrawTheRest(t *testing.T) {
	ctx := context.Background()
	var original string
	u, ev := openExport(t, "lead", func(db *store.DB) {
		original = acceptedCopies(t, db, annotate.KindHopQA, "zz-copy-1", "zz-copy-2")
	})
	group := []string{original, "zz-copy-1", "zz-copy-2"}
	test.Tap(ev.auditBtn)
	waitFor(t, "the audit", func() bool { return ev.lastAudit != nil })
	dups := func(fs []bench.AuditFinding) (ids []string, at int) {
		at = -1
		for i, f := range fs {
			if f.Check == bench.CheckDuplicate {
				ids = append(ids, f.SampleID)
				if at < 0 {
					at = i
				}
			}
		}
		return ids, at
	}
	ids, at := dups(ev.findings)
	if !slices.Equal(ids, group) {
		t.Fatalf("duplicate findings for %q, want each of %q", ids, group)
	}
	summary := ev.auditSummary.Text

	// The finding offers its group; the group opens in the sample manager.
	ev.findingList.Select(at)
	dialogButton(t, u, "Open them in the sample manager")
	if v := samplesOf(t, u); !slices.Equal(v.q.IDs, group) {
		t.Fatalf("the sample manager shows %q, want the group %q", v.q.IDs, group)
	}

	// Back on the Export screen: the audit is still there.
	ev = u.newExportView()
	u.content.Objects = []fyne.CanvasObject{ev.root}
	u.content.Refresh()
	if ids, _ := dups(ev.findings); !slices.Equal(ids, group) || ev.auditSummary.Text != summary {
		t.Fatalf("back from the finding: findings %q, summary %q; want %q, %q", ids, ev.auditSummary.Text, group, summary)
	}

	// Keep the second, withdraw the rest.
	ev.findingList.Select(at)
	overlay := u.win.Canvas().Overlays().Top()
	if overlay == nil {
		t.Fatal("the duplicate finding opened no dialog")
	}
	for _, o := range test.LaidOutObjects(overlay) {
		switch x := o.(type) {
		case *widget.RadioGroup:
			x.SetSelected("zz-copy-1")
		case *widget.Entry:
			x.SetText("asked three times")
		}
	}
	dialogButton(t, u, "Keep one, withdraw 2")
	for id, want := range map[string]verify.State{original: verify.StateWithdrawn, "zz-copy-1": verify.StateAccepted, "zz-copy-2": verify.StateWithdrawn} {
		if s, _ := u.db.As(bench.Owner()).Sample(ctx, id); s.Status != want {
			t.Errorf("%s is %s, want %s", id, s.Status, want)
		}
	}
	if ids, _ := dups(ev.findings); len(ids) > 0 || !strings.Contains(ev.auditSummary.Text, "Kept zz-copy-1; withdrew 2 samples") {
		t.Errorf("after keeping one: duplicate findings %q, summary %q", ids, ev.auditSummary.Text)
	}
	test.Tap(ev.auditBtn)
	waitFor(t, "the second audit", func() bool { return ev.lastAudit != nil })
	if ids, _ := dups(ev.findings); len(ids) > 0 {
		t.Errorf("the next audit still finds duplicates: %q", ids)
	}
}

// acceptedCopies accepts copies of the first accepted demo sample of kind under
// ids, each through the three rounds, and returns the copied sample's id.
func acceptedCopies(t *testing.T, db *store.DB, kind annotate.Kind, ids ...string) string {
	t.Helper()
	ctx := context.Background()
	p, err := db.ProjectByName(ctx, bench.Owner(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	lead, err := db.Authenticate(ctx, "lead", "demo")
	if err != nil {
		t.Fatal(err)
	}
	page, err := db.SearchSamples(ctx, lead, p.ID, bench.SampleQuery{States: []verify.State{verify.StateAccepted}, Kinds: []annotate.Kind{kind}, Sort: bench.SortID})
	if err != nil || len(page.Rows) == 0 {
		t.Fatalf("an accepted %s sample: %v", kind, err)
	}
	s, err := db.Sample(ctx, bench.Owner(), page.Rows[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	ann, err := db.Authenticate(ctx, "ann1", "demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		c := s.Content
		c.ID = id
		si, err := db.CreateSample(ctx, ann, p.ID, c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
			t.Fatal(err)
		}
		verifyDemoSample(t, db, id)
	}
	return s.ID
}

// TestAuditKeepFirstOfEachGroup: with several duplicate groups, one press keeps the
// first sample of each and withdraws the others, with the reason.
func TestAuditKeepFirstOfEachGroup(t *testing.T) {
	ctx := context.Background()
	var hop, yn string
	u, ev := openExport(t, "lead", func(db *store.DB) {
		hop = acceptedCopies(t, db, annotate.KindHopQA, "zz-hop-copy")
		yn = acceptedCopies(t, db, annotate.KindJudgment, "zz-yn-copy")
	})
	test.Tap(ev.auditBtn)
	waitFor(t, "the audit", func() bool { return ev.lastAudit != nil })
	at := slices.IndexFunc(ev.findings, func(f bench.AuditFinding) bool { return f.Check == bench.CheckDuplicate })
	if at < 0 || len(duplicateGroups(ev.findings)) != 2 {
		t.Fatalf("duplicate groups %q", duplicateGroups(ev.findings))
	}
	ev.findingList.Select(at)
	dialogButton(t, u, "Keep the first of each of the 2 groups, withdraw the rest")
	for id, want := range map[string]verify.State{hop: verify.StateAccepted, yn: verify.StateAccepted,
		"zz-hop-copy": verify.StateWithdrawn, "zz-yn-copy": verify.StateWithdrawn} {
		if s, _ := u.db.As(bench.Owner()).Sample(ctx, id); s.Status != want {
			t.Errorf("%s is %s, want %s", id, s.Status, want)
		}
	}
	if g := duplicateGroups(ev.findings); len(g) > 0 || !strings.Contains(ev.auditSummary.Text, "Kept the first sample of 2 groups; withdrew 2 samples") {
		t.Errorf("after keeping the first of each: groups %q, summary %q", g, ev.auditSummary.Text)
	}
}
