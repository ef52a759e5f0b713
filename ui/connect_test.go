package ui

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// teamServer serves a fresh demo project over TLS on loopback and returns the
// server's database and address.
func teamServer(t *testing.T) (*store.DB, *httptest.Server) {
	t.Helper()
	db, _ := openSeededDemo(t, seedClock{}, "server.db")
	srv := httptest.NewTLSServer(remote.NewServer(db, log.New(io.Discard, "", 0)).Handler())
	t.Cleanup(srv.Close)
	return db, srv
}

// eventually waits until cond holds (work done off the UI goroutine).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func signInToServer(t *testing.T, u *App, address, name, password string) {
	t.Helper()
	f := u.signInForm
	f.where.SetSelected(whereServer)
	f.server.SetText("")
	test.Type(f.server, address)
	f.name.SetText("")
	test.Type(f.name, name)
	test.Type(f.password, password)
	test.Tap(f.button)
}

// TestTeamServerSignIn: the app connects to a team server, shows its certificate
// the first time and pins it once trusted, works on the server's project (the
// screens cannot tell), and refuses a server whose certificate changed.
func TestTeamServerSignIn(t *testing.T) {
	serverDB, srv := teamServer(t)
	address := strings.TrimPrefix(srv.URL, "https://")
	fp := remote.Fingerprint(srv.Certificate().Raw)

	u, _ := demoApp(t) // the workstation's own demo file, a different project
	u.cacheDir = t.TempDir()
	signInToServer(t, u, address, "ann1", "demo")
	eventually(t, "the trust question", func() bool { return u.trustDialog != nil })
	top := u.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shows the certificate")
	}
	if !strings.Contains(labelsText(top), fp) {
		t.Errorf("the trust question does not show the fingerprint %s:\n%s", fp, labelsText(top))
	}
	test.Tap(findButton(t, top, "Trust"))
	eventually(t, "signing in", func() bool { return u.user.Name == "ann1" })
	if !u.onServer() {
		t.Fatal("signed in, but not on the server")
	}
	openDemoProject(t, u)
	if got := u.pin("https://" + address); got != fp {
		t.Errorf("pinned %q, want %q", got, fp)
	}
	// The screens work on the server's project: a sample created in the editor
	// lands in the server's file.
	before, _ := serverDB.StatusCounts(context.Background(), bench.Owner(), u.project.ID)
	si, err := u.db.As(u.user).CreateSample(u.ctx(), u.project.ID, annotateDemoSample(t, u))
	if err != nil {
		t.Fatal(err)
	}
	got, err := serverDB.Sample(context.Background(), bench.Owner(), si.ID)
	if err != nil || got.AuthorName != "ann1" {
		t.Fatalf("the server's file after a create through the app: %+v, %v", got, err)
	}
	after, _ := serverDB.StatusCounts(context.Background(), bench.Owner(), u.project.ID)
	if after[verify.StateDraft] != before[verify.StateDraft]+1 {
		t.Errorf("drafts on the server %d → %d", before[verify.StateDraft], after[verify.StateDraft])
	}

	// Sign out, and pin another certificate for the address: refused, said why.
	test.Tap(findButton(t, u.win.Content(), "Sign out"))
	u.setPin("https://"+address, "SHA256:"+strings.Repeat("ab", 32))
	signInToServer(t, u, address, "ann1", "demo")
	eventually(t, "the refusal", func() bool { return strings.Contains(u.signInForm.message.Text, "certificate changed") })
	if u.user.ID != 0 {
		t.Error("signed in to a server whose certificate changed")
	}
}

