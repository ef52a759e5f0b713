package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// lrrBenchRelease is the demo project with four more accepted judgments, frozen as
// lrr@1.0 (with the demo's accepted samples, demo-yn-001 among them: a judgment
// without a task):
//
//	lrr-pos-1  task pos, one image,    answer yes
//	lrr-pos-2  task pos, one image,    answer no
//	lrr-cam-1  task cam, three images, answer yes
//	lrr-cam-2  task cam, three images, answer no
func lrrBenchRelease(t *testing.T) string {
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
	p, err := s.ProjectByName(ctx, bench.Owner(), "demo")
	if err != nil {
		t.Fatal(err)
	}
	ann := user("ann1")
	seq := []string{"0001-office-1/img_002.jpg", "0004-office-2/img_001.jpg"}
	for _, x := range []struct {
		id, task, answer string
		more             []string
	}{{"lrr-pos-1", "pos", "yes", nil}, {"lrr-pos-2", "pos", "no", nil}, {"lrr-cam-1", "cam", "yes", seq}, {"lrr-cam-2", "cam", "no", seq}} {
		smp := annotate.Sample{ID: x.id, Kind: annotate.KindJudgment, Task: x.task, Image: "0001-office-1/img_001.jpg", MoreImages: x.more,
			Question: "Is the lamp to the left of the desk in " + x.id + "?", AnswerText: x.answer}
		var acks []string
		for _, f := range annotate.Lint(smp, annotate.LintEnv{HandWritten: true}) {
			acks = append(acks, f.Rule)
		}
		si, err := s.CreateSample(ctx, ann, p.ID, smp)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Submit(ctx, ann, si.ID, si.Version, acks); err != nil {
			t.Fatalf("submit %s: %v", x.id, err)
		}
		for _, r := range []struct {
			round int
			who   []string
		}{{1, []string{"ver1"}}, {2, []string{"ver3"}}, {3, []string{"ver5", "ver2", "ver4"}}} {
			for _, w := range r.who {
				cur, err := s.Sample(ctx, bench.Owner(), x.id)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.SubmitReview(ctx, user(w), bench.ReviewInput{SampleID: x.id, Round: r.round, BasedOn: cur.Revision, Seconds: 30,
					Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(cur.Kind, r.round)}}); err != nil {
					t.Fatalf("%s round %d by %s: %v", x.id, r.round, w, err)
				}
			}
		}
	}
	setPasswords(t, pw("demo"))
	if code, out, errOut := bwctl("freeze", "--db", db, "--as", "lead", "--name", "lrr", "--version", "1.0"); code != 0 || !strings.Contains(out, "froze lrr@1.0") {
		t.Fatalf("freeze: exit %d\n%s%s", code, out, errOut)
	}
	return db
}

