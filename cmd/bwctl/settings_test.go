package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestSettingsCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	if code, _, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: %s", errOut)
	}
	pw := map[string]string{envPW: "demo"}
	runCases(t, []cliCase{
		{name: "show as an annotator", env: pw, args: []string{"settings", "show", "--db", db, "--as", "ann1"}, code: 0,
			wantOut: []string{"round3_panel             = 3", "rounds                   = 3", "round2_other_group       = true",
				"balance.hop_qa.1.ego     = 750", "# verifiers on the blind round-3 panel"}},
		{name: "set as an annotator", env: pw, args: []string{"settings", "set", "--db", db, "--as", "ann1", "round3_panel=2"}, code: 1,
			wantErr: []string{"ann1 is an annotator, and only leads may change project settings"}, emptyOut: true},
		{name: "set as a verifier", env: pw, args: []string{"settings", "set", "--db", db, "--as", "ver1", "round3_panel=2"}, code: 1,
			wantErr: []string{"ver1 is a verifier, and only leads may change project settings"}, emptyOut: true},
		{name: "bad value names the key", env: pw, args: []string{"settings", "set", "--db", db, "--as", "lead", "claim_minutes=soon", "round3_panel=2"}, code: 1,
			wantErr: []string{`claim_minutes: must be a whole number, got "soon"`}, emptyOut: true},
		{name: "not KEY=VALUE", env: pw, args: []string{"settings", "set", "--db", db, "--as", "lead", "round3_panel"}, code: 2,
			wantErr: []string{`"round3_panel" is not KEY=VALUE`}},
		{name: "lead sets panel and balance", env: pw, args: []string{"settings", "set", "--db", db, "--as", "lead", "round3_panel=2",
			"balance.hop_qa.1.ego=300", "balance.hop_qa.1.exo=300"}, code: 0,
			wantOut: []string{"round3_panel: 3 → 2", "balance.hop_qa.1.ego: 750 → 300", "balance.hop_qa.1.exo: 750 → 300"}, outLines: 3},
		{name: "groups by account", env: pw, args: []string{"settings", "set", "--db", db, "--as", "lead", "group.ver2=B", "group.ann1=A"}, code: 1,
			wantErr: []string{"group.ann1: ann1 is an annotator; groups are for verifiers and leads"}, emptyOut: true},
		{name: "group of a verifier", env: pw, args: []string{"settings", "set", "--db", db, "--as", "lead", "group.ver2=B"}, code: 0,
			wantOut: []string{"group.ver2: A → B"}},
		{name: "show lists groups", env: pw, args: []string{"settings", "show", "--db", db, "--as", "ver1"}, code: 0,
			wantOut: []string{"group.ver1               = A", "group.ver2               = B"}, notOut: []string{"group.ann1"}},
		{name: "same again changes nothing", env: pw, args: []string{"settings", "set", "--db", db, "--as", "lead", "round3_panel=2"}, code: 0,
			wantOut: []string{"nothing changed"}},
		{name: "history shows who changed what", env: pw, args: []string{"history", "--db", db, "--project", "demo", "--as", "ver1"}, code: 0,
			wantOut: []string{"lead\tproject.settings\tround3_panel: 3 → 2", "lead\tproject.settings\tbalance.hop_qa.1.ego: 750 → 300",
				"ann1\tdenied:project.settings\t", "ver1\tdenied:project.settings\t", "lead\tproject.settings\tgroup.ver2: A → B"}},
		{name: "history needs one of --sample or --project", args: []string{"history", "--db", db}, code: 2,
			wantErr: []string{"give --sample ID, or --project NAME --as USER"}},
	})

	setPasswords(t, pw)
	code, out, errOut := bwctl("settings", "show", "--db", db, "--as", "lead", "--json")
	if code != 0 {
		t.Fatalf("show --json: %s", errOut)
	}
	var values []struct{ Key, Value, Help string }
	if err := json.Unmarshal([]byte(out), &values); err != nil {
		t.Fatalf("show --json is not a JSON list: %v\n%s", err, out)
	}
	got := map[string]string{}
	for _, v := range values {
		got[v.Key] = v.Value
	}
	if got["round3_panel"] != "2" || got["balance.hop_qa.1.ego"] != "300" || got["balance.hop_qa.3.exo"] != "750" {
		t.Errorf("show --json after the change: %v", got)
	}
}

