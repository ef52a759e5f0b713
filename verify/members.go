package verify

import "errors"

// Projects are a boundary: every action on a project — reading it included — is
// its members' alone. A role says what a person may do (the access table); a
// project's member list says where. Leads are no exception: a lead manages the
// projects they belong to, adds and removes their members (ActionManageMembers),
// and joins another project only when one of its leads adds them. Accounts are
// the server's, not a project's: one account may be a member of many projects,
// with the one role it has everywhere.
//
// A project always keeps a lead among its members (CheckLeave), so that someone
// can still manage it.

// Membership refusals.
var (
	// ErrNotMember refuses an action on a project the user is not a member of.
	ErrNotMember = errors.New("not a member of the project")
	// ErrLastLead refuses a change that would leave a project without a lead.
	ErrLastLead = errors.New("a project keeps at least one lead")
)

// PermitMember checks that u, who may take action a by role (Permit), may take
// it on project: u must be one of its members. project names it for the refusal
// ("project office", "project 7"); member is whether the store lists u among the
// project's members. It is Permit followed by the membership rule, so a store
// asks this one function for every action on a project.
func PermitMember(a Action, u User, project string, member bool) error {
	if err := Permit(a, u); err != nil {
		return err
	}
	if !member {
		return refuse(ErrNotMember, "%s is not a member of %s; one of its leads can add them", u.display(), project)
	}
	return nil
}

// CheckLeave checks that member may stop being a lead member of project: leaving
// it (removed by a lead, or by themselves) or losing the lead role. otherLeads
// is how many other leads the project has among its members; a project is never
// left without one.
func CheckLeave(member User, project string, otherLeads int) error {
	if member.Role != RoleLead || otherLeads > 0 {
		return nil
	}
	return refuse(ErrLastLead, "%s is the only lead of %s; make another member of it a lead first", member.display(), project)
}
