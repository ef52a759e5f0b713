package score

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The open-answer rules:
//   - extraction: PCSR-Bench §4.2 (../shared/seeds/pcsr-bench.txt:114);
//   - normalization: SQuAD v1.1's normalize_answer (evaluate-v1.1.py: lower-case,
//     drop punctuation, drop the articles a/an/the, collapse white space) with the
//     number handling of the VQA evaluation's processPunctuation
//     (open-compass/VLMEvalKit vlmeval/smp/misc.py process_punctuation);
//   - numbers: lmms-eval's VSI-Bench extract_number
//     (EvolvingLMMs-Lab/lmms-eval lmms_eval/tasks/vsibench/utils.py);
//   - MRA: VSI-Bench's mean_relative_accuracy (vision-x-nyu/thinking-in-space
//     lmms_eval/tasks/vsibench/utils.py; the same function in lmms-eval's
//     vsibench/utils.py and in haoningwu3639/SpatialScore utils/util.py).

var (
	thinkBlock  = regexp.MustCompile(`(?is)<think>.*?</think>`)
	thinkClose  = regexp.MustCompile(`(?is)^.*</think>`) // greedy: up to the last lone </think>
	thinkOpen   = regexp.MustCompile(`(?is)<think>.*$`)
	answerBlock = regexp.MustCompile(`(?is)<answer>(.*?)</answer>`)
)

// ExtractOpenAnswer takes the answer out of an open response as PCSR-Bench
// describes (§4.2): the <think>…</think> content is removed (and, when a tag is
// left unpaired, what precedes a lone </think> or follows a lone <think>), then the
// first <answer>…</answer> block is the answer; without one, the first 200
// characters of the trimmed text are.
func ExtractOpenAnswer(response string) string {
	s := response
	if strings.IndexByte(s, '<') >= 0 { // no tag otherwise
		if indexFold(s, "think>") >= 0 {
			s = thinkBlock.ReplaceAllString(s, " ")
			s = thinkClose.ReplaceAllString(s, "")
			s = thinkOpen.ReplaceAllString(s, "")
		}
		if from := indexFold(s, "<answer>"); from >= 0 {
			if m := answerBlock.FindStringSubmatch(s[from:]); m != nil {
				return strings.TrimSpace(m[1])
			}
		}
	}
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200])
	}
	return s
}

// NormalizeAnswer is the normalization of strict matching (and of the default
// step matching): SQuAD's normalize_answer, with numbers kept intact.
//
//   - lower-case;
//   - a comma between two digits is deleted ("1,000" → "1000"), a period between
//     two digits is kept ("2.5"), as the VQA evaluation's processPunctuation does
//     — SQuAD's plain deletion would turn "2.5" into "25", equal to "25";
//   - a + or - directly before a digit and not after a letter or digit is kept ("-3");
//   - every other punctuation mark or symbol (Unicode P and S, so curly quotes,
//     "°" and "%" too) becomes a space — SQuAD deletes them, which would glue
//     "left-hand" into "lefthand" while a gold "left hand" stays apart;
//   - the words a, an and the are dropped and white space is collapsed.
//
// Why: strict match is exact match after "basic normalization" (PCSR-Bench §4.2),
// and SQuAD's is the common one — it forgives case, punctuation and articles,
// which carry no answer, and nothing else.
func NormalizeAnswer(s string) string {
	out := make([]byte, 0, len(s))
	word := -1 // where the current word starts in out, -1 between words
	endWord := func() {
		if word < 0 {
			return
		}
		if w := string(out[word:]); w == "a" || w == "an" || w == "the" {
			out = out[:max(0, word-1)] // with the space before it
		}
		word = -1
	}
	prev := rune(-1)
	for i, r := range s {
		// The width read, not utf8.RuneLen(r): a byte that is not UTF-8 comes
		// through as U+FFFD, one byte wide but three to encode.
		_, size := utf8.DecodeRuneInString(s[i:])
		next := rune(-1)
		if i+size < len(s) {
			next, _ = utf8.DecodeRuneInString(s[i+size:])
		}
		keep := true
		switch {
		case r == ',' && isDigit(prev) && isDigit(next):
			prev = r
			continue
		case r == '.' && isDigit(prev) && isDigit(next):
		case (r == '-' || r == '+') && isDigit(next) && !isDigit(prev) && !isLetter(prev):
		case unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r):
			keep = false
		}
		prev = r
		if !keep {
			endWord()
			continue
		}
		if word < 0 {
			if len(out) > 0 {
				out = append(out, ' ')
			}
			word = len(out)
		}
		out = utf8.AppendRune(out, unicode.ToLower(r))
	}
	endWord()
	return string(out)
}

func isDigit(r rune) bool  { return r >= 0 && unicode.IsDigit(r) }
func isLetter(r rune) bool { return r >= 0 && unicode.IsLetter(r) }

var (
	numberRe    = regexp.MustCompile(`-?[0-9]+(?:\.[0-9]+)?`)
	wordRe      = regexp.MustCompile(`[a-z]+`)
	numberWords = map[string]int{
		"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
		"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
		"fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
		"nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
		"seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
	}
)

