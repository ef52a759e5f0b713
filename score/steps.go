package score

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// The step-graph rules follow SpatiaLQA (xieyc99/SpatiaLQA): answer.py and
// utils.py for reading a model's answer, utils.py max_match_binary_matrix for
// the matching, metric.py compute_precondition_and_content_scores and cal_metric
// for the counts and their aggregation.

var ansTag = regexp.MustCompile(`(?i)<\s*/?\s*ans\s*>`)

// ansBody is the text of the first <ans>…</ans> (answer.py: re.search
// r'<ans>(.*?)</ans>' with DOTALL).
func ansBody(s string) (string, bool) {
	i := strings.Index(s, "<ans>")
	if i < 0 {
		return "", false
	}
	body := s[i+len("<ans>"):]
	j := strings.Index(body, "</ans>")
	if j < 0 {
		return "", false
	}
	return body[:j], true
}

// fenceBody is the text of the first ``` fence, without its language tag and
// surrounding white space (utils.py: r"```(?:\w+)?\s*(.*?)\s*```" with DOTALL).
func fenceBody(s string) (string, bool) {
	i := strings.Index(s, "```")
	if i < 0 {
		return "", false
	}
	rest := s[i+3:]
	k := 0
	for k < len(rest) && (rest[k] == '_' || rest[k] >= '0' && rest[k] <= '9' || rest[k]|0x20 >= 'a' && rest[k]|0x20 <= 'z') {
		k++
	}
	rest = strings.TrimLeft(rest[k:], " \t\n\r\f\v")
	j := strings.Index(rest, "```")
	if j < 0 {
		return "", false
	}
	return strings.TrimRight(rest[:j], " \t\n\r\f\v"), true
}

// ErrNoStepGraph is wrapped by ParseStepGraph's error when no step graph is found.
var ErrNoStepGraph = errors.New("no step graph")

// ParseStepGraph reads a predicted step graph from a model's response, as
// SpatiaLQA's readers do between them. The places tried, in order: the text
// inside <ans>…</ans> (answer.py, the prompt's format), inside a ``` fence, with
// or without a language tag (utils.py parse_qwen7b_answer_from_str and
// parse_llava1_5_steps), and the whole response; in each, the text itself, then
// the span from its first "{" to its last "}" (parse_internvl_steps), then from
// its first "[" to its last "]". A span is decoded as JSON or, failing that, as a
// Python literal (ast.literal_eval: single quotes, True/None, trailing commas).
// The decoded value may be:
//
//   - {"step1": {"content": …, "precondition": […]}, …}, the SpatiaLQA answer;
//   - {"question": …, "answer": {…}} (answer.py takes "answer");
//   - {"steps": [{…}, …]} (parse_qwen32b_answer_from_str numbers them step1…);
//   - [{"step1": {…}}, {"step2": {…}}] (to_step_dict_from_singleton_list);
//   - [{"content": …, "precondition": […]}, …] (parse_cosmos_steps, numbered step1…).
//
// Spaces are removed from keys (clean_keys), a "postaction" step or field is
// dropped (remove_all_postaction), a precondition given as one string becomes a
// list and empty ones are dropped, and a precondition naming a step by its
// content instead of its id is mapped to that step (replace_preconditions). The
// steps keep the response's order and its keys as ids.
func ParseStepGraph(response string) ([]annotate.Step, error) {
	places := make([]string, 0, 3)
	if b, ok := ansBody(response); ok {
		places = append(places, b)
	}
	if b, ok := fenceBody(response); ok {
		places = append(places, b)
	}
	places = append(places, response)
	var firstErr error
	for _, place := range places {
		if strings.IndexByte(place, '<') >= 0 {
			place = ansTag.ReplaceAllString(place, "")
		}
		place = strings.TrimSpace(place)
		for _, span := range literalSpans(place) {
			v, err := parseLiteral(span)
			if err == nil {
				var steps []annotate.Step
				if steps, err = stepsFromLiteral(v); err == nil {
					return steps, nil
				}
			}
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	if firstErr == nil {
		return nil, fmt.Errorf("%w: no JSON object or list in the response", ErrNoStepGraph)
	}
	return nil, fmt.Errorf("%w: %v", ErrNoStepGraph, firstErr)
}

// literalSpans are the candidate texts of one place: itself, its outermost
// braces, its outermost brackets.
func literalSpans(s string) []string {
	var spans []string
	if s != "" && (s[0] == '{' || s[0] == '[') {
		spans = append(spans, s)
	}
	if l, r := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); l >= 0 && r > l {
		spans = append(spans, s[l:r+1])
	}
	if l, r := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']'); l >= 0 && r > l {
		spans = append(spans, s[l:r+1])
	}
	return spans
}

