// Package ui is Benchwright's desktop interface, the only package that uses Fyne.
// Screens are thin: they call the store (which checks permissions) and the domain
// packages, and run slow work off the UI goroutine, reporting back through fyne.Do.
package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Preference keys.
const (
	prefWidth       = "window.width"
	firstWidth      = 1024 // the first window's size, before one is remembered
	firstHeight     = 700
	prefHeight      = "window.height"
	prefLastProject = "project.last"
	prefLastUser    = "user.last"
)

// App is one open main window on one database.
type App struct {
	fyne  fyne.App
	win   fyne.Window
	db    bench.Service // what is signed in to (a project file or team server): sign-in, sign-out and the connection use it; screens use sess
	local bench.Service // the project file the app was started on (sign-in offers it beside a team server)
	sess  bench.Session // db as the person signed in (signedIn makes it): every screen's calls act through it, none names them
	// demoHint names the demo accounts on the sign-in screen, every time it shows,
	// while the project file (not a team server) is chosen; "" for other files.
	demoHint string
	servers  bench.Dialer // team servers (SetDialer); nil: the sign-in offers only the local file's connection

	cacheDir        string                   // where team servers' images are cached: tests set a temporary folder; "" is remote's default, the user's cache
	trustDialog     dialog.Dialog            // the open "trust this server?" question, for tests
	stopWatch       func()                   // stops polling for others' changes
	onOthersChanged func()                   // the open screen's reload when someone else acted
	thumbWant       map[*canvas.Image]string // which thumbnail each grid cell waits for (team server)
	user            bench.User               // as a member of the open project: its Role and Group are the project's
	account         bench.User               // as signed in: the role of the account itself (the project list)
	project         bench.Project

	status  *widget.Label
	loads   loads // the screens' loads, and the status bar's busy mark (load.go)
	content *fyne.Container
	nav     *widget.List
	screens []screen

	signInForm *signIn             // the current sign-in form, for tests
	firstLead  *firstLead          // the first-start form, for tests
	localEmpty bool                // this workstation's file had no account at the last sign-in form
	lastImport *bench.ImportResult // the last finished import, for tests

	samplesQuery *bench.SampleQuery // the search the Samples screen opens with next (a link; samples.go)
	editSample   string             // the sample the Annotate screen opens next (samples.go)
	newSampleOn  string             // the image the Annotate screen offers a new sample on next (samples_links.go)
	newSampleOf  []string           // the images, in order, the Annotate screen offers a new sample of next (images.go)
}

// screen is one entry of the navigation bar.
type screen struct {
	title string
	make  func() fyne.CanvasObject
}

// New makes the main window for db. demoHint, when not empty, is shown on the
// sign-in screen (the demo accounts).
func New(a fyne.App, db bench.Service, demoHint string) *App {
	u := &App{fyne: a, db: db, local: db, demoHint: demoHint}
	u.win = a.NewWindow("Benchwright")
	// The first window fits the smallest screen the app supports (1024×700: a
	// larger one put the status bar and the right edge off such a screen, where
	// no window manager clamps it); its size is remembered when it closes.
	w := a.Preferences().FloatWithFallback(prefWidth, firstWidth)
	h := a.Preferences().FloatWithFallback(prefHeight, firstHeight)
	u.win.Resize(fyne.NewSize(float32(w), float32(h)))
	u.win.SetCloseIntercept(func() {
		s := u.win.Canvas().Size()
		a.Preferences().SetFloat(prefWidth, float64(s.Width))
		a.Preferences().SetFloat(prefHeight, float64(s.Height))
		u.win.Close()
	})
	u.status = widget.NewLabel("")
	// A long message must never widen the window past the screen: it is cut with
	// an ellipsis (the full text is in the audit log or the screen that said it).
	u.status.Truncation = fyne.TextTruncateEllipsis
	u.showSignIn()
	return u
}

// SetDialer lets the sign-in connect to team servers through d (main hands it
// package remote's).
func (u *App) SetDialer(d bench.Dialer) { u.servers = d }

// Window is the main window.
func (u *App) Window() fyne.Window { return u.win }

