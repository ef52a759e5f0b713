package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"image/color"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

func stepSample(id, image string) annotate.Sample {
	return annotate.Sample{ID: id, Kind: annotate.KindStepGraph, Image: image, Scene: "0001-office-1", Question: "Pick up the laptop",
		Steps: []annotate.Step{{ID: "step1", Content: "Remove the book from the laptop"}, {ID: "step2", Content: "Pick up the laptop", Precondition: []string{"step1"}}}}
}

// importRecords is a file of records in every situation an import meets, one per
// odd line, and the outcome each must have.
func importRecords(img string) ([]annotate.Imported, map[string]string) {
	hop := func(id string) annotate.Sample { s := hopSample(img); s.ID = id; return s }
	lintBad := hop("imp-lint")
	lintBad.Options = []string{"the mug", "the mug"}
	unknownImage := hop("imp-noimage")
	unknownImage.Image = "0009-attic-1/missing.jpg"
	warned := hop("imp-warn")
	warned.Extra = map[string]json.RawMessage{"source": json.RawMessage(`"benchmark-x"`)}
	noID := hop("")
	recs := []annotate.Imported{
		{Line: 1, Sample: hop("imp-1")},
		{Line: 3, Sample: lintBad},
		{Line: 5, Sample: unknownImage},
		{Line: 7, Sample: hop("taken")},
		{Line: 9, Sample: hop("imp-1")}, // the file repeats an id
		{Line: 11, Sample: warned},
		{Line: 13, Sample: stepSample("imp-step", img)},
		{Line: 15, Sample: noID},
	}
	// line → "imported", "warned" or the skip reason and a word of its message.
	want := map[string]string{
		"1": "imported", "3": "lint errors|option-count|option-duplicate", "5": "unknown image|0009-attic-1/missing.jpg",
		"7": "id already exists|taken", "9": "id already exists|imp-1", "11": "warned|schema", "13": "imported",
		"15": "lint errors|schema|id is missing",
	}
	return recs, want
}

func TestImportSamplesAsDrafts(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	taken := hopSample(img)
	taken.ID = "taken"
	if _, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, taken); err != nil {
		t.Fatal(err)
	}
	recs, want := importRecords(img)
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Imported, []string{"imp-1", "imp-warn", "imp-step"}) {
		t.Errorf("imported %v", res.Imported)
	}
	got := map[string]string{}
	for _, p := range res.Skipped {
		got[strconv.Itoa(p.Line)] = string(p.Reason) + "|" + strings.Join(p.Rules, "|") + "|" + p.Message
	}
	for _, p := range res.Warnings {
		got[strconv.Itoa(p.Line)] = "warned|" + strings.Join(p.Rules, "|")
	}
	for line, w := range want {
		parts := strings.Split(w, "|")
		if parts[0] == "imported" {
			if g, ok := got[line]; ok {
				t.Errorf("line %s: reported %q, want a clean import", line, g)
			}
			continue
		}
		for _, part := range parts {
			if !strings.Contains(got[line], part) {
				t.Errorf("line %s: reported %q, want it to hold %q", line, got[line], part)
			}
		}
	}
	if len(res.Skipped) != 5 || len(res.Warnings) != 1 {
		t.Errorf("%d skipped, %d warned; want 5 and 1: %+v", len(res.Skipped), len(res.Warnings), res)
	}
	// The imported samples are the annotator's drafts, with their content; the taken
	// id still holds ann2's sample.
	for _, id := range res.Imported {
		si, err := f.db.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		if si.Status != verify.StateDraft || si.AuthorID != f.ann.ID || si.Revision != 0 || si.ImagePath != img {
			t.Errorf("%s: %s by %s revision %d image %q", id, si.Status, si.AuthorName, si.Revision, si.ImagePath)
		}
	}
	if si, _ := f.db.Sample(ctx, bench.Owner(), "imp-warn"); si.Content.Extra["source"] == nil {
		t.Error("the draft lost the field its warning is about")
	}
	if si, _ := f.db.Sample(ctx, bench.Owner(), "taken"); si.AuthorID != f.ann2.ID {
		t.Errorf("the existing sample was overwritten: author %s", si.AuthorName)
	}
	for _, id := range []string{"imp-lint", "imp-noimage"} {
		if _, err := f.db.Sample(ctx, bench.Owner(), id); !errors.Is(err, bench.ErrNotFound) {
			t.Errorf("skipped %s: got %v, want ErrNotFound", id, err)
		}
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["sample.import"] != 3 {
		t.Errorf("%d imports audited, want 3", counts["sample.import"])
	}
	// Importing the same file again imports nothing and says why.
	again, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, bench.ImportSamplesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exists := 0
	for _, p := range again.Skipped {
		if p.Reason == bench.SkipExists {
			exists++
		}
	}
	if len(again.Imported) != 0 || exists != 5 {
		t.Errorf("second import: %v imported, %d existing ids; want none and 5", again.Imported, exists)
	}
}

