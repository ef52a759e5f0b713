package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// The category tags of a hop question: the annotator selects the phrase that
// carries a category in the question and presses its button (or Alt+A, Alt+P,
// Alt+R while the question has the focus); the tagged question is shown below,
// each phrase in its category's colour, and the category is ticked. Alt+E and
// Alt+X choose the ego or exo viewpoint from anywhere in the workspace. The keys
// are Alt combinations: a bare letter never tags or changes anything. The rules
// are annotate's (TagPhrase, RemoveTags, the category-tags lint); this file only
// wires them.

// tagColours are the colours of the tagged phrases, by category.
var tagColours = map[annotate.Category]fyne.ThemeColorName{
	annotate.CatAtt: theme.ColorNameWarning,
	annotate.CatPos: theme.ColorNamePrimary,
	annotate.CatRel: theme.ColorNameSuccess,
}

// selectionRange is the byte range of the text selected in e, or ok false when
// nothing is selected. The cursor sits at one end of the selection.
func selectionRange(e *widget.Entry) (start, end int, ok bool) {
	sel := e.SelectedText()
	if sel == "" {
		return 0, 0, false
	}
	runes := []rune(e.Text)
	cur, n := e.CursorTextOffset(), utf8.RuneCountInString(sel)
	for _, from := range []int{cur - n, cur} {
		if from >= 0 && from+n <= len(runes) && string(runes[from:from+n]) == sel {
			start = len(string(runes[:from]))
			return start, start + len(sel), true
		}
	}
	return 0, 0, false
}

// tagRow is the question's tagging controls: a button per category and one to
// clear the tag under the cursor, then the tagged question.
type tagRow struct {
	ws      *workspace
	entry   *wsEntry
	preview *widget.RichText
	obj     fyne.CanvasObject
	hint    string // the status hint last shown, cleared once the tag is made
}

// tagKeys are the tag row's keys (Alt+letter) and the view's.
var tagKeys = []struct {
	key fyne.KeyName
	cat annotate.Category // "" for the others
}{
	{fyne.KeyA, annotate.CatAtt}, {fyne.KeyP, annotate.CatPos}, {fyne.KeyR, annotate.CatRel},
	{fyne.KeyU, ""}, {fyne.KeyE, ""}, {fyne.KeyX, ""},
}

// tagKeyName names the Alt key of cat: "Alt+A".
func tagKeyName(cat annotate.Category) string {
	for _, k := range tagKeys {
		if k.cat == cat {
			return "Alt+" + string(k.key)
		}
	}
	return ""
}

func newTagRow(ws *workspace, entry *wsEntry) *tagRow {
	r := &tagRow{ws: ws, entry: entry, preview: widget.NewRichText()}
	r.preview.Wrapping = fyne.TextWrapWord
	buttons := container.NewHBox(widget.NewLabel("Tag the selection:"))
	for _, c := range hopCategories {
		cat := c.cat
		b := newFormButton(ws.formOuter(), annotate.TagName(cat), nil, func() { r.tag(cat) })
		buttons.Add(b)
	}
	buttons.Add(newFormButton(ws.formOuter(), "Untag", theme.ContentClearIcon(), r.untag))
	keys := caption("Keys in the question: Alt+A, Alt+P, Alt+R tag the selection; Alt+U untags.")
	r.obj = container.NewVBox(buttons, keys, r.preview)
	ws.installTagKeys()
	return r
}

// installTagKeys registers the Alt keys with the window, for when no text field
// has the focus (a focused field passes them to workspace.shortcut itself).
// Registering again replaces the previous workspace's handlers.
func (ws *workspace) installTagKeys() {
	c := ws.u.win.Canvas()
	for _, k := range tagKeys {
		c.AddShortcut(&desktop.CustomShortcut{KeyName: k.key, Modifier: fyne.KeyModifierAlt}, func(s fyne.Shortcut) {
			if ws.active() {
				ws.tagShortcut(s)
			}
		})
	}
}

