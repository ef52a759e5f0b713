package bench

import (
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/verify"
)

func TestNewFunnelTable(t *testing.T) {
	tests := []struct {
		name   string
		counts map[string]map[verify.State]int
		want   []string // kind/state=count of the non-zero rows, in order
		rows   int
	}{
		{"none", nil, nil, 0},
		{"kinds in annotate.Kinds order, unknown ones last by name",
			map[string]map[verify.State]int{
				"zeta":       {verify.StateDraft: 1},
				"open":       {verify.StateAccepted: 2},
				"alpha":      {verify.StateRound1: 3},
				"hop_qa":     {verify.StateRound2: 4, verify.StateDraft: 5},
				"step_graph": {verify.StateWithdrawn: 6},
			},
			[]string{"hop_qa/draft=5", "hop_qa/round2=4", "step_graph/withdrawn=6", "open/accepted=2", "alpha/round1=3", "zeta/draft=1"},
			5 * len(verify.States)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewFunnelTable(tt.counts)
			if len(got) != tt.rows {
				t.Fatalf("%d rows, want %d (every state of each kind): %v", len(got), tt.rows, got)
			}
			var nonzero []string
			for i, r := range got {
				if r.State != verify.States[i%len(verify.States)] {
					t.Errorf("row %d is state %s, want %s", i, r.State, verify.States[i%len(verify.States)])
				}
				if r.Count != 0 {
					nonzero = append(nonzero, r.Kind+"/"+string(r.State)+"="+csvInt(r.Count))
				}
			}
			if !reflect.DeepEqual(nonzero, tt.want) {
				t.Errorf("rows %v, want %v", nonzero, tt.want)
			}
		})
	}
}