// TestReviewSubmitNeedsEveryCriterion: bwctl stores an approval only when every
// criterion of the round is judged yes, as the verifier screen does.
func TestReviewSubmitNeedsEveryCriterion(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	if code, _, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: %s", errOut)
	}
	pw := map[string]string{envPW: "demo"}
	submit := func(extra ...string) []string {
		return append([]string{"review", "submit", "--db", db, "--as", "ver3", "--sample", "demo-hq-004", "--round", "1"}, extra...)
	}
	runCases(t, []cliCase{
		{name: "approve judging nothing", env: pw, args: submit("--decision", "approve"), code: 1,
			wantErr: []string{"an approval needs every criterion of round 1 judged yes; not judged: Objects exist (objects_exist), " +
				"Box on the answer (box_on_answer), Follows the template (follows_template), Answer correct (answer_correct)"}},
		{name: "approve judging three", env: pw, args: submit("--decision", "approve", "--criterion", "objects_exist=yes",
			"--criterion", "box_on_answer=yes", "--criterion", "answer_correct=yes"), code: 1,
			wantErr: []string{"not judged: Follows the template (follows_template)"}},
		{name: "reject for other without a comment", env: pw, args: submit("--decision", "reject", "--reason", "other"), code: 1,
			wantErr: []string{`the reason "other" needs a comment saying what the problem is`}},
		{name: "all=yes with one no is a contradiction", env: pw, args: submit("--decision", "approve", "--criterion", "all=yes",
			"--criterion", "box_on_answer=no"), code: 1, wantErr: []string{"Box on the answer (box_on_answer) is judged no"}},
		{name: "approve judging all", env: pw, args: submit("--decision", "approve", "--criterion", "objects_exist=yes",
			"--criterion", "box_on_answer=yes", "--criterion", "answer_correct=yes", "--criterion", "follows_template=yes"), code: 0},
		{name: "round 2 with all=yes", env: pw, args: []string{"review", "submit", "--db", db, "--as", "ver5", "--sample", "demo-hq-004",
			"--round", "2", "--decision", "approve", "--criterion", "all=yes"}, code: 0, wantOut: []string{"approve in round 2 → round3"}},
		{name: "round 3 vote does not tell the count", env: pw, args: []string{"review", "submit", "--db", db, "--as", "ver2", "--sample", "demo-hq-004",
			"--round", "3", "--decision", "approve", "--criterion", "all=yes"}, code: 0,
			wantOut: []string{"round 3 stays blind until the panel is complete"}, notOut: []string{"of 3"}},
	})
}

// The lrr_score task weights and the image limits go through bwctl settings like
// every key: a lead sets them (each bad value named), everyone reads them, the
// history shows each change (store's TestImageLimitsReachLint: the limits reach lint).
func TestSettingsWeightsAndImageLimits(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	if code, _, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: %s", errOut)
	}
	pw := map[string]string{envPW: "demo"}
	set := func(kv ...string) []string {
		return append([]string{"settings", "set", "--db", db, "--as", "lead"}, kv...)
	}
	runCases(t, []cliCase{
		{name: "weight and limits", env: pw, args: set("lrr_weight.T1=0.5", "images.judgment=3-4", "images.any.cam=-2"), code: 0,
			wantOut: []string{"lrr_weight.T1:  → 0.5", "images.judgment:  → 3-4", "images.any.cam:  → -2"}, outLines: 3},
		{name: "bad weight", env: pw, args: set("lrr_weight.T1=0"), code: 1,
			wantErr: []string{"lrr_weight.T1: a task's weight is a number above 0 and at most 1000, got 0"}, emptyOut: true},
		{name: "bad limit", env: pw, args: set("images.judgment=5-3"), code: 1,
			wantErr: []string{"images.judgment: the minimum 5 is above the maximum 3"}, emptyOut: true},
		{name: "bad kind", env: pw, args: set("images.essay=2"), code: 1,
			wantErr: []string{`images.essay: "essay" is not a sample kind`}, emptyOut: true},
		{name: "a verifier may not", env: pw, args: []string{"settings", "set", "--db", db, "--as", "ver1", "lrr_weight.T1=2"}, code: 1,
			wantErr: []string{"only leads may change project settings"}, emptyOut: true},
		{name: "show lists them", env: pw, args: []string{"settings", "show", "--db", db, "--as", "ann1"}, code: 0,
			wantOut: []string{"lrr_weight.T1            = 0.5", "images.judgment          = 3-4", "# judgment samples show 3 to 4 images",
				"images.any.cam           = -2"}},
		{name: "remove one", env: pw, args: set("images.any.cam="), code: 0, wantOut: []string{"images.any.cam: -2 → \n"}},
		{name: "history", env: pw, args: []string{"history", "--db", db, "--project", "demo", "--as", "ver1"}, code: 0,
			wantOut: []string{"lead\tproject.settings\tlrr_weight.T1:  → 0.5", "lead\tproject.settings\timages.any.cam: -2 → ", "ver1\tdenied:project.settings\t"}},
	})
}
