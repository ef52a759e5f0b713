package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// Project members (migrations 0018 and 0020): a project is a boundary, and a
// role is a membership's. Every method that acts on a project — by its id, or
// through a sample, a release, a hard subset or an image of it — checks in its
// transaction that the acting user is one of the project's members and takes the
// role and verifier group they hold *there* (requireIn, which asks
// verify.PermitMember); a refusal is ErrForbidden and audited like any other.
// Leads are no exception: a lead manages the projects they lead.
//
// Who becomes a member, and with which role:
//   - CreateProject: its creator, as its lead.
//   - AddUser (and BulkAddUsers): the new account joins every project the lead
//     who adds it leads, with the role and group it is created with (the first
//     lead, made before any project, joins the projects they create);
//     AddUserToProject: that one project only.
//   - AddMember: a lead of the project adds an existing account they can see
//     (Users), with the account's own role and group (users.role, users.grp).
//   - SetMemberRole: a lead of the project changes a member's role and group
//     there, never leaving the project without a lead (verify.CheckLeave).
//   - RemoveMember: a lead of the project removes a member, themselves included,
//     unless that would leave the project without a lead (verify.CheckLeave).
//     The member's open claims on the project's samples end with it; what they
//     wrote and reviewed stays, under their name.
//
// An account's own role (users.role) is the role it joins projects with when
// none is given; an account that leads any project, or whose own role is lead,
// may create projects and accounts (the account-level actions, requireAction).
// What an account shares with all its projects — its password, its own role and
// group — is changed only by a lead of every one of them (verify.PermitAccount,
// checkAccountChange), so a lead of one project cannot take over another
// through an account both share.
//
// Which accounts a user sees (Users, UserByName, and so the accounts a lead may
// change or add to a project): their own, every account that shares a project
// with them, and — for leads — the accounts that belong to no project yet, so
// that a lead can add them somewhere.

func init() { afterMigration[20] = addMemberRoles }

