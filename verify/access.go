package verify

import (
	"fmt"
	"slices"
	"strings"
)

// Action is something a user asks a store to do. Who may do it is written once,
// in the access table below; every exported store method checks its action with
// Permit before it reads or writes anything.
//
// Moves of the protocol (submit, approve, reject, correct, withdraw, reopen) are
// checked twice: Permit says whether the role may take part at all, and the
// transition table's Who column (Authorize) and CanReview say whether this user
// may make this move on this sample.
type Action string

// The actions.
const (
	ActionCreateProject  Action = "project.create"
	ActionChangeSettings Action = "project.settings"
	ActionManageUsers    Action = "users.manage"
	ActionImportImages   Action = "images.import"
	ActionWriteSamples   Action = "samples.write"  // create, edit, delete and submit one's own samples
	ActionImportSamples  Action = "samples.import" // bulk import of records
	ActionImportOnBehalf Action = "samples.import_for"
	ActionReadSamples    Action = "samples.read" // revisions, reviews and history, blind round 3 respected
	ActionReview         Action = "samples.review"
	ActionCorrect        Action = "samples.correct"
	ActionSeeDashboard   Action = "dashboard.read" // the project's tables; rows of people need ActionSeeTeamWork
	ActionSeeTeamWork    Action = "dashboard.team" // everyone's rows on the dashboard, not only one's own
	ActionSeeAgreement   Action = "agreement.read"
	ActionCountOpenVotes Action = "round3.count" // how many votes an open, blind round 3 holds (not whose, not what)
	ActionAuditRelease   Action = "release.audit"
	ActionFreeze         Action = "release.freeze"
	ActionExport         Action = "release.export"
	ActionGenerate       Action = "project.generate" // the synthetic test-data generator

	// Model evaluation on a frozen release (package score). Importing a model's
	// predictions and reading its raw responses are the leads' work: leads run the
	// evaluation, and verifiers, who correct gold answers, and annotators, who write
	// the next samples, should not be steered by what models answered. The figures
	// a leaderboard is made of (which models were run, their scores) are open to
	// verifiers as well; annotators are refused them too, because knowing which
	// questions defeat which model invites writing new samples toward one model's
	// weaknesses.
	ActionImportPredictions Action = "predictions.import" // import (or replace) a model's predictions
	ActionReadPredictions   Action = "predictions.read"   // a model's raw responses, sample by sample
	ActionSeeScores         Action = "scores.read"        // the models run on a release and their scores

	// Sampled validation of generated sets (package sampling, store/validation.go):
	// importing a batch, drawing its sample and accepting its unsampled rest are a
	// lead's decisions; the error rates are open to those who judge the sample.
	ActionValidateBatches Action = "batches.validate" // import a generated batch, draw its sample, accept the rest
	ActionSeeValidation   Action = "batches.read"     // see batches and their estimated error rates

	// Hard subsets and the human baseline (package score). Curating a hard subset
	// is a lead's work, like freezing; the baseline's items are drawn by a lead and
	// answered, blind, by anyone signed in (the answering screen shows no gold).
	ActionCurateHard  Action = "hard.curate"  // propose, read and decide hard-subset candidates
	ActionDrawHuman   Action = "human.draw"   // draw a release's human-baseline items
	ActionAnswerHuman Action = "human.answer" // answer the human baseline, blind

	// ActionAugment lists the candidates derived from accepted step graphs (package
	// augment) and accepts, edits or discards them: authors' work, since an
	// accepted candidate becomes the accepting user's sample.
	ActionAugment Action = "samples.augment"

	// The lead's sample manager: search every sample of a project and act on many
	// at once (withdraw and reopen are protocol moves, checked by Authorize).
	ActionSearchSamples  Action = "samples.search"   // filter, sort and open every sample
	ActionReassignDrafts Action = "samples.reassign" // give an author's drafts to another author
	ActionReleaseClaims  Action = "claims.release"   // end other verifiers' claims on samples
	ActionExportSamples  Action = "samples.export"   // write a selection of samples as CSV or JSON Lines

	// Projects and their members (members.go): every action on a project is its
	// members' alone (PermitMember); ActionReadProject is the plain reading of a
	// project (its settings, images, samples, releases) that any member may do.
	ActionReadProject   Action = "project.read"
	ActionManageMembers Action = "project.members" // add accounts to a project, remove its members, set their roles and groups there
)

