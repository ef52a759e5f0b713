package ui

import (
	"fmt"
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/store"
)

// signIn is the sign-in form, kept as a type so tests can reach its fields.
type signIn struct {
	name, password *widget.Entry
	button         *widget.Button
	message        *widget.Label
}

func (u *App) showSignIn(hint string) {
	if has, err := u.db.HasUsers(u.ctx()); err == nil && !has {
		u.showFirstLead()
		return
	}
	f := &signIn{name: widget.NewEntry(), password: widget.NewPasswordEntry(), message: widget.NewLabel("")}
	f.name.SetPlaceHolder("user name")
	f.name.SetText(u.fyne.Preferences().String(prefLastUser))
	f.password.SetPlaceHolder("password")
	f.message.Wrapping = fyne.TextWrapWord
	submit := func() {
		user, err := u.db.Authenticate(u.ctx(), f.name.Text, f.password.Text)
		if err != nil {
			f.message.SetText(store.Message(err))
			f.password.SetText("")
			return
		}
		u.signedIn(user)
	}
	f.button = widget.NewButton("Sign in", submit)
	f.button.Importance = widget.HighImportance
	f.password.OnSubmitted = func(string) { submit() }
	f.name.OnSubmitted = func(string) { u.win.Canvas().Focus(f.password) }
	title := widget.NewLabelWithStyle("Benchwright", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	sub := widget.NewLabelWithStyle("Hand-built spatial-reasoning benchmarks", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	form := container.NewVBox(title, sub, widget.NewSeparator(),
		widget.NewForm(widget.NewFormItem("User", f.name), widget.NewFormItem("Password", f.password)),
		f.button, f.message)
	if hint != "" {
		h := widget.NewLabel(hint)
		h.Wrapping = fyne.TextWrapWord
		h.Importance = widget.LowImportance
		form.Add(h)
	}
	box := container.NewGridWrap(fyne.NewSize(420, 360), form)
	u.win.SetContent(container.NewVBox(layout.NewSpacer(), container.NewCenter(box), layout.NewSpacer()))
	u.win.SetTitle("Benchwright — sign in")
	u.signInForm = f
	if f.name.Text == "" {
		u.win.Canvas().Focus(f.name)
	} else {
		u.win.Canvas().Focus(f.password)
	}
}

// dialogError builds an error dialog whose text is the store's wording.
func dialogError(err error, w fyne.Window) dialog.Dialog {
	l := widget.NewLabel(store.Message(err))
	l.Wrapping = fyne.TextWrapWord
	box := container.NewGridWrap(fyne.NewSize(420, 120), l)
	return dialog.NewCustom("Not done", "OK", box, w)
}

// showFirstLead creates the first account of a new database: a lead, who then adds
// everyone else.
func (u *App) showFirstLead() {
	name, pw, again := widget.NewEntry(), widget.NewPasswordEntry(), widget.NewPasswordEntry()
	pw.SetPlaceHolder(fmt.Sprintf("at least %d characters", store.MinPasswordLen))
	msg := widget.NewLabel("")
	msg.Wrapping = fyne.TextWrapWord
	create := widget.NewButton("Create lead account", func() {
		if pw.Text != again.Text {
			msg.SetText("The two passwords differ.")
			return
		}
		lead, err := u.db.CreateFirstLead(u.ctx(), name.Text, pw.Text)
		if err != nil {
			msg.SetText(store.Message(err))
			return
		}
		u.signedIn(lead)
	})
	create.Importance = widget.HighImportance
	intro := widget.NewLabel("This database has no accounts yet. Create the first one: a lead, who adds annotators and verifiers.")
	intro.Wrapping = fyne.TextWrapWord
	form := container.NewVBox(widget.NewLabelWithStyle("Welcome to Benchwright", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		intro, widget.NewForm(widget.NewFormItem("Lead name", name), widget.NewFormItem("Password", pw),
			widget.NewFormItem("Repeat", again)), create, msg)
	u.win.SetContent(container.NewCenter(container.NewGridWrap(fyne.NewSize(460, 360), form)))
	u.win.SetTitle("Benchwright — first start")
	u.firstLead = &firstLead{name, pw, again, create, msg}
}

// firstLead is the first-start form, kept for tests.
type firstLead struct {
	name, password, again *widget.Entry
	button                *widget.Button
	message               *widget.Label
}
