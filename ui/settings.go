package ui

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// settingsScreen is the lead's Settings screen (see settingsView).
func (u *App) settingsScreen() fyne.CanvasObject { return newSettingsView(u) }

// historyZone is the time zone of the Recent changes list (tests fix it).
var historyZone = time.Local

// recentChanges is how many settings events the Recent changes list shows.
const recentChanges = 50

// settingField is one settings key as the form shows it: its label, how to read
// and write its widget's value (in the text form of bench.Settings.Values) and the
// label that shows the store's refusal of it.
type settingField struct {
	key   string
	label string // what the form calls it, for the refusal's sentence
	get   func() string
	set   func(string)
	err   *widget.Label
}

// balanceRow is a balance target outside the hop-QA grid: another kind, a task, or
// a hop-QA cell of any hop or view.
type balanceRow struct {
	field   *settingField
	count   *widget.Entry
	row     fyne.CanvasObject
	removed bool // Remove was tapped: Save sends 0
}

// settingsView is the Settings screen: a form over the project's settings in the
// text form of bench.Settings.Values, and the verifiers' groups. Save sends the keys
// whose values changed to store.SetSettings in one call, which validates all of
// them (nothing changes unless every value is valid) and audits each change; its
// refusal is shown beside the fields it names. Group changes go as group.NAME keys.
// The screen knows no rule of its own: what a value may be is the store's to say.
type settingsView struct {
	widget.BaseWidget
	u    *App
	root fyne.CanvasObject

	orig   map[string]string // the stored values by key
	fields []*settingField   // every key the form shows, in display order
	users  []bench.User      // the verifiers, whose groups the form shows
	groups map[string]*widget.Entry
	gerrs  map[string]*widget.Label
	filled bool // the widgets hold the stored values; OnChanged may count changes

	// The form, rebuilt by load.
	body         *fyne.Container
	scroll       *container.Scroll
	rounds       *widget.RadioGroup
	panel        *widget.Entry
	otherGroup   *widget.Check
	allowEarlier *widget.Check
	toRound1     *widget.Check
	claim        *widget.Entry
	tasks        *widget.Entry
	cells        map[string]*widget.Entry // the hop-QA grid by key
	allCells     *widget.Entry
	setAll       *widget.Button
	extra        []*balanceRow
	extraBox     *fyne.Container
	addKind      *widget.Select
	addTask      *widget.Entry
	addCount     *widget.Entry
	addButton    *widget.Button // adds the target the add row describes
	addOpen      *widget.Button // shows the add row
	addRow       *fyne.Container
	history      *fyne.Container

	// Scoring and image counts (ui/settings_scoring.go).
	keyRows                 []*keyRow
	weightBox, limitBox     *fyne.Container
	weightTask, weightValue *widget.Entry
	limitTask, limitValue   *widget.Entry
	limitKind               *widget.Select
	addWeight, addLimit     *widget.Button

	// The bar above the form, kept across loads.
	save, revert *widget.Button
	dirty        *widget.Label // the unsaved changes
	message      *widget.Label // the last save's outcome or refusal
}

// newSettingsView makes the screen and loads it.
func newSettingsView(u *App) *settingsView {
	v := &settingsView{u: u}
	v.ExtendBaseWidget(v)
	v.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), v.saveChanges)
	v.save.Importance = widget.HighImportance
	v.revert = widget.NewButtonWithIcon("Revert", theme.ContentUndoIcon(), func() {
		v.message.Hide()
		v.load()
	})
	v.dirty = widget.NewLabel("")
	v.dirty.Importance = widget.WarningImportance
	v.message = widget.NewLabel("")
	v.message.Wrapping = fyne.TextWrapWord
	v.message.Hide()
	v.body = container.NewStack()
	bar := container.NewBorder(nil, nil, heading("Project settings"), container.NewHBox(v.dirty, v.revert, v.save))
	v.root = container.NewBorder(container.NewVBox(bar, v.message), nil, nil, nil, v.body)
	v.load()
	return v
}

// CreateRenderer is part of fyne.Widget.
func (v *settingsView) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(v.root) }

// settingsRead is what the Settings screen reads of the project: the project
// with its settings, its members (err: why not) and its history (err: why not).
type settingsRead struct {
	project    bench.Project
	members    []bench.User
	membersErr error
	events     []bench.Event
	eventsErr  error
}

