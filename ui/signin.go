package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
	"github.com/benchwright/benchwright/bench"
)

// signIn is the sign-in form, kept as a type so tests can reach its fields.
type signIn struct {
	where          *widget.RadioGroup // this workstation's file, or a team server
	server         *widget.Entry      // the team server's address
	name, password *widget.Entry
	button         *widget.Button
	message        *widget.Label
	hint           *widget.Label // the demo accounts, shown for this workstation's project only
}

// showSignIn shows the sign-in form. The demo accounts (u.demoHint) are named while
// "This workstation" is chosen: a team server has its own accounts.
func (u *App) showSignIn() {
	u.stopWatching()
	if u.fyne.Preferences().String(prefWhere) == "server" {
		u.showSignInForm()
		return
	}
	// A project file without accounts starts with its first lead's.
	local, ctx := u.local, u.ctx()
	load(u, "signin", func() (bool, error) { return local.HasUsers(ctx) }, func(has bool, err error) {
		u.localEmpty = err == nil && !has
		if u.localEmpty {
			u.showFirstLead()
			return
		}
		u.showSignInForm()
	})
}

// showSignInForm shows the sign-in form itself.
func (u *App) showSignInForm() {
	f := &signIn{name: widget.NewEntry(), password: widget.NewPasswordEntry(), message: widget.NewLabel(""), server: widget.NewEntry(),
		hint: widget.NewLabel(u.demoHint)}
	f.hint.Wrapping = fyne.TextWrapWord
	f.hint.Importance = widget.LowImportance
	f.name.SetPlaceHolder("user name")
	f.name.SetText(u.fyne.Preferences().String(prefLastUser))
	f.password.SetPlaceHolder("password")
	f.server.SetPlaceHolder("lab-server or lab-server:8443")
	f.server.SetText(u.fyne.Preferences().String(prefServer))
	f.message.Wrapping = fyne.TextWrapWord
	var fields *widget.Form // its labels grey with their disabled fields: refreshed on a change
	built := false
	f.where = widget.NewRadioGroup([]string{whereLocal, whereServer}, func(s string) {
		if s == whereLocal && built && u.localEmpty {
			// Back from "Join a team server instead…": this workstation's file
			// has no account to sign in with yet; its first start makes one.
			u.showFirstLead()
			return
		}
		defer func() {
			if fields != nil {
				fields.Refresh()
			}
		}()
		if s == whereServer {
			f.server.Enable()
			f.hint.Hide()
		} else {
			f.server.Disable()
			f.hint.Show()
		}
		if u.demoHint == "" {
			f.hint.Hide()
		}
	})
	f.where.Horizontal = true
	f.where.Required = true
	if u.fyne.Preferences().String(prefWhere) == "server" {
		f.where.SetSelected(whereServer)
	} else {
		f.where.SetSelected(whereLocal)
	}
	var submit func()
	submit = func() {
		f.message.SetText("")
		if f.where.Selected == whereServer {
			f.button.Disable()
			f.message.SetText("Connecting to " + f.server.Text + "…")
			u.fyne.Preferences().SetString(prefServer, f.server.Text)
			u.connect(f.server.Text, f.name.Text, f.password.Text, func(user bench.User, err error) {
				f.button.Enable()
				if err != nil {
					f.message.SetText(bench.Message(err))
					f.password.SetText("")
					return
				}
				u.fyne.Preferences().SetString(prefWhere, "server")
				u.signedIn(user)
			})
			return
		}
		u.useService(u.local)
		// Off the UI goroutine: the window stays alive, and says so, however long
		// the file takes (another program may hold it).
		f.button.Disable()
		f.message.SetText("Signing in…")
		db, ctx, name, password := u.db, u.ctx(), f.name.Text, f.password.Text
		load(u, "signin", func() (bench.User, error) { return db.Authenticate(ctx, name, password) }, func(user bench.User, err error) {
			f.button.Enable()
			if err != nil {
				f.message.SetText(bench.Message(err))
				f.password.SetText("")
				return
			}
			f.message.SetText("")
			u.fyne.Preferences().SetString(prefWhere, "local")
			u.signedIn(user)
		})
	}
	f.button = widget.NewButton("Sign in", func() { submit() })
	f.button.Importance = widget.HighImportance
	f.password.OnSubmitted = func(string) { submit() }
	f.name.OnSubmitted = func(string) { u.win.Canvas().Focus(f.password) }
	f.server.OnSubmitted = func(string) { u.win.Canvas().Focus(f.name) }
	title := widget.NewLabelWithStyle("Benchwright", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	sub := widget.NewLabelWithStyle("Hand-built spatial-reasoning benchmarks", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	fields = widget.NewForm(widget.NewFormItem("Project", f.where), widget.NewFormItem("Server", f.server),
		widget.NewFormItem("User", f.name), widget.NewFormItem("Password", f.password))
	form := container.NewVBox(title, sub, widget.NewSeparator(), fields, f.button, f.message, f.hint)
	box := container.NewGridWrap(fyne.NewSize(460, 440), form)
	u.win.SetContent(container.NewVBox(layout.NewSpacer(), container.NewCenter(box), layout.NewSpacer()))
	u.win.SetTitle("Benchwright — sign in")
	u.signInForm = f
	built = true
	if f.name.Text == "" {
		u.win.Canvas().Focus(f.name)
	} else {
		u.win.Canvas().Focus(f.password)
	}
}

// dialogError builds an error dialog whose text is the store's wording.
func dialogError(err error, w fyne.Window) dialog.Dialog {
	l := widget.NewLabel(bench.Message(err))
	l.Wrapping = fyne.TextWrapWord
	box := container.NewGridWrap(fyne.NewSize(420, 120), l)
	return dialog.NewCustom("Not done", "OK", box, w)
}

// showFirstLead creates the first account of a new database: a lead, who then adds
// everyone else.
func (u *App) showFirstLead() {
	name, pw, again := widget.NewEntry(), widget.NewPasswordEntry(), widget.NewPasswordEntry()
	pw.SetPlaceHolder(fmt.Sprintf("at least %d characters", bench.MinPasswordLen))
	msg := widget.NewLabel("")
	msg.Wrapping = fyne.TextWrapWord
	var create *widget.Button
	create = widget.NewButton("Create lead account", func() {
		if pw.Text != again.Text {
			msg.SetText("The two passwords differ.")
			return
		}
		create.Disable() // no second account from a double click
		msg.SetText("Creating the account…")
		db, ctx, n, p := u.db, u.ctx(), name.Text, pw.Text
		load(u, "", func() (bench.User, error) { return db.CreateFirstLead(ctx, n, p) }, func(lead bench.User, err error) {
			create.Enable()
			if err != nil {
				msg.SetText(bench.Message(err)) // what was typed stays
				return
			}
			u.localEmpty = false
			u.signedIn(lead)
		})
	})
	create.Importance = widget.HighImportance
	intro := widget.NewLabel("This database has no accounts yet. Create the first one: a lead, who adds annotators and verifiers.")
	intro.Wrapping = fyne.TextWrapWord
	form := container.NewVBox(widget.NewLabelWithStyle("Welcome to Benchwright", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		intro, widget.NewForm(widget.NewFormItem("Lead name", name), widget.NewFormItem("Password", pw),
			widget.NewFormItem("Repeat", again)), create, msg)
	// A team member's first start: their team's projects are on a server, not in
	// this new file.
	var join *widget.Button
	if u.servers != nil {
		join = widget.NewButton("Join a team server instead…", func() {
			u.firstLead = nil
			u.showSignInForm()
			u.signInForm.where.SetSelected(whereServer)
			u.win.Canvas().Focus(u.signInForm.server)
		})
		join.Importance = widget.LowImportance
		form.Add(join)
	}
	u.win.SetContent(container.NewCenter(container.NewGridWrap(fyne.NewSize(460, 400), form)))
	u.win.SetTitle("Benchwright — first start")
	u.firstLead = &firstLead{name, pw, again, create, msg, join}
}

// firstLead is the first-start form, kept for tests.
type firstLead struct {
	name, password, again *widget.Entry
	button                *widget.Button
	message               *widget.Label
	join                  *widget.Button // to a team server instead; nil without a Dialer
}
