package annotate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// LintEnv is what Lint needs to know beyond the sample.
type LintEnv struct {
	// ImageSize returns the displayed size (EXIF orientation applied) of the image a
	// sample names. When it is nil or answers ok=false, box-invalid checks only that
	// the corners are ordered and non-negative.
	ImageSize func(path string) (w, h int, ok bool)
	// HandWritten says the sample was written by hand rather than derived or imported:
	// its step graph should have 2–8 steps (steps-count warning above 8), while any
	// step graph must have 2–10 (steps-count error outside).
	HandWritten bool
}

// Lint checks one sample against every rule of spec §6 that applies to its kind and
// returns the findings, merged and sorted as MergeFindings does. The schema rule
// covers what a Sample can show: missing required fields (id, kind, image, question;
// options, categories, hop and view for hop_qa; options for mcq; a text answer for
// judgment and open; steps for step_graph), an unknown kind, view, ego_subject or
// split, a negative tolerance or a tolerance on a non-numeric open answer, and a
// warning for every field kept in Extra. Wrong JSON types and a missing option
// index are only visible to ParseRecord; lint a record with
// MergeFindings(ParseRecord findings, Lint findings).
func Lint(s Sample, env LintEnv) []Finding {
	fs := append(schemaFindings(s), ruleFindings(s, env)...)
	for i := range fs {
		fs[i].Sample = s.ID
	}
	return MergeFindings(fs)
}

// IndexAnswer reports whether the kind's answer is an option index (else text or none).
func (k Kind) IndexAnswer() bool { return k == KindHopQA || k == KindMCQ }

// textAnswer reports whether the kind's answer is text.
func (k Kind) textAnswer() bool { return k == KindJudgment || k == KindOpen }

func missing(field, hint string) Finding {
	return errorf(RuleSchema, field, field+" is missing", hint)
}

func kindNames() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

func schemaFindings(s Sample) []Finding {
	var fs []Finding
	add := func(f Finding) { fs = append(fs, f) }
	if s.ID == "" {
		add(missing("id", "give the sample a unique id"))
	} else if err := CheckID(s.ID); err != nil {
		add(errorf(RuleSchema, "id", "id: "+err.Error(), ""))
	}
	switch {
	case s.Kind == "":
		add(missing("kind", "one of "+kindNames()))
	case !s.Kind.Valid():
		add(errorf(RuleSchema, "kind", fmt.Sprintf("unknown kind %q", s.Kind), "one of "+kindNames()))
	}
	if s.Image == "" {
		add(missing("image", "the image path"))
	}
	if strings.TrimSpace(s.Question) == "" {
		add(missing("question", ""))
	}
	switch s.Kind {
	case KindHopQA:
		if len(s.Options) == 0 {
			add(missing("options", "four options"))
		}
		if len(s.Categories) == 0 {
			add(missing("categories", "att, pos and/or rel"))
		}
		if s.Hop == 0 {
			add(errorf(RuleSchema, "hop", "hop is missing or 0", "set hop to the number of categories"))
		}
		if s.View == "" {
			add(missing("view", `"ego" or "exo"`))
		}
	case KindMCQ:
		if len(s.Options) == 0 {
			add(missing("options", "2 to 6 options"))
		}
	case KindStepGraph:
		if len(s.Steps) == 0 {
			add(missing("steps", "2 to 10 steps"))
		}
	case KindJudgment, KindOpen:
		if s.AnswerText == "" {
			add(missing("answer", ""))
		}
	}
	if s.View != "" && s.View != ViewEgo && s.View != ViewExo {
		add(errorf(RuleSchema, "view", fmt.Sprintf("unknown view %q", s.View), `"ego" or "exo"`))
	}
	if s.EgoSubject != "" && s.EgoSubject != EgoReal && s.EgoSubject != EgoVirtual {
		add(errorf(RuleSchema, "ego_subject", fmt.Sprintf("unknown ego_subject %q", s.EgoSubject), `"real" or "virtual"`))
	}
	if s.Split != "" && s.Split != "train" && s.Split != "test" {
		add(errorf(RuleSchema, "split", fmt.Sprintf("unknown split %q", s.Split), `"train" or "test"`))
	}
	if t := s.Tolerance; t != nil {
		if !(*t >= 0) || math.IsInf(*t, 0) {
			add(errorf(RuleSchema, "tolerance", fmt.Sprintf("tolerance %g is not a number >= 0", *t), ""))
		}
		if _, err := strconv.ParseFloat(strings.TrimSpace(s.AnswerText), 64); s.Kind == KindOpen && s.AnswerText != "" && err != nil {
			add(errorf(RuleSchema, "answer", fmt.Sprintf("answer %q is not a number but a tolerance is set", s.AnswerText), "give a numeric answer or drop the tolerance"))
		}
	}
	for _, k := range sortedKeys(s.Extra) {
		add(warnf(RuleSchema, k, fmt.Sprintf("unknown field %q (kept as is)", k), "remove it if it is a typo"))
	}
	return fs
}

