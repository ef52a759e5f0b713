package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Project is one benchmark under construction.
type Project struct {
	ID        int64
	Name      string
	Settings  Settings
	CreatedBy int64
	CreatedAt string
}

// Settings are a project's lead-chosen targets and policies.
type Settings struct {
	// Balance lists how many accepted samples each cell should reach.
	Balance []BalanceTarget `json:"balance"`
	// Round3Panel is the number of independent round-3 verifiers (seed protocol: 3).
	Round3Panel int `json:"round3_panel"`
	// Round3AllowEarlier lets a round-1/2 verifier of a revision sit on its round-3 panel.
	Round3AllowEarlier bool `json:"round3_allow_earlier"`
	// CorrectionToRound1 sends a verifier's correction back to round 1 (default true).
	CorrectionToRound1 bool `json:"correction_to_round1"`
	// ClaimMinutes is how long a verifier holds a claimed review slot.
	ClaimMinutes int `json:"claim_minutes"`
}

// BalanceTarget is one cell of the balance grid: samples of Kind with Hop and View (hop
// QA) or Task (other kinds) that should be accepted.
type BalanceTarget struct {
	Kind  string `json:"kind"`
	Hop   int    `json:"hop,omitempty"`
	View  string `json:"view,omitempty"`
	Task  string `json:"task,omitempty"`
	Count int    `json:"count"`
}

// DefaultSettings follow the seed protocol: MultihopSpatial's 4,500 = 1,500 per hop,
// 750 ego + 750 exo each, and a three-verifier unanimous round 3.
func DefaultSettings() Settings {
	s := Settings{Round3Panel: 3, CorrectionToRound1: true, ClaimMinutes: 30}
	for hop := 1; hop <= 3; hop++ {
		for _, v := range []string{"ego", "exo"} {
			s.Balance = append(s.Balance, BalanceTarget{Kind: "hop_qa", Hop: hop, View: v, Count: 750})
		}
	}
	return s
}

// Validate checks the settings' values.
func (s Settings) Validate() error {
	if s.Round3Panel < 1 || s.Round3Panel > 9 {
		return fmt.Errorf("%w: round3_panel must be 1–9, got %d", ErrInvalid, s.Round3Panel)
	}
	if s.ClaimMinutes < 1 {
		return fmt.Errorf("%w: claim_minutes must be at least 1, got %d", ErrInvalid, s.ClaimMinutes)
	}
	for i, b := range s.Balance {
		if b.Count < 0 {
			return fmt.Errorf("%w: balance[%d].count is negative", ErrInvalid, i)
		}
	}
	return nil
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

// CreateProject creates a project with default settings; only a lead may.
func (d *DB) CreateProject(ctx context.Context, actor User, name string) (Project, error) {
	var p Project
	err := d.act(ctx, actor, "project.create", func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "create projects", RoleLead)
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
		p = Project{Name: name, Settings: DefaultSettings(), CreatedBy: a.ID, CreatedAt: d.now()}
		js, _ := json.Marshal(p.Settings)
		res, err := tx.ExecContext(ctx, `INSERT INTO projects (name, settings, created_by, created_at) VALUES (?, ?, ?, ?)`,
			p.Name, string(js), p.CreatedBy, p.CreatedAt)
		if err != nil {
			return err
		}
		p.ID, _ = res.LastInsertId()
		return d.audit(ctx, tx, a.ID, "project.create", "project", name, "")
	})
	if err != nil {
		return Project{}, fmt.Errorf("create project %q: %w", name, err)
	}
	return p, nil
}

// UpdateSettings replaces a project's settings; only a lead may.
func (d *DB) UpdateSettings(ctx context.Context, actor User, projectID int64, s Settings) error {
	err := d.act(ctx, actor, "project.settings", func(tx *sql.Tx) error {
		a, err := requireRole(ctx, tx, actor, "change project settings", RoleLead)
		if err != nil {
			return err
		}
		if err := s.Validate(); err != nil {
			return err
		}
		js, _ := json.Marshal(s)
		res, err := tx.ExecContext(ctx, `UPDATE projects SET settings = ? WHERE id = ?`, string(js), projectID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: project %d", ErrNotFound, projectID)
		}
		return d.audit(ctx, tx, a.ID, "project.settings", "project", fmt.Sprint(projectID), string(js))
	})
	if err != nil {
		return fmt.Errorf("update settings: %w", err)
	}
	return nil
}

// Projects lists every project by name.
func (d *DB) Projects(ctx context.Context) ([]Project, error) {
	ps, err := queryAll(ctx, d.rdb, scanProject, `SELECT id, name, settings, created_by, created_at FROM projects ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	return ps, nil
}

// ProjectByName looks a project up by name.
func (d *DB) ProjectByName(ctx context.Context, name string) (Project, error) {
	p, err := scanProject(d.rdb.QueryRowContext(ctx, `SELECT id, name, settings, created_by, created_at FROM projects WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Project{}, fmt.Errorf("project %q: %w", name, ErrNotFound)
	}
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
