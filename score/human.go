package score

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/sampling"
)

// The human baseline (LRR-Bench's Human row): a lead draws a stratified sample
// of a frozen release, people answer it blind, and their answers are scored by
// the same rules as a model's and shown as one more leaderboard row. This file
// holds the draw, the form a person's answer is stored in (the text the hop,
// option and yes/no parsers read), and the pooled report.

// HumanAnswerable reports whether a person can answer a sample of this kind on
// the answering screen: hop and option questions by choosing an option (and
// drawing a box), judgments by yes or no, open questions by typing. Step graphs
// are not offered: writing a step graph is an annotation task, not an answer.
func HumanAnswerable(k annotate.Kind) bool {
	switch k {
	case annotate.KindHopQA, annotate.KindMCQ, annotate.KindJudgment, annotate.KindOpen:
		return true
	}
	return false
}

// ProportionalCounts splits total over the strata in proportion to their sizes
// (largest remainder; equal remainders go to the larger stratum, then by name),
// never more than a stratum has. {a: 6, b: 3, c: 1} to 5 gives a 3, b 2, c 0
// (quotas 3, 1.5, 0.5: the remainders tie and b is larger).
func ProportionalCounts(available map[string]int, total int) map[string]int {
	out := make(map[string]int, len(available))
	sum := 0
	for c, n := range available {
		sum += max(n, 0)
		out[c] = 0
	}
	if total >= sum {
		for c, n := range available {
			out[c] = max(n, 0)
		}
		return out
	}
	if total <= 0 {
		return out
	}
	type rest struct {
		name string
		n    int
		frac float64
	}
	var rs []rest
	given := 0
	for c, n := range available {
		q := float64(total) * float64(max(n, 0)) / float64(sum)
		out[c] = int(math.Floor(q))
		given += out[c]
		rs = append(rs, rest{c, n, q - math.Floor(q)})
	}
	slices.SortFunc(rs, func(a, b rest) int {
		// Remainders are compared to 1e-9 so that float noise does not order them.
		if math.Abs(a.frac-b.frac) > 1e-9 {
			return cmp.Compare(b.frac, a.frac)
		}
		return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.name, b.name))
	})
	for i := 0; given < total && i < len(rs); i++ {
		if out[rs[i].name] < rs[i].n {
			out[rs[i].name]++
			given++
		}
	}
	return out
}

// DrawHuman draws the items of a human baseline: size of the golds a person can
// answer (HumanAnswerable), stratified by annotate.Stratum (hop × view for hop
// questions, kind × task for the others) in proportion to the strata
// (ProportionalCounts), each stratum drawn by sampling.Draw with seed. It
// returns indices into golds, increasing. size <= 0 or larger than the
// answerable samples takes them all.
func DrawHuman(golds []Gold, size int, seed int64) []int {
	var idx []int
	var strata []string
	avail := map[string]int{}
	for i, g := range golds {
		if !HumanAnswerable(g.Sample.Kind) {
			continue
		}
		st := annotate.Stratum(g.Sample)
		idx = append(idx, i)
		strata = append(strata, st)
		avail[st]++
	}
	if size <= 0 {
		size = len(idx)
	}
	take := ProportionalCounts(avail, size)
	chosen := sampling.Draw(strata, func(stratum string, _ int) int { return take[stratum] }, seed)
	out := make([]int, len(chosen))
	for i, j := range chosen {
		out[i] = idx[j]
	}
	return out
}

// HumanAnswer is what a person gave on the answering screen.
type HumanAnswer struct {
	Option int           // hop_qa and mcq: the chosen option, 0-based; -1 for none
	Text   string        // judgment: "yes" or "no"; open: the answer typed
	Box    *annotate.Box // hop_qa: the box drawn, in image pixels; nil for none
}

