package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The Settings screen's scoring and image-count section: the task weights of
// lrr_score (lrr_weight.TASK) and the allowed number of images per kind and/or
// task (images.KIND[.TASK]). Like every field, each row is a key in the text form
// of bench.Settings.Values; an empty value removes the key, and the store says
// what a value may be.

// keyRow is a removable row of one lrr_weight.* or images.* key.
type keyRow struct {
	field   *settingField
	value   *widget.Entry
	row     fyne.CanvasObject
	removed bool // Remove was tapped: Save sends ""
}

// scoringSection lists the stored weights and limits with an add row for each.
func (v *settingsView) scoringSection(help map[string]string) fyne.CanvasObject {
	v.weightBox, v.limitBox = container.NewVBox(), container.NewVBox()
	for _, k := range v.orderedKeys() {
		switch {
		case strings.HasPrefix(k, "lrr_weight."):
			v.addKeyRow(v.weightBox, k, v.orig[k], "LRR weight of task "+strings.TrimPrefix(k, "lrr_weight."))
		case strings.HasPrefix(k, "images."):
			v.addKeyRow(v.limitBox, k, v.orig[k], "Images of "+strings.TrimPrefix(k, "images."))
		}
	}
	v.weightTask, v.weightValue = widget.NewEntry(), widget.NewEntry()
	v.weightTask.SetPlaceHolder("task")
	v.weightValue.SetPlaceHolder("weight")
	addWeight := widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), func() {
		task := strings.TrimSpace(v.weightTask.Text)
		if task == "" {
			v.showMessage("Name the task whose weight you set.", widget.DangerImportance)
			return
		}
		v.setKey(v.weightBox, "lrr_weight."+task, strings.TrimSpace(v.weightValue.Text), "LRR weight of task "+task)
		v.weightTask.SetText("")
		v.weightValue.SetText("")
	})
	v.addWeight = addWeight

	v.limitKind = widget.NewSelect(append([]string{"any"}, kindNames()...), nil)
	v.limitKind.PlaceHolder = "kind"
	v.limitTask, v.limitValue = widget.NewEntry(), widget.NewEntry()
	v.limitTask.SetPlaceHolder("task")
	v.limitValue.SetPlaceHolder("3-4")
	v.addLimit = widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), func() {
		kind := v.limitKind.Selected
		if kind == "" {
			kind = "any"
		}
		key := "images." + kind
		if t := strings.TrimSpace(v.limitTask.Text); t != "" {
			key += "." + t
		}
		v.setKey(v.limitBox, key, strings.TrimSpace(v.limitValue.Text), "Images of "+strings.TrimPrefix(key, "images."))
		v.limitKind.ClearSelected()
		v.limitTask.SetText("")
		v.limitValue.SetText("")
	})
	return container.NewVBox(
		heading("Scoring: LRR task weights"),
		note("Each task's weight w in lrr_score, LRR-Bench's score of the yes/no samples with a task: "+
			"w·2(p − 50) when the task's accuracy p is 50 % or more, else 0. A task not listed weighs 1."),
		v.weightBox,
		container.NewBorder(nil, nil, nil, addWeight, container.NewGridWithColumns(2, v.weightTask, v.weightValue)),
		widget.NewSeparator(),
		heading("Images per sample"),
		note("How many images the samples of a kind (any: every kind) and, optionally, a task show: "+
			"3 exactly, 3-4, at least 3 (3-) or at most 4 (-4). Lint refuses a sample outside them."),
		v.limitBox,
		container.NewGridWithColumns(2, v.limitKind, v.limitTask),
		container.NewBorder(nil, nil, nil, v.addLimit, v.limitValue),
	)
}

// setKey sets key's row to value, adding the row (or showing a removed one again).
func (v *settingsView) setKey(box *fyne.Container, key, value, label string) {
	if f := v.field(key); f != nil {
		for _, r := range v.keyRows {
			if r.field == f && r.removed {
				r.removed = false
				box.Add(r.row)
			}
		}
		f.set(value)
	} else {
		v.addKeyRow(box, key, value, label)
	}
	v.changed()
}

// addKeyRow adds a row for key to box: its name, its value and Remove.
func (v *settingsView) addKeyRow(box *fyne.Container, key, value, label string) *keyRow {
	r := &keyRow{value: v.newEntry()}
	r.field = &settingField{key: key, label: label, err: errorLabel(),
		get: func() string {
			if r.removed {
				return ""
			}
			return r.value.Text
		},
		set: r.value.SetText}
	r.value.SetText(value)
	v.fields = append(v.fields, r.field)
	v.keyRows = append(v.keyRows, r)
	name := widget.NewLabel(key)
	name.Truncation = fyne.TextTruncateEllipsis
	remove := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		r.removed = true
		box.Remove(r.row)
		v.changed()
	})
	r.row = tightVBox(container.NewBorder(nil, nil, nil, remove, container.NewGridWithColumns(2, name, r.value)), r.field.err)
	box.Add(r.row)
	return r
}