// ExtractNumber reads the first number of a response as lmms-eval's VSI-Bench
// extract_number does: the first of a decimal (-?\d+(\.\d+)?, so "1,000" reads 1)
// and a run of English number words ("three", "twenty-one", "three hundred and
// twenty-one"; "and" is skipped inside a run, the run ends at the first other
// word), whichever starts first. ok is false when there is neither.
func ExtractNumber(response string) (v float64, ok bool) {
	s := strings.ToLower(strings.TrimSpace(response))
	if s == "" {
		return 0, false
	}
	digit := numberRe.FindStringIndex(s)
	runStart := -1
	var run []int
	for _, loc := range wordRe.FindAllStringIndex(s, -1) {
		tok := s[loc[0]:loc[1]]
		n, isNum := numberWords[tok]
		if runStart < 0 {
			if isNum {
				runStart = loc[0]
				run = append(run, n)
			}
			continue
		}
		if tok == "and" {
			continue
		}
		if !isNum {
			break
		}
		run = append(run, n)
	}
	if digit != nil && (runStart < 0 || digit[0] < runStart) {
		if f, err := strconv.ParseFloat(s[digit[0]:digit[1]], 64); err == nil {
			return f, true
		}
	}
	if runStart < 0 {
		return 0, false
	}
	total, current := 0, 0
	for _, n := range run {
		switch n {
		case 100:
			current = max(current, 1) * 100
		case 1000:
			total += max(current, 1) * 1000
			current = 0
		default:
			current += n
		}
	}
	return float64(total + current), true
}

// MRAThresholds are the confidence thresholds θ of mean relative accuracy,
// computed as the consumers' np.linspace(0.5, 0.95, 10) does (i·0.05 + 0.5, the
// last exactly 0.95).
var MRAThresholds = func() []float64 {
	// Variables, not constants: Go would compute constant arithmetic exactly,
	// numpy rounds each step (the 9th threshold is 0.8999999999999999).
	start, end, num := 0.5, 0.95, 10
	step := (end - start) / float64(num-1)
	t := make([]float64, num)
	for i := range t {
		t[i] = float64(i)*step + start
	}
	t[num-1] = end
	return t
}()

// MRA is the mean relative accuracy of a numeric prediction: the share of the
// thresholds θ in MRAThresholds for which |pred - gold| / |gold| <= 1 - θ.
//
// The consumers' code compares with <= (thinking-in-space, lmms-eval and
// SpatialScore: abs_dist_norm(pred, target) <= 1 - conf_intervs); the VSI-Bench
// paper writes <, which differs only when the relative error lands exactly on a
// threshold (pred 5, gold 10: 0.1 here, 0 with <). It divides by |gold| where the
// code divides by gold (a negative gold would pass every threshold there). A gold
// of 0 gives 1 for a prediction of 0 and 0 otherwise, as SpatialScore's
// test_qwen.py special-cases it.
func MRA(pred, gold float64) float64 {
	if math.IsNaN(pred) || math.IsNaN(gold) {
		return 0
	}
	if gold == 0 {
		if pred == 0 {
			return 1
		}
		return 0
	}
	rel := math.Abs(pred-gold) / math.Abs(gold)
	n := 0
	for _, t := range MRAThresholds {
		if rel <= 1-t {
			n++
		}
	}
	return float64(n) / float64(len(MRAThresholds))
}

// WithinTolerance reports whether |pred - gold| <= tol, allowing 1e-9 relative to
// the larger magnitude for decimal rounding (2.6 is within 0.1 of 2.5 although
// 2.6 - 2.5 is 0.10000000000000009 in binary).
func WithinTolerance(pred, gold, tol float64) bool {
	d := math.Abs(pred - gold)
	return d <= tol || d-tol <= 1e-9*max(1, math.Abs(pred), math.Abs(gold))
}

// goldNumber reads a gold open answer as a number (Python's float of the
// trimmed text, as VSI-Bench's to_float; infinities and NaN are not numbers here).
func goldNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// scoreOpen scores an open response: strict match of the normalized extracted
// answer; relaxed match, which also accepts a number within the sample's
// tolerance (0 without one, so "2.0" matches "2"); and MRA when the gold answer
// is a number. PCSR-Bench's relaxed heuristics beyond numbers (synonyms,
// instance-to-class, bounded substrings; its Appendix B) are not in the seed
// papers and are not applied.
func scoreOpen(g Gold, r *Result, response string) {
	ans := ExtractOpenAnswer(response)
	norm := NormalizeAnswer(ans)
	if norm == "" {
		r.ParseError = "empty answer after extraction and normalization"
	} else {
		r.Answer = ans
		r.Correct = norm == NormalizeAnswer(g.Sample.AnswerText)
	}
	r.Relaxed = r.Correct
	gv, ok := goldNumber(g.Sample.AnswerText)
	if !ok {
		return
	}
	mra := 0.0
	if pv, ok := ExtractNumber(ans); ok {
		r.Number = &pv
		mra = MRA(pv, gv)
		tol := 0.0
		if g.Sample.Tolerance != nil {
			tol = *g.Sample.Tolerance
		}
		r.Relaxed = r.Relaxed || WithinTolerance(pv, gv, tol)
	}
	r.MRA = &mra
}
