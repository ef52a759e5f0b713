package verify

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalizeGroup(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"A", "A", false},
		{"  A ", "A", false},
		{"kitchen   team", "kitchen team", false},
		{"", "", false},
		{"   ", "", false},
		{"a,b", "", true},
		{"x=y", "", true},
		{"tab\x07bell", "", true},
		{strings.Repeat("g", 41), "", true},
	}
	for _, tt := range tests {
		got, err := NormalizeGroup(tt.in)
		if got != tt.want || (err != nil) != tt.err || (err != nil && !errors.Is(err, ErrInvalidPolicy)) {
			t.Errorf("NormalizeGroup(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestSameGroup(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{{"A", "A", true}, {"A", "a", true}, {" A", "A ", true}, {"kitchen  team", "Kitchen Team", true},
		{"A", "B", false}, {"", "", false}, {"A", "", false}} {
		if got := SameGroup(tt.a, tt.b); got != tt.want {
			t.Errorf("SameGroup(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	// The round-2 rule uses it: "a" is group "A", which reviewed round 1.
	c := ctx(StateRound2, 2, User{ID: "x", Role: RoleVerifier, Group: " red "}, r1)
	if err := CanReview(DefaultPolicy(), c); !errors.Is(err, ErrSameGroup) {
		t.Errorf("round 2 by %q after round 1 by %q: %v, want ErrSameGroup", " red ", r1.Group, err)
	}
	c.Reviewer.Group = "RED"
	if err := CanReview(DefaultPolicy(), c); !errors.Is(err, ErrSameGroup) {
		t.Errorf("round 2 by RED after red: %v, want ErrSameGroup", err)
	}
}
