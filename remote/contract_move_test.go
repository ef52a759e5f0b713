package remote

import (
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

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
// Changed from 45b8e81e47fb6783 on purpose: issue 31's quick count of a search
// of words (SampleQuery.QuickTotal, SamplePage.TotalAtLeast). The builds before it
// speak another wire (sameWire emptied).
const contractWire = "f72bf7a65452dfa6"
