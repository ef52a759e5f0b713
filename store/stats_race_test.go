package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// TestStatsRound3PanelChangeRace: a sample's writer decides its round 3s again
// without the project's tally while the panel its project's summaries were
// decided with (stat_policy) is the project's (statsRound3); a change of the
// panel size excludes every sample's writer and decides every round 3 of the
// project itself (changeSettings, statsPolicy). Here both race, on two handles
// of one database (two servers on PostgreSQL, two app instances on a SQLite
// file): verifiers claim round-3 seats and vote (approvals, rejects that return
// the sample, votes held back that become late votes, seats given up) on a few
// samples, the authors resubmit what comes back and rounds 1 and 2 pass it on,
// while the lead switches the round-3 panel size back and forth. At the end the
// summaries and the dashboard are what a rebuild from the rows gives, and the
// panel recorded is the project's.
//
// "stale record" is the race of the other branch of statsRound3, which no change
// through the store leaves to take (they record the panel they decide with, in
// the transaction that changes it): every sample has two round-3 approvals, which
// do not count under a panel of 3 and count under one of 2, when the panel is
// changed from 3 to 2 behind the store's back; the lead changes nothing, and the
// first writers, at once, find the record stale: one decides every round 3 of the
// project again (those of the half of the samples no writer touches included),
// the others wait for the tally and decide their own sample as it then is.
func TestStatsRound3PanelChangeRace(t *testing.T) {
	tests := []struct {
		name    string
		seed    uint64
		panels  [2]int // the lead switches between these, starting with the first
		samples int
		voters  int
		steps   int  // each voter's
		stale   bool // the second panel is set behind the store's back, and the lead changes nothing
	}{
		{"panel 3 and 2", 1, [2]int{3, 2}, 8, 6, 60, false},
		{"panel 1 and 3", 2, [2]int{1, 3}, 8, 6, 60, false},
		{"stale record", 3, [2]int{3, 2}, 12, 8, 40, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			f := newAgreeFixture(t)
			other, err := store.Open(ctx, f.db.Path())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { other.Close() })
			dbs := []*store.DB{f.db, other}
			settings := bench.DefaultSettings()
			settings.Round3Panel = tt.panels[0]
			if err := f.db.UpdateSettings(ctx, f.lead, f.project.ID, settings); err != nil {
				t.Fatal(err)
			}
			var voters []bench.User
			for i := range tt.voters {
				u, err := f.db.AddUser(ctx, f.lead, fmt.Sprintf("c%d", i), bench.RoleVerifier, "C", "secret")
				if err != nil {
					t.Fatal(err)
				}
				voters = append(voters, u)
			}
			authors := map[int64]bench.User{f.ann.ID: f.ann, f.ann2.ID: f.ann2}
			// Every sample in round 3: v1 (group A) approved round 1, v2 (group B) round 2.
			var ids []string
			for i := range tt.samples {
				si := f.submit(t, []bench.User{f.ann, f.ann2}[i%2], hopSample(f.img))
				f.review(t, f.v1, si, 1, agreeApprove, 5)
				f.review(t, f.v2, si, 2, agreeApprove, 5)
				ids = append(ids, si.ID)
				if tt.stale {
					f.review(t, voters[0], si, 3, agreeApprove, 5)
					f.review(t, voters[1], si, 3, agreeApprove, 5)
				}
			}
			raced := ids // the samples the writers below race on
			sdb := rawDB(t, f.db.Path())
			if tt.stale {
				raced = ids[:len(ids)/2]
				settings.Round3Panel = tt.panels[1]
				js, err := json.Marshal(settings)
				if err != nil {
					t.Fatal(err)
				}
				mustExecRaw(t, sdb, fmt.Sprintf(`UPDATE projects SET settings = '%s' WHERE id = %d`,
					strings.ReplaceAll(string(js), "'", "''"), f.project.ID))
			}

			errs := make(chan error, 64)
			// refused reports whether err is the store saying no (the race moved the
			// sample on, the seat is taken, the vote came too late), which writes
			// nothing; any other error is the test's failure.
			refused := func(what string, err error) bool {
				switch {
				case err == nil:
					return false
				case errors.Is(err, bench.ErrForbidden), errors.Is(err, bench.ErrConflict), errors.Is(err, bench.ErrInvalid):
					return true
				}
				select {
				case errs <- fmt.Errorf("%s: %w", what, err):
				default:
				}
				return true
			}
			var votes, toggles, passed atomic.Int64 // votes in round 3, panel changes, resubmissions and rounds 1 and 2
			verdict := func(rng *rand.Rand, si bench.SampleInfo) verify.Verdict {
				if rng.IntN(3) == 0 {
					return verify.Verdict{Decision: verify.DecisionReject, Reasons: []string{verify.Criteria(si.Kind, 3)[0].ID}}
				}
				return verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, 3)}
			}

			done := make(chan struct{})
			var voting, rest, ready sync.WaitGroup
			together := make(chan struct{}) // the voters' first claims go at once
			ready.Add(len(voters))
			for i, v := range voters {
				voting.Add(1)
				go func() {
					defer voting.Done()
					db, rng := dbs[i%2], rand.New(rand.NewPCG(tt.seed, uint64(i)))
					held := map[string]bench.SampleInfo{} // seats taken and not yet voted on, with the revision seen
					vote := func(si bench.SampleInfo) {
						_, err := db.SubmitReview(ctx, v, bench.ReviewInput{SampleID: si.ID, Round: 3, BasedOn: si.Revision,
							Verdict: verdict(rng, si), Seconds: 1 + rng.Float64()*20})
						if !refused("vote", err) {
							votes.Add(1)
						}
					}
					arrive := sync.OnceFunc(ready.Done)
					defer arrive()
					for step := range tt.steps {
						if ctx.Err() != nil {
							return
						}
						if len(held) > 0 && rng.IntN(3) == 0 {
							// A held seat: a vote on the revision it was taken on (late if a
							// reject closed its round meanwhile), or sometimes given up.
							keys := slices.Sorted(maps.Keys(held))
							id := keys[rng.IntN(len(keys))]
							si := held[id]
							delete(held, id)
							if rng.IntN(5) == 0 {
								refused("release", db.ReleaseClaim(ctx, v, id))
							} else {
								vote(si)
							}
							continue
						}
						// The first sample in round 3 from a random one on; at the
						// first step, the voter's own, all at once (below).
						var si bench.SampleInfo
						start := rng.IntN(len(raced))
						if step == 0 {
							start = i % len(raced)
						}
						for k := 0; k < len(raced) && si.Status != verify.StateRound3; k++ {
							var err error
							if si, err = db.Sample(ctx, bench.Owner(), raced[(start+k)%len(raced)]); refused("read", err) {
								si = bench.SampleInfo{}
							}
						}
						if step == 0 {
							arrive()
							<-together
						}
						if si.Status != verify.StateRound3 {
							continue
						}
						id := si.ID
						if _, err := db.ClaimReview(ctx, v, id, 3); refused("claim", err) {
							continue
						}
						if rng.IntN(2) == 0 {
							vote(si)
						} else {
							held[id] = si
						}
					}
				}()
			}
			// The authors resubmit what a reject returned; v1 and v2 take it
			// through rounds 1 and 2 again (round 1's first review drops the old
			// revision's seats).
			rest.Add(1)
			go func() {
				defer rest.Done()
				for pass := 0; ; pass++ {
					select {
					case <-done:
						return
					default:
					}
					db, moved := dbs[pass%2], false
					for _, id := range raced {
						si, err := db.Sample(ctx, bench.Owner(), id)
						if refused("read", err) {
							continue
						}
						switch si.Status {
						case verify.StateReturned:
							s := si.Content
							b := *s.Box
							b[2] = 81 - b[2] // 40 and 41 in turn: a resubmission must change something
							s.Box = &b
							v, err := db.SaveDraft(ctx, authors[si.AuthorID], id, si.Version, s)
							if !refused("revise", err) {
								_, err = db.Submit(ctx, authors[si.AuthorID], id, v, nil)
								if !refused("resubmit", err) {
									moved = true
									passed.Add(1)
								}
							}
						case verify.StateRound1, verify.StateRound2:
							u := map[verify.State]bench.User{verify.StateRound1: f.v1, verify.StateRound2: f.v2}[si.Status]
							round := si.Status.Round()
							_, err := db.SubmitReview(ctx, u, bench.ReviewInput{SampleID: id, Round: round, BasedOn: si.Revision,
								Verdict: verify.Verdict{Decision: verify.DecisionApprove, Judgements: verify.AllPassed(si.Kind, round)}})
							if !refused(fmt.Sprintf("round %d", round), err) {
								moved = true
								passed.Add(1)
							}
						}
					}
					if !moved {
						time.Sleep(5 * time.Millisecond)
					}
				}
			}()
			// The lead switches the panel size, on either handle, until the voters
			// are done.
			final := make(chan int, 1)
			if tt.stale {
				final <- settings.Round3Panel
			} else {
				rest.Add(1)
				go func() {
					defer rest.Done()
					s := settings
					for k := 1; ; k++ {
						select {
						case <-done:
							final <- s.Round3Panel
							return
						default:
						}
						next := s
						next.Round3Panel = tt.panels[k%2]
						if err := dbs[k%2].UpdateSettings(ctx, f.lead, f.project.ID, next); err != nil {
							refused("panel", err)
							final <- s.Round3Panel
							return
						}
						s = next
						toggles.Add(1)
						time.Sleep(10 * time.Millisecond)
					}
				}()
			}
			ready.Wait()
			close(together)
			voting.Wait()
			close(done)
			rest.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			// The race took place: votes were cast while the panel changed.
			if votes.Load() == 0 || !tt.stale && toggles.Load() < 2 {
				t.Fatalf("%d round-3 votes and %d panel changes: nothing raced", votes.Load(), toggles.Load())
			}
			t.Logf("%d round-3 votes, %d resubmissions and votes in rounds 1 and 2, beside %d panel changes",
				votes.Load(), passed.Load(), toggles.Load())

			p, err := f.db.ProjectByName(ctx, f.lead, f.project.Name)
			if err != nil {
				t.Fatal(err)
			}
			if want := <-final; p.Settings.Round3Panel != want {
				t.Fatalf("the project's panel is %d, the lead last set %d", p.Settings.Round3Panel, want)
			}
			var recorded int
			if err := sdb.QueryRowContext(ctx, fmt.Sprintf(`SELECT panel FROM stat_policy WHERE project_id = %d`, f.project.ID)).Scan(&recorded); err != nil {
				t.Fatal(err)
			}
			if recorded != p.Settings.Round3Panel {
				t.Errorf("the summaries' round 3s were decided with a panel of %d, the project's is %d", recorded, p.Settings.Round3Panel)
			}
			checkRebuildMatches(t, f.db, sdb, f.lead, f.project.ID, "kept beside the panel changes")
		})
	}
}