// load reads the project's settings, the verifiers and the project's history off
// the UI goroutine and rebuilds the form from them, keeping the scroll position.
func (v *settingsView) load() {
	sess, ctx, user, name := v.u.sess, v.u.ctx(), v.u.user, v.u.project.Name
	v.filled = false
	v.save.Disable()
	v.revert.Disable()
	load(v.u, "settings", func() (settingsRead, error) {
		p, err := sess.ProjectByName(ctx, name)
		if err != nil {
			return settingsRead{}, err
		}
		r := settingsRead{project: p}
		user.Role, user.Group = p.Role, p.Group
		r.members, r.membersErr = sess.Members(ctx, p.ID) // groups are the project's memberships'
		r.events, r.eventsErr = sess.ProjectHistory(ctx, p.ID)
		return r, nil
	}, v.fill)
}

// fill rebuilds the form from what load read.
func (v *settingsView) fill(r settingsRead, err error) {
	offset := fyne.Position{}
	if v.scroll != nil {
		offset = v.scroll.Offset
	}
	p := r.project
	if err != nil {
		v.body.Objects = []fyne.CanvasObject{container.NewCenter(widget.NewLabel(bench.Message(err)))}
		v.body.Refresh()
		v.update()
		return
	}
	v.u.project = p
	v.u.user.Role, v.u.user.Group = p.Role, p.Group
	if r.membersErr != nil {
		v.showMessage(bench.Message(r.membersErr), widget.DangerImportance)
	}
	v.users = slices.DeleteFunc(r.members, func(x bench.User) bool { return !verify.Permitted(verify.ActionReview, verify.Role(x.Role)) })

	v.orig = map[string]string{}
	help := map[string]string{}
	for _, s := range p.Settings.Values() {
		v.orig[s.Key], help[s.Key] = s.Value, s.Help
	}
	v.fields = nil
	v.extra = nil
	v.keyRows = nil

	left := container.NewVBox(v.verificationSection(help), widget.NewSeparator(), v.balanceSection())
	v.scroll = container.NewVScroll(container.NewPadded(left))
	v.scroll.Offset = offset
	right := container.NewVScroll(container.NewPadded(container.NewVBox(
		v.tasksSection(help), widget.NewSeparator(),
		v.scoringSection(help), widget.NewSeparator(),
		heading("Verifier groups"), v.groupsSection(), widget.NewSeparator(),
		heading("Recent changes"), v.historySection(r.events, r.eventsErr))))
	split := container.NewHSplit(v.scroll, right)
	split.Offset = 0.6
	v.body.Objects = []fyne.CanvasObject{split}
	v.body.Refresh()
	v.filled = true
	v.update()
}

// add registers a field of the form.
func (v *settingsView) add(key, label string, get func() string, set func(string)) *settingField {
	f := &settingField{key: key, label: label, get: get, set: set, err: errorLabel()}
	v.fields = append(v.fields, f)
	if old, ok := v.orig[key]; ok {
		set(old)
	}
	return f
}

// field finds the field of key.
func (v *settingsView) field(key string) *settingField {
	for _, f := range v.fields {
		if f.key == key {
			return f
		}
	}
	return nil
}

// errorLabel is a hidden label for the store's refusal of a field.
func errorLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.DangerImportance
	l.Hide()
	return l
}

// note is a caption-sized, low-importance line of help.
func note(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.LowImportance
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// narrow gives a small number's entry a width that fits it.
func narrow(e *widget.Entry) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(110, e.MinSize().Height), e)
}

// changed is every widget's OnChanged: it counts the unsaved changes.
func (v *settingsView) changed() {
	if v.filled {
		v.update()
	}
}

// newEntry is an entry whose edits count as changes.
func (v *settingsView) newEntry() *widget.Entry {
	e := widget.NewEntry()
	e.OnChanged = func(string) { v.changed() }
	return e
}

// newCheck is a check whose clicks count as changes.
func (v *settingsView) newCheck(text string) *widget.Check {
	return widget.NewCheck(text, func(bool) { v.changed() })
}

// entryField registers an entry as the field of key.
func (v *settingsView) entryField(key, label string, e *widget.Entry) *settingField {
	return v.add(key, label, func() string { return e.Text }, e.SetText)
}

// checkField registers a check as the field of a true/false key.
func (v *settingsView) checkField(key, label string, c *widget.Check) *settingField {
	return v.add(key, label, func() string { return strconv.FormatBool(c.Checked) },
		func(s string) { c.SetChecked(s == "true") })
}

