package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// settingsApp is a demo app at the size the Settings screen must fit, 1024×700, with
// the store's clock fixed at 2025-03-01 10:00 UTC and the Recent changes list in UTC,
// so that goldens are the same on every run.
func settingsApp(t *testing.T) (*App, *store.DB) {
	t.Helper()
	u, db := dashDemoApp(t)
	zone := historyZone
	historyZone = time.UTC
	t.Cleanup(func() { historyZone = zone })
	u.win.Resize(fyne.NewSize(1024, 700))
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	return u, db
}

// signInFresh signs name in, signing out whoever was signed in.
func signInFresh(t *testing.T, u *App, name string) {
	t.Helper()
	if u.user.ID != 0 {
		u.showSignIn()
	}
	signInAs(t, u, name, demo.DemoPassword)
	if u.user.Name != name || u.project.Name != demo.DemoProject {
		t.Fatalf("signed in as %q on %q", u.user.Name, u.project.Name)
	}
}

// openSettings signs name in and shows the Settings screen through the navigation.
func openSettings(t *testing.T, u *App, name string) *settingsView {
	t.Helper()
	signInFresh(t, u, name)
	i := slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Settings" })
	if i < 0 {
		t.Fatalf("%s has no Settings screen", name)
	}
	u.nav.Select(i)
	v, ok := u.content.Objects[0].(*settingsView)
	if !ok {
		t.Fatalf("the Settings screen is a %T", u.content.Objects[0])
	}
	return v
}

// retype replaces an entry's text by typing, as a person does.
func retype(e *widget.Entry, text string) {
	e.SetText("")
	test.Type(e, text)
}

