package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/release"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// biasedRelease freezes bench@1: 24 questions of task "longest", whose answer
// is always the one long option (at every letter in turn), and 24 of task
// "clean", whose answer is every option and every letter alike.
func biasedRelease(t *testing.T) relFixture {
	t.Helper()
	f := newRelFixture(t)
	f.setBalance(t)
	paths := make([]string, 0, len(relImages))
	for p := range relImages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	names := []string{"the mug", "the lamp", "the book", "the pen"}
	for i := range 24 {
		opts := append(slices.Clone(names[i%4:]), names[:i%4]...)
		long := (i / 4) % 4
		opts[long] += " on the far side of the room"
		f.accept(t, annotate.Sample{ID: fmt.Sprintf("longest-%02d", i), Kind: annotate.KindMCQ, Task: "longest", Image: paths[i%len(paths)],
			Question: fmt.Sprintf("Which object is nearest to the window in shot %d?", i), Options: opts, AnswerIndex: long})
		f.accept(t, annotate.Sample{ID: fmt.Sprintf("clean-%02d", i), Kind: annotate.KindMCQ, Task: "clean", Image: paths[i%len(paths)],
			Question: fmt.Sprintf("Which object is nearest to the door in shot %d?", i),
			Options:  append(slices.Clone(names[i%4:]), names[:i%4]...), AnswerIndex: (i / 4) % 4})
	}
	if _, err := f.db.Freeze(context.Background(), f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "bench", Version: "1"}); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDebiasedSubsetProposeDecideFreeze: the pruning proposal of a frozen
