package ui

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// A freeze the audit refuses offers its errors' samples: the button opens the sample
// manager on them (issue 17: no dead end from a freeze error).
func TestRefusedFreezeOpensTheSamplesWithErrors(t *testing.T) {
	u, v := openExport(t, "lead", nil)
	ctx := context.Background()
	// An accepted sample's image is changed on disk: the freeze's audit finds it.
	page, err := u.db.As(u.user).SearchSamples(ctx, u.project.ID, bench.SampleQuery{States: []verify.State{verify.StateAccepted}, Sort: bench.SortID})
	if err != nil || len(page.Rows) == 0 {
		t.Fatalf("accepted samples: %v", err)
	}
	im, err := u.db.As(bench.Owner()).ImageByPath(ctx, u.project.ID, page.Rows[0].ImagePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(im.Path(), append([]byte("changed"), make([]byte, 100)...), 0o644); err != nil {
		t.Fatal(err)
	}
	var onImage []string
	for _, r := range page.Rows {
		if r.ImagePath == im.RelPath {
			onImage = append(onImage, r.ID)
		}
	}

	if v.freezeOpen.Visible() {
		t.Fatal("the button shows before any freeze")
	}
	test.Type(v.name, "demo-bench")
	test.Type(v.version, "1")
	test.Tap(v.freezeBtn)
	waitFor(t, "the freeze", func() bool { return !v.freezing })
	if v.freezeDialog != nil || !strings.HasPrefix(v.freezeMsg.Text, "Not frozen: the audit found") {
		t.Errorf("a freeze whose audit finds errors asks to confirm (%v) or says %q", v.freezeDialog != nil, v.freezeMsg.Text)
	}
	if len(v.releases) != 0 || !v.freezeOpen.Visible() {
		t.Fatalf("a freeze over a changed image: %d releases, %q, button shown %v", len(v.releases), v.freezeMsg.Text, v.freezeOpen.Visible())
	}

	delete(lastSamples, u)
	test.Tap(v.freezeOpen)
	s := samplesOf(t, u)
	if s.page.Total != len(onImage) {
		t.Fatalf("the button opened %d samples (query %+v), want the %d accepted on %s", s.page.Total, s.q, len(onImage), im.RelPath)
	}
	for _, r := range s.page.Rows {
		if !slices.Contains(onImage, r.ID) {
			t.Errorf("%s (on %s, %s) is not one of the samples the freeze's errors name", r.ID, r.ImagePath, r.Status)
		}
	}
}
