package annotate

import (
	"cmp"
	"slices"
	"strings"
)

// Finding is one guideline violation: which sample, which rule (spec §6), how bad,
// which field (a path such as "options[2]" or "steps[1].precondition"; "" for the
// whole record), what is wrong and, when there is an obvious one, how to fix it.
type Finding struct {
	Sample   string `json:"sample"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Field    string `json:"field"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

// Severities. Errors block submission; warnings do not.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Rule ids of spec §6, plus RuleStepUnreachable (see CheckGraph) and the rules of
// samples of several images: image-count (1 to MaxImages images, and the project's
// ImageLimits), image-duplicate (an image twice in one sample), image-labels (one
// unique, non-blank label per image), image-frames (video provenance one per image
// and well formed) and box-image (box_image names one of the images).
const (
	RuleSchema          = "schema"
	RuleHopMismatch     = "hop-mismatch"
	RuleCategorySet     = "category-set"
	RuleEgoPhrase       = "ego-phrase"
	RuleExoPhrase       = "exo-phrase"
	RuleOptionCount     = "option-count"
	RuleOptionEmpty     = "option-empty"
	RuleOptionDuplicate = "option-duplicate"
	RuleAnswerRange     = "answer-range"
	RuleBoxMissing      = "box-missing"
	RuleBoxInvalid      = "box-invalid"
	RuleColourInOptions = "colour-in-options"
	RuleStepsCount      = "steps-count"
	RuleStepUnknownRef  = "step-unknown-ref"
	RuleStepSelfRef     = "step-self-ref"
	RuleStepCycle       = "step-cycle"
	RuleStepTransitive  = "step-transitive"
	RuleStepFinal       = "step-final"
	RuleStepUnreachable = "step-unreachable"
	RuleJudgmentAnswer  = "judgment-answer"
	RuleSceneName       = "scene-name"
	RuleCategoryTags    = "category-tags"
	RuleSpacing         = "text-spacing"
	// Samples of several images (spec §1d; sequence.go).
	RuleImageCount     = "image-count"
	RuleImageDuplicate = "image-duplicate"
	RuleImageLabels    = "image-labels"
	RuleImageFrames    = "image-frames"
	RuleBoxImage       = "box-image"
)

// Rules lists every rule id in the order of the spec §6 table; findings sort by it.
var Rules = []string{
	RuleSchema, RuleImageCount, RuleImageDuplicate, RuleImageLabels, RuleImageFrames, RuleHopMismatch, RuleCategorySet, RuleCategoryTags, RuleEgoPhrase, RuleExoPhrase,
	RuleOptionCount, RuleOptionEmpty, RuleOptionDuplicate, RuleAnswerRange,
	RuleBoxMissing, RuleBoxImage, RuleBoxInvalid, RuleColourInOptions, RuleStepsCount,
	RuleStepUnknownRef, RuleStepSelfRef, RuleStepCycle, RuleStepTransitive,
	RuleStepFinal, RuleStepUnreachable, RuleJudgmentAnswer, RuleSceneName, RuleSpacing,
}

func errorf(rule, field, msg, hint string) Finding {
	return Finding{Rule: rule, Severity: SeverityError, Field: field, Message: msg, Hint: hint}
}

func warnf(rule, field, msg, hint string) Finding {
	return Finding{Rule: rule, Severity: SeverityWarning, Field: field, Message: msg, Hint: hint}
}

// HasErrors reports whether any finding is an error.
func HasErrors(fs []Finding) bool {
	return slices.ContainsFunc(fs, func(f Finding) bool { return f.Severity == SeverityError })
}

// MergeFindings joins lists of findings about the same sample(s), for example those
// of ParseRecord and of Lint. In the order given, a schema error on a field hides
// every later finding on that field or inside it (a hop of the wrong type is not
// also a hop mismatch; a record that is not an object hides everything else), and
// exact duplicates are dropped. The result is sorted: by sample, errors before
// warnings, rule in table order, then the order the checks produced them.
func MergeFindings(lists ...[]Finding) []Finding {
	var out []Finding
	seen := map[Finding]bool{}
	blocked := map[[2]string]bool{} // {sample, field}
	for _, fs := range lists {
		for _, f := range fs {
			if seen[f] || isBlocked(blocked, f) {
				continue
			}
			seen[f] = true
			out = append(out, f)
			if f.Rule == RuleSchema && f.Severity == SeverityError {
				blocked[[2]string{f.Sample, f.Field}] = true
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Sample, b.Sample),
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			cmp.Compare(ruleRank(a.Rule), ruleRank(b.Rule)),
			cmp.Compare(a.Rule, b.Rule),
		)
	})
	return out
}

// isBlocked reports whether a schema error was recorded on f's field or on a
// field that contains it ("steps" contains "steps[2].id"; "" contains everything).
func isBlocked(blocked map[[2]string]bool, f Finding) bool {
	field := f.Field
	for {
		if blocked[[2]string{f.Sample, field}] {
			return true
		}
		if field == "" {
			return false
		}
		i := strings.LastIndexAny(field, ".[")
		if i < 0 {
			i = 0
		}
		field = field[:i]
	}
}

func severityRank(s string) int {
	if s == SeverityError {
		return 0
	}
	return 1
}

func ruleRank(r string) int {
	if i := slices.Index(Rules, r); i >= 0 {
		return i
	}
	return len(Rules)
}