func storedSettings(t *testing.T, db *store.DB) bench.Settings {
	t.Helper()
	p, err := db.ProjectByName(context.Background(), bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	return p.Settings
}

func settingValue(s bench.Settings, key string) string {
	for _, x := range s.Values() {
		if x.Key == key {
			return x.Value
		}
	}
	return ""
}

// labelTexts is the text of every label under o, laid out.
func labelTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok && l.Visible() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

var hopKeys = []string{"balance.hop_qa.1.ego", "balance.hop_qa.1.exo", "balance.hop_qa.2.ego",
	"balance.hop_qa.2.exo", "balance.hop_qa.3.ego", "balance.hop_qa.3.exo"}

// The "must show": a lead sets the round-3 panel to 2 and the balance targets
// to 300; the next round-3 decision follows the new panel, the dashboard shows the new
// targets and the project's history the changes.
func TestLeadChangesSettingsAndTheNextDecisionFollows(t *testing.T) {
	u, db := settingsApp(t)
	ctx := context.Background()
	v := openSettings(t, u, "lead")
	if !v.save.Disabled() || v.dirty.Visible() {
		t.Error("Save is offered before anything changed")
	}
	retype(v.panel, "2")
	test.Type(v.allCells, "300")
	test.Tap(v.setAll)
	for _, k := range hopKeys {
		if got := v.cells[k].Text; got != "300" {
			t.Errorf("Set all left %s at %q", k, got)
		}
	}
	if v.save.Disabled() || v.dirty.Text != "7 changes not saved" {
		t.Errorf("unsaved changes shown as %q (Save disabled: %v)", v.dirty.Text, v.save.Disabled())
	}
	if got := v.changes(); len(got) != 7 || got["round3_panel"] != "2" || got["balance.hop_qa.2.exo"] != "300" {
		t.Errorf("the changes to send are %v", got)
	}
	test.Tap(v.save)
	if v.message.Visible() || u.status.Text != "Saved 7 changes to the settings of demo (listed under Recent changes)." {
		t.Fatalf("after Save the message is %q (shown %v), the status bar %q", v.message.Text, v.message.Visible(), u.status.Text)
	}
	s := storedSettings(t, db)
	if s.Round3Panel != 2 {
		t.Fatalf("stored round-3 panel %d, want 2", s.Round3Panel)
	}
	for _, k := range hopKeys {
		if got := settingValue(s, k); got != "300" {
			t.Errorf("stored %s = %q, want 300", k, got)
		}
	}
	if v.dirty.Visible() || !v.save.Disabled() {
		t.Errorf("after Save: %q unsaved", v.dirty.Text)
	}
	if got := labelTexts(v.history); !strings.Contains(got, "lead  ·  changed the size of the round-3 panel from 3 to 2") {
		t.Errorf("Recent changes:\n%s", got)
	}

	// The project's history names the lead and each change.
	lead, err := db.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	events, err := db.ProjectHistory(ctx, lead, u.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"round3_panel: 3 → 2"}
	for _, k := range hopKeys {
		want = append(want, k+": 750 → 300")
	}
	for _, w := range want {
		if !slices.ContainsFunc(events, func(e bench.Event) bool {
			return e.Actor == "lead" && e.Action == "project.settings" && e.Detail == w
		}) {
			t.Errorf("the project's history has no %q by lead: %v", w, events)
		}
	}

	// demo-hq-002 is in round 3 with ver5's approval: under a panel of 2 one more
	// approval accepts it.
	vv := openVerify(t, u, "ver2")
	o := openItem(t, vv, "demo-hq-002")
	if o.item.Round != 3 {
		t.Fatalf("demo-hq-002 is offered in round %d", o.item.Round)
	}
	tapAllYes(o)
	press(u, "y")
	if s := status(t, db, "demo-hq-002"); s != verify.StateAccepted {
		t.Fatalf("after the second round-3 approval under a panel of 2 the sample is %s (message %q)", s, o.message.Text)
	}
	if !strings.Contains(u.status.Text, "the panel approved unanimously and the sample is accepted") {
		t.Errorf("status bar %q", u.status.Text)
	}

	// The dashboard's balance targets are the new ones.
	d, err := db.Dashboard(ctx, lead, u.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	cells := 0
	for _, c := range d.Balance {
		if c.Kind == "hop_qa" {
			cells++
			if c.Target != 300 {
				t.Errorf("dashboard cell %d-hop %s has target %d, want 300", c.Hop, c.View, c.Target)
			}
		}
	}
	if cells != 6 {
		t.Errorf("the dashboard has %d hop-QA cells, want 6", cells)
	}
	u.showSignIn()
	dv := openDashboard(t, u, "lead")
	dv.tabs.SelectIndex(slices.Index(tabNames(dv), tabBalance))
	if text := tableText(dv); !strings.Contains(text, "hop_qa\t2\texo\tany\t300\t") || strings.Contains(text, "\t750\t") {
		t.Errorf("the dashboard's balance table:\n%s", text)
	}
}

// Annotators and verifiers are not offered the screen, and the store refuses and
// audits their attempts.
func TestOnlyLeadsChangeSettings(t *testing.T) {
	u, db := settingsApp(t)
	ctx := context.Background()
	for _, name := range []string{"ann1", "ver1"} {
		signInFresh(t, u, name)
		if slices.ContainsFunc(u.screens, func(s screen) bool { return s.title == "Settings" }) {
			t.Errorf("%s (%s) is offered the Settings screen", name, u.user.Role)
		}
		before, err := db.AuditCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.SetSettings(ctx, u.user, u.project.ID, map[string]string{"round3_panel": "1"})
		if !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("%s's SetSettings: %v, want a refusal", name, err)
		}
		after, err := db.AuditCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if after["denied:project.settings"] != before["denied:project.settings"]+1 {
			t.Errorf("%s's refusal is not audited: %d → %d", name, before["denied:project.settings"], after["denied:project.settings"])
		}
		if s := storedSettings(t, db); s.Round3Panel != 3 {
			t.Errorf("%s changed the panel to %d", name, s.Round3Panel)
		}
	}
	// The lead is.
	signInFresh(t, u, "lead")
	if !slices.ContainsFunc(u.screens, func(s screen) bool { return s.title == "Settings" }) {
		t.Error("the lead is not offered the Settings screen")
	}
	if u.screens[len(u.screens)-1].title != "Users" {
		t.Error("Users is no longer the last screen (its refresh shows the last screen)")
	}
}

// A bad value is refused with the store's reason beside its field, in a sentence
// that names the field by its label and never its key (the store's typed
// SettingsError, not its sentence searched for keys); nothing is stored and the
// edits stay until Revert.
func TestBadSettingsAreRefusedBesideTheirFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(v *settingsView)
		want map[string]string // key → a part of the sentence beside it
	}{
		{"claim minutes not a number", func(v *settingsView) { retype(v.claim, "abc") },
			map[string]string{"claim_minutes": `Claim minutes: must be a whole number, got "abc".`}},
		{"panel 0 and a negative target", func(v *settingsView) {
			retype(v.panel, "0")
			retype(v.cells["balance.hop_qa.3.exo"], "-5")
		}, map[string]string{
			"round3_panel":         "Round-3 panel: the round-3 panel needs at least 1 verifier, got 0.",
			"balance.hop_qa.3.exo": ": the target cannot be negative, got -5.",
		}},
		{"a task label with a space", func(v *settingsView) { retype(v.tasks, "T0, T 1") },
			map[string]string{"tasks": `Task labels: task label "T 1" must be`}},
		{"a group with a comma", func(v *settingsView) { retype(v.groups["ver1"], "a,b") },
			map[string]string{"group.ver1": "Group of ver1: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, db := settingsApp(t)
			ctx := context.Background()
			v := openSettings(t, u, "lead")
			before, _ := db.AuditCounts(ctx)
			stored := storedSettings(t, db)
			tc.edit(v)
			test.Tap(v.save)
			for _, f := range v.fields {
				want, named := tc.want[f.key]
				switch {
				case named && (!f.err.Visible() || !strings.Contains(f.err.Text, want)):
					t.Errorf("beside %s: %q (shown %v), want %q", f.key, f.err.Text, f.err.Visible(), want)
				case !named && f.err.Visible():
					t.Errorf("a refusal beside %s, which is fine: %q", f.key, f.err.Text)
				case strings.Contains(f.err.Text, f.key):
					t.Errorf("the refusal beside %s names its key: %q", f.key, f.err.Text)
				}
			}
			for name, l := range v.gerrs {
				want, named := tc.want["group."+name]
				if named != l.Visible() || named && !strings.Contains(l.Text, want) || strings.Contains(l.Text, "group.") {
					t.Errorf("beside the group of %s: %q (shown %v), want %q", name, l.Text, l.Visible(), want)
				}
			}
			if !v.message.Visible() || !strings.HasPrefix(v.message.Text, "Nothing was saved") {
				t.Errorf("message %q", v.message.Text)
			}
			if got := storedSettings(t, db); fmt.Sprint(got) != fmt.Sprint(stored) {
				t.Errorf("a refused save changed the settings:\n%+v\nwas\n%+v", got, stored)
			}
			if after, _ := db.AuditCounts(ctx); after["project.settings"] != before["project.settings"] {
				t.Error("a refused save audited a change")
			}
			if !v.dirty.Visible() || v.save.Disabled() {
				t.Error("the refused edits are no longer shown as unsaved")
			}
			test.Tap(v.revert)
			if len(v.changes()) != 0 || v.dirty.Visible() || v.message.Visible() || v.claim.Text != "30" || v.panel.Text != "3" {
				t.Errorf("after Revert: changes %v, claim %q, panel %q", v.changes(), v.claim.Text, v.panel.Text)
			}
			for _, f := range v.fields {
				if f.err.Visible() {
					t.Errorf("after Revert a refusal stays beside %s", f.key)
				}
			}
		})
	}
}

