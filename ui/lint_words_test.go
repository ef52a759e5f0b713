package ui

import (
	"strings"
	"testing"
)

// The guideline check names options by letter and says nothing 0-based; the
// record's paths ("options[2]") stay in the findings' Field for bwctl's JSON (issue 17).
func TestAnnotateLintSaysOptionC(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	f := ws.form.(*hopForm)
	if len(f.options.entries) < 3 {
		t.Fatalf("%d option fields", len(f.options.entries))
	}
	first := f.options.entries[0].Text
	f.options.entries[2].SetText(strings.ToUpper(first)) // option C repeats option A
	text := labelTexts(ws.lint.obj)
	for _, want := range []string{"ERROR  option C", "option C \"" + strings.ToUpper(first) + "\" repeats option A"} {
		if !strings.Contains(text, want) {
			t.Errorf("the guideline check does not say %q:\n%s", want, text)
		}
	}
	for _, raw := range []string{"options[", "0-based", "index", "option-duplicate"} {
		if strings.Contains(text, raw) {
			t.Errorf("the guideline check shows %q:\n%s", raw, text)
		}
	}
	field := ""
	for _, fd := range ws.findings {
		field += fd.Field
	}
	if !strings.Contains(field, "options[2]") {
		t.Errorf("the findings lost their record path: %+v", ws.findings)
	}
}
