package remote_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/synth"
	"github.com/benchwright/benchwright/verify"
)

// TestTwoServersOneDatabase runs two team servers, each its own process, on one
// database — PostgreSQL in the store suite's second run, where a lab runs several
// servers; a SQLite file in the first — with the clients split between them, and
// races them for the same round-3 seats and the same drafts:
//   - ten verifiers, five on each server, claim and vote on every seat of four
//     round-3 panels of three at once: each panel ends with exactly three votes and
//     no more than three claims ever granted, and every history replays through
//     verify (synth.ProtocolChecker) without a problem;
//   - two sessions of one annotator on each server increment a counter in the same
//     two drafts, rereading after each conflict: every draft ends at the sum of
//     the acknowledged increments (no update lost), and the servers did refuse
//     stale saves (they raced).
func TestTwoServersOneDatabase(t *testing.T) {
	ctx := context.Background()
	tm := seedTeam(t, 1, 5, 1)
	servers := make([][2]string, 2) // address, fingerprint
	for i := range servers {
		_, addr, fp, _ := startChildServer(t, tm)
		servers[i] = [2]string{addr, fp}
	}
	on := func(i int, name string) person { return signIn(t, servers[i%2][0], servers[i%2][1], name) }

	// Four samples through rounds 1 and 2, then in round 3 with a panel of three.
	const panels, seats = 4, 3
	author := on(0, "ann1")
	var round3 []bench.SampleInfo
	for range panels {
		si, err := author.c.CreateSample(ctx, tm.project.ID, storetest.HopSample(tm.images[0]))
		if err != nil {
			t.Fatal(err)
		}
		if si, err = author.c.Submit(ctx, si.ID, si.Version, nil); err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			who   string
			round int
		}{{"a1", 1}, {"b1", 2}} {
			p := on(r.round, r.who)
			if _, err := p.c.SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: r.round, BasedOn: si.Revision,
				Verdict: storetest.Approve(si.Kind, r.round)}); err != nil {
				t.Fatalf("%s in round %d: %v", r.who, r.round, err)
			}
		}
		round3 = append(round3, si)
	}

	// The seat race: every other verifier, alternately on each server, tries every
	// panel at once.
	var verifiers []person
	i := 0
	for _, g := range []string{"a", "b", "c"} {
		for n := 1; n <= 5; n++ {
			name := g + strconv.Itoa(n)
			if name == "a1" || name == "b1" {
				continue // rounds 1 and 2: not on the panel
			}
			if len(verifiers) < 10 {
				verifiers = append(verifiers, on(i, name))
				i++
			}
		}
	}
	type result struct{ claims, votes int }
	results := make([]result, panels)
	var mu sync.Mutex
	var unexpected []error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, v := range verifiers {
		for k, si := range round3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, err := v.c.ClaimReview(ctx, si.ID, 3)
				if err != nil {
					if !errors.Is(err, verify.ErrPanelFull) && !errors.Is(err, verify.ErrWrongRound) && !errors.Is(err, verify.ErrRoundClosed) {
						mu.Lock()
						unexpected = append(unexpected, fmt.Errorf("%s claims %s: %w", v.me.Name, si.ID, err))
						mu.Unlock()
					}
					return
				}
				mu.Lock()
				results[k].claims++
				mu.Unlock()
				_, err = v.c.SubmitReview(ctx, bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: si.Revision,
					Verdict: storetest.Approve(si.Kind, 3)})
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					unexpected = append(unexpected, fmt.Errorf("%s votes on %s after its claim: %w", v.me.Name, si.ID, err))
					return
				}
				results[k].votes++
			}()
		}
	}
	close(start)
	wg.Wait()
	for _, err := range unexpected {
		t.Error(err)
	}
	db, err := store.Open(ctx, tm.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for k, si := range round3 {
		if results[k].claims > seats || results[k].votes != seats {
			t.Errorf("%s: %d claims granted and %d votes recorded, want at most %d and exactly %d", si.ID, results[k].claims, results[k].votes, seats, seats)
		}
		got, err := db.Sample(ctx, bench.Owner(), si.ID)
		if err != nil || got.Status != verify.StateAccepted {
			t.Errorf("%s after its panel: %s, %v; want accepted", si.ID, got.Status, err)
		}
	}
	lead, err := db.UserByName(ctx, bench.Owner(), "lead")
	if err != nil {
		t.Fatal(err)
	}
	check, err := synth.NewProtocolChecker(ctx, db, lead)
	if err != nil {
		t.Fatal(err)
	}
	problems, checked, err := check.CheckProject(ctx, tm.project)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("protocol problem: %s", p)
	}
	if checked != panels {
		t.Errorf("%d histories checked, want %d", checked, panels)
	}

	// The draft race: four sessions of ann1, two on each server, on two drafts.
	const drafts, perSession = 2, 15
	var ids []string
	for range drafts {
		s := annotate.Sample{Kind: annotate.KindOpen, Image: tm.images[0], Question: "How many increments?", AnswerText: "0"}
		si, err := author.c.CreateSample(ctx, tm.project.ID, s)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, si.ID)
	}
	increments := make([]int, drafts)
	conflicts := 0
	sessions := make([]person, 4)
	for i := range sessions {
		sessions[i] = on(i, "ann1")
	}
	start = make(chan struct{})
	for session, p := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for n := range perSession * drafts {
				k := (n + session) % drafts
				for {
					si, err := p.c.Sample(ctx, ids[k])
					if err != nil {
						t.Error(err)
						return
					}
					v, _ := strconv.Atoi(si.Content.AnswerText)
					s := si.Content
					// Each session's save differs, so that the server cannot take a
					// stale one for a retry of the save it already has.
					s.AnswerText, s.Question = strconv.Itoa(v+1), fmt.Sprintf("How many increments? Session %d counted last.", session)
					_, err = p.c.SaveDraft(ctx, si.ID, si.Version, s)
					mu.Lock()
					if errors.Is(err, bench.ErrConflict) {
						conflicts++
						mu.Unlock()
						continue
					}
					if err == nil {
						increments[k]++
					}
					mu.Unlock()
					if err != nil {
						t.Errorf("save %s: %v", si.ID, err)
						return
					}
					break
				}
			}
		}()
	}
	close(start)
	wg.Wait()
	for k, id := range ids {
		got, err := db.Sample(ctx, bench.Owner(), id)
		if err != nil {
			t.Fatal(err)
		}
		if got.Content.AnswerText != strconv.Itoa(increments[k]) {
			t.Errorf("%s holds %s after %d acknowledged increments: an update was lost", id, got.Content.AnswerText, increments[k])
		}
	}
	if conflicts == 0 {
		t.Errorf("no save was refused as stale: the sessions did not race")
	}
	t.Logf("%s: seats %+v; draft increments %v with %d stale saves refused", storetest.Engine(), results, increments, conflicts)
}
