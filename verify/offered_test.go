package verify

import "testing"

func TestOffered(t *testing.T) {
	for _, tc := range []struct {
		action Action
		role   Role
		want   bool
	}{
		// Not an annotator's work, though permitted.
		{ActionImportImages, RoleAnnotator, false},
		{ActionExport, RoleAnnotator, false},
		{ActionAugment, RoleAnnotator, false},
		{ActionAnswerHuman, RoleAnnotator, false},
		// An annotator's work.
		{ActionWriteSamples, RoleAnnotator, true},
		{ActionSeeDashboard, RoleAnnotator, true},
		// Never offered what is not permitted.
		{ActionReview, RoleAnnotator, false},
		{ActionImportImages, RoleVerifier, false},
		{ActionWriteSamples, RoleVerifier, false},
		// Others keep what they may do.
		{ActionExport, RoleVerifier, true},
		{ActionAnswerHuman, RoleVerifier, true},
		{ActionImportImages, RoleLead, true},
		{ActionAugment, RoleLead, true},
		{ActionExport, RoleLead, true},
	} {
		if got := Offered(tc.action, tc.role); got != tc.want {
			t.Errorf("Offered(%s, %s) = %v, want %v", tc.action, tc.role, got, tc.want)
		}
		// Offering never widens what the stores allow.
		if Offered(tc.action, tc.role) && !Permitted(tc.action, tc.role) {
			t.Errorf("%s is offered to %s without being permitted", tc.action, tc.role)
		}
	}
}
