package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// Child processes are this test binary re-run with -test.run naming one helper test
// and an environment variable that tells it to do its work (it skips otherwise).
const (
	envChildDB  = "BENCHWRIGHT_TEST_CHILD_DB"
	envChildArg = "BENCHWRIGHT_TEST_CHILD_ARG"
)

// childDB returns the database a helper test works on, or skips when not a child.
func childDB(t *testing.T) string {
	path := os.Getenv(envChildDB)
	if path == "" {
		t.Skip("helper process; runs only as a child of another test")
	}
	return path
}

// startChild starts this test binary running only the helper test name on db; its
// stdout is returned as a pipe, its stderr goes to a buffer shown on failure.
func startChild(t *testing.T, name, db, arg string) (*exec.Cmd, io.ReadCloser, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), envChildDB+"="+db, envChildArg+"="+arg)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, out, &stderr
}

// crashFixture is a database with an annotator, a project "p" and one image, closed
// again so that only children write to it.
func crashFixture(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	f := newFixture(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "s", "a.jpg"), encodeJPEG(t, 64, 48, color.RGBA{90, 120, 30, 255}))
	if _, err := f.db.ImportImages(ctx, f.lead, f.project.ID, dir, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Close(); err != nil {
		t.Fatal(err)
	}
	return f.db.Path()
}

// TestCrashChild saves drafts and submits revisions in a loop, printing one
// acknowledgement line after each save returned:
//
//	create ID | draft ID VERSION QUESTION | submit ID REVISION
func TestCrashChild(t *testing.T) {
	path := childDB(t)
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	ann, err := db.UserByName(ctx, bench.Owner(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), "p")
	if err != nil {
		t.Fatal(err)
	}
	run := os.Getenv(envChildArg)
	for i := 0; ; i++ {
		s := annotate.Sample{ID: fmt.Sprintf("run%s-%05d", run, i), Kind: annotate.KindJudgment, Image: "s/a.jpg",
			Question: "Is the mug on the desk?", AnswerText: "yes"}
		si, err := db.CreateSample(ctx, ann, p.ID, s)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("create %s\n", si.ID)
		v := si.Version
		for k := 1; k <= 3; k++ {
			s.Question = fmt.Sprintf("Is the mug on the desk, take %d?", k)
			if v, err = db.SaveDraft(ctx, ann, si.ID, v, s); err != nil {
				t.Fatal(err)
			}
			fmt.Printf("draft %s %d %s\n", si.ID, v, s.Question)
		}
		if si, err = db.Submit(ctx, ann, si.ID, v, nil); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("submit %s %d\n", si.ID, si.Revision)
	}
}

// TestCrashKeepsAcknowledgedSaves kills a child that saves in a loop with SIGKILL at
// random moments, 20 times, and checks after each kill that every save the child
// acknowledged is in the reopened database and that the database is sound.
func TestCrashKeepsAcknowledgedSaves(t *testing.T) {
	path := crashFixture(t)
	ctx := context.Background()
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("kill moments from seed %d", seed)
	total := 0
	for run := 0; run < 20; run++ {
		cmd, out, stderr := startChild(t, "TestCrashChild", path, strconv.Itoa(run))
		lines := make(chan string)
		go func() {
			defer close(lines)
			r := bufio.NewReader(out)
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return // a line cut off by the kill was never acknowledged
				}
				lines <- strings.TrimSuffix(l, "\n")
			}
		}()
		var acks []string
		select {
		case l, ok := <-lines:
			if !ok {
				cmd.Wait()
				t.Fatalf("run %d: child ended before its first save:\n%s", run, stderr)
			}
			acks = append(acks, l)
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("run %d: no acknowledgement within 30 s:\n%s", run, stderr)
		}
		deadline := time.After(time.Duration(rng.IntN(150_000)) * time.Microsecond)
	collect:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break collect
				}
				acks = append(acks, l)
			case <-deadline:
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				deadline = nil
			}
		}
		err := cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("run %d: child did not die of SIGKILL: %v\n%s", run, err, stderr)
		}
		total += len(acks)
		checkAcknowledged(t, ctx, path, run, acks)
	}
	t.Logf("%d acknowledged saves over 20 kills", total)
}

// checkAcknowledged reopens the database and looks for every acknowledged save: the
// sample exists; a draft's version is there or later, with its content when the
// version is the same; a submitted revision is there.
func checkAcknowledged(t *testing.T, ctx context.Context, path string, run int, acks []string) {
	t.Helper()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatalf("run %d: reopen after kill: %v", run, err)
	}
	defer db.Close()
	if ok, err := db.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Fatalf("run %d: integrity check after kill: %q %v", run, ok, err)
	}
	for _, a := range acks {
		f := strings.SplitN(a, " ", 4)
		if len(f) < 2 {
			t.Fatalf("run %d: malformed acknowledgement %q", run, a)
		}
		si, err := db.Sample(ctx, bench.Owner(), f[1])
		if err != nil {
			t.Errorf("run %d: acknowledged %q, but: %v", run, a, err)
			continue
		}
		switch f[0] {
		case "create":
		case "draft":
			v, _ := strconv.Atoi(f[2])
			if si.Version < v || si.Version == v && si.Content.Question != f[3] {
				t.Errorf("run %d: acknowledged %q, stored version %d question %q", run, a, si.Version, si.Content.Question)
			}
		case "submit":
			rev, _ := strconv.Atoi(f[2])
			if si.Revision != rev || si.Status != verify.StateRound1 {
				t.Errorf("run %d: acknowledged %q, stored revision %d in %s", run, a, si.Revision, si.Status)
			}
		default:
			t.Fatalf("run %d: unknown acknowledgement %q", run, a)
		}
	}
}
