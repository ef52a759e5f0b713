package score

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchwright/benchwright/annotate"
)

// The mcq and judgment rules follow VLMEvalKit's exact-matching path (no judge
// model): open-compass/VLMEvalKit vlmeval/utils/matching_util.py can_infer,
// can_infer_option, can_infer_text, as called by
// vlmeval/dataset/utils/multiple_choice.py extract_answer_from_item, and
// vlmeval/dataset/utils/yorn.py YOrN_Extraction with
// vlmeval/smp/misc.py process_punctuation.

// Refused is the letter InferOption returns for a response that declines to
// answer (VLMEvalKit's "Z").
const Refused = "Z"

// vlmRefusals make can_infer_option answer "Z".
var vlmRefusals = []string{
	"Sorry, I can't help with images of people yet.", "I can't process this file.",
	"I'm sorry, but without the image provided", "Cannot determine the answer",
}

// vlmVerbose is matching_util.py's _VERBOSE_ANSWER_RE.
var vlmVerbose = regexp.MustCompile(`(?i)(?:correct` + pyS + `+)?answer` + pyS + `+is` + pyS + `+\**([ABCD])\**`)

// InferOption reads the chosen option from a free-text response to a multiple-
// choice question with the given options (option i has letter "A"+i). It returns
// the letter, Refused when the response declines, or "" when nothing can be
// inferred; VLMEvalKit then scores the sample wrong (extract_answer_from_item
// under the exact_matching policy answers "Z"). The rules are can_infer's:
//
//  1. can_infer_option: a response containing "Failed to obtain answer via API"
//     goes straight to step 2; one containing a known refusal is Refused.
//     Otherwise the characters .()[],:;!*#{} become spaces and the text is split
//     on white space; if exactly one option letter is among the words and its
//     first occurrence is among the last four words, it is the answer; if no
//     letter is but the word "Z" is, the answer is Refused; else "answer is X" /
//     "correct answer is **X**" (X in A–D, any case) gives X when it is an option.
//  2. can_infer_text: unless the response is longer than twice the options'
//     total length, the one option whose lower-cased text occurs in the
//     lower-cased response is the answer; none or several gives "".
//
// can_infer_option's "A might be a quantifier" check runs only with the VERBOSE
// environment variable set and is left out.
func InferOption(response string, options []string) string {
	letters := make([]string, len(options))
	for i := range options {
		letters[i] = annotate.AnswerLetter(i)
	}
	if l, ok := inferOptionLetter(response, letters); ok {
		return l
	}
	return inferOptionText(response, letters, options)
}

// inferOptionLetter is can_infer_option; ok false is its False.
func inferOptionLetter(answer string, letters []string) (string, bool) {
	if strings.Contains(answer, "Failed to obtain answer via API") {
		return "", false
	}
	for _, r := range vlmRefusals {
		if strings.Contains(answer, r) {
			return Refused, true
		}
	}
	mod := strings.Map(func(r rune) rune {
		if strings.ContainsRune(".()[],:;!*#{}", r) {
			return ' '
		}
		return r
	}, answer)
	splits := strings.FieldsFunc(mod, pyIsSpace)
	first := func(w string) int {
		for i, s := range splits {
			if s == w {
				return i
			}
		}
		return -1
	}
	count := 0
	for _, l := range letters {
		if first(l) >= 0 {
			count++
		}
	}
	switch {
	case count == 1:
		for _, l := range letters {
			if i := first(l); i >= 0 && i > len(splits)-5 {
				return l, true
			}
		}
	case count == 0 && first("Z") >= 0: // count_choice(splits, {'Z', ''}) == 1; split() never yields ''
		return Refused, true
	}
	// The earliest "answer is X" decides, with or without "correct" before it,
	// so the search can start at the first "answer".
	if from := indexFold(answer, "answer"); from < 0 {
		return "", false
	} else if m := vlmVerbose.FindStringSubmatch(answer[from:]); m != nil {
		l := strings.ToUpper(m[1])
		for _, x := range letters {
			if x == l {
				return l, true
			}
		}
	}
	return "", false
}

// inferOptionText is can_infer_text. Lengths are in code points, as Python's len.
func inferOptionText(answer string, letters, options []string) string {
	answer = strings.ToLower(answer)
	total := 0
	for _, o := range options {
		total += utf8.RuneCountInString(o)
	}
	if utf8.RuneCountInString(answer) > 2*total {
		return ""
	}
	found := ""
	for i, o := range options {
		if strings.Contains(answer, strings.ToLower(o)) {
			if found != "" {
				return ""
			}
			found = letters[i]
		}
	}
	return found
}

// pyIsSpace is Python's str.isspace for one character (str.split's separators).
func pyIsSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r == ' ', r >= 0x1c && r <= 0x1f, r == 0x85:
		return true
	}
	return r > 0x7f && unicode.In(r, unicode.Z)
}

