package sampling

import (
	"cmp"
	"fmt"
)

// A PolicyError is a refused draw policy; its text is the sentence saying why.
type PolicyError struct{ Reason string }

func (e *PolicyError) Error() string { return e.Reason }

func policyErr(format string, args ...any) error {
	return &PolicyError{Reason: fmt.Sprintf(format, args...)}
}

// DrawPolicy is how a validation batch is drawn and judged: its stratification
// and seed, the interval method and level, and the error-rate threshold its
// upper bound must be below for the unsampled rest to be accepted. The first
// draw of a batch fixes it.
type DrawPolicy struct {
	Stratify  Stratify
	Seed      int64
	Method    Method
	Level     float64
	Threshold float64
}

// PolicyOf is the policy a draw of batch runs under. When an earlier draw fixed
// one (fixed.Stratify is set) it is that one, and asked may leave any field zero
// but not change it; else it is asked, with the defaults (stratified by task,
// Clopper–Pearson at 95 %) for what asked leaves zero, and it must be valid —
// the threshold has no default.
func PolicyOf(batch string, fixed, asked DrawPolicy) (DrawPolicy, error) {
	if fixed.Stratify != "" {
		for _, c := range []struct {
			what      string
			set, same bool
		}{
			{"stratification", asked.Stratify != "", asked.Stratify == fixed.Stratify},
			{"seed", asked.Seed != 0, asked.Seed == fixed.Seed},
			{"interval", asked.Method != "", asked.Method == fixed.Method},
			{"confidence level", asked.Level != 0, asked.Level == fixed.Level},
			{"threshold", asked.Threshold != 0, asked.Threshold == fixed.Threshold},
		} {
			if c.set && !c.same {
				return fixed, policyErr("the first draw of batch %s fixed its %s (by %s, seed %d, %s at %g, threshold %g); a later draw only enlarges the sample",
					batch, c.what, fixed.Stratify, fixed.Seed, fixed.Method, fixed.Level, fixed.Threshold)
			}
		}
		return fixed, nil
	}
	p := DrawPolicy{
		Stratify: cmp.Or(asked.Stratify, ByTask), Seed: asked.Seed,
		Method: cmp.Or(asked.Method, Exact), Level: cmp.Or(asked.Level, Level95), Threshold: asked.Threshold,
	}
	switch {
	case !p.Stratify.Valid():
		return p, policyErr("stratify by %q? (task, kind or hop_view)", p.Stratify)
	case !p.Method.Valid():
		return p, policyErr("interval %q? (%s or %s)", p.Method, Exact, Score)
	case !(p.Level > 0 && p.Level < 1):
		return p, policyErr("the confidence level %g is not between 0 and 1", p.Level)
	case !(p.Threshold > 0 && p.Threshold < 1):
		return p, policyErr("the first draw sets the error-rate threshold the upper bound must be below, between 0 and 1 (0.05 for 5 %%)")
	}
	return p, nil
}
