package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/verify"
)

func TestAugment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	if code, out, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: %d %s %s", code, out, errOut)
	}
	demoPW := pw(demo.DemoPassword)
	record := `"question":"Place the laptop on the book","steps":[{"id":"step1","content":"Pick up the book","precondition":[]},`
	runCases(t, []cliCase{
		{name: "bad transform", env: demoPW, args: []string{"augment", "--db", db, "--as", "ann1", "--transform", "both"}, code: 2,
			wantErr: []string{`unknown transform "both"`}, emptyOut: true},
		{name: "stray argument", env: demoPW, args: []string{"augment", "--db", db, "--as", "ann1", "x"}, code: 2,
			wantErr: []string{augmentUsage}, emptyOut: true},
		{name: "a verifier is refused", env: demoPW, args: []string{"augment", "--db", db, "--as", "ver1", "--dry-run"}, code: 1,
			wantErr: []string{"only annotators or leads may derive samples from accepted step graphs"}, emptyOut: true},
		{name: "dry run prints native records with parent and transform", env: demoPW,
			args: []string{"augment", "--db", db, "--project", "demo", "--as", "ann1", "--dry-run"}, code: 0, outLines: 1,
			wantOut: []string{`{"kind":"step_graph","image":"0001-office-1/img_001.jpg","scene":"0001-office-1",`, record,
				`{"id":"step4","content":"Place the laptop on the book","precondition":["step2","step3"]}]`, `"parent":"demo-sg-001","transform":"expand"}`},
			notOut: []string{`"id":"demo-`}, wantErr: []string{"1 candidates, 1 printed, 0 left", "nothing accepted"}},
		{name: "no subgraph of a two-step graph", env: demoPW,
			args: []string{"augment", "--db", db, "--as", "ann1", "--transform", "subgraph", "--dry-run"}, code: 0, emptyOut: true,
			wantErr: []string{"0 candidates"}},
		{name: "accept", env: demoPW, args: []string{"augment", "--db", db, "--as", "ann1"}, code: 0, outLines: 1,
			wantOut: []string{"\tdraft\tdemo-sg-001 r1 expand:step1\tPlace the laptop on the book\n"},
			wantErr: []string{"1 candidates: 1 accepted (1 drafts of ann1, 0 into round 1), 0 refused, 0 left"}},
		{name: "an accepted candidate is not offered again", env: demoPW,
			args: []string{"augment", "--db", db, "--as", "lead", "--dry-run"}, code: 0, emptyOut: true, wantErr: []string{"0 candidates"}},
	})

	// The dry run's record reads back as the sample that was accepted.
	s := openStore(t, db)
	ctx := context.Background()
	p, err := s.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	ann1, err := s.Authenticate(ctx, "ann1", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	drafts, err := s.Samples(ctx, bench.Owner(), p.ID, bench.SampleFilter{AuthorID: ann1.ID, Status: verify.StateDraft}, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var found int
	for _, si := range drafts {
		if si.Content.Parent == "demo-sg-001" {
			found++
			b, _ := si.Content.MarshalJSON()
			if !strings.Contains(string(b), record) || si.Content.Transform != "expand" {
				t.Errorf("accepted %s", b)
			}
			if fs := annotate.Lint(si.Content, annotate.LintEnv{}); annotate.HasErrors(fs) {
				t.Errorf("accepted sample has lint errors: %v", fs)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d drafts derived from demo-sg-001, want 1", found)
	}
}
