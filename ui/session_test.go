package ui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/bench"
)

// TestTheScreensActAsWhoSignedIn: the Session the screens get is the person's
// who signed in last: after a sign-out and another person's sign-in, what the
// screens write is that person's, and between the two the screens' Session is
// no one's (a late call is refused, never made as the person who left).
func TestTheScreensActAsWhoSignedIn(t *testing.T) {
	tests := []struct {
		first, then string
	}{
		{"ann1", "lead"},
		{"lead", "ann2"},
	}
	for _, tc := range tests {
		t.Run(tc.first+" then "+tc.then, func(t *testing.T) {
			u, _ := demoApp(t)
			for i, name := range []string{tc.first, tc.then} {
				signInAs(t, u, name, "demo")
				if u.user.Name != name {
					t.Fatalf("signed in as %q, want %q", u.user.Name, name)
				}
				openDemoProject(t, u)
				sample, pid := annotateDemoSample(t, u), u.project.ID
				si, err := u.sess.CreateSample(u.ctx(), pid, sample)
				if err != nil {
					t.Fatal(err)
				}
				if si.AuthorName != name {
					t.Errorf("sign-in %d: the screens' Session wrote as %q, want %q", i+1, si.AuthorName, name)
				}
				test.Tap(findButton(t, u.win.Content(), "Sign out"))
				if _, err := u.sess.CreateSample(u.ctx(), pid, sample); err == nil {
					t.Errorf("after %s signed out, the screens' Session still writes", name)
				}
			}
		})
	}
}

// TestAnEndedSessionSaysSo: on a team server, when the session ends under the
// app (the password was changed elsewhere, which ends the account's sessions),
// the screens' reads are refused and the status line says so in words; signing
// in again makes a new Session that works.
func TestAnEndedSessionSaysSo(t *testing.T) {
	serverDB, srv := teamServer(t)
	address := strings.TrimPrefix(srv.URL, "https://")
	u, _ := demoApp(t)
	u.cacheDir = t.TempDir()
	signInToServer(t, u, address, "ann1", "demo")
	eventually(t, "the trust question", func() bool { return u.trustDialog != nil })
	test.Tap(findButton(t, u.win.Canvas().Overlays().Top(), "Trust"))
	eventually(t, "signing in", func() bool { return u.user.Name == "ann1" })
	openDemoProject(t, u)
	if !strings.Contains(u.status.Text, "ann1 (annotator)") {
		t.Fatalf("status line before: %q", u.status.Text)
	}

	lead, err := serverDB.Authenticate(context.Background(), "lead", "demo")
	if err != nil {
		t.Fatal(err)
	}
	if err := serverDB.SetPassword(context.Background(), lead, "ann1", "a-new-long-password"); err != nil {
		t.Fatal(err)
	}
	_, err = u.sess.StatusCounts(u.ctx(), u.project.ID) // what the status line reads
	if !errors.Is(err, bench.ErrSessionEnded) {
		t.Fatalf("a call of the ended session: %v, want ErrSessionEnded", err)
	}
	u.refreshStatus()
	if got, want := u.status.Text, bench.Message(err); got != want || want == "" {
		t.Errorf("the status line says %q, want the refusal's sentence %q", got, want)
	}

	test.Tap(findButton(t, u.win.Content(), "Sign out"))
	signInToServer(t, u, address, "ann1", "a-new-long-password")
	eventually(t, "the project again", func() bool { return strings.Contains(u.status.Text, "ann1 (annotator)") })
	if _, err := u.sess.Projects(u.ctx()); err != nil {
		t.Errorf("the new session's call: %v", err)
	}
}

// TestVideoFramesBesideTheProjectFile: a local project's video frames are
// written beside its file (App.filesDir asks the Service, which the screens do
// not hold), a team server's in the user's cache.
func TestVideoFramesBesideTheProjectFile(t *testing.T) {
	u, db := demoApp(t)
	signInAs(t, u, "lead", "demo")
	got, err := u.videoFramesDir()
	if want := filepath.Join(db.FilesDir(), "video-frames"); err != nil || got != want {
		t.Errorf("a project file's video frames go to %q (%v), want %q", got, err, want)
	}
}
