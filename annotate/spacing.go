package annotate

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Spaces in a sample's text: a question, option, text answer or step that starts
// or ends with white space, holds two spaces in a row or a tab or line break,
// reads the same to a person but not to a scorer's exact match or a duplicate
// check, and a multi-line entry can hide such a space where its text wraps.
// RuleSpacing warns about them; TidyText removes them, and the store applies it
// whenever a sample is saved.

// spacedFields calls fn with each text field of s that spacing applies to, its
// path and a setter.
func spacedFields(s *Sample, fn func(path string, text string, set func(string))) {
	fn("question", s.Question, func(v string) { s.Question = v })
	for i := range s.Options {
		fn(fmt.Sprintf("options[%d]", i), s.Options[i], func(v string) { s.Options[i] = v })
	}
	if s.Kind.textAnswer() && !s.AnswerNumber {
		fn("answer", s.AnswerText, func(v string) { s.AnswerText = v })
	}
	for i := range s.Steps {
		fn(fmt.Sprintf("steps[%d].content", i), s.Steps[i].Content, func(v string) { s.Steps[i].Content = v })
	}
	for i := range s.ImageLabels { // shown to models beside each image, as the question is
		fn(fmt.Sprintf("image_labels[%d]", i), s.ImageLabels[i], func(v string) { s.ImageLabels[i] = v })
	}
}

// tidy trims white space at both ends and makes every run of white space inside
// one space.
func tidy(text string) string { return strings.Join(strings.Fields(text), " ") }

// spacingProblem says what is wrong with the spaces of text, or "".
func spacingProblem(text string) string {
	switch {
	case text == tidy(text), strings.TrimSpace(text) == "":
		return "" // a blank field is option-empty's or schema's to report
	case strings.TrimSpace(text) != text && strings.TrimLeft(text, " \t\r\n") != text:
		return "starts with white space"
	case strings.TrimSpace(text) != text:
		return "ends with white space"
	case strings.ContainsAny(text, "\t\r\n"):
		return "holds a tab or line break"
	}
	i := strings.Index(text, "  ")
	return fmt.Sprintf("has two spaces in a row after %q", lastWords(text[:i], 3))
}

// lastWords is the end of text, at most n words.
func lastWords(text string, n int) string {
	w := strings.Fields(text)
	return strings.Join(w[max(0, len(w)-n):], " ")
}

func spacingFindings(s Sample) []Finding {
	var fs []Finding
	spacedFields(&s, func(path, text string, _ func(string)) {
		if p := spacingProblem(text); p != "" {
			fs = append(fs, warnf(RuleSpacing, path, path+" "+p, "saving in Benchwright removes such spaces"))
		}
	})
	return fs
}

// TidyText returns s with the white space of its question, options, text answer,
// step contents and image labels tidied: none at either end, one space wherever there were
// several or a tab or line break. Category tags move with the question's text
// (CarryTags).
func TidyText(s Sample) Sample {
	s.Options = append([]string(nil), s.Options...)
	s.Steps = append([]Step(nil), s.Steps...)
	s.ImageLabels = slices.Clone(s.ImageLabels)
	spacedFields(&s, func(_ string, text string, set func(string)) { set(tidy(text)) })
	if tagged, ok := tidyTagged(s.QuestionTag); ok {
		s.QuestionTag = tagged
	}
	return CarryTags(s)
}

// tidyTagged tidies a tagged question's spaces as tidy does its plain text, each
// tag staying on its phrase (without spaces at the phrase's ends). ok is false
// when the tags cannot be parsed.
func tidyTagged(tagged string) (string, bool) {
	plain, spans, err := ParseTagged(tagged)
	if err != nil || tagged == "" {
		return tagged, false
	}
	var b strings.Builder
	pos := make([]int, len(plain)+1) // plain byte index → index in b
	pending := false
	for i, r := range plain {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' {
			pending = b.Len() > 0
			pos[i] = b.Len()
			continue
		}
		if pending {
			b.WriteByte(' ')
			pending = false
		}
		_, size := utf8.DecodeRuneInString(plain[i:]) // the width read, not RuneLen: bad bytes are 1 wide
		for j := range size {
			pos[i+j] = b.Len() + j
		}
		b.WriteString(plain[i : i+size])
	}
	pos[len(plain)] = b.Len()
	out := b.String()
	var kept []TagSpan
	for _, sp := range spans {
		n := TagSpan{sp.Category, pos[sp.Start], min(pos[sp.End], len(out))}
		for n.Start < n.End && out[n.Start] == ' ' {
			n.Start++
		}
		for n.End > n.Start && out[n.End-1] == ' ' {
			n.End--
		}
		if n.End > n.Start {
			kept = append(kept, n)
		}
	}
	return FormatTagged(out, kept), true
}
