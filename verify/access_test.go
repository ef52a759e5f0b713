package verify

import (
	"errors"
	"testing"
)

func TestPermit(t *testing.T) {
	ann := User{ID: "1", Name: "ann1", Role: RoleAnnotator}
	ver := User{ID: "2", Name: "ver1", Role: RoleVerifier}
	lead := User{ID: "3", Name: "lead", Role: RoleLead}
	nobody := User{ID: "4", Name: "ghost"}
	tests := []struct {
		action Action
		ok     []User
		no     []User
	}{
		{ActionChangeSettings, []User{lead}, []User{ann, ver, nobody}},
		{ActionManageUsers, []User{lead}, []User{ann, ver}},
		{ActionWriteSamples, []User{ann, lead}, []User{ver, nobody}},
		{ActionImportOnBehalf, []User{lead}, []User{ann, ver}},
		{ActionReview, []User{ver, lead}, []User{ann, nobody}},
		{ActionCorrect, []User{ver, lead}, []User{ann}},
		{ActionSeeAgreement, []User{ver, lead}, []User{ann}},
		{ActionSeeDashboard, []User{ann, ver, lead}, []User{nobody}},
		{ActionSeeTeamWork, []User{ver, lead}, []User{ann}},
		{ActionCountOpenVotes, []User{lead}, []User{ann, ver}},
		{ActionFreeze, []User{lead}, []User{ann, ver}},
		{ActionGenerate, []User{lead}, []User{ann, ver}},
		{ActionImportPredictions, []User{lead}, []User{ann, ver, nobody}},
		{ActionReadPredictions, []User{lead}, []User{ann, ver, nobody}},
		{ActionSeeScores, []User{ver, lead}, []User{ann, nobody}},
		{ActionValidateBatches, []User{lead}, []User{ann, ver, nobody}},
		{ActionSeeValidation, []User{ver, lead}, []User{ann, nobody}},
		{ActionReadProject, []User{ann, ver, lead}, []User{nobody}},
		{ActionManageMembers, []User{lead}, []User{ann, ver, nobody}},
	}
	for _, tt := range tests {
		for _, u := range tt.ok {
			if err := Permit(tt.action, u); err != nil {
				t.Errorf("Permit(%s, %s) = %v, want nil", tt.action, u.Role, err)
			}
			if !Permitted(tt.action, u.Role) {
				t.Errorf("Permitted(%s, %s) = false", tt.action, u.Role)
			}
		}
		for _, u := range tt.no {
			if err := Permit(tt.action, u); !errors.Is(err, ErrNotPermitted) {
				t.Errorf("Permit(%s, %q) = %v, want ErrNotPermitted", tt.action, u.Role, err)
			}
			if Permitted(tt.action, u.Role) {
				t.Errorf("Permitted(%s, %q) = true", tt.action, u.Role)
			}
		}
	}
	if err := Permit("no.such", lead); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown action: %v", err)
	}
	if got, want := Permit(ActionReview, ann).Error(), "ann1 is an annotator, and only verifiers or leads may review samples"; got != want {
		t.Errorf("message %q\nwant %q", got, want)
	}
	for _, p := range Permissions() {
		if p.What == "" || len(p.Roles) == 0 {
			t.Errorf("access row %s has no description or roles", p.Action)
		}
	}
}
