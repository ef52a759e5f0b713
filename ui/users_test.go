package ui

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/benchwright/benchwright/bench"
)

// TestUsersScreenMembers: a lead takes a member off the project from the Users
// screen, finds the account among those to add and adds it back; the store's
// refusal to remove the project's only lead is shown and changes nothing. The
// project list shows only the projects a person is a member of.
func TestUsersScreenMembers(t *testing.T) {
	ctx := context.Background()
	u, db := demoApp(t)
	signInAs(t, u, "lead", "demo")
	p, err := db.ProjectByName(ctx, u.user, "demo")
	if err != nil {
		t.Fatal(err)
	}
	u.openProject(p)
	u.show(len(u.screens) - 1)
	members := func() []string {
		t.Helper()
		ms, err := db.Members(ctx, bench.Owner(), p.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		return out
	}
	screen := func() (*widget.Table, *widget.Select, *widget.Entry) {
		t.Helper()
		var tb *widget.Table
		var sel *widget.Select
		var name *widget.Entry
		for _, o := range test.LaidOutObjects(u.content) {
			switch x := o.(type) {
			case *widget.Table:
				tb = x
			case *widget.Select:
				if x.PlaceHolder != "" && sel == nil {
					sel = x
				}
			case *widget.Entry:
				if name == nil {
					name = x
				}
			}
		}
		if tb == nil || sel == nil || name == nil {
			t.Fatal("the Users screen lacks its table, account list or name field")
		}
		return tb, sel, name
	}

	tb, _, name := screen()
	tb.Select(widget.TableCellID{Row: 2, Col: 0}) // ann2 (row 0 is the header)
	if name.Text != "ann2" {
		t.Fatalf("selecting the second member fills in %q", name.Text)
	}
	test.Tap(findButton(t, u.content, "Remove from project"))
	if got := members(); slices.Contains(got, "ann2") || len(got) != 8 {
		t.Fatalf("members after removing ann2: %v", got)
	}
	_, sel, _ := screen()
	if !slices.Equal(sel.Options, []string{"ann2"}) {
		t.Fatalf("accounts to add: %v, want ann2", sel.Options)
	}
	sel.SetSelected("ann2")
	test.Tap(findButton(t, u.content, "Add to project"))
	if got := members(); !slices.Contains(got, "ann2") {
		t.Fatalf("members after adding ann2 back: %v", got)
	}

	// The only lead cannot leave: the store refuses, the screen says so.
	_, _, name = screen()
	name.SetText("lead")
	test.Tap(findButton(t, u.content, "Remove from project"))
	if got := members(); !slices.Contains(got, "lead") {
		t.Fatalf("the only lead was removed: %v", got)
	}
	if len(u.win.Canvas().Overlays().List()) == 0 {
		t.Error("the refusal to remove the only lead is not shown")
	}

	// A second project the lead makes is theirs alone: ann1 does not see it.
	if _, err := db.CreateProject(ctx, u.user, "second"); err != nil {
		t.Fatal(err)
	}
	ann, err := db.Authenticate(ctx, "ann1", "demo")
	if err != nil {
		t.Fatal(err)
	}
	asSignedIn(u, ann)
	u.showProjects()
	var shown []string
	for _, o := range test.LaidOutObjects(u.win.Content()) {
		if l, ok := o.(*widget.List); ok {
			for i := 0; i < l.Length(); i++ {
				shown = append(shown, "item")
			}
		}
	}
	if ps, _ := db.Projects(ctx, ann); len(ps) != 1 || len(shown) != 1 {
		t.Errorf("ann1's project list shows %d projects (the store lists %d), want demo only", len(shown), len(ps))
	}
}

// TestUsersScreenWritesInPlace: after Add user the screen reads the members
// again where it is — the new account is in the table, the form still names it
// (to set its group next), and the password typed for it is gone from the screen.
func TestUsersScreenWritesInPlace(t *testing.T) {
	ctx := context.Background()
	u, db := demoApp(t)
	signInAs(t, u, "lead", "demo")
	p, err := db.ProjectByName(ctx, u.user, "demo")
	if err != nil {
		t.Fatal(err)
	}
	u.openProject(p)
	u.show(len(u.screens) - 1)
	var tb *widget.Table
	var entries []*widget.Entry
	for _, o := range test.LaidOutObjects(u.content) {
		switch x := o.(type) {
		case *widget.Table:
			tb = x
		case *widget.Entry:
			entries = append(entries, x)
		}
	}
	if tb == nil || len(entries) < 3 {
		t.Fatal("the Users screen lacks its table or its form")
	}
	name, password := entries[0], entries[len(entries)-1]
	if !password.Password {
		t.Fatal("the form's last field is not the password")
	}
	rows, _ := tb.Length()
	test.Type(name, "newbie")
	test.Type(password, "a long password 1")
	test.Tap(findButton(t, u.content, "Add user"))
	if got, _ := tb.Length(); got != rows+1 {
		t.Errorf("the table has %d rows after Add user, want %d", got, rows+1)
	}
	if name.Text != "newbie" || password.Text != "" {
		t.Errorf("after Add user the form reads name %q, password %q; want newbie and no password", name.Text, password.Text)
	}
	if ms, err := db.Members(ctx, bench.Owner(), p.ID); err != nil || !slices.ContainsFunc(ms, func(m bench.User) bool { return m.Name == "newbie" }) {
		t.Errorf("newbie is not a member: %v %v", ms, err)
	}
}
