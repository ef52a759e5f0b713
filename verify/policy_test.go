package verify

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDefaultPolicy(t *testing.T) {
	p := DefaultPolicy()
	want := Policy{Rounds: 3, Round3Panel: 3, CorrectionReentersRound1: true, ClaimTTL: 30 * time.Minute, Round2DifferentGroup: true}
	if p != want {
		t.Fatalf("DefaultPolicy() = %+v, want %+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestPolicyValidate(t *testing.T) {
	err := Policy{Rounds: 4, Round3Panel: 0, ClaimTTL: 30 * time.Second}.Validate()
	if !errors.Is(err, ErrInvalidPolicy) {
		t.Fatalf("Validate() = %v, want ErrInvalidPolicy", err)
	}
	for _, want := range []string{"rounds: a project runs 2 or 3 review rounds, got 4", "round3_panel: the round-3 panel needs at least 1 verifier, got 0",
		"claim_minutes: a claim must last at least a minute, got 30s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %q, want it to mention %q", err, want)
		}
	}
	if err := CanReview(Policy{}, ReviewContext{Reviewer: User{Role: RoleVerifier}}); !errors.Is(err, ErrInvalidPolicy) {
		t.Errorf("CanReview with the zero policy = %v, want ErrInvalidPolicy", err)
	}
}

func TestRoles(t *testing.T) {
	for r, want := range map[Role]bool{RoleAnnotator: false, RoleVerifier: true, RoleLead: true, "": false, "guest": false} {
		if r.CanVerify() != want {
			t.Errorf("%q.CanVerify() = %v, want %v", r, !want, want)
		}
	}
	if Role("guest").Valid() || !RoleLead.Valid() {
		t.Error("Role.Valid is wrong")
	}
}

func TestClaim(t *testing.T) {
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	c := NewClaim(DefaultPolicy(), "mh-0001", 3, "vera", now)
	if want := (Claim{"mh-0001", 3, "vera", now.Add(30 * time.Minute)}); c != want {
		t.Fatalf("NewClaim = %+v, want %+v", c, want)
	}
	for _, tt := range []struct {
		at   time.Duration
		want bool
	}{{0, true}, {29 * time.Minute, true}, {30 * time.Minute, false}, {time.Hour, false}} {
		if got := c.Active(now.Add(tt.at)); got != tt.want {
			t.Errorf("Active(+%v) = %v, want %v", tt.at, got, tt.want)
		}
	}
}
