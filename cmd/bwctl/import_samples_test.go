package main

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// importDB is a database with project p1 (lead boss), annotators ann and ann2, the
// verifier vera, and the two images the fixtures in testdata/import name.
func importDB(t *testing.T) string {
	t.Helper()
	db := initDB(t)
	setPasswords(t, map[string]string{envPW: "secret", envNewPW: "userpw"})
	for _, u := range [][]string{{"ann", "annotator"}, {"ann2", "annotator"}, {"vera", "verifier"}} {
		if code, out, errOut := bwctl("users", "add", "--db", db, "--as", "boss", "--name", u[0], "--role", u[1]); code != 0 {
			t.Fatalf("users add %s: exit %d\n%s%s", u[0], code, out, errOut)
		}
	}
	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "0001-office-1", "a.jpg"), cliJPEG(t, 64, 48, color.RGBA{200, 0, 0, 255}))
	cliWriteFile(t, filepath.Join(images, "0002-kitchen-1", "c.jpeg"), cliJPEG(t, 40, 40, color.RGBA{0, 200, 0, 255}))
	if code, out, errOut := bwctl("import-images", "--db", db, "--project", "p1", "--as", "boss", images); code != 0 {
		t.Fatalf("import-images: exit %d\n%s%s", code, out, errOut)
	}
	return db
}

