package ui

import (
	"github.com/benchwright/benchwright/verify"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// showProjects is the project picker; leads can also create a project here.
func (u *App) showProjects() {
	u.stopWatching() // no project is open
	// No project open: the role of the account itself (a lead of any project may create one).
	u.user = u.account
	projects, err := u.db.Projects(u.ctx(), u.user)
	if err != nil {
		u.showError(err)
	}
	list := widget.NewList(
		func() int { return len(projects) },
		func() fyne.CanvasObject { return widget.NewLabel("project name placeholder") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			n, _ := u.db.CountImages(u.ctx(), u.user, projects[i].ID)
			o.(*widget.Label).SetText(projects[i].Name + "  —  " + plural(n, "image"))
		},
	)
	list.OnSelected = func(i widget.ListItemID) { u.openProject(projects[i]) }
	name := widget.NewEntry()
	name.SetPlaceHolder("new project name")
	create := widget.NewButton("Create project", func() {
		p, err := u.db.CreateProject(u.ctx(), u.user, name.Text)
		if err != nil {
			u.showError(err)
			return
		}
		u.openProject(p)
	})
	var bottom fyne.CanvasObject = widget.NewLabel("Only a lead creates projects.")
	if u.may(verify.ActionCreateProject) {
		bottom = container.NewBorder(nil, nil, nil, create, name)
	}
	head := widget.NewLabelWithStyle("Open a project — signed in as "+u.user.Name+" ("+u.user.Role+")",
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	u.win.SetTitle("Benchwright — projects")
	u.win.SetContent(container.NewPadded(container.NewBorder(head, bottom, nil, nil, list)))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