// addMemberRoles is migration 20's part on SQLite (the SQL file says why): the
// membership's role and group, filled from the account's. Re-runnable; on
// PostgreSQL the SQL file does it all.
func addMemberRoles(d *DB, ctx context.Context, tx *sql.Tx) error {
	if d.pg {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('project_members') WHERE name = 'role'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		for _, q := range []string{
			`ALTER TABLE project_members ADD COLUMN role TEXT NOT NULL DEFAULT 'annotator' CHECK (role IN ('annotator', 'verifier', 'lead'))`,
			`ALTER TABLE project_members ADD COLUMN grp TEXT NOT NULL DEFAULT ''`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	}
	for _, q := range []string{
		`UPDATE project_members SET role = (SELECT u.role FROM users u WHERE u.id = project_members.user_id),
			grp = (SELECT u.grp FROM users u WHERE u.id = project_members.user_id)`,
		// A project's leads (the last-lead rule, the account rule).
		`CREATE INDEX IF NOT EXISTS project_members_role ON project_members (project_id, role)`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// ownerMay lists what Owner may do.
func ownerMay(a verify.Action) bool {
	return a == verify.ActionReadProject || a == verify.ActionExport
}

// loadActor reloads the acting user inside the transaction (a role may have
// changed since sign-in), at the level of the account: its role is accountRole's,
// and roles lists every role it holds anywhere (its own and its memberships'),
// for requireAction. Owner stays Owner.
func loadActor(ctx context.Context, tx *sql.Tx, actor bench.User) (bench.User, []string, error) {
	if actor.IsOwner() {
		return actor, nil, nil
	}
	var u bench.User
	err := tx.QueryRowContext(ctx, `SELECT u.id, u.name, `+accountRole+`, u.grp FROM users u WHERE u.id = ? AND u.disabled = 0`, actor.ID).
		Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	if errors.Is(err, sql.ErrNoRows) {
		return bench.User{}, nil, errAccountGone
	}
	if err != nil {
		return bench.User{}, nil, err
	}
	roles, err := queryAll(ctx, tx, scanString, `SELECT role FROM users WHERE id = ? UNION SELECT role FROM project_members WHERE user_id = ?`, u.ID, u.ID)
	return u, roles, err
}

// errAccountGone is the refusal of an account that no longer exists or is disabled.
var errAccountGone = fmt.Errorf("%w: the account you signed in with no longer exists or is disabled", bench.ErrForbidden)

// accountRole is the SQL of the role of account u at the level of the account:
// lead when its own role is lead or it leads any project (it may create
// projects and accounts), else its own role.
const accountRole = `CASE WHEN u.role = 'lead' OR EXISTS (SELECT 1 FROM project_members lm WHERE lm.user_id = u.id AND lm.role = 'lead')
	THEN 'lead' ELSE u.role END`

// refuseOwner is Owner's refusal of action a.
func refuseOwner(a verify.Action) error {
	return fmt.Errorf("%w: reading the database without an account allows only reading; sign in to do that (%s)", bench.ErrForbidden, a)
}

// requireProjectAction is requireAction for an action on project projectID: the
// actor must also be one of its members (verify.PermitMember). A project that does
// not exist is ErrNotFound.
func requireProjectAction(ctx context.Context, tx *sql.Tx, actor bench.User, projectID int64, a verify.Action) (bench.User, error) {
	return requireIn(ctx, tx, actor, projectID, fmt.Sprintf("project %d", projectID), a)
}

// requireIn is requireProjectAction naming the project label in the refusal
// ("project 7" for a project given by id, which tells a stranger nothing of it;
// `project "office"` for one given by name).
//
// The user it returns is the actor as a member of the project: their role and
// verifier group are the membership's, and every rule the caller asks next
// (verify.Authorize, CanReview, …) sees those.
func requireIn(ctx context.Context, tx *sql.Tx, actor bench.User, projectID int64, label string, a verify.Action) (bench.User, error) {
	if !actor.IsOwner() { // the account, its roles and its membership in one statement
		var r actorRow
		if err := txDialect(tx).readAll(ctx, tx, r.read(actor, projectID)); err != nil {
			return bench.User{}, err
		}
		return r.require(a, label)
	}
	u, err := requireAction(ctx, tx, actor, a) // no role anywhere that may: a refusal that tells nothing of the project
	if err != nil || u.IsOwner() {
		return u, err
	}
	m, member, err := membership(ctx, tx, u, projectID)
	if err != nil {
		return bench.User{}, err
	}
	// A stranger is refused the same way whether the project exists or not.
	if err := verify.PermitMember(a, vuser(m), label, member); err != nil {
		return bench.User{}, fmt.Errorf("%w: %w", bench.ErrForbidden, err)
	}
	return m, nil
}

// actorCols are the columns actorRow scans, of the acting account act (users)
// and its membership m (project_members, NULL when it is none) in a project:
// what loadActor and membership read, for one statement.
const actorCols = `COALESCE(act.id, 0), COALESCE(act.name, ''), COALESCE(CASE WHEN act.role = 'lead'
		OR EXISTS (SELECT 1 FROM project_members lm WHERE lm.user_id = act.id AND lm.role = 'lead') THEN 'lead' ELSE act.role END, ''),
	COALESCE(act.grp, ''),
	CASE WHEN act.role = 'verifier' OR EXISTS (SELECT 1 FROM project_members lm WHERE lm.user_id = act.id AND lm.role = 'verifier') THEN 1 ELSE 0 END,
	CASE WHEN act.role = 'annotator' OR EXISTS (SELECT 1 FROM project_members lm WHERE lm.user_id = act.id AND lm.role = 'annotator') THEN 1 ELSE 0 END,
	COALESCE(m.role, ''), COALESCE(m.grp, ''), CASE WHEN m.user_id IS NULL THEN 0 ELSE 1 END`

// actorRow is the acting account as actorCols read it: the account at its own
// level (loadActor), the roles it holds anywhere, and its membership.
type actorRow struct {
	u                   bench.User
	verifier, annotator int
	mRole, mGroup       string
	member              int
}

func (r *actorRow) dests() []any {
	return []any{&r.u.ID, &r.u.Name, &r.u.Role, &r.u.Group, &r.verifier, &r.annotator, &r.mRole, &r.mGroup, &r.member}
}

// read is requireIn's one statement for a signed-in actor (not the owner) and
// project, which fills r: a read that may go in one batch with others
// (dialect.readAll). Its one row is there whether or not the account is.
func (r *actorRow) read(actor bench.User, projectID int64) read {
	return read{`SELECT ` + actorCols + ` FROM (SELECT 1 AS one) k
			LEFT JOIN users act ON act.id = ? AND act.disabled = 0
			LEFT JOIN project_members m ON m.project_id = ? AND m.user_id = act.id`, []any{actor.ID, projectID},
		func(s scanner) error { return s.Scan(r.dests()...) }}
}

// require is requireIn's verdict on the row r read: an account gone, else permit's.
func (r *actorRow) require(a verify.Action, label string) (bench.User, error) {
	if r.u.ID == 0 {
		return bench.User{}, errAccountGone
	}
	return r.permit(a, label)
}

// permit is requireIn's verdict on the account r read: requireAction's, then
// verify.PermitMember's on project label.
func (r *actorRow) permit(a verify.Action, label string) (bench.User, error) {
	var roles []string
	if r.u.Role == string(verify.RoleLead) {
		roles = append(roles, string(verify.RoleLead))
	}
	if r.verifier == 1 {
		roles = append(roles, string(verify.RoleVerifier))
	}
	if r.annotator == 1 {
		roles = append(roles, string(verify.RoleAnnotator))
	}
	u, err := permitActor(r.u, roles, a)
	if err != nil {
		return bench.User{}, err
	}
	m := u
	if r.member == 1 {
		m.Role, m.Group = r.mRole, r.mGroup
	}
	if err := verify.PermitMember(a, vuser(m), label, r.member == 1); err != nil {
		return bench.User{}, fmt.Errorf("%w: %w", bench.ErrForbidden, err)
	}
	return m, nil
}

// membership is u as a member of project projectID — the role and group they
// hold there — and whether they are one.
func membership(ctx context.Context, tx *sql.Tx, u bench.User, projectID int64) (bench.User, bool, error) {
	err := tx.QueryRowContext(ctx, `SELECT role, grp FROM project_members WHERE project_id = ? AND user_id = ?`, projectID, u.ID).Scan(&u.Role, &u.Group)
	if errors.Is(err, sql.ErrNoRows) {
		return u, false, nil
	}
	return u, err == nil, err
}

func isMember(ctx context.Context, tx *sql.Tx, userID, projectID int64) (bool, error) {
	_, in, err := membership(ctx, tx, bench.User{ID: userID}, projectID)
	return in, err
}

// readProject runs fn in a read transaction once actor may read project
// projectID (verify.ActionReadProject); a refusal is audited as denied:what.
func (d *DB) readProject(ctx context.Context, actor bench.User, projectID int64, what string, fn func(tx *sql.Tx) error) error {
	return d.readAs(ctx, actor, what, func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionReadProject); err != nil {
			return err
		}
		return fn(tx)
	})
}

// requireSampleAction is requireProjectAction on the project of sample id. A
// sample that does not exist is ErrNotFound, after the role is checked, and so
// is — to the one asking — a sample of a project they are not a member of
// (hidden: the refusal is audited as one).
func requireSampleAction(ctx context.Context, tx *sql.Tx, actor bench.User, id string, a verify.Action) (bench.User, error) {
	what := fmt.Sprintf("sample %q", id)
	if !actor.IsOwner() { // the sample's project, the account and its membership in one statement
		var r actorRow
		var pid int64
		err := tx.QueryRowContext(ctx, `SELECT s.project_id, `+actorCols+` FROM samples s
			LEFT JOIN users act ON act.id = ? AND act.disabled = 0
			LEFT JOIN project_members m ON m.project_id = s.project_id AND m.user_id = act.id
			WHERE s.id = ?`, actor.ID, id).Scan(append([]any{&pid}, r.dests()...)...)
		if err == nil {
			return r.permitSample(a, pid, what)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return bench.User{}, err
		}
		// No such sample: the role's refusal, else not found, as below.
	}
	pid, err := parentOf(ctx, tx, actor, a, `SELECT project_id FROM samples WHERE id = ?`, id, what)
	if err != nil {
		return bench.User{}, err
	}
	u, err := requireProjectAction(ctx, tx, actor, pid, a)
	return u, hideStranger(err, fmt.Errorf("%s: %w", what, bench.ErrNotFound))
}

// sampleForAction is requireSampleAction followed by getSample, in one
// statement: the check and the sample a sample's write starts with.
func sampleForAction(ctx context.Context, tx *sql.Tx, actor bench.User, id string, a verify.Action) (bench.User, bench.SampleInfo, error) {
	if !actor.IsOwner() {
		var r actorRow
		var si bench.SampleInfo
		err := readRow(ctx, tx, `SELECT `+sampleCols+`, `+actorCols+sampleFrom+`
			LEFT JOIN users act ON act.id = ? AND act.disabled = 0
			LEFT JOIN project_members m ON m.project_id = s.project_id AND m.user_id = act.id
			WHERE s.id = ?`, []any{actor.ID, id}, func(row scanner) (err error) {
			si, err = scanSample(scanFunc(func(dest ...any) error { return row.Scan(append(dest, r.dests()...)...) }))
			return err
		})
		if err == nil {
			u, err := r.permitSample(a, si.ProjectID, fmt.Sprintf("sample %q", id))
			if err != nil {
				return bench.User{}, bench.SampleInfo{}, err
			}
			return u, si, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return bench.User{}, bench.SampleInfo{}, err
		}
	}
	u, err := requireSampleAction(ctx, tx, actor, id, a)
	if err != nil {
		return bench.User{}, bench.SampleInfo{}, err
	}
	si, err := getSample(ctx, tx, id)
	return u, si, err
}

// permitSample is requireSampleAction's verdict on the account r read, for a
// sample (what) of project pid.
func (r *actorRow) permitSample(a verify.Action, pid int64, what string) (bench.User, error) {
	if r.u.ID == 0 {
		return bench.User{}, errAccountGone
	}
	u, err := r.permit(a, fmt.Sprintf("project %d", pid))
	return u, hideStranger(err, fmt.Errorf("%s: %w", what, bench.ErrNotFound))
}

// requireSubsetAction is requireReleaseAction on the release of hard subset id.
func requireSubsetAction(ctx context.Context, tx *sql.Tx, actor bench.User, id int64, a verify.Action) (bench.User, error) {
	what := fmt.Sprintf("hard subset %d", id)
	rid, err := parentOf(ctx, tx, actor, a, `SELECT release_id FROM hard_subsets WHERE id = ?`, id, what)
	if err != nil {
		return bench.User{}, err
	}
	u, err := requireReleaseAction(ctx, tx, actor, rid, a)
	var h *hidden
	if errors.As(err, &h) { // a stranger's: the subset, not its release, is what they did not find
		h.shown = fmt.Errorf("%s: %w", what, bench.ErrNotFound)
	}
	return u, err
}

// requireReleaseAction is requireProjectAction on the project of release id.
func requireReleaseAction(ctx context.Context, tx *sql.Tx, actor bench.User, id int64, a verify.Action) (bench.User, error) {
	what := fmt.Sprintf("release %d", id)
	pid, err := parentOf(ctx, tx, actor, a, `SELECT project_id FROM releases WHERE id = ?`, id, what)
	if err != nil {
		return bench.User{}, err
	}
	u, err := requireProjectAction(ctx, tx, actor, pid, a)
	return u, hideStranger(err, fmt.Errorf("%s: %w", what, bench.ErrNotFound))
}

// hidden is a refusal answered as the "not found" of what it refused: a
// stranger naming a sample, release, hard subset or image of another project
// is told exactly what a missing one would tell them, so that ids cannot be
// probed (issue 25.10). It is not ErrForbidden to errors.Is; act and readAs
// still audit it, with the refusal's words.
type hidden struct {
	shown  error // what the caller is told: `sample "x": not found`
	reason error // the refusal (verify.ErrNotMember), for the audit log
}

func (h *hidden) Error() string { return h.shown.Error() }
func (h *hidden) Unwrap() error { return h.shown }

// hideStranger hides err behind shown when err refuses a stranger to a project
// (verify.ErrNotMember); any other error stays as it is.
func hideStranger(err, shown error) error {
	if errors.Is(err, verify.ErrNotMember) {
		return &hidden{shown: shown, reason: err}
	}
	return err
}

// auditReason is the refusal err holds for the audit log, if it holds one: an
// ErrForbidden, or a hidden one.
func auditReason(err error) (string, bool) {
	var h *hidden
	switch {
	case errors.As(err, &h):
		return h.reason.Error(), true
	case errors.Is(err, bench.ErrForbidden):
		return err.Error(), true
	}
	return "", false
}

// parentOf reads the id query finds for key: the project or release a sample,
// release or subset belongs to. One that does not exist (what names it) is
// ErrNotFound, said only to an actor whose role may take action a at all.
func parentOf(ctx context.Context, tx *sql.Tx, actor bench.User, a verify.Action, query string, key any, what string) (int64, error) {
	var parent int64
	err := tx.QueryRowContext(ctx, query, key).Scan(&parent)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := requireAction(ctx, tx, actor, a); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%s: %w", what, bench.ErrNotFound)
	}
	return parent, err
}

