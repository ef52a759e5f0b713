package ui

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
)

// The category tags of a hop question: the annotator selects the phrase that
// carries a category in the question and presses its button; the tagged question
// is shown below, each phrase in its category's colour. The rules are annotate's
// (AddTag, RemoveTags, the category-tags lint); this file only wires them.

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
}

func newTagRow(ws *workspace, entry *wsEntry) *tagRow {
	r := &tagRow{ws: ws, entry: entry, preview: widget.NewRichText()}
	r.preview.Wrapping = fyne.TextWrapWord
	buttons := container.NewHBox(widget.NewLabel("Tag the selected phrase:"))
	for _, c := range hopCategories {
		cat := c.cat
		b := newFormButton(ws.formOuter(), annotate.TagName(cat), nil, func() { r.tag(cat) })
		buttons.Add(b)
	}
	buttons.Add(newFormButton(ws.formOuter(), "Untag", theme.ContentClearIcon(), r.untag))
	r.obj = container.NewVBox(buttons, r.preview)
	return r
}

// tag tags the selected phrase with cat.
func (r *tagRow) tag(cat annotate.Category) {
	start, end, ok := selectionRange(&r.entry.Entry)
	if !ok {
		r.ws.u.setStatus("Select the phrase that carries %s in the question, then press %s.", cat, annotate.TagName(cat))
		return
	}
	tagged := r.ws.cur.QuestionTag
	if tagged == "" {
		tagged = r.ws.cur.Question
	}
	next, err := annotate.AddTag(tagged, cat, start, end)
	if err != nil {
		r.ws.u.setStatus("Not tagged: %v.", err)
		return
	}
	r.ws.edit("question_tag", func(s *annotate.Sample) { s.QuestionTag = next })
	r.show(r.ws.cur)
}

// untag removes the tags on the phrase at the cursor.
func (r *tagRow) untag() {
	if r.ws.cur.QuestionTag == "" {
		return
	}
	at := len(string([]rune(r.entry.Text)[:min(r.entry.CursorTextOffset(), utf8.RuneCountInString(r.entry.Text))]))
	next := annotate.RemoveTags(r.ws.cur.QuestionTag, at)
	if next == r.ws.cur.QuestionTag {
		r.ws.u.setStatus("Put the cursor in a tagged phrase of the question to remove its tag.")
		return
	}
	r.ws.edit("question_tag", func(s *annotate.Sample) { s.QuestionTag = next })
	r.show(r.ws.cur)
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
