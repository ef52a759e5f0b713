package ui

import (
	"bytes"
	"context"
	"flag"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
)

// The fixtures keep short passwords ("s3cret", "bench-pw"): these tests are about
// the screens; the store's tests hold the password rule.
func init() {
	store.SetPasswordMinimumForTests(4)
	// Screens follow others' work by polling; a test that acts itself would see its
	// own changes arrive later and its screen reload under it. The tests of the
	// polling turn it on (TestOthersWorkAppears).
	changePoll = 0
	afterPoll = func(time.Duration, func()) func() bool { return func() bool { return true } }
	// Loads run in place: see inBackground.
	inBackground = func(f func()) { f() }
	// No load is ever slow enough for the busy mark (TestLoad shows it).
	afterBusy = func(time.Duration, func()) func() bool { return func() bool { return true } }
}

var update = flag.Bool("update", false, "rewrite the golden images under testdata/")

// shotsDir, when set, receives a PNG of every main screen (see the README).
var shotsDir = os.Getenv("BENCHWRIGHT_SHOTS")

// demoApp opens a seeded demo database in a test app and window.
func demoApp(t *testing.T) (*App, *store.DB) {
	t.Helper()
	db, _ := openSeededDemo(t, seedClock{}, "demo.db")
	a := test.NewTempApp(t)
	u := New(a, db, "Demo accounts: lead, ann1, ann2, ver1 … ver6 — password \"demo\".")
	u.SetDialer(remote.Dialer{})
	u.win.Resize(fyne.NewSize(1000, 640))
	u.win.Show()
	return u, db
}

func signInAs(t *testing.T, u *App, name, password string) {
	t.Helper()
	f := u.signInForm
	f.name.SetText("")
	test.Type(f.name, name)
	test.Type(f.password, password)
	test.Tap(f.button)
}

// assertGolden compares the window with testdata/name; -update rewrites it.
func assertGolden(t *testing.T, name string, w fyne.Window) {
	t.Helper()
	img := w.Canvas().Capture()
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	test.AssertImageMatches(t, name, img)
	if shotsDir != "" {
		f, err := os.Create(filepath.Join(shotsDir, name))
		if err == nil {
			png.Encode(f, img)
			f.Close()
		}
	}
}

func TestSignInAndOpenProject(t *testing.T) {
	u, _ := demoApp(t)
	assertGolden(t, "signin.png", u.win)

	signInAs(t, u, "ann1", "wrong")
	if got := u.signInForm.message.Text; !strings.Contains(got, "Wrong user name or password") {
		t.Fatalf("wrong password shows %q", got)
	}
	if u.user.ID != 0 {
		t.Fatal("signed in with a wrong password")
	}
	signInAs(t, u, "lead", "demo")
	if u.user.Name != "lead" {
		t.Fatalf("signed in as %q", u.user.Name)
	}
	// No last project yet: the picker shows; choose the demo project.
	if u.project.ID != 0 {
		t.Fatal("a project opened before one was picked")
	}
	ps, _ := u.db.As(bench.Owner()).Projects(context.Background())
	u.openProject(ps[0])
	if !strings.Contains(u.status.Text, "lead (lead)") || !strings.Contains(u.status.Text, "8 images") {
		t.Errorf("status bar: %q", u.status.Text)
	}
	var titles []string
	for _, s := range u.screens {
		titles = append(titles, s.title)
	}
	want := []string{"Images", "Annotate", "Verify", "Dashboard", "Export", "Augment", "Validation", "Samples", "Evaluate", "Human baseline", "Settings", "Users"}
	if !slices.Equal(titles, want) {
		t.Errorf("a lead sees the screens %q, want %q", titles, want)
	}
	assertGolden(t, "images.png", u.win)
	for i, s := range u.screens[1:] {
		u.nav.Select(i + 1)
		if s.title == "Augment" || s.title == "Samples" {
			// Both fill themselves off the UI goroutine, and how far their last
			// layout (scroll bars, the page count) got at capture time varies
			// from run to run; TestAugmentScreen and TestSamplesScreen… check them.
			continue
		}
		assertGolden(t, strings.ToLower(s.title)+".png", u.win)
	}
	// The last project is remembered for the next sign-in.
	if got := u.fyne.Preferences().String(prefLastProject); got != "demo" {
		t.Errorf("last project preference %q", got)
	}
}

func TestAnnotatorSeesNoUsersScreen(t *testing.T) {
	u, _ := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "ann1", "demo")
	if u.project.Name != "demo" {
		t.Fatalf("last project not reopened: %q", u.project.Name)
	}
	for _, s := range u.screens {
		if s.title == "Users" {
			t.Fatal("an annotator sees the Users screen")
		}
	}
}

