package release

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// TestVLMEvalKitCircular: the circular export writes each question of n options
// n times, rotated, with VLMEvalKit's index scheme, in a file whose name switches
// VLMEvalKit to circular evaluation. Scored by VLMEvalKit's own circular logic
// (testdata/consumers/vlmevalkit_scorer.py mcq_circular): a model right on every
// copy scores 100 %; one that answers each question's original letter on every
// copy, 0 %; one copy wrong loses its question only. Read gives the questions
// back once each, as the plain export's.
func TestVLMEvalKitCircular(t *testing.T) {
	recs, images := vlmRelease(t, func(int) string { return "" })
	dir := t.TempDir()
	info := fixtureInfo(fixedTime)
	info.Release.Name = "mixed bench"
	m, err := Export(context.Background(), DirSink(dir), ExportRequest{Format: vlmEvalKit{circular: true}, Records: recs, Open: opener(images), Info: info})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range m.Files {
		files = append(files, f.Path)
	}
	const mcqFile = "mixed_bench_circular_MCQ.tsv"
	if want := []string{"mixed_bench_YN.tsv", mcqFile}; !slices.Equal(files, want) {
		t.Fatalf("files %q, want %q", files, want)
	}
	b, err := os.ReadFile(filepath.Join(dir, mcqFile))
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.Comma = '\t'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	// Each question and its copies: the options rotated, the answer with them.
	byIndex := map[int][]string{}
	for _, row := range rows[1:] {
		i, err := strconv.Atoi(row[col["index"]])
		if err != nil {
			t.Fatalf("index %q", row[col["index"]])
		}
		byIndex[i] = row
	}
	questions, copies := 0, 0
	var perfect, original, oneWrong []string
	for i, row := range byIndex {
		if i >= circularStride {
			continue
		}
		questions++
		var opts []string
		for l := 'A'; l <= 'Z'; l++ {
			if c, ok := col[string(l)]; ok && row[c] != "" {
				opts = append(opts, row[c])
			}
		}
		gold := row[col["answer"]]
		for k := range len(opts) {
			copyRow, ok := byIndex[i+k*circularStride]
			if !ok {
				t.Fatalf("question %d (%d options): no copy %d", i, len(opts), k)
			}
			if k > 0 {
				copies++
			}
			for l := range opts {
				if got, want := copyRow[col[annotate.AnswerLetter(l)]], opts[(l+k)%len(opts)]; got != want {
					t.Errorf("question %d copy %d option %s: %q, want %q", i, k, annotate.AnswerLetter(l), got, want)
				}
			}
			ans := copyRow[col["answer"]]
			if copyRow[col[ans]] != row[col[gold]] || copyRow[col["id"]] != row[col["id"]] {
				t.Errorf("question %d copy %d: answer %s (%q), id %s", i, k, ans, copyRow[col[ans]], copyRow[col["id"]])
			}
			index := strconv.Itoa(i + k*circularStride)
			perfect = append(perfect, mustJSON(map[string]string{"index": index, "prediction": ans}))
			original = append(original, mustJSON(map[string]string{"index": index, "prediction": gold}))
			wrong := ans
			if k == len(opts)-1 && i == 1 {
				wrong = map[string]string{"A": "B"}[ans]
				if wrong == "" {
					wrong = "A"
				}
			}
			oneWrong = append(oneWrong, mustJSON(map[string]string{"index": index, "prediction": wrong}))
		}
	}
	if questions < 3 || copies < questions {
		t.Fatalf("%d questions, %d copies: the fixture tests nothing", questions, copies)
	}
	for _, tt := range []struct {
		name  string
		preds []string
		want  float64
	}{
		{"right on every copy", perfect, 1},
		{"the original letter on every copy", original, 0},
		{"one copy of one question wrong", oneWrong, float64(questions-1) / float64(questions)},
	} {
		p := filepath.Join(t.TempDir(), "preds.jsonl")
		if err := os.WriteFile(p, []byte(strings.Join(tt.preds, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Rows    int                 `json:"rows"`
			Copies  int                 `json:"copies"`
			Overall map[string]*float64 `json:"Overall"`
		}
		runConsumer(t, "vlmevalkit_scorer.py", &got, "mcq_circular", filepath.Join(dir, mcqFile), p)
		if got.Rows != questions || got.Copies != copies {
			t.Errorf("%s: VLMEvalKit scored %d questions with %d copies, want %d and %d", tt.name, got.Rows, got.Copies, questions, copies)
		}
		if v := got.Overall["test"]; v == nil || *v < tt.want-1e-9 || *v > tt.want+1e-9 {
			t.Errorf("%s: Overall %v, want %v", tt.name, v, tt.want)
		}
	}

	back, err := vlmEvalKit{circular: true}.Read(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	if _, err := Export(context.Background(), DirSink(plain), ExportRequest{Format: vlmEvalKit{}, Records: recs, Open: opener(images), Info: info}); err != nil {
		t.Fatal(err)
	}
	want, err := vlmEvalKit{}.Read(context.Background(), plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(want) {
		t.Fatalf("read back %d samples, the plain export %d", len(back), len(want))
	}
	for i := range back {
		if back[i].ID != want[i].ID || !slices.Equal(back[i].Options, want[i].Options) || back[i].AnswerIndex != want[i].AnswerIndex {
			t.Errorf("read back %+v\nwant %+v", back[i], want[i])
		}
	}
	if f, err := Lookup("vlmevalkit-circular"); err != nil || f.Name() != "vlmevalkit-circular" || slices.ContainsFunc(Formats(), func(f Format) bool { return f.Name() == "vlmevalkit-circular" }) {
		t.Errorf("Lookup %v, %v; the variant must not be listed with the formats", f, err)
	}
}
