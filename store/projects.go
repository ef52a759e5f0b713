package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

func validProjectName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%w: project name is empty", bench.ErrInvalid)
	}
	if len(name) > 80 || strings.ContainsAny(name, "/\\@\n\t") {
		return fmt.Errorf("%w: project name %q must be at most 80 characters without / \\ @ or line breaks", bench.ErrInvalid, name)
	}
	return nil
}

// CreateProject creates a project with default settings; only a lead may, and
// becomes its first member.
func (d *DB) CreateProject(ctx context.Context, actor bench.User, name string) (bench.Project, error) {
	var p bench.Project
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
			return fmt.Errorf("%w: a project named %q exists already", bench.ErrConflict, name)
		}
		p = bench.Project{Name: name, Settings: bench.DefaultSettings(), CreatedBy: a.ID, CreatedAt: d.now(), Role: bench.RoleLead} // its creator leads it
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
		if err := d.joinProject(ctx, tx, p.ID, bench.User{ID: a.ID, Role: bench.RoleLead}, 0); err != nil {
			return err
		}
		return d.audit(ctx, tx, a.ID, "project.create", "project", name, "")
	})
	if err != nil {
		return bench.Project{}, fmt.Errorf("create project %q: %w", name, err)
	}
	return p, nil
}

// Projects lists by name the projects actor is a member of (Owner: every
// project).
func (d *DB) Projects(ctx context.Context, actor bench.User) ([]bench.Project, error) {
	var ps []bench.Project
	err := d.readAs(ctx, actor, "project.read", func(tx *sql.Tx) error {
		a, err := requireAction(ctx, tx, actor, verify.ActionReadProject)
		if err != nil {
			return err
		}
		q, args := `SELECT id, name, settings, created_by, created_at FROM projects p`, []any(nil)
		if !a.IsOwner() {
			q, args = q+` WHERE `+memberProjects("p.id"), []any{a.ID}
		}
		if ps, err = queryAll(ctx, tx, scanProject, q+` ORDER BY name`, args...); err != nil || a.IsOwner() {
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
func (d *DB) ProjectByName(ctx context.Context, actor bench.User, name string) (bench.Project, error) {
	var p bench.Project
	err := d.readAs(ctx, actor, "project.read", func(tx *sql.Tx) error {
		var err error
		p, err = scanProject(tx.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE name = ?`, name))
		if errors.Is(err, sql.ErrNoRows) {
			if _, err := requireAction(ctx, tx, actor, verify.ActionReadProject); err != nil {
				return err
			}
			return bench.ErrNotFound
		}
		if err != nil {
			return err
		}
		m, err := requireIn(ctx, tx, actor, p.ID, fmt.Sprintf("project %q", p.Name), verify.ActionReadProject)
		if !m.IsOwner() {
			p.Role, p.Group = m.Role, m.Group
		}
		return err
	})
	if err != nil {
		return bench.Project{}, fmt.Errorf("project %q: %w", name, err)
	}
	return p, nil
}

type scanner interface{ Scan(dest ...any) error }

func scanProject(r scanner) (bench.Project, error) {
	var p bench.Project
	var settings string
	if err := r.Scan(&p.ID, &p.Name, &settings, &p.CreatedBy, &p.CreatedAt); err != nil {
		return bench.Project{}, err
	}
	p.Settings = bench.DefaultSettings()
	// A stored balance list replaces the default one whole: decoding it over the
	// default slice would reuse its elements and keep their hop and view.
	p.Settings.Balance = nil
	if err := json.Unmarshal([]byte(settings), &p.Settings); err != nil {
		return bench.Project{}, fmt.Errorf("project %s settings: %w", p.Name, err)
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal([]byte(settings), &keys) == nil {
		if _, stored := keys["balance"]; !stored { // never set: the defaults
			p.Settings.Balance = bench.DefaultSettings().Balance
		}
	}
	return p, nil
}