// verificationSection is the form of the verification policy: rounds, the round-3
// panel, who may review, corrections and claims.
func (v *settingsView) verificationSection(help map[string]string) fyne.CanvasObject {
	v.rounds = widget.NewRadioGroup([]string{"3", "2"}, func(string) { v.changed() })
	v.rounds.Horizontal = true
	v.rounds.Required = true
	if cur := v.orig["rounds"]; cur != "" && !slices.Contains(v.rounds.Options, cur) {
		v.rounds.Options = append(v.rounds.Options, cur)
	}
	rounds := v.add("rounds", "Review rounds", func() string { return v.rounds.Selected }, v.rounds.SetSelected)
	v.panel = v.newEntry()
	panel := v.entryField("round3_panel", "Round-3 panel", v.panel)
	v.otherGroup = v.newCheck("Round 2 by a verifier from another group than round 1's")
	other := v.checkField("round2_other_group", "Round 2 from another group", v.otherGroup)
	v.allowEarlier = v.newCheck("Round-1 and round-2 verifiers may sit on the round-3 panel")
	earlier := v.checkField("round3_allow_earlier", "Earlier verifiers on the panel", v.allowEarlier)
	v.toRound1 = v.newCheck("A verifier's correction re-enters round 1")
	toRound1 := v.checkField("correction_to_round1", "Correction re-enters round 1", v.toRound1)
	v.claim = v.newEntry()
	claim := v.entryField("claim_minutes", "Claim minutes", v.claim)

	// The store's help for a key stands beside its widget, its refusal below.
	item := func(f *settingField, w fyne.CanvasObject) *widget.FormItem {
		return widget.NewFormItem(f.label, tightVBox(container.NewBorder(nil, nil, w, nil, note(help[f.key])), f.err))
	}
	checks := tightVBox(v.otherGroup, other.err, v.allowEarlier, earlier.err, v.toRound1, toRound1.err)
	form := widget.NewForm(
		item(rounds, v.rounds),
		item(panel, narrow(v.panel)),
		widget.NewFormItem("Reviewers", checks),
		item(claim, narrow(v.claim)),
	)
	return container.NewVBox(heading("Verification"), form)
}

// hopViews are the columns of the hop-QA grid.
var hopViews = []annotate.View{annotate.ViewEgo, annotate.ViewExo}

// hopRows is the number of rows of the hop-QA grid (1-hop to 3-hop, as the
// dashboard's balance grid shows them).
const hopRows = 3

// balanceSection is the hop-QA grid (hop 1–3 × ego/exo) with its Set all, and the
// other targets with Add a target….
func (v *settingsView) balanceSection() fyne.CanvasObject {
	grid := container.NewGridWithColumns(len(hopViews)+1, widget.NewLabel(""))
	for _, view := range hopViews {
		grid.Add(widget.NewLabelWithStyle(string(view), fyne.TextAlignCenter, fyne.TextStyle{Bold: true}))
	}
	var errs []fyne.CanvasObject
	v.cells = map[string]*widget.Entry{}
	for hop := 1; hop <= hopRows; hop++ {
		grid.Add(widget.NewLabel(fmt.Sprintf("%d-hop", hop)))
		for _, view := range hopViews {
			key := bench.BalanceTarget{Kind: string(annotate.KindHopQA), Hop: hop, View: string(view)}.Key()
			e := v.newEntry()
			e.SetPlaceHolder("no target")
			v.cells[key] = e
			f := v.entryField(key, fmt.Sprintf("Hop QA %d-hop %s", hop, view), e)
			grid.Add(e)
			errs = append(errs, f.err)
		}
	}
	v.allCells = widget.NewEntry()
	v.allCells.SetPlaceHolder("N")
	v.setAll = widget.NewButton("Set all", func() {
		for _, e := range v.cells {
			e.SetText(strings.TrimSpace(v.allCells.Text))
		}
	})
	setAll := container.NewHBox(widget.NewLabel("Set every hop-QA cell to"),
		container.NewGridWrap(fyne.NewSize(90, v.allCells.MinSize().Height), v.allCells), v.setAll)

	v.extraBox = container.NewVBox()
	for _, s := range v.orderedKeys() {
		if strings.HasPrefix(s, "balance.") && v.cells[s] == nil {
			v.addExtra(s, v.orig[s])
		}
	}
	v.addKind = widget.NewSelect(kindNames(), nil)
	v.addKind.PlaceHolder = "kind"
	v.addTask = widget.NewEntry()
	v.addTask.SetPlaceHolder("task (optional)")
	v.addCount = widget.NewEntry()
	v.addCount.SetPlaceHolder("target")
	v.addButton = widget.NewButtonWithIcon("Add", theme.ConfirmIcon(), v.addTarget)
	cancel := widget.NewButtonWithIcon("", theme.CancelIcon(), func() {
		v.addRow.Hide()
		v.addOpen.Enable()
		v.relayout()
	})
	v.addRow = container.NewBorder(nil, nil, nil, container.NewHBox(v.addButton, cancel),
		container.NewGridWithColumns(3, v.addKind, v.addTask, v.addCount))
	v.addRow.Hide()
	v.addOpen = widget.NewButtonWithIcon("Add a target…", theme.ContentAddIcon(), func() {
		v.addRow.Show()
		v.addOpen.Disable()
		v.relayout()
	})
	v.addOpen.Importance = widget.LowImportance

	intro := note("accepted samples each cell should reach; an empty cell has no target")
	return container.NewVBox(container.NewBorder(nil, nil, heading("Balance targets"), nil, intro),
		grid, tightVBox(errs...), setAll,
		container.NewBorder(nil, nil, widget.NewLabelWithStyle("Other kinds and tasks", fyne.TextAlignLeading, fyne.TextStyle{Italic: true}), v.addOpen),
		v.extraBox, v.addRow)
}

