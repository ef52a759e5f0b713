package verify

import (
	"errors"
	"testing"
)

func TestPermitMember(t *testing.T) {
	ann := User{ID: "1", Name: "ann1", Role: RoleAnnotator}
	lead := User{ID: "3", Name: "lead", Role: RoleLead}
	tests := []struct {
		name   string
		action Action
		u      User
		member bool
		want   error // nil: allowed
		says   string
	}{
		{"a member reads", ActionReadProject, ann, true, nil, ""},
		{"a stranger reads", ActionReadProject, ann, false, ErrNotMember,
			"ann1 is not a member of project office; one of its leads can add them"},
		{"a lead outside the project", ActionFreeze, lead, false, ErrNotMember, ""},
		{"a lead member freezes", ActionFreeze, lead, true, nil, ""},
		{"an annotator member freezes", ActionFreeze, ann, true, ErrNotPermitted, ""},
		// A stranger has no role in the project: refused as a stranger, whatever
		// their role elsewhere, so that the refusal tells nothing of the project.
		{"an annotator stranger freezes", ActionFreeze, ann, false, ErrNotMember,
			"ann1 is not a member of project office; one of its leads can add them"},
		{"a lead member manages members", ActionManageMembers, lead, true, nil, ""},
		{"an annotator member manages members", ActionManageMembers, ann, true, ErrNotPermitted, ""},
	}
	for _, tt := range tests {
		err := PermitMember(tt.action, tt.u, "project office", tt.member)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
		if tt.says != "" && (err == nil || err.Error() != tt.says) {
			t.Errorf("%s: says %v, want %q", tt.name, err, tt.says)
		}
	}
}

func TestPermitAccount(t *testing.T) {
	ann := User{ID: "1", Name: "ann1", Role: RoleAnnotator}
	lead := User{ID: "3", Name: "lead", Role: RoleLead}
	tests := []struct {
		name   string
		u      User
		notLed int
		want   error
		says   string
	}{
		{"a lead of every project of the account", lead, 0, nil, ""},
		{"a lead of some of them", lead, 1, ErrNotLeadOfAll,
			"bob belongs to 1 project that lead does not lead; only a lead of every project of an account may change the account (a lead of one project may change its role there)"},
		{"a lead of none of two", lead, 2, ErrNotLeadOfAll, ""},
		{"no lead anywhere", ann, 0, ErrNotPermitted, ""},
	}
	for _, tt := range tests {
		err := PermitAccount(ActionManageUsers, tt.u, "bob", tt.notLed)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
		if tt.says != "" && (err == nil || err.Error() != tt.says) {
			t.Errorf("%s: says %v\nwant %q", tt.name, err, tt.says)
		}
	}
}

func TestCheckLeave(t *testing.T) {
	ver := User{Name: "ver1", Role: RoleVerifier}
	lead := User{Name: "lead", Role: RoleLead}
	tests := []struct {
		name       string
		u          User
		otherLeads int
		want       error
	}{
		{"a verifier, no lead left", ver, 0, nil},
		{"a lead with another lead", lead, 1, nil},
		{"the only lead", lead, 0, ErrLastLead},
	}
	for _, tt := range tests {
		err := CheckLeave(tt.u, "project office", tt.otherLeads)
		if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
	if got, want := CheckLeave(lead, "project office", 0).Error(), "lead is the only lead of project office; make another member of it a lead first"; got != want {
		t.Errorf("message %q\nwant %q", got, want)
	}
}