func noSpaces(s string) string { return strings.ReplaceAll(s, " ", "") }

// stepsFromLiteral turns one of ParseStepGraph's accepted shapes into steps.
func stepsFromLiteral(v lit) ([]annotate.Step, error) {
	if v.kind == litObject {
		for i, k := range v.keys {
			switch noSpaces(k) {
			case "answer":
				if a := v.vals[i]; a.kind == litObject || a.kind == litList {
					return stepsFromLiteral(a)
				}
			case "steps":
				if a := v.vals[i]; a.kind == litList {
					return numberedSteps(a.list)
				}
			}
		}
		return namedSteps(v.keys, v.vals)
	}
	if v.kind != litList || len(v.list) == 0 {
		return nil, errors.New("want an object of steps or a list of steps")
	}
	singletons := true
	for _, it := range v.list {
		singletons = singletons && it.kind == litObject && len(it.keys) == 1 && strings.HasPrefix(noSpaces(it.keys[0]), "step")
	}
	if singletons {
		var keys []string
		var vals []lit
		for _, it := range v.list {
			keys, vals = append(keys, it.keys[0]), append(vals, it.vals[0])
		}
		return namedSteps(keys, vals)
	}
	return numberedSteps(v.list)
}

// numberedSteps names a list of step objects step1, step2, ….
func numberedSteps(items []lit) ([]annotate.Step, error) {
	keys := make([]string, len(items))
	for i := range items {
		keys[i] = "step" + strconv.Itoa(i+1)
	}
	return namedSteps(keys, items)
}

// namedSteps builds steps from keys and step objects; values that are not
// objects, and "postaction" entries, are skipped.
func namedSteps(keys []string, vals []lit) ([]annotate.Step, error) {
	var steps []annotate.Step
	at := map[string]int{}
	for i, k := range keys {
		k = noSpaces(k)
		v := vals[i]
		if v.kind != litObject || k == "postaction" {
			continue
		}
		st := annotate.Step{ID: k, Precondition: []string{}}
		hasField := false
		for j, f := range v.keys {
			fv := v.vals[j]
			switch noSpaces(f) {
			case "content":
				hasField = true
				st.Content = fv.text()
			case "precondition":
				hasField = true
				switch fv.kind {
				case litList:
					for _, p := range fv.list {
						if t := strings.TrimSpace(p.text()); t != "" {
							st.Precondition = append(st.Precondition, t)
						}
					}
				case litString:
					if t := strings.TrimSpace(fv.str); t != "" {
						st.Precondition = append(st.Precondition, t)
					}
				}
			}
		}
		if !hasField {
			continue
		}
		if j, dup := at[k]; dup {
			steps[j] = st
			continue
		}
		at[k] = len(steps)
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		return nil, errors.New("no step with a content or precondition field")
	}
	mapPreconditions(steps)
	return steps, nil
}

// mapPreconditions is replace_preconditions: a precondition equal to a step id
// (case-insensitively, spaces removed) becomes that id; one equal to a step's
// content (lower-cased, white space collapsed) becomes that step's id; others
// are kept and will match nothing.
func mapPreconditions(steps []annotate.Step) {
	byID := map[string]string{}
	byContent := map[string]string{}
	for _, s := range steps {
		byID[strings.ToLower(s.ID)] = s.ID
		c := strings.Join(strings.Fields(strings.ToLower(s.Content)), " ")
		if _, ok := byContent[c]; !ok && c != "" {
			byContent[c] = s.ID
		}
	}
	for i := range steps {
		for j, p := range steps[i].Precondition {
			if id, ok := byID[strings.ToLower(noSpaces(p))]; ok {
				steps[i].Precondition[j] = id
			} else if id, ok := byContent[strings.Join(strings.Fields(strings.ToLower(p)), " ")]; ok {
				steps[i].Precondition[j] = id
			}
		}
	}
}

// TextMatch is the default step match matrix: m[i][j] is true when gold step i
// and predicted step j have the same NormalizeAnswer text. SpatiaLQA has GPT-4o
// judge each pair against the image instead (prompt/gen_sim_matrix.txt); pass
// such a matrix in Prediction.StepMatch to use it.
func TextMatch(gold, pred []annotate.Step) [][]bool {
	pn := make([]string, len(pred))
	for j, p := range pred {
		pn[j] = NormalizeAnswer(p.Content)
	}
	m := make([][]bool, len(gold))
	for i, g := range gold {
		gn := NormalizeAnswer(g.Content)
		m[i] = make([]bool, len(pred))
		for j := range pred {
			m[i][j] = gn != "" && gn == pn[j]
		}
	}
	return m
}