// requireImageAction checks action a on an image by its content hash: the image
// must be in a project the actor is a member of. An image several projects hold
// needs membership in one of them; one no project holds is ErrImageMissing.
func requireImageAction(ctx context.Context, tx *sql.Tx, actor bench.User, sha string, a verify.Action) error {
	u, err := requireAction(ctx, tx, actor, a)
	if err != nil || u.IsOwner() {
		return err
	}
	pids, err := queryAll(ctx, tx, scanInt64, `SELECT project_id FROM images WHERE sha256 = ? ORDER BY project_id`, sha)
	if err != nil {
		return err
	}
	missing := fmt.Errorf("%w: no project holds it", bench.ErrImageMissing)
	if len(pids) == 0 {
		return missing
	}
	for _, pid := range pids {
		if in, err := isMember(ctx, tx, u.ID, pid); err != nil || in {
			if in {
				_, err = requireProjectAction(ctx, tx, actor, pid, a)
			}
			return err
		}
	}
	_, err = requireProjectAction(ctx, tx, actor, pids[0], a)
	return hideStranger(err, missing)
}

// releaseFor finds release ref (releaseByRefAmong) for the actor's action a and checks
// it on the release's project. A NAME@VERSION without a project is looked for
// among the actor's projects, so that a release of the same name in a project
// they are not in neither makes theirs ambiguous nor shows; found only outside
// them, it is refused as not theirs.
func releaseFor(ctx context.Context, tx *sql.Tx, actor bench.User, projectID int64, ref string, a verify.Action) (bench.User, bench.Release, error) {
	if _, err := requireAction(ctx, tx, actor, a); err != nil {
		return bench.User{}, bench.Release{}, err
	}
	var among int64 // 0: every project
	if !actor.IsOwner() && projectID == 0 {
		among = actor.ID
	}
	rel, err := releaseByRefAmong(ctx, tx, projectID, ref, among)
	notFound := err
	if errors.Is(err, bench.ErrNotFound) && among != 0 {
		if other, err2 := releaseByRefAmong(ctx, tx, 0, ref, 0); err2 == nil {
			rel, err = other, nil // someone else's: refused below, as if not found
		}
	}
	if err != nil {
		return bench.User{}, bench.Release{}, err
	}
	u, err := requireProjectAction(ctx, tx, actor, rel.ProjectID, a)
	if err != nil {
		if notFound == nil {
			notFound = fmt.Errorf("release %s: %w", ref, bench.ErrNotFound)
		}
		return bench.User{}, bench.Release{}, hideStranger(err, notFound)
	}
	return u, rel, nil
}

