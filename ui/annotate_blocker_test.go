package ui

import (
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// Warnings do not block Submit (spec §2, issue 27): the line above it names, in
// people's words (where, then what) and never by rule id, the warnings a submit
// acknowledges; an acknowledged warning drops out of it.
func TestSubmitLineNamesWarningsInWords(t *testing.T) {
	_, ws := openAnnotate(t, "ann1")
	ws.findings = []annotate.Finding{
		{Rule: annotate.RuleColourInOptions, Severity: annotate.SeverityWarning, Field: "options[1]",
			Message: "option B names a colour (red) while the att condition is a colour (red)"},
		{Rule: annotate.RuleColourInOptions, Severity: annotate.SeverityWarning, Field: "options[2]",
			Message: "option C names a colour (blue) while the att condition is a colour (red)"},
		{Rule: annotate.RuleExoPhrase, Severity: annotate.SeverityWarning, Field: "question",
			Message: "an exo question with a subject phrase."},
	}
	ws.acks = map[string]bool{}
	ws.updateGate()
	if ws.submitBtn.Disabled() {
		t.Fatalf("warnings block Submit: %q", ws.submitWhy.Text)
	}
	got := ws.submitWhy.Text
	for _, want := range []string{
		"Ready",
		"Submitting acknowledges 2 warnings",
		"option B names a colour (red) while the att condition is a colour (red)",
		"the question: an exo question with a subject phrase.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("line %q does not say %q", got, want)
		}
	}
	for _, id := range []string{"colour-in-options", "exo-phrase", "options[1]"} {
		if strings.Contains(got, id) {
			t.Errorf("line %q shows the id %q", got, id)
		}
	}
	ws.acks["exo-phrase"] = true
	ws.updateGate()
	if got := ws.submitWhy.Text; !strings.Contains(got, "1 warning:") || strings.Contains(got, "subject phrase") || ws.submitBtn.Disabled() {
		t.Errorf("after acknowledging exo-phrase: %q", got)
	}
	if got := ws.submitAcks(); len(got) != 2 {
		t.Errorf("a submit acknowledges %v, want both rules", got)
	}
}
