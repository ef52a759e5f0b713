package remote_test

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/score"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestBlindRunsOverTheWire: a blind run imported through the client arrives
// blind with its base, and Models, Score, SampleScores and ReleaseOutcomes carry
// the marks back; a request without the run field, as a client built before
// blind runs sends it, imports a run with images.
func TestBlindRunsOverTheWire(t *testing.T) {
	p := storetest.Seed(t, func(t *testing.T, db *store.DB) bench.Service { return db })
	srv := httptest.NewTLSServer(remote.NewServer(p.DB, log.New(io.Discard, "", 0)).Handler())
	t.Cleanup(srv.Close)
	raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}
	ctx := context.Background()
	si := p.Submitted(t, "ann1")
	p.ApproveThrough(t, si)
	lead, err := p.DB.UserByName(ctx, bench.Owner(), "lead")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := p.DB.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.Project.ID, Name: "blind", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := remote.Dial(ctx, srv.URL, remote.Options{Fingerprint: remote.Fingerprint(srv.Certificate().Raw), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Authenticate(ctx, "lead", storetest.Password); err != nil {
		t.Fatal(err)
	}
	// The sample's answer is the second option: (b).
	right := []score.Prediction{{SampleID: si.ID, Response: "Answer: (b)"}}
	if _, err := c.ImportPredictions(ctx, rel.Ref(), "m", right, "m.jsonl", bench.PredictionRun{}); err != nil {
		t.Fatal(err)
	}
	res, err := c.ImportPredictions(ctx, rel.Ref(), "m", right, "m-blind.jsonl", bench.PredictionRun{Blind: true, Base: "llm"})
	if err != nil || !res.Run.Blind || res.Run.Base != "llm" || res.Replaced != nil {
		t.Fatalf("blind import: %+v, %v", res, err)
	}
	// A client of the build before: no "run" in the request.
	body, _ := json.Marshal(map[string]any{"releaseRef": rel.Ref(), "model": "old", "source": "old.jsonl", "preds": right})
	if status, out := raw.post("/v1/call/ImportPredictions", raw.signIn("lead"), body); status != http.StatusOK {
		t.Fatalf("an import without the run field: %d %s", status, out)
	}

	runs, err := c.Models(ctx, rel.Ref())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, bench.RunName(r.Model, r.Blind)+"/"+r.Base)
	}
	if want := []string{"m/", "m (blind)/llm", "old/"}; !slices.Equal(got, want) {
		t.Errorf("runs %q, want %q", got, want)
	}
	reports, err := c.Score(ctx, rel.Ref(), []string{"m"}, score.Options{Draws: -1})
	if err != nil || len(reports) != 2 || reports[0].Blind || !reports[1].Blind || reports[1].Base != "llm" {
		t.Fatalf("Score(m): %d reports, %v", len(reports), err)
	}
	_, results, err := c.SampleScores(ctx, rel.Ref(), si.ID)
	if err != nil || len(results) != 3 || results[0].Blind || !results[1].Blind || results[1].Model != "m" {
		t.Errorf("SampleScores: %+v, %v", results, err)
	}
	outs, err := c.ReleaseOutcomes(ctx, rel.Ref())
	if err != nil || len(outs) != 1 || !slices.Equal(outs[0].BlindRight, []string{"m"}) || outs[0].Models != 2 {
		t.Errorf("ReleaseOutcomes: %+v, %v", outs, err)
	}
}
