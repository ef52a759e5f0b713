package annotate

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Category tags mark, in a hop question, the phrase that carries each of its
// categories, as the MultihopSpatial release writes them in question_tag: "Which
// <ATT>round object</ATT> <POS>on the table</POS> is <REL>farthest</REL> from the
// pamphlet?" (multihopspatial.txt appendix 0.D; the scorers strip the tags before
// prompting). A sample keeps its tagged question in QuestionTag; with the tags
// removed it must read exactly as Question.

// TagSpan is one tagged phrase: its category and its byte range [Start, End) in the
// plain question.
type TagSpan struct {
	Category Category
	Start    int
	End      int
}

// tagMarkup matches one opening or closing category tag.
var tagMarkup = regexp.MustCompile(`<(/?)(ATT|POS|REL|att|pos|rel)>`)

// TagName is a category's tag name: "ATT" for att.
func TagName(c Category) string { return strings.ToUpper(string(c)) }

// ParseTagged splits a tagged question into the plain question and its spans, in
// the order their opening tags appear. Tags may nest ("<POS>on the <ATT>red</ATT>
// table</POS>") but not cross; a tag that is never closed, closed without being
// opened, or that crosses another is an error naming it.
func ParseTagged(tagged string) (plain string, spans []TagSpan, err error) {
	type open struct {
		cat   Category
		start int // in plain
		span  int // index in spans
	}
	var stack []open
	var b strings.Builder
	last := 0
	for _, m := range tagMarkup.FindAllStringSubmatchIndex(tagged, -1) {
		b.WriteString(tagged[last:m[0]])
		last = m[1]
		cat := Category(strings.ToLower(tagged[m[4]:m[5]]))
		if m[3] == m[2] { // opening
			stack = append(stack, open{cat, b.Len(), len(spans)})
			spans = append(spans, TagSpan{Category: cat, Start: b.Len()})
			continue
		}
		switch {
		case len(stack) == 0:
			return "", nil, fmt.Errorf("</%s> closes a tag that was not opened", TagName(cat))
		case stack[len(stack)-1].cat != cat:
			top := stack[len(stack)-1]
			if slices.ContainsFunc(stack, func(o open) bool { return o.cat == cat }) {
				return "", nil, fmt.Errorf("<%s> and <%s> cross each other: close the inner tag first", TagName(top.cat), TagName(cat))
			}
			return "", nil, fmt.Errorf("</%s> closes a tag that was not opened", TagName(cat))
		}
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		spans[top.span].End = b.Len()
	}
	if len(stack) > 0 {
		return "", nil, fmt.Errorf("<%s> is never closed", TagName(stack[len(stack)-1].cat))
	}
	b.WriteString(tagged[last:])
	return b.String(), spans, nil
}

// StripTags removes the category tags of a question, balanced or not.
func StripTags(tagged string) string { return tagMarkup.ReplaceAllString(tagged, "") }

// FormatTagged writes plain with each span's tags around its range. Spans must lie
// inside plain and nest or be disjoint, as ParseTagged returns them.
func FormatTagged(plain string, spans []TagSpan) string {
	type mark struct {
		at    int
		open  bool
		order int // opening: outer first; closing: inner first
		cat   Category
	}
	var marks []mark
	for i, s := range spans {
		marks = append(marks, mark{s.Start, true, -(s.End-s.Start)*1000 + i, s.Category}, mark{s.End, false, (s.End-s.Start)*1000 - i, s.Category})
	}
	slices.SortStableFunc(marks, func(a, b mark) int {
		return cmp.Or(cmp.Compare(a.at, b.at), boolRank(a.open)-boolRank(b.open), cmp.Compare(a.order, b.order))
	})
	var b strings.Builder
	last := 0
	for _, m := range marks {
		b.WriteString(plain[last:m.at])
		last = m.at
		if m.open {
			b.WriteString("<" + TagName(m.cat) + ">")
		} else {
			b.WriteString("</" + TagName(m.cat) + ">")
		}
	}
	b.WriteString(plain[last:])
	return b.String()
}

// boolRank puts closing tags before opening ones at the same place.
func boolRank(open bool) int {
	if open {
		return 1
	}
	return 0
}

