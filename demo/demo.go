// Package demo seeds the demo project that the GUI opens on first start, that
// `bwctl demo` writes and that the UI tests start from: its accounts (DemoAccounts,
// all with DemoPassword), its bundled scene images and twelve samples driven through
// the real workflow — store's public API, the same calls a person's clicks make —
// until every state of the protocol has a sample.
package demo

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// The demo project's name and its accounts' shared password (documented in the README).
const (
	DemoProject  = "demo"
	DemoPassword = "demo"
)

// DemoAccounts are the demo project's users: one lead, two annotators and six
// verifiers in three groups.
var DemoAccounts = []bench.User{
	{Name: "lead", Role: bench.RoleLead},
	{Name: "ann1", Role: bench.RoleAnnotator}, {Name: "ann2", Role: bench.RoleAnnotator},
	{Name: "ver1", Role: bench.RoleVerifier, Group: "A"}, {Name: "ver2", Role: bench.RoleVerifier, Group: "A"},
	{Name: "ver3", Role: bench.RoleVerifier, Group: "B"}, {Name: "ver4", Role: bench.RoleVerifier, Group: "B"},
	{Name: "ver5", Role: bench.RoleVerifier, Group: "C"}, {Name: "ver6", Role: bench.RoleVerifier, Group: "C"},
}

// plan says where each demo sample ends up, so the demo shows every state.
var plan = map[string]verify.State{
	"demo-hq-001": verify.StateAccepted, "demo-hq-002": verify.StateRound3, "demo-hq-003": verify.StateRound2,
	"demo-hq-004": verify.StateRound1, "demo-hq-005": verify.StateDraft, "demo-hq-006": verify.StateReturned,
	"demo-hq-007": verify.StateRound1, "demo-sg-001": verify.StateAccepted, "demo-sg-002": verify.StateRound1,
	"demo-yn-001": verify.StateAccepted, "demo-mc-001": verify.StateRound2, "demo-op-001": verify.StateWithdrawn,
}

// Seed fills an empty database with the demo project: the accounts, the images of
// files' images/ folder (copied into imageDir and imported from there) and the
// records of samples.jsonl, driven through the real workflow to the states of the
// plan. A database that has accounts already is refused with bench.ErrConflict.
func Seed(ctx context.Context, d *store.DB, files fs.FS, imageDir string) error {
	if has, err := d.HasUsers(ctx); err != nil {
		return err
	} else if has {
		return fmt.Errorf("demo: %w: the database has accounts already; use an empty file", bench.ErrConflict)
	}
	accounts, err := d.CreateDemoAccounts(ctx, DemoAccounts, DemoPassword)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	users := map[string]bench.User{}
	for _, u := range accounts {
		users[u.Name] = u
	}
	lead := users["lead"]
	p, err := d.CreateProject(ctx, lead, DemoProject)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	for _, u := range accounts[1:] { // the accounts came before the project: each joins it
		if err := d.AddMember(ctx, lead, p.ID, u.Name); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	if err := copyTree(files, "images", imageDir); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if res, err := d.ImportImages(ctx, lead, p.ID, imageDir, nil); err != nil {
		return fmt.Errorf("demo: %w", err)
	} else if len(res.Rejected) > 0 {
		return fmt.Errorf("demo: image %s rejected: %s", res.Rejected[0].RelPath, res.Rejected[0].Reason)
	}
	raw, err := fs.ReadFile(files, "samples.jsonl")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	var samples []annotate.Sample
	err = annotate.ReadJSONL(bytes.NewReader(raw), func(line int, rec []byte) error {
		s, findings := annotate.ParseRecord(rec)
		if annotate.HasErrors(findings) {
			return fmt.Errorf("samples.jsonl line %d: %s: %s", line, findings[0].Rule, findings[0].Message)
		}
		samples = append(samples, s)
		return nil
	})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	for i, s := range samples {
		author := users[[]string{"ann1", "ann2"}[i%2]]
		if err := drive(ctx, d, p.ID, s, author, users, plan[s.ID]); err != nil {
			return fmt.Errorf("demo sample %s: %w", s.ID, err)
		}
	}
	return nil
}

// drive creates s by author and moves it through the protocol to target.
func drive(ctx context.Context, d *store.DB, projectID int64, s annotate.Sample, author bench.User, users map[string]bench.User, target verify.State) error {
	si, err := d.CreateSample(ctx, author, projectID, s)
	if err != nil || target == verify.StateDraft {
		return err
	}
	if si, err = d.Submit(ctx, author, si.ID, si.Version, nil); err != nil {
		return err
	}
	if target == verify.StateWithdrawn {
		return d.Withdraw(ctx, users["lead"], si.ID, "demo: kept out of the release")
	}
	if target == verify.StateReturned {
		reject := verify.Verdict{Decision: verify.DecisionReject, Judgements: map[string]bool{"box_on_answer": false},
			Comment: "The box is on the lemon, but the answer is the pan."}
		_, err := d.SubmitReview(ctx, users["ver2"], bench.ReviewInput{SampleID: si.ID, Round: 1, BasedOn: si.Revision, Verdict: reject, Seconds: 41})
		return err
	}
	// Approvals in order: round 1, round 2, then the three round-3 panel members.
	// A sample left in round 3 keeps one vote cast and two seats open.
	reviews := []struct {
		round    int
		verifier string
	}{{1, "ver1"}, {2, "ver3"}, {3, "ver5"}, {3, "ver2"}, {3, "ver4"}}
	n := map[verify.State]int{verify.StateRound1: 0, verify.StateRound2: 1, verify.StateRound3: 3, verify.StateAccepted: 5}[target]
	for i, r := range reviews[:n] {
		if _, err := d.SubmitReview(ctx, users[r.verifier], bench.ReviewInput{SampleID: si.ID, Round: r.round, BasedOn: si.Revision,
			Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(s.Kind, r.round)}, Seconds: float64(20 + 7*i)}); err != nil {
			return err
		}
	}
	return nil
}

// copyTree copies dir of files into dst on disk, overwriting files of the same name.
func copyTree(files fs.FS, dir, dst string) error {
	return fs.WalkDir(files, dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out := filepath.Join(dst, rel)
		if e.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
}