// release becomes a debiased subset's candidates (the biased task's samples,
// none of the clean task's, each with its shortcuts and bias score); the lead's
// drops leave the frozen subset, which holds every other sample of the parent at
// the parent's revision, and its MANIFEST records what was pruned, why and with
// which settings.
func TestDebiasedSubsetProposeDecideFreeze(t *testing.T) {
	ctx := context.Background()
	f := biasedRelease(t)

	for _, u := range []bench.User{f.ann, f.ver} {
		if _, err := f.db.ProposeDebiasedSubset(ctx, u, "bench@1", bench.DebiasInput{}); !errors.Is(err, bench.ErrForbidden) {
			t.Errorf("%s proposes: %v", u.Name, err)
		}
	}
	for name, in := range map[string]bench.DebiasInput{
		"margin of 100 points": {Margin: 1},
		"negative margin":      {Margin: -0.1},
		"one fold":             {Folds: 1},
		"negative seed":        {Seed: -1},
	} {
		if _, err := f.db.ProposeDebiasedSubset(ctx, f.lead, "bench@1", in); !errors.Is(err, bench.ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
	h, err := f.db.ProposeDebiasedSubset(ctx, f.lead, "bench@1", bench.DebiasInput{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h.Kind != bench.SubsetDebiased || h.Margin != 0.10 || h.Folds != 5 || h.Seed != 1 || h.Pool != 48 || h.Candidates != 24 ||
		h.K != 0 || h.Target != 0 || len(h.Models) != 0 || !h.Done || h.Frozen != "" {
		t.Errorf("subset %+v", h)
	}
	tasks := map[string]bench.DebiasTask{}
	for _, o := range h.Tasks {
		tasks[o.Task] = o
	}
	if o := tasks["longest"]; o.N != 24 || o.Before != 1 || o.Left != 0 || o.Chance != 0.25 {
		t.Errorf("longest: %+v", o)
	}
	if o := tasks["clean"]; o.N != 24 || o.Left != 24 || o.After-o.Chance >= 0.10 {
		t.Errorf("clean: %+v", o)
	}
	_, cs, err := f.db.HardCandidates(ctx, f.lead, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 24 {
		t.Fatalf("%d candidates, want the 24 of task longest", len(cs))
	}
	for _, c := range cs {
		if !strings.HasPrefix(c.SampleID, "longest-") || c.Category != "longest" || c.Bias <= 0.25 || c.Bias > 1 || c.Round < 1 ||
			!slices.Equal(c.Shortcuts, []string{shortcut.CheckTextBaseline, shortcut.CheckOptionLength}) || c.FailedBy != nil {
			t.Errorf("candidate %+v", c)
		}
	}
	// The same settings again are the same list; another margin is another.
	if _, err := f.db.ProposeDebiasedSubset(ctx, f.lead, "bench@1", bench.DebiasInput{Margin: 0.1, Folds: 5, Seed: 1}); !errors.Is(err, bench.ErrConflict) {
		t.Errorf("the same list again: %v", err)
	}
	h2, err := f.db.ProposeDebiasedSubset(ctx, f.lead, "bench@1", bench.DebiasInput{Margin: 0.125, Seed: 1})
	if err != nil || h2.Margin != 0.125 || h2.ID == h.ID {
		t.Errorf("another margin: %+v, %v", h2, err)
	}

	var ds []bench.HardDecision
	for _, c := range cs {
		ds = append(ds, bench.HardDecision{SampleID: c.SampleID, Decision: bench.DecisionDrop, Reason: "answered from the text alone"})
	}
	ds[0] = bench.HardDecision{SampleID: cs[0].SampleID, Decision: bench.DecisionKeep, Reason: "checked: needs the image"}
	if _, err := f.db.FreezeHardSubset(ctx, f.lead, h.ID, "bench-debiased", "1"); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a freeze with undecided candidates: %v", err)
	}
	keepAll := make([]bench.HardDecision, len(cs))
	for i, c := range cs {
		keepAll[i] = bench.HardDecision{SampleID: c.SampleID, Decision: bench.DecisionKeep}
	}
	if _, err := f.db.DecideHardCandidates(ctx, f.lead, h.ID, keepAll); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.FreezeHardSubset(ctx, f.lead, h.ID, "bench-debiased", "1"); !errors.Is(err, bench.ErrInvalid) {
		t.Errorf("a freeze that removes nothing: %v", err)
	}
	if h, err = f.db.DecideHardCandidates(ctx, f.lead, h.ID, ds); err != nil {
		t.Fatal(err)
	}
	if h.Kept != 1 || h.Dropped != 23 {
		t.Errorf("after deciding: %+v", h)
	}
	rel, err := f.db.FreezeHardSubset(ctx, f.lead, h.ID, "bench-debiased", "1")
	if err != nil {
		t.Fatal(err)
	}
	if rel.Samples != 25 {
		t.Errorf("frozen %d samples, want 24 clean + 1 kept", rel.Samples)
	}
	parent, _ := f.db.ReleaseByRef(ctx, bench.Owner(), f.project.ID, "bench@1")
	pItems, _ := f.db.ReleaseItems(ctx, bench.Owner(), parent.ID)
	items, _ := f.db.ReleaseItems(ctx, bench.Owner(), rel.ID)
	var got []string
	for _, it := range items {
		got = append(got, it.SampleID)
		for _, p := range pItems {
			if p.SampleID == it.SampleID && (p.RevisionID != it.RevisionID || p.ImageSHA256 != it.ImageSHA256 || p.Split != it.Split) {
				t.Errorf("%s: frozen %+v, parent froze %+v", it.SampleID, it, p)
			}
		}
	}
	want := []string{cs[0].SampleID}
	for i := range 24 {
		want = append(want, fmt.Sprintf("clean-%02d", i))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("frozen samples %v, want %v", got, want)
	}
	list, err := f.db.HardSubsets(ctx, f.lead, "bench@1")
	if err != nil || len(list) != 2 || list[1].Frozen != "bench-debiased@1" || list[1].Kind != bench.SubsetDebiased {
		t.Errorf("list %+v, %v", list, err)
	}

	out := filepath.Join(t.TempDir(), "debiased")
	if _, err := f.db.Export(ctx, f.lead, bench.ExportInput{Release: "bench-debiased@1", ProjectID: f.project.ID, Format: "native", OutDir: out}, nil); err != nil {
		t.Fatal(err)
	}
	m, err := release.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Release.Curation
	if c == nil {
		t.Fatal("the manifest records no curation")
	}
	if c.Method != "debiased" || c.Parent != "bench@1" || c.Margin != 0.10 || c.Folds != 5 || c.Seed != 1 || c.Pool != 48 ||
		c.Candidates != 24 || c.Kept != 1 || !c.Done || len(c.Tasks) != 2 || m.Counts.Samples != 25 || c.K != 0 || c.Models != nil {
		t.Errorf("curation %+v", c)
	}
	for _, d := range c.Decisions {
		if d.Bias == nil || *d.Bias <= 0.25 || d.Round < 1 || len(d.Shortcuts) != 2 || d.Category != "longest" {
			t.Errorf("decision %+v", d)
		}
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["hard.propose"] != 2 || counts["denied:hard.propose"] != 2 {
		t.Errorf("audit %v", counts)
	}
}

// TestMigration32KeepsHardSubsets: a hard subset made before migration 32 (its
// columns dropped, the version set back) is a hard subset after it, listed and
// read as before, and a debiased subset can then be proposed beside it.
func TestMigration32KeepsHardSubsets(t *testing.T) {
	storetest.SkipOnPostgres(t, "SQLite's part of the migration")
	ctx := context.Background()
	f := scoreRelease(t)
	threeModels(t, f)
	h, err := f.db.ProposeHardSubset(ctx, f.lead, "bench@1", bench.HardSubsetInput{K: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	path := f.db.Path()
	f.db.Close()
	raw := relRaw(t, path)
	for _, q := range []string{`ALTER TABLE hard_subsets DROP COLUMN kind`, `ALTER TABLE hard_subsets DROP COLUMN pruning`,
		`ALTER TABLE hard_candidates DROP COLUMN bias`, `ALTER TABLE hard_candidates DROP COLUMN prune_round`, `PRAGMA user_version = 31`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, cs, err := db.HardCandidates(ctx, f.lead, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Kind != bench.SubsetHard || got.K != 2 || got.N != 3 || len(cs) != 3 || len(cs[0].FailedBy) != 2 || cs[0].Shortcuts != nil {
		t.Errorf("after the migration: %+v %+v", got, cs)
	}
}
