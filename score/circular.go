package score

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Circular evaluation (MMBench's CircularEval, as VLMEvalKit runs it): a
// question of n options is asked n times, its options rotated, and counts as
// right only when every copy is answered right. bwctl export --format vlmevalkit
// --circular writes the copies (release/vlmevalkit.go): copy k of the question
// with index i has index i + k·CircularStride and option L of copy k is option
// (L + k) mod n of the question, its answer moving with it.
//
// Scoring follows open-compass/VLMEvalKit vlmeval/dataset/utils/multiple_choice.py
// mcq_circular_eval and prefetch_circular_group under exact matching (no judge
// model): rows are grouped by g_index = index mod 1e6; each row's letter is
// can_infer(prediction, build_choices(row)) — read against that row's own,
// rotated options; a row read as another letter than its answer makes the group
// wrong at once, every row read and right makes it right, and a group with a row
// that nothing can be read from goes to the judge model, which exact matching
// does not have: wrong (hit 0). Here each copy's letter is read against the copy's
// rotated options (RotateOptions) and mapped back to the question's own option
// ((L + k) mod n) before it is compared with the gold option, so the store keeps
// one gold answer per sample and one prediction holding all its copies.
//
// How a run is recognised as circular: by its predictions file (readCircular),
// whose rows carry VLMEvalKit's index — when an index is CircularStride or more,
// or the file's name holds "circular" as VLMEvalKit's result file of a circular
// export does ({model}_{Name}_circular_MCQ.tsv; VLMEvalKit itself switches to
// circular evaluation on the dataset's name, image_mcq.py evaluate_heuristic).
// The rows of one sample id are then one Prediction with Circular set; nothing
// needs saying again when scoring.
//
// Missing copies: VLMEvalKit groups the rows its result file holds, so a copy
// missing from the file is simply not judged (and a question whose own row is
// missing is not counted at all); its inference always writes every row, so the
// case does not arise there. Benchwright counts a missing copy as a wrong answer
// (an empty response, as a sample without a prediction is scored everywhere
// else): a question is right only if all n of its copies were answered right.

// CircularStride is what VLMEvalKit adds to a question's index for each rotated
// copy (multiple_choice.py mcq_circular_eval: g_index = int(index % 1e6)).
const CircularStride = 1_000_000

// RotateOptions returns the options of copy k of a question: option L of the
// copy is option (L + k) mod n of the question (release/vlmevalkit.go rotated).
func RotateOptions(options []string, k int) []string {
	n := len(options)
	if n == 0 {
		return nil
	}
	k = ((k % n) + n) % n
	return append(slices.Clone(options[k:]), options[:k]...)
}

// circularKind reports whether samples of kind have their options rotated by a
// circular export (the kinds whose answer is an option).
func circularKind(k annotate.Kind) bool {
	return k == annotate.KindMCQ || k == annotate.KindHopQA
}

// copyLetter reads the letter a response to copy k of g's question chose, in
// the copy's own lettering: mcq by InferOption over the copy's rotated options
// (VLMEvalKit's can_infer), hop_qa by ParseHopAnswer (the kind's own rule, which
// reads no option text). "" when none, Refused when declined.
func copyLetter(g Gold, response string, k int) string {
	if g.Sample.Kind == annotate.KindHopQA {
		l, _ := ParseHopAnswer(response)
		return l
	}
	return InferOption(response, RotateOptions(g.Sample.Options, k))
}

// unrotate maps letter l of copy k of a question of n options back to the
// question's own letter; "" and Refused stay what they are, as does a letter
// that is not an option.
func unrotate(l string, k, n int) string {
	if len(l) != 1 || l[0] < 'A' || int(l[0]-'A') >= n {
		return l
	}
	return annotate.AnswerLetter((int(l[0]-'A') + k) % n)
}

// scoreCircular rescores r, the result of p's Response as a plain prediction, as
// a circular one: Correct only when every copy names the gold option (the
// question's own row included); Hit50 follows Correct. Copies of a sample whose
// kind has no options to rotate, or more copies than the question has rotations,
// are an error.
func scoreCircular(g Gold, r *Result, p Prediction) error {
	n := len(g.Sample.Options)
	if !circularKind(g.Sample.Kind) || n == 0 {
		if len(p.Copies) > 0 {
			return fmt.Errorf("score: sample %q: rotated copies of a %s sample, which has no options to rotate", g.Sample.ID, g.Sample.Kind)
		}
		return nil
	}
	if len(p.Copies) > n-1 {
		return fmt.Errorf("score: sample %q: %d rotated copies of a question of %d options, which has %d", g.Sample.ID, len(p.Copies), n, n-1)
	}
	gold := ""
	if gi := g.Sample.AnswerIndex; gi >= 0 && gi < n && (g.Sample.Kind != annotate.KindHopQA || gi < 4) {
		gold = annotate.AnswerLetter(gi)
	}
	r.Circular = make([]string, n)
	right := gold != ""
	for k := range n {
		resp := p.Response
		if k > 0 {
			resp = ""
			if k-1 < len(p.Copies) {
				resp = p.Copies[k-1]
			}
		}
		r.Circular[k] = unrotate(copyLetter(g, resp, k), k, n)
		right = right && r.Circular[k] == gold
	}
	r.Correct = right
	r.Hit50 = r.Hit50 && right
	return nil
}

// CircularCounts counts, among preds, the circular predictions and the rotated
// copies they answer (copies left empty included), for messages.
func CircularCounts(preds []Prediction) (questions, copies int) {
	for _, p := range preds {
		if p.Circular {
			questions++
			for _, c := range p.Copies {
				if c != "" {
					copies++
				}
			}
		}
	}
	return questions, copies
}

// predRow is one record of a predictions file before circular copies are
// folded: the sample id, VLMEvalKit's row index (index < 0: none given), the
// response, the step match matrix and the 1-based line.
type predRow struct {
	id       string
	index    int64
	response string
	match    [][]int
	line     int
}

// circularFile reports whether the rows of the file called name are a circular
// run: they all carry an index, and one is CircularStride or more or the name
// holds "circular".
func circularFile(name string, rows []predRow) bool {
	named := strings.Contains(strings.ToLower(filepath.Base(name)), "circular")
	big := false
	for _, r := range rows {
		big = big || r.index >= CircularStride
	}
	if !big && !named {
		return false
	}
	if big {
		return true
	}
	return !slices.ContainsFunc(rows, func(r predRow) bool { return r.index < 0 })
}

// foldCircular turns the rows of a circular run into one Prediction per sample
// id, in the order ids first appear: the row of index i (< CircularStride) is the
// question's Response, the row of index i + k·CircularStride its Copies[k-1];
// copies not in the file are "". A row without an index, rows of one id from two
// questions (other index mod CircularStride) and two rows for one copy are errors
// naming the file and line.
func foldCircular(name string, rows []predRow) ([]Prediction, []int, error) {
	type group struct {
		at       int   // position in preds
		question int64 // index mod CircularStride
		lines    map[int64]int
	}
	groups := map[string]*group{}
	var preds []Prediction
	var lines []int
	for _, r := range rows {
		if r.index < 0 {
			return nil, nil, fmt.Errorf("%s:%d: %s: no index: the rows of a circular run are told apart by VLMEvalKit's index (copy k of question i is i + k·%d)", name, r.line, r.id, CircularStride)
		}
		q, k := r.index%CircularStride, int(r.index/CircularStride)
		g := groups[r.id]
		if g == nil {
			g = &group{at: len(preds), question: q, lines: map[int64]int{}}
			groups[r.id] = g
			preds = append(preds, Prediction{SampleID: r.id, Circular: true})
			lines = append(lines, r.line)
		}
		switch {
		case k > 25:
			return nil, nil, fmt.Errorf("%s:%d: %s: index %d would be copy %d, but a question has at most 26 options (A to Z)", name, r.line, r.id, r.index, k)
		case q != g.question:
			return nil, nil, fmt.Errorf("%s:%d: %s: index %d is a copy of question %d, but the sample's other rows are of question %d", name, r.line, r.id, r.index, q, g.question)
		case g.lines[int64(k)] != 0:
			return nil, nil, fmt.Errorf("%s:%d: %s: a second row for copy %d of the question (index %d; the first is at line %d)", name, r.line, r.id, k, r.index, g.lines[int64(k)])
		}
		g.lines[int64(k)] = r.line
		p := &preds[g.at]
		if k == 0 {
			p.Response, p.StepMatch = r.response, r.match
			lines[g.at] = r.line
			continue
		}
		for len(p.Copies) < k {
			p.Copies = append(p.Copies, "")
		}
		p.Copies[k-1] = r.response
	}
	return preds, lines, nil
}