// memberProjects is the SQL condition that project id column col is one of user
// ?'s projects.
func memberProjects(col string) string {
	return col + ` IN (SELECT project_id FROM project_members WHERE user_id = ?)`
}

// joinProject makes member a member of project (nothing when they are one) with
// member.Role and member.Group, recording who added them (0: nobody, they
// created it).
func (d *DB) joinProject(ctx context.Context, tx *sql.Tx, projectID int64, member bench.User, addedBy int64) error {
	var by any
	if addedBy != 0 {
		by = addedBy
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO project_members (project_id, user_id, added_by, added_at, role, grp) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (project_id, user_id) DO NOTHING`, projectID, member.ID, by, d.now(), member.Role, member.Group)
	return err
}

// joinProjectsOf makes member a member of every project lead leads, with
// member.Role and member.Group (AddUser).
func (d *DB) joinProjectsOf(ctx context.Context, tx *sql.Tx, lead int64, member bench.User) error {
	ps, err := queryAll(ctx, tx, scanInt64, `SELECT project_id FROM project_members WHERE user_id = ? AND role = 'lead' ORDER BY project_id`, lead)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if err := d.joinProject(ctx, tx, p, member, lead); err != nil {
			return err
		}
	}
	return nil
}

// visibleUsers is the SQL condition that the account in alias u is one user ?
// sees (self, sharing a project, or — second ?, 1 for a lead — in no project),
// with its arguments for actor.
func visibleUsers(actor bench.User) (string, []any) {
	lead := 0
	if actor.Role == bench.RoleLead {
		lead = 1
	}
	return `(u.id = ? OR EXISTS (SELECT 1 FROM project_members mine JOIN project_members theirs ON theirs.project_id = mine.project_id
			WHERE mine.user_id = ? AND theirs.user_id = u.id)
		OR (? = 1 AND NOT EXISTS (SELECT 1 FROM project_members m WHERE m.user_id = u.id)))`, []any{actor.ID, actor.ID, lead}
}

// visibleUser looks up the account name as actor (already loaded) sees it: an
// account they may not see is not found, exactly as one that does not exist.
func visibleUser(ctx context.Context, tx *sql.Tx, actor bench.User, name string) (bench.User, error) {
	if actor.IsOwner() {
		return userByName(ctx, tx, name)
	}
	cond, args := visibleUsers(actor)
	var u bench.User
	err := tx.QueryRowContext(ctx, `SELECT u.id, u.name, u.role, u.grp FROM users u WHERE u.name = ? AND u.disabled = 0 AND `+cond,
		append([]any{name}, args...)...).Scan(&u.ID, &u.Name, &u.Role, &u.Group)
	if errors.Is(err, sql.ErrNoRows) {
		return bench.User{}, fmt.Errorf("%w: no user named %q", bench.ErrNotFound, name)
	}
	return u, err
}

// projectAuthor is the account u as a member of project projectID who may write
// its samples (an import's or a batch's named author, the new author of
// reassigned drafts): a member whose role there is annotator or lead.
func projectAuthor(ctx context.Context, tx *sql.Tx, u bench.User, projectID int64) (bench.User, error) {
	m, in, err := membership(ctx, tx, u, projectID)
	switch {
	case err != nil:
		return bench.User{}, err
	case !in:
		return bench.User{}, fmt.Errorf("%w: author %s is not a member of the project", bench.ErrInvalid, u.Name)
	case !verify.Permitted(verify.ActionWriteSamples, verify.Role(m.Role)):
		return bench.User{}, fmt.Errorf("%w: author %s is %s in the project; samples are written by annotators and leads", bench.ErrInvalid, m.Name, bench.RoleWithArticle(m.Role))
	}
	return m, nil
}

// leadsBesides counts the lead members of project other than user.
func leadsBesides(ctx context.Context, tx *sql.Tx, projectID, userID int64) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM project_members m JOIN users u ON u.id = m.user_id
		WHERE m.project_id = ? AND m.user_id <> ? AND m.role = 'lead' AND u.disabled = 0`, projectID, userID).Scan(&n)
	return n, err
}