// StepScore is the scoring of one predicted step graph.
type StepScore struct {
	Matches [][2]int // matched (gold, predicted) step indices
	Content Counts   // steps: matched, predicted unmatched, gold unmatched
	Precond Counts   // precondition edges mapped through the matching
}

// ScoreSteps compares a predicted step graph with the gold one, given their
// match matrix (gold × predicted), as metric.py's
// compute_precondition_and_content_scores does:
//
//   - the matching is MaxMatching(match);
//   - content: TP = matched pairs, FP = predicted steps - TP, FN = gold steps - TP;
//   - preconditions: the gold edges are the distinct (step, precondition) pairs of
//     the gold graph; each predicted edge (step, precondition) is mapped to gold
//     ids through the matching; TP = gold edges among the mapped ones, FN = gold
//     edges not among them, FP = mapped edges not among the gold ones.
//
// A predicted edge with an endpoint outside the matching (an unmatched step or
// an unknown id) cannot be a gold edge. metric.py writes that endpoint as "x" and
// collects the edges in a set, so such edges collapse into one false positive per
// distinct pattern; collapse reproduces that, otherwise each distinct predicted
// edge counts. metric.py looks predicted preconditions up by position
// ("step{j+1}" is the j-th step), here by the steps' own ids: the same for
// answers keyed step1…stepN in order.
func ScoreSteps(gold, pred []annotate.Step, match [][]bool, collapse bool) (StepScore, error) {
	if len(match) != len(gold) {
		return StepScore{}, fmt.Errorf("score: step match matrix has %d rows, want %d gold steps", len(match), len(gold))
	}
	for i, row := range match {
		if len(row) != len(pred) {
			return StepScore{}, fmt.Errorf("score: step match matrix row %d has %d entries, want %d predicted steps", i, len(row), len(pred))
		}
	}
	var sc StepScore
	if len(gold) > 0 && len(pred) > 0 {
		pairs, err := MaxMatching(match)
		if err != nil {
			return sc, err
		}
		sc.Matches = pairs
	}
	tp := len(sc.Matches)
	sc.Content = Counts{TP: tp, FP: len(pred) - tp, FN: len(gold) - tp}

	type edge struct{ to, from string }
	goldEdges := map[edge]bool{}
	for _, g := range gold {
		for _, p := range g.Precondition {
			goldEdges[edge{g.ID, p}] = true
		}
	}
	// toGold maps a predicted step id to its matched gold id.
	toGold := map[string]string{}
	for _, m := range sc.Matches {
		if _, dup := toGold[pred[m[1]].ID]; !dup {
			toGold[pred[m[1]].ID] = gold[m[0]].ID
		}
	}
	mapped := map[edge]bool{}
	endpoint := func(id string) string {
		if g, ok := toGold[id]; ok {
			return "g\x00" + g
		}
		if collapse {
			return "x"
		}
		return "p\x00" + id // distinct per predicted id
	}
	for _, p := range pred {
		for _, q := range p.Precondition {
			mapped[edge{endpoint(p.ID), endpoint(q)}] = true
		}
	}
	for e := range goldEdges {
		if mapped[edge{"g\x00" + e.to, "g\x00" + e.from}] {
			sc.Precond.TP++
		} else {
			sc.Precond.FN++
		}
	}
	sc.Precond.FP = len(mapped) - sc.Precond.TP
	return sc, nil
}

// scoreStepGraph parses and scores a step-graph response.
func scoreStepGraph(g Gold, p Prediction, r *Result, collapse bool) error {
	pred, err := ParseStepGraph(p.Response)
	if err != nil {
		r.ParseError = err.Error()
		pred = nil
	}
	r.Steps = pred
	var match [][]bool
	if p.StepMatch != nil && pred != nil {
		match = make([][]bool, len(p.StepMatch))
		for i, row := range p.StepMatch {
			match[i] = make([]bool, len(row))
			for j, v := range row {
				switch v {
				case 0:
				case 1:
					match[i][j] = true
				default:
					return fmt.Errorf("score: sample %s: step match matrix entry (%d, %d) is %d, want 0 or 1", g.Sample.ID, i, j, v)
				}
			}
		}
	} else {
		match = TextMatch(g.Sample.Steps, pred)
	}
	sc, err := ScoreSteps(g.Sample.Steps, pred, match, collapse)
	if err != nil {
		return fmt.Errorf("score: sample %s: %w", g.Sample.ID, err)
	}
	r.Matches, r.Content, r.Precond = sc.Matches, &sc.Content, &sc.Precond
	r.Correct = pred != nil && sc.Content.FP == 0 && sc.Content.FN == 0 && sc.Precond.FP == 0 && sc.Precond.FN == 0
	return nil
}
