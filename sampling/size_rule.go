package sampling

import "fmt"

// SizeRule is how many items a draw takes from each stratum: PerStratum items,
// or when PerStratum is 0, enough for a margin of error Margin at Level for an
// expected error rate Expected (ForMargin).
type SizeRule struct {
	PerStratum int
	Margin     float64
	Level      float64
	Expected   float64
}

// Check refuses a rule that gives neither a size per stratum nor a margin of
// error between 0 and 1. Its error is the sentence saying why.
func (r SizeRule) Check() error {
	if r.PerStratum <= 0 && !(r.Margin > 0 && r.Margin < 1) {
		return fmt.Errorf("give a size per stratum or a margin of error between 0 and 1")
	}
	return nil
}

// Size is the rule as Draw takes it.
func (r SizeRule) Size() func(stratum string, available int) int {
	if r.PerStratum > 0 {
		return PerStratum(r.PerStratum)
	}
	return ForMargin(r.Margin, r.Level, r.Expected)
}

// String says the rule in words, as a draw's audit records it: "20 per
// stratum", "margin ±0.05 at 0.95 (expected rate 0.1)".
func (r SizeRule) String() string {
	if r.PerStratum > 0 {
		return fmt.Sprintf("%d per stratum", r.PerStratum)
	}
	return fmt.Sprintf("margin ±%g at %g (expected rate %g)", r.Margin, r.Level, r.Expected)
}
