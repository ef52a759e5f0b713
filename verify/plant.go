package verify

import "slices"

// PlantOutcome is what one review of a planted sample (package plant, issue 30)
// says of its verifier.
type PlantOutcome string

// The outcomes: of a copy with an error, caught (rejected for a criterion that
// covers it), partly caught (rejected for another reason) or missed (approved); of
// a clean copy, rightly approved or a false alarm.
const (
	PlantCaught     PlantOutcome = "caught"
	PlantPartly     PlantOutcome = "partly"
	PlantMissed     PlantOutcome = "missed"
	PlantRight      PlantOutcome = "right"
	PlantFalseAlarm PlantOutcome = "false-alarm"
)

// plantCovers are, for each field a planted error changes (plant.Mutation.Field),
// the criteria whose "no" names it: a reviewer who rejects a moved answer key for
// "answer correct" — or, in round 3, "answer unique", or "box on the answer", since
// the box then shows another option's object — has caught it.
var plantCovers = map[string][]string{
	"answer":        {answerCorrect.ID, answerUnique.ID, boxOnAnswer.ID},
	"box":           {boxOnAnswer.ID, boxPrecise.ID},
	"template":      {followsTemplate.ID, formatFollowed.ID},
	"options":       {notEliminable.ID, answerUnique.ID, optionEntitiesExist.ID, naturalGrammar.ID, formatFollowed.ID, answerCorrect.ID},
	"preconditions": {preconditionsCorrect.ID, preconditionsComplete.ID},
	"steps":         {stepsValid.ID, preconditionsCorrect.ID, finalAchievesTask.ID},
	"images":        {objectsExist.ID, boxOnAnswer.ID, answerCorrect.ID, answerable.ID, answerUnique.ID, boxPrecise.ID, optionEntitiesExist.ID},
}

// PlantCovers tells whether a rejection for reason (a criterion id) names the
// field a planted error changed.
func PlantCovers(field, reason string) bool { return slices.Contains(plantCovers[field], reason) }

// ReviewOfPlanted is the rule of what a review of a planted sample counts as. field
// is what its error changed ("" for a clean copy); decision and reasons are the
// review's.
func ReviewOfPlanted(field string, decision Decision, reasons []string) PlantOutcome {
	if field == "" {
		if decision == DecisionApprove {
			return PlantRight
		}
		return PlantFalseAlarm
	}
	if decision == DecisionApprove {
		return PlantMissed
	}
	for _, r := range reasons {
		if PlantCovers(field, r) {
			return PlantCaught
		}
	}
	return PlantPartly
}
