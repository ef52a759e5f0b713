package ui

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
)

// usersScreen shows the open project's members with their roles there and lets
// a lead add an existing account to the project, take a member off it, add new
// accounts (they join this project) and change members' roles and groups in this
// project (store.SetMemberRole). The store refuses these for anyone else,
// and decides who may be added or removed (a project keeps a lead), whatever the
// UI shows.
func (u *App) usersScreen() fyne.CanvasObject {
	members, err := u.db.Members(u.ctx(), u.user, u.project.ID)
	if err != nil {
		u.showError(err)
	}
	// Accounts the lead sees that are not members yet: the ones to add.
	var others []string
	if all, err := u.db.Users(u.ctx(), u.user); err != nil {
		u.showError(err)
	} else {
		for _, x := range all {
			if !slices.ContainsFunc(members, func(m store.User) bool { return m.ID == x.ID }) {
				others = append(others, x.Name)
			}
		}
	}
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
	password.SetPlaceHolder(fmt.Sprintf("at least %d characters", store.MinPasswordLen))
	role := widget.NewSelect([]string{store.RoleAnnotator, store.RoleVerifier, store.RoleLead}, nil)
	role.SetSelected(store.RoleAnnotator)
	table.OnSelected = func(id widget.TableCellID) {
		if id.Row > 0 {
			x := members[id.Row-1]
			name.SetText(x.Name)
			role.SetSelected(x.Role)
			group.SetText(x.Group)
		}
	}
	refresh := func() {
		u.show(len(u.screens) - 1)
	}
	account := widget.NewSelect(others, nil)
	account.PlaceHolder = "(an account of another project)"
	if len(others) == 0 {
		account.PlaceHolder = "(every account you see is a member)"
		account.Disable()
	}
	join := widget.NewButton("Add to project", func() {
		if err := u.db.AddMember(u.ctx(), u.user, u.project.ID, account.Selected); err != nil {
			u.showError(err)
			return
		}
		refresh()
	})
	leave := widget.NewButton("Remove from project", func() {
		if err := u.db.RemoveMember(u.ctx(), u.user, u.project.ID, name.Text); err != nil {
			u.showError(err)
			return
		}
		if name.Text == u.user.Name { // no longer a member: nothing of it is theirs to show
			u.showProjects()
			return
		}
		refresh()
	})
	add := widget.NewButton("Add user", func() {
		if _, err := u.db.AddUserToProject(u.ctx(), u.user, u.project.ID, name.Text, role.Selected, group.Text, password.Text); err != nil {
			u.showError(err)
			return
		}
		refresh()
	})
	add.Importance = widget.HighImportance
	change := widget.NewButton("Set role and group", func() {
		if _, err := u.db.SetMemberRole(u.ctx(), u.user, u.project.ID, name.Text, role.Selected, group.Text); err != nil {
			u.showError(err)
			return
		}
		refresh()
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
