package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/verify"
)

// awayDB is a bench.Service whose writes, and LastChange, fail as a team server's
// do when it cannot be reached, while down is set.
type awayDB struct {
	bench.Service
	down atomic.Bool
}

func (d *awayDB) away() error {
	if d.down.Load() {
		return fmt.Errorf("%w (test): connection refused", remote.ErrOffline)
	}
	return nil
}

// As is the Session of u with its writes failing while the server is away.
func (d *awayDB) As(u bench.User) bench.Session { return awaySession{d.Service.As(u), d} }

// awaySession is the Session awayDB.As gives: its overrides, the rest u's.
type awaySession struct {
	bench.Session
	d *awayDB
}

func (w awaySession) SaveDraft(ctx context.Context, id string, v int, s annotate.Sample) (int, error) {
	if err := w.d.away(); err != nil {
		return 0, err
	}
	return w.Session.SaveDraft(ctx, id, v, s)
}

func (w awaySession) Submit(ctx context.Context, id string, v int, ack []string) (bench.SampleInfo, error) {
	if err := w.d.away(); err != nil {
		return bench.SampleInfo{}, err
	}
	return w.Session.Submit(ctx, id, v, ack)
}

func (d *awayDB) LastChange(ctx context.Context) (int64, error) {
	if err := d.away(); err != nil {
		return 0, err
	}
	return d.Service.LastChange(ctx)
}

func bannerText(ws *workspace) string {
	var b strings.Builder
	for _, o := range ws.banner.Objects {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text)
		}
	}
	return b.String()
}

// A submit pressed while the team server cannot be reached is queued like a
// save, and said so; once the server is back, one retry saves and submits it and
// the Offline banner is gone. Whether or not something was left to save.
func TestAnnotateSubmitWhileOfflineIsQueued(t *testing.T) {
	offlineRetry = time.Hour // the test runs the retry itself
	t.Cleanup(func() { offlineRetry = 3 * time.Second })
	for _, dirty := range []bool{true, false} {
		t.Run(fmt.Sprintf("unsaved edits %v", dirty), func(t *testing.T) {
			u, ws := openAnnotate(t, "ann1")
			db := &awayDB{Service: u.db}
			withService(u, db)
			id := ws.sample.ID
			f := ws.form.(*hopForm)
			if dirty {
				f.question.SetText("Which object in front of the armchair is the smallest one?")
			}
			db.down.Store(true)
			shortcut(u, fyne.KeyReturn, ctrl)
			if ws.queued == nil || ws.sample == nil || ws.sample.ID != id {
				t.Fatalf("offline submit: queued %+v, open %v", ws.queued, ws.sample != nil)
			}
			if b := bannerText(ws); !strings.Contains(b, "submit of "+id+" is queued") {
				t.Fatalf("the banner says %q", b)
			}
			if !strings.Contains(u.status.Text, "queued") || !strings.Contains(ws.saveState.Text, "submit queued") {
				t.Fatalf("status %q, save state %q", u.status.Text, ws.saveState.Text)
			}
			ws.retryOffline() // still away: nothing changes
			if ws.queued == nil || storedSample(t, u, id).Status != verify.StateDraft {
				t.Fatal("the queued submit went away while the server was")
			}
			db.down.Store(false)
			ws.retryOffline()
			si := storedSample(t, u, id)
			if si.Status == verify.StateDraft || ws.queued != nil {
				t.Fatalf("back online: %s is %s, queued %+v", id, si.Status, ws.queued)
			}
			if dirty && si.Content.Question != "Which object in front of the armchair is the smallest one?" {
				t.Fatalf("submitted without the edit: %q", si.Content.Question)
			}
			if ws.offline || bannerText(ws) != "" {
				t.Fatalf("the Offline banner stayed: %q", bannerText(ws))
			}
			if ws.sample != nil && ws.sample.ID == id {
				t.Fatal("the submitted sample is still open")
			}
		})
	}
}
