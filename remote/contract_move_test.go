package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"strings"
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
	if Contract != contractWire {
		t.Errorf("Contract = %s, was %s: if the JSON of a call changed on purpose, update contractWire and empty sameWire (older builds speak another wire now); if not, find what changed it", Contract, contractWire)
	}
	if got, want := digestName(reflect.TypeOf(bench.Release{})), storePkg+".Release"; got != want {
		t.Errorf("bench.Release is named %q in the digest, want %q", got, want)
	}
}

// contractWire is Contract, the digest of the wire since issue 28 item 5.
// Changed from 9b2b1e86e4a85e7c only because the digest now hashes requests and answers, not Go signatures (the calls lost their actor; the wire did not change).
const contractWire = "45b8e81e47fb6783"

// TestOlderBuildsSpeakThisWire: the builds before issue 28 item 5 sent the
// digest of the Go signatures of bench.Calls, each (ctx, actor, ...), at sign-in.
// That digest, of today's calls with the two parameters the wire never carried
// put back, is still contractBeforeTheMove — so those builds send the same
// requests and read the same answers, and the server accepts them (sameWire).
// When a call's types change, this fails: then empty sameWire.
func TestOlderBuildsSpeakThisWire(t *testing.T) {
	calls := reflect.TypeFor[bench.Calls]()
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	for i := range calls.NumMethod() {
		m := calls.Method(i) // in the order of their names, as the older builds hashed them
		if m.Type.NumIn() == 0 || m.Type.In(0) != reflect.TypeFor[context.Context]() {
			t.Fatalf("%s does not take ctx first", m.Name)
		}
		in := []reflect.Type{m.Type.In(0), reflect.TypeFor[bench.User]()} // ctx, actor
		for k := 1; k < m.Type.NumIn(); k++ {
			in = append(in, m.Type.In(k))
		}
		b.WriteString(m.Name + "(")
		for _, p := range in {
			describeType(&b, p, seen)
			b.WriteString(",")
		}
		b.WriteString(")(")
		for k := range m.Type.NumOut() {
			describeType(&b, m.Type.Out(k), seen)
			b.WriteString(",")
		}
		b.WriteString(")\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	older := hex.EncodeToString(sum[:8])
	if older != contractBeforeTheMove {
		t.Errorf("the older builds' digest of today's calls is %s, not %s: a call's types changed, so those builds speak another wire; empty sameWire and delete this test", older, contractBeforeTheMove)
	}
	if !sameWire[older] || !acceptsContract(older) || !acceptsContract(Contract) {
		t.Errorf("the server does not accept the older builds' digest %s (or its own)", older)
	}
	if acceptsContract("") || acceptsContract("9b2b1e86e4a85e7d") {
		t.Error("the server accepts a digest of another wire")
	}
}