// checkStillLed refuses to take the lead role from u in every project they lead
// when one of them would be left without a lead (verify.CheckLeave).
func checkStillLed(ctx context.Context, tx *sql.Tx, u bench.User) error {
	ps, err := queryAll(ctx, tx, func(r scanner) (p bench.Project, err error) { err = r.Scan(&p.ID, &p.Name); return },
		`SELECT p.id, p.name FROM projects p JOIN project_members m ON m.project_id = p.id WHERE m.user_id = ? AND m.role = 'lead' ORDER BY p.name`, u.ID)
	if err != nil {
		return err
	}
	for _, p := range ps {
		n, err := leadsBesides(ctx, tx, p.ID, u.ID)
		if err != nil {
			return err
		}
		lead := vuser(u)
		lead.Role = verify.RoleLead
		if err := verify.CheckLeave(lead, fmt.Sprintf("project %q", p.Name), n); err != nil {
			return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
		}
	}
	return nil
}

// checkAccountChange checks that a (loaded by requireAction) may change what
// account u shares with all its projects (verify.PermitAccount): a must lead
// every project u belongs to. Changing one's own account is the caller's to
// allow first.
func checkAccountChange(ctx context.Context, tx *sql.Tx, a, u bench.User, action verify.Action) error {
	if a.IsOwner() {
		return refuseOwner(action)
	}
	var notLed int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM project_members theirs WHERE theirs.user_id = ? AND NOT EXISTS
		(SELECT 1 FROM project_members mine WHERE mine.project_id = theirs.project_id AND mine.user_id = ? AND mine.role = 'lead')`,
		u.ID, a.ID).Scan(&notLed); err != nil {
		return err
	}
	if err := verify.PermitAccount(action, vuser(a), u.Name, notLed); err != nil {
		return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
	}
	return nil
}

// Members lists the members of project projectID by name, each with the role
// and group they hold in it; any member may.
func (d *DB) Members(ctx context.Context, actor bench.User, projectID int64) ([]bench.User, error) {
	var out []bench.User
	err := d.readAs(ctx, actor, "project.members", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionReadProject); err != nil {
			return err
		}
		var err error
		out, err = queryAll(ctx, tx, scanUser, `SELECT u.id, u.name, m.role, m.grp FROM users u JOIN project_members m ON m.user_id = u.id
			WHERE m.project_id = ? AND u.disabled = 0 ORDER BY u.name`, projectID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("the project's members: %w", err)
	}
	return out, nil
}

// AddMember adds the account userName to project projectID with the account's
// own role and group (SetMemberRole changes them there); only a lead of the
// project may, and only an account they see (Users). Adding a member twice is
// ErrConflict. Audited as project.member with the project's name.
func (d *DB) AddMember(ctx context.Context, actor bench.User, projectID int64, userName string) error {
	err := d.act(ctx, actor, "project.member.add", func(tx *sql.Tx) error {
		a, p, u, in, err := memberChange(ctx, tx, actor, projectID, userName)
		if err != nil {
			return err
		} else if in {
			return fmt.Errorf("%w: %s is a member of project %q already", bench.ErrConflict, u.Name, p.Name)
		}
		if err := tx.QueryRowContext(ctx, `SELECT role, grp FROM users WHERE id = ?`, u.ID).Scan(&u.Role, &u.Group); err != nil {
			return err
		}
		if err := d.joinProject(ctx, tx, projectID, u, a.ID); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "project.member", "project", p.Name, "added "+u.Name)
	})
	if err != nil {
		return fmt.Errorf("add %s to the project: %w", userName, err)
	}
	return nil
}

// memberChange is what AddMember, SetMemberRole and RemoveMember check first:
// that actor (a, as a member of the project) may manage project projectID's
// members, the project p, the account u named userName as actor sees it — with
// the role and group it holds in the project when it is a member — and whether
// it is one now.
func memberChange(ctx context.Context, tx *sql.Tx, actor bench.User, projectID int64, userName string) (a bench.User, p bench.Project, u bench.User, in bool, err error) {
	if a, err = requireProjectAction(ctx, tx, actor, projectID, verify.ActionManageMembers); err != nil {
		return
	}
	if p, err = projectByID(ctx, tx, projectID); err != nil {
		return
	}
	if u, err = visibleUser(ctx, tx, a, userName); err != nil {
		return
	}
	u, in, err = membership(ctx, tx, u, projectID)
	return
}

// SetMemberRole makes the member userName of project projectID a role of it
// (annotator, verifier, lead) in verifier group group ("" for none); only a lead
// of the project may, and never so that the project is left without a lead
// (verify.CheckLeave). Their role in other projects and their account are
// untouched. Audited as project.member.role with the project's name.
func (d *DB) SetMemberRole(ctx context.Context, actor bench.User, projectID int64, userName, role, group string) (bench.User, error) {
	var u bench.User
	err := d.act(ctx, actor, "project.member.role", func(tx *sql.Tx) error {
		a, p, m, in, err := memberChange(ctx, tx, actor, projectID, userName)
		if err != nil {
			return err
		} else if !in {
			return fmt.Errorf("%w: %s is not a member of project %q", bench.ErrNotFound, m.Name, p.Name)
		}
		if !bench.ValidRole(role) {
			return fmt.Errorf("%w: role %q is not one of annotator, verifier, lead", bench.ErrInvalid, role)
		}
		if group, err = canonicalGroup(ctx, tx, group); err != nil {
			return invalidIf(err, verify.ErrInvalidPolicy)
		}
		if role != bench.RoleLead {
			others, err := leadsBesides(ctx, tx, projectID, m.ID)
			if err != nil {
				return err
			}
			if err := verify.CheckLeave(vuser(m), fmt.Sprintf("project %q", p.Name), others); err != nil {
				return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE project_members SET role = ?, grp = ? WHERE project_id = ? AND user_id = ?`,
			role, group, projectID, m.ID); err != nil {
			return err
		}
		u = bench.User{ID: m.ID, Name: m.Name, Role: role, Group: group}
		return d.audit(ctx, tx, a.ID, "project.member.role", "project", p.Name, fmt.Sprintf("%s: role=%s group=%s (was role=%s group=%s)",
			m.Name, role, group, m.Role, m.Group))
	})
	if err != nil {
		return bench.User{}, fmt.Errorf("set the role of %s in the project: %w", userName, err)
	}
	return u, nil
}

