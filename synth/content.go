package synth

// The generated sample content: lint-clean records of every kind on the generated
// images.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }

// weighted picks an index with probability proportional to its weight.
func weighted(rng *rand.Rand, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	x := rng.IntN(total)
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

var objects = []string{"the mug", "the kettle", "the laptop", "the book", "the chair", "the lamp", "the plant",
	"the bottle", "the backpack", "the keyboard", "the phone", "the cup", "the bowl", "the pillow", "the clock",
	"the monitor", "the towel", "the box", "the jar", "the shoe", "the stapler", "the remote"}

// content writes a lint-clean sample of kind on image im.
func (g *generator) content(kind annotate.Kind, id string, im bench.Image) annotate.Sample {
	r := g.rng
	s := annotate.Sample{ID: id, Kind: kind, Image: im.RelPath}
	objs := slices.Clone(objects)
	r.Shuffle(len(objs), func(a, b int) { objs[a], objs[b] = objs[b], objs[a] })
	if r.IntN(3) == 0 {
		s.Task = fmt.Sprintf("T%d", r.IntN(8))
	}
	if r.IntN(2) == 0 {
		s.Split = pick(r, []string{"train", "test"})
	}
	switch kind {
	case annotate.KindHopQA:
		sets := [][]annotate.Category{{"pos"}, {"rel"}, {"att", "pos"}, {"att", "rel"}, {"pos", "rel"}, {"att", "pos", "rel"}}
		s.Categories = pick(r, sets)
		s.Hop = len(s.Categories)
		// q is the question, qt the same with each category's phrase tagged.
		q, qt := "which", "which"
		phrase := func(c annotate.Category, before, text string) {
			q += before + text
			qt += before + "<" + annotate.TagName(c) + ">" + text + "</" + annotate.TagName(c) + ">"
		}
		if slices.Contains(s.Categories, annotate.CatAtt) {
			phrase(annotate.CatAtt, " ", pick(r, []string{"round", "open", "red", "wooden", "tall"}))
		}
		q, qt = q+" object", qt+" object"
		if slices.Contains(s.Categories, annotate.CatPos) {
			phrase(annotate.CatPos, " ", pick(r, []string{"on the desk", "on the left side of the image", "near the door", "on the shelf"}))
		}
		if slices.Contains(s.Categories, annotate.CatRel) {
			phrase(annotate.CatRel, " is ", pick(r, []string{"closest", "farthest", "highest", "largest"}))
		}
		if r.IntN(2) == 0 {
			s.View, s.EgoSubject = annotate.ViewEgo, pick(r, []annotate.EgoSubject{annotate.EgoReal, annotate.EgoVirtual})
			desc := map[annotate.EgoSubject]string{annotate.EgoReal: "the person at the table", annotate.EgoVirtual: "by the window"}[s.EgoSubject]
			lead := annotate.SubjectPhrase(s.EgoSubject, desc) + " "
			s.Question, s.QuestionTag = lead+q+"?", lead+qt+"?"
		} else {
			s.View = annotate.ViewExo
			s.Question, s.QuestionTag = strings.ToUpper(q[:1])+q[1:]+"?", strings.ToUpper(qt[:1])+qt[1:]+"?"
		}
		s.Options = objs[:4]
		s.AnswerIndex = r.IntN(4)
		x1, y1 := r.IntN(im.Width*3/5), r.IntN(im.Height*3/5)
		x2, y2 := x1+8+r.IntN(im.Width/3), y1+8+r.IntN(im.Height/3)
		s.Box = &annotate.Box{float64(x1), float64(y1), float64(min(x2, im.Width)), float64(min(y2, im.Height))}
	case annotate.KindStepGraph:
		// An in-tree towards the final step: every other step is the precondition of
		// exactly one later step, so there is one sink and no transitive edge.
		target := objs[0]
		s.Question = "Pick up " + target
		s.Scene = im.Scene
		n := 2 + r.IntN(7)
		s.Steps = make([]annotate.Step, n)
		for k := 0; k < n; k++ {
			s.Steps[k] = annotate.Step{ID: fmt.Sprintf("step%d", k+1), Content: fmt.Sprintf("Remove %s from the top of %s", objs[1+k], target), Precondition: []string{}}
		}
		s.Steps[n-1].Content = "Pick up " + target
		for k := 0; k < n-1; k++ {
			next := k + 1 + r.IntN(n-1-k)
			s.Steps[next].Precondition = append(s.Steps[next].Precondition, s.Steps[k].ID)
		}
	case annotate.KindJudgment:
		s.Question = fmt.Sprintf("Is %s to the left of %s?", objs[0], objs[1])
		s.AnswerText = pick(r, []string{"yes", "no"})
	case annotate.KindMCQ:
		k := 2 + r.IntN(5)
		s.Question = fmt.Sprintf("Which object is nearest to %s?", objs[k])
		s.Options = objs[:k]
		s.AnswerIndex = r.IntN(k)
	case annotate.KindOpen:
		if r.IntN(2) == 0 {
			s.Question = fmt.Sprintf("How far is %s from %s, in metres?", objs[0], objs[1])
			s.AnswerText = fmt.Sprintf("%.1f", 0.2+float64(r.IntN(40))/10)
			tol := 0.25
			s.Tolerance = &tol
		} else {
			s.Question = fmt.Sprintf("How many objects stand on %s?", objs[0])
			s.AnswerText = fmt.Sprint(1 + r.IntN(6))
			s.AnswerNumber = true
		}
	}
	return s
}
