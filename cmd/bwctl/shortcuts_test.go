package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// shortcutFile writes a native JSONL file of two MCQ tasks of 150 questions: a
// clean one, and one whose answer is "A" two times in three.
func shortcutFile(t *testing.T) string { return shortcutFileOn(t, "a.jpg") }

// shortcutFileOn is shortcutFile with every question on image.
func shortcutFileOn(t *testing.T, image string) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	nouns := []string{"table", "chair", "lamp", "mug", "sofa", "shelf", "door", "window", "plant", "book", "bottle", "laptop"}
	var b strings.Builder
	for _, task := range []string{"clean", "letter"} {
		for i := range 150 {
			perm := rng.Perm(len(nouns))
			s := annotate.Sample{ID: fmt.Sprintf("%s-%03d", task, i), Kind: annotate.KindMCQ, Task: task, Image: image,
				Question:    fmt.Sprintf("Which object is left of the %s?", nouns[perm[4]]),
				Options:     []string{"the " + nouns[perm[0]], "the " + nouns[perm[1]], "the " + nouns[perm[2]], "the " + nouns[perm[3]]},
				AnswerIndex: rng.IntN(4)}
			if task == "letter" && rng.IntN(3) < 2 {
				s.AnswerIndex = 0
			}
			line, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	path := filepath.Join(t.TempDir(), "bench.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestShortcutsOfAFile: bwctl shortcuts audits a benchmark file without a
// database: --json prints one line per check and task, and only the planted
// letter is a finding (exit 1); the report for people names it and the pruning.
func TestShortcutsOfAFile(t *testing.T) {
	file := shortcutFile(t)
	code, out, errOut := bwctl("shortcuts", "--json", file)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
	}
	var findings, lines []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Check   string     `json:"check"`
			Task    string     `json:"task"`
			Finding bool       `json:"finding"`
			Figure  float64    `json:"figure"`
			Chance  float64    `json:"chance"`
			CI      [2]float64 `json:"ci"`
			Samples []string   `json:"samples"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		lines = append(lines, r.Task+" "+r.Check)
		if r.Finding {
			findings = append(findings, r.Task+" "+r.Check)
			if len(r.Samples) == 0 || !strings.HasPrefix(r.Samples[0], "letter-") {
				t.Errorf("%s %s: samples %v", r.Task, r.Check, r.Samples)
			}
		}
		if r.Samples == nil || !(r.CI[0] <= r.Figure && r.Figure <= r.CI[1]) {
			t.Errorf("line %s: samples %v, figure %v outside its interval %v", l, r.Samples, r.Figure, r.CI)
		}
	}
	want := []string{"clean answer-position", "clean option-length", "clean text-baseline", "letter answer-position", "letter option-length", "letter text-baseline"}
	if !slices.Equal(lines, want) {
		t.Errorf("lines %v, want %v", lines, want)
	}
	if !slices.Equal(findings, []string{"letter answer-position", "letter text-baseline"}) {
		t.Errorf("findings %v", findings)
	}
	code, out, _ = bwctl("shortcuts", file)
	for _, w := range []string{"Shortcut audit of 300 samples", "FINDING answer-position", "A is the answer of", "Pruning proposal:"} {
		if !strings.Contains(out, w) {
			t.Errorf("the report lacks %q:\n%s", w, out)
		}
	}
	if code != exitFindings {
		t.Errorf("exit %d", code)
	}
}

// TestShortcutsRefusals: bad usage names what is wrong, exit 2.
func TestShortcutsRefusals(t *testing.T) {
	file := shortcutFile(t)
	runCases(t, []cliCase{
		{name: "no input", args: []string{"shortcuts"}, code: exitUsage, wantErr: []string{"usage: bwctl shortcuts"}},
		{name: "file and database", args: []string{"shortcuts", "--db", "x.db", "--project", "p", "--as", "a", file}, code: exitUsage, wantErr: []string{"usage"}},
		{name: "margin", args: []string{"shortcuts", "--margin", "0", file}, code: exitUsage, wantErr: []string{"--margin must be"}},
		{name: "missing file", args: []string{"shortcuts", filepath.Join(t.TempDir(), "none.jsonl")}, code: exitUsage, wantErr: []string{"none.jsonl"}},
		{name: "not questions", args: []string{"shortcuts", "--format", "coco", file}, code: exitUsage, wantErr: []string{"holds no questions"}},
	})
}

// TestShortcutsOfAProject: with --db, the audit reads the project's samples and
// says what it says of the same records in a file.
func TestShortcutsOfAProject(t *testing.T) {
	db := importDB(t)
	file := shortcutFileOn(t, "0001-office-1/a.jpg")
	setPasswords(t, pw("secret"))
	if code, out, errOut := bwctl("import-samples", "--db", db, "--project", "p1", "--as", "boss", "--author", "ann", file); code != 0 {
		t.Fatalf("import-samples: exit %d\n%s%s", code, out, errOut)
	}
	_, fromFile, _ := bwctl("shortcuts", "--json", file)
	code, fromDB, errOut := bwctl("shortcuts", "--json", "--db", db, "--project", "p1", "--as", "boss")
	// A project adds near-duplicate-image lines (TestShortcutsNearDuplicateImages).
	var kept []string
	for _, l := range strings.SplitAfter(fromDB, "\n") {
		if !strings.Contains(l, `"check":"near-duplicate-image"`) {
			kept = append(kept, l)
		}
	}
	if fromDB = strings.Join(kept, ""); code != exitFindings || fromDB != fromFile {
		t.Errorf("exit %d; of the project\n%s\nof the file\n%s\n%s", code, fromDB, fromFile, errOut)
	}
}

// TestShortcutsRebalance: bwctl shortcuts --rebalance on a project whose
// "letter" task's answer is A two times in three: a dry run says what would move
// and moves nothing; the rebalance writes the revisions (the lead's, with the
// reason) and the answer-position finding is gone; a verifier is refused the
// report and the fix; a rebalance without a reason, or of a file, is bad usage.
func TestShortcutsRebalance(t *testing.T) {
	db := importDB(t)
	file := shortcutFileOn(t, "0001-office-1/a.jpg")
	setPasswords(t, pw("secret"))
	if code, out, errOut := bwctl("import-samples", "--db", db, "--project", "p1", "--as", "boss", "--author", "ann", "--to-round1", file); code != 0 {
		t.Fatalf("import-samples: exit %d\n%s%s", code, out, errOut)
	}
	on := []string{"--db", db, "--project", "p1", "--as", "boss"}
	runCases(t, []cliCase{
		{name: "no reason", args: append([]string{"shortcuts", "--rebalance"}, on...), code: exitUsage, wantErr: []string{"--reason"}},
		{name: "a file", args: []string{"shortcuts", "--rebalance", "--reason", "r", file}, code: exitUsage, wantErr: []string{"works on a project"}},
		{name: "reason without rebalance", args: append([]string{"shortcuts", "--reason", "r"}, on...), code: exitUsage, wantErr: []string{"works on a project"}},
		{name: "a verifier", args: []string{"shortcuts", "--db", db, "--project", "p1", "--as", "vera"}, env: pw("userpw"), code: exitFindings, wantErr: []string{"bwctl: "}},
		{name: "a verifier's fix", args: []string{"shortcuts", "--rebalance", "--reason", "r", "--db", db, "--project", "p1", "--as", "vera"}, env: pw("userpw"), code: exitFindings, wantErr: []string{"bwctl: "}},
	})
	letterFinding := func() bool {
		_, out, _ := bwctl(append([]string{"shortcuts", "--json"}, on...)...)
		return strings.Contains(out, `{"check":"answer-position","task":"letter","finding":true`)
	}
	if !letterFinding() {
		t.Fatal("no answer-position finding on the letter task before")
	}
	code, dry, errOut := bwctl(append([]string{"shortcuts", "--rebalance", "--dry-run"}, on...)...)
	if code != exitOK || !strings.Contains(dry, "Would move the correct option of ") || !strings.Contains(dry, "(letter): A → ") {
		t.Fatalf("dry run: exit %d\n%s%s", code, dry, errOut)
	}
	if !letterFinding() {
		t.Fatal("the dry run moved samples")
	}
	code, out, errOut := bwctl(append([]string{"shortcuts", "--rebalance", "--json", "--reason", "A was the answer too often"}, on...)...)
	if code != exitOK {
		t.Fatalf("rebalance: exit %d\n%s%s", code, out, errOut)
	}
	moved := strings.Split(strings.TrimSpace(out), "\n")
	if want := strings.Count(dry, " → "); len(moved) != want || want < 50 {
		t.Errorf("%d samples moved, the dry run said %d", len(moved), want)
	}
	var m struct {
		SampleID string `json:"sample_id"`
		Revision int    `json:"revision"`
	}
	if err := json.Unmarshal([]byte(moved[0]), &m); err != nil || !strings.HasPrefix(m.SampleID, "letter-") || m.Revision != 2 {
		t.Errorf("first move %s: %+v %v", moved[0], m, err)
	}
	if letterFinding() {
		t.Error("the letter task is still a finding after the rebalance")
	}
}
