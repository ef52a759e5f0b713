package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/benchwright/benchwright/verify"
	"strings"
)

// Project is one benchmark under construction.
type Project struct {
	ID        int64
	Name      string
	Settings  Settings
	CreatedBy int64
	CreatedAt string
	// Role and Group are those of the user who read the project (Projects,
	// ProjectByName) as its member: roles are per project. Empty for Owner.
	Role  string
	Group string
}

func validProjectName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%w: project name is empty", ErrInvalid)
	}
	if len(name) > 80 || strings.ContainsAny(name, "/\\@\n\t") {
		return fmt.Errorf("%w: project name %q must be at most 80 characters without / \\ @ or line breaks", ErrInvalid, name)
	}
	return nil
}

// CreateProject creates a project with default settings; only a lead may, and
// becomes its first member.
func (d *DB) CreateProject(ctx context.Context, actor User, name string) (Project, error) {
	var p Project
	err := d.act(ctx, actor, "project.create", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionCreateProject)
		if err != nil {
			return err
		}
		if err := validProjectName(name); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM projects WHERE name = ?`, name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: a project named %q exists already", ErrConflict, name)
		}
		p = Project{Name: name, Settings: DefaultSettings(), CreatedBy: a.ID, CreatedAt: d.now(), Role: RoleLead} // its creator leads it
		js, _ := json.Marshal(p.Settings)
		err = tx.QueryRowContext(ctx, `INSERT INTO projects (name, settings, created_by, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
			p.Name, string(js), p.CreatedBy, p.CreatedAt).Scan(&p.ID)
		if err != nil {
			return err
		}
		// The summaries' round-3 decisions start under the default panel, so the
		// dashboard's first read finds them current and needs no write.
		if err := setStatsPolicy(ctx, tx, p.ID, p.Settings.Policy()); err != nil {
			return err
		}
		if err := d.joinProject(ctx, tx, p.ID, User{ID: a.ID, Role: RoleLead}, 0); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "project.create", "project", name, "")
	})
	if err != nil {
		return Project{}, fmt.Errorf("create project %q: %w", name, err)
	}
	return p, nil
}

// Projects lists by name the projects actor is a member of (Owner: every
// project).
func (d *DB) Projects(ctx context.Context, actor User) ([]Project, error) {
	var ps []Project
	err := d.readAs(ctx, actor, "project.read", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionReadProject)
		if err != nil {
			return err
		}
		q, args := `SELECT id, name, settings, created_by, created_at FROM projects p`, []any(nil)
		if !a.owner {
			q, args = q+` WHERE `+memberProjects("p.id"), []any{a.ID}
		}
		if ps, err = queryAll(ctx, tx, scanProject, q+` ORDER BY name`, args...); err != nil || a.owner {
			return err
		}
		for i := range ps {
			m, _, err := membership(ctx, tx, a, ps[i].ID)
			if err != nil {
				return err
			}
			ps[i].Role, ps[i].Group = m.Role, m.Group
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	return ps, nil
}

// ProjectByName looks a project up by name: one that does not exist is
// ErrNotFound, one actor is not a member of ErrForbidden (audited).
func (d *DB) ProjectByName(ctx context.Context, actor User, name string) (Project, error) {
	var p Project
	err := d.readAs(ctx, actor, "project.read", func(tx *sql.Tx) error {
		var err error
		p, err = scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE name = ?`, name))
		if errors.Is(err, sql.ErrNoRows) {
			if _, err := requireAction(ctx, tx, actor, verify.ActionReadProject); err != nil {
				return err
			}
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		m, err := requireIn(ctx, tx, actor, p.ID, fmt.Sprintf("project %q", p.Name), verify.ActionReadProject)
		if !m.owner {
			p.Role, p.Group = m.Role, m.Group
		}
		return err
	})
	if err != nil {
		return Project{}, fmt.Errorf("project %q: %w", name, err)
	}
	return p, nil
}

type scanner interface{ Scan(dest ...any) error }

func scanProject(r scanner) (Project, error) {
	var p Project
	var settings string
	if err := r.Scan(&p.ID, &p.Name, &settings, &p.CreatedBy, &p.CreatedAt); err != nil {
		return Project{}, err
	}
	p.Settings = DefaultSettings()
	// A stored balance list replaces the default one whole: decoding it over the
	// default slice would reuse its elements and keep their hop and view.
	p.Settings.Balance = nil
	if err := json.Unmarshal([]byte(settings), &p.Settings); err != nil {
		return Project{}, fmt.Errorf("project %s settings: %w", p.Name, err)
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal([]byte(settings), &keys) == nil {
		if _, stored := keys["balance"]; !stored { // never set: the defaults
			p.Settings.Balance = DefaultSettings().Balance
		}
	}
	return p, nil
}
