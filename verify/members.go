package verify

import (
	"errors"

	"github.com/benchwright/benchwright/annotate"
)

// Projects are a boundary, and roles belong to them. Every action on a project —
// reading it included — is its members' alone, and what a member may do there is
// the role they hold *in that project* (the access table): one account may lead
// one project, verify in a second and annotate in a third. The verifier group is
// a membership's too. Leads are no exception: a lead manages the projects they
// lead — their members, their roles and groups (ActionManageMembers) — and joins
// another project only when one of its leads adds them.
//
// An account itself (its password, whether it may sign in, the role it joins new
// projects with) is shared by every project it belongs to, so changing it is
// every one of those projects' business: only a lead of all of them may
// (PermitAccount). A lead of one project therefore cannot take over another
// through an account the two share.
//
// A project always keeps a lead among its members (CheckLeave), so that someone
// can still manage it.

// Membership refusals.
var (
	// ErrNotMember refuses an action on a project the user is not a member of.
	ErrNotMember = errors.New("not a member of the project")
	// ErrLastLead refuses a change that would leave a project without a lead.
	ErrLastLead = errors.New("a project keeps at least one lead")
	// ErrNotLeadOfAll refuses a change to an account by someone who does not
	// lead every project the account belongs to.
	ErrNotLeadOfAll = errors.New("the account belongs to projects the user does not lead")
)

// PermitMember checks that u may take action a on project: u must be one of its
// members, and u.Role must be the role u holds in it (a stranger has none there,
// and is refused as one, whatever they are elsewhere). project names it for the
// refusal ("project office", "project 7"); member is whether the store lists u
// among the project's members. A store asks this one function for every action
// on a project.
func PermitMember(a Action, u User, project string, member bool) error {
	if !member {
		return refuse(ErrNotMember, "%s is not a member of %s; one of its leads can add them", u.display(), project)
	}
	return Permit(a, u)
}

// PermitAccount checks that u may change what account target shares with all
// its projects — its password, whether it may sign in, the role and group it
// holds everywhere. u must lead a project (Permit with u's role as a lead of
// one) and lead every project target belongs to: notLed counts target's
// projects u does not lead. An account in no project is any lead's to set up.
// Changing one's own password needs none of this (the store lets anyone).
func PermitAccount(a Action, u User, target string, notLed int) error {
	if err := Permit(a, u); err != nil {
		return err
	}
	if notLed > 0 {
		return refuse(ErrNotLeadOfAll, "%s belongs to %s that %s does not lead; only a lead of every project of an account may change the account (a lead of one project may change its role there)",
			target, annotate.Plural(notLed, "project"), u.display())
	}
	return nil
}

// CheckLeave checks that member may stop being a lead member of project: leaving
// it (removed by a lead, or by themselves) or losing the lead role there.
// member.Role is their role in project; otherLeads is how many other leads the
// project has among its members; a project is never left without one.
func CheckLeave(member User, project string, otherLeads int) error {
	if member.Role != RoleLead || otherLeads > 0 {
		return nil
	}
	return refuse(ErrLastLead, "%s is the only lead of %s; make another member of it a lead first", member.display(), project)
}
