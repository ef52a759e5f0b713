package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// Two app instances on one database file: twoProcWrites successful write
// transactions in total, half in each process.
const (
	twoProcWrites = 10_000
	twoProcShared = 4 // drafts both processes increment, so that they collide
)

// twoProcCounts is what one child did; it prints it as its last line.
type twoProcCounts struct {
	Increments, Creates, Submits, Conflicts int
}

func (c twoProcCounts) String() string {
	return fmt.Sprintf("result %d %d %d %d", c.Increments, c.Creates, c.Submits, c.Conflicts)
}

func sharedID(k int) string { return fmt.Sprintf("shared-%d", k) }

// TestTwoProcChild does its half of the mixed writes: increments of a counter held
// in one of the shared drafts (read, add one, SaveDraft at the version read; a
// conflict is re-read and retried), new drafts, and submissions of its own drafts.
// Any error other than a conflict ends it with a failure.
func TestTwoProcChild(t *testing.T) {
	path := childDB(t)
	who := os.Getenv(envChildArg)
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ann, err := db.UserByName(ctx, bench.Owner(), "ann")
	if err != nil {
		t.Fatal(err)
	}
	p, err := db.ProjectByName(ctx, bench.Owner(), "p")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(who)
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	var c twoProcCounts
	var drafts []bench.SampleInfo
	for done := 0; done < twoProcWrites/2; done++ {
		switch x := rng.IntN(100); {
		case x < 60:
			id := sharedID(rng.IntN(twoProcShared))
			for {
				si, err := db.Sample(ctx, bench.Owner(), id)
				if err != nil {
					t.Fatal(err)
				}
				v, _ := strconv.Atoi(si.Content.AnswerText)
				s := si.Content
				s.AnswerText = strconv.Itoa(v + 1)
				_, err = db.SaveDraft(ctx, ann, id, si.Version, s)
				if errors.Is(err, bench.ErrConflict) {
					c.Conflicts++
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				c.Increments++
				break
			}
		case x < 85 || len(drafts) == 0:
			si, err := db.CreateSample(ctx, ann, p.ID, annotate.Sample{ID: fmt.Sprintf("p%s-%05d", who, done), Kind: annotate.KindJudgment,
				Image: "s/a.jpg", Question: "Is the mug on the desk?", AnswerText: "no"})
			if err != nil {
				t.Fatal(err)
			}
			drafts = append(drafts, si)
			c.Creates++
		default:
			si := drafts[len(drafts)-1]
			drafts = drafts[:len(drafts)-1]
			if _, err := db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
				t.Fatal(err)
			}
			c.Submits++
		}
	}
	fmt.Println(c)
}

// TestTwoProcessesOneDatabase runs two children writing to one database file at
// the same time: no error (in particular no "database is locked") may reach them,
// and no update may be lost: the shared counters add up to the increments both
// made, and the created and submitted samples are all there.
func TestTwoProcessesOneDatabase(t *testing.T) {
	ctx := context.Background()
	path := crashFixture(t)
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ann, _ := db.UserByName(ctx, bench.Owner(), "ann")
	p, _ := db.ProjectByName(ctx, bench.Owner(), "p")
	for k := 0; k < twoProcShared; k++ {
		if _, err := db.CreateSample(ctx, ann, p.ID, annotate.Sample{ID: sharedID(k), Kind: annotate.KindOpen, Image: "s/a.jpg",
			Question: "How many increments?", AnswerText: "0"}); err != nil {
			t.Fatal(err)
		}
	}

	results := make([]twoProcCounts, 2)
	var wg sync.WaitGroup
	for i := range results {
		cmd, out, stderr := startChild(t, "TestTwoProcChild", path, strconv.Itoa(i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last string
			var said []string // the child's test output, for a failure
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "result ") {
					last = sc.Text()
				} else {
					said = append(said, sc.Text())
				}
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("child %d: %v\n%s%s", i, err, stderr, strings.Join(said, "\n"))
				return
			}
			c := &results[i]
			if _, err := fmt.Sscanf(last, "result %d %d %d %d", &c.Increments, &c.Creates, &c.Submits, &c.Conflicts); err != nil {
				t.Errorf("child %d: no result line (%v)\n%s", i, err, stderr)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	var sum twoProcCounts
	for _, r := range results {
		sum.Increments += r.Increments
		sum.Creates += r.Creates
		sum.Submits += r.Submits
		sum.Conflicts += r.Conflicts
	}
	t.Logf("two processes: %d increments, %d creates, %d submits; %d conflicts retried", sum.Increments, sum.Creates, sum.Submits, sum.Conflicts)
	if w := sum.Increments + sum.Creates + sum.Submits; w != twoProcWrites {
		t.Errorf("children made %d writes, want %d", w, twoProcWrites)
	}
	counted := 0
	for k := 0; k < twoProcShared; k++ {
		si, err := db.Sample(ctx, bench.Owner(), sharedID(k))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := strconv.Atoi(si.Content.AnswerText)
		counted += v
	}
	if counted != sum.Increments {
		t.Errorf("shared counters hold %d increments, the children made %d: updates were lost", counted, sum.Increments)
	}
	counts, err := db.StatusCounts(ctx, bench.Owner(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if counts[verify.StateRound1] != sum.Submits || counts[verify.StateDraft] != twoProcShared+sum.Creates-sum.Submits {
		t.Errorf("states %v; want %d in round 1 and %d drafts", counts, sum.Submits, twoProcShared+sum.Creates-sum.Submits)
	}
	if ok, err := db.IntegrityCheck(ctx); err != nil || ok != "ok" {
		t.Errorf("integrity check: %q %v", ok, err)
	}
}
