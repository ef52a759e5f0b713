package ui

import (
	"sync"
	"time"
)

// progressEvery is the shortest time between two progress updates a long job
// (an export) shows. An export reports every record; drawing each report took the
// UI goroutine longer than writing the record (issue 27 item 13: the app exported
// a 5,775-sample release ~15× slower than bwctl, its window busy with thousands
// of queued updates). Tests lengthen it to count updates exactly.
var progressEvery = 100 * time.Millisecond

// pacer lets through the progress reports worth showing: the first, the last (done
// ≥ total) and one per progressEvery between them. It is called from the job's
// goroutine.
type pacer struct {
	mu    sync.Mutex
	every time.Duration
	last  time.Time
	began bool
}

func newPacer() *pacer { return &pacer{every: progressEvery} }

// due tells whether the report (done of total) is to be shown.
func (p *pacer) due(done, total int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.began && done < total && now.Sub(p.last) < p.every {
		return false
	}
	p.began, p.last = true, now
	return true
}
