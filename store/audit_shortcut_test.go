package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// TestAuditFindsAnswerShortcuts: the integrity audit reports a task whose
// correct letter is nearly always A (answer-position) as a warning naming the
// task, and nothing of the kind for a task whose letters are spread; a warning
// does not stop a freeze (issue 29, checks 1 and 2 in bwctl audit).
func TestAuditFindsAnswerShortcuts(t *testing.T) {
	ctx := context.Background()
	f := newRelFixture(t)
	paths := make([]string, 0, len(relImages))
	for p := range relImages {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	names := []string{"a mug", "the lamp", "the old book", "a pen"} // lengths differ
	for _, task := range []string{"letters", "clean"} {
		for i := range 24 {
			s := relHop(fmt.Sprintf("%s-%02d", task, i), paths[i%len(paths)], fmt.Sprintf("Which object is closest to the camera in shot %d of %s?", i, task))
			s.Task = task
			s.Options = append(slices.Clone(names[i%4:]), names[:i%4]...) // the correct option's length varies
			s.AnswerIndex = 0
			if task == "clean" {
				s.AnswerIndex = (i / 4) % 4 // every letter, and every name
			}
			f.accept(t, s)
		}
	}
	rep, err := f.db.Audit(ctx, f.lead, f.project.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fd := range rep.Findings {
		if fd.Check == bench.CheckAnswerPosition || fd.Check == bench.CheckOptionLength {
			got = append(got, fd.Severity+" "+fd.Check+" "+strings.TrimSuffix(strings.Fields(fd.Message)[1], ":"))
		}
	}
	if want := []string{"warning answer-position letters"}; !slices.Equal(got, want) {
		t.Fatalf("shortcut findings %q, want %q", got, want)
	}
	if _, err := f.db.Freeze(ctx, f.lead, bench.FreezeInput{ProjectID: f.project.ID, Name: "r", Version: "1"}); err != nil {
		t.Errorf("a freeze with shortcut warnings: %v", err)
	}
}
