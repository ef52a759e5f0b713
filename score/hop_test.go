package score

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

func TestParseHopAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"answer with parenthesized letter", "Answer: (b) green mug\nBounding Box: [1, 2, 3, 4]", "B"},
		{"upper case", "ANSWER: (C)", "C"},
		{"letter and closing parenthesis", "answer: b) the mug", "B"},
		{"bare letter at line end", "Answer: c\nBounding Box: [100, 200, 300, 400]", "C"},
		{"bare letter, trailing spaces", "Answer: d   ", "D"},
		{"letter on the next line", "Answer:\n(a) the kettle", "A"},
		{"no-break space (Python \\s)", "Answer:\u00a0(b)", "B"},
		{"long s folds onto s (Python and Go (?i))", "(a) maybe. Anſwer: c)", "C"},
		{"two answers: the first counts", "Answer: (a) mug\nAnswer: (b) cup", "A"},
		{"fallback: bare (x) anywhere", "I think (d) the lamp is right", "D"},
		{"Answer: followed by prose, fallback finds (c)", "Answer: I think it's (c)", "C"},
		{"bare letter then other text, fallback", "Answer: a (b) c", "B"},
		{"pattern 2 before pattern 4", "(a) is wrong.\nAnswer: c) kettle", "C"},
		{"pattern 1 wins over an earlier bare (x)", "(a) or (b)? Answer: (b)", "B"},
		{"letter outside a-d", "Answer: (e) something", ""},
		{"letter with a period is no pattern", "Answer: b.", ""},
		{"prose only", "The answer is B.", ""},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseHopAnswer(tc.in)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("ParseHopAnswer(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
			}
		})
	}
}

func TestParseHopBox(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     [4]float64
		err      error
		invalid  bool // CheckUnitBox refuses it
	}{
		{"0-1000 scale", "Answer: (a)\nBounding Box: [100, 200, 300, 400]", [4]float64{0.1, 0.2, 0.3, 0.4}, nil, false},
		{"0-1 scale kept", `{"bbox_2d": [0.25, 0.1, 0.75, 0.8]}`, [4]float64{0.25, 0.1, 0.75, 0.8}, nil, false},
		{"lmms-eval prompt format", `Bounding Box: {"bbox_2d": [250, 100, 750, 800]}`, [4]float64{0.25, 0.1, 0.75, 0.8}, nil, false},
		{"Bounding Box before bbox_2d", `{"bbox_2d": [1, 2, 3, 4]} Bounding Box: [500, 500, 600, 600]`, [4]float64{0.5, 0.5, 0.6, 0.6}, nil, false},
		{"bbox_2d before a bare list", `[1, 2, 3, 4] then "bbox_2d": [0.1, 0.1, 0.2, 0.2]`, [4]float64{0.1, 0.1, 0.2, 0.2}, nil, false},
		{"first bare list", "the mug at [10, 20, 30, 40] and [50,60,70,80]", [4]float64{0.01, 0.02, 0.03, 0.04}, nil, false},
		{"nested list", "[[10, 20, 30, 40]]", [4]float64{0.01, 0.02, 0.03, 0.04}, nil, false},
		{"case and spaces", "bounding box: [ 10 ,20, 30,40 ]", [4]float64{0.01, 0.02, 0.03, 0.04}, nil, false},
		{"trailing-dot numbers (Python float)", "Bounding Box: [1., 2., 3., 4.]", [4]float64{0.001, 0.002, 0.003, 0.004}, nil, false},
		{"exactly 1 is 0-1 scale", "[0.5, 0.5, 1, 1]", [4]float64{0.5, 0.5, 1, 1}, nil, false},
		{"full image on 0-1000", "[0, 0, 1000, 1000]", [4]float64{0, 0, 1, 1}, nil, false},
		{"degenerate", "[1, 1, 1, 1]", [4]float64{1, 1, 1, 1}, nil, true},
		{"inverted", "[300, 200, 100, 400]", [4]float64{0.3, 0.2, 0.1, 0.4}, nil, true},
		{"out of range after scaling", "[100, 200, 1200, 900]", [4]float64{0.1, 0.2, 1.2, 0.9}, nil, true},
		{"negative numbers do not match", "[-5, 10, 20, 30]", [4]float64{}, ErrNoBox, false},
		{"three numbers", "[10, 20, 30]", [4]float64{}, ErrNoBox, false},
		{"malformed number", "Bounding Box: [1.2.3, 4, 5, 6]", [4]float64{}, ErrMalformedBox, false},
		{"no box", "no box here", [4]float64{}, ErrNoBox, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseHopBox(tc.in)
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Fatalf("ParseHopBox(%q) error %v, want %v", tc.in, err, tc.err)
			}
			if err != nil {
				return
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Fatalf("ParseHopBox(%q) = %v, want %v", tc.in, got, tc.want)
				}
			}
			if bad := CheckUnitBox(got) != nil; bad != tc.invalid {
				t.Errorf("CheckUnitBox(%v) invalid = %v, want %v", got, bad, tc.invalid)
			}
		})
	}
}

