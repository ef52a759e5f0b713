package sampling

import (
	"errors"
	"strings"
	"testing"
)

func TestPolicyOf(t *testing.T) {
	fixed := DrawPolicy{Stratify: ByKind, Seed: 7, Method: Score, Level: 0.9, Threshold: 0.05}
	cases := []struct {
		name         string
		fixed, asked DrawPolicy
		want         DrawPolicy
		refused      string // a word of the refusal, "" when accepted
	}{
		{"defaults", DrawPolicy{}, DrawPolicy{Seed: 3, Threshold: 0.1}, DrawPolicy{ByTask, 3, Exact, Level95, 0.1}, ""},
		{"asked wins over defaults", DrawPolicy{}, fixed, fixed, ""},
		{"no threshold", DrawPolicy{}, DrawPolicy{Seed: 1}, DrawPolicy{}, "threshold"},
		{"threshold of 1", DrawPolicy{}, DrawPolicy{Threshold: 1}, DrawPolicy{}, "threshold"},
		{"unknown stratification", DrawPolicy{}, DrawPolicy{Stratify: "colour", Threshold: 0.1}, DrawPolicy{}, "colour"},
		{"unknown interval", DrawPolicy{}, DrawPolicy{Method: "wald", Threshold: 0.1}, DrawPolicy{}, "wald"},
		{"level above 1", DrawPolicy{}, DrawPolicy{Level: 95, Threshold: 0.1}, DrawPolicy{}, "confidence level"},
		{"fixed, nothing asked", fixed, DrawPolicy{}, fixed, ""},
		{"fixed, the same asked", fixed, fixed, fixed, ""},
		{"fixed, another seed", fixed, DrawPolicy{Seed: 8}, DrawPolicy{}, "fixed its seed"},
		{"fixed, another stratification", fixed, DrawPolicy{Stratify: ByTask}, DrawPolicy{}, "fixed its stratification"},
		{"fixed, another interval", fixed, DrawPolicy{Method: Exact}, DrawPolicy{}, "fixed its interval"},
		{"fixed, another level", fixed, DrawPolicy{Level: 0.95}, DrawPolicy{}, "fixed its confidence level"},
		{"fixed, another threshold", fixed, DrawPolicy{Threshold: 0.2}, DrawPolicy{}, "fixed its threshold"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := PolicyOf("b1", c.fixed, c.asked)
			if c.refused != "" {
				var pe *PolicyError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.refused) {
					t.Fatalf("PolicyOf = %+v, %v; want a refusal naming %q", got, err, c.refused)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("PolicyOf = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}