// orderedKeys are the stored keys in Values' order.
func (v *settingsView) orderedKeys() []string {
	keys := make([]string, 0, len(v.orig))
	for _, s := range v.u.project.Settings.Values() {
		keys = append(keys, s.Key)
	}
	return keys
}

// kindNames are the sample kinds a new target may name.
func kindNames() []string {
	out := make([]string, len(annotate.Kinds))
	for i, k := range annotate.Kinds {
		out[i] = string(k)
	}
	return out
}

// addExtra adds a row for the balance target key outside the grid.
func (v *settingsView) addExtra(key, value string) *balanceRow {
	r := &balanceRow{count: v.newEntry()}
	r.count.SetPlaceHolder("no target")
	r.field = &settingField{key: key, label: "Target of " + strings.TrimPrefix(key, "balance."), err: errorLabel(),
		get: func() string {
			if r.removed {
				return "0"
			}
			return r.count.Text
		},
		set: r.count.SetText}
	r.count.SetText(value)
	v.fields = append(v.fields, r.field)
	v.extra = append(v.extra, r)
	name := widget.NewLabel(strings.TrimPrefix(key, "balance."))
	name.Truncation = fyne.TextTruncateEllipsis
	remove := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		r.removed = true
		v.extraBox.Remove(r.row)
		v.changed()
	})
	r.row = tightVBox(container.NewBorder(nil, nil, nil, remove, container.NewGridWithColumns(2, name, r.count)), r.field.err)
	v.extraBox.Add(r.row)
	return r
}

// addTarget adds the target the add row describes, or sets it when it is shown
// already; nothing is stored before Save.
func (v *settingsView) addTarget() {
	if v.addKind.Selected == "" {
		v.showMessage("Choose a kind for the new target.", widget.DangerImportance)
		return
	}
	key := bench.BalanceTarget{Kind: v.addKind.Selected, Task: strings.TrimSpace(v.addTask.Text)}.Key()
	count := strings.TrimSpace(v.addCount.Text)
	if f := v.field(key); f != nil {
		for _, r := range v.extra {
			if r.field == f && r.removed {
				r.removed = false
				v.extraBox.Add(r.row)
			}
		}
		f.set(count)
	} else {
		v.addExtra(key, count)
	}
	v.addKind.ClearSelected()
	v.addTask.SetText("")
	v.addCount.SetText("")
	v.addRow.Hide()
	v.addOpen.Enable()
	v.changed()
}

// tasksSection is the project's task labels, comma-separated.
func (v *settingsView) tasksSection(help map[string]string) fyne.CanvasObject {
	v.tasks = v.newEntry()
	v.tasks.SetPlaceHolder("T0, T1, T2 …")
	f := v.entryField("tasks", "Task labels", v.tasks)
	return container.NewVBox(heading("Task labels"), v.tasks, f.err, note(help["tasks"]))
}