// RemoveMember takes the account userName off project projectID; only a lead of
// the project may, and a lead may remove themselves, but never the project's
// last lead (verify.CheckLeave). The member's claims on the project's samples
// end; their samples and reviews stay. Audited as project.member.
func (d *DB) RemoveMember(ctx context.Context, actor bench.User, projectID int64, userName string) error {
	err := d.act(ctx, actor, "project.member.remove", func(tx *sql.Tx) error {
		a, p, u, in, err := memberChange(ctx, tx, actor, projectID, userName)
		if err != nil {
			return err
		} else if !in {
			return fmt.Errorf("%w: %s is not a member of project %q", bench.ErrNotFound, u.Name, p.Name)
		}
		others, err := leadsBesides(ctx, tx, projectID, u.ID)
		if err != nil {
			return err
		}
		if err := verify.CheckLeave(vuser(u), fmt.Sprintf("project %q", p.Name), others); err != nil {
			return fmt.Errorf("%w: %w", bench.ErrForbidden, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM project_members WHERE project_id = ? AND user_id = ?`, projectID, u.ID); err != nil {
			return err
		}
		claimed, err := queryAll(ctx, tx, scanString, `SELECT c.sample_id FROM claims c JOIN samples s ON s.id = c.sample_id
			WHERE c.verifier_id = ? AND s.project_id = ? ORDER BY c.sample_id`, u.ID, projectID)
		if err != nil {
			return err
		}
		for _, id := range claimed {
			if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE verifier_id = ? AND sample_id = ?`, u.ID, id); err != nil {
				return err
			}
			if err := d.statsRound3(ctx, tx, id); err != nil {
				return err
			}
		}
		detail := "removed " + u.Name
		if len(claimed) > 0 {
			detail += fmt.Sprintf(" (%s ended)", annotate.Plural(len(claimed), "claim"))
		}
		return d.audit(ctx, tx, a.ID, "project.member", "project", p.Name, detail)
	})
	if err != nil {
		return fmt.Errorf("remove %s from the project: %w", userName, err)
	}
	return nil
}
