// Package plant makes the defective copies that test the testers (issue 30):
// mutation testing of a project's verifiers. From an accepted sample it makes a
// copy with exactly one known error of a kind the guideline rules
// (../shared/spec/protocol.md) forbid — an answer key moved, a box moved off its
// object, a category tag dropped, a step graph's edge added or removed — or a
// clean copy, to measure false alarms; and from the verifiers' reviews of such
// copies it gives each verifier's catch rate and false-alarm rate with exact
// intervals (Figures). Which review counts as a catch is verify's rule
// (verify.ReviewOfPlanted).
//
// Plain Go on annotate.Sample: no SQL, no fyne.
package plant

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
)

// Mutation names one kind of planted error.
type Mutation string

// The mutations, and Clean for a copy left as it was.
const (
	Clean                Mutation = "clean"
	AnswerMoved          Mutation = "answer-moved"           // hop QA, MCQ: the key on another option
	BoxMoved             Mutation = "box-moved"              // hop QA: the box onto another region (IoU with the gold < 0.3)
	BoxShrunk            Mutation = "box-shrunk"             // hop QA: the box shrunk to half its width and height
	TagRemoved           Mutation = "tag-removed"            // hop QA: a category dropped with its tag, so the hop count no longer matches
	EgoSubjectStripped   Mutation = "ego-subject-stripped"   // hop QA, ego: the question's subject phrase removed
	OptionsNearIdentical Mutation = "options-near-identical" // hop QA, MCQ: a wrong option made nearly the same as the answer
	TransitiveEdge       Mutation = "transitive-edge"        // step graph: a precondition another path implies, added
	PreconditionRemoved  Mutation = "precondition-removed"   // step graph: a needed precondition removed
	StepsSwapped         Mutation = "steps-swapped"          // step graph: two steps' contents swapped
	AnswerFlipped        Mutation = "answer-flipped"         // yes/no: yes for no
	AnswerChanged        Mutation = "answer-changed"         // open, numeric: off by more than the tolerance
	ImagesSwapped        Mutation = "images-swapped"         // a sample of several images: two of them swapped
)

// Mutations lists every mutation, in a fixed order.
var Mutations = []Mutation{AnswerMoved, BoxMoved, BoxShrunk, TagRemoved, EgoSubjectStripped, OptionsNearIdentical,
	TransitiveEdge, PreconditionRemoved, StepsSwapped, AnswerFlipped, AnswerChanged, ImagesSwapped}

// Field is what a mutation changes, as verify.ReviewOfPlanted reads it: a reject
// naming a criterion that covers the field catches the error.
func (m Mutation) Field() string {
	switch m {
	case AnswerMoved, AnswerFlipped, AnswerChanged:
		return "answer"
	case BoxMoved, BoxShrunk:
		return "box"
	case TagRemoved, EgoSubjectStripped:
		return "template"
	case OptionsNearIdentical:
		return "options"
	case TransitiveEdge, PreconditionRemoved:
		return "preconditions"
	case StepsSwapped:
		return "steps"
	case ImagesSwapped:
		return "images"
	}
	return ""
}

// Words say what the mutation did, for the verifier's feedback: "the answer key
// had been moved to another option".
func (m Mutation) Words() string {
	switch m {
	case Clean:
		return "nothing had been changed"
	case AnswerMoved:
		return "the answer key had been moved to another option"
	case BoxMoved:
		return "the box had been moved off the answer's object"
	case BoxShrunk:
		return "the box had been shrunk to half its size"
	case TagRemoved:
		return "a category had been removed from the question, so its hop count no longer matched"
	case EgoSubjectStripped:
		return "the question's subject phrase had been removed"
	case OptionsNearIdentical:
		return "a wrong option had been made nearly the same as the answer"
	case TransitiveEdge:
		return "a precondition the graph already implied had been added"
	case PreconditionRemoved:
		return "a needed precondition had been removed"
	case StepsSwapped:
		return "two steps had been swapped"
	case AnswerFlipped:
		return "the yes/no answer had been flipped"
	case AnswerChanged:
		return "the answer had been changed by more than the tolerance"
	case ImagesSwapped:
		return "two of the images had been swapped"
	}
	return string(m)
}

// ErrNotApplicable is returned for a mutation a sample cannot take (a box move on
// a sample without a box, a tag drop on a one-category question, …).
var ErrNotApplicable = errors.New("the mutation does not apply to this sample")

// Applicable lists the mutations s can take, in the order of Mutations.
func Applicable(s annotate.Sample, width, height int) []Mutation {
	var out []Mutation
	rng := rand.New(rand.NewPCG(1, 1))
	for _, m := range Mutations {
		if _, err := Mutate(s, m, width, height, rng); err == nil {
			out = append(out, m)
		}
	}
	return out
}