// groupsSection is an entry for each verifier's group.
func (v *settingsView) groupsSection() fyne.CanvasObject {
	v.groups, v.gerrs = map[string]*widget.Entry{}, map[string]*widget.Label{}
	if len(v.users) == 0 {
		return note("There are no verifiers yet; add them under Users.")
	}
	rows := container.NewVBox(note("Each verifier's group; their role stays as it is."))
	for _, x := range v.users {
		e := v.newEntry()
		e.SetText(x.Group)
		e.SetPlaceHolder("no group")
		v.groups[x.Name] = e
		v.gerrs[x.Name] = errorLabel()
		name := widget.NewLabel(x.Name)
		name.Truncation = fyne.TextTruncateEllipsis
		rows.Add(tightVBox(container.NewGridWithColumns(2, name, e), v.gerrs[x.Name]))
	}
	return rows
}

// historySection lists the project's settings changes and refused attempts, newest
// first.
func (v *settingsView) historySection(events []bench.Event, err error) fyne.CanvasObject {
	v.history = container.NewVBox()
	if err != nil {
		v.history.Add(reviewText(bench.Message(err), fyne.TextStyle{Italic: true}))
		return v.history
	}
	events = slices.DeleteFunc(events, func(e bench.Event) bool {
		return e.Action != string(verify.ActionChangeSettings) && e.Action != "denied:"+string(verify.ActionChangeSettings)
	})
	slices.Reverse(events)
	if len(events) == 0 {
		v.history.Add(note("No setting has been changed yet."))
		return v.history
	}
	for _, e := range events[:min(len(events), recentChanges)] {
		at := e.At
		if t, err := time.Parse(time.RFC3339Nano, e.At); err == nil {
			at = t.In(historyZone).Format("2006-01-02 15:04")
		}
		what := bench.SettingChangeWords(e.Detail) // "lrr_weight.TASK: 1 → 2" read as a sentence
		if e.Action != string(verify.ActionChangeSettings) {
			what = "refused: " + e.Detail
		}
		line := reviewText(fmt.Sprintf("%s  ·  %s  ·  %s", at, e.Actor, what), fyne.TextStyle{})
		line.SizeName = theme.SizeNameCaptionText
		v.history.Add(line)
	}
	return v.history
}

// sameValue reports whether a field's text equals its stored value; a balance
// target that is empty, 0 or absent is no target.
func sameValue(key, stored, cur string) bool {
	stored, cur = strings.TrimSpace(stored), strings.TrimSpace(cur)
	if strings.HasPrefix(key, "balance.") {
		if stored == "" {
			stored = "0"
		}
		if cur == "" {
			cur = "0"
		}
	}
	return stored == cur
}

// changes are the settings whose field differs from the stored value: key → new
// value as the store reads it.
func (v *settingsView) changes() map[string]string {
	out := map[string]string{}
	for _, f := range v.fields {
		cur := f.get()
		if !sameValue(f.key, v.orig[f.key], cur) {
			if strings.HasPrefix(f.key, "balance.") && strings.TrimSpace(cur) == "" {
				cur = "0"
			}
			out[f.key] = cur
		}
	}
	return out
}

// groupChanges are the verifiers whose group entry differs from their group.
func (v *settingsView) groupChanges() []bench.User {
	var out []bench.User
	for _, x := range v.users {
		if e := v.groups[x.Name]; e != nil && strings.TrimSpace(e.Text) != x.Group {
			x.Group = strings.TrimSpace(e.Text)
			out = append(out, x)
		}
	}
	return out
}

// update shows how many changes are unsaved and enables Save and Revert.
func (v *settingsView) update() {
	defer v.relayout()
	v.round3Options()
	n := len(v.changes()) + len(v.groupChanges())
	if n == 0 {
		v.dirty.SetText("")
		v.dirty.Hide()
		v.save.Disable()
		v.revert.Disable()
		return
	}
	v.dirty.SetText(fmt.Sprintf("%s not saved", annotate.Plural(n, "change")))
	v.dirty.Show()
	v.save.Enable()
	v.revert.Enable()
}

// round3Options enables the round-3 panel's options only when the rounds chosen
// have a round 3 (verify.Policy.Final: with 2 rounds, round 2 is the last).
func (v *settingsView) round3Options() {
	if v.rounds == nil || v.panel == nil || v.allowEarlier == nil {
		return
	}
	r, err := strconv.Atoi(v.rounds.Selected)
	if err == nil && (verify.Policy{Rounds: r}).Final(2) {
		v.panel.Disable()
		v.allowEarlier.Disable()
		return
	}
	v.panel.Enable()
	v.allowEarlier.Enable()
}