// lrr_score from bwctl score --json against the paper's formula by hand, under
// both yes/no rules and the project's task weights, and the modality breakdown.
func TestScoreLRR(t *testing.T) {
	db := lrrBenchRelease(t)
	preds := filepath.Join(t.TempDir(), "m.jsonl")
	// pos: "Sure, it is." (gold yes) is Yes to LRR-Bench, nothing to VLMEvalKit;
	// "No." (gold no) is right to both. cam: "Yes" right, "Yes" wrong (gold no).
	if err := os.WriteFile(preds, []byte(`{"id": "lrr-pos-1", "response": "Sure, it is."}
{"id": "lrr-pos-2", "response": "No."}
{"id": "lrr-cam-1", "response": "Yes"}
{"id": "lrr-cam-2", "response": "Yes"}
{"id": "demo-yn-001", "response": "Nope"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	setPasswords(t, pw("demo"))
	if code, out, errOut := bwctl("predictions", "import", "--db", db, "--release", "lrr@1.0", "--model", "m", "--as", "lead", preds); code != 0 {
		t.Fatalf("import: exit %d\n%s%s", code, out, errOut)
	}
	scoreJSON := func(flags ...string) score.Report {
		t.Helper()
		args := append([]string{"score", "--db", db, "--release", "lrr@1.0", "--as", "ver1", "--json", "--draws", "50"}, flags...)
		code, out, errOut := bwctl(args...)
		if code != 0 {
			t.Fatalf("bwctl %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
		}
		reps := readReports(t, out)
		if len(reps) != 1 {
			t.Fatalf("%d reports", len(reps))
		}
		return reps[0]
	}
	group := func(r score.Report, dim, label string) *score.Group {
		for i := range r.By[dim] {
			if r.By[dim][i].Label == label {
				return &r.By[dim][i]
			}
		}
		t.Fatalf("no %s group %q in %+v", dim, label, r.By[dim])
		return nil
	}
	for _, tc := range []struct {
		name    string
		weights string // lrr_weight.cam, lrr_weight.pos
		flags   []string
		rule    score.YesNoRule
		pos     float64 // p 100 → 100·w; p 50 → 0
		cam     float64 // p 50 → 0
		max     float64
	}{
		{"vlmevalkit, weights 1", "", nil, score.YesNoVLMEvalKit, 0, 0, 200},
		{"lrr, weights 1", "", []string{"--yes-no", "lrr"}, score.YesNoLRR, 100, 0, 200},
		{"lrr, pos weighs 0.5, cam 3", "0.5,3", []string{"--yes-no", "lrr"}, score.YesNoLRR, 50, 0, 50 + 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.weights != "" {
				w := strings.Split(tc.weights, ",")
				if code, out, errOut := bwctl("settings", "set", "--db", db, "--project", "demo", "--as", "lead", "lrr_weight.pos="+w[0], "lrr_weight.cam="+w[1]); code != 0 {
					t.Fatalf("settings set: exit %d\n%s%s", code, out, errOut)
				}
			}
			r := scoreJSON(tc.flags...)
			o := r.Overall
			if r.YesNo != tc.rule || o.LRRScore == nil || o.LRRScoreMax == nil {
				t.Fatalf("rule %s, lrr_score %+v of %v", r.YesNo, o.LRRScore, o.LRRScoreMax)
			}
			if math.Abs(o.LRRScore.Value-(tc.pos+tc.cam)) > 1e-9 || *o.LRRScoreMax != tc.max || o.LRRScore.N != 4 {
				t.Errorf("overall lrr_score %v of %v (n %d), want %v of %v (n 4)", o.LRRScore.Value, *o.LRRScoreMax, o.LRRScore.N, tc.pos+tc.cam, tc.max)
			}
			if g := group(r, score.ByTask, "pos"); g.LRRScore == nil || math.Abs(g.LRRScore.Value-tc.pos) > 1e-9 {
				t.Errorf("task pos: %+v, want %v", g.LRRScore, tc.pos)
			}
			if g := group(r, score.ByTask, "cam"); g.LRRScore == nil || g.LRRScore.Value != tc.cam {
				t.Errorf("task cam: %+v, want %v", g.LRRScore, tc.cam)
			}
			// By modality: the demo's accepted samples and the pos judgments show
			// one image, the cam judgments three.
			img, imgs := group(r, score.ByModality, "image"), group(r, score.ByModality, "images")
			if len(r.By[score.ByModality]) != 2 || img.N != r.N-2 || imgs.N != 2 || imgs.JudgmentAcc == nil || imgs.JudgmentAcc.Value != 50 ||
				imgs.MCQAcc != nil || img.MCQAcc == nil {
				t.Errorf("by modality: %+v", r.By[score.ByModality])
			}
		})
	}
	// The leaderboard shows the figure with its maximum.
	code, out, errOut := bwctl("score", "--db", db, "--release", "lrr@1.0", "--as", "ver1", "--markdown", "--yes-no", "lrr", "--draws", "0")
	if code != 0 || !strings.Contains(out, "| LRR score |") || !strings.Contains(out, "at most 350") {
		t.Errorf("leaderboard: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := bwctl("score", "--db", db, "--release", "lrr@1.0", "--as", "ver1", "--yes-no", "maybe"); code != 2 || !strings.Contains(errOut, `--yes-no "maybe": want vlmevalkit, lrr`) {
		t.Errorf("bad rule: exit %d %s", code, errOut)
	}
}
