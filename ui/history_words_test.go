package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// A sample's history reads in words, not in the audit log's action ids (issue 17).
func TestHistoryInWords(t *testing.T) {
	for _, tc := range []struct {
		e    bench.Event
		want string
	}{
		{bench.Event{Action: "sample.status", Detail: "round3 → returned"}, "moved from Round 3 to Returned"},
		{bench.Event{Action: "review.approve", Detail: "round 1 revision 2"}, "approved (round 1 revision 2)"},
		{bench.Event{Action: "review.reject", Detail: "round 2 revision 1"}, "rejected (round 2 revision 1)"},
		{bench.Event{Action: "sample.create", Detail: "hop_qa"}, "created the sample"},
		{bench.Event{Action: "revision.revise", Detail: "revision 3"}, "resubmitted it after changes (revision 3)"},
		{bench.Event{Action: "sample.withdraw", Detail: "duplicate"}, "withdrew it (duplicate)"},
	} {
		if got := eventWords(tc.e); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.e.Action, tc.e.Detail, got, tc.want)
		}
	}

	// Every line of a demo sample's history, as the screens show it.
	u, db := demoApp(t)
	lead, err := db.Authenticate(context.Background(), "lead", "demo")
	if err != nil {
		t.Fatal(err)
	}
	_ = u
	for _, id := range []string{"demo-hq-001", "demo-hq-006", "demo-op-001", "demo-hq-002"} {
		events, err := db.History(context.Background(), lead, id)
		if err != nil || len(events) == 0 {
			t.Fatalf("%s: %d events, %v", id, len(events), err)
		}
		text := historyText(events)
		for _, raw := range []string{"sample.", "review.", "revision.", "round1 →", "→ round"} {
			if strings.Contains(text, raw) {
				t.Errorf("%s's history shows %q:\n%s", id, raw, text)
			}
		}
	}
}
