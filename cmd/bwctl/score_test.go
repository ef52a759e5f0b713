package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// scoreData is the folder of the scoring tests' inputs and goldens.
var scoreData = filepath.Join("testdata", "score")

// benchRelease writes the demo project, takes three more samples to acceptance
// and freezes bench@1.0: six samples, one or two of each kind.
//
//	demo-hq-001  hop_qa 1 hop (pos), exo: answer A (the lamp), box [700,220,760,360] on 960×640
//	demo-hq-002  hop_qa 2 hops (att+rel), exo: answer A (the plant), box [160,280,230,360] on 960×640
//	demo-mc-001  mcq: answer A (the remote) of 3, task proximity
//	demo-op-002  open: answer "4" (a number, no tolerance)
//	demo-sg-001  step_graph: step1 "Remove the book from the top of the laptop",
//	             step2 "Pick up the laptop" after step1
//	demo-yn-001  judgment: yes
func benchRelease(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db, _ := demoDB(t)
	s := openStore(t, db)
	user := func(name string) bench.User {
		u, err := s.UserByName(ctx, bench.Owner(), name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	approve := func(id string, round int, who ...string) {
		t.Helper()
		si, err := s.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range who {
			if _, err := s.SubmitReview(ctx, user(w), bench.ReviewInput{SampleID: id, Round: round, BasedOn: si.Revision, Seconds: 30,
				Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, round)}}); err != nil {
				t.Fatalf("%s round %d by %s: %v", id, round, w, err)
			}
		}
	}
	// As the demo seeds them: demo-mc-001 waits for round 2 (round 1 by ver1),
	// demo-hq-002 holds one round-3 vote (ver5's) of three.
	approve("demo-mc-001", 2, "ver3")
	approve("demo-mc-001", 3, "ver5", "ver2", "ver4")
	approve("demo-hq-002", 3, "ver2", "ver4")
	p, err := s.ProjectByName(ctx, bench.Owner(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	ann := user("ann1")
	si, err := s.CreateSample(ctx, ann, p.ID, annotate.Sample{ID: "demo-op-002", Kind: annotate.KindOpen,
		Image: "0001-office-1/img_002.jpg", Question: "How many objects stand on the desk?", AnswerText: "4", AnswerNumber: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
		t.Fatal(err)
	}
	approve("demo-op-002", 1, "ver1")
	approve("demo-op-002", 2, "ver3")
	approve("demo-op-002", 3, "ver5", "ver2", "ver4")
	setPasswords(t, pw("demo"))
	if code, out, errOut := bwctl("freeze", "--db", db, "--as", "lead", "--name", "bench", "--version", "1.0"); code != 0 ||
		out != "froze bench@1.0: 6 samples\n" {
		t.Fatalf("freeze: exit %d\n%s%s", code, out, errOut)
	}
	return db
}

// golden compares got with testdata/score/name; with -update it rewrites the file.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(scoreData, name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (run go test -update to accept, then read the diff):\n%s", path, got)
	}
}

// handFigures are the overall figures of the three models of testdata/score,
// worked out by hand: figure → {percentage, n}.
//
// perfect answers everything right: the letters, the boxes (the gold box on the
// 0–1 scale: IoU 1), yes, 4, both steps and the one precondition.
//
// half (keys sample_id and prediction, a step_match given):
//
//	demo-hq-001 Answer: (a) and the gold box   right, IoU 1: a hit
//	demo-hq-002 Answer: (b) and the gold box   wrong (IoU 1, but the letter is wrong: no hit, not in mean_iou)
//	demo-mc-001 The answer is A.               right
//	demo-op-002 4.9                            strict and relaxed wrong (no tolerance); relative error
//	                                           0.9/4 = 0.225 <= 1-θ for θ = 0.50 … 0.75: MRA 6/10
//	demo-sg-001 step1 right, step2 "Open the laptop"   content TP 1, FP 1, FN 1: P = R = F1 = 1/2;
//	                                           its edge step1 → "Open the laptop" is no gold edge:
//	                                           precondition TP 0, FP 1, FN 1: 0, 0, 0
//	demo-yn-001 No.                            wrong
//
// so mcq_acc = 2 of the 3 option questions, acc50iou = 1 of 2 hop questions,
// mean_iou = the IoU of the one right hop question.
//
// unparseable answers "I cannot tell." to everything: no letter, no box, no option,
// neither yes nor no, no step graph; only the open question reads it as an answer
// (wrong, and no number: MRA 0), so 1 of 6 is parsed. The step graph counts as
// missed: 2 gold steps and 1 edge, nothing found.
var handFigures = map[string]map[string][2]float64{
	"perfect": {
		"parsed": {100, 6}, "mcq_acc": {100, 3}, "mcq_acc_parsed_denominator": {100, 3}, "acc50iou": {100, 2},
		"acc50iou_parsed_denominator": {100, 2}, "mean_iou": {100, 2}, "judgment_acc": {100, 1}, "strict_acc": {100, 1},
		"relaxed_acc": {100, 1}, "mra": {100, 1}, "content_p": {100, 1}, "content_r": {100, 1}, "content_f1": {100, 1},
		"precond_p": {100, 1}, "precond_r": {100, 1}, "precond_f1": {100, 1},
	},
	"half": {
		"parsed": {100, 6}, "mcq_acc": {200.0 / 3, 3}, "mcq_acc_parsed_denominator": {200.0 / 3, 3}, "acc50iou": {50, 2},
		"acc50iou_parsed_denominator": {50, 2}, "mean_iou": {100, 1}, "judgment_acc": {0, 1}, "strict_acc": {0, 1},
		"relaxed_acc": {0, 1}, "mra": {60, 1}, "content_p": {50, 1}, "content_r": {50, 1}, "content_f1": {50, 1},
		"precond_p": {0, 1}, "precond_r": {0, 1}, "precond_f1": {0, 1},
	},
	"unparseable": {
		"parsed": {100.0 / 6, 6}, "mcq_acc": {0, 3}, "mcq_acc_parsed_denominator": {0, 0}, "acc50iou": {0, 2},
		"acc50iou_parsed_denominator": {0, 0}, "mean_iou": {0, 0}, "judgment_acc": {0, 1}, "strict_acc": {0, 1},
		"relaxed_acc": {0, 1}, "mra": {0, 1}, "content_p": {0, 1}, "content_r": {0, 1}, "content_f1": {0, 1},
		"precond_p": {0, 1}, "precond_r": {0, 1}, "precond_f1": {0, 1},
	},
}

// readReports decodes score --json output.
func readReports(t *testing.T, out string) []score.Report {
	t.Helper()
	var reps []score.Report
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r score.Report
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("score --json line %q: %v", sc.Text(), err)
		}
		reps = append(reps, r)
	}
	return reps
}

