package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestScoreBlindRuns imports a model with images (perfect.jsonl as "m"), its
// blind run (half.jsonl, base "llm") and its base LLM's run (unparseable.jsonl as
// "llm", blind), and checks MMStar's figures in every output against values
// worked out by hand from handFigures (TestScore):
//
//	mcq_acc: S_v = 100 (perfect), S_wv = 200/3 (half), S_t = 0 (unparseable)
//	MG = 100 − 200/3 = 33.3, ML = max(0, 200/3 − 0) = 66.7
//
// and that --blind-right lists what each blind run got right: half answers
// demo-hq-001 and demo-mc-001 right, unparseable nothing.
func TestScoreBlindRuns(t *testing.T) {
	db := benchRelease(t)
	imp := func(model string, file string, extra ...string) (int, string, string) {
		args := append([]string{"predictions", "import", "--db", db, "--release", "bench@1.0", "--model", model, "--as", "lead"}, extra...)
		return bwctl(append(args, filepath.Join(scoreData, file))...)
	}
	setPasswords(t, pw("demo"))
	if code, out, errOut := imp("m", "perfect.jsonl"); code != 0 {
		t.Fatalf("import m: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := imp("m", "half.jsonl", "--blind", "--base", "llm"); code != 0 || out != "imported 6 predictions of m (blind) for bench@1.0 from half.jsonl\n" {
		t.Fatalf("import m --blind: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := imp("llm", "unparseable.jsonl", "--blind"); code != 0 {
		t.Fatalf("import llm --blind: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := imp("x", "half.jsonl", "--base", "llm"); code != 1 || !strings.Contains(errOut, "only a blind run names a base model") {
		t.Errorf("--base without --blind: exit %d\n%s", code, errOut)
	}
	code, out, _ := bwctl("predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "lead")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 3 || !strings.HasPrefix(lines[0], "llm (blind)\t6 predictions") ||
		!strings.HasPrefix(lines[1], "m\t6 predictions") || !strings.HasPrefix(lines[2], "m (blind), base llm\t6 predictions") {
		t.Errorf("predictions list: exit %d\n%s", code, out)
	}
	// A blind run's raw answers, by the name the list gives it.
	code, out, errOut := bwctl("predictions", "list", "--db", db, "--release", "bench@1.0", "--as", "lead", "--model", "m (blind)")
	// half.jsonl answers demo-hq-002 "(b) the mug", perfect.jsonl "(a) the plant".
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 6 || !strings.HasPrefix(firstResponse(t, lines[1]), "Answer: (b) the mug\n") {
		t.Errorf("predictions list --model 'm (blind)': exit %d\n%s%s", code, out, errOut)
	}

	score := func(flags ...string) string {
		t.Helper()
		code, out, errOut := bwctl(append([]string{"score", "--db", db, "--release", "bench@1.0", "--as", "lead", "--draws", "0"}, flags...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("score %v: exit %d\n%s", flags, code, errOut)
		}
		return out
	}
	md := score("--markdown", "--columns", "mcq_acc")
	// llm has no run with images: it is not ranked, and is m's S_t.
	if !strings.Contains(md, "| Rank | Model | MCQ Acc | MG | ML |\n|---:|:---|---:|---:|---:|\n| 1 | m | 100.0 | 33.3 | 66.7 |\n\n") ||
		!strings.Contains(md, "MG and ML on MCQ Acc, in points: MG = S_v - S_wv and ML = max(0, S_wv - S_t) (MMStar, arXiv 2403.20330)") {
		t.Errorf("--markdown:\n%s", md)
	}
	if tex := score("--latex", "--columns", "mcq_acc"); !strings.Contains(tex, "Rank & Model & MCQ Acc & MG & ML \\\\") ||
		!strings.Contains(tex, "1 & m & $100.0$ & $33.3$ & $66.7$ \\\\") {
		t.Errorf("--latex:\n%s", tex)
	}
	reps := readReports(t, score("--json"))
	if len(reps) != 3 || reps[0].Model != "llm" || !reps[0].Blind || reps[1].Model != "m" || reps[1].Blind || !reps[2].Blind || reps[2].Base != "llm" {
		t.Fatalf("--json: %d reports %+v", len(reps), reps)
	}
	var mg, ml float64 = math.NaN(), math.NaN()
	for _, g := range reps[1].MultiModal {
		if g.Figure == "mcq_acc" && g.ML != nil {
			mg, ml = g.MG, *g.ML
		}
	}
	if math.Abs(mg-(100-200.0/3)) > 1e-9 || math.Abs(ml-200.0/3) > 1e-9 {
		t.Errorf("--json: m's mcq_acc MG %v, ML %v; want 33.33, 66.67", mg, ml)
	}
	recs, err := csv.NewReader(strings.NewReader(score("--csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(recs[0], []string{"model", "dimension", "group", "metric", "value", "ci_low", "ci_high", "n", "blind"}) {
		t.Errorf("--csv head %v", recs[0])
	}
	found := map[string]string{}
	for _, r := range recs[1:] {
		if r[1] == "multimodal" && r[2] == "mcq_acc" {
			found[r[0]+" "+r[3]] = r[4]
		}
		if r[0] == "llm" && r[8] != "true" {
			t.Errorf("--csv: llm's row %v is not marked blind", r)
		}
	}
	if found["m mg"] == "" || found["m ml"] == "" || found["m s_t"] != "0" || found["m s_v"] != "100" {
		t.Errorf("--csv multimodal rows of m: %v", found)
	}
	if txt := score(); !strings.Contains(txt, "\nm (blind: answered without the images; base LLM llm)\n") ||
		!slices.Contains(strings.Split(txt, "\n"), "  m      mcq_acc                      100.0  66.7   33.3   llm   0.0  66.7") {
		t.Errorf("text output:\n%s", txt)
	}

	if out := score("--blind-right"); out != "llm (blind): 0 of 6 samples of bench@1.0 answered right without the images\n"+
		"m (blind): 2 of 6 samples of bench@1.0 answered right without the images: demo-hq-001, demo-mc-001\n" {
		t.Errorf("--blind-right:\n%s", out)
	}
	if out := score("--blind-right", "--json", "--model", "m"); out != `{"model":"m","base":"llm","n":6,"right":["demo-hq-001","demo-mc-001"]}`+"\n" {
		t.Errorf("--blind-right --json --model m:\n%s", out)
	}
}

// firstResponse is the response of one line of bwctl predictions list --model.
func firstResponse(t *testing.T, line string) string {
	t.Helper()
	var p struct {
		Response string `json:"response"`
	}
	if err := json.Unmarshal([]byte(line), &p); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return p.Response
}
