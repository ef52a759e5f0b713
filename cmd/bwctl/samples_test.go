package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSamplesCommands: bwctl samples searches with the sample manager's filters and
// withdraws, reopens, reassigns and releases claims through the manager's store
// calls, on a local file and through a team server: a non-lead is refused and the
// refusal audited, each move is audited with its reason, a bad id names its line,
// and withdrawing a sample withdrawn already is no error.
func TestSamplesCommands(t *testing.T) {
	for _, place := range []string{"file", "server"} {
		t.Run(place, func(t *testing.T) {
			var dbPath string
			var on []string
			if place == "file" {
				dbPath = filepath.Join(t.TempDir(), "demo.db")
				if code, _, errOut := bwctl("demo", "--db", dbPath); code != 0 {
					t.Fatalf("demo: %s", errOut)
				}
				on = []string{"--db", dbPath}
			} else {
				var addr, fp string
				dbPath, addr, fp = startServer(t)
				on = []string{"--server", addr, "--fingerprint", fp}
			}
			ctx := context.Background()
			s := openStore(t, dbPath)
			ver3, err := s.Authenticate(ctx, "ver3", "demo")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.ClaimReview(ctx, ver3, "demo-hq-004", 1); err != nil {
				t.Fatalf("ver3 claims demo-hq-004: %v", err)
			}
			dir := t.TempDir()
			ids := func(name string, lines ...string) string {
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			withdrawIDs := ids("withdraw", "# duplicates the audit found", "demo-hq-001", "", "  demo-op-001  ")
			badIDs := ids("bad", "demo-hq-001", "# next", "demo hq 002")
			reopenIDs := ids("reopen", "demo-hq-001", "demo-hq-002")
			reassignIDs := ids("reassign", "demo-hq-005", "demo-hq-004")
			claimIDs := ids("claims", "demo-hq-004", "demo-hq-003")
			search := func(as string, extra ...string) []string {
				return append(append([]string{"samples", "search"}, on...), append([]string{"--project", "demo", "--as", as}, extra...)...)
			}
			act := func(sub, as, file string, extra ...string) []string {
				return append(append([]string{"samples", sub}, on...), append([]string{"--as", as, "--ids", file}, extra...)...)
			}
			pw := pw("demo")
			runCases(t, []cliCase{
				{name: "search every sample", env: pw, args: search("lead"), code: 0, outLines: 14,
					wantOut: []string{"ID ", "STATE", "demo-hq-001  accepted", "demo-op-001  withdrawn", "12 of 12 samples"}},
				{name: "state and kind as JSON", env: pw, args: search("lead", "--state", "accepted", "--kind", "hop_qa", "--json"), code: 0,
					outLines: 1, wantOut: []string{`{"id":"demo-hq-001","state":"accepted","kind":"hop_qa","author":"ann1",`}},
				{name: "words", env: pw, args: search("lead", "--text", "Kettle yn-00", "--json"), code: 0, outLines: 1,
					wantOut: []string{`"id":"demo-yn-001"`, `"kind":"judgment"`}},
				{name: "author and states", env: pw, args: search("lead", "--author", "ann2", "--state", "round1", "--state", "round2"), code: 0,
					outLines: 3, wantOut: []string{"demo-hq-004  round1", "1 of 1 samples"}},
				{name: "a limit in id order", env: pw, args: search("lead", "--sort", "id", "--desc", "--limit", "2"), code: 0,
					outLines: 4, wantOut: []string{"demo-yn-001", "demo-sg-002", "2 of 12 samples"}, notOut: []string{"demo-sg-001"}},
				{name: "an unknown author", env: pw, args: search("lead", "--author", "nobody"), code: 1, emptyOut: true},
				{name: "an unknown state", env: pw, args: search("lead", "--state", "finished"), code: 2,
					wantErr: []string{`--state "finished"; states are draft, round1`}, emptyOut: true},
				{name: "an annotator may not search", env: pw, args: search("ann1"), code: 1,
					wantErr: []string{"only leads may search every sample"}, emptyOut: true},
				{name: "a verifier may not withdraw", env: pw, args: act("withdraw", "ver1", withdrawIDs, "--reason", "dup"), code: 1,
					wantErr: []string{"ver1 is a verifier"}, emptyOut: true},
				{name: "a bad id names its line", env: pw, args: act("withdraw", "lead", badIDs, "--reason", "dup"), code: 2,
					wantErr: []string{badIDs + `:3: the id "demo hq 002" holds a space`}, emptyOut: true},
				{name: "a reason is needed", env: pw, args: act("withdraw", "lead", withdrawIDs), code: 2,
					wantErr: []string{"--reason TEXT is required"}, emptyOut: true},
				{name: "withdraw", env: pw, args: act("withdraw", "lead", withdrawIDs, "--reason", "duplicates another"), code: 0,
					outLines: 2, wantOut: []string{"demo-hq-001\twithdrawn\n", "demo-op-001\twithdrawn already\n"},
					wantErr: []string{"withdrew 1 sample; 1 sample withdrawn already"}},
				{name: "withdraw again", env: pw, args: act("withdraw", "lead", withdrawIDs, "--reason", "duplicates another"), code: 0,
					outLines: 2, wantOut: []string{"demo-hq-001\twithdrawn already\n", "demo-op-001\twithdrawn already\n"}},
				{name: "the reason is in the history", env: pw, args: append(append([]string{"history"}, on...), "--sample", "demo-hq-001", "--as", "lead"),
					code: 0, wantOut: []string{"duplicates another"}},
				{name: "reopen", env: pw, args: act("reopen", "lead", reopenIDs, "--reason", "not a duplicate"), code: 1,
					wantOut: []string{"demo-hq-001\treopened\n", "demo-hq-002\trefused: "}},
				{name: "reassign", env: pw, args: act("reassign", "lead", reassignIDs, "--to", "ann2", "--reason", "ann1 left"), code: 1,
					wantOut: []string{"demo-hq-005\tnow ann2's\n", "demo-hq-004\trefused: it is in round 1; only drafts and returned samples change author"}},
				{name: "a verifier may not release claims", env: pw, args: act("release-claims", "ver1", claimIDs), code: 1,
					wantErr: []string{"ver1 is a verifier"}, emptyOut: true},
				{name: "release claims", env: pw, args: act("release-claims", "lead", claimIDs), code: 1,
					wantOut: []string{"demo-hq-004\tclaims released\n", "demo-hq-003\trefused: no verifier holds a claim on it"}},
				{name: "after the moves", env: pw, args: search("lead", "--state", "withdrawn", "--json"), code: 0, outLines: 1,
					wantOut: []string{`"id":"demo-op-001"`}},
				{name: "drafts by their new author", env: pw, args: search("lead", "--author", "ann2", "--state", "draft", "--json"), code: 0,
					outLines: 1, wantOut: []string{`"id":"demo-hq-005"`}},
			})

			counts, err := s.AuditCounts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for action, want := range map[string]int{"sample.withdraw": 2, // the demo withdrew demo-op-001
				"sample.reopen": 1, "sample.reassign": 1, "review.release": 1,
				"denied:samples.search": 1, "denied:samples.withdraw": 1, "denied:claims.release": 1} {
				if counts[action] != want {
					t.Errorf("audit %s: %d, want %d", action, counts[action], want)
				}
			}
		})
	}
}
