package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/bench"
)

// Team mode: the sign-in screen opens the local project file or a team server. A
// server's certificate is pinned the first time the person trusts it (Preferences,
// per address), as SSH does; a changed certificate is refused and said so.

const (
	prefWhere   = "signin.where"   // "server" when the last sign-in was to a team server
	prefServer  = "server.address" // the last team server's address
	prefPins    = "server.pins"    // "ADDRESS SHA256:…" per trusted server
	whereLocal  = "This workstation"
	whereServer = "Team server"
)

// changePoll is how often an open project asks whether someone else acted (0:
// never).
var changePoll = 3 * time.Second

// pin is the fingerprint trusted for address, or "".
func (u *App) pin(address string) string {
	for _, p := range u.fyne.Preferences().StringList(prefPins) {
		if a, fp, ok := strings.Cut(p, " "); ok && a == address {
			return fp
		}
	}
	return ""
}

func (u *App) setPin(address, fp string) {
	var keep []string
	for _, p := range u.fyne.Preferences().StringList(prefPins) {
		if a, _, _ := strings.Cut(p, " "); a != address {
			keep = append(keep, p)
		}
	}
	u.fyne.Preferences().SetStringList(prefPins, append(keep, address+" "+fp))
}

// connect dials the team server at address off the UI goroutine (load) and signs
// in; done runs on the UI goroutine with the result. A certificate seen for the
// first time is shown to the person, who compares it with what the server printed.
func (u *App) connect(address, name, password string, done func(bench.User, error)) {
	servers := u.servers
	if servers == nil {
		done(bench.User{}, errors.New("this build of Benchwright cannot connect to team servers"))
		return
	}
	base, err := servers.ParseAddress(address)
	if err != nil {
		done(bench.User{}, err)
		return
	}
	cache, pinned := u.cacheDir, u.pin(base)
	load(u, "", func() (dialed, error) {
		var seen string
		d, err := dialAndSignIn(servers, base, pinned, cacheFor(cache, base),
			func(fp string) error { seen = fp; return errAskFirst }, name, password)
		if errors.Is(err, errAskFirst) && seen != "" {
			return dialed{seen: seen}, nil
		}
		return d, err
	}, func(d dialed, err error) {
		if err == nil && d.seen != "" {
			u.askTrust(servers, base, d.seen, name, password, done)
			return
		}
		u.finishConnect(d, err, done)
	})
}

// dialed is a connection made and signed in (client, user), or the certificate
// the person is to be asked about first (seen).
type dialed struct {
	client bench.Connection
	user   bench.User
	seen   string
}

// dialAndSignIn dials base and signs in as name, off the UI goroutine.
func dialAndSignIn(servers bench.Dialer, base, fingerprint, cacheDir string, trust func(string) error, name, password string) (dialed, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := servers.Dial(ctx, base, fingerprint, cacheDir, trust)
	if err != nil {
		return dialed{}, err
	}
	user, err := c.Authenticate(ctx, name, password)
	if err != nil {
		c.Close()
		return dialed{}, err
	}
	return dialed{client: c, user: user}, nil
}

// errAskFirst stops the first dial at an unknown certificate: the person is asked.
var errAskFirst = errors.New("ask the person first")

func (u *App) askTrust(servers bench.Dialer, base, fp, name, password string, done func(bench.User, error)) {
	msg := widget.NewLabel(fmt.Sprintf("This is the first connection to %s. Its certificate is\n\n%s\n\n"+
		"Compare it with the fingerprint the server printed when it started (ask the lead). "+
		"Trust this server on this workstation?", strings.TrimPrefix(base, "https://"), fp))
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Trust this team server?", "Trust", "Cancel", msg, func(ok bool) {
		if !ok {
			done(bench.User{}, fmt.Errorf("%w: you did not trust %s", bench.ErrNotTrusted, base))
			return
		}
		u.setPin(base, fp)
		cache := u.cacheDir
		load(u, "", func() (dialed, error) {
			return dialAndSignIn(servers, base, fp, cacheFor(cache, base), nil, name, password)
		}, func(d dialed, err error) { u.finishConnect(d, err, done) })
	}, u.win)
	d.Resize(fyne.NewSize(520, 300))
	d.Show()
	u.trustDialog = d
}