// Other targets are added and removed, a verifier's group changes and their role
// stays, and the booleans and rounds reach the store.
func TestSettingsOtherTargetsGroupsAndChoices(t *testing.T) {
	u, db := settingsApp(t)
	ctx := context.Background()
	v := openSettings(t, u, "lead")
	test.Tap(v.addOpen)
	v.addKind.SetSelected("open")
	test.Type(v.addTask, "T3")
	test.Type(v.addCount, "40")
	test.Tap(v.addButton)
	test.Tap(v.addOpen)
	v.addKind.SetSelected("step_graph")
	test.Type(v.addCount, "25")
	test.Tap(v.addButton)
	retype(v.groups["ver1"], "D")
	test.Tap(v.allowEarlier) // before 2 rounds disable it (round 3's option): the choice is kept
	v.rounds.SetSelected("2")
	test.Tap(v.toRound1)
	retype(v.tasks, "T0, T3")
	if v.dirty.Text != "7 changes not saved" {
		t.Errorf("unsaved: %q", v.dirty.Text)
	}
	test.Tap(v.save)
	s := storedSettings(t, db)
	if got := settingValue(s, "balance.open.T3"); got != "40" {
		t.Errorf("balance.open.T3 = %q (message %q)", got, v.message.Text)
	}
	if got := settingValue(s, "balance.step_graph"); got != "25" {
		t.Errorf("balance.step_graph = %q", got)
	}
	if s.Rounds != 2 || !s.Round3AllowEarlier || s.CorrectionToRound1 || !s.Round2OtherGroup || !slices.Equal(s.Tasks, []string{"T0", "T3"}) {
		t.Errorf("stored %+v", s)
	}
	// Groups are the project's memberships'.
	members, err := db.Members(ctx, bench.Owner(), u.project.ID)
	if i := slices.IndexFunc(members, func(m bench.User) bool { return m.Name == "ver1" }); err != nil || i < 0 ||
		members[i].Group != "D" || members[i].Role != bench.RoleVerifier {
		t.Errorf("ver1 in %+v, %v; want a verifier of group D", members, err)
	}
	if len(v.extra) != 2 || v.tasks.Text != "T0,T3" || v.dirty.Visible() {
		t.Fatalf("after Save: %d other targets, tasks %q, unsaved %q", len(v.extra), v.tasks.Text, v.dirty.Text)
	}

	// Remove one: Save sends 0, which removes it.
	for _, r := range v.extra {
		if r.field.key == "balance.step_graph" {
			test.Tap(findButtonIn(t, r.row, ""))
		}
	}
	if got := v.changes(); len(got) != 1 || got["balance.step_graph"] != "0" {
		t.Fatalf("removing a target sends %v", got)
	}
	test.Tap(v.save)
	if got := settingValue(storedSettings(t, db), "balance.step_graph"); got != "" {
		t.Errorf("balance.step_graph = %q after removing it", got)
	}
	if len(v.extra) != 1 {
		t.Errorf("%d other targets shown after removing one of two", len(v.extra))
	}
}

