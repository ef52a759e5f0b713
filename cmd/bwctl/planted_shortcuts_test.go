package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/verify"
)

// plantedProject is issue 29's acceptance project (p1, lead boss, password
// "secret"), every sample accepted, multiple choice of four options:
//
//	longest   40 samples: the answer is always the one long option (at every letter in turn)
//	letters   50 samples: the answer is A 30 times (60 %), B, C and D the rest
//	cue       40 samples: one word of the question names the answer ("crimson" → "the red mug")
//	rescan     2 samples: a photo in train, the same photo resized and re-encoded in test
//	clean-a,
//	clean-b   40 samples each: every letter and every option alike, no cue
//
// The planted tasks and the clean ones share the option words, so only the
// plant tells them apart.
func plantedProject(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db := importDB(t)
	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "0003-lab-1", "orig.jpg"), cliPhoto(t, 1, 0, 92))
	cliWriteFile(t, filepath.Join(images, "0003-lab-1", "copy.jpg"), cliPhoto(t, 1, 400, 60))
	cliWriteFile(t, filepath.Join(images, "0003-lab-1", "other.jpg"), cliPhoto(t, 2, 0, 92))
	if code, out, errOut := bwctl("import-images", "--db", db, "--project", "p1", "--as", "boss", images); code != 0 {
		t.Fatalf("import-images: exit %d\n%s%s", code, out, errOut)
	}
	s := openStore(t, db)
	lead, err := s.Authenticate(ctx, "boss", "secret")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.ProjectByName(ctx, lead, "p1")
	if err != nil {
		t.Fatal(err)
	}
	vs := map[string]bench.User{}
	for _, v := range []struct{ name, group string }{{"a1", "A"}, {"a2", "A"}, {"b1", "B"}, {"b2", "B"}, {"c1", "C"}} {
		if vs[v.name], err = s.AddUser(ctx, lead, v.name, bench.RoleVerifier, v.group, "secret-secret"); err != nil {
			t.Fatal(err)
		}
	}
	ann, err := s.UserByName(ctx, bench.Owner(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	accept := func(x annotate.Sample) {
		t.Helper()
		si, err := s.CreateSample(ctx, ann, p.ID, x)
		if err != nil {
			t.Fatalf("%s: %v", x.ID, err)
		}
		if si, err = s.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
			t.Fatalf("%s: %v", x.ID, err)
		}
		for _, r := range []struct {
			round int
			who   string
		}{{1, "a1"}, {2, "b1"}, {3, "a2"}, {3, "b2"}, {3, "c1"}} {
			if _, err := s.SubmitReview(ctx, vs[r.who], bench.ReviewInput{SampleID: si.ID, Round: r.round, BasedOn: si.Revision, Seconds: 30,
				Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, r.round)}}); err != nil {
				t.Fatalf("%s round %d by %s: %v", si.ID, r.round, r.who, err)
			}
		}
	}
	flat := []string{"0001-office-1/a.jpg", "0002-kitchen-1/c.jpeg", "0003-lab-1/other.jpg"}
	names := []string{"the mug", "the lamp", "the book", "the pen"}
	// rotated is names turned by r: every name at every letter over four turns.
	rotated := func(r int) []string { return append(slices.Clone(names[r%4:]), names[:r%4]...) }
	mcq := func(task string, i int, question string, opts []string, answer int) annotate.Sample {
		return annotate.Sample{ID: fmt.Sprintf("%s-%02d", task, i), Kind: annotate.KindMCQ, Task: task, Image: flat[i%len(flat)],
			Question: question, Options: opts, AnswerIndex: answer}
	}
	for i := range 40 {
		for _, task := range []string{"clean-a", "clean-b"} {
			accept(mcq(task, i, fmt.Sprintf("Which object is nearest to the %s in shot %d?", map[string]string{"clean-a": "door", "clean-b": "sink"}[task], i),
				rotated(i), (i/4)%4))
		}
		opts := rotated(i)
		long := (i / 4) % 4
		opts[long] += " on the far side of the room"
		accept(mcq("longest", i, fmt.Sprintf("Which object is nearest to the window in shot %d?", i), opts, long))
		colours := []struct{ cue, option string }{{"crimson", "the red mug"}, {"navy", "the blue mug"}, {"emerald", "the green mug"}, {"rose", "the pink mug"}}
		c := colours[(i/4)%4]
		copts := []string{"the red mug", "the blue mug", "the green mug", "the pink mug"}
		copts = append(copts[i%4:], copts[:i%4]...)
		accept(mcq("cue", i, fmt.Sprintf("Which is the %s one on the shelf in shot %d?", c.cue, i), copts, slices.Index(copts, c.option)))
	}
	for i := range 50 {
		answer := 0
		if i >= 30 {
			answer = 1 + i%3
		}
		accept(mcq("letters", i, fmt.Sprintf("Which object is nearest to the lamp in shot %d?", i), rotated(i+i/4), answer))
	}
	for i, x := range []struct{ image, split, question string }{
		{"0003-lab-1/orig.jpg", annotate.SplitTrain, "Which object is left of the chair?"},
		{"0003-lab-1/copy.jpg", annotate.SplitTest, "Which object is right of the chair?"},
	} {
		r := mcq("rescan", i, x.question, rotated(i), i)
		r.Image, r.Split = x.image, x.split
		accept(r)
	}
	return db
}

