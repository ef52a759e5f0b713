package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// showProjects is the project picker; leads can also create a project here. The
// list, with each project's image count, is read off the UI goroutine.
func (u *App) showProjects() {
	u.stopWatching() // no project is open
	// No project open: the role of the account itself (a lead of any project may create one).
	u.user = u.account
	type row struct {
		p      bench.Project
		images int
	}
	var rows []row
	list := widget.NewList(
		func() int { return len(rows) },
		func() fyne.CanvasObject { return widget.NewLabel("project name placeholder") },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(rows[i].p.Name + "  —  " + annotate.Plural(rows[i].images, "image"))
		},
	)
	list.OnSelected = func(i widget.ListItemID) { u.openProject(rows[i].p) }
	loading := widget.NewLabel("Loading projects…")
	sess, ctx := u.sess, u.ctx()
	load(u, "projects", func() ([]row, error) {
		ps, err := sess.Projects(ctx)
		if err != nil {
			return nil, err
		}
		rs := make([]row, len(ps))
		for i, p := range ps {
			n, _ := sess.CountImages(ctx, p.ID)
			rs[i] = row{p, n}
		}
		return rs, nil
	}, func(rs []row, err error) {
		loading.Hide()
		if err != nil {
			u.showError(err)
		}
		rows = rs
		list.Refresh()
	})
	name := widget.NewEntry()
	name.SetPlaceHolder("new project name")
	var create *widget.Button
	create = widget.NewButton("Create project", func() {
		create.Disable()
		title := name.Text
		load(u, "", func() (bench.Project, error) { return sess.CreateProject(ctx, title) }, func(p bench.Project, err error) {
			create.Enable()
			if err != nil {
				u.showError(err) // the name typed stays
				return
			}
			u.openProject(p)
		})
	})
	var bottom fyne.CanvasObject = widget.NewLabel("Only a lead creates projects.")
	if u.may(verify.ActionCreateProject) {
		bottom = container.NewBorder(nil, nil, nil, create, name)
	}
	head := widget.NewLabelWithStyle("Open a project — signed in as "+u.user.Name+" ("+u.user.Role+")",
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	u.win.SetTitle("Benchwright — projects")
	u.win.SetContent(container.NewPadded(container.NewBorder(head, bottom, nil, nil, container.NewStack(list, loading))))
}
