package ui

import (
	"fmt"
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
)

// usersScreen lets a lead add users and change roles and groups. The store refuses
// these for anyone else, whatever the UI shows.
func (u *App) usersScreen() fyne.CanvasObject {
	users, err := u.db.Users(u.ctx())
	if err != nil {
		u.showError(err)
	}
	table := widget.NewTable(
		func() (int, int) { return len(users) + 1, 3 },
		func() fyne.CanvasObject { return widget.NewLabel("verifier-group") },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row == 0 {
				l.TextStyle.Bold = true
				l.SetText([]string{"Name", "Role", "Group"}[id.Col])
				return
			}
			l.TextStyle.Bold = false
			x := users[id.Row-1]
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
			x := users[id.Row-1]
			name.SetText(x.Name)
			role.SetSelected(x.Role)
			group.SetText(x.Group)
		}
	}
	refresh := func() {
		u.show(len(u.screens) - 1)
	}
	add := widget.NewButton("Add user", func() {
		if _, err := u.db.AddUser(u.ctx(), u.user, name.Text, role.Selected, group.Text, password.Text); err != nil {
			u.showError(err)
			return
		}
		refresh()
	})
	add.Importance = widget.HighImportance
	change := widget.NewButton("Set role and group", func() {
		if _, err := u.db.SetRole(u.ctx(), u.user, name.Text, role.Selected, group.Text); err != nil {
			u.showError(err)
			return
		}
		refresh()
	})
	form := widget.NewForm(widget.NewFormItem("Name", name), widget.NewFormItem("Role", role),
		widget.NewFormItem("Group", group), widget.NewFormItem("Password", password))
	help := widget.NewLabel("Round 2 needs a verifier from another group than round 1: give verifiers groups.")
	help.Wrapping = fyne.TextWrapWord
	side := container.NewVBox(heading("Add or change a user"), form, container.NewHBox(add, change), help)
	split := container.NewHSplit(table, side)
	split.Offset = 0.5
	return split
}
