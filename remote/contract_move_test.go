package remote

import (
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// contractBeforeTheMove is Contract as the builds before issue 28 item 1 (the
// contract's types in package store) sent it at sign-in.
//
// Since changed on purpose: issue 29 added ImageHashes (near-duplicate
// images) and the setting near_duplicate_distance; issue 30 the planting calls
// (PlantedStatus, PlantedList, PlantResume) and verify.Outcome's Feedback.
// Issue 29 item 7: score.Prediction's circular copies and score.Result's circular.
// Issue 29 item 6: blind runs (ImportPredictions' run, ModelRun.Blind and Base,
// ModelResult.Blind, SampleOutcome.BlindRight, score.Report's blind fields).
// Issue 29 item 4: ProposeDebiasedSubset and a curated subset's kind, margin,
// folds and outcome, and a candidate's shortcuts, bias score and round.
// Issue 29's shortcut report and its letter fix (Shortcuts, RebalanceLetters;
// shortcut.Result.Shares for the Shortcuts tab's charts).
const contractBeforeTheMove = "9b2b1e86e4a85e7c"

// TestContractDigestSurvivesTheMove: moving the contract's types from store to
// bench changed no JSON, so it must not change the digest either, or every
// workstation of an older build would be refused as another build. When a call
// or a type's JSON changes on purpose, the digest changes and this value with it.
func TestContractDigestSurvivesTheMove(t *testing.T) {
	if Contract != contractBeforeTheMove {
		t.Errorf("Contract = %s, was %s before the contract moved to package bench: if the JSON of a call changed on purpose, update contractBeforeTheMove; if not, find what the move changed", Contract, contractBeforeTheMove)
	}
	if got, want := digestName(reflect.TypeOf(bench.Release{})), storePkg+".Release"; got != want {
		t.Errorf("bench.Release is named %q in the digest, want %q", got, want)
	}
}