// TestOthersWorkAppears: a lead's status line and dashboard follow what a
// verifier does on another workstation, without a manual refresh.
func TestOthersWorkAppears(t *testing.T) {
	changePoll = 50 * time.Millisecond
	// The test runs the next poll itself: a timer's fyne.Do would touch the
	// widgets on the timer's goroutine while the test reads them.
	var next func()
	afterPoll = func(_ time.Duration, f func()) func() bool { next = f; return func() bool { return true } }
	t.Cleanup(func() {
		changePoll = 0
		afterPoll = func(time.Duration, func()) func() bool { return func() bool { return true } }
	})
	serverDB, srv := teamServer(t)
	address := strings.TrimPrefix(srv.URL, "https://")
	u, _ := demoApp(t)
	u.cacheDir = t.TempDir()
	u.setPin("https://"+address, remote.Fingerprint(srv.Certificate().Raw))
	signInToServer(t, u, address, "lead", "demo")
	eventually(t, "signing in", func() bool { return u.user.Name == "lead" })
	openDemoProject(t, u)
	u.show(indexOfScreen(t, u, "Dashboard"))
	status := u.status.Text
	// Another workstation: ann2 starts a sample.
	ctx := context.Background()
	ann2, err := serverDB.UserByName(ctx, bench.Owner(), "ann2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := serverDB.CreateSample(ctx, ann2, u.project.ID, annotateDemoSample(t, u)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the status line to follow", func() bool {
		next()
		return u.status.Text != status
	})
}

func indexOfScreen(t *testing.T, u *App, title string) int {
	t.Helper()
	for i, s := range u.screens {
		if s.title == title {
			return i
		}
	}
	t.Fatalf("no %s screen", title)
	return -1
}

// annotateDemoSample is a valid hop sample on the project's first image.
func annotateDemoSample(t *testing.T, u *App) annotate.Sample {
	t.Helper()
	ims, err := u.db.As(u.user).Images(u.ctx(), u.project.ID, 0, 1)
	if err != nil || len(ims) == 0 {
		t.Fatalf("images: %v %v", ims, err)
	}
	return storetest.HopSample(ims[0].RelPath)
}

