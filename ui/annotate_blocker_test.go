package ui

import (
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// The line under Submit names the warnings that block it in people's words (where,
// then what), never their rule ids; an acknowledged warning drops out of it.
func TestSubmitBlockerNamesWarningsInWords(t *testing.T) {
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
	got := ws.submitWhy.Text
	for _, want := range []string{
		"fix or acknowledge 2 warnings",
		"option B names a colour (red) while the att condition is a colour (red)",
		"the question: an exo question with a subject phrase.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("blocker %q does not say %q", got, want)
		}
	}
	for _, id := range []string{"colour-in-options", "exo-phrase", "options[1]"} {
		if strings.Contains(got, id) {
			t.Errorf("blocker %q shows the id %q", got, id)
		}
	}
	ws.acks["exo-phrase"] = true
	ws.updateGate()
	if got := ws.submitWhy.Text; !strings.Contains(got, "1 warning:") || strings.Contains(got, "subject phrase") {
		t.Errorf("after acknowledging exo-phrase: %q", got)
	}
}
