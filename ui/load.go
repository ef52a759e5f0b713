package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Every call of the store from a screen goes through load (issue 28 item 6): on a
// team server a call is a network round trip, and one made on the UI goroutine
// froze the window for as long as the server took (up to the client's one-minute
// timeout). TestNoStoreCallOnTheUIGoroutine holds every screen to it.

// busyAfter is how long a load runs before the status bar says the app is busy.
const busyAfter = 150 * time.Millisecond

// afterBusy runs f once d has passed, unless the returned stop is called first.
// The tests replace it: its timer's goroutine would race their taps.
var afterBusy = func(d time.Duration, f func()) (stop func() bool) { return time.AfterFunc(d, f).Stop }

// loads is the App's bookkeeping of its loads, touched on the UI goroutine only.
type loads struct {
	gen  map[string]uint64 // per slot, the newest load's number
	busy int               // loads running past busyAfter
	mark *widget.Label     // "Working…" in the status bar while busy > 0
}

// busyMark is the status bar's busy mark (made once per App).
func (u *App) busyMark() *widget.Label {
	if u.loads.mark == nil {
		// Bold in the theme's primary colour: in low importance's grey it was
		// hard to see on the dark status bar (seen under Xvfb).
		u.loads.mark = widget.NewLabelWithStyle("Working…", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		u.loads.mark.Importance = widget.HighImportance
		u.loads.mark.Hide()
	}
	return u.loads.mark
}

// setBusy counts a load running long (+1) or ended after that (−1) and shows the
// mark while any is.
func (u *App) setBusy(delta int) {
	u.loads.busy = max(0, u.loads.busy+delta)
	m := u.busyMark()
	if u.loads.busy > 0 {
		m.Show()
	} else {
		m.Hide()
	}
}

// load runs run off the UI goroutine (inBackground) and hands its result to show
// on the UI goroutine (fyne.Do). slot names what the load fills: a later load of
// the same slot makes an earlier one's result stale, and it is dropped unshown
// (a search typed on while the last one was answered; a sample left for the next).
// "" is a slot of its own every time: nothing drops its result. While run takes
// longer than busyAfter the status bar shows the busy mark. Call it on the UI
// goroutine; the tests run it in place (inBackground, afterBusy).
func load[T any](u *App, slot string, run func() (T, error), show func(T, error)) {
	var gen uint64
	if slot != "" {
		if u.loads.gen == nil {
			u.loads.gen = map[string]uint64{}
		}
		u.loads.gen[slot]++
		gen = u.loads.gen[slot]
	}
	busy, ended := false, false // UI goroutine only
	stop := afterBusy(busyAfter, func() {
		fyne.Do(func() {
			if !ended && !busy {
				busy = true
				u.setBusy(+1)
			}
		})
	})
	inBackground(func() {
		v, err := run()
		stop()
		fyne.Do(func() {
			ended = true
			if busy {
				u.setBusy(-1)
			}
			if slot != "" && u.loads.gen[slot] != gen {
				return // a newer load of the slot is under way or shown
			}
			show(v, err)
		})
	})
}

// act is load for a call whose only result is an error (a write).
func act(u *App, slot string, run func() error, show func(error)) {
	load(u, slot, func() (struct{}, error) { return struct{}{}, run() }, func(_ struct{}, err error) { show(err) })
}