// findButtonIn finds the button with text under o.
func findButtonIn(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	for _, x := range test.LaidOutObjects(o) {
		if b, ok := x.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("no button %q", text)
	return nil
}

// The screen at 1024×700: one saved change in Recent changes and unsaved edits,
// then a refused value. Texts are set, not typed, so that no entry has a blinking
// cursor in the picture.
func TestSettingsGolden(t *testing.T) {
	u, _ := settingsApp(t)
	v := openSettings(t, u, "lead")
	v.panel.SetText("2")
	test.Tap(v.save)
	v.allCells.SetText("300")
	test.Tap(v.setAll)
	v.claim.SetText("45")
	assertGolden(t, "settings_lead.png", u.win)

	// A refusal: the store's sentence beside the field, the bar saying nothing was saved.
	test.Tap(v.revert)
	v.claim.SetText("abc")
	test.Tap(v.save)
	assertGolden(t, "settings_refused.png", u.win)
}

// TestOnlyTheProjectsVerifiersAreListed: a verifier of another project of the same
// lead is neither in the demo's Settings → Verifier groups (where saving would have
// regrouped them) nor in its Dashboard → Verifiers table (issue 27 item 14).
func TestOnlyTheProjectsVerifiersAreListed(t *testing.T) {
	u, db := settingsApp(t)
	ctx := context.Background()
	lead, err := db.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	other, err := db.CreateProject(ctx, lead, "kitchen")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddUserToProject(ctx, lead, other.ID, "kitchenver", bench.RoleVerifier, "K", "kitchen-pw"); err != nil {
		t.Fatal(err)
	}
	v := openSettings(t, u, "lead")
	var names []string
	for _, x := range v.users {
		names = append(names, x.Name)
	}
	if want := []string{"lead", "ver1", "ver2", "ver3", "ver4", "ver5", "ver6"}; !slices.Equal(names, want) {
		t.Errorf("Verifier groups lists %q, want the project's %q", names, want)
	}
	if v.groups["kitchenver"] != nil {
		t.Error("Verifier groups has an entry for another project's verifier")
	}
	u.nav.Select(slices.IndexFunc(u.screens, func(s screen) bool { return s.title == "Dashboard" }))
	d, ok := u.content.Objects[0].(*dashboardView)
	if !ok {
		t.Fatalf("the Dashboard screen is a %T", u.content.Objects[0])
	}
	waitLoads(t, d, 1)
	d.tabs.SelectIndex(slices.Index(tabNames(d), tabVerifiers))
	if text := tableText(d); strings.Contains(text, "kitchenver") || !strings.Contains(text, "ver6") {
		t.Errorf("the Verifiers table reads:\n%s", text)
	}
}

// TestTwoRoundsDisableTheRound3Options: with 2 review rounds there is no round 3,
// so its panel size and who may sit on it are disabled (issue 27 item 15); Recent
// changes says what changed in words, not as keys (item 10).
func TestTwoRoundsDisableTheRound3Options(t *testing.T) {
	u, _ := settingsApp(t)
	v := openSettings(t, u, "lead")
	if v.panel.Disabled() || v.allowEarlier.Disabled() {
		t.Fatal("with 3 rounds the round-3 options are disabled")
	}
	v.rounds.SetSelected("2")
	if !v.panel.Disabled() || !v.allowEarlier.Disabled() {
		t.Error("with 2 rounds the round-3 options stay enabled")
	}
	v.rounds.SetSelected("3")
	if v.panel.Disabled() || v.allowEarlier.Disabled() {
		t.Error("back to 3 rounds the round-3 options stay disabled")
	}
	v.rounds.SetSelected("2")
	retype(v.cells["balance.hop_qa.2.ego"], "250")
	test.Tap(v.save)
	v = openSettings(t, u, "lead")
	if !v.panel.Disabled() || !v.allowEarlier.Disabled() {
		t.Error("a project of 2 rounds opens with the round-3 options enabled")
	}
	history := labelTexts(v.history)
	for _, want := range []string{"changed the number of review rounds from 3 to 2", "changed the balance target of hop QA, 2-hop, ego from 750 to 250"} {
		if !strings.Contains(history, want) {
			t.Errorf("Recent changes does not say %q:\n%s", want, history)
		}
	}
	if strings.Contains(history, "balance.hop_qa") || strings.Contains(history, "rounds:") {
		t.Errorf("Recent changes shows setting keys:\n%s", history)
	}
}
