package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
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
		si, err := s.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if si.Status != want.state || si.AuthorName != want.author {
			t.Errorf("%s: %s by %s, want %s by %s", id, si.Status, si.AuthorName, want.state, want.author)
		}
	}
	if si, _ := s.Sample(ctx, bench.Owner(), "mh-good-1"); si.Content.AnswerIndex != 1 || si.Content.Box == nil || si.Content.Box[2] != 32 {
		t.Errorf("mh-good-1 converted to %+v (answer (B), bbox_1000 scaled to 64×48)", si.Content)
	}
	if si, _ := s.Sample(ctx, bench.Owner(), "sq-good-2"); len(si.Content.Steps) != 3 || si.Content.Steps[2].Precondition[0] != "step2" {
		t.Errorf("sq-good-2 converted to %+v", si.Content.Steps)
	}
	for _, id := range []string{"nat-bad-hop", "nat-no-image", "mh-bad-lint", "sq-cycle", "sq-no-image"} {
		if _, err := s.Sample(ctx, bench.Owner(), id); err == nil {
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
	got, err := s.Sample(context.Background(), bench.Owner(), "7")
	if err != nil {
		t.Fatal(err)
	}
	if got.Content.Question != "Which object is on the left?" || got.Content.AnswerIndex != 1 || *got.Content.Box != (annotate.Box{4.5, 6, 24.75, 36}) {
		t.Errorf("imported %+v", got.Content)
	}
}

// vlmTSV writes rows as VLMEvalKit's dump_tsv does: tab-separated, every cell
// quoted (csv.QUOTE_ALL), a quote doubled.
func vlmTSV(rows [][]string) []byte {
	var b strings.Builder
	for _, row := range rows {
		for i, c := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(`"` + strings.ReplaceAll(c, `"`, `""`) + `"`)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func colourPNG(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestImportSamplesVLMEvalKit: a TSV as VLMEvalKit writes it, with its images in
// base64, imports into a real database: the images are written into --images-to
// and imported from there (an image the project has already is named by its path),
// then the samples; bad rows are reported by line and the others imported.
func TestImportSamplesVLMEvalKit(t *testing.T) {
	db := importDB(t)
	dir := t.TempDir()
	green := colourPNG(t, 30, 20, color.RGBA{0, 160, 0, 255})
	office := cliJPEG(t, 64, 48, color.RGBA{200, 0, 0, 255}) // the project's 0001-office-1/a.jpg
	enc := base64.StdEncoding.EncodeToString
	tsv := filepath.Join(dir, "bench.tsv")
	cliWriteFile(t, tsv, vlmTSV([][]string{
		{"index", "image", "question", "A", "B", "C", "answer", "hint", "category", "split"},
		{"1", enc(green), "Which object is left of the plant?", "the mug", "the lamp", "the pen", "B", "", "left-right", "test"},
		{"2", "1", "Which object is right of the plant?", "the mug", "the lamp", "", "A", "Look closely.", "left-right", "test"},
		{"3", enc(office), "Is the wall red?", "", "", "", "Yes", "", "colour", "test"},
		{"4", "1", "NA", "the mug", "the lamp", "", "A", "", "left-right", "test"},
		{"5", "", "Where is the cat?", "the mug", "the lamp", "", "A", "", "left-right", "test"},
		{"6", "3", "Which is on the desk?", "the mug", "The mug", "", "A", "", "desk", "test"},
	}))
	imagesTo := filepath.Join(dir, "extracted")
	nonEmpty := filepath.Join(dir, "full")
	cliWriteFile(t, filepath.Join(nonEmpty, "keep.txt"), []byte("mine"))
	imp := func(extra ...string) []string {
		return append([]string{"import-samples", "--db", db, "--project", "p1", "--as", "ann"}, extra...)
	}
	ann := pw("userpw")
	runCases(t, []cliCase{
		{name: "no --images-to", env: ann, args: imp(tsv), code: 2, wantErr: []string{"give --images-to DIR"}, emptyOut: true},
		{name: "--images-to not empty", env: ann, args: imp("--images-to", nonEmpty, tsv), code: 2,
			wantErr: []string{"--images-to " + nonEmpty + " is not empty"}, emptyOut: true},
		{name: "--images-to for another format", env: ann, args: imp("--images-to", imagesTo, filepath.Join("testdata", "import", "coco.json")), code: 2,
			wantErr: []string{"--images-to is for VLMEvalKit TSVs"}, emptyOut: true},
		{name: "tsv", env: ann, args: imp("--images-to", imagesTo, tsv), code: 1,
			wantOut: []string{
				"images: wrote 1 to " + imagesTo + ", imported 1, 1 in the project already\n",
				"imported 3, skipped 1 (lint errors), 2 not convertible, 1 with lint warnings\n",
			},
			wantErr: []string{
				tsv + ":3: vlm-2: warning: imported with lint warnings: schema\n",
				tsv + ":5: row 4: skipped, not convertible: question: VLMEvalKit would read this as missing: pandas takes the cell \"NA\" for no value\n",
				tsv + ":6: row 5: skipped, not convertible: image: the cell is empty; VLMEvalKit drops rows without an image\n",
				tsv + ":7: vlm-6: skipped, lint errors [option-duplicate]: ",
			}, outLines: 2},
		{name: "again: every image and id is there", env: ann, args: imp("--images-to", filepath.Join(dir, "again"), tsv), code: 1,
			wantOut: []string{"images: all 2 are in the project already\n", "imported 0, skipped 1 (lint errors), 3 ids already exist, 2 not convertible\n"}},
	})
	if _, err := os.Stat(filepath.Join(dir, "again")); !os.IsNotExist(err) {
		t.Errorf("nothing to write, yet the folder was made: %v", err)
	}
	written, err := os.ReadFile(filepath.Join(imagesTo, "vlmevalkit", "bench", "1.png"))
	if err != nil || !bytes.Equal(written, green) {
		t.Fatalf("extracted image: %v", err)
	}
	s := openStore(t, db)
	ctx := context.Background()
	for id, want := range map[string]struct {
		kind  annotate.Kind
		image string
	}{
		"vlm-1": {annotate.KindMCQ, "vlmevalkit/bench/1.png"},
		"vlm-2": {annotate.KindMCQ, "vlmevalkit/bench/1.png"},
		"vlm-3": {annotate.KindJudgment, "0001-office-1/a.jpg"},
	} {
		si, err := s.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if si.Content.Kind != want.kind || si.ImagePath != want.image || si.Status != verify.StateDraft || si.AuthorName != "ann" {
			t.Errorf("%s: %s on %q, %s by %s", id, si.Content.Kind, si.ImagePath, si.Status, si.AuthorName)
		}
	}
	if si, _ := s.Sample(ctx, bench.Owner(), "vlm-1"); si.Content.AnswerIndex != 1 || si.Content.Task != "left-right" || si.Content.Split != "test" {
		t.Errorf("vlm-1 = %+v", si.Content)
	}
	if si, _ := s.Sample(ctx, bench.Owner(), "vlm-3"); si.Content.AnswerText != "yes" {
		t.Errorf("vlm-3 = %+v", si.Content)
	}
	if im, err := s.ImageByPath(ctx, bench.Owner(), 1, "vlmevalkit/bench/1.png"); err != nil || im.Width != 30 || im.Height != 20 || im.Scene != "bench" {
		t.Errorf("imported image %+v %v", im, err)
	}
}

// TestImportSamplesBoxSources: COCO and Label Studio files come in as draft boxes
// an annotator writes questions for; bad records are reported by line.
func TestImportSamplesBoxSources(t *testing.T) {
	db := importDB(t)
	coco := filepath.Join("testdata", "import", "coco.json")
	ls := filepath.Join("testdata", "import", "labelstudio.json")
	dir := t.TempDir()
	lsCopy := filepath.Join(dir, "export.json") // detected by its content
	data, err := os.ReadFile(ls)
	if err != nil {
		t.Fatal(err)
	}
	cliWriteFile(t, lsCopy, regexp.MustCompile(`"id": ([0-9])`).ReplaceAll(data, []byte(`"id": 10$1`)))
	imp := func(as string, extra ...string) []string {
		return append([]string{"import-samples", "--db", db, "--project", "p1", "--as", as}, extra...)
	}
	ann, lead := pw("userpw"), pw("secret")
	runCases(t, []cliCase{
		{name: "coco into round 1: drafts only", env: lead, args: imp("boss", "--author", "ann", "--to-round1", "--format", "coco", coco), code: 1,
			wantOut: []string{"imported 0, skipped 3 (lint errors), 1 with unknown images, 1 not convertible, 1 left out as the file marks them\n"}},
		{name: "coco, detected", env: ann, args: imp("ann", coco), code: 1,
			wantOut: []string{"imported 3, 3 of them drafts to complete (lint errors), 1 with unknown images, 1 not convertible, 1 left out as the file marks them\n"},
			wantErr: []string{
				coco + ":11: annotation 3: left out: iscrowd is 1: a crowd region, which COCO evaluation ignores\n",
				coco + ":12: coco-3: skipped: image \"0009-attic-1/gone.jpg\" is not in the project",
				coco + ":13: annotation 5: skipped, not convertible: category_id: no category entry has id 9\n",
				coco + ":14: coco-5: imported as a draft with lint errors: ",
				"box-invalid (box): box [50, 5, 80, 15]: box extends past the 64×48 image",
			}, outLines: 1},
		{name: "label studio", env: ann, args: imp("ann", "--format", "labelstudio", ls), code: 1,
			wantOut: []string{"imported 2, 1 of them drafts to complete (lint errors), 1 with unknown images, 1 not convertible, 1 left out as the file marks them\n"},
			wantErr: []string{
				ls + ":12: task 3: skipped, not convertible: annotation 31, result 1 (rectanglelabels \"label\"): the box is rotated by 30°",
				ls + ":16: task 4: left out: task 4: no annotation (predictions are never imported)\n",
				ls + ":17: ls-5: skipped: image \"nothere.jpg\" is not in the project",
			}, outLines: 1},
		{name: "label studio, detected", env: ann, args: imp("ann", lsCopy), code: 1,
			wantOut: []string{"imported 2, 1 of them drafts to complete (lint errors), "}},
	})
	s := openStore(t, db)
	ctx := context.Background()
	box, err := s.Sample(ctx, bench.Owner(), "coco-1")
	if err != nil {
		t.Fatal(err)
	}
	if box.ImagePath != "0002-kitchen-1/c.jpeg" || box.Status != verify.StateDraft || *box.Content.Box != (annotate.Box{2, 2, 12, 12}) ||
		!slices.Equal(box.Content.Tags, []string{"coco:pan"}) || box.Content.Question != "" {
		t.Errorf("coco-1 (c.jpeg found by its file name) = %s %+v", box.ImagePath, box.Content)
	}
	draft, err := s.Sample(ctx, bench.Owner(), "ls-1")
	if err != nil {
		t.Fatal(err)
	}
	if draft.ImagePath != "0001-office-1/a.jpg" || draft.Content.Kind != annotate.KindHopQA || *draft.Content.Box != (annotate.Box{16, 12, 48, 36}) ||
		draft.Content.Question != "Which object is closest to the camera?" || draft.Content.AnswerIndex != 1 || len(draft.Content.Options) != 4 {
		t.Errorf("ls-1 = %s %+v", draft.ImagePath, draft.Content)
	}
	yn, err := s.Sample(ctx, bench.Owner(), "ls-2")
	if err != nil || yn.Content.Kind != annotate.KindJudgment || yn.Content.AnswerText != "yes" || yn.ImagePath != "0002-kitchen-1/c.jpeg" {
		t.Errorf("ls-2 = %+v %v", yn, err)
	}
}

// TestImportSamplesSpatialScore: items shaped as SpatialScore's released Hard file
// (version_0/dataset/SpatialScore-Hard.json: index, category, subcategory,
// question_type, input_modality, question with its options, answer, img_paths,
// source, index_origin, category_origin) are found by their fields and imported,
// every image in order; an item whose modality and images disagree is reported.
func TestImportSamplesSpatialScore(t *testing.T) {
	db := importDB(t)
	file := filepath.Join(t.TempDir(), "SpatialScore-Hard.json")
	cliWriteFile(t, file, []byte(`[
  {"index": 258, "category": "Others", "subcategory": "Miscellaneous", "question_type": "multi-choice", "input_modality": "single-image",
   "question": "In the picture, are the elderly people moving to the left or to the right?\n(a) Left (b) Right", "answer": "(a)",
   "img_paths": ["./0001-office-1/a.jpg"], "source": "MMVP", "index_origin": 259, "category_origin": "unknown"},
  {"index": 8740, "category": "Point and Object Tracking", "subcategory": "Point Correspondence", "question_type": "multi-choice",
   "input_modality": "multi-images", "question": "Which point on the second image corresponds to the point in the first image?\nA: Point A\nB: Point B\nC: Point C",
   "answer": "C", "img_paths": ["./0002-kitchen-1/c.jpeg", "./0001-office-1/a.jpg"], "source": "MMIU", "index_origin": 0, "category_origin": "visual_correspondence_scannet"},
  {"index": 16375, "category": "Counting", "subcategory": "Object Counting", "question_type": "open-ended", "input_modality": "video",
   "question": "How many ceiling light(s) are in this room?", "answer": "4",
   "img_paths": ["./0001-office-1/a.jpg", "./0002-kitchen-1/c.jpeg"], "source": "VSI-Bench_8", "index_origin": 2494, "category_origin": "object_counting"},
  {"index": 11365, "category": "3D Positional Relation", "subcategory": "Orientation", "question_type": "judgment", "input_modality": "single-image",
   "question": "Is this statement true based on the image: 'The parking meter is behind the car.'? Answer with Yes or No.", "answer": "No",
   "img_paths": ["./0002-kitchen-1/c.jpeg"], "source": "VSR-ZeroShot", "index_origin": "000000550019.jpg", "category_origin": "unknown"},
  {"index": 9, "category": "Counting", "subcategory": "Object Counting", "question_type": "open-ended", "input_modality": "video",
   "question": "How many?", "answer": "2", "img_paths": ["./0001-office-1/a.jpg"], "source": "VSI-Bench_8", "index_origin": 1, "category_origin": "x"}
]`))
	runCases(t, []cliCase{
		{name: "hard file", env: pw("userpw"), args: []string{"import-samples", "--db", db, "--project", "p1", "--as", "ann", file}, code: 1,
			wantOut: []string{"imported 4"}, wantErr: []string{`input_modality: "video", but img_paths lists 1 images`}},
	})
	s := openStore(t, db)
	want := map[string]struct {
		kind   annotate.Kind
		images []string
		answer string
		task   string
	}{
		"ss-258":   {annotate.KindMCQ, []string{"0001-office-1/a.jpg"}, "A", "Others"},
		"ss-8740":  {annotate.KindMCQ, []string{"0002-kitchen-1/c.jpeg", "0001-office-1/a.jpg"}, "C", "Point and Object Tracking"},
		"ss-16375": {annotate.KindOpen, []string{"0001-office-1/a.jpg", "0002-kitchen-1/c.jpeg"}, "4", "Counting"},
		"ss-11365": {annotate.KindJudgment, []string{"0002-kitchen-1/c.jpeg"}, "no", "3D Positional Relation"},
	}
	for id, w := range want {
		got, err := s.Sample(context.Background(), bench.Owner(), id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		c := got.Content
		answer := c.AnswerText
		if c.Kind == annotate.KindMCQ {
			answer = annotate.AnswerLetter(c.AnswerIndex)
		}
		if c.Kind != w.kind || !slices.Equal(c.AllImages(), w.images) || answer != w.answer || c.Task != w.task {
			t.Errorf("%s: kind %s, images %q, answer %s, task %q; want %s, %q, %s, %q", id, c.Kind, c.AllImages(), answer, c.Task, w.kind, w.images, w.answer, w.task)
		}
	}
}

// lmmsEvalTestJSONL exports samples as a lmms-eval task, as `bwctl export --format
// lmms-eval` does, on importDB's images, and returns its test.jsonl: a hop question
// on one image, and one on two images (kitchen, then office) whose box is on the
// second.
func lmmsEvalTestJSONL(t *testing.T) string {
	t.Helper()
	images := map[string][]byte{
		"0001-office-1/a.jpg":   cliJPEG(t, 64, 48, color.RGBA{200, 0, 0, 255}),
		"0002-kitchen-1/c.jpeg": cliJPEG(t, 40, 40, color.RGBA{0, 200, 0, 255}),
	}
	hop := func(id string, box annotate.Box) annotate.Sample {
		return annotate.Sample{ID: id, Kind: annotate.KindHopQA, Question: "Which object is left of the lamp?",
			Options: []string{"the cup", "the pen", "the book", "the lamp"}, AnswerIndex: 1, Categories: []annotate.Category{annotate.CatPos},
			Hop: 1, View: annotate.ViewExo, Box: &box, Split: annotate.SplitTest}
	}
	one := hop("lm-one", annotate.Box{2, 3, 30, 40})
	one.Image = "0001-office-1/a.jpg"
	two := hop("lm-two", annotate.Box{10, 5, 60, 45})
	two.SetImages([]string{"0002-kitchen-1/c.jpeg", "0001-office-1/a.jpg"})
	two.ImageLabels, two.BoxImage = []string{"kitchen", "office"}, 1
	recs := []release.Record{
		{Sample: one, Width: 64, Height: 48},
		{Sample: two, Width: 40, Height: 40, More: []release.ImageFacts{{Path: "0001-office-1/a.jpg", Width: 64, Height: 48}}},
	}
	f, err := release.Lookup("lmms-eval")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := release.Export(context.Background(), release.DirSink(dir), release.ExportRequest{Format: f, Records: recs,
		Open: func(p string) (io.ReadCloser, error) {
			b, ok := images[p]
			if !ok {
				return nil, os.ErrNotExist
			}
			return io.NopCloser(bytes.NewReader(b)), nil
		},
		Info: release.ExportInfo{Release: release.ReleaseInfo{Name: "office", Version: "1.0"}}}); err != nil {
		t.Fatal(err)
	}
	found, _ := filepath.Glob(filepath.Join(dir, "*", "test.jsonl"))
	if len(found) != 1 {
		t.Fatalf("the lmms-eval export holds test.jsonl files %v", found)
	}
	return found[0]
}

// A lmms-eval task's test.jsonl imports, with --format lmms-eval or detected as
// such (not as native JSONL): a sample of several images comes back with its images
// in order, its labels and the image its box is on.
func TestImportSamplesLMMSEval(t *testing.T) {
	file := lmmsEvalTestJSONL(t)
	for _, format := range []string{"lmms-eval", "auto"} {
		t.Run(format, func(t *testing.T) {
			db := importDB(t)
			runCases(t, []cliCase{{name: "import", env: pw("userpw"),
				args: []string{"import-samples", "--db", db, "--project", "p1", "--as", "ann", "--format", format, file},
				code: 0, wantOut: []string{"imported 2"}}})
			s := openStore(t, db)
			got, err := s.Sample(context.Background(), bench.Owner(), "lm-two")
			if err != nil {
				t.Fatal(err)
			}
			c := got.Content
			if want := []string{"0002-kitchen-1/c.jpeg", "0001-office-1/a.jpg"}; !slices.Equal(c.AllImages(), want) ||
				!slices.Equal(c.Labels(), []string{"kitchen", "office"}) || c.BoxImage != 1 || c.Box == nil || *c.Box != (annotate.Box{10, 5, 60, 45}) {
				t.Errorf("lm-two: images %q, labels %q, box %v on image %d; want %q, [kitchen office], [10 5 60 45] on image 1",
					c.AllImages(), c.Labels(), c.Box, c.BoxImage, want)
			}
			if one, err := s.Sample(context.Background(), bench.Owner(), "lm-one"); err != nil || !slices.Equal(one.Content.AllImages(), []string{"0001-office-1/a.jpg"}) {
				t.Errorf("lm-one: %v, %v", one.Content.AllImages(), err)
			}
		})
	}
}
