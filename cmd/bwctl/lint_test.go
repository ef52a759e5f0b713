package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func runLintCmd(t *testing.T, args ...string) (code int, findings []annotate.Finding, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runLint(context.Background(), args, &out, &errOut)
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var f annotate.Finding
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("stdout line %q: %v", sc.Text(), err)
		}
		findings = append(findings, f)
	}
	return code, findings, errOut.String()
}

// TestLintEveryRule lints testdata/lint/bad.jsonl, where each sample's id is the rule
// it breaks, and checks that every rule fires on its sample with its severity.
func TestLintEveryRule(t *testing.T) {
	code, fs, stderr := runLintCmd(t, filepath.Join("testdata", "lint", "bad.jsonl"))
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	checkImageNotes(t, stderr, filepath.Join("testdata", "lint"))
	warnings := map[string]bool{annotate.RuleExoPhrase: true, annotate.RuleColourInOptions: true, annotate.RuleSceneName: true, annotate.RuleStepUnreachable: true, annotate.RuleSpacing: true}
	for _, rule := range annotate.Rules {
		found := false
		for _, f := range fs {
			if f.Sample == rule && f.Rule == rule {
				found = true
				want := annotate.SeverityError
				if warnings[rule] {
					want = annotate.SeverityWarning
				}
				if f.Severity != want || f.Message == "" {
					t.Errorf("%s: %+v, want severity %s", rule, f, want)
				}
			}
		}
		if !found {
			t.Errorf("rule %s did not fire on sample %s", rule, rule)
		}
	}
	var noID []string
	for _, f := range fs {
		if f.Sample == "line 23" {
			noID = append(noID, f.Rule+" "+f.Field)
		}
	}
	if strings.Join(noID, ",") != "schema id" {
		t.Errorf("findings for the record without id: %q", noID)
	}
}

func TestLintWarningsOnly(t *testing.T) {
	code, fs, stderr := runLintCmd(t, filepath.Join("testdata", "lint", "warnings.jsonl"))
	if code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
	checkImageNotes(t, stderr, filepath.Join("testdata", "lint"))
	var got []string
	for _, f := range fs {
		got = append(got, f.Sample+" "+f.Rule+" "+f.Severity+" "+f.Field)
	}
	want := []string{
		"warn-exo exo-phrase warning question",
		"warn-steps steps-count warning steps",
		"ok-open schema warning x-source",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLintUnreadableInput(t *testing.T) {
	malformed := filepath.Join("testdata", "lint", "malformed.jsonl")
	code, fs, stderr := runLintCmd(t, malformed)
	if code != 2 || !strings.Contains(stderr, malformed+":3: malformed JSON") {
		t.Errorf("malformed: exit %d, stderr %q", code, stderr)
	}
	if len(fs) != 1 || fs[0].Rule != annotate.RuleBoxMissing {
		t.Errorf("findings before the malformed line: %+v", fs)
	}

	missing := filepath.Join(t.TempDir(), "nope.jsonl")
	if code, _, stderr := runLintCmd(t, missing); code != 2 || !strings.Contains(stderr, "nope.jsonl") {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runLintCmd(t); code != 2 || !strings.Contains(stderr, lintUsage) {
		t.Errorf("no file: exit %d, stderr %q", code, stderr)
	}
	if code, _, _ := runLintCmd(t, "--images", filepath.Join(t.TempDir(), "none"), malformed); code != 2 {
		t.Errorf("missing images folder: exit %d", code)
	}
}

func TestLintImages(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "scene"), 0o755); err != nil {
		t.Fatal(err)
	}
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 100, 50))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scene", "a.png"), img.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	records := `{"id":"inside","kind":"judgment","image":"scene/a.png","question":"Is it left?","answer":"yes","box":[0,0,100,50]}
{"id":"outside","kind":"judgment","image":"scene/a.png","question":"Is it left?","answer":"yes","box":[10,10,120,40]}
{"id":"unknown","kind":"judgment","image":"scene/missing.png","question":"Is it left?","answer":"yes","box":[10,10,120,40]}
{"id":"escape","kind":"judgment","image":"../a.png","question":"Is it left?","answer":"yes","box":[10,10,120,40]}
`
	file := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(file, []byte(records), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fs, stderr := runLintCmd(t, file, "--images", dir)
	if code != 1 || len(fs) != 1 || fs[0].Sample != "outside" || fs[0].Rule != annotate.RuleBoxInvalid ||
		!strings.Contains(fs[0].Message, "100×50") {
		t.Errorf("exit %d, findings %+v", code, fs)
	}
	if !strings.Contains(stderr, "image scene/missing.png") || !strings.Contains(stderr, "image ../a.png") {
		t.Errorf("stderr %q should note the unreadable images", stderr)
	}
	// Without --images, image paths are resolved beside the file: the same findings.
	code, fs, stderr = runLintCmd(t, file)
	if code != 1 || len(fs) != 1 || fs[0].Sample != "outside" || !strings.Contains(stderr, "image paths are resolved in "+dir) ||
		!strings.Contains(stderr, "image scene/missing.png is not in "+dir+"; its boxes are not checked") {
		t.Errorf("without --images: exit %d, findings %+v, stderr %q", code, fs, stderr)
	}
	// A native release keeps its images in images/ beside samples.jsonl.
	rel := t.TempDir()
	if err := os.MkdirAll(filepath.Join(rel, "images", "scene"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rel, "images", "scene", "a.png"), img.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rel, "samples.jsonl"), []byte(records), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fs, stderr = runLintCmd(t, filepath.Join(rel, "samples.jsonl"))
	if code != 1 || len(fs) != 1 || fs[0].Sample != "outside" || !strings.Contains(stderr, "resolved in "+filepath.Join(rel, "images")) {
		t.Errorf("native release: exit %d, findings %+v, stderr %q", code, fs, stderr)
	}
}

// checkImageNotes checks that stderr holds only the note on where images are looked
// for and one note per image that is not there.
func checkImageNotes(t *testing.T, stderr, dir string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if lines[0] != "bwctl lint: image paths are resolved in "+dir+" (--images DIR to choose another folder)" {
		t.Errorf("first stderr line %q", lines[0])
	}
	seen := map[string]bool{}
	for _, l := range lines[1:] {
		if !strings.Contains(l, " is not in "+dir+"; its boxes are not checked against its bounds") || seen[l] {
			t.Errorf("stderr line %q", l)
		}
		seen[l] = true
	}
}
