package main

import (
	"encoding/json"
	"fmt"
	"image/color"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// TestValidation walks a generated batch through bwctl: import with its audit,
// a seeded draw by task, status as text and JSON, accept-rest refused while the
// sample waits for round 1.
func TestValidation(t *testing.T) {
	db := initDB(t)
	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "0001-office-1", "a.jpg"), cliJPEG(t, 64, 48, color.RGBA{200, 0, 0, 255}))
	setPasswords(t, pw("secret"))
	if code, out, errOut := bwctl("import-images", "--db", db, "--project", "p1", "--as", "boss", images); code != 0 {
		t.Fatalf("import-images: %d\n%s%s", code, out, errOut)
	}
	var lines []string
	for i := range 200 {
		s := annotate.Sample{ID: fmt.Sprintf("g-%03d", i), Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg",
			Question: fmt.Sprintf("Which object is closest to marker %d?", i), QuestionTag: fmt.Sprintf("<REL>Which object is closest to marker %d?</REL>", i),
			Options: []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1, Categories: []annotate.Category{annotate.CatRel},
			Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}, Task: fmt.Sprintf("T%d", i%2+1)}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	lines = append(lines, strings.Replace(lines[0], `"g-000"`, `"g-dup"`, 1)) // the same question again
	file := filepath.Join(t.TempDir(), "gen.jsonl")
	cliWriteFile(t, file, []byte(strings.Join(lines, "\n")+"\n"))

	base := []string{"--db", db, "--project", "p1", "--as", "boss", "--batch", "gen1"}
	args := func(sub string, more ...string) []string {
		return append(append([]string{"validation", sub}, base...), more...)
	}
	runCases(t, []cliCase{
		{name: "usage", args: []string{"validation"}, env: pw("secret"), code: exitUsage, wantErr: []string{"usage: bwctl validation import"}},
		{name: "import", args: args("import", file), env: pw("secret"), code: exitFindings,
			wantOut: []string{"error\tduplicate-question\tg-dup", "batch gen1: 200 generated items imported; 1 records left out"}},
		{name: "draw needs a threshold", args: args("draw", "--per-stratum", "10"), env: pw("secret"), code: exitFindings,
			wantErr: []string{"the first draw sets the error-rate threshold"}},
		{name: "draw", args: args("draw", "--seed", "3", "--per-stratum", "10", "--threshold", "0.1"), env: pw("secret"), code: 0,
			wantOut: []string{"draw 1 of batch gen1 (by task, seed 3): 20 items added to round 1; 20 of 200 sampled"}},
		{name: "status", args: args("status"), env: pw("secret"), code: 0,
			wantOut: []string{"T1", "T2", "batch", "the rest cannot be accepted: 20 sampled items still wait for round 1"}},
		{name: "status json", args: args("status", "--json"), env: pw("secret"), code: 0,
			wantOut: []string{`"stratify":"task"`, `"stratum":"T1","items":100,"sampled":10,"pending":10,"n":0,"errors":0,"rate":0,"ci95":[0,1]`,
				`"overall":{"stratum":"batch","items":200,"sampled":20`, `"can_accept_rest":false`}},
		{name: "accept-rest refused", args: args("accept-rest"), env: pw("secret"), code: exitFindings,
			wantErr: []string{"20 sampled items still wait for round 1"}},
	})
}