// HumanResponse writes a person's answer to sample g as the response text the
// scoring rules read, so that it is scored exactly like a model's: a hop
// question as "Answer: (x) option" and "Bounding Box: [x1, y1, x2, y2]" on the
// 0–1 scale (six decimals, so the 0–1000 rule never applies), an option
// question as its letter, a judgment as yes or no, an open answer as typed. An
// answer the sample cannot take (no option, an option out of range, a judgment
// other than yes or no, an empty open answer, a kind a person does not answer)
// is an error.
func HumanResponse(g Gold, a HumanAnswer) (string, error) {
	s := g.Sample
	switch s.Kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		if a.Option < 0 || a.Option >= len(s.Options) {
			return "", fmt.Errorf("score: sample %s: choose one of the %d options", s.ID, len(s.Options))
		}
		letter := string(rune('a' + a.Option))
		if s.Kind == annotate.KindMCQ {
			return strings.ToUpper(letter), nil
		}
		out := fmt.Sprintf("Answer: (%s) %s", letter, s.Options[a.Option])
		if a.Box != nil && g.Width > 0 && g.Height > 0 {
			b := a.Box.Normalize()
			f := func(v float64, n int) string {
				return strconv.FormatFloat(min(max(v/float64(n), 0), 1), 'f', 6, 64)
			}
			out += fmt.Sprintf("\nBounding Box: [%s, %s, %s, %s]", f(b[0], g.Width), f(b[1], g.Height), f(b[2], g.Width), f(b[3], g.Height))
		}
		return out, nil
	case annotate.KindJudgment:
		switch t := strings.ToLower(strings.TrimSpace(a.Text)); t {
		case "yes", "no":
			return t, nil
		}
		return "", fmt.Errorf("score: sample %s: answer yes or no", s.ID)
	case annotate.KindOpen:
		t := strings.TrimSpace(a.Text)
		if t == "" {
			return "", fmt.Errorf("score: sample %s: the answer is empty", s.ID)
		}
		return t, nil
	}
	return "", fmt.Errorf("score: sample %s: a %s sample is not answered by people", s.ID, s.Kind)
}

// PersonAnswers are one person's responses (HumanResponse texts) to items of a
// human baseline.
type PersonAnswers struct {
	Person      string
	Predictions []Prediction
}

// PersonPrediction is one person's response to one item of a human baseline, as
// the baseline's answers are stored: a row of (person, sample, response).
type PersonPrediction struct {
	Person string
	Prediction
}

// GroupPeople gathers a baseline's answers into each person's PersonAnswers, for
// EvaluatePeople: people in the order they first appear, each person's answers
// in the order given.
func GroupPeople(answers []PersonPrediction) []PersonAnswers {
	var out []PersonAnswers
	at := map[string]int{} // person → index into out
	for _, a := range answers {
		i, ok := at[a.Person]
		if !ok {
			i = len(out)
			at[a.Person] = i
			out = append(out, PersonAnswers{Person: a.Person})
		}
		out[i].Predictions = append(out[i].Predictions, a.Prediction)
	}
	return out
}

// HumanLabel names the human row of a leaderboard: "Human (3 people, 120 items)".
func HumanLabel(people, items int) string {
	p := "people"
	if people == 1 {
		p = "person"
	}
	it := "items"
	if items == 1 {
		it = "item"
	}
	return fmt.Sprintf("Human (%d %s, %d %s)", people, p, items, it)
}

// EvaluatePeople scores a human baseline: each person's answers against the
// items they answered (items they left are not counted against them: a person
// may stop part-way), pooled into one report in which every answer is one
// sample, so a figure is the share over all answers given (with three people on
// every item, each item counts three times), while its intervals resample items,
// each with all its answers (Summarize's cluster bootstrap: answers to one item
// are not independent). golds are the baseline's items;
// the report's model is HumanLabel(people who answered, items). An answer to a
// sample not among golds, or two answers of one person to one sample, is an
// error; nobody answering is one too.
func EvaluatePeople(ctx context.Context, golds []Gold, people []PersonAnswers, opt Options) (*Report, []Result, error) {
	at := make(map[string]int, len(golds))
	for i, g := range golds {
		at[g.Sample.ID] = i
	}
	var gs []Gold
	var rs []Result
	answered := 0
	for _, p := range people {
		if len(p.Predictions) == 0 {
			continue
		}
		answered++
		mine := make([]Gold, 0, len(p.Predictions))
		for _, pr := range p.Predictions {
			i, ok := at[pr.SampleID]
			if !ok {
				return nil, nil, fmt.Errorf("score: %s answered %q, which is not an item of the baseline", p.Person, pr.SampleID)
			}
			mine = append(mine, golds[i])
		}
		res, err := ScoreAll(ctx, mine, p.Predictions, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("score: %s: %w", p.Person, err)
		}
		gs = append(gs, mine...)
		rs = append(rs, res...)
	}
	if answered == 0 {
		return nil, nil, fmt.Errorf("score: nobody has answered the baseline yet")
	}
	rep, err := Summarize(ctx, HumanLabel(answered, len(golds)), gs, rs, opt)
	if err != nil {
		return nil, nil, err
	}
	return rep, rs, nil
}
