package score

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// benchRelease is n gold samples, a fifth of each kind, with a model's
// responses: right about 60 % of the time, in the formats models use, with
// some unparsable ones. Labels cover every breakdown: hop 1–3, both views,
// the six category sets, tasks T0–T7, two splits, one image and several.
func benchRelease(n int) ([]Gold, []Prediction) {
	r := rand.New(rand.NewPCG(11, 12))
	letters := "abcdef"
	catSets := [][]annotate.Category{{"pos"}, {"rel"}, {"att", "pos"}, {"att", "rel"}, {"pos", "rel"}, {"att", "pos", "rel"}}
	verbs := []string{"Remove", "Pick up", "Open", "Move", "Put down", "Close"}
	objects := []string{"the book", "the laptop", "the cup", "the box", "the lid", "the drawer", "the bottle", "the bag"}
	golds := make([]Gold, n)
	preds := make([]Prediction, n)
	for i := range n {
		id := fmt.Sprintf("s%06d", i)
		s := annotate.Sample{ID: id, Task: fmt.Sprintf("T%d", r.IntN(8)), Split: []string{"test", "train"}[r.IntN(2)]}
		if i%15 == 2 { // a judgment on a sequence: every third one
			s.Image, s.MoreImages = "a.jpg", []string{"b.jpg", "c.jpg"}
		}
		var resp string
		good := r.Float64() < 0.6
		switch i % 5 {
		case 0:
			cats := catSets[r.IntN(len(catSets))]
			s.Kind, s.Categories, s.Hop = annotate.KindHopQA, cats, len(cats)
			s.View = []annotate.View{annotate.ViewExo, annotate.ViewEgo}[r.IntN(2)]
			s.Options, s.AnswerIndex = []string{"the mug", "the kettle", "the apple", "the book"}, r.IntN(4)
			x, y := 50+r.Float64()*800, 50+r.Float64()*500
			s.Box = &annotate.Box{x, y, x + 40 + r.Float64()*200, y + 40 + r.Float64()*150}
			golds[i] = Gold{Sample: s, Width: 1280, Height: 960}
			l := s.AnswerIndex
			if !good {
				l = r.IntN(4)
			}
			b := s.Box.To1000(1280, 960)
			for k := range b {
				b[k] += r.IntN(60) - 30
			}
			switch r.IntN(10) {
			case 0:
				resp = "I am not sure which object is meant."
			case 1:
				resp = fmt.Sprintf(`Answer: %c) %s\nBounding Box: {"bbox_2d": [%.3f, %.3f, %.3f, %.3f]}`, letters[l], s.Options[l], float64(b[0])/1000, float64(b[1])/1000, float64(b[2])/1000, float64(b[3])/1000)
			default:
				resp = fmt.Sprintf("Let me think about the scene first. The %s is near the window.\nAnswer: (%c) %s\nBounding Box: [%d, %d, %d, %d]", s.Options[l], letters[l], s.Options[l], b[0], b[1], b[2], b[3])
			}
		case 1:
			k := 2 + r.IntN(5)
			s.Kind, s.AnswerIndex = annotate.KindMCQ, r.IntN(k)
			for j := range k {
				s.Options = append(s.Options, fmt.Sprintf("option %s number %d", objects[j%len(objects)], j))
			}
			golds[i] = Gold{Sample: s}
			l := s.AnswerIndex
			if !good {
				l = r.IntN(k)
			}
			switch r.IntN(4) {
			case 0:
				resp = string(rune('A' + l))
			case 1:
				resp = fmt.Sprintf("Looking at the image carefully, the correct answer is **%c**.", 'A'+l)
			case 2:
				resp = fmt.Sprintf("(%c) %s", 'A'+l, s.Options[l])
			default:
				resp = "It depends on the viewpoint, so several options could be right."
			}
		case 2:
			s.Kind, s.AnswerText = annotate.KindJudgment, []string{"yes", "no"}[r.IntN(2)]
			golds[i] = Gold{Sample: s}
			a := s.AnswerText
			if !good {
				a = []string{"yes", "no", "unclear"}[r.IntN(3)]
			}
			resp = fmt.Sprintf("%s, because the cup is to the left of the plate.", strings.ToUpper(a[:1])+a[1:])
		case 3:
			s.Kind = annotate.KindOpen
			if r.IntN(2) == 0 {
				v := 0.5 + r.Float64()*5
				tol := 0.25
				s.AnswerText, s.AnswerNumber, s.Tolerance = fmt.Sprintf("%.2f", v), true, &tol
				p := v * (0.7 + r.Float64()*0.6)
				resp = fmt.Sprintf("<think>The table is about %.1f metres wide.</think><answer>%.2f m</answer>", v, p)
			} else {
				s.AnswerText = objects[r.IntN(len(objects))]
				o := s.AnswerText
				if !good {
					o = objects[r.IntN(len(objects))]
				}
				resp = []string{"It is " + o + ".", strings.ToUpper(o[:1]) + o[1:] + "."}[r.IntN(2)]
			}
			golds[i] = Gold{Sample: s}
		case 4:
			k := 2 + r.IntN(7)
			s.Kind = annotate.KindStepGraph
			for j := range k {
				st := annotate.Step{ID: fmt.Sprintf("step%d", j+1), Content: verbs[r.IntN(len(verbs))] + " " + objects[(j+i)%len(objects)], Precondition: []string{}}
				if j > 0 {
					st.Precondition = []string{fmt.Sprintf("step%d", j)}
				}
				s.Steps = append(s.Steps, st)
			}
			golds[i] = Gold{Sample: s}
			if r.IntN(10) == 0 {
				resp = "First remove everything, then pick it up."
				break
			}
			var b strings.Builder
			b.WriteString("<ans>{")
			for j, st := range s.Steps {
				content := st.Content
				if r.Float64() > 0.7 {
					content = "Wipe " + objects[r.IntN(len(objects))]
				}
				pre := "[]"
				if j > 0 && r.Float64() < 0.8 {
					pre = fmt.Sprintf(`["step%d"]`, j)
				}
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `"step%d": {"content": "%s", "precondition": %s}`, j+1, content, pre)
			}
			b.WriteString("}</ans>")
			resp = b.String()
		}
		preds[i] = Prediction{SampleID: id, Response: resp}
	}
	return golds, preds
}