// YesNo reads yes or no from a response as VLMEvalKit's YOrN_Extraction does: the
// response is lower-cased, its punctuation processed (process_punctuation) and
// split on white space; "yes" without "no" among the words is "yes", "no" without
// "yes" is "no", anything else "" (VLMEvalKit's "Unknown", scored wrong when no
// judge model is used).
func YesNo(response string) string {
	words := strings.FieldsFunc(processPunctuation(strings.ToLower(response)), pyIsSpace)
	yes, no := false, false
	for _, w := range words {
		yes = yes || w == "yes"
		no = no || w == "no"
	}
	switch {
	case yes && !no:
		return "yes"
	case no && !yes:
		return "no"
	}
	return ""
}

// vqaPunct is process_punctuation's list of marks.
const vqaPunct = ";/[]\"{}()=+\\_->@<`,?!"

// processPunctuation is VLMEvalKit's process_punctuation (the VQA evaluation's
// processPunctuation): each listed mark is deleted when it stands next to a
// space somewhere in the text or the text has a digit,digit comma, and replaced
// by a space otherwise; then periods not next to a digit are deleted — at most
// 32 of them, because the original passes re.UNICODE (32) as re.sub's count.
// The original replaces mark by mark; the marks are single characters that no
// replacement creates, so one pass does the same.
func processPunctuation(in string) string {
	digitComma := false
	var del [128]bool // marks to delete rather than replace by a space
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c >= 0x80 || strings.IndexByte(vqaPunct, c) < 0 {
			continue
		}
		if c == ',' && i > 0 && i+1 < len(in) && digitBeside(in, i, -1) && digitBeside(in, i, +1) {
			digitComma = true
		}
		if (i+1 < len(in) && in[i+1] == ' ') || (i > 0 && in[i-1] == ' ') {
			del[c] = true
		}
	}
	b := make([]byte, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c < 0x80 && strings.IndexByte(vqaPunct, c) >= 0 {
			if !digitComma && !del[c] {
				b = append(b, ' ')
			}
			continue
		}
		b = append(b, c)
	}
	out := string(b)
	if strings.IndexByte(out, '.') < 0 {
		return out
	}
	// (?<!\d)\.(?!\d), count=32, on out as it stands (re.sub scans the original).
	b = b[:0]
	removed := 0
	for i := 0; i < len(out); i++ {
		if out[i] == '.' && removed < 32 && (i == 0 || !digitBeside(out, i, -1)) && (i+1 == len(out) || !digitBeside(out, i, +1)) {
			removed++
			continue
		}
		b = append(b, out[i])
	}
	return string(b)
}

// digitBeside reports whether the rune before (dir -1) or after (dir
// +1) byte i of s is a digit in Python's \d sense (Unicode decimal digits).
func digitBeside(s string, i, dir int) bool {
	var r rune
	if dir < 0 {
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i+1:])
	}
	return unicode.IsDigit(r)
}

// scoreMCQ scores an mcq response with InferOption.
func scoreMCQ(g Gold, r *Result, response string) {
	switch l := InferOption(response, g.Sample.Options); l {
	case "":
		r.ParseError = "no option inferred (VLMEvalKit can_infer found no single option letter or text)"
	case Refused:
		r.ParseError = "the response declines to answer (VLMEvalKit \"Z\")"
	default:
		r.Answer = l
		r.Correct = l == annotate.AnswerLetter(g.Sample.AnswerIndex)
	}
}

// LRRYesNo reads yes or no from a response as LRR-Bench §III-D (Kong et al.,
// ../shared/seeds/lrr-bench.txt:195) describes it for its "answer Yes or No"
// prompting: the response is "no" when it contains the word No, "yes" otherwise —
// every response, the empty one too, reads as an answer. The paper says only that
// it detects the word "No"; Benchwright reads that as: any case, as a whole word,
// a word being a maximal run of letters and digits, so "No.", "no", "NO" and
// "No, it is not" are "no", while "not", "Nope", "Know", "none" and "Norway" are
// "yes", and "no-go" is "no" (the hyphen ends the word, as a regular expression's
// \bno\b would read it).
func LRRYesNo(response string) string {
	for w := range strings.FieldsFuncSeq(response, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.EqualFold(w, "no") {
			return "no"
		}
	}
	return "yes"
}

// scoreJudgment scores a judgment response with YesNo, or with LRRYesNo under
// rule YesNoLRR.
func scoreJudgment(g Gold, r *Result, response string, rule YesNoRule) {
	var a string
	if rule == YesNoLRR {
		a = LRRYesNo(response)
	} else {
		a = YesNo(response)
	}
	if a == "" {
		r.ParseError = "neither or both of the words yes and no (VLMEvalKit \"Unknown\")"
		return
	}
	r.Answer = a
	r.Correct = a == strings.ToLower(strings.TrimSpace(g.Sample.AnswerText))
}
