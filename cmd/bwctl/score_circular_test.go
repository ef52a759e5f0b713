package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestScoreCircular: the predictions VLMEvalKit writes for a circular export
// (bwctl export --format vlmevalkit --circular) are imported as one run and
// scored the circular way. The release's option questions (hq-001, hq-002 and
// mc-001, answer A each) count only when every rotated copy names the right
// option by that copy's letter: a model answering each copy's own answer scores
// 100 %, one answering A (the question's own letter) on every copy 0 %, and one
// right everywhere but on one copy of mc-001 loses that question only.
func TestScoreCircular(t *testing.T) {
	db := benchRelease(t)
	setPasswords(t, pw("demo"))
	dir := t.TempDir()
	export := filepath.Join(dir, "export")
	if code, _, errOut := bwctl("export", "--db", db, "--release", "bench@1.0", "--format", "vlmevalkit", "--circular", "--out", export); code != 0 {
		t.Fatal(errOut)
	}
	f, err := os.Open(filepath.Join(export, "bench_circular_MCQ.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(f)
	r.Comma = '\t'
	rows, err := r.ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	copies := 0
	for _, row := range rows[1:] {
		if i, _ := strconv.Atoi(row[col("index")]); i >= 1_000_000 {
			copies++
		}
	}
	if copies != 3+3+2 { // hq-001 and hq-002 of 4 options, mc-001 of 3
		t.Fatalf("%d rotated copies in the export", copies)
	}
	answer := func(row []string, letter string) string {
		if row[col("kind")] == "hop_qa" {
			return "Answer: (" + letter + ")"
		}
		return letter
	}
	for _, m := range []struct {
		model  string
		answer func(row []string) string
		acc    float64
	}{
		{"each-copy", func(row []string) string { return answer(row, row[col("answer")]) }, 100},
		{"always-a", func(row []string) string { return answer(row, "A") }, 0},
		{"one-copy-wrong", func(row []string) string {
			if i, _ := strconv.Atoi(row[col("index")]); row[col("id")] == "demo-mc-001" && i/1_000_000 == 1 {
				return "A" // copy 1's options are the question's rotated by one: its answer is C
			}
			return answer(row, row[col("answer")])
		}, 200.0 / 3},
	} {
		out := filepath.Join(dir, m.model+"_bench_circular_MCQ.tsv")
		w, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cw := csv.NewWriter(w)
		cw.Comma = '\t'
		img := col("image")
		for i, row := range rows {
			pred := "prediction"
			if i > 0 {
				pred = m.answer(row)
			}
			cw.Write(append(slices.Delete(slices.Clone(row), img, img+1), pred))
		}
		cw.Flush()
		w.Close()
		runCases(t, []cliCase{{name: m.model + " import", env: pw("demo"),
			args: []string{"predictions", "import", "--db", db, "--release", "bench@1.0", "--model", m.model, "--as", "lead", out},
			code: 0, wantOut: []string{fmt.Sprintf("imported 3 predictions of %s for bench@1.0", m.model)},
			wantErr: []string{"note: a circular run (VLMEvalKit's rotated copies, indexes of 1000000 and more): 3 questions with 8 answered copies"}}})
		code, stdout, errOut := bwctl("score", "--db", db, "--release", "bench@1.0", "--as", "lead", "--json", "--draws", "0", "--model", m.model)
		if code != 0 {
			t.Fatal(errOut)
		}
		reps := readReports(t, stdout)
		if got := reps[0].Overall.Metric("mcq_acc"); got == nil || got.N != 3 || got.Value < m.acc-1e-9 || got.Value > m.acc+1e-9 {
			t.Errorf("%s: mcq_acc %+v, want %v of 3", m.model, got, m.acc)
		}
	}
}
