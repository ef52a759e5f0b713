package ui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// buildBwctl builds cmd/bwctl into dir and returns its path.
func buildBwctl(t *testing.T, dir string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build bwctl with: %v", err)
	}
	bin := filepath.Join(dir, "bwctl")
	out, err := exec.Command(goTool, "build", "-o", bin, "../cmd/bwctl").CombinedOutput()
	if err != nil {
		t.Fatalf("go build ../cmd/bwctl: %v\n%s", err, out)
	}
	return bin
}

// seedDemoFile writes the demo project into a new database file and closes it.
func seedDemoFile(t *testing.T) string {
	t.Helper()
	_, path := seededDemo(t, seedClock{}, "demo.db")
	return path
}

// runBwctl runs bin with args as a demo user and returns its exit code and output.
func runBwctl(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "BENCHWRIGHT_PASSWORD="+demo.DemoPassword, "LANG=en_US.UTF-8")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("bwctl %v: %v", args, err)
	return 0, "", ""
}

// storedReview is what a review row says, without its ids and times.
type storedReview struct {
	Sample, Verifier, Group string
	Revision, Round         int
	Decision                verify.Decision
	Judgements              map[string]bool
	Reasons                 []string
	Comment                 string
}

// storedReviews reads the reviews of sample as the lead sees them, and its state.
func storedReviews(t *testing.T, db *store.DB, sample string) ([]storedReview, verify.State) {
	t.Helper()
	ctx := context.Background()
	lead, err := db.Authenticate(ctx, "lead", demo.DemoPassword)
	if err != nil {
		t.Fatal(err)
	}
	revs, err := db.Reviews(ctx, lead, sample)
	if err != nil {
		t.Fatal(err)
	}
	var out []storedReview
	for _, r := range revs {
		out = append(out, storedReview{r.SampleID, r.VerifierName, r.Group, r.Revision, r.Round, r.Decision, r.Judgements, r.Reasons, r.Comment})
	}
	return out, status(t, db, sample)
}

// A decision made in the verifier screen and the same decision made with bwctl are
// stored as the same review, and both doors refuse an approval that leaves a
// criterion unjudged, naming it.
func TestSameDecisionThroughBothDoors(t *testing.T) {
	bin := buildBwctl(t, t.TempDir())
	const sample = "demo-hq-004" // hop QA in round 1, in ver1's queue
	criteria := verify.Criteria(annotate.KindHopQA, 1)
	if len(criteria) < 2 {
		t.Fatalf("hop QA has %d round-1 criteria", len(criteria))
	}
	allYes := func() []string {
		var args []string
		for _, c := range criteria {
			args = append(args, "--criterion", c.ID+"=yes")
		}
		return args
	}

	for _, tc := range []struct {
		name  string
		gui   func(t *testing.T, u *App, o *openSample)
		args  []string
		state verify.State
	}{
		{"approve", func(t *testing.T, u *App, o *openSample) {
			tapAllYes(o)
			press(u, "y")
		}, append([]string{"--decision", "approve"}, allYes()...), verify.StateRound2},
		{"reject with one criterion no and a comment", func(t *testing.T, u *App, o *openSample) {
			tapMark(t, o, "box_on_answer", markNo)
			test.Type(o.comment, "The box is on the mug; the answer is the cup.")
			u.win.Canvas().Unfocus()
			test.Tap(o.rejectBtn)
		}, []string{"--decision", "reject", "--criterion", "box_on_answer=no", "--comment", "The box is on the mug; the answer is the cup."},
			verify.StateReturned},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Door A: the verifier screen.
			u, dbA := demoApp(t)
			v := openVerify(t, u, "ver1")
			o := openItem(t, v, sample)
			tc.gui(t, u, o)
			gotA, stateA := storedReviews(t, dbA, sample)

			// Door B: bwctl on an identical database.
			pathB := seedDemoFile(t)
			args := append([]string{"review", "submit", "--db", pathB, "--as", "ver1", "--sample", sample, "--round", "1"}, tc.args...)
			code, stdout, stderr := runBwctl(t, bin, args...)
			if code != 0 {
				t.Fatalf("bwctl exit %d\n%s%s", code, stdout, stderr)
			}
			dbB, err := store.Open(context.Background(), pathB)
			if err != nil {
				t.Fatal(err)
			}
			defer dbB.Close()
			gotB, stateB := storedReviews(t, dbB, sample)

			if len(gotA) != 1 || stateA != tc.state {
				t.Fatalf("the screen stored %+v and left the sample %s, want one review and %s (message %q)", gotA, stateA, tc.state, o.message.Text)
			}
			if !reflect.DeepEqual(gotA, gotB) || stateA != stateB {
				t.Errorf("the doors stored different reviews:\nscreen %+v (%s)\nbwctl  %+v (%s)", gotA, stateA, gotB, stateB)
			}
		})
	}

	t.Run("approval with a criterion unjudged", func(t *testing.T) {
		const missing = "follows_template"
		var label string
		for _, c := range criteria {
			if c.ID == missing {
				label = c.Label // the screen names it as people do; bwctl, below, by its id
			}
		}
		if label == "" {
			t.Fatalf("hop QA round 1 has no criterion %s", missing)
		}

		u, dbA := demoApp(t)
		v := openVerify(t, u, "ver1")
		o := openItem(t, v, sample)
		tapAllYes(o)
		tapMark(t, o, missing, markYes) // a second click clears the mark
		test.Tap(o.approveBtn)
		if !o.message.Visible() || !strings.Contains(o.message.Text, label) || strings.Contains(o.message.Text, missing) {
			t.Errorf("the screen's refusal is %q, want it to name %s", o.message.Text, label)
		}
		if revs, state := storedReviews(t, dbA, sample); len(revs) != 0 || state != verify.StateRound1 {
			t.Errorf("a refused approval stored %+v and left the sample %s", revs, state)
		}

		pathB := seedDemoFile(t)
		code, stdout, stderr := runBwctl(t, bin, "review", "submit", "--db", pathB, "--as", "ver1", "--sample", sample,
			"--round", "1", "--decision", "approve", "--criterion", criteria[0].ID+"=yes")
		if code != 1 {
			t.Errorf("bwctl approve with one criterion: exit %d, want 1\n%s%s", code, stdout, stderr)
		}
		for _, c := range criteria[1:] {
			if !strings.Contains(stderr, c.ID) {
				t.Errorf("bwctl's refusal does not name %s: %q", c.ID, stderr)
			}
		}
		dbB, err := store.Open(context.Background(), pathB)
		if err != nil {
			t.Fatal(err)
		}
		defer dbB.Close()
		if revs, state := storedReviews(t, dbB, sample); len(revs) != 0 || state != verify.StateRound1 {
			t.Errorf("bwctl's refused approval stored %+v and left the sample %s", revs, state)
		}
	})
}
