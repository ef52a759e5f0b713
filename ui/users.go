package ui

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/benchwright/benchwright/bench"
)

// usersScreen shows the open project's members with their roles there and lets
// a lead add an existing account to the project, take a member off it, add new
// accounts (they join this project) and change members' roles and groups in this
// project (store.SetMemberRole). The store refuses these for anyone else,
// and decides who may be added or removed (a project keeps a lead), whatever the
// UI shows.
func (u *App) usersScreen() fyne.CanvasObject {
	sess, ctx, user, projectID := u.sess, u.ctx(), u.user, u.project.ID
	var members []bench.User
	table := widget.NewTable(
		func() (int, int) { return len(members) + 1, 3 },
		func() fyne.CanvasObject { return widget.NewLabel("verifier-group") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row == 0 {
				l.TextStyle.Bold = true
				l.SetText([]string{"Name", "Role", "Group"}[id.Col])
				return
			}
			l.TextStyle.Bold = false
			x := members[id.Row-1]
			l.SetText([]string{x.Name, x.Role, x.Group}[id.Col])
		},
	)
	table.SetColumnWidth(0, 160)
	table.SetColumnWidth(1, 120)
	table.SetColumnWidth(2, 120)

	name, group, password := widget.NewEntry(), widget.NewEntry(), widget.NewPasswordEntry()
	password.SetPlaceHolder(fmt.Sprintf("at least %d characters", bench.MinPasswordLen))
	role := widget.NewSelect([]string{bench.RoleAnnotator, bench.RoleVerifier, bench.RoleLead}, nil)
	role.SetSelected(bench.RoleAnnotator)
	table.OnSelected = func(id widget.TableCellID) {
		if id.Row > 0 {
			x := members[id.Row-1]
			name.SetText(x.Name)
			role.SetSelected(x.Role)
			group.SetText(x.Group)
		}
	}
	account := widget.NewSelect(nil, nil)
	account.PlaceHolder = "(loading the accounts…)"
	account.Disable()
	// The members, and the accounts the lead sees that are not members yet (the
	// ones to add), read off the UI goroutine.
	type lists struct {
		members []bench.User
		others  []string
	}
	// reload reads both again in place after a write: the form keeps the
	// selection and what was typed (it re-showed the screen by its index in the
	// menu, which is the Users screen's only while it stays last).
	reload := func() {
		load(u, "users", func() (lists, error) {
			ms, err := sess.Members(ctx, projectID)
			if err != nil {
				return lists{}, err
			}
			all, err := sess.Users(ctx)
			if err != nil {
				return lists{members: ms}, err
			}
			var others []string
			for _, x := range all {
				if !slices.ContainsFunc(ms, func(m bench.User) bool { return m.ID == x.ID }) {
					others = append(others, x.Name)
				}
			}
			return lists{ms, others}, nil
		}, func(l lists, err error) {
			if err != nil {
				u.showError(err)
			}
			members = l.members
			table.Refresh()
			account.SetOptions(l.others)
			account.PlaceHolder = "(an account of another project)"
			if len(l.others) == 0 {
				account.PlaceHolder = "(every account you see is a member)"
			} else {
				account.Enable()
			}
			account.Refresh()
		})
	}
	reload()
	// Each change of the members runs with its button disabled (written enables
	// it again); a refusal is shown and the form keeps what was typed.
	written := func(b *widget.Button, done func()) func(error) {
		b.Disable()
		return func(err error) {
			b.Enable()
			if err != nil {
				u.showError(err)
				return
			}
			done()
		}
	}
	var join, leave, add, change *widget.Button
	join = widget.NewButton("Add to project", func() {
		who := account.Selected
		act(u, "", func() error { return sess.AddMember(ctx, projectID, who) }, written(join, reload))
	})
	leave = widget.NewButton("Remove from project", func() {
		who := name.Text
		act(u, "", func() error { return sess.RemoveMember(ctx, projectID, who) }, written(leave, func() {
			if who == user.Name { // no longer a member: nothing of it is theirs to show
				u.showProjects()
				return
			}
			reload()
		}))
	})
	add = widget.NewButton("Add user", func() {
		who, r, g, pw := name.Text, role.Selected, group.Text, password.Text
		act(u, "", func() error {
			_, err := sess.AddUserToProject(ctx, projectID, who, r, g, pw)
			return err
		}, written(add, func() {
			password.SetText("") // the new account's; it has no business staying on screen
			reload()
		}))
	})
	add.Importance = widget.HighImportance
	change = widget.NewButton("Set role and group", func() {
		who, r, g := name.Text, role.Selected, group.Text
		act(u, "", func() error {
			_, err := sess.SetMemberRole(ctx, projectID, who, r, g)
			return err
		}, written(change, reload))
	})
	form := widget.NewForm(widget.NewFormItem("Name", name), widget.NewFormItem("Role", role),
		widget.NewFormItem("Group", group), widget.NewFormItem("Password", password))
	help := widget.NewLabel("Only its members see and work on " + u.project.Name + ". Roles and groups are per project: " +
		"Set role and group changes them in " + u.project.Name + " alone. Add user makes an account that joins " +
		u.project.Name + " alone; Remove from project takes off the member named in the form. " +
		"Round 2 needs a verifier from another group than round 1: give verifiers groups.")
	help.Wrapping = fyne.TextWrapWord
	side := container.NewVBox(heading("Members of "+u.project.Name), container.NewBorder(nil, nil, nil, join, account),
		heading("Add or change a user"), form, container.NewHBox(add, change, leave), help)
	split := container.NewHSplit(table, side)
	split.Offset = 0.5
	return split
}