func TestHopIoU(t *testing.T) {
	gold := annotate.Box{100, 100, 300, 300} // on a 1000×500 image
	for _, tc := range []struct {
		name string
		pred [4]float64
		want float64
	}{
		{"identical", [4]float64{0.1, 0.2, 0.3, 0.6}, 1},
		{"a third", [4]float64{0.2, 0.2, 0.4, 0.6}, 0.3333}, // 20000 / 60000
		{"0.6", [4]float64{0.15, 0.2, 0.35, 0.6}, 0.6},      // 30000 / 50000
		{"touching edges", [4]float64{0.3, 0.2, 0.5, 0.6}, 0},
		{"disjoint", [4]float64{0.8, 0.8, 0.9, 0.9}, 0},
	} {
		if got := HopIoU(tc.pred, gold, 1000, 500); got != tc.want {
			t.Errorf("%s: HopIoU = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Rounding to 4 decimals decides the 0.5 threshold: 100/200.016 = 0.49996 → 0.5.
	g := annotate.Box{0, 0, 100, 100}
	if got := HopIoU([4]float64{0, 0, 0.200016, 1}, g, 1000, 100); got != 0.5 {
		t.Errorf("HopIoU rounding up = %v, want 0.5", got)
	}
	if got := HopIoU([4]float64{0, 0, 0.20003, 1}, g, 1000, 100); got != 0.4999 {
		t.Errorf("HopIoU rounding down = %v, want 0.4999", got)
	}
}

// hopGolds are six hop questions on 1000×500 images, gold box [100,100,300,300],
// answer (b).
func hopGolds() []Gold {
	var gs []Gold
	for _, id := range []string{"h1", "h2", "h3", "h4", "h5", "h6"} {
		gs = append(gs, Gold{Sample: annotate.Sample{
			ID: id, Kind: annotate.KindHopQA, Options: []string{"mug", "cup", "kettle", "book"},
			AnswerIndex: 1, Box: &annotate.Box{100, 100, 300, 300}, Hop: 1, View: annotate.ViewExo,
			Categories: []annotate.Category{annotate.CatPos},
		}, Width: 1000, Height: 500})
	}
	return gs
}

// hopPreds: h1 correct with IoU 0.6; h2 correct with IoU 0.3333; h3 wrong with a
// perfect box; h4 no letter; h5 missing; h6 correct with an invalid box.
var hopPreds = []Prediction{
	{SampleID: "h1", Response: "Answer: (b) cup\nBounding Box: [150, 200, 350, 600]"},
	{SampleID: "h2", Response: "Answer: (B) cup\nBounding Box: [200, 200, 400, 600]"},
	{SampleID: "h3", Response: "Answer: (a) mug\nBounding Box: [100, 200, 300, 600]"},
	{SampleID: "h4", Response: "I cannot tell. [100, 200, 300, 600]"},
	{SampleID: "h6", Response: "Answer: b\nBounding Box: [300, 200, 100, 600]"},
}

func TestScoreHopSamples(t *testing.T) {
	rs, err := ScoreAll(context.Background(), hopGolds(), hopPreds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		answer  string
		correct bool
		iou     float64 // -1: none
		hit     bool
		missing bool
	}
	wants := []want{
		{"B", true, 0.6, true, false},
		{"B", true, 0.3333, false, false},
		{"A", false, 1, false, false},
		{"", false, 1, false, false},
		{"", false, -1, false, true},
		{"B", true, -1, false, false},
	}
	for i, w := range wants {
		r := rs[i]
		iou := -1.0
		if r.IoU != nil {
			iou = *r.IoU
		}
		if r.Answer != w.answer || r.Correct != w.correct || iou != w.iou || r.Hit50 != w.hit || r.Missing != w.missing {
			t.Errorf("%s: got answer %q correct %v iou %v hit %v missing %v; want %+v", r.SampleID, r.Answer, r.Correct, iou, r.Hit50, r.Missing, w)
		}
	}
	if rs[3].ParseError == "" || rs[4].ParseError == "" {
		t.Errorf("unparsed samples carry no parse error: %q, %q", rs[3].ParseError, rs[4].ParseError)
	}
	if rs[5].BoxError == "" || rs[4].BoxError == "" {
		t.Errorf("invalid or absent boxes carry no box error: %q, %q", rs[5].BoxError, rs[4].BoxError)
	}
}

func TestHopDenominators(t *testing.T) {
	// 6 samples, 4 with a letter, 3 correct, 1 hit; IoUs of correct samples with a
	// valid box: 0.6 and 0.3333.
	for _, tc := range []struct {
		denom         Denominator
		mcq, acc50    float64
		mcqN, acc50N  int
		parsedMCQ     float64
		parsedAcc50   float64
		meanIoU       float64
		meanIoUSample int
	}{
		{DenomAll, 50, 100.0 / 6, 6, 6, 75, 25, 46.665, 2},
		{DenomParsed, 75, 25, 4, 4, 75, 25, 46.665, 2},
	} {
		rep, _, err := Evaluate(context.Background(), "m", hopGolds(), hopPreds, Options{Denominator: tc.denom, Draws: -1})
		if err != nil {
			t.Fatal(err)
		}
		o := rep.Overall
		check := func(name string, m *Metric, v float64, n int) {
			t.Helper()
			if m == nil {
				t.Fatalf("%s: %s missing", tc.denom, name)
			}
			if math.Abs(m.Value-v) > 1e-9 || (n >= 0 && m.N != n) {
				t.Errorf("%s: %s = %v (n %d), want %v (n %d)", tc.denom, name, m.Value, m.N, v, n)
			}
		}
		check("mcq_acc", o.MCQAcc, tc.mcq, tc.mcqN)
		check("acc50iou", o.Acc50IoU, tc.acc50, tc.acc50N)
		check("mcq_acc_parsed_denominator", o.MCQAccParsed, tc.parsedMCQ, 4)
		check("acc50iou_parsed_denominator", o.Acc50IoUParsed, tc.parsedAcc50, 4)
		check("mean_iou", o.MeanIoU, tc.meanIoU, tc.meanIoUSample)
		if rep.Denominator != tc.denom {
			t.Errorf("report names denominator %q, want %q", rep.Denominator, tc.denom)
		}
		if o.JudgmentAcc != nil || o.ContentF1 != nil {
			t.Errorf("figures of absent kinds are present: %+v", o)
		}
	}
}

func TestHopGoldProblems(t *testing.T) {
	g := hopGolds()[0]
	g.Width = 0
	r, err := ScoreSample(g, Prediction{SampleID: "h1", Response: "Answer: (b)\nBounding Box: [150, 200, 350, 600]"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.IoU != nil || r.BoxError == "" || !r.Correct {
		t.Errorf("unknown image size: IoU %v, box error %q, correct %v", r.IoU, r.BoxError, r.Correct)
	}
	g = hopGolds()[0]
	g.Sample.Box = nil
	r, _ = ScoreSample(g, Prediction{SampleID: "h1", Response: "Answer: (b)\nBounding Box: [150, 200, 350, 600]"}, Options{})
	if r.IoU != nil || r.BoxError == "" {
		t.Errorf("no gold box: IoU %v, box error %q", r.IoU, r.BoxError)
	}
	if _, err := ScoreSample(g, Prediction{SampleID: "other"}, Options{}); err == nil {
		t.Error("a prediction for another sample was scored")
	}
}
