package bench

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSignInDelay(t *testing.T) {
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{0, 0}, {1, 0}, {2, 0}, {3, time.Second}, {4, 2 * time.Second}, {5, 4 * time.Second}, {6, 8 * time.Second},
		{11, 256 * time.Second}, {12, 5 * time.Minute}, {13, 5 * time.Minute}, {1000, 5 * time.Minute},
	}
	for _, tt := range tests {
		if got := SignInDelay(tt.failures); got != tt.want {
			t.Errorf("SignInDelay(%d) = %v, want %v", tt.failures, got, tt.want)
		}
	}
}

func TestWaitWords(t *testing.T) {
	tests := []struct {
		wait time.Duration
		want string
	}{
		{time.Millisecond, "1 second"}, {time.Second, "1 second"}, {1001 * time.Millisecond, "2 seconds"},
		{8 * time.Second, "8 seconds"}, {90 * time.Second, "90 seconds"}, {91 * time.Second, "2 minutes"}, {5 * time.Minute, "5 minutes"},
	}
	for _, tt := range tests {
		if got := WaitWords(tt.wait); got != tt.want {
			t.Errorf("WaitWords(%v) = %q, want %q", tt.wait, got, tt.want)
		}
	}
}

func TestCheckUserName(t *testing.T) {
	tests := []struct {
		name string
		why  string // in the refusal; "" when the name is fine
	}{
		{"ann1", ""},
		{"a.b_c-d@lab", ""},
		{"Zoë", ""},
		{strings.Repeat("x", 64), ""},
		{"", "empty"},
		{strings.Repeat("x", 65), "longer than 64"},
		{"ann 1", "only letters"},
		{"ann/1", "only letters"},
	}
	for _, tt := range tests {
		err := CheckUserName(tt.name)
		switch {
		case tt.why == "" && err != nil:
			t.Errorf("CheckUserName(%q) = %v, want nil", tt.name, err)
		case tt.why != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.why)):
			t.Errorf("CheckUserName(%q) = %v, want ErrInvalid saying %q", tt.name, err, tt.why)
		}
	}
}

func TestRoleWithArticle(t *testing.T) {
	for role, want := range map[string]string{RoleAnnotator: "an annotator", RoleVerifier: "a verifier", RoleLead: "a lead"} {
		if got := RoleWithArticle(role); got != want {
			t.Errorf("RoleWithArticle(%q) = %q, want %q", role, got, want)
		}
	}
}