func TestImportSamplesToRound1(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	vs := addVerifiers(t, f, "a1")
	recs, _ := importRecords(img)
	res, err := f.db.ImportSamples(ctx, f.lead, f.project.ID, recs, bench.ImportSamplesOptions{Author: "ann", ToRound1: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Imported, []string{"imp-1", "taken", "imp-warn", "imp-step"}) {
		t.Fatalf("imported %v", res.Imported)
	}
	for _, id := range res.Imported {
		si, _ := f.db.Sample(ctx, bench.Owner(), id)
		if si.Status != verify.StateRound1 || si.Revision != 1 || si.AuthorID != f.ann.ID {
			t.Errorf("%s: %s revision %d by %s; want round1 revision 1 by ann", id, si.Status, si.Revision, si.AuthorName)
		}
		if !queueHas(t, f, vs["a1"], id) {
			t.Errorf("%s is not in a1's queue", id)
		}
	}
	// The warning was acknowledged by the import, and the history says so.
	events, _ := f.db.History(ctx, f.lead, "imp-warn")
	if !slices.ContainsFunc(events, func(e bench.Event) bool {
		return e.Action == "sample.import" && e.Actor == "lead" && strings.Contains(e.Detail, "lint warnings acknowledged: schema")
	}) {
		t.Errorf("history of imp-warn: %+v", events)
	}
	counts, _ := f.db.AuditCounts(ctx)
	if counts["sample.import"] != 4 || counts["revision.import"] != 4 {
		t.Errorf("audit %v; want 4 sample.import and 4 revision.import", counts)
	}
}

func TestImportSamplesRefusals(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	recs, _ := importRecords(img)
	tests := []struct {
		name    string
		who     bench.User
		project int64
		opt     bench.ImportSamplesOptions
		want    error
	}{
		{"verifier", f.ver, f.project.ID, bench.ImportSamplesOptions{}, bench.ErrForbidden},
		{"annotator into round 1", f.ann, f.project.ID, bench.ImportSamplesOptions{Author: "ann", ToRound1: true}, bench.ErrForbidden},
		{"annotator for someone else", f.ann, f.project.ID, bench.ImportSamplesOptions{Author: "ann2"}, bench.ErrForbidden},
		{"round 1 without an author", f.lead, f.project.ID, bench.ImportSamplesOptions{ToRound1: true}, bench.ErrInvalid},
		{"unknown author", f.lead, f.project.ID, bench.ImportSamplesOptions{Author: "nobody"}, bench.ErrNotFound},
		{"verifier as author", f.lead, f.project.ID, bench.ImportSamplesOptions{Author: "ver"}, bench.ErrInvalid},
		{"unknown project", f.lead, 999, bench.ImportSamplesOptions{}, verify.ErrNotMember}, // as another project's
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := f.db.ImportSamples(ctx, tt.who, tt.project, recs, tt.opt)
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if len(res.Imported) != 0 {
				t.Errorf("a refused import reports %v imported", res.Imported)
			}
		})
	}
	counts, _ := f.db.StatusCounts(ctx, bench.Owner(), f.project.ID)
	for s, n := range counts {
		if n != 0 {
			t.Errorf("refused imports left %d %s samples", n, s)
		}
	}
}

// closureGraph is a converted step_graph record of n steps, each listing every
// earlier step: the shape of the SpatiaLQA record whose lint once held the write
// lock for minutes.
func closureGraph(id, image string, n int) annotate.Sample {
	s := stepSample(id, image)
	s.Steps = make([]annotate.Step, n)
	for i := range s.Steps {
		s.Steps[i] = annotate.Step{ID: "step" + strconv.Itoa(i+1), Content: "do step " + strconv.Itoa(i+1), Precondition: []string{}}
		for j := range i {
			s.Steps[i].Precondition = append(s.Steps[i].Precondition, s.Steps[j].ID)
		}
	}
	return s
}

