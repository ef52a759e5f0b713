package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// plantedDB is project p1 (lead boss) with four hop-QA samples accepted by v1,
// v2 and the panel p1–p3, twelve more waiting in round 1, and a verifier "apv"
// who reviewed none of them.
func plantedDB(t *testing.T) string {
	t.Helper()
	path := initDB(t)
	ctx := context.Background()
	db := openStore(t, path)
	lead, err := db.Authenticate(ctx, "boss", "secret")
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]bench.User{}
	for _, u := range [][3]string{{"ann", bench.RoleAnnotator, ""}, {"v1", bench.RoleVerifier, "A"}, {"v2", bench.RoleVerifier, "B"},
		{"p1", bench.RoleVerifier, "C"}, {"p2", bench.RoleVerifier, "C"}, {"p3", bench.RoleVerifier, "C"}, {"apv", bench.RoleVerifier, "D"}} {
		if users[u[0]], err = db.AddUser(ctx, lead, u[0], u[1], u[2], "userpw"); err != nil {
			t.Fatal(err)
		}
	}
	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "0001-office-1", "a.jpg"), cliJPEG(t, 64, 48, color.White))
	if _, err := db.ImportImages(ctx, lead, p.ID, images, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 16 {
		s := annotate.Sample{Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg", Question: fmt.Sprintf("Which object is closest to the camera, %d?", i),
			QuestionTag: fmt.Sprintf("Which object is <REL>closest to the camera</REL>, %d?", i),
			Options:     []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
			Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}}
		si, err := db.CreateSample(ctx, users["ann"], p.ID, s)
		if err != nil {
			t.Fatal(err)
		}
		if si, err = db.Submit(ctx, users["ann"], si.ID, si.Version, nil); err != nil {
			t.Fatal(err)
		}
		if i >= 4 {
			continue
		}
		for _, r := range []struct {
			who   string
			round int
		}{{"v1", 1}, {"v2", 2}, {"p1", 3}, {"p2", 3}, {"p3", 3}} {
			v := verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, r.round)}
			if _, err := db.SubmitReview(ctx, users[r.who], bench.ReviewInput{SampleID: si.ID, Round: r.round, BasedOn: si.Revision, Verdict: v}); err != nil {
				t.Fatalf("%s round %d: %v", r.who, r.round, err)
			}
		}
	}
	return path
}

// TestPlantedCommand: a run of round 1 by bwctl as a verifier who approves
// everything, with planting on: their catch rate is 0 and the pause rule stops
// them with its reason; the lead reads it with planted status and list, and
// resumes them; the verifier is refused both.
func TestPlantedCommand(t *testing.T) {
	db := plantedDB(t)
	setPasswords(t, pw("secret"))
	if code, out, errOut := bwctl("settings", "set", "--db", db, "--as", "boss", "plant_rate=50", "plant_pause_below=60", "plant_min_items=3"); code != 0 {
		t.Fatalf("settings set: %d %s %s", code, out, errOut)
	}
	setPasswords(t, pw("userpw"))
	reviewed, paused := 0, ""
	for range 100 {
		code, out, errOut := bwctl("review", "queue", "--db", db, "--as", "apv", "--round", "1", "--limit", "1", "--json")
		if code != 0 {
			paused = errOut
			break
		}
		var it struct{ Sample string }
		if out == "" {
			break
		}
		if err := json.Unmarshal([]byte(out), &it); err != nil {
			t.Fatalf("queue %q: %v", out, err)
		}
		if code, out, errOut := bwctl("review", "submit", "--db", db, "--as", "apv", "--sample", it.Sample, "--round", "1", "--decision", "approve", "--criterion", "all=yes"); code != 0 {
			paused = errOut + out
			break
		}
		reviewed++
	}
	if !strings.Contains(paused, "Your reviews are paused") || !strings.Contains(paused, "A lead can resume") {
		t.Fatalf("after %d reviews approving everything, not paused: %q", reviewed, paused)
	}
	setPasswords(t, pw("secret"))
	code, out, errOut := bwctl("planted", "status", "--db", db, "--as", "boss", "--json")
	if code != 0 {
		t.Fatalf("planted status: %d %s", code, errOut)
	}
	var fig struct {
		Verifier    string
		Round       int
		Planted     int
		Caught      int
		Missed      int
		FalseAlarms int `json:"false_alarms"`
		CatchRate   struct {
			Value float64
			CI    []float64
		} `json:"catch_rate"`
		FalseAlarmRate *struct {
			Value float64
			CI    []float64
		} `json:"false_alarm_rate"`
	}
	if n := strings.Count(out, "\n"); n != 1 {
		t.Fatalf("%d objects, want one (apv, round 1):\n%s", n, out)
	}
	if err := json.Unmarshal([]byte(out), &fig); err != nil {
		t.Fatal(err)
	}
	if fig.Verifier != "apv" || fig.Round != 1 || fig.Planted != 5 || fig.Caught != 0 || fig.Missed != 5 || fig.CatchRate.Value != 0 ||
		len(fig.CatchRate.CI) != 2 || fig.CatchRate.CI[1] >= 0.6 || fig.FalseAlarmRate == nil {
		t.Errorf("status %s", out)
	}
	runCases(t, []cliCase{
		{name: "status table", env: pw("secret"), args: []string{"planted", "status", "--db", db, "--as", "boss"}, code: 0,
			wantOut: []string{"VERIFIER", "CATCH RATE", "apv", "0 % [0–52]", "paused: apv (Your reviews are paused"}},
		{name: "list", env: pw("secret"), args: []string{"planted", "list", "--db", db, "--as", "boss"}, code: 0,
			wantOut: []string{"ITEM", "ORIGIN", "MUTATION", "REVIEWER", "OUTCOME", "missed"}},
		{name: "a verifier's status", env: pw("userpw"), args: []string{"planted", "status", "--db", db, "--as", "apv"}, code: 1,
			wantErr: []string{"not allowed"}, emptyOut: true},
		{name: "a verifier's list", env: pw("userpw"), args: []string{"planted", "list", "--db", db, "--as", "apv", "--json"}, code: 1,
			wantErr: []string{"not allowed"}, emptyOut: true},
		{name: "resume without a name", env: pw("secret"), args: []string{"planted", "resume", "--db", db, "--as", "boss"}, code: 2},
		{name: "resume", env: pw("secret"), args: []string{"planted", "resume", "--db", db, "--as", "boss", "apv"}, code: 0, wantOut: []string{"resumed apv"}},
		{name: "the queue again", env: pw("userpw"), args: []string{"review", "queue", "--db", db, "--as", "apv", "--round", "1"}, code: 0},
	})
}