// AddTag tags plain[start:end] of a tagged question with cat and returns the new
// tagged question. The range snaps to whole words: spaces and punctuation at its
// ends are left outside the tag, and a word it starts or ends inside is taken in
// whole ("und obj" of "round object" tags "round object"). It refuses a range
// with no word and one that crosses an existing tag.
func AddTag(tagged string, cat Category, start, end int) (string, error) {
	plain, spans, err := ParseTagged(tagged)
	if err != nil {
		return "", err
	}
	if start < 0 || end > len(plain) || start > end {
		return "", fmt.Errorf("the range %d–%d is not in the question", start, end)
	}
	for start < end && !isWordByte(plain[start]) && isEdgeByte(plain[start]) {
		start++
	}
	for end > start && !isWordByte(plain[end-1]) && isEdgeByte(plain[end-1]) {
		end--
	}
	for start > 0 && start < end && isWordByte(plain[start-1]) && isWordByte(plain[start]) {
		start--
	}
	for end < len(plain) && end > start && isWordByte(plain[end-1]) && isWordByte(plain[end]) {
		end++
	}
	if start == end {
		return "", fmt.Errorf("select the phrase that carries the %s category first", TagName(cat))
	}
	for _, s := range spans {
		inside := s.Start <= start && end <= s.End
		around := start <= s.Start && s.End <= end
		apart := end <= s.Start || s.End <= start
		if !inside && !around && !apart {
			return "", fmt.Errorf("the phrase crosses the <%s> tag on %q; tag a phrase inside it or around it", TagName(s.Category), plain[s.Start:s.End])
		}
		if s.Start == start && s.End == end && s.Category == cat {
			return tagged, nil
		}
	}
	return FormatTagged(plain, append(spans, TagSpan{cat, start, end})), nil
}

// isEdgeByte reports whether c is left outside a tag at the ends of a selection:
// white space and ASCII punctuation ("table?" tags "table").
func isEdgeByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c < 0x80 && strings.IndexByte(`.,;:!?"'()[]{}`, c) >= 0
}

// TagPhrase tags plain[start:end] of s's question with cat, as AddTag does, and
// ticks cat among s's categories when it is not there yet — tagging the phrase of a
// category says the question uses it — with the hop count following (the number of
// distinct categories, in att, pos, rel order).
func TagPhrase(s Sample, cat Category, start, end int) (Sample, error) {
	tagged := s.QuestionTag
	if tagged == "" {
		tagged = s.Question
	}
	next, err := AddTag(tagged, cat, start, end)
	if err != nil {
		return s, err
	}
	s.QuestionTag = next
	if !slices.Contains(s.Categories, cat) {
		cats := append(slices.Clone(s.Categories), cat)
		slices.SortStableFunc(cats, func(a, b Category) int { return cmp.Compare(categoryOrder(a), categoryOrder(b)) })
		s.Categories = cats
		s.Hop = len(distinct(cats))
	}
	return s, nil
}

// categoryOrder puts att, pos and rel first, in that order.
func categoryOrder(c Category) int {
	if i := slices.Index([]Category{CatAtt, CatPos, CatRel}, c); i >= 0 {
		return i
	}
	return 3
}

// RemoveTags removes the tags whose phrase contains the byte offset at of the
// plain question and returns the new tagged question, "" when no tag is left (a
// question without tags has no QuestionTag).
func RemoveTags(tagged string, at int) string {
	plain, spans, err := ParseTagged(tagged)
	if err != nil {
		return tagged
	}
	kept := slices.DeleteFunc(spans, func(s TagSpan) bool { return s.Start <= at && at <= s.End })
	if len(kept) == 0 {
		return ""
	}
	return FormatTagged(plain, kept)
}