// ctx is the context of UI-started work. Screens do not store contexts; each action
// makes its own from this one.
func (u *App) ctx() context.Context { return context.Background() }

// showError shows a store or domain error in words.
func (u *App) showError(err error) {
	if err == nil {
		return
	}
	d := dialogError(err, u.win)
	d.Show()
}

// setStatus writes the status bar.
func (u *App) setStatus(format string, args ...any) {
	u.status.SetText(fmt.Sprintf(format, args...))
}

// signedIn is called after a successful sign-in: it makes the one Session the
// screens work with (its person is the account; the project's role in u.user
// is for the screens' offers; the store and server read a member's role
// themselves).
func (u *App) signedIn(user bench.User) {
	u.user, u.account = user, user
	u.sess = u.db.As(user)
	u.fyne.Preferences().SetString(prefLastUser, user.Name)
	// The last project opened on this workstation, if it is one of this person's
	// (looked for in their list: asking for another's would be a refusal).
	last := u.fyne.Preferences().String(prefLastProject)
	if last == "" {
		u.showProjects()
		return
	}
	sess, ctx := u.sess, u.ctx()
	load(u, "signin", func() ([]bench.Project, error) { return sess.Projects(ctx) }, func(ps []bench.Project, _ error) {
		if i := slices.IndexFunc(ps, func(p bench.Project) bool { return p.Name == last }); i >= 0 {
			u.openProject(ps[i])
			return
		}
		u.showProjects()
	})
}

// openProject shows the main shell on project p.
func (u *App) openProject(p bench.Project) {
	if p.Role == "" { // read without the user's membership (as the database's owner): read it as theirs
		sess, ctx := u.sess, u.ctx()
		load(u, "project", func() (bench.Project, error) { return sess.ProjectByName(ctx, p.Name) }, func(mine bench.Project, err error) {
			if err == nil {
				p = mine
			}
			u.showProject(p)
		})
		return
	}
	u.showProject(p)
}