// finishConnect, on the UI goroutine, switches to a connection made and signed in.
func (u *App) finishConnect(d dialed, err error, done func(bench.User, error)) {
	if err != nil {
		done(bench.User{}, err)
		return
	}
	u.useService(d.client)
	done(d.user, nil)
}

func cacheFor(dir, base string) string {
	if dir == "" {
		return ""
	}
	return dir + "/" + strings.NewReplacer("https://", "", ":", "_", "[", "", "]", "").Replace(base)
}

// onServer reports whether the project is on a team server.
func (u *App) onServer() bool {
	_, ok := u.db.(bench.Connection)
	return ok
}

// watchChanges polls the project's change counter while a project is open and,
// when someone else acted or the server answers again after it was away, reads
// the status line again and runs the open screen's reload (onOthersChanged: the dashboard and the verifier's queue set one; the
// editor, which could lose typing, sets none). Each poll runs off the UI goroutine
// (inBackground) and the next is timed from its answer (afterPoll), so a slow
// server is never asked twice at once.
func (u *App) watchChanges() {
	u.stopWatching()
	if changePoll <= 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	svc := u.db
	var last int64
	known, away := false, false
	stopTimer := func() bool { return false }
	u.stopWatch = func() { cancel(); stopTimer() }
	var poll func()
	poll = func() {
		inBackground(func() {
			n, err := svc.LastChange(ctx)
			fyne.Do(func() {
				if ctx.Err() != nil {
					return // the project was left meanwhile
				}
				switch {
				case err != nil:
					away = true
				case away || known && n != last:
					// Someone acted, or the server answers again after it was
					// away: what the screen shows may be stale or was never read.
					u.othersChanged()
					fallthrough
				default:
					last, known, away = n, true, false
				}
				stopTimer = afterPoll(changePoll, poll)
			})
		})
	}
	poll()
}

// afterPoll runs f on the UI goroutine once d has passed, unless the returned
// stop is called first. The tests replace it and run the poll themselves: a
// timer's fyne.Do runs on the timer's goroutine in fyne's test driver.
var afterPoll = func(d time.Duration, f func()) (stop func() bool) {
	return time.AfterFunc(d, func() { fyne.Do(f) }).Stop
}

// inBackground runs a screen's load off the UI goroutine; its result comes back
// through fyne.Do. Fyne's test driver runs fyne.Do at once on the calling
// goroutine, so a load finishing in the background would touch widgets while the
// test taps them (a fatal concurrent map write inside fyne): the tests run loads
// in place (app_test.go).
var inBackground = func(f func()) { go f() }

// stopWatching ends watchChanges' polling and forgets the open screen's reload.
func (u *App) stopWatching() {
	if u.stopWatch != nil {
		u.stopWatch()
		u.stopWatch = nil
	}
	u.onOthersChanged = nil
}

// clocked is a Service with a clock of its own: a project file's, which tests
// set (store's DB).
type clocked interface{ CurrentTime() time.Time }

// now is the project's clock: a local project file's (tests set it), else this
// machine's.
func (u *App) now() time.Time {
	if c, ok := u.db.(clocked); ok {
		return c.CurrentTime()
	}
	return time.Now()
}

// showThumb shows the thumbnail of the image with hash sha in img once looked up
// (a file on this disk, or fetched from the team server), off the UI goroutine;
// a grid cell reused meanwhile for another image is left alone.
func (u *App) showThumb(img *canvas.Image, sha string) {
	if u.thumbWant == nil {
		u.thumbWant = map[*canvas.Image]string{}
	}
	u.thumbWant[img] = sha
	if u.onServer() { // blank until fetched; a local file shows as soon as it is looked up
		img.File = ""
		img.Refresh()
	}
	sess, ctx := u.sess, u.ctx()
	load(u, "", func() (string, error) { return sess.ImageFile(ctx, sha, bench.ImageThumb) }, func(p string, err error) {
		if u.thumbWant[img] != sha {
			return
		}
		if err != nil {
			p = ""
		}
		img.File = p
		img.Refresh()
	})
}

// othersChanged reads the status line again and tells the open screen, which
// reloads what it can without losing anything typed.
func (u *App) othersChanged() {
	if u.project.ID == 0 || u.user.ID == 0 {
		return
	}
	u.refreshStatus()
	if u.onOthersChanged != nil {
		u.onOthersChanged()
	}
}