// shortcutLine is one line of bwctl shortcuts --json.
type shortcutLine struct {
	Check   string     `json:"check"`
	Task    string     `json:"task"`
	Finding bool       `json:"finding"`
	Figure  float64    `json:"figure"`
	Chance  float64    `json:"chance"`
	CI      [2]float64 `json:"ci"`
	Samples []string   `json:"samples"`
}

// shortcutFindings runs bwctl shortcuts --json with args and returns its
// findings as "check task", sorted, and its exit code.
func shortcutFindings(t *testing.T, args ...string) ([]string, int) {
	t.Helper()
	code, out, errOut := bwctl(append([]string{"shortcuts", "--json"}, args...)...)
	if code != exitOK && code != exitFindings {
		t.Fatalf("shortcuts %v: exit %d\n%s%s", args, code, out, errOut)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r shortcutLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if r.Finding {
			got = append(got, r.Check+" "+r.Task)
		}
	}
	slices.Sort(got)
	return got, code
}

// TestPlantedShortcutsAreFoundExactly is issue 29's acceptance: on a project
// with four planted shortcuts, bwctl audit and bwctl shortcuts report exactly
// those, each on its task, and nothing on the clean tasks. bwctl shortcuts sees
// the longest-option and letter plants twice — by their own checks and by the
// text-only model, which learns them — and the cue word by the model alone; the
// audit runs only the checks that need no model.
func TestPlantedShortcutsAreFoundExactly(t *testing.T) {
	db := plantedProject(t)
	setPasswords(t, pw("secret"))
	got, code := shortcutFindings(t, "--db", db, "--project", "p1", "--as", "boss")
	want := []string{"answer-position letters", "near-duplicate-image rescan", "option-length longest",
		"text-baseline cue", "text-baseline letters", "text-baseline longest"}
	if code != exitFindings || !slices.Equal(got, want) {
		t.Errorf("bwctl shortcuts: exit %d, findings\n%q\nwant\n%q", code, got, want)
	}

	code, out, errOut := bwctl("audit", "--db", db, "--project", "p1", "--as", "boss", "--json")
	if code != exitFindings { // the near-duplicate across train and test is an error
		t.Errorf("bwctl audit: exit %d\n%s%s", code, out, errOut)
	}
	var audit []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var f struct{ Severity, Check, Message string }
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		for _, task := range []string{"clean-a", "clean-b", "cue"} {
			if strings.Contains(f.Message, task) {
				t.Errorf("the audit reports a planted-free task: %s", l)
			}
		}
		switch f.Check {
		case bench.CheckAnswerPosition, bench.CheckOptionLength:
			audit = append(audit, f.Severity+" "+f.Check+" "+strings.TrimSuffix(strings.Fields(f.Message)[1], ":"))
		case "near-duplicate-image":
			ok := strings.Contains(f.Message, "0003-lab-1/orig.jpg") && strings.Contains(f.Message, "0003-lab-1/copy.jpg")
			audit = append(audit, fmt.Sprintf("%s %s %v", f.Severity, f.Check, ok))
		}
	}
	slices.Sort(audit)
	wantAudit := []string{"error near-duplicate-image true", "warning answer-position letters", "warning option-length longest"}
	if !slices.Equal(audit, wantAudit) {
		t.Errorf("bwctl audit: shortcut findings\n%q\nwant\n%q\n%s", audit, wantAudit, out)
	}
}