// writeLockFree reports whether the database's write lock is free at this moment:
// another connection, waiting for nothing, can begin a write transaction.
func writeLockFree(ctx context.Context, t *testing.T, raw *sql.DB) error {
	t.Helper()
	conn, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `ROLLBACK`)
	return err
}

// TestImportSamplesLintsOutsideTheWriteLock: an import checks (lints) its records
// with no transaction open, so that another user's write made meanwhile neither
// waits nor fails; the write lock is taken afterwards, for the writes only.
func TestImportSamplesLintsOutsideTheWriteLock(t *testing.T) {
	storetest.SkipOnPostgres(t, "it watches SQLite's write lock through a second connection to the file")
	ctx := context.Background()
	f := newFixture(t)
	img := withImage(t, f)
	raw, err := sql.Open("sqlite3", "file:"+f.db.Path()+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	recs := []annotate.Imported{
		{Line: 1, Sample: stepSample("imp-a", img)},
		{Line: 2, Sample: closureGraph("imp-big", img, 230)},
		{Line: 3, Sample: stepSample("imp-b", img)},
	}
	var checked []int
	var meanwhile string
	opt := bench.ImportSamplesOptions{Progress: func(done, total int) {
		checked = append(checked, done)
		if total != len(recs) {
			t.Errorf("progress total %d, want %d", total, len(recs))
		}
		if err := writeLockFree(ctx, t, raw); err != nil {
			t.Errorf("record %d was checked with the write lock held: %v", done, err)
			return // a write now would wait for the import
		}
		if done == 2 { // the big record was just linted: another user writes
			other := hopSample(img)
			si, err := f.db.CreateSample(ctx, f.ann2, f.project.ID, other)
			if err != nil {
				t.Errorf("another user's write during the import: %v", err)
			}
			meanwhile = si.ID
		}
	}}
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, recs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(checked, []int{1, 2, 3}) {
		t.Errorf("progress %v, want 1, 2, 3", checked)
	}
	if !slices.Equal(res.Imported, []string{"imp-a", "imp-b"}) || len(res.Skipped) != 1 {
		t.Fatalf("imported %v, skipped %+v", res.Imported, res.Skipped)
	}
	big := res.Skipped[0]
	if big.Line != 2 || big.Reason != bench.SkipLint || !slices.Equal(big.Rules, []string{annotate.RuleStepsCount, annotate.RuleStepTransitive}) ||
		!strings.Contains(big.Message, "a step graph has 2 to 10 steps, this one 230") ||
		!strings.Contains(big.Message, "redundant edge step1 → step3: already implied by step1 → step2 → step3") ||
		!strings.Contains(big.Message, "…and 26006 more step-transitive errors in this graph, not listed") {
		t.Errorf("the 230-step record: %+v", big)
	}
	if si, err := f.db.Sample(ctx, bench.Owner(), meanwhile); err != nil || si.AuthorID != f.ann2.ID {
		t.Errorf("the sample written during the import: %+v, %v", si, err)
	}
}

// TestImportSamplesImageChangedWhileChecking: the records are linted against the
// image sizes read before; when an image a lint asked about arrives between that
// read and the write, the import checks again rather than keep a lint that could
// not see the image's bounds.
func TestImportSamplesImageChangedWhileChecking(t *testing.T) {
	storetest.SkipOnPostgres(t, "it watches SQLite's write lock through a second connection to the file")
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "0001-office-1", "a.jpg"), encodeJPEG(t, 32, 24, color.White))
	raw, err := sql.Open("sqlite3", "file:"+f.db.Path()+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rec := hopSample("0001-office-1/a.jpg") // its box, 10,10 to 40,30, does not fit 32×24
	rec.ID = "imp-box"
	calls := 0
	opt := bench.ImportSamplesOptions{Progress: func(int, int) {
		if calls++; calls > 1 {
			return
		}
		if err := writeLockFree(ctx, t, raw); err != nil {
			t.Errorf("the record was checked with the write lock held: %v", err)
			return
		}
		if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
			t.Error(err)
		}
	}}
	res, err := f.db.ImportSamples(ctx, f.ann, f.project.ID, []annotate.Imported{{Line: 1, Sample: rec}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("the record was checked %d times, want 2 (once more after its image came)", calls)
	}
	if len(res.Imported) != 0 || len(res.Skipped) != 1 || !slices.Equal(res.Skipped[0].Rules, []string{annotate.RuleBoxInvalid}) {
		t.Errorf("imported %v, skipped %+v; want the record skipped for box-invalid against 32×24", res.Imported, res.Skipped)
	}
}