// access is one row of the access table.
type access struct {
	Action Action
	What   string // what the action does, as in "only leads may <What>"
	Roles  []Role
}

var (
	anyone    = []Role{RoleAnnotator, RoleVerifier, RoleLead}
	authors   = []Role{RoleAnnotator, RoleLead}
	reviewers = []Role{RoleVerifier, RoleLead}
	leads     = []Role{RoleLead}
)

// accessTable is the only place that says which roles may do what.
var accessTable = []access{
	// Action               What                                  Roles
	{ActionCreateProject, "create projects", leads},
	{ActionChangeSettings, "change project settings", leads},
	{ActionManageUsers, "manage accounts and groups", leads},
	{ActionImportImages, "import images", authors},
	{ActionWriteSamples, "write samples", authors},
	{ActionImportSamples, "import samples", authors},
	{ActionImportOnBehalf, "import samples for someone else or straight into round 1", leads},
	{ActionReadSamples, "read samples and their history", anyone},
	{ActionReview, "review samples", reviewers},
	{ActionCorrect, "correct samples", reviewers},
	{ActionSeeDashboard, "see the dashboard", anyone},
	{ActionSeeTeamWork, "see everyone's rows on the dashboard", reviewers},
	{ActionSeeAgreement, "see agreement", reviewers},
	{ActionCountOpenVotes, "see how many votes an open round 3 holds", leads},
	{ActionAuditRelease, "audit releases", leads},
	{ActionFreeze, "freeze releases", leads},
	{ActionExport, "export releases", anyone},
	{ActionGenerate, "generate synthetic projects", leads},
	{ActionImportPredictions, "import model predictions", leads},
	{ActionReadPredictions, "read model predictions", leads},
	{ActionSeeScores, "see model scores", reviewers},
	{ActionValidateBatches, "import generated batches and accept them by sampling", leads},
	{ActionSeeValidation, "see the sampled validation of generated batches", reviewers},
	{ActionCurateHard, "curate hard subsets", leads},
	{ActionDrawHuman, "draw a human baseline", leads},
	{ActionAnswerHuman, "answer the human baseline", anyone},
	{ActionAugment, "derive samples from accepted step graphs", authors},
	{ActionSearchSamples, "search every sample of the project", leads},
	{ActionReassignDrafts, "reassign drafts", leads},
	{ActionReleaseClaims, "release other verifiers' claims", leads},
	{ActionExportSamples, "export a selection of samples", leads},
	{ActionReadProject, "read a project", anyone},
	{ActionManageMembers, "add and remove a project's members and set their roles", leads},
}

// Permission is one row of the access table, for display and documentation.
type Permission struct {
	Action Action
	What   string
	Roles  []Role
}

// Permissions returns the access table.
func Permissions() []Permission {
	out := make([]Permission, len(accessTable))
	for i, a := range accessTable {
		out[i] = Permission{a.Action, a.What, slices.Clone(a.Roles)}
	}
	return out
}

// Permitted reports whether role r may take action a at all. Screens use it to
// decide what to offer; stores call Permit, which also names the refusal.
func Permitted(a Action, r Role) bool {
	i := slices.IndexFunc(accessTable, func(x access) bool { return x.Action == a })
	return i >= 0 && slices.Contains(accessTable[i].Roles, r)
}

// Permit checks that u may take action a. The refusal wraps ErrNotPermitted and
// reads "ann1 is an annotator, and only leads may change project settings".
func Permit(a Action, u User) error {
	i := slices.IndexFunc(accessTable, func(x access) bool { return x.Action == a })
	if i < 0 {
		return fmt.Errorf("%w %q", ErrUnknownEvent, a)
	}
	row := accessTable[i]
	if slices.Contains(row.Roles, u.Role) {
		return nil
	}
	return refuse(ErrNotPermitted, "%s is %s, and only %s may %s", u.display(), roleName(u.Role), rolesPhrase(row.Roles), row.What)
}

// rolesPhrase names roles in the plural: "verifiers or leads".
func rolesPhrase(rs []Role) string {
	names := make([]string, len(rs))
	for i, r := range rs {
		names[i] = string(r) + "s"
	}
	return strings.Join(names, " or ")
}