// tagShortcut runs the tag and view keys of an open hop question and reports
// whether s was one. Tagging and untagging act on the question's selection and
// cursor, so only while the question has the focus; elsewhere they say so.
func (ws *workspace) tagShortcut(s fyne.Shortcut) bool {
	sc, ok := s.(*desktop.CustomShortcut)
	if !ok || sc.Modifier != fyne.KeyModifierAlt {
		return false
	}
	f, ok := ws.form.(*hopForm)
	if !ok || ws.sample == nil {
		return false
	}
	switch sc.KeyName {
	case fyne.KeyE, fyne.KeyX:
		i := slices.Index(f.view.values, string(annotate.ViewExo))
		if sc.KeyName == fyne.KeyE {
			i = slices.Index(f.view.values, string(annotate.ViewEgo))
		}
		if i >= 0 {
			f.view.buttons[i].OnTapped()
		}
		return true
	}
	for _, k := range tagKeys {
		if k.key != sc.KeyName {
			continue
		}
		if ws.u.win.Canvas().Focused() != f.question {
			f.tags.say("Click into the question and select the phrase first; then %s tags it.", "Alt+"+string(k.key))
			return true
		}
		if k.cat == "" {
			f.tags.untag()
		} else {
			f.tags.tag(k.cat)
		}
		return true
	}
	return false
}

// say shows a hint in the status bar, to be cleared once the tag is made.
func (r *tagRow) say(format string, args ...any) {
	r.hint = fmt.Sprintf(format, args...)
	r.ws.u.setStatus("%s", r.hint)
}

// done clears the hint that led to a tag, if it is still the status shown.
func (r *tagRow) done() {
	if r.hint != "" && r.ws.u.status.Text == r.hint {
		r.ws.u.setStatus("")
	}
	r.hint = ""
}

// tag tags the selected phrase with cat (whole words) and ticks cat.
func (r *tagRow) tag(cat annotate.Category) {
	start, end, ok := selectionRange(&r.entry.Entry)
	if !ok {
		r.say("Select the phrase that carries %s in the question, then press %s (%s).", cat, annotate.TagName(cat), tagKeyName(cat))
		return
	}
	next, err := annotate.TagPhrase(r.ws.cur, cat, start, end)
	if err != nil {
		r.say("Not tagged: %v.", err)
		return
	}
	r.ws.edit("question_tag", func(s *annotate.Sample) { *s = next })
	r.show(r.ws.cur)
	r.done()
}

// untag removes the tags on the phrase at the cursor.
func (r *tagRow) untag() {
	if r.ws.cur.QuestionTag == "" {
		return
	}
	at := len(string([]rune(r.entry.Text)[:min(r.entry.CursorTextOffset(), utf8.RuneCountInString(r.entry.Text))]))
	next := annotate.RemoveTags(r.ws.cur.QuestionTag, at)
	if next == r.ws.cur.QuestionTag {
		r.say("Put the cursor in a tagged phrase of the question to remove its tag.")
		return
	}
	r.ws.edit("question_tag", func(s *annotate.Sample) { s.QuestionTag = next })
	r.show(r.ws.cur)
	r.done()
}

func (r *tagRow) show(s annotate.Sample) {
	r.preview.Segments = tagSegments(s)
	r.preview.Refresh()
}

// tagSegments renders a tagged question: plain text, and each tagged phrase bold in
// its category's colour followed by its tag name, "round·ATT".
func tagSegments(s annotate.Sample) []widget.RichTextSegment {
	if s.QuestionTag == "" {
		return []widget.RichTextSegment{&widget.TextSegment{Text: "No phrase tagged yet.", Style: widget.RichTextStyle{ColorName: theme.ColorNamePlaceHolder, Inline: true}}}
	}
	plain, spans, err := annotate.ParseTagged(s.QuestionTag)
	if err != nil {
		return []widget.RichTextSegment{&widget.TextSegment{Text: "The tags are broken: " + err.Error(), Style: widget.RichTextStyle{ColorName: theme.ColorNameError, Inline: true}}}
	}
	// Outermost spans only: a nested tag is named after its phrase's outer one.
	var segs []widget.RichTextSegment
	plainStyle := widget.RichTextStyle{Inline: true}
	at := 0
	for _, sp := range spans {
		if sp.Start < at {
			continue
		}
		// The space before a tagged phrase goes into its segment: RichText wraps
		// only at a space inside a segment, and a one-word segment that does not
		// fit the line's end would otherwise be broken letter by letter.
		before, lead := plain[at:sp.Start], ""
		if t := strings.TrimSuffix(before, " "); t != before {
			before, lead = t, " "
		}
		if before != "" {
			segs = append(segs, &widget.TextSegment{Text: before, Style: plainStyle})
		}
		segs = append(segs, &widget.TextSegment{Text: lead + plain[sp.Start:sp.End] + "·" + annotate.TagName(sp.Category),
			Style: widget.RichTextStyle{Inline: true, ColorName: tagColours[sp.Category], TextStyle: fyne.TextStyle{Bold: true}}})
		at = sp.End
	}
	if at < len(plain) {
		segs = append(segs, &widget.TextSegment{Text: plain[at:], Style: plainStyle})
	}
	return segs
}