// BenchmarkEvaluate100k scores 100,000 predictions of every kind and
// summarizes them with 1,000-draw bootstrap intervals on every figure of the
// overall set and of every breakdown group.
func BenchmarkEvaluate100k(b *testing.B) {
	golds, preds := benchRelease(100_000)
	ctx := context.Background()
	b.Run("score+summarize", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := Evaluate(ctx, "bench", golds, preds, Options{Seed: 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("score", func(b *testing.B) {
		for b.Loop() {
			if _, err := ScoreAll(ctx, golds, preds, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	results, err := ScoreAll(ctx, golds, preds, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("summarize", func(b *testing.B) {
		for b.Loop() {
			if _, err := Summarize(ctx, "bench", golds, results, Options{Seed: 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestBenchRelease keeps the benchmark's data honest: every kind is scored,
// some right and some wrong, and every breakdown has groups.
func TestBenchRelease(t *testing.T) {
	golds, preds := benchRelease(2000)
	rep, _, err := Evaluate(context.Background(), "bench", golds, preds, Options{Draws: 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range MetricNames {
		m := rep.Overall.Metric(name)
		if name == "lrr_score" { // points out of lrr_score_max, not a percentage
			if m == nil || m.Value <= 0 || rep.Overall.LRRScoreMax == nil || m.Value >= *rep.Overall.LRRScoreMax {
				t.Errorf("lrr_score = %+v of %v: the benchmark data should give a figure strictly between 0 and its maximum", m, rep.Overall.LRRScoreMax)
			}
			continue
		}
		if m == nil || m.Value <= 0 || m.Value >= 100 {
			t.Errorf("%s = %+v: the benchmark data should give a figure strictly between 0 and 100", name, m)
		}
	}
	for _, d := range Dimensions {
		if len(rep.By[d]) < 2 {
			t.Errorf("by %s has %d groups", d, len(rep.By[d]))
		}
	}
}