// TestDebiasedSubsetFreezesAndExports: the pruning proposal of the planted
// project's release becomes a debiased subset (bwctl debias), whose every
// candidate the lead drops; it freezes and exports (native and vlmevalkit) like
// a hard subset, MANIFEST.json records the pruning, and the shortcut audit of
// either export finds nothing, where the parent's export has the plants.
func TestDebiasedSubsetFreezesAndExports(t *testing.T) {
	db := plantedProject(t)
	setPasswords(t, pw("secret"))
	dir := t.TempDir()
	ids := filepath.Join(dir, "ids.txt")
	cliWriteFile(t, ids, []byte("rescan-01\n"))
	as := []string{"--db", db, "--as", "boss"}
	run := func(want int, args ...string) string {
		t.Helper()
		code, out, errOut := bwctl(args...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, out, errOut)
		}
		return out
	}
	// The copy of a train photo in test blocks a freeze: it goes first.
	run(0, append([]string{"samples", "withdraw", "--ids", ids, "--reason", "a re-encoded copy of rescan-00's photo"}, as...)...)
	run(0, append([]string{"freeze", "--project", "p1", "--name", "planted", "--version", "1"}, as...)...)
	parent := filepath.Join(dir, "parent")
	run(0, append([]string{"export", "--release", "planted@1", "--format", "native", "--out", parent}, as...)...)
	if got, code := shortcutFindings(t, filepath.Join(parent, "samples.jsonl")); code != exitFindings || len(got) != 5 {
		t.Fatalf("the parent's export: exit %d, findings %q", code, got)
	}

	out := run(0, append([]string{"debias", "propose", "--release", "planted@1"}, as...)...)
	if !strings.HasPrefix(out, "debiased subset 1 of planted@1: ") || !strings.Contains(out, " of 211 samples proposed for removal (text-only model, 5-fold, seed 1, margin 10 points)") ||
		!strings.Contains(out, "longest: blind accuracy 100.0 % → 0.0 % (chance 25.0 %), 0 of 40 samples left") {
		t.Errorf("debias propose:\n%s", out)
	}
	if out := run(0, append([]string{"debias", "list", "--release", "planted@1"}, as...)...); !strings.HasPrefix(out, "debiased subset 1 of planted@1") {
		t.Errorf("debias list:\n%s", out)
	}
	if code, out, errOut := bwctl(append([]string{"hard-subset", "list", "--release", "planted@1"}, as...)...); code != 0 || out != "" ||
		!strings.Contains(errOut, "no hard subset is proposed on planted@1") {
		t.Errorf("hard-subset list: exit %d\n%s%s", code, out, errOut)
	}
	by := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(run(0, append([]string{"debias", "show", "--json", "1"}, as...)...)), "\n") {
		var c struct {
			SampleID  string   `json:"sample_id"`
			Task      string   `json:"task"`
			Bias      float64  `json:"bias_score"`
			Round     int      `json:"round"`
			Shortcuts []string `json:"shortcuts"`
			Decision  string   `json:"decision"`
		}
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("show line %q: %v", l, err)
		}
		by[c.Task]++
		if !strings.HasPrefix(c.SampleID, c.Task+"-") || c.Bias <= 0.25 || c.Round < 1 || len(c.Shortcuts) == 0 ||
			c.Shortcuts[0] != "text-baseline" || c.Decision != "" {
			t.Errorf("candidate %s", l)
		}
	}
	// Every longest sample has the shortcut, so the task goes whole; the cue and
	// letter tasks go until the model, fitted again on what is left, is within
	// 10 points of chance.
	if by["longest"] != 40 || by["cue"] == 0 || by["letters"] == 0 || by["letters"] > 30 || len(by) != 3 {
		t.Errorf("candidates by task %v: want every longest sample, some of cue and letters, nothing else", by)
	}
	run(2, append([]string{"debias", "decide", "--rest", "maybe", "1"}, as...)...)
	if code, _, errOut := bwctl(append([]string{"hard-subset", "decide", "--rest", "drop", "--reason", "x", "1"}, as...)...); code != exitUsage ||
		!strings.Contains(errOut, "subset 1 is a debiased subset: use bwctl debias") {
		t.Errorf("hard-subset decide on a debiased subset: exit %d\n%s", code, errOut)
	}
	run(0, append([]string{"debias", "decide", "--rest", "drop", "--reason", "answered from the text alone", "1"}, as...)...)
	removed := by["longest"] + by["cue"] + by["letters"]
	if out := run(0, append([]string{"debias", "freeze", "--name", "planted-debiased", "--version", "1", "1"}, as...)...); out != fmt.Sprintf(
		"froze planted-debiased@1: %d samples of debiased subset 1 (bwctl export writes its MANIFEST with the provenance)\n", 211-removed) {
		t.Errorf("debias freeze: %q", out)
	}

	for _, format := range []string{"native", "vlmevalkit"} {
		exp := filepath.Join(dir, format)
		run(0, append([]string{"export", "--release", "planted-debiased@1", "--format", format, "--out", exp}, as...)...)
		m, err := release.ReadManifest(exp)
		if err != nil {
			t.Fatal(err)
		}
		if c := m.Release.Curation; c == nil || c.Method != "debiased" || c.Parent != "planted@1" || c.Pool != 211 || c.Candidates != removed ||
			c.Kept != 0 || c.Margin != 0.1 || c.Folds != 5 || c.Seed != 1 || len(c.Decisions) != removed || c.Decisions[0].Bias == nil ||
			c.Decisions[0].Reason != "answered from the text alone" {
			t.Errorf("%s: curation %+v", format, c)
		}
		file := filepath.Join(exp, "samples.jsonl")
		if format == "vlmevalkit" {
			file = filepath.Join(exp, "planted-debiased_MCQ.tsv")
		}
		if got, code := shortcutFindings(t, "--format", format, file); code != exitOK || len(got) != 0 {
			t.Errorf("the debiased %s export: exit %d, findings %q", format, code, got)
		}
	}
}