func TestActivityTableSort(t *testing.T) {
	got := ActivityTable{
		{"2026-01-02", verify.StateDraft, 1},
		{"2026-01-01", "zzz", 2},
		{"2026-01-01", "aaa", 3},
		{"2026-01-01", verify.StateAccepted, 4},
		{"2026-01-01", verify.StateDraft, 5},
	}
	got.Sort()
	want := ActivityTable{
		{"2026-01-01", verify.StateDraft, 5},
		{"2026-01-01", verify.StateAccepted, 4},
		{"2026-01-01", "aaa", 3},
		{"2026-01-01", "zzz", 2},
		{"2026-01-02", verify.StateDraft, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
}

func TestNewBalanceTable(t *testing.T) {
	groups := []BalanceGroup{
		{Kind: "hop_qa", Hop: 1, View: "ego", Accepted: 3},
		{Kind: "hop_qa", Hop: 1, View: "ego", InReview: 2},
		{Kind: "hop_qa", Hop: 1, View: "exo", Accepted: 4},
		{Kind: "hop_qa", Hop: 2, View: "ego", Accepted: 5, InReview: 1},
		{Kind: "mcq", Task: "count", View: "ego", Accepted: 7},
		{Kind: "mcq", Task: "count", View: "exo", Accepted: 1},
		{Kind: "open", Task: "where", InReview: 6},
	}
	tests := []struct {
		name    string
		targets []BalanceTarget
		want    BalanceTable
	}{
		{"no targets: a cell per kind and hop/view or task", nil, BalanceTable{
			{Kind: "hop_qa", Hop: 1, View: "ego", Accepted: 3, InReview: 2},
			{Kind: "hop_qa", Hop: 1, View: "exo", Accepted: 4},
			{Kind: "hop_qa", Hop: 2, View: "ego", Accepted: 5, InReview: 1},
			{Kind: "mcq", Task: "count", Accepted: 8},
			{Kind: "open", Task: "where", InReview: 6},
		}},
		{"a target's zero hop and empty view match any", []BalanceTarget{{Kind: "hop_qa", View: "ego", Count: 10}, {Kind: "mcq", Count: 5}}, BalanceTable{
			{Kind: "hop_qa", View: "ego", Target: 10, Accepted: 8, InReview: 3, Shortfall: 2},
			{Kind: "mcq", Target: 5, Accepted: 8},
			{Kind: "hop_qa", Hop: 1, View: "exo", Accepted: 4},
			{Kind: "open", Task: "where", InReview: 6},
		}},
		{"a target nothing matches", []BalanceTarget{{Kind: "judgment", Task: "x", Count: 3}, {Kind: "hop_qa", Hop: 1, Count: 9}}, BalanceTable{
			{Kind: "judgment", Task: "x", Target: 3, Shortfall: 3},
			{Kind: "hop_qa", Hop: 1, Target: 9, Accepted: 7, InReview: 2, Shortfall: 2},
			{Kind: "hop_qa", Hop: 2, View: "ego", Accepted: 5, InReview: 1},
			{Kind: "mcq", Task: "count", Accepted: 8},
			{Kind: "open", Task: "where", InReview: 6},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewBalanceTable(tt.targets, groups); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestNewErrorTable(t *testing.T) {
	got := NewErrorTable([]KindTally{
		{"zeta", "none", verify.DecisionReject, 1},
		{"open", "none", verify.DecisionApprove, 2},
		{"hop_qa", "att+rel", verify.DecisionApprove, 3},
		{"hop_qa", "rel", verify.DecisionReject, 4},
		{"hop_qa", "att", verify.DecisionApprove, 5},
		{"hop_qa", "rel", verify.DecisionApprove, 6},
		{"open", "none", verify.DecisionReject, 7},
	})
	want := ErrorTable{
		{"hop_qa", "att", 5, 0},
		{"hop_qa", "rel", 10, 4},
		{"hop_qa", "att+rel", 3, 0},
		{"open", "none", 9, 7},
		{"zeta", "none", 1, 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestReasons(t *testing.T) {
	perAuthor := map[int64][]ReasonCount{
		1: {{"box", 2}, {"hop", 1}},
		2: {{"hop", 2}, {"text", 3}, {"abc", 1}},
	}
	// Most frequent first, equal counts by name.
	if got, want := TotalReasons(perAuthor), (ReasonTable{{"hop", 3}, {"text", 3}, {"box", 2}, {"abc", 1}}); !reflect.DeepEqual(got, want) {
		t.Errorf("TotalReasons = %v, want %v", got, want)
	}
	if got, want := SortReasons([]ReasonCount{{"z", 1}, {"text", 3}, {"hop", 3}}), []ReasonCount{{"hop", 3}, {"text", 3}, {"z", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("SortReasons = %v, want %v", got, want)
	}
	if got := TotalReasons(nil); got != nil {
		t.Errorf("TotalReasons(nil) = %v, want none", got)
	}
	d := Dashboard{
		Annotators: AnnotatorTable{{Name: "ann"}, {Name: "bob"}},
		Throughput: ThroughputTable{{Day: "d1", Name: "bob"}, {Day: "d1", Name: "ann"}, {Day: "d2", Name: "ann"}},
		Reasons:    ReasonTable{{"other", 9}},
	}
	d.KeepOwn("ann", []ReasonCount{{"a", 1}, {"b", 2}})
	want := Dashboard{
		Own:        true,
		Annotators: AnnotatorTable{{Name: "ann"}},
		Throughput: ThroughputTable{{Day: "d1", Name: "ann"}, {Day: "d2", Name: "ann"}},
		Reasons:    ReasonTable{{"b", 2}, {"a", 1}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("KeepOwn gave %+v, want %+v", d, want)
	}
}

var dashPeople = map[int64]DashboardPerson{
	1: {"ann", RoleAnnotator, ""},
	2: {"bob", RoleAnnotator, ""},
	3: {"vera", RoleVerifier, "blue"},
	4: {"vic", RoleVerifier, "red"},
	5: {"lena", RoleLead, ""},
	6: {"old", "", ""}, // no longer a member
}

func TestNewAnnotatorTables(t *testing.T) {
	tests := []struct {
		name    string
		samples []AuthorSamples
		subs    []DaySubmissions
		tallies []ReviewTally
		reasons map[int64][]ReasonCount
		want    AnnotatorTable
		through ThroughputTable
	}{
		{"nothing", nil, nil, nil, nil, nil, nil},
		{"samples, submissions, reviews and reasons",
			[]AuthorSamples{{2, 5, 2}, {1, 3, 1}},
			[]DaySubmissions{{"d2", 1, 2}, {"d1", 2, 1}, {"d1", 1, 4}},
			[]ReviewTally{
				{1, 1, verify.DecisionApprove, 3}, {1, 1, verify.DecisionReject, 2}, {1, 3, verify.DecisionReject, 1},
				{2, 2, verify.DecisionApprove, 1}, {6, 2, verify.DecisionReject, 1}, {5, 0, verify.DecisionApprove, 9},
			},
			map[int64][]ReasonCount{1: {{"a", 1}, {"b", 4}, {"c", 2}, {"d", 3}}, 3: {{"x", 1}}},
			AnnotatorTable{
				{Name: "ann", Samples: 3, Accepted: 1, Submitted: 6, Days: 2, Reviews: [3]int{5, 0, 1}, Rejected: [3]int{2, 0, 1},
					TopReasons: []ReasonCount{{"b", 4}, {"d", 3}, {"c", 2}}},
				{Name: "bob", Samples: 5, Accepted: 2, Submitted: 1, Days: 1, Reviews: [3]int{0, 1, 0}, TopReasons: []ReasonCount{}},
				{Name: "old", Reviews: [3]int{0, 1, 0}, Rejected: [3]int{0, 1, 0}, TopReasons: []ReasonCount{}},
			},
			ThroughputTable{{"d1", "ann", 4}, {"d1", "bob", 1}, {"d2", "ann", 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, through := NewAnnotatorTables(dashPeople, tt.samples, tt.subs, tt.tallies, tt.reasons)
			for i := range got { // nil and empty reasons alike
				if len(got[i].TopReasons) == 0 {
					got[i].TopReasons = []ReasonCount{}
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("annotators\n%+v\nwant\n%+v", got, tt.want)
			}
			if !reflect.DeepEqual(through, tt.through) {
				t.Errorf("throughput %+v, want %+v", through, tt.through)
			}
		})
	}
}

func TestNewVerifierTable(t *testing.T) {
	tests := []struct {
		name    string
		tallies []ReviewTally
		times   []ReviewTimes
		panel   []PanelTally
		want    VerifierTable
	}{
		{"every verifier of the project, with no work", nil, nil, nil, VerifierTable{{Name: "vera", Group: "blue"}, {Name: "vic", Group: "red"}}},
		{"reviews, times and panel votes",
			[]ReviewTally{
				{3, 1, verify.DecisionApprove, 4}, {3, 1, verify.DecisionReject, 1}, {3, 3, verify.DecisionApprove, 2},
				{5, 2, verify.DecisionReject, 1}, {5, 4, verify.DecisionApprove, 7},
			},
			[]ReviewTimes{{3, 6, 10, 20.5}, {6, 1, 3, 3}},
			[]PanelTally{{3, 2, 1}, {4, 1, 1}, {3, 1, 1}},
			VerifierTable{
				{Name: "lena", Reviews: 8, Rounds: [3]int{0, 1, 0}, Approved: 7},
				{Name: "old", Timed: 1, MedianSeconds: 3, P90Seconds: 3},
				{Name: "vera", Group: "blue", Reviews: 7, Rounds: [3]int{5, 0, 2}, Approved: 6, Timed: 6, MedianSeconds: 10, P90Seconds: 20.5,
					PanelVotes: 3, PanelMatches: 2},
				{Name: "vic", Group: "red", PanelVotes: 1, PanelMatches: 1},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NewVerifierTable(dashPeople, tt.tallies, tt.times, tt.panel); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestActivityState(t *testing.T) {
	tests := []struct {
		action, detail string
		want           verify.State
	}{
		{"sample.create", "", verify.StateDraft},
		{"sample.create", "draft → round1", verify.StateDraft},
		{"sample.status", "round1 → round2", verify.StateRound2},
		{"sample.status", "draft → accepted", verify.StateAccepted},
		{"sample.status", "no arrow", ""},
	}
	for _, tt := range tests {
		if got := ActivityState(tt.action, tt.detail); got != tt.want {
			t.Errorf("ActivityState(%q, %q) = %q, want %q", tt.action, tt.detail, got, tt.want)
		}
	}
}
