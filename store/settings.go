package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/verify"
)

// UpdateSettings replaces a project's settings; only a lead may. Each changed key
// is audited with its old and new value.
func (d *DB) UpdateSettings(ctx context.Context, actor bench.User, projectID int64, s bench.Settings) error {
	_, err := d.changeSettings(ctx, actor, projectID, func(*bench.Settings) error { return nil }, &s, nil)
	return err
}

// SetSettings changes the named settings (key → value as Settings.Values shows
// them) of a project in one transaction; only a lead of the project may. A key
// group.NAME sets the verifier group of account NAME, a member of the project
// (groups are per account, for every project; see GroupSettings). Nothing changes unless every value is valid. It
// returns the changes made, each audited as "project.settings" with
// "key: old → new".
func (d *DB) SetSettings(ctx context.Context, actor bench.User, projectID int64, values map[string]string) ([]bench.SettingChange, error) {
	groups := map[string]string{}
	return d.changeSettings(ctx, actor, projectID, func(s *bench.Settings) error {
		var errs []error
		for _, k := range slices.Sorted(maps.Keys(values)) {
			if name, ok := strings.CutPrefix(k, "group."); ok {
				groups[name] = strings.TrimSpace(values[k])
				continue
			}
			if err := s.Set(k, values[k]); err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}, nil, groups)
}

// GroupSettings lists the verifier group of every verifier and lead among the
// members of project projectID as a group.NAME setting, by name; any member may
// read them. A group is the membership's: the same account may be in group A in
// one project and B in another.
func (d *DB) GroupSettings(ctx context.Context, actor bench.User, projectID int64) ([]bench.Setting, error) {
	us, err := d.Members(ctx, actor, projectID)
	if err != nil {
		return nil, fmt.Errorf("group settings: %w", err)
	}
	var out []bench.Setting
	for _, u := range us {
		if verify.Permitted(verify.ActionReview, verify.Role(u.Role)) {
			out = append(out, bench.Setting{Key: "group." + u.Name, Value: u.Group,
				Help: "verifier group of " + u.Name + " (round 2 may have to come from another group than round 1)"})
		}
	}
	return out, nil
}

// setGroups applies group.NAME changes inside a settings transaction.
func setGroups(ctx context.Context, tx *sql.Tx, projectID int64, groups map[string]string) ([]bench.SettingChange, error) {
	var out []bench.SettingChange
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		g, err := canonicalGroup(ctx, tx, groups[name])
		if errors.Is(err, verify.ErrInvalidPolicy) {
			errs = append(errs, bench.FieldErr("group."+name, "%v", err)) // the join below adds ErrInvalid
			continue
		}
		if err != nil {
			return nil, err
		}
		u, err := userByName(ctx, tx, name)
		in := false
		if err == nil {
			u, in, err = membership(ctx, tx, u, projectID)
		}
		if errors.Is(err, bench.ErrNotFound) || err == nil && !in {
			// An account of other projects only is named as one that does not exist.
			errs = append(errs, bench.FieldErr("group."+name, "the project has no member named %q", name))
			continue
		}
		if err != nil {
			return nil, err
		}
		if !verify.Permitted(verify.ActionReview, verify.Role(u.Role)) {
			errs = append(errs, bench.FieldErr("group."+name, "%s is %s; groups are for verifiers and leads", name, bench.RoleWithArticle(u.Role)))
			continue
		}
		if u.Group == g {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE project_members SET grp = ? WHERE project_id = ? AND user_id = ?`, g, projectID, u.ID); err != nil {
			return nil, err
		}
		out = append(out, bench.SettingChange{Key: "group." + name, Old: u.Group, New: g})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%w: %w", bench.ErrInvalid, err)
	}
	return out, nil
}

// changeSettings applies edit to the stored settings (or replaces them with whole),
// validates, stores and audits the change.
func (d *DB) changeSettings(ctx context.Context, actor bench.User, projectID int64, edit func(*bench.Settings) error, whole *bench.Settings, groups map[string]string) ([]bench.SettingChange, error) {
	var changes []bench.SettingChange
	err := d.act(ctx, actor, "project.settings", func(tx *sql.Tx) error {
		a, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionChangeSettings)
		if err != nil {
			return err
		}
		p, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		s := p.Settings
		s.Balance = slices.Clone(s.Balance)
		if whole != nil {
			s = *whole
		}
		editErr := edit(&s)
		grouped, groupErr := setGroups(ctx, tx, projectID, groups)
		// Every value refused at once: one save shows all that is to fix.
		if err := errors.Join(editErr, groupErr, s.Validate()); err != nil {
			return bench.SettingsErrorOf(err)
		}
		changes = append(bench.DiffSettings(p.Settings, s), grouped...)
		js, _ := json.Marshal(s)
		if _, err := tx.ExecContext(ctx, `UPDATE projects SET settings = ? WHERE id = ?`, string(js), projectID); err != nil {
			return err
		}
		if s.Round3Panel != p.Settings.Round3Panel {
			// Which round-3 votes count depends on the panel size: decide them again
			// now, so that the dashboard's next read needs no write.
			if _, _, err := d.statsPolicy(ctx, tx, projectID); err != nil {
				return err
			}
		}
		for _, c := range changes {
			if err := d.audit(ctx, tx, a.ID, "project.settings", "project", p.Name, fmt.Sprintf("%s: %s → %s", c.Key, c.Old, c.New)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("change settings: %w", err)
	}
	return changes, nil
}

// projectByID reads a project inside a transaction.
func projectByID(ctx context.Context, tx *sql.Tx, id int64) (bench.Project, error) {
	var p bench.Project
	err := readRow(ctx, tx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE id = ?`, []any{id}, func(r scanner) (err error) {
		p, err = scanProject(r)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return bench.Project{}, fmt.Errorf("project %d: %w", id, bench.ErrNotFound)
	}
	return p, err
}

// withLRRWeights fills opt.LRRWeights, when nil, with the task weights of the
// project's settings: how lrr_score weighs a project's tasks is the lead's choice.
func withLRRWeights(ctx context.Context, tx *sql.Tx, projectID int64, opt score.Options) (score.Options, error) {
	if opt.LRRWeights != nil {
		return opt, nil
	}
	p, err := projectByID(ctx, tx, projectID)
	if err != nil {
		return opt, err
	}
	opt.LRRWeights = p.Settings.LRRWeights
	return opt, nil
}

// projectImageLimits are a project's image limits, for annotate.LintEnv; none
// when the project cannot be read (the caller's own reads report that).
func projectImageLimits(ctx context.Context, tx *sql.Tx, projectID int64) []annotate.ImageLimit {
	p, err := projectByID(ctx, tx, projectID)
	if err != nil {
		return nil
	}
	return p.Settings.ImageLimits
}

// projectPolicy is the verification policy of a project's settings.
func projectPolicy(ctx context.Context, tx *sql.Tx, projectID int64) (verify.Policy, error) {
	p, err := projectByID(ctx, tx, projectID)
	if err != nil {
		return verify.Policy{}, err
	}
	return p.Settings.Policy(), nil
}

// ProjectHistory lists a project's own audit events, oldest first: its creation,
// every settings change with old and new value, its members' refused attempts to
// change settings (a refusal does not record the project: another project's
// people's attempts stay out), changes of its members. Any member may read it.
func (d *DB) ProjectHistory(ctx context.Context, actor bench.User, projectID int64) ([]bench.Event, error) {
	var out []bench.Event
	err := d.readAs(ctx, actor, "project.history", func(tx *sql.Tx) error {
		if _, err := requireProjectAction(ctx, tx, actor, projectID, verify.ActionReadSamples); err != nil {
			return err
		}
		p, err := projectByID(ctx, tx, projectID)
		if err != nil {
			return err
		}
		out, err = queryAll(ctx, tx, func(r scanner) (bench.Event, error) {
			var e bench.Event
			return e, r.Scan(&e.At, &e.Actor, &e.Action, &e.Detail, &e.Client)
		}, `SELECT l.at, COALESCE(u.name, ''), l.action, l.detail, l.client FROM audit_log l LEFT JOIN users u ON u.id = l.actor_id
			WHERE (l.entity = 'project' AND l.entity_id = ?) OR l.action = 'denied:project.settings'
				AND EXISTS (SELECT 1 FROM project_members m WHERE m.user_id = l.actor_id AND m.project_id = ?) ORDER BY l.id`, p.Name, p.ID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("history of project %d: %w", projectID, err)
	}
	return out, nil
}
