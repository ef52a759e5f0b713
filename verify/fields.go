package verify

import (
	"slices"
	"strings"
)

// reasonFields says which sample fields each reason code (criterion id) concerns, so
// that an editor can show a returned sample's reasons next to those fields. Fields are
// the top-level names of the native record (spec §5) that annotate.Finding.Field paths
// start with; the first field is the one the reason is mainly about.
var reasonFields = map[string][]string{
	objectsExist.ID:          {"question", "options"},
	boxOnAnswer.ID:           {"box", "answer"},
	followsTemplate.ID:       {"question", "categories", "hop", "view", "ego_subject"},
	answerCorrect.ID:         {"answer"},
	naturalGrammar.ID:        {"question", "options"},
	notEliminable.ID:         {"options"},
	optionEntitiesExist.ID:   {"options"},
	boxPrecise.ID:            {"box"},
	answerUnique.ID:          {"answer", "options"},
	stepsValid.ID:            {"steps"},
	preconditionsCorrect.ID:  {"steps"},
	preconditionsComplete.ID: {"steps"},
	finalAchievesTask.ID:     {"steps", "question"},
	answerable.ID:            {"question"},
	formatFollowed.ID:        {"question", "answer", "options"},
}

// ReasonFields returns the sample fields a reason code concerns, main one first
// (e.g. "box_on_answer" → box, answer). It returns nil for ReasonOther and for codes
// it does not know: those concern the sample as a whole.
func ReasonFields(reason string) []string {
	return slices.Clone(reasonFields[reason])
}

// TopField returns the top-level field of a field path: "options[2]" → "options",
// "steps[1].precondition" → "steps", "box" → "box".
func TopField(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// ReasonsOn returns, in their order, the reasons that concern field (a field path;
// only its top-level field counts). With field "" it returns the reasons that concern
// no particular field: ReasonOther and unknown codes.
func ReasonsOn(reasons []string, field string) []string {
	top := TopField(field)
	var out []string
	for _, r := range reasons {
		fields := reasonFields[r]
		if (top == "" && len(fields) == 0) || (top != "" && slices.Contains(fields, top)) {
			out = append(out, r)
		}
	}
	return out
}