// relayout fits the screen to labels shown, hidden or changed in length.
func (v *settingsView) relayout() {
	if c, ok := v.root.(*fyne.Container); ok {
		c.Refresh()
	}
}

// showMessage writes the line under the bar.
func (v *settingsView) showMessage(text string, imp widget.Importance) {
	v.message.SetText(text)
	v.message.Importance = imp
	v.message.Show()
	v.relayout()
}

// clearErrors hides every refusal shown.
func (v *settingsView) clearErrors() {
	for _, f := range v.fields {
		f.err.Hide()
	}
	for _, l := range v.gerrs {
		l.Hide()
	}
	v.message.Hide()
}

// saveChanges sends the changed settings and groups (as group.NAME keys) in one
// call: the store changes all of them or none. A refusal leaves the form as it
// is, with the store's sentences beside the fields they name.
func (v *settingsView) saveChanges() {
	ctx := v.u.ctx()
	v.clearErrors()
	values := v.changes()
	for _, x := range v.groupChanges() {
		values["group."+x.Name] = x.Group
	}
	if len(values) == 0 {
		v.u.setStatus("Nothing changed: the values are the stored ones.")
		return
	}
	sess, projectID := v.u.sess, v.u.project.ID
	v.save.Disable() // no second save while this one runs; the form stays as typed
	v.showMessage("Saving…", widget.LowImportance)
	load(v.u, "", func() ([]bench.SettingChange, error) { return sess.SetSettings(ctx, projectID, values) },
		func(changes []bench.SettingChange, err error) {
			v.message.Hide()
			if err != nil {
				v.save.Enable()
				v.showRefusal(err)
				return
			}
			v.saved(changes)
		})
}

// saved reads the form again after a save and says what changed.
func (v *settingsView) saved(changes []bench.SettingChange) {
	var done []string
	for _, c := range changes {
		done = append(done, c.Words())
	}
	v.load()
	switch {
	case len(done) == 0:
		v.u.setStatus("Nothing changed: the values are the stored ones.")
	case len(done) == 1:
		v.u.setStatus("Saved the settings of %s: %s.", v.u.project.Name, done[0])
	default:
		v.u.setStatus("Saved %d changes to the settings of %s (listed under Recent changes).", len(done), v.u.project.Name)
	}
}

// showRefusal shows why the store saved nothing: each value refused
// (bench.SettingsError, whose fields cross a team server too) goes beside its
// field as a sentence naming the field by its label; the bar says what was
// refused, and whatever names no field of the form.
func (v *settingsView) showRefusal(err error) {
	var se *bench.SettingsError
	if !errors.As(err, &se) {
		v.showMessage("Nothing was saved. "+bench.Message(err), widget.DangerImportance)
		return
	}
	var unplaced []string
	placed := 0
	for _, fe := range se.Fields {
		l, label := v.errorLabelOf(fe.Key)
		if l == nil { // a key the form does not show: in the bar, named for people
			line := fe.Message + "."
			if fe.Key != "" {
				line = fieldSentence(bench.SettingLabel(fe.Key), fe.Message)
			}
			unplaced = append(unplaced, strings.ToUpper(line[:1])+line[1:])
			continue
		}
		sentence := fieldSentence(label, fe.Message)
		if l.Visible() {
			sentence = l.Text + "\n" + sentence
		}
		l.SetText(sentence)
		l.Show()
		placed++
	}
	text := fmt.Sprintf("Nothing was saved: %s to fix, shown beside %s.", annotate.Plural(placed, "value"), map[bool]string{true: "it", false: "them"}[placed == 1])
	if len(unplaced) > 0 {
		text = "Nothing was saved. " + strings.Join(unplaced, "\n")
	}
	v.showMessage(text, widget.DangerImportance)
}

// errorLabelOf is the label beside the field of key, and what the form calls
// that field; nil when the form shows no such field.
func (v *settingsView) errorLabelOf(key string) (*widget.Label, string) {
	if name, ok := strings.CutPrefix(key, "group."); ok {
		if l := v.gerrs[name]; l != nil {
			return l, "Group of " + name
		}
		return nil, ""
	}
	if f := v.field(key); f != nil {
		return f.err, f.label
	}
	return nil, ""
}

// fieldSentence is a field's refusal as a sentence: "Claim minutes: must be a
// whole number, got "abc"."
func fieldSentence(label, message string) string {
	return label + ": " + strings.TrimSuffix(message, ".") + "."
}