func ruleFindings(s Sample, env LintEnv) []Finding {
	var fs []Finding
	switch s.Kind {
	case KindHopQA:
		fs = append(fs, hopFindings(s)...)
		fs = append(fs, optionFindings(s, 4, 4)...)
		if s.Box == nil {
			fs = append(fs, errorf(RuleBoxMissing, "box", "no box on the object the correct option names", "draw the box"))
		}
	case KindMCQ:
		fs = append(fs, optionFindings(s, 2, 6)...)
	case KindStepGraph:
		fs = append(fs, stepFindings(s, env)...)
	case KindJudgment:
		if a := s.AnswerText; a != "yes" && a != "no" {
			hint := `answer "yes" or "no"`
			if l := strings.ToLower(strings.TrimSpace(a)); l == "yes" || l == "no" {
				hint = fmt.Sprintf("write it as %q", l)
			}
			fs = append(fs, errorf(RuleJudgmentAnswer, "answer", fmt.Sprintf(`answer %q is not "yes" or "no"`, a), hint))
		}
	}
	if s.Box != nil {
		fs = append(fs, boxFindings(*s.Box, s.Image, env)...)
	}
	fs = append(fs, tagFindings(s)...)
	fs = append(fs, spacingFindings(s)...)
	return fs
}

func hopFindings(s Sample) []Finding {
	var fs []Finding
	cats := distinct(s.Categories)
	if s.Hop != 0 && len(cats) > 0 && s.Hop != len(cats) {
		fs = append(fs, errorf(RuleHopMismatch, "hop",
			fmt.Sprintf("hop is %d but there are %d distinct categories (%s)", s.Hop, len(cats), joinCats(cats)),
			fmt.Sprintf("set hop to %d, or change the categories", len(cats))))
	}
	if len(cats) > 0 && !AllowedCategorySet(cats) {
		var msg string
		for _, c := range cats {
			if _, ok := categoryBits[c]; !ok {
				msg = fmt.Sprintf("unknown category %q", c)
				break
			}
		}
		if msg == "" {
			msg = "att alone is not an allowed set: a 1-hop question uses pos or rel"
		}
		fs = append(fs, errorf(RuleCategorySet, "categories", msg,
			"use {pos} or {rel}; {att,pos}, {att,rel} or {pos,rel}; or {att,pos,rel}"))
	}

	subject, body, has := cutSubjectPhrase(s.Question)
	switch {
	case s.View == ViewEgo && !has:
		fs = append(fs, errorf(RuleEgoPhrase, "question", "an ego question must start with a subject phrase",
			`start with "`+SubjectPhrase(EgoReal, "<person>")+`" or "`+SubjectPhrase(EgoVirtual, "<where>")+`"`))
	case s.View == ViewEgo && s.EgoSubject != "" && subject != s.EgoSubject:
		fs = append(fs, errorf(RuleEgoPhrase, "ego_subject",
			fmt.Sprintf("ego_subject is %s but the question opens with the %s-person phrase", s.EgoSubject, subject),
			fmt.Sprintf("set ego_subject to %s, or reword the opening", subject)))
	case s.View == ViewExo && has:
		fs = append(fs, warnf(RuleExoPhrase, "question", "an exo question starts with a subject phrase",
			`set view to "ego", or drop the phrase`))
	}

	// The subject phrase describes the viewer ("the man in the blue shirt"), not the
	// att condition, so only the rest of the question is searched for colours.
	if slices.Contains(cats, CatAtt) {
		if qc := ColourWords(body); len(qc) > 0 {
			for i, o := range s.Options {
				if oc := ColourWords(o); len(oc) > 0 {
					fs = append(fs, warnf(RuleColourInOptions, fmt.Sprintf("options[%d]", i),
						fmt.Sprintf("%s names a colour (%s) while the att condition is a colour (%s)", OptionName(i), strings.Join(oc, ", "), strings.Join(qc, ", ")),
						"describe the object without its colour"))
				}
			}
		}
	}
	return fs
}