func TestImportSamples(t *testing.T) {
	db := importDB(t)
	fixture := func(name string) string { return filepath.Join("testdata", "import", name) }
	native, multihop, spatial := fixture("native.jsonl"), fixture("multihop.json"), fixture("spatialqa.json")
	dir := t.TempDir()
	malformed := filepath.Join(dir, "malformed.jsonl")
	cliWriteFile(t, malformed, []byte("{\"id\": \"x\", \"kind\": \"open\"}\n{\"id\": \n"))
	notJSON := filepath.Join(dir, "notes.json")
	cliWriteFile(t, notJSON, []byte("these are notes\n"))
	// The SpatiaLQA file again under a name that says nothing, with other ids.
	spatialCopy := filepath.Join(dir, "export.json")
	data, err := os.ReadFile(spatial)
	if err != nil {
		t.Fatal(err)
	}
	cliWriteFile(t, spatialCopy, []byte(strings.ReplaceAll(string(data), `"sq-`, `"copy-sq-`)))

	imp := func(as string, extra ...string) []string {
		return append([]string{"import-samples", "--db", db, "--project", "p1", "--as", as}, extra...)
	}
	ann, lead := pw("userpw"), pw("secret")
	runCases(t, []cliCase{
		{name: "native", env: ann, args: imp("ann", native), code: 1,
			wantOut: []string{"imported 3, skipped 2 (lint errors), 1 id already exists, 1 with unknown images, 1 with lint warnings\n"},
			wantErr: []string{
				native + ":3: nat-yn-1: warning: imported with lint warnings: schema\n",
				native + ":5: nat-bad-hop: skipped, lint errors [hop-mismatch]: ",
				native + ":6: nat-bad-type: skipped, lint errors [schema]: ",
				native + ":7: nat-no-image: skipped: image \"0009-attic-1/gone.jpg\" is not in the project",
				native + ":8: nat-hq-1: skipped: a sample with id \"nat-hq-1\" exists already",
			}, outLines: 1},
		{name: "native again: every id exists", env: ann, args: imp("ann", native), code: 1,
			wantOut: []string{"imported 0, skipped 2 (lint errors), 4 ids already exist, 1 with unknown images\n"}},
		{name: "multihop, detected", env: lead, args: imp("boss", "--author", "ann2", multihop), code: 1,
			wantOut: []string{"imported 2, skipped 1 (lint errors), 1 with unknown images, 1 not convertible, 1 with lint warnings\n"},
			wantErr: []string{
				multihop + ":13: mh-good-2: warning: imported with lint warnings: schema\n",
				multihop + ":16: record 3: skipped, not convertible: ",
				multihop + ":19: mh-bad-lint: skipped, lint errors [option-duplicate]: ",
				multihop + ":22: mh-no-image: skipped: image \"0005-garage-1/z.jpg\" is not in the project",
			}},
		{name: "spatialqa, detected, into round 1", env: lead, args: imp("boss", "--author", "ann", "--to-round1", spatial), code: 1,
			wantOut: []string{"imported 2, skipped 1 (lint errors), 1 with unknown images\n"},
			wantErr: []string{spatial + ":17: sq-cycle: skipped, lint errors [step-cycle", spatial + ":27: sq-no-image: skipped: "}},
		{name: "spatialqa detected without a telling name", env: lead, args: imp("boss", "--author", "ann", spatialCopy), code: 1,
			wantOut: []string{"imported 2, skipped 1 (lint errors), 1 with unknown images\n"}},
		{name: "forced format that does not fit", env: lead, args: imp("boss", "--format", "multihopspatial", fixture("spatialqa.json")), code: 1,
			wantOut: []string{"imported 0, "}, notOut: []string{"imported 1", "imported 2"}},
		{name: "malformed JSONL", env: ann, args: imp("ann", malformed), code: 2,
			wantErr: []string{malformed + ": line 2: malformed JSON"}, emptyOut: true},
		{name: "not JSON", env: ann, args: imp("ann", notJSON), code: 2, wantErr: []string{notJSON + ": line 1"}, emptyOut: true},
		{name: "missing file", env: ann, args: imp("ann", filepath.Join(dir, "nope.jsonl")), code: 2,
			wantErr: []string{"nope.jsonl: no such file or directory"}, emptyOut: true},
		{name: "bad format", env: ann, args: imp("ann", "--format", "csv", native), code: 2, wantErr: []string{`--format "csv"`}},
		{name: "round 1 without author", env: lead, args: imp("boss", "--to-round1", native), code: 2, wantErr: []string{"--to-round1 needs --author"}},
		{name: "annotator into round 1", env: ann, args: imp("ann", "--author", "ann", "--to-round1", native), code: 1,
			wantErr: []string{"only leads may import samples for someone else or straight into round 1"}, emptyOut: true},
		{name: "annotator for someone else", env: ann, args: imp("ann", "--author", "ann2", native), code: 1,
			wantErr: []string{"only leads may import samples for someone else or straight into round 1"}, emptyOut: true},
		{name: "verifier", env: ann, args: imp("vera", native), code: 1, wantErr: []string{"vera is a verifier"}, emptyOut: true},
		{name: "no FILE", env: ann, args: imp("ann"), code: 2, wantErr: []string{"usage: bwctl import-samples"}},
		{name: "unknown project", env: ann, args: []string{"import-samples", "--db", db, "--project", "nope", "--as", "ann", native}, code: 1,
			wantErr: []string{`"nope": not found`}, emptyOut: true},
	})

	// What the store holds now.
	ctx := context.Background()
	s := openStore(t, db)
	for id, want := range map[string]struct {
		state  verify.State
		author string
	}{
		"nat-hq-1": {verify.StateDraft, "ann"}, "nat-sg-1": {verify.StateDraft, "ann"}, "nat-yn-1": {verify.StateDraft, "ann"},
		"mh-good-1": {verify.StateDraft, "ann2"}, "mh-good-2": {verify.StateDraft, "ann2"},
		"sq-good-1": {verify.StateRound1, "ann"}, "sq-good-2": {verify.StateRound1, "ann"},
		"copy-sq-good-1": {verify.StateDraft, "ann"},
	} {
		si, err := s.Sample(ctx, id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if si.Status != want.state || si.AuthorName != want.author {
			t.Errorf("%s: %s by %s, want %s by %s", id, si.Status, si.AuthorName, want.state, want.author)
		}
	}
	if si, _ := s.Sample(ctx, "mh-good-1"); si.Content.AnswerIndex != 1 || si.Content.Box == nil || si.Content.Box[2] != 32 {
		t.Errorf("mh-good-1 converted to %+v (answer (B), bbox_1000 scaled to 64×48)", si.Content)
	}
	if si, _ := s.Sample(ctx, "sq-good-2"); len(si.Content.Steps) != 3 || si.Content.Steps[2].Precondition[0] != "step2" {
		t.Errorf("sq-good-2 converted to %+v", si.Content.Steps)
	}
	for _, id := range []string{"nat-bad-hop", "nat-no-image", "mh-bad-lint", "sq-cycle", "sq-no-image"} {
		if _, err := s.Sample(ctx, id); err == nil {
			t.Errorf("skipped record %s was stored", id)
		}
	}
}

// TestReviewSubmitCorrect: a verifier corrects an imported sample from a file; the
// correction re-enters round 1 and leaves the corrector's queue.
func TestReviewSubmitCorrect(t *testing.T) {
	db := importDB(t)
	spatial := filepath.Join("testdata", "import", "spatialqa.json")
	if code, out, errOut := bwctl("import-samples", "--db", db, "--project", "p1", "--as", "boss", "--author", "ann", "--to-round1", spatial); code != 1 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	dir := t.TempDir()
	fixed := filepath.Join(dir, "fixed.json")
	cliWriteFile(t, fixed, []byte(`{"id": "sq-good-1", "kind": "step_graph", "image": "0001-office-1/a.jpg", "scene": "0001-office-1",
  "question": "Pick up the laptop",
  "steps": [{"id": "step1", "content": "Lift the book off the laptop", "precondition": []},
            {"id": "step2", "content": "Pick up the laptop", "precondition": ["step1"]}]}`))
	cyclic := filepath.Join(dir, "cyclic.json")
	cliWriteFile(t, cyclic, []byte(`{"id": "sq-good-1", "kind": "step_graph", "image": "0001-office-1/a.jpg", "question": "Pick up the laptop",
  "steps": [{"id": "step1", "content": "a", "precondition": ["step2"]}, {"id": "step2", "content": "b", "precondition": ["step1"]}]}`))
	badType := filepath.Join(dir, "badtype.json")
	cliWriteFile(t, badType, []byte(`{"id": "sq-good-1", "kind": "step_graph", "image": "0001-office-1/a.jpg", "question": 7, "steps": []}`))
	notJSON := filepath.Join(dir, "broken.json")
	cliWriteFile(t, notJSON, []byte(`{"id": `))
	vera := pw("userpw")
	sub := func(extra ...string) []string {
		return append([]string{"review", "submit", "--db", db, "--as", "vera", "--sample", "sq-good-1", "--round", "1"}, extra...)
	}
	queue := []string{"review", "queue", "--db", db, "--as", "vera", "--project", "p1"}
	runCases(t, []cliCase{
		{name: "queue before", env: vera, args: queue, code: 0, wantOut: []string{"sq-good-1\tround 1\tstep_graph\trevision 1\n", "sq-good-2\t"}, outLines: 2},
		{name: "queue limit 1", env: vera, args: append(queue, "--limit", "1"), code: 0, wantOut: []string{"sq-good-1\t"}, outLines: 1},
		{name: "no comment", env: vera, args: sub("--correct", fixed), code: 2, wantErr: []string{"--correct FILE needs --sample, --round and --comment"}},
		{name: "with a decision", env: vera, args: sub("--correct", fixed, "--comment", "x", "--decision", "approve"), code: 2,
			wantErr: []string{"takes no --decision"}},
		{name: "missing file", env: vera, args: sub("--correct", filepath.Join(dir, "nope.json"), "--comment", "x"), code: 2,
			wantErr: []string{"nope.json: no such file or directory"}},
		{name: "not JSON", env: vera, args: sub("--correct", notJSON, "--comment", "x"), code: 2, wantErr: []string{"broken.json: not a JSON record"}},
		{name: "wrong type", env: vera, args: sub("--correct", badType, "--comment", "x"), code: 1, wantErr: []string{"badtype.json: schema (question)"}, emptyOut: true},
		{name: "lint error", env: vera, args: sub("--correct", cyclic, "--comment", "x"), code: 1, wantErr: []string{"step-cycle"}, emptyOut: true},
		{name: "stale revision", env: vera, args: sub("--correct", fixed, "--comment", "x", "--revision", "2"), code: 1,
			wantErr: []string{"the sample has changed since you opened it"}, emptyOut: true},
		{name: "annotator", env: vera, args: []string{"review", "submit", "--db", db, "--as", "ann", "--sample", "sq-good-1", "--round", "1",
			"--correct", fixed, "--comment", "x"}, code: 1, wantErr: []string{"ann is an annotator"}, emptyOut: true},
		{name: "correct", env: vera, args: sub("--correct", fixed, "--comment", "step 1 named the wrong action"), code: 0,
			wantOut: []string{"sq-good-1: corrected in round 1 → revision 2, round1\n"}, emptyStErr: true},
		{name: "queue after: the corrector may not review it", env: vera, args: queue, code: 0,
			wantOut: []string{"sq-good-2\t"}, notOut: []string{"sq-good-1"}, outLines: 1},
		{name: "history", env: vera, args: []string{"history", "--db", db, "--sample", "sq-good-1", "--as", "vera"}, code: 0,
			wantOut: []string{"vera\tsample.correct\tround 1 revision 1 → 2: step 1 named the wrong action"}},
		{name: "history needs a signed-in user", args: []string{"history", "--db", db, "--sample", "sq-good-1"}, code: 2,
			wantErr: []string{"--as USER is required"}, emptyOut: true},
	})
}

// A record of the official MultihopSpatial release imports as it is.
func TestImportOfficialMultihopRecord(t *testing.T) {
	db := importDB(t)
	file := filepath.Join(t.TempDir(), "multihop_test.json")
	cliWriteFile(t, file, []byte(`[{"id": 7, "image_path": "0001-office-1/a.jpg", "image_resolution": "64x48", "view": "exo", "hop": "1hop",
 "question": "Which object is <POS>on the left</POS>? <choice>(a) the red cup, (b) the lamp, (c) a book, (d) the pen</choice> And provide the bounding box coordinate of the region related to your answer.",
 "answer": "(b) the lamp", "bbox": [4.5, 6.0, 20.25, 30.0]}]`))
	runCases(t, []cliCase{
		{name: "official record", env: pw("userpw"), args: []string{"import-samples", "--db", db, "--project", "p1", "--as", "ann", file}, code: 0,
			wantOut: []string{"imported 1"}},
	})
	s := openStore(t, db)
	got, err := s.Sample(context.Background(), "7")
	if err != nil {
		t.Fatal(err)
	}
	if got.Content.Question != "Which object is on the left?" || got.Content.AnswerIndex != 1 || *got.Content.Box != (annotate.Box{4.5, 6, 24.75, 36}) {
		t.Errorf("imported %+v", got.Content)
	}
}