func writeJPEG(t *testing.T, path string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportWithProgress(t *testing.T) {
	u, db := demoApp(t)
	u.fyne.Preferences().SetString(prefLastProject, "demo")
	signInAs(t, u, "lead", "demo")
	dir := t.TempDir()
	for i, name := range []string{"0005-garage-1/a.jpg", "0005-garage-1/b.jpg", "0006-lab-1/c.jpg"} {
		writeJPEG(t, filepath.Join(dir, name), 50+i, 40)
	}
	os.WriteFile(filepath.Join(dir, "0006-lab-1", "broken.jpg"), []byte("not a jpeg"), 0o644)

	// Shown: the first report and the last ones (all files done), none between
	// (issue 27 item 13's pacing).
	progressEvery = time.Hour
	t.Cleanup(func() { progressEvery = 100 * time.Millisecond })
	var seen []string
	im := u.runImport(dir, nil)
	deadline := time.Now().Add(20 * time.Second)
	for u.lastImport == nil && time.Now().Before(deadline) {
		seen = append(seen, im.counts.Text)
		time.Sleep(5 * time.Millisecond)
	}
	if u.lastImport == nil {
		t.Fatal("import did not finish")
	}
	if u.lastImport.Imported != 3 || len(u.lastImport.Rejected) != 1 {
		t.Fatalf("import result %+v", *u.lastImport)
	}
	if im.bar.Value != 1 || !strings.Contains(im.counts.Text, "4 of 4 files") || !strings.Contains(im.counts.Text, "1 rejected") {
		t.Errorf("final progress: bar %.2f, %q", im.bar.Value, im.counts.Text)
	}
	if r := im.reports.Load(); r < 5 || im.updates > 3 {
		t.Errorf("%d progress reports, %d shown; want only the first and the final ones shown", r, im.updates)
	}
	if n, _ := db.CountImages(context.Background(), bench.Owner(), u.project.ID); n != 11 {
		t.Errorf("after import %d images, want 11", n)
	}
	// The summary dialog names the rejected file and its reason.
	found := false
	for _, o := range u.win.Canvas().Overlays().List() {
		for _, obj := range test.LaidOutObjects(o) {
			if l, ok := obj.(*widget.Label); ok && strings.Contains(l.Text, "0006-lab-1/broken.jpg: not a readable image") {
				found = true
			}
		}
	}
	if !found {
		t.Error("the import summary does not list the rejected file with its reason")
	}
}

func TestStoreRefusesWhatTheUIHides(t *testing.T) {
	// The Users screen is hidden from annotators, and the store refuses them anyway.
	u, db := demoApp(t)
	signInAs(t, u, "ann1", "demo")
	if _, err := db.AddUser(context.Background(), u.user, "x", bench.RoleLead, "", "secret"); err == nil {
		t.Fatal("an annotator added a lead")
	}
}

func TestFirstStartCreatesLead(t *testing.T) {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u := New(test.NewTempApp(t), db, "")
	u.win.Resize(fyne.NewSize(1000, 640))
	f := u.firstLead
	if f == nil {
		t.Fatal("a database without accounts does not offer to create the lead")
	}
	test.Type(f.name, "alice")
	test.Type(f.password, "s3cret")
	test.Type(f.again, "s3cre")
	test.Tap(f.button)
	if !strings.Contains(f.message.Text, "differ") || u.user.ID != 0 {
		t.Fatalf("mismatched passwords: %q", f.message.Text)
	}
	test.Type(f.again, "t")
	test.Tap(f.button)
	if u.user.Name != "alice" || u.user.Role != bench.RoleLead {
		t.Fatalf("signed in as %+v", u.user)
	}
	if _, err := db.Authenticate(context.Background(), "alice", "s3cret"); err != nil {
		t.Fatal(err)
	}
}

// A team member starting on a new, empty file may join a team server instead of
// creating a lead there: the sign-in opens with Team server chosen.
func TestFirstStartMayJoinATeamServer(t *testing.T) {
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "new.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u := New(test.NewTempApp(t), db, "")
	if u.firstLead == nil || u.firstLead.join != nil {
		t.Fatalf("without a Dialer the first start offers a team server: %+v", u.firstLead)
	}
	u.SetDialer(remote.Dialer{})
	u.showSignIn()
	if u.firstLead == nil || u.firstLead.join == nil {
		t.Fatal("the first start does not offer to join a team server")
	}
	test.Tap(u.firstLead.join)
	f := u.signInForm
	if f == nil || f.where.Selected != whereServer || f.server.Disabled() || u.firstLead != nil {
		t.Fatalf("after Join: sign-in form %v, first-lead form %v", f != nil, u.firstLead != nil)
	}
	if u.win.Canvas().Focused() != f.server {
		t.Errorf("the focus is on %v, want the server field", u.win.Canvas().Focused())
	}
	// Changing their mind: this workstation's file still has no account to sign
	// in with, so choosing it goes back to creating its first lead.
	f.where.SetSelected(whereLocal)
	if u.firstLead == nil {
		t.Fatal("choosing This workstation on an empty file shows a sign-in form with no account to sign in with")
	}
}