func joinCats(cats []Category) string {
	s := make([]string, len(cats))
	for i, c := range cats {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

func optionFindings(s Sample, lo, hi int) []Finding {
	var fs []Finding
	if n := len(s.Options); n > 0 && (n < lo || n > hi) {
		want := fmt.Sprintf("exactly %d", lo)
		if lo != hi {
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		fs = append(fs, errorf(RuleOptionCount, "options", fmt.Sprintf("%s needs %s options, has %d", s.Kind, want, n), ""))
	}
	seen := map[string]int{}
	for i, o := range s.Options {
		field := fmt.Sprintf("options[%d]", i)
		norm := normalizeOption(o)
		if strings.TrimSpace(o) == "" {
			fs = append(fs, errorf(RuleOptionEmpty, field, OptionName(i)+" is blank", "name one object"))
			continue
		}
		if j, dup := seen[norm]; dup {
			fs = append(fs, errorf(RuleOptionDuplicate, field,
				fmt.Sprintf("%s %q repeats %s %q", OptionName(i), o, OptionName(j), s.Options[j]),
				"make every option a different object"))
			continue
		}
		seen[norm] = i
	}
	if n := len(s.Options); n > 0 && s.AnswerIndex < 0 {
		fs = append(fs, errorf(RuleAnswerRange, "answer", "no option is marked as the answer", "mark the correct option"))
	} else if n > 0 && s.AnswerIndex >= n {
		fs = append(fs, errorf(RuleAnswerRange, "answer",
			fmt.Sprintf("the answer is option %d, but there are only %d options (%s to %s)", s.AnswerIndex+1, n, strings.TrimPrefix(OptionName(0), "option "), strings.TrimPrefix(OptionName(n-1), "option ")),
			"mark one of the options as the answer"))
	}
	return fs
}

func stepFindings(s Sample, env LintEnv) []Finding {
	var fs []Finding
	lim := unbounded
	switch n := len(s.Steps); {
	case n == 0: // schema reports it
	case n < 2 || n > 10:
		fs = append(fs, errorf(RuleStepsCount, "steps", fmt.Sprintf("a step graph has 2 to 10 steps, this one %d", n), ""))
		// A graph that fails the step count still gets every check that is cheap:
		// all of them while the reachability pass stays within its budget (28,000
		// sparse steps, or 2,000 each listing every earlier one: 0.1 to 0.25 s), the
		// linear ones beyond, and the steps-count finding then says which were left
		// out. It lists the first 100 findings of each rule and counts the others.
		lim = bounded
	case env.HandWritten && n > 8:
		fs = append(fs, warnf(RuleStepsCount, "steps", fmt.Sprintf("hand-written answers have 2 to 8 steps, this one %d", n), "split the task or merge steps"))
	}
	graph, skipped := checkGraph(s.Steps, lim)
	if len(skipped) > 0 {
		fs[0].Hint = fmt.Sprintf("split the task: %s not checked on a graph this large", strings.Join(skipped, " and "))
	}
	fs = append(fs, graph...)
	if s.Scene != "" && !ValidSceneName(s.Scene) {
		fs = append(fs, warnf(RuleSceneName, "scene", fmt.Sprintf("scene %q does not match NNNN-<scenetype>-<k>", s.Scene), `e.g. "0001-office-1"`))
	}
	return fs
}

func boxFindings(b Box, image string, env LintEnv) []Finding {
	var w, h int
	if env.ImageSize != nil && image != "" {
		if iw, ih, ok := env.ImageSize(image); ok {
			w, h = iw, ih
		}
	}
	err := b.Check(w, h)
	if err == nil {
		return nil
	}
	hint := "redraw the box"
	fixed := b.Normalize()
	if w > 0 && h > 0 {
		fixed = fixed.Clamp(w, h)
	}
	if fixed.Valid(w, h) {
		hint = "use " + formatBox(fixed)
	}
	msg := fmt.Sprintf("box %s: %s", formatBox(b), strings.ReplaceAll(err.Error(), "\n", "; "))
	return []Finding{errorf(RuleBoxInvalid, "box", msg, hint)}
}

func formatBox(b Box) string {
	return fmt.Sprintf("[%g, %g, %g, %g]", b[0], b[1], b[2], b[3])
}
