package main

import (
	"context"
	"encoding/json"
	"image/color"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/verify"
)

// agreementDB is project p1 (lead boss) with a two-seat round-3 panel and five
// hop-QA samples by ann, each approved by v1 (round 1) and v2 (round 2); on the
// panel p1 approves all five, p2 approves three and rejects two (box_precise).
//
// Hand computation, nominal alpha, where every rejection sits alone in a unit of
// approvals: with n pairable values of which k are rejections,
// D_o = 2k/n, D_e = 2k(n-k)/(n(n-1)), alpha = 1 - (n-1)/(n-k).
// Round 3: n = 10, k = 2: alpha = 1 - 9/8 = -0.125.
// All rounds (four verifiers per revision): n = 20, k = 2: alpha = 1 - 19/18 = -0.0556.
// Round 1: one value per unit: undefined.
func agreementDB(t *testing.T) string {
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
	s := bench.DefaultSettings()
	s.Round3Panel = 2
	if err := db.UpdateSettings(ctx, lead, p.ID, s); err != nil {
		t.Fatal(err)
	}
	users := map[string]bench.User{}
	for _, u := range [][3]string{{"ann", bench.RoleAnnotator, ""}, {"v1", bench.RoleVerifier, "A"}, {"v2", bench.RoleVerifier, "B"},
		{"p1", bench.RoleVerifier, "C"}, {"p2", bench.RoleVerifier, "C"}} {
		if users[u[0]], err = db.AddUser(ctx, lead, u[0], u[1], u[2], "userpw"); err != nil {
			t.Fatal(err)
		}
	}
	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "0001-office-1", "a.jpg"), cliJPEG(t, 64, 48, color.White))
	if _, err := db.ImportImages(ctx, lead, p.ID, images, nil); err != nil {
		t.Fatal(err)
	}
	sample := annotate.Sample{Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg", Question: "Which object is closest to the camera?", QuestionTag: "Which object is <REL>closest to the camera</REL>?",
		Options: []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
		Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}}
	approve := verify.Verdict{Decision: verify.DecisionApprove}
	reject := verify.Verdict{Decision: verify.DecisionReject, Judgements: map[string]bool{"box_precise": false}}
	for i := range 5 {
		si, err := db.CreateSample(ctx, users["ann"], p.ID, sample)
		if err != nil {
			t.Fatal(err)
		}
		if si, err = db.Submit(ctx, users["ann"], si.ID, si.Version, nil); err != nil {
			t.Fatal(err)
		}
		p2 := approve
		if i >= 3 {
			p2 = reject
		}
		for _, r := range []struct {
			who   string
			round int
			v     verify.Verdict
		}{{"v1", 1, approve}, {"v2", 2, approve}, {"p1", 3, approve}, {"p2", 3, p2}} {
			v := r.v
			if v.Decision == verify.DecisionApprove {
				v.Judgements = verify.AllPassed(si.Kind, r.round)
			}
			if _, err := db.SubmitReview(ctx, users[r.who], bench.ReviewInput{SampleID: si.ID, Round: r.round, BasedOn: si.Revision, Verdict: v}); err != nil {
				t.Fatalf("%s round %d: %v", r.who, r.round, err)
			}
		}
	}
	return path
}

