package shortcut

import (
	"cmp"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Move is one sample whose options Rebalance reorders: its correct option moves
// from letter From to letter To, swapping places with the option that was at
// To. Sample is the sample so reordered (a copy; the input is not modified):
// its answer is the same option text as before.
type Move struct {
	ID       string
	Task     string
	From, To int
	Sample   annotate.Sample
}

// Unmoved is a chosen sample Rebalance cannot reorder, and why (in words).
type Unmoved struct {
	ID  string
	Why string
}

// Rebalancing is Rebalance's plan: what changes and what stays.
type Rebalancing struct {
	Moves []Move   // by task, then id
	Kept  []string // chosen samples whose correct letter is already where the balance wants it
	Left  []Unmoved
}

// Rebalance chooses new letter orders for the chosen samples (chosen(id); nil
// chooses every sample) so that, per task, the correct letters of the task's
// multiple-choice samples come as close as whole samples allow to the shares
// chance gives (each sample of n options expects 1/n of an answer per letter:
// the answer-position check's expectation), changing as few samples as it can:
// the samples that are not chosen, or cannot move, stay as they are and count.
//
// A sample that moves has its correct option swapped with the option at the new
// letter; nothing else in it changes (its boxes and steps refer to the picture,
// not to letters). A sample whose text refers to option letters or positions —
// "(A)", "option B", "both of the above", an option that is a letter — is left
// as it is, as is one carrying an answer field Benchwright does not know: moving
// its options would make it wrong. The same samples and seed give the same plan.
func Rebalance(samples []annotate.Sample, chosen func(id string) bool, seed uint64) Rebalancing {
	var out Rebalancing
	tasks, byTask := groupByTask(samples, func(s annotate.Sample) bool {
		if choice(s) {
			return true
		}
		if chosen != nil && chosen(s.ID) { // named: say why it stays
			out.Left = append(out.Left, Unmoved{s.ID, "not a multiple-choice question with an answer"})
		}
		return false
	})
	for ti, t := range tasks {
		rebalanceTask(t, byTask[t], chosen, rand.New(rand.NewPCG(seed, uint64(ti)+0x1e77e5)), &out)
	}
	slices.SortFunc(out.Moves, func(a, b Move) int { return cmp.Or(cmp.Compare(a.Task, b.Task), cmp.Compare(a.ID, b.ID)) })
	slices.Sort(out.Kept)
	slices.SortFunc(out.Left, func(a, b Unmoved) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// rebalanceTask is Rebalance on one task's multiple-choice samples.
func rebalanceTask(task string, ss []annotate.Sample, chosen func(string) bool, rng *rand.Rand, out *Rebalancing) {
	width := 0
	for _, s := range ss {
		width = max(width, len(s.Options))
	}
	// What chance expects per letter, rounded to whole samples (largest
	// remainders; ties by a seeded order of the letters).
	exp := make([]float64, width)
	for _, s := range ss {
		for l := range s.Options {
			exp[l] += 1 / float64(len(s.Options))
		}
	}
	target := make([]int, width)
	left := len(ss)
	for l := range exp {
		target[l] = int(math.Floor(exp[l] + 1e-9))
		left -= target[l]
	}
	rank := rng.Perm(width)
	byRemainder := make([]int, width)
	for l := range byRemainder {
		byRemainder[l] = l
	}
	slices.SortStableFunc(byRemainder, func(a, b int) int {
		ra, rb := exp[a]-float64(target[a]), exp[b]-float64(target[b])
		if math.Abs(ra-rb) > 1e-9 {
			return cmp.Compare(rb, ra)
		}
		return cmp.Compare(rank[a], rank[b])
	})
	for i := 0; left > 0; i++ {
		target[byRemainder[i%width]]++
		left--
	}
	// The samples that stay take their places first; the movable ones keep
	// theirs while the letter has room, in a seeded order; the rest go, those
	// with the fewest options first, to the letter with the most room.
	room := slices.Clone(target)
	var movable []annotate.Sample
	for _, s := range ss {
		if chosen != nil && !chosen(s.ID) {
			room[s.AnswerIndex]--
			continue
		}
		if why := fixedOrder(s); why != "" {
			out.Left = append(out.Left, Unmoved{s.ID, why})
			room[s.AnswerIndex]--
			continue
		}
		movable = append(movable, s)
	}
	order := rng.Perm(len(movable))
	seeded := make([]annotate.Sample, len(movable))
	for i, k := range order {
		seeded[i] = movable[k]
	}
	var rest []annotate.Sample
	for _, s := range seeded {
		if room[s.AnswerIndex] > 0 {
			room[s.AnswerIndex]--
			out.Kept = append(out.Kept, s.ID)
			continue
		}
		rest = append(rest, s)
	}
	slices.SortStableFunc(rest, func(a, b annotate.Sample) int { return cmp.Compare(len(a.Options), len(b.Options)) })
	for _, s := range rest {
		to := 0
		for l := 1; l < len(s.Options); l++ {
			if room[l] > room[to] || room[l] == room[to] && rank[l] < rank[to] {
				to = l
			}
		}
		room[to]--
		if to == s.AnswerIndex {
			out.Kept = append(out.Kept, s.ID)
			continue
		}
		moved := s
		moved.Options = slices.Clone(s.Options)
		moved.Options[s.AnswerIndex], moved.Options[to] = moved.Options[to], moved.Options[s.AnswerIndex]
		moved.AnswerIndex = to
		out.Moves = append(out.Moves, Move{ID: s.ID, Task: task, From: s.AnswerIndex, To: to, Sample: moved})
	}
}

// Patterns of text that depends on the options' order.
var (
	// "(A)", "(b)", "option C", "options A and B", "answer D", "choice a".
	letterMention = regexp.MustCompile(`(?i)\(\s*[a-z]\s*\)|\b(?:options?|answers?|choices?)\s+[a-z]\b`)
	// "all of the above", "none of the others", "both of these".
	positional = regexp.MustCompile(`(?i)\b(?:all|none|both|neither|either|any)\s+of\s+the\s+(?:above|below|others|other options|previous|options|these|those)\b`)
	// an option that is a letter or letters: "A", "A and B", "B, C".
	lettersOnly = regexp.MustCompile(`^[A-Z](?:\s*(?:,|and|&|or|/)\s*[A-Z])*\.?$`)
)

// fixedOrder says why s's options cannot be reordered without making it wrong,
// or "" when they can.
func fixedOrder(s annotate.Sample) string {
	texts := []string{s.Question, s.QuestionTag}
	for _, st := range s.Steps {
		texts = append(texts, st.Content)
	}
	for _, t := range texts {
		if letterMention.MatchString(t) {
			return "its text names an option by its letter"
		}
	}
	for _, o := range s.Options {
		o = strings.TrimSpace(o)
		if letterMention.MatchString(o) || positional.MatchString(o) || lettersOnly.MatchString(o) {
			return "an option refers to the other options by their place or letter"
		}
	}
	if positional.MatchString(s.Question) {
		return "its question refers to the options by their place"
	}
	for k := range s.Extra {
		if k := strings.ToLower(k); strings.Contains(k, "answer") || strings.Contains(k, "choice") || strings.Contains(k, "option") {
			return "it carries an answer field Benchwright does not know (" + k + ")"
		}
	}
	if t := strings.TrimSpace(s.AnswerText); t != "" && t != strings.TrimSpace(s.Options[s.AnswerIndex]) {
		return "its answer text is not its correct option's"
	}
	return ""
}