// checkHand compares a report's overall figures with want (figure → {value, n}):
// the same figures, the same values and counts.
func checkHand(t *testing.T, r score.Report, want map[string][2]float64) {
	t.Helper()
	for _, name := range score.MetricNames {
		m, w := r.Overall.Metric(name), want[name]
		switch _, wanted := want[name]; {
		case m == nil && wanted:
			t.Errorf("%s: no %s, want %v", r.Model, name, w)
		case m != nil && !wanted:
			t.Errorf("%s: unexpected %s %+v", r.Model, name, *m)
		case m != nil && (math.Abs(m.Value-w[0]) > 1e-9 || float64(m.N) != w[1]):
			t.Errorf("%s: %s = %v (n %d), want %v (n %v)", r.Model, name, m.Value, m.N, w[0], w[1])
		}
	}
}

func TestScore(t *testing.T) {
	db := benchRelease(t)
	lead, ver := pw("demo"), pw("demo")
	three := []string{"--model", "perfect", "--model", "half", "--model", "unparseable"}
	var cases []cliCase
	for _, m := range []string{"perfect", "half", "unparseable"} {
		cases = append(cases, cliCase{name: "import " + m, env: lead, code: 0,
			args:    []string{"predictions", "import", "--db", db, "--release", "bench@1.0", "--model", m, "--as", "lead", filepath.Join(scoreData, m+".jsonl")},
			wantOut: []string{"imported 6 predictions of " + m + " for bench@1.0 from " + m + ".jsonl\n"}, emptyStErr: true})
	}
	cases = append(cases,
		cliCase{name: "list", env: ver, args: []string{"predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "ver1"}, code: 0,
			outLines: 3, wantOut: []string{"half\t6 predictions, 0 missing\tfrom half.jsonl\timported by lead at ",
				"perfect\t6 predictions, 0 missing\tfrom perfect.jsonl", "unparseable\t6 predictions"}},
		cliCase{name: "score needs --release", env: ver, args: []string{"score", "--db", db, "--as", "ver1"}, code: 2,
			wantErr: []string{"--release is required"}},
		cliCase{name: "two outputs", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--release", "bench@1.0", "--json", "--csv"}, code: 2,
			wantErr: []string{"at most one of --json, --csv, --markdown and --latex"}},
		cliCase{name: "bad denominator", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--release", "bench@1.0", "--denominator", "half"}, code: 2,
			wantErr: []string{`--denominator "half": want all, parsed`}},
		cliCase{name: "bad figure", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--release", "bench@1.0", "--markdown", "--rank-by", "f1"}, code: 2,
			wantErr: []string{`unknown figure "f1"`}},
		cliCase{name: "unknown model", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--release", "bench@1.0", "--model", "gpt-9"}, code: 1,
			wantErr: []string{"model gpt-9: not found among the predictions of bench@1.0"}},
		cliCase{name: "release in a named project", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--project", "demo", "--release", "bench@1.0",
			"--model", "perfect", "--draws", "0"}, code: 0, wantOut: []string{"bench@1.0, 6 samples: ", "\nperfect\n"}},
		cliCase{name: "unknown project", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--project", "nope", "--release", "bench@1.0"}, code: 1,
			wantErr: []string{"nope"}},
		cliCase{name: "unknown release", env: ver, args: []string{"score", "--db", db, "--as", "ver1", "--release", "bench@9"}, code: 1,
			wantErr: []string{"bench@9: not found"}},
	)
	runCases(t, cases)

	setPasswords(t, ver)
	outputs := []struct {
		golden string
		flags  []string
	}{
		{"score.txt", nil}, {"score.jsonl", []string{"--json"}}, {"score.csv", []string{"--csv"}},
		{"leaderboard.md", []string{"--markdown"}}, {"leaderboard.tex", []string{"--latex"}},
		{"leaderboard-pm.md", []string{"--markdown", "--pm", "--rank-by", "acc50iou", "--columns", "mcq_acc,mean_iou"}},
	}
	for _, o := range outputs {
		args := append(append([]string{"score", "--db", db, "--release", "bench@1.0", "--as", "ver1", "--seed", "7"}, three...), o.flags...)
		code, out, errOut := bwctl(args...)
		if code != 0 || errOut != "" {
			t.Fatalf("bwctl %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
		golden(t, o.golden, out)
		// Ranked by mcq_acc: perfect's interval is [100, 100], half's [0, 100],
		// unparseable's [0, 0] (score.jsonl): perfect and half touch, half and
		// unparseable too, and only perfect lies wholly above unparseable.
		if o.golden == "leaderboard.md" {
			for _, row := range []string{"| 1\\* | perfect |", "| 1\\* | half |", "| 2\\* | unparseable |",
				"perfect with half; half with perfect, unparseable; unparseable with half."} {
				if !strings.Contains(out, row) {
					t.Errorf("the leaderboard lacks %q", row)
				}
			}
		}
		if o.golden == "score.jsonl" {
			reps := readReports(t, out)
			if len(reps) != 3 {
				t.Fatalf("%d reports, want 3", len(reps))
			}
			for _, r := range reps {
				checkHand(t, r, handFigures[r.Model])
				if r.N != 6 || r.Denominator != score.DenomAll || r.Bootstrap == nil || r.Bootstrap.Seed != 7 || len(r.By[score.ByKind]) != 5 {
					t.Errorf("%s: n %d, denominator %s, bootstrap %+v, %d kinds", r.Model, r.N, r.Denominator, r.Bootstrap, len(r.By[score.ByKind]))
				}
			}
		}
	}

	// Without intervals every model's figure is its own: the default ranking
	// figure, mcq_acc, orders perfect (100), half (66.7), unparseable (0), untied.
	code, out, _ := bwctl(append([]string{"score", "--db", db, "--release", "bench@1.0", "--as", "ver1", "--markdown", "--draws", "0",
		"--columns", "mcq_acc,acc50iou"}, three...)...)
	if code != 0 || !strings.Contains(out, "| Rank | Model | MCQ Acc | Acc@50IoU |\n|---:|:---|---:|---:|\n"+
		"| 1 | perfect | 100.0 | 100.0 |\n| 2 | half | 66.7 | 50.0 |\n| 3 | unparseable | 0.0 | 0.0 |\n") || strings.Contains(out, "tied") {
		t.Errorf("leaderboard without intervals: exit %d\n%s", code, out)
	}

	// The other denominator: mcq_acc of the models whose letters were read.
	code, out, _ = bwctl("score", "--db", db, "--release", "bench@1.0", "--as", "ver1", "--json", "--draws", "0", "--denominator", "parsed",
		"--model", "unparseable", "--model", "half")
	reps := readReports(t, out)
	if code != 0 || len(reps) != 2 || reps[0].Model != "unparseable" || reps[0].Overall.MCQAcc.N != 0 || reps[0].Overall.MCQAcc.Value != 0 ||
		reps[1].Overall.MCQAcc.N != 3 || math.Abs(reps[1].Overall.MCQAcc.Value-200.0/3) > 1e-9 || reps[1].Overall.MCQAcc.CI != nil {
		t.Errorf("--denominator parsed: exit %d %+v", code, reps)
	}
	if code, out, _ = bwctl("score", "--db", db, "--release", "bench@1.0", "--as", "ver1", "--denominator", "parsed", "--model", "half"); code != 0 ||
		!strings.Contains(out, "mcq_acc and acc50iou divide by the samples whose answer letter was read (--denominator parsed)") {
		t.Errorf("the text output does not name the denominator: %s", out)
	}

	t.Run("vlmevalkit", func(t *testing.T) { scoreVLMEvalKit(t, db) })
	t.Run("problems", func(t *testing.T) { scoreProblems(t, db) })
}

// scoreVLMEvalKit exports the release for VLMEvalKit, writes the result files
// VLMEvalKit would (the dataset's columns without the image, plus prediction,
// saved with PRED_FORMAT=tsv) and imports both as one model.
func scoreVLMEvalKit(t *testing.T, db string) {
	setPasswords(t, pw("demo"))
	dir := t.TempDir()
	export := filepath.Join(dir, "export")
	if code, _, errOut := bwctl("export", "--db", db, "--release", "bench@1.0", "--format", "vlmevalkit", "--out", export); code != 0 {
		t.Fatal(errOut)
	}
	answers := map[string]string{
		"demo-hq-001": "Answer: (a)",
		"demo-hq-002": "B", // VLMEvalKit asks for a bare letter; the hop_qa rules read none
		"demo-mc-001": "The answer is A.\nBecause \"the remote\"\tis closest.",
		"demo-yn-001": "Yes",
	}
	var files []string
	for _, name := range []string{"bench_MCQ", "bench_YN"} {
		f, err := os.Open(filepath.Join(export, name+".tsv"))
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
		img, id := slices.Index(rows[0], "image"), slices.Index(rows[0], "id")
		out := filepath.Join(dir, "vlm_"+name+".tsv")
		files = append(files, out)
		w, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		cw := csv.NewWriter(w)
		cw.Comma = '\t'
		for i, row := range rows {
			pred := "prediction"
			if i > 0 {
				pred = answers[row[id]]
			}
			cw.Write(append(slices.Delete(slices.Clone(row), img, img+1), pred))
		}
		cw.Flush()
		w.Close()
	}
	runCases(t, []cliCase{
		{name: "import", env: pw("demo"), args: append([]string{"predictions", "import", "--db", db, "--release", "bench@1.0", "--model", "vlm", "--as", "lead"}, files...),
			code: 0, wantOut: []string{"imported 4 predictions of vlm for bench@1.0 from vlm_bench_MCQ.tsv, vlm_bench_YN.tsv\n"},
			wantErr: []string{"note: 2 samples of bench@1.0 have no prediction and are scored as empty responses: demo-op-002, demo-sg-001\n"}},
	})
	code, out, errOut := bwctl("predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "lead", "--model", "vlm")
	if code != 0 {
		t.Fatal(errOut)
	}
	var got []score.Prediction
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var p score.Prediction
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		got = append(got, p)
	}
	if len(got) != 4 {
		t.Fatalf("stored %+v", got)
	}
	for _, p := range got {
		if p.Response != answers[p.SampleID] {
			t.Errorf("%s: stored %q, the file says %q", p.SampleID, p.Response, answers[p.SampleID])
		}
	}
	// By hand: hq-001 right (letter A, no box), hq-002 unread ("B" alone is none of
	// the hop_qa patterns), mc-001 right (A), yn-001 right, op-002 and sg-001
	// missing: empty responses.
	code, out, _ = bwctl("score", "--db", db, "--release", "bench@1.0", "--as", "lead", "--json", "--draws", "0", "--model", "vlm")
	reps := readReports(t, out)
	if code != 0 || len(reps) != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	checkHand(t, reps[0], map[string][2]float64{
		"parsed": {50, 6}, "mcq_acc": {200.0 / 3, 3}, "mcq_acc_parsed_denominator": {100, 2}, "acc50iou": {0, 2},
		"acc50iou_parsed_denominator": {0, 1}, "mean_iou": {0, 0}, "judgment_acc": {100, 1}, "strict_acc": {0, 1},
		"relaxed_acc": {0, 1}, "mra": {0, 1}, "content_p": {0, 1}, "content_r": {0, 1}, "content_f1": {0, 1},
		"precond_p": {0, 1}, "precond_r": {0, 1}, "precond_f1": {0, 1},
	})

	// The dataset TSV itself (no prediction column), one without ids, and a workbook.
	noID := filepath.Join(dir, "noid.tsv")
	os.WriteFile(noID, []byte("index\tquestion\tprediction\n1\tWhich?\tA\n"), 0o644)
	xlsx := filepath.Join(dir, "vlm_bench_MCQ.xlsx")
	os.WriteFile(xlsx, []byte("PK\x03\x04 not really a workbook"), 0o644)
	imp := func(file string) []string {
		return []string{"predictions", "import", "--db", db, "--release", "bench@1.0", "--model", "x", "--as", "lead", file}
	}
	runCases(t, []cliCase{
		{name: "dataset without predictions", env: pw("demo"), args: imp(filepath.Join(export, "bench_YN.tsv")), code: 2,
			wantErr: []string{"bench_YN.tsv: no prediction column: not a VLMEvalKit result file", "nothing was imported"}, emptyOut: true},
		{name: "no id column", env: pw("demo"), args: imp(noID), code: 2, wantErr: []string{"noid.tsv: no id column"}, emptyOut: true},
		{name: "xlsx", env: pw("demo"), args: imp(xlsx), code: 2, wantErr: []string{"is a spreadsheet (xlsx); run VLMEvalKit with PRED_FORMAT=tsv"}},
	})
}

// scoreProblems: a bad line names its file and line and imports nothing; unknown
// and duplicate ids are reported with their lines; a second import replaces the
// first; the roles.
func scoreProblems(t *testing.T, db string) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := `{"id": "demo-yn-001", "response": "Yes"}` + "\n"
	notString := write("bad.jsonl", ok+"\n"+`{"id": "demo-mc-001", "response": 42}`+"\n")
	malformed := write("broken.jsonl", ok+`{"id": "demo-mc-001", "response": "A"`+"\n")
	noResponse := write("noresp.jsonl", `{"id": "demo-mc-001", "answer": "A"}`+"\n")
	twoIDs := write("twoids.jsonl", `{"id": "demo-mc-001", "sample_id": "demo-yn-001", "response": "A"}`+"\n")
	badMatch := write("match.jsonl", `{"id": "demo-sg-001", "response": "x", "step_match": "yes"}`+"\n")
	notUTF8 := write("latin1.jsonl", "{\"id\": \"demo-yn-001\", \"response\": \"Oui, tr\xe8s\"}\n")
	sloppy := write("sloppy.jsonl", ok+
		`{"id": "ghost-1", "response": "A"}`+"\n"+
		`{"id": "demo-yn-001", "response": "No"}`+"\n"+
		`{"id": "demo-mc-001", "response": "A"}`+"\n")
	cellMatch := write("cell.jsonl", `{"id": "demo-sg-001", "response": "<ans>{\"step1\": {\"content\": \"x\", \"precondition\": []}}</ans>", "step_match": [[3], [0]]}`+"\n")
	imp := func(model, as string, files ...string) []string {
		return append([]string{"predictions", "import", "--db", db, "--release", "bench@1.0", "--model", model, "--as", as}, files...)
	}
	huge := write("huge.jsonl", `{"id": "demo-yn-001", "response": "`+strings.Repeat("y", annotate.MaxLineBytes)+`"}`+"\n")
	hugeTSV := write("huge.tsv", "id\tprediction\ndemo-yn-001\t"+strings.Repeat("y", maxCSVLineBytes)+"\n")
	runCases(t, []cliCase{
		{name: "no subcommand", args: []string{"predictions"}, code: 2, wantErr: []string{"usage: bwctl predictions import"}},
		{name: "no file", env: pw("demo"), args: imp("bad", "lead"), code: 2, wantErr: []string{"at least one FILE"}},
		{name: "a line over the limit", env: pw("demo"), args: imp("bad", "lead", huge), code: 2,
			wantErr: []string{"huge.jsonl:1: read: the line is longer than 16 MiB"}, emptyOut: true},
		{name: "a TSV line over the limit", env: pw("demo"), args: imp("bad", "lead", hugeTSV), code: 2,
			wantErr: []string{"huge.tsv has a line longer than 16 MiB"}, emptyOut: true},
		{name: "not a string", env: pw("demo"), args: imp("bad", "lead", notString), code: 2,
			wantErr: []string{"bad.jsonl:3: \"response\" is not a string\n", "nothing was imported"}, emptyOut: true},
		{name: "malformed", env: pw("demo"), args: imp("bad", "lead", malformed), code: 2,
			wantErr: []string{"broken.jsonl:2: malformed JSON"}, emptyOut: true},
		{name: "no response", env: pw("demo"), args: imp("bad", "lead", noResponse), code: 2,
			wantErr: []string{`noresp.jsonl:1: demo-mc-001: no response: give the model's raw text as "response" (or "prediction")`}},
		{name: "two ids", env: pw("demo"), args: imp("bad", "lead", twoIDs), code: 2,
			wantErr: []string{`twoids.jsonl:1: "id" and "sample_id" differ; give one`}},
		{name: "step_match not a matrix", env: pw("demo"), args: imp("bad", "lead", badMatch), code: 2,
			wantErr: []string{"match.jsonl:1: demo-sg-001: step_match is not a matrix of 0 and 1"}},
		{name: "not UTF-8", env: pw("demo"), args: imp("bad", "lead", notUTF8), code: 2,
			wantErr: []string{"latin1.jsonl:1: the line is not UTF-8 text"}},
		{name: "a bad file among good ones", env: pw("demo"), args: imp("bad", "lead", filepath.Join(scoreData, "perfect.jsonl"), notString), code: 2,
			wantErr: []string{"bad.jsonl:3:", "nothing was imported"}, emptyOut: true},
		{name: "step match cell 3", env: pw("demo"), args: imp("bad", "lead", cellMatch), code: 1,
			wantErr: []string{"Import predictions of bad for bench@1.0: sample demo-sg-001: step match matrix entry (0, 0) is 3, want 0 or 1."}},
		{name: "nothing of bad was stored", env: pw("demo"), args: []string{"predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "lead", "--model", "bad"},
			code: 1, wantErr: []string{"model bad: not found"}},
		{name: "unknown and duplicate ids", env: pw("demo"), args: imp("sloppy", "lead", sloppy), code: 1,
			wantOut: []string{"imported 2 predictions of sloppy for bench@1.0 from sloppy.jsonl\n"},
			wantErr: []string{
				"sloppy.jsonl:2: ghost-1: not a sample of bench@1.0; not imported\n",
				"sloppy.jsonl:3: demo-yn-001: another prediction for the sample (the first is at " + sloppy + ":1); not imported\n",
				"note: 4 samples of bench@1.0 have no prediction and are scored as empty responses: demo-hq-001, demo-hq-002, demo-op-002, demo-sg-001\n"}},
		{name: "boxes in pixels", env: pw("demo"), args: imp("pixels", "lead", write("pixels.jsonl",
			`{"id": "demo-hq-002", "response": "Answer: (A) Bounding Box: [160, 280, 230, 360]"}`+"\n")), code: 0,
			wantOut: []string{"imported 1 predictions of pixels for bench@1.0 from pixels.jsonl\n"},
			wantErr: []string{"warning: 1 box looks like pixel coordinates (demo-hq-002); boxes are read as 0–1, or as 0–1000 when a coordinate exceeds 1"}},
		{name: "again: replaced", env: pw("demo"), args: imp("sloppy", "lead", filepath.Join(scoreData, "perfect.jsonl")), code: 0,
			wantOut: []string{"imported 6 predictions of sloppy for bench@1.0 from perfect.jsonl; they replace the 2 imported by lead at ", " from sloppy.jsonl\n"}},
		{name: "nothing for the release", env: pw("demo"), args: imp("lost", "lead", write("lost.jsonl", `{"id": "x-1", "response": "A"}`+"\n")), code: 1,
			wantErr: []string{`none of the 1 predictions is for a sample of bench@1.0 (sample ids such as "x-1")`}},
		{name: "an annotator imports", env: pw("demo"), args: imp("m", "ann1", filepath.Join(scoreData, "perfect.jsonl")), code: 1,
			wantErr: []string{"ann1 is an annotator, and only leads may import model predictions"}, emptyOut: true},
		{name: "a verifier imports", env: pw("demo"), args: imp("m", "ver1", filepath.Join(scoreData, "perfect.jsonl")), code: 1,
			wantErr: []string{"ver1 is a verifier, and only leads may import model predictions"}, emptyOut: true},
		{name: "a verifier reads raw predictions", env: pw("demo"),
			args: []string{"predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "ver1", "--model", "perfect"}, code: 1,
			wantErr: []string{"only leads may read model predictions"}, emptyOut: true},
		{name: "an annotator scores", env: pw("demo"), args: []string{"score", "--db", db, "--release", "bench@1.0", "--as", "ann1"}, code: 1,
			wantErr: []string{"ann1 is an annotator, and only verifiers or leads may see model scores"}, emptyOut: true},
		{name: "an annotator lists models", env: pw("demo"), args: []string{"predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "ann1"}, code: 1,
			wantErr: []string{"only verifiers or leads may see model scores"}, emptyOut: true},
	})
	counts, err := openStore(t, db).AuditCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if counts["denied:predictions.import"] != 2 || counts["denied:scores.read"] != 2 || counts["denied:predictions.read"] != 1 ||
		counts["predictions.replace"] != 1 {
		t.Errorf("audit counts %v", counts)
	}
}