// labelsText is the text of every label below o.
func labelsText(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// openDemoProject opens the demo project from the project list sign-in led to.
func openDemoProject(t *testing.T, u *App) {
	t.Helper()
	p, err := u.db.As(u.user).ProjectByName(u.ctx(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	u.openProject(p)
}

// TestOfflineSaveKeepsEditsAndRetries: while the team server cannot be reached,
// a save keeps what was typed and says so; when it is back, the edit is saved
// without anyone pressing anything.
func TestOfflineSaveKeepsEditsAndRetries(t *testing.T) {
	offlineRetry = 50 * time.Millisecond
	t.Cleanup(func() { offlineRetry = 3 * time.Second })
	serverDB, srv, down := serverThatDrops(t)
	address := strings.TrimPrefix(srv.URL, "https://")
	u, _ := demoApp(t)
	u.cacheDir = t.TempDir()
	u.setPin("https://"+address, remote.Fingerprint(srv.Certificate().Raw))
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInToServer(t, u, address, "ann1", "demo")
	eventually(t, "signing in", func() bool { return u.project.ID != 0 })
	u.show(indexOfScreen(t, u, "Annotate"))
	ws := findWorkspace(t, u)
	ws.autosaveDelay = time.Hour
	// The test fires the retries itself: under the test driver a timer's fyne.Do
	// runs the retry on the timer's goroutine, racing the test (go test -race).
	var retries []func()
	ws.after = func(d time.Duration, f func()) func() bool {
		if d == offlineRetry {
			retries = append(retries, f)
		}
		return func() bool { return true }
	}
	if ws.sample == nil {
		t.Fatal("no draft open")
	}
	id := ws.sample.ID
	f := ws.form.(*hopForm)

	down.Store(true)
	srv.CloseClientConnections()
	f.question.SetText("Typed while the server was away?")
	shortcut(u, fyne.KeyS, ctrl)
	if !ws.offline || !ws.dirty || !strings.HasPrefix(ws.saveState.Text, "Offline") {
		t.Fatalf("offline save: offline %v, dirty %v, %q", ws.offline, ws.dirty, ws.saveState.Text)
	}
	if f.question.Text != "Typed while the server was away?" {
		t.Fatalf("the typed text is gone: %q", f.question.Text)
	}
	if len(retries) == 0 {
		t.Fatal("the offline save planned no retry")
	}
	down.Store(false)
	eventually(t, "the retry to save", func() bool {
		for len(retries) > 0 { // a retry that fails plans the next
			r := retries[0]
			retries = retries[1:]
			r()
		}
		si, err := serverDB.Sample(context.Background(), bench.Owner(), id)
		return err == nil && si.Content.Question == "Typed while the server was away?"
	})
	if ws.dirty || !strings.HasPrefix(ws.saveState.Text, "Saved") {
		t.Errorf("after the retry: dirty %v, %q", ws.dirty, ws.saveState.Text)
	}
}

// serverThatDrops is a team server on the demo project whose network drops while
// down is set: each connection closes without an answer.
func serverThatDrops(t *testing.T) (*store.DB, *httptest.Server, *atomic.Bool) {
	t.Helper()
	db, h := teamServerHandler(t)
	down := new(atomic.Bool)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return db, srv, down
}

// teamServerHandler is teamServer's database and handler, for tests that wrap it.
func teamServerHandler(t *testing.T) (*store.DB, http.Handler) {
	t.Helper()
	db, _ := openSeededDemo(t, seedClock{}, "server.db")
	return db, remote.NewServer(db, log.New(io.Discard, "", 0)).Handler()
}

// TestImageFilesAreTheServersToCheck: on a workstation connected to a team
// server, an image's file lives on the server, so its absence here is no warning;
// locally it is.
func TestImageFilesAreTheServersToCheck(t *testing.T) {
	im := bench.Image{RelPath: "0001-office-1/a.jpg", Root: t.TempDir(), SHA256: strings.Repeat("ab", 32)}
	if err := imageFileProblem(im, false); !errors.Is(err, bench.ErrImageMissing) {
		t.Errorf("a local project's missing file: %v, want ErrImageMissing", err)
	}
	if err := imageFileProblem(im, true); err != nil {
		t.Errorf("on a team server: %v, want nothing to say", err)
	}
}

// TestTheQueueFollowsTheServerBack: while the team server cannot be reached, the
// annotator's queue says it was not read (in the queue and the status bar, not
// in a dialog over the editor), rather than showing an empty queue; when the
// server answers again the change poll reads it again without anyone asking.
func TestTheQueueFollowsTheServerBack(t *testing.T) {
	changePoll = 50 * time.Millisecond
	var next func()
	afterPoll = func(_ time.Duration, f func()) func() bool { next = f; return func() bool { return true } }
	t.Cleanup(func() {
		changePoll = 0
		afterPoll = func(time.Duration, func()) func() bool { return func() bool { return true } }
	})
	_, srv, down := serverThatDrops(t)
	address := strings.TrimPrefix(srv.URL, "https://")
	u, _ := demoApp(t)
	u.cacheDir = t.TempDir()
	u.setPin("https://"+address, remote.Fingerprint(srv.Certificate().Raw))
	u.fyne.Preferences().SetString(prefLastProject, demo.DemoProject)
	signInToServer(t, u, address, "ann1", "demo")
	eventually(t, "signing in", func() bool { return u.project.ID != 0 })
	u.show(indexOfScreen(t, u, "Annotate"))
	ws := findWorkspace(t, u)
	drafts := func() string {
		for _, it := range ws.items {
			if strings.HasPrefix(it.title, "Your drafts") {
				return it.title + " " + it.detail
			}
		}
		return ""
	}
	if !strings.HasPrefix(drafts(), "Your drafts · ") {
		t.Fatalf("the queue read with the server up: %q", drafts())
	}

	down.Store(true)
	srv.CloseClientConnections()
	ws.reloadQueue()
	if got := drafts(); !strings.Contains(got, "Not read") || !strings.Contains(got, "team server cannot be reached") {
		t.Errorf("the queue with the server away shows %q", got)
	}
	if !strings.HasPrefix(u.status.Text, "Your queue could not be read") || strings.Contains(u.status.Text, "EOF") {
		t.Errorf("the status bar says %q", u.status.Text)
	}
	if top := u.win.Canvas().Overlays().Top(); top != nil {
		t.Errorf("a dialog covers the editor: %v", labelsText(top))
	}
	next() // a poll while the server is away fails

	down.Store(false)
	next() // the first poll that is answered reads the queue again
	if got := drafts(); !strings.HasPrefix(got, "Your drafts · ") || strings.Contains(got, "Not read") {
		t.Errorf("after the server came back the queue shows %q", got)
	}
}