// showProject shows the main shell on project p, read as the user's.
func (u *App) showProject(p bench.Project) {
	u.project = p
	if p.Role != "" { // roles are per project: the screens offer what this one allows
		u.user.Role, u.user.Group = p.Role, p.Group
	}
	u.fyne.Preferences().SetString(prefLastProject, p.Name)
	u.win.SetTitle("Benchwright — " + p.Name)
	// Each role sees the screens of its work and no others (verify.Offered): an
	// annotator no Verify, Export, Augment or Human baseline.
	u.screens = []screen{
		{"Images", u.imagesScreen},
		{"Annotate", u.annotateScreen},
	}
	if u.may(verify.ActionReview) {
		u.screens = append(u.screens, screen{"Verify", u.verifyScreen})
	}
	u.screens = append(u.screens, screen{"Dashboard", u.dashboardScreen})
	if u.offers(verify.ActionExport) {
		u.screens = append(u.screens, screen{"Export", u.exportScreen})
	}
	if u.offers(verify.ActionAugment) {
		u.screens = append(u.screens, u.augmentScreens()...)
	}
	u.screens = append(u.screens, u.validationScreens()...)
	if u.may(verify.ActionSearchSamples) {
		u.screens = append(u.screens, screen{"Samples", u.samplesScreen})
	}
	if u.may(verify.ActionSeeScores) {
		u.screens = append(u.screens, screen{"Evaluate", u.evaluateScreen})
	}
	if u.offers(verify.ActionAnswerHuman) {
		u.screens = append(u.screens, screen{"Human baseline", u.humanScreen})
	}
	if u.may(verify.ActionChangeSettings) {
		u.screens = append(u.screens, screen{"Settings", u.settingsScreen})
	}
	// Users stays last: its screen reloads itself as the last entry.
	if u.may(verify.ActionManageUsers) {
		u.screens = append(u.screens, screen{"Users", u.usersScreen})
	}
	u.content = container.NewStack()
	u.nav = widget.NewList(
		func() int { return len(u.screens) },
		func() fyne.CanvasObject { return widget.NewLabel("Dashboard----") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(u.screens[i].title) },
	)
	u.nav.OnSelected = func(i widget.ListItemID) { u.show(i) }
	projects := widget.NewButton("Projects…", u.showProjects)
	signOut := widget.NewButton("Sign out", func() {
		db := u.db
		go db.SignOut(context.Background()) // a team server revokes the session
		// No one's Session: a late call of a screen left behind is refused.
		u.user, u.sess = bench.User{}, u.db.As(bench.User{})
		u.showSignIn()
	})
	name := widget.NewLabelWithStyle(p.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.Truncation = fyne.TextTruncateEllipsis // a long name (up to 80 characters) widened every screen; the title bar has it whole
	left := container.NewBorder(name,
		container.NewVBox(projects, signOut), nil, nil, u.nav)
	split := container.NewHSplit(left, u.content)
	split.Offset = 0.14
	u.win.SetContent(container.NewBorder(nil, container.NewVBox(widget.NewSeparator(),
		container.NewBorder(nil, nil, nil, u.busyMark(), u.status)), nil, nil, split))
	u.nav.Select(0) // shows the first screen and the status line
	u.watchChanges()
}

// show switches the content area to screen i.
func (u *App) show(i int) {
	if i < 0 || i >= len(u.screens) {
		return
	}
	u.onOthersChanged = nil // the new screen says how it follows others' work
	u.content.Objects = []fyne.CanvasObject{u.screens[i].make()}
	u.content.Refresh()
	u.refreshStatus() // a hint of the screen left behind is stale here
}

// refreshStatus writes who is signed in and the project's counts.
func (u *App) refreshStatus() {
	type status struct {
		counts map[verify.State]int
		images int
		where  string
	}
	sess, ctx, user, project, server, at := u.sess, u.ctx(), u.user, u.project, u.onServer(), u.where()
	load(u, "status", func() (status, error) {
		counts, err := sess.StatusCounts(ctx, project.ID)
		if err != nil {
			return status{}, err
		}
		n, _ := sess.CountImages(ctx, project.ID)
		where := ""
		if server {
			where = "  ·  on " + strings.TrimPrefix(at, "https://")
		}
		return status{counts, n, where}, nil
	}, func(s status, err error) {
		if u.project.ID != project.ID || u.user.ID != user.ID {
			return // signed out or another project opened meanwhile
		}
		if err != nil {
			u.setStatus("%s", bench.Message(err))
			return
		}
		u.showStatus(user, project, s.counts, s.images, s.where)
	})
}

// showStatus writes the status bar from what refreshStatus read.
func (u *App) showStatus(user bench.User, project bench.Project, counts map[verify.State]int, n int, where string) {
	total, review := 0, 0
	for _, s := range verify.States {
		total += counts[s]
		if s.Round() > 0 { // in one of the review rounds
			review += counts[s]
		}
	}
	// Every state is named, so that the parts add up to the total (issue 27 item 15).
	u.setStatus("%s (%s)  ·  %s%s  ·  %d images  ·  %d samples: %d draft, %d in review, %d accepted, %d returned, %d withdrawn",
		user.Name, user.Role, project.Name, where, n, total, counts[verify.StateDraft], review,
		counts[verify.StateAccepted], counts[verify.StateReturned], counts[verify.StateWithdrawn])
}

// lastChange is the project's change counter (Service.LastChange) of what is
// signed in to: taken on the UI goroutine, called off it (a screen asking
// whether the team server answers again).
func (u *App) lastChange() func(context.Context) (int64, error) { return u.db.LastChange }

// filesDir is the folder of the project file's own files, "" when what is
// signed in to has none (a team server).
func (u *App) filesDir() string {
	if file, ok := u.db.(interface{ FilesDir() string }); ok {
		return file.FilesDir()
	}
	return ""
}

// where names the project's file or server, without asking it (Service.Where).
func (u *App) where() string { return u.db.Where() }

// useService switches the app to svc (a team server's client, or back to the
// local file), closing a previous server connection. The sign-in that follows
// makes the screens' Session of it.
func (u *App) useService(svc bench.Service) {
	if old, ok := u.db.(bench.Connection); ok && old != svc {
		go old.Close()
	}
	u.db, u.sess = svc, svc.As(bench.User{}) // no one's until the sign-in
	previews.clear()
}
