package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

func TestGenProject(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "new", "synth.db") // created, with its folder
	imgs := filepath.Join(dir, "imgs")
	real := initDB(t) // a project and its lead: real work
	gen := func(extra ...string) []string {
		return append([]string{"gen-project", "--db", db, "--project", "big", "--samples", "60", "--images", "5", "--large", "-1", "--seed", "3", "-q"}, extra...)
	}
	runCases(t, []cliCase{
		{name: "help says testing aid", args: []string{"gen-project", "-h"}, code: 0, wantErr: []string{"testing aid", "BENCHWRIGHT_PASSWORD", "-samples"}},
		{name: "listed as testing aid", args: []string{"help"}, code: 0, wantErr: []string{"gen-project", "testing aid"}},
		{name: "missing password", args: gen(), code: 2, wantErr: []string{"set BENCHWRIGHT_PASSWORD"}, emptyOut: true},
		{name: "missing --project", env: pw("secret"), args: []string{"gen-project", "--db", db}, code: 2, wantErr: []string{"--project is required"}, emptyOut: true},
		{name: "no images", env: pw("secret"), args: []string{"gen-project", "--db", db, "--project", "x", "--images", "0"}, code: 2, wantErr: []string{"--images at least 1"}},
		{name: "missing --db", env: pw("secret"), args: []string{"gen-project", "--project", "x"}, code: 2, wantErr: []string{"--db DB is required"}},
		{name: "generate", env: pw("secret"), args: gen("--image-dir", imgs), code: 0,
			wantOut: []string{`generated project "big"`, "5 images in " + imgs, "60 samples", "draft ", "accepted ", "withdrawn "}, emptyStErr: true, outLines: 1},
		{name: "existing project", env: pw("secret"), args: gen(), code: 1, wantErr: []string{"exists already"}, emptyOut: true},
		{name: "wrong lead password", env: pw("nope"), args: []string{"gen-project", "--db", db, "--project", "other", "--images", "1", "-q"},
			code: 1, wantErr: []string{"Wrong user name or password"}, emptyOut: true},
		{name: "projects lists it", args: []string{"projects", "--db", db}, code: 0, wantOut: []string{"big\t5 images"}},
		{name: "real database refused", env: pw("secret"), args: []string{"gen-project", "--db", real, "--project", "synthetic", "--images", "1", "-q"},
			code: 1, wantErr: []string{"this database holds real work (1 account, 1 project)"}, emptyOut: true},
		{name: "real database unchanged", args: []string{"projects", "--db", real}, code: 0, wantOut: []string{"p1\t0 images"}, notOut: []string{"synthetic"}},
	})

	ctx := context.Background()
	s := openStore(t, db)
	p, err := s.ProjectByName(ctx, bench.Owner(), "big")
	if err != nil {
		t.Fatal(err)
	}
	counts, err := s.StatusCounts(ctx, bench.Owner(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, st := range verify.States {
		if counts[st] == 0 {
			t.Errorf("no sample in state %s", st)
		}
		total += counts[st]
	}
	if total != 60 {
		t.Errorf("%d samples, want 60", total)
	}
	for _, name := range []string{"lead", "ann1", "ver9"} {
		if _, err := s.Authenticate(ctx, name, "secret"); err != nil {
			t.Errorf("%s cannot sign in with BENCHWRIGHT_PASSWORD: %v", name, err)
		}
	}
}
