package annotate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Numbers in open answers (spec §1c: "numeric answers with a tolerance"): a numeric
// answer and its tolerance are numbers as records write them, JSON numbers such as
// "2.5", "-3" or "1e3". A decimal comma ("1,5"), a bare point (".5"), a plus sign,
// "NaN" or "Inf" are not: a record would keep them as text and a scorer would
// compare them as words, so lint reports them (an error) and says how to write them.

// IsNumberText reports whether t, spaces around it ignored, is a number as records
// write it.
func IsNumberText(t string) bool { return isJSONNumber(strings.TrimSpace(t)) }

// ParseTolerance reads a tolerance written as text: "" (or spaces) is no tolerance
// (nil), anything else must be a number >= 0 as records write it.
func ParseTolerance(t string) (*float64, error) {
	t = strings.TrimSpace(t)
	if t == "" {
		return nil, nil
	}
	if !isJSONNumber(t) {
		return nil, fmt.Errorf("the tolerance %q is not a number", t)
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(v, 0) {
		return nil, fmt.Errorf("the tolerance %q is not a number", t)
	}
	if v < 0 {
		return nil, fmt.Errorf("the tolerance %s is negative", t)
	}
	return &v, nil
}

// numberFix is t rewritten as a number when it is one written another way — "1,5"
// → "1.5", ".5" → "0.5", "+2" → "2", "5." → "5" — or "" when it is not a number at
// all. Only digits, one sign, one decimal mark and an exponent are read: a comma
// is a decimal comma only when there is no point and it is the only comma.
func numberFix(t string) string {
	t = strings.TrimSpace(t)
	if i := strings.Index(t, ","); i >= 0 && strings.Count(t, ",") == 1 && !strings.Contains(t, ".") {
		if len(t)-i-1 == 3 {
			return "" // "1,500": a thousands separator or a decimal comma, who knows
		}
		t = strings.Replace(t, ",", ".", 1)
	}
	if t == "" || strings.Trim(t, "0123456789+-.eE") != "" || !strings.ContainsAny(t, "0123456789") {
		return ""
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// numberHint says how to write t as a number, ending with otherwise when t is not
// one at all ("write a number such as 2.5" + otherwise).
func numberHint(t, otherwise string) string {
	if fix := numberFix(t); fix != "" {
		return fmt.Sprintf("write it as %s (a point for decimals, no spaces or separators)", fix)
	}
	return "write a number such as 2.5" + otherwise
}

// numberFindings checks an open answer's numbers: a tolerance typed as text that is
// not a number, a negative one, and an answer that is not a number while it is
// marked numeric or has a tolerance.
func numberFindings(s Sample) []Finding {
	var fs []Finding
	switch t := s.Tolerance; {
	case s.ToleranceText != "" && t == nil:
		if v, err := strconv.ParseFloat(strings.TrimSpace(s.ToleranceText), 64); err == nil && v < 0 && IsNumberText(s.ToleranceText) {
			fs = append(fs, errorf(RuleSchema, "tolerance", fmt.Sprintf("the tolerance %s is negative", strings.TrimSpace(s.ToleranceText)), "give a tolerance of 0 or more, or clear it"))
		} else {
			fs = append(fs, errorf(RuleSchema, "tolerance", fmt.Sprintf("the tolerance %q is not a number", strings.TrimSpace(s.ToleranceText)),
				numberHint(s.ToleranceText, ", or clear the tolerance")))
		}
	case t != nil && (math.IsNaN(*t) || math.IsInf(*t, 0)):
		fs = append(fs, errorf(RuleSchema, "tolerance", fmt.Sprintf("the tolerance %g is not a number", *t), "write a number such as 0.5, or clear the tolerance"))
	case t != nil && *t < 0:
		fs = append(fs, errorf(RuleSchema, "tolerance", fmt.Sprintf("the tolerance %g is negative", *t), "give a tolerance of 0 or more, or clear it"))
	}
	numeric := s.AnswerNumber || s.Tolerance != nil || s.ToleranceText != ""
	if s.Kind == KindOpen && numeric && s.AnswerText != "" && !IsNumberText(s.AnswerText) {
		why, otherwise := "it is marked numeric", `, or untick "Numeric answer with a tolerance"`
		if !s.AnswerNumber {
			why, otherwise = "a tolerance is set", ", or clear the tolerance"
		}
		fs = append(fs, errorf(RuleSchema, "answer", fmt.Sprintf("the answer %q is not a number, but %s", s.AnswerText, why),
			numberHint(s.AnswerText, otherwise)))
	}
	return fs
}