func TestAgreementCommandKnownReviews(t *testing.T) {
	db := agreementDB(t)
	runCases(t, []cliCase{
		{name: "rounds", env: pw("userpw"), args: []string{"agreement", "--db", db, "--as", "v1"}, code: 0,
			wantOut: []string{"ROUND", "CRITERION", "UNITS", "PAIRABLE", "ALPHA", "CI95", "READING"}, emptyStErr: true},
		{name: "annotator refused", env: pw("userpw"), args: []string{"agreement", "--db", db, "--as", "ann"}, code: 1,
			wantErr: []string{"not allowed", "ann is an annotator"}, emptyOut: true},
		{name: "without --as", args: []string{"agreement", "--db", db}, code: 2, wantErr: []string{"--as USER is required"}, emptyOut: true},
		{name: "unknown project", env: pw("secret"), args: []string{"agreement", "--db", db, "--as", "boss", "--project", "nope"}, code: 1,
			wantErr: []string{`Project "nope": not found`}, emptyOut: true},
		{name: "bad table", env: pw("secret"), args: []string{"agreement", "--db", db, "--as", "boss", "--table", "x"}, code: 2,
			wantErr: []string{`--table "x"`}, emptyOut: true},
		{name: "stray argument", env: pw("secret"), args: []string{"agreement", "--db", db, "--as", "boss", "extra"}, code: 2,
			wantErr: []string{`unexpected argument "extra"`}, emptyOut: true},
		{name: "verifiers", env: pw("secret"), args: []string{"agreement", "--db", db, "--as", "boss", "--table", "verifiers"}, code: 0,
			wantOut: []string{"VERIFIER", "p2 ", "v1 "}, outLines: 5},
		{name: "boxes", env: pw("secret"), args: []string{"agreement", "--db", db, "--as", "boss", "--table", "boxes"}, code: 0,
			wantOut: []string{"all     0 samples"}, outLines: 2},
	})

	setPasswords(t, pw("userpw"))
	code, out, errOut := bwctl("agreement", "--db", db, "--as", "p2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []struct {
		round, criterion string
		want             []string // units, pairable, alpha, then the reading's words
	}{
		{"3", "decision", []string{"5", "5", "-0.125"}},
		{"all", "decision", []string{"5", "5", "-0.056"}},
		{"3", "box_precise", []string{"5", "5", "-0.125"}},
	} {
		var f []string
		for _, line := range strings.Split(out, "\n") {
			if g := strings.Fields(line); len(g) > 2 && g[0] == w.round && g[1] == w.criterion {
				f = g
			}
		}
		if len(f) < 8 || strings.Join(f[2:5], " ") != strings.Join(w.want, " ") || !strings.HasPrefix(f[5], "[") ||
			strings.Join(f[7:], " ") != "not reliable" {
			t.Errorf("round %s %s: line %q, want %v … not reliable\n%s", w.round, w.criterion, strings.Join(f, " "), w.want, out)
		}
	}
	if !strings.Contains(out, "1      decision") || !strings.Contains(out, "undefined: fewer than two pairable values") {
		t.Errorf("round 1 should be undefined with its reason:\n%s", out)
	}
	// The columns are aligned: every ALPHA value starts where the header's does.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	col := strings.Index(lines[0], "ALPHA")
	for _, l := range lines[1:] {
		if len(l) < col || l[col-1] != ' ' || l[col] == ' ' {
			t.Errorf("misaligned line %q (ALPHA at %d)", l, col)
		}
	}

	// --json: one object per line; the interval is seeded, so two runs agree.
	code, js, _ := bwctl("agreement", "--db", db, "--as", "p2", "--json")
	_, js2, _ := bwctl("agreement", "--db", db, "--as", "p2", "--json")
	if code != 0 || js != js2 {
		t.Fatalf("exit %d; runs differ: %v", code, js != js2)
	}
	found := 0
	for _, line := range strings.Split(strings.TrimSpace(js), "\n") {
		var r struct {
			Round     int         `json:"round"`
			Criterion string      `json:"criterion"`
			Units     int         `json:"units"`
			Alpha     *float64    `json:"alpha"`
			CI95      *[2]float64 `json:"ci95"`
			Reading   string      `json:"reading"`
			Undefined string      `json:"undefined"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		switch {
		case r.Round == 3 && r.Criterion == "decision":
			found++
			if r.Alpha == nil || math.Abs(*r.Alpha+0.125) > 1e-9 || r.Units != 5 || r.CI95 == nil || r.Reading != "not reliable" {
				t.Errorf("round 3 decision: %s", line)
			}
		case r.Round == 0 && r.Criterion == "decision":
			found++
			if r.Alpha == nil || math.Abs(*r.Alpha+1.0/18) > 1e-9 {
				t.Errorf("all rounds decision: %s", line)
			}
		case r.Round == 1 && r.Criterion == "decision":
			found++
			if r.Alpha != nil || r.CI95 != nil || !strings.Contains(r.Undefined, "fewer than two pairable values") {
				t.Errorf("round 1 decision: %s", line)
			}
		}
	}
	if found != 3 {
		t.Errorf("found %d of the 3 checked rows in:\n%s", found, js)
	}
}

// The demo's reviews are all approvals but one lone rejection: no alpha is defined,
// which exits 3 with every row's reason.
func TestAgreementCommandOnDemo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	if code, _, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: %s", errOut)
	}
	runCases(t, []cliCase{
		{name: "lead", env: pw(demo.DemoPassword), args: []string{"agreement", "--db", db, "--as", "lead"}, code: 3,
			wantOut: []string{"all    decision", `pairable values are "approve", so there is no expected disagreement`, "undefined: fewer than two pairable values"},
			notOut:  []string{"NaN"}, wantErr: []string{"no alpha is defined yet"}},
		{name: "verifier, json", env: pw(demo.DemoPassword), args: []string{"agreement", "--db", db, "--as", "ver1", "--json"}, code: 3,
			wantOut: []string{`"round":3,"criterion":"decision"`, `"alpha":null`}, notOut: []string{"NaN"}},
		{name: "annotator", env: pw(demo.DemoPassword), args: []string{"agreement", "--db", db, "--as", "ann1"}, code: 1,
			wantErr: []string{"not allowed"}, emptyOut: true},
		{name: "wrong password", env: pw("nope"), args: []string{"agreement", "--db", db, "--as", "lead"}, code: 1,
			wantErr: []string{"Wrong user name or password"}, emptyOut: true},
	})
}
