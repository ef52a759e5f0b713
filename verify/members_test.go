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
		{"the role first: an annotator member freezes", ActionFreeze, ann, true, ErrNotPermitted, ""},
		{"the role first: an annotator stranger freezes", ActionFreeze, ann, false, ErrNotPermitted, ""},
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