// Mutate returns a copy of s with the error m, drawn with rng where there is a
// choice; width and height are the size of the image the box is on (BoxMoved keeps
// the box inside it). Clean returns the copy unchanged. s itself is not changed.
func Mutate(s annotate.Sample, m Mutation, width, height int, rng *rand.Rand) (annotate.Sample, error) {
	c := clone(s)
	hasOptions := (s.Kind == annotate.KindHopQA || s.Kind == annotate.KindMCQ) && len(s.Options) >= 2 &&
		s.AnswerIndex >= 0 && s.AnswerIndex < len(s.Options)
	na := func(why string) (annotate.Sample, error) {
		return annotate.Sample{}, fmt.Errorf("%w: %s %s: %s", ErrNotApplicable, m, s.ID, why)
	}
	switch m {
	case Clean:
		return c, nil
	case AnswerMoved:
		if !hasOptions {
			return na("no options")
		}
		k := rng.IntN(len(s.Options) - 1)
		if k >= s.AnswerIndex {
			k++
		}
		c.AnswerIndex = k
	case BoxMoved:
		if s.Kind != annotate.KindHopQA || s.Box == nil || width <= 0 || height <= 0 {
			return na("no box, or no image size")
		}
		b, ok := movedBox(*s.Box, width, height, rng)
		if !ok {
			return na("no room in the image for the box elsewhere")
		}
		c.Box = &b
	case BoxShrunk:
		if s.Kind != annotate.KindHopQA || s.Box == nil {
			return na("no box")
		}
		b := *s.Box
		w, h := (b[2]-b[0])/4, (b[3]-b[1])/4
		if w < 1 || h < 1 {
			return na("the box is too small to shrink")
		}
		c.Box = &annotate.Box{b[0] + w, b[1] + h, b[2] - w, b[3] - h}
	case TagRemoved:
		if s.Kind != annotate.KindHopQA || s.QuestionTag == "" {
			return na("no tagged question")
		}
		cats := slices.Clone(s.Categories)
		slices.Sort(cats)
		cats = slices.Compact(cats)
		if len(cats) < 2 || s.Hop != len(cats) {
			return na("fewer than two categories")
		}
		// Drop a category whose loss leaves an allowed set (att alone is not one).
		var can []annotate.Category
		for _, x := range cats {
			rest := slices.DeleteFunc(slices.Clone(cats), func(y annotate.Category) bool { return y == x })
			if annotate.AllowedCategorySet(rest) && strings.Contains(s.QuestionTag, "<"+strings.ToUpper(string(x))+">") {
				can = append(can, x)
			}
		}
		if len(can) == 0 {
			return na("no category can go")
		}
		drop := can[rng.IntN(len(can))]
		c.Categories = slices.DeleteFunc(c.Categories, func(y annotate.Category) bool { return y == drop })
		tag := strings.ToUpper(string(drop))
		c.QuestionTag = strings.NewReplacer("<"+tag+">", "", "</"+tag+">", "").Replace(s.QuestionTag)
	case EgoSubjectStripped:
		if s.Kind != annotate.KindHopQA || s.View != annotate.ViewEgo {
			return na("not an ego question")
		}
		_, rest, ok := annotate.CutSubjectPhrase(s.Question)
		_, restTag, okTag := annotate.CutSubjectPhrase(s.QuestionTag)
		if !ok || (s.QuestionTag != "" && !okTag) {
			return na("no subject phrase")
		}
		c.Question = capitalize(strings.TrimSpace(rest))
		if s.QuestionTag != "" {
			c.QuestionTag = capitalize(strings.TrimSpace(restTag))
		}
	case OptionsNearIdentical:
		if !hasOptions || len(s.Options) < 3 {
			return na("fewer than three options")
		}
		// A wrong option becomes the answer in other words: a reviewer sees two
		// options for one object, and the question answerable two ways.
		k := rng.IntN(len(s.Options) - 1)
		if k >= s.AnswerIndex {
			k++
		}
		c.Options[k] = nearly(s.Options[s.AnswerIndex])
	case TransitiveEdge:
		from, to, ok := transitivePair(s)
		if !ok {
			return na("no step two edges away from another")
		}
		i := slices.IndexFunc(c.Steps, func(st annotate.Step) bool { return st.ID == to })
		c.Steps[i].Precondition = append(c.Steps[i].Precondition, from)
	case PreconditionRemoved:
		// An edge from a step that another step needs too: the graph keeps one
		// final step (a lint would see a second), and only a reviewer sees that the
		// step now lacks what it needs.
		successors := map[string]int{}
		for _, st := range s.Steps {
			for _, p := range st.Precondition {
				successors[p]++
			}
		}
		var edges [][2]int
		for i, st := range s.Steps {
			for j, p := range st.Precondition {
				if successors[p] >= 2 {
					edges = append(edges, [2]int{i, j})
				}
			}
		}
		if s.Kind != annotate.KindStepGraph || len(edges) == 0 {
			return na("no precondition of a step that another step needs too")
		}
		e := edges[rng.IntN(len(edges))]
		c.Steps[e[0]].Precondition = slices.Delete(c.Steps[e[0]].Precondition, e[1], e[1]+1)
	case StepsSwapped:
		if s.Kind != annotate.KindStepGraph || len(s.Steps) < 2 {
			return na("fewer than two steps")
		}
		// Two steps one of which needs the other: swapping their contents puts the
		// later action first.
		var pairs [][2]int
		for i, st := range s.Steps {
			for _, p := range st.Precondition {
				if j := slices.IndexFunc(s.Steps, func(x annotate.Step) bool { return x.ID == p }); j >= 0 && s.Steps[j].Content != st.Content {
					pairs = append(pairs, [2]int{i, j})
				}
			}
		}
		if len(pairs) == 0 {
			return na("no step needs another")
		}
		p := pairs[rng.IntN(len(pairs))]
		c.Steps[p[0]].Content, c.Steps[p[1]].Content = s.Steps[p[1]].Content, s.Steps[p[0]].Content
	case AnswerFlipped:
		switch strings.ToLower(strings.TrimSpace(s.AnswerText)) {
		case "yes":
			c.AnswerText = "no"
		case "no":
			c.AnswerText = "yes"
		default:
			return na("not a yes/no answer")
		}
		if s.Kind != annotate.KindJudgment {
			return na("not a judgment")
		}
	case AnswerChanged:
		v, err := strconv.ParseFloat(strings.TrimSpace(s.AnswerText), 64)
		if s.Kind != annotate.KindOpen || err != nil {
			return na("not a numeric open answer")
		}
		tol := 0.0
		if s.Tolerance != nil {
			tol = *s.Tolerance
		}
		// Off by the larger of half the value and twice the tolerance, and at least 1.
		d := max(0.5*abs(v), 2*tol, 1)
		if rng.IntN(2) == 0 && v-d >= 0 {
			d = -d
		}
		c.AnswerText = strconv.FormatFloat(v+d, 'f', -1, 64)
	case ImagesSwapped:
		all := s.AllImages()
		if len(all) < 2 {
			return na("one image")
		}
		i := rng.IntN(len(all))
		j := rng.IntN(len(all) - 1)
		if j >= i {
			j++
		}
		all[i], all[j] = all[j], all[i]
		c.SetImages(all)
	default:
		return na("unknown mutation")
	}
	return c, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func capitalize(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// article matches a leading article.
var article = regexp.MustCompile(`(?i)^(the|a|an)\s+`)

// nearly is an option naming the same thing as o in other words: its article
// changed, or "the" added.
func nearly(o string) string {
	t := strings.TrimSpace(o)
	if m := article.FindString(t); m != "" {
		switch strings.ToLower(strings.TrimSpace(m)) {
		case "the":
			return "that " + t[len(m):]
		default:
			return "the " + t[len(m):]
		}
	}
	return "the " + t
}

// movedBox places a box of b's size elsewhere in a width×height image, with an IoU
// below 0.3 with b.
func movedBox(b annotate.Box, width, height int, rng *rand.Rand) (annotate.Box, bool) {
	w, h := b[2]-b[0], b[3]-b[1]
	if w <= 0 || h <= 0 || w > float64(width) || h > float64(height) {
		return annotate.Box{}, false
	}
	for range 64 {
		x := rng.Float64() * (float64(width) - w)
		y := rng.Float64() * (float64(height) - h)
		n := annotate.Box{x, y, x + w, y + h}
		if n.IoU(b) < 0.3 {
			return n, true
		}
	}
	return annotate.Box{}, false
}

// transitivePair finds steps a → b → c of a step graph with a not yet a direct
// precondition of c: adding it is an edge the graph implies already.
func transitivePair(s annotate.Sample) (from, to string, ok bool) {
	if s.Kind != annotate.KindStepGraph {
		return "", "", false
	}
	pre := map[string][]string{}
	for _, st := range s.Steps {
		pre[st.ID] = st.Precondition
	}
	for _, st := range s.Steps {
		for _, b := range st.Precondition {
			for _, a := range pre[b] {
				if !slices.Contains(st.Precondition, a) && a != st.ID {
					return a, st.ID, true
				}
			}
		}
	}
	return "", "", false
}

// clone copies s deeply enough that a mutation of the copy leaves s alone.
func clone(s annotate.Sample) annotate.Sample {
	c := s
	c.Options = slices.Clone(s.Options)
	c.Categories = slices.Clone(s.Categories)
	c.MoreImages = slices.Clone(s.MoreImages)
	c.ImageLabels = slices.Clone(s.ImageLabels)
	c.Frames = slices.Clone(s.Frames)
	c.Tags = slices.Clone(s.Tags)
	if s.Box != nil {
		b := *s.Box
		c.Box = &b
	}
	c.Steps = make([]annotate.Step, len(s.Steps))
	for i, st := range s.Steps {
		st.Precondition = slices.Clone(st.Precondition)
		c.Steps[i] = st
	}
	if s.Steps == nil {
		c.Steps = nil
	}
	return c
}