// Retag carries the tags of a tagged question over to an edited plain question:
// the text before and after the edit keep their tags, a tag around the edit grows
// or shrinks with it, and a tag whose phrase was deleted is dropped. It returns ""
// when there are no tags left or oldTagged cannot be parsed.
func Retag(oldTagged, newPlain string) string {
	old, spans, err := ParseTagged(oldTagged)
	if err != nil || len(spans) == 0 {
		return ""
	}
	// The edit replaced old[pre:len(old)-suf] with newPlain[pre:len(newPlain)-suf].
	pre := 0
	for pre < len(old) && pre < len(newPlain) && old[pre] == newPlain[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(newPlain)-pre && old[len(old)-1-suf] == newPlain[len(newPlain)-1-suf] {
		suf++
	}
	oldEnd, delta := len(old)-suf, len(newPlain)-len(old)
	insertion := oldEnd == pre // nothing was removed: text went in at pre
	inserted := newPlain[pre : pre+max(delta, 0)]
	// Text typed against a tagged word continues it ("red" → "reddish"): the tag
	// takes it in; text after a space stays outside.
	joinsBefore := insertion && inserted != "" && pre > 0 && isWordByte(old[pre-1]) && isWordByte(inserted[0])
	joinsAfter := insertion && inserted != "" && pre < len(old) && isWordByte(old[pre]) && isWordByte(inserted[len(inserted)-1])
	moveStart := func(p int) int {
		switch {
		case insertion && (p < pre || p == pre && joinsAfter), !insertion && p <= pre:
			return p
		case p >= oldEnd:
			return p + delta
		}
		return oldEnd + delta // began in removed text: after the new text
	}
	moveEnd := func(p int) int {
		switch {
		case p < pre || p == pre && !joinsBefore:
			return p
		case p >= oldEnd:
			return p + delta
		}
		return pre // ended in removed text: before the new text
	}
	var kept []TagSpan
	for _, sp := range spans {
		n := TagSpan{sp.Category, moveStart(sp.Start), moveEnd(sp.End)}
		if n.End > n.Start && strings.TrimSpace(newPlain[n.Start:n.End]) != "" {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return FormatTagged(newPlain, kept)
}

// tagFindings checks a hop question's tags: QuestionTag parses and reads as
// Question once stripped, every category of the set is tagged at least once and no
// other category is tagged. A hop question with categories and no tags gets one
// warning.
func tagFindings(s Sample) []Finding {
	if s.Kind != KindHopQA {
		if s.QuestionTag != "" {
			return []Finding{warnf(RuleCategoryTags, "question_tag", "only hop questions carry category tags", "remove the <ATT>, <POS> and <REL> tags")}
		}
		return nil
	}
	if s.QuestionTag == "" {
		if len(s.Categories) == 0 {
			return nil
		}
		return []Finding{warnf(RuleCategoryTags, "question_tag", "the categories are not tagged in the question",
			"select the phrase of each category and tag it ATT, POS or REL")}
	}
	plain, spans, err := ParseTagged(s.QuestionTag)
	if err != nil {
		return []Finding{errorf(RuleCategoryTags, "question_tag", "the tags are broken: "+err.Error(), "untag the phrases and tag them again")}
	}
	var fs []Finding
	if plain != s.Question {
		fs = append(fs, errorf(RuleCategoryTags, "question_tag", "the tagged question no longer reads as the question",
			"tag the phrases again in the question as it is now"))
	}
	var tagged []Category
	for _, sp := range spans {
		if !slices.Contains(tagged, sp.Category) {
			tagged = append(tagged, sp.Category)
		}
		if !slices.Contains(s.Categories, sp.Category) {
			fs = append(fs, errorf(RuleCategoryTags, "question_tag",
				fmt.Sprintf("<%s> tags %q, but %s is not in the category set", TagName(sp.Category), safeSlice(plain, sp.Start, sp.End), sp.Category),
				fmt.Sprintf("untag it, or tick %s", sp.Category)))
		}
	}
	for _, c := range distinct(s.Categories) {
		if !slices.Contains(tagged, c) {
			fs = append(fs, errorf(RuleCategoryTags, "question_tag", fmt.Sprintf("no phrase is tagged %s", TagName(c)),
				fmt.Sprintf("select the phrase that carries %s in the question and press %s", c, TagName(c))))
		}
	}
	// No finding on the hop: tags that mark other categories than the set are
	// said above, and a hop that is not the number of categories is hop-mismatch.
	return fs
}

func safeSlice(s string, i, j int) string {
	if i < 0 || j > len(s) || i > j {
		return ""
	}
	return s[i:j]
}

// isWordByte reports whether c is part of a word: a letter, a digit or a byte of a
// multi-byte character.
func isWordByte(c byte) bool {
	return c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// CarryTags brings a sample's QuestionTag up to date with its Question after the
// question was edited without it (by a verifier's correction, a script, an
// import): the tags move with the text as Retag moves them. A sample whose tags
// already match, or that has none, is returned unchanged. Malformed tags are left
// for lint to report.
func CarryTags(s Sample) Sample {
	if s.QuestionTag == "" {
		return s
	}
	plain, _, err := ParseTagged(s.QuestionTag)
	if err != nil || plain == s.Question {
		return s
	}
	s.QuestionTag = Retag(s.QuestionTag, s.Question)
	return s
}
