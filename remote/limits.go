package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/benchwright/benchwright/bench"
)

// Request bodies are read at a pace and within a budget: a client that sends its
// body slowly is cut off (it would hold a connection and a goroutine for as long
// as it liked), and the bytes of bodies held in memory at once are bounded for
// the whole server and for each account (each body is read whole before its call
// runs, and decoded; twenty 60 MB bodies from one account grew a server by 3 GB).

const (
	// DefaultBodyFloor is the time any request body may take; a longer body
	// must keep up DefaultBodyRate on average beyond it.
	DefaultBodyFloor = 10 * time.Second
	// DefaultBodyRate is the slowest average a long body may arrive at, in bytes
	// a second (a slow link of 128 kbit/s).
	DefaultBodyRate = 16 << 10
	// DefaultBodyBudget bounds the bytes of request bodies the server holds at
	// once; a body beyond it is refused with 503 (retry later).
	DefaultBodyBudget = 256 << 20
	// DefaultAccountBodyBudget bounds one account's share of it; beyond it, 429.
	DefaultAccountBodyBudget = 2 * DefaultMaxBody
)

// SetBodyPace changes how long a body may take: floor for any body, and beyond
// it an average of at least rate bytes a second (tests use small ones).
func (s *Server) SetBodyPace(floor time.Duration, rate int64) {
	s.bodyFloor, s.bodyRate = floor, rate
}

// SetBodyBudget changes the bytes of request bodies held at once, server-wide
// and per account.
func (s *Server) SetBodyBudget(total, perAccount int64) {
	s.bodies = newBodyBudget(total, perAccount)
}

// bodyBudget is a semaphore of bytes: each body takes its size (its declared
// length, or the largest allowed when it declares none) before it is read and
// gives it back when its request ends.
type bodyBudget struct {
	mu         sync.Mutex
	total      int64
	perAccount int64
	used       int64
	byAccount  map[int64]int64
}

func newBodyBudget(total, perAccount int64) *bodyBudget {
	return &bodyBudget{total: total, perAccount: perAccount, byAccount: map[int64]int64{}}
}

// take reserves n bytes for account (0: none yet, as for a sign-in) and returns
// the function that gives them back, or the status that refuses the body: 429
// when the account's share is full, 503 when the server's is.
func (b *bodyBudget) take(account, n int64) (release func(), status int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if account != 0 && b.byAccount[account]+n > b.perAccount {
		return nil, http.StatusTooManyRequests
	}
	if b.used+n > b.total {
		return nil, http.StatusServiceUnavailable
	}
	b.used += n
	if account != 0 {
		b.byAccount[account] += n
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.used -= n
			if account != 0 {
				if b.byAccount[account] -= n; b.byAccount[account] <= 0 {
					delete(b.byAccount, account)
				}
			}
		})
	}, 0
}

// errBodyTooSlow is a body that did not keep up the server's pace.
var errBodyTooSlow = errors.New("the request body came too slowly")

// pacedReader reads a request body, keeping the connection's read deadline at
// start + floor + (bytes read so far)/rate: a body must arrive within floor, or
// at rate on average beyond it. It works per stream over HTTP/2.
type pacedReader struct {
	r     io.Reader
	rc    *http.ResponseController
	start time.Time
	floor time.Duration
	rate  int64
	n     int64
	// noDeadline: the connection cannot take read deadlines (then the pace is
	// checked after each read, which a silent client can still hold up).
	noDeadline bool
	err        error // the last error reading the body (not io.EOF)
}

func (p *pacedReader) due() time.Time {
	return p.start.Add(p.floor + time.Duration(float64(p.n)/float64(p.rate)*float64(time.Second)))
}

func (p *pacedReader) Read(b []byte) (int, error) {
	due := p.due()
	if !time.Now().Before(due) {
		p.err = errBodyTooSlow
		return 0, p.err
	}
	if !p.noDeadline {
		if err := p.rc.SetReadDeadline(due); err != nil {
			p.noDeadline = true
		}
	}
	n, err := p.r.Read(b)
	p.n += int64(n)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		err = errBodyTooSlow
	}
	if err != nil && err != io.EOF {
		p.err = err
	}
	return n, err
}

// done lifts the body's deadline, so that it does not cut the answer's
// connection or the next request on it.
// A body that fell behind keeps its deadline passed, so that net/http does not
// wait for its rest before reusing the connection: it closes it.
func (p *pacedReader) done() {
	switch {
	case p.noDeadline:
	case errors.Is(p.err, errBodyTooSlow):
		_ = p.rc.SetReadDeadline(time.Now())
	default:
		_ = p.rc.SetReadDeadline(time.Time{})
	}
}

// openBody prepares r's body to be read by what: at most limit bytes, at the
// server's pace, its size taken from the server's byte budget until the request
// ends (me's share when signed in). A body refused at once is answered here
// (ok false); the reader's errors are answered by refuseBody.
func (s *Server) openBody(w http.ResponseWriter, r *http.Request, me bench.User, what string, limit int64) (body *pacedReader, ok bool) {
	if r.ContentLength > limit {
		s.refuse(w, r, me, http.StatusRequestEntityTooLarge, what, fmt.Sprintf("a request body over %d bytes", limit))
		return nil, false
	}
	size := limit
	if r.ContentLength >= 0 {
		size = r.ContentLength
	}
	if size > 0 {
		release, status := s.bodies.take(me.ID, size)
		switch status {
		case http.StatusTooManyRequests:
			s.refuse(w, r, me, status, what, fmt.Sprintf("too many large requests of this account at once (a request of %d MiB); try again when the others are done", (size+(1<<20)-1)>>20))
			return nil, false
		case http.StatusServiceUnavailable:
			s.refuse(w, r, me, status, what, fmt.Sprintf("the server is busy with other large requests (a request of %d MiB); try again in a minute", (size+(1<<20)-1)>>20))
			return nil, false
		}
		if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
			info.after = append(info.after, release)
		} else {
			release() // not served through the guard: nothing would give it back
		}
	}
	return s.pacedBody(w, r, limit), true
}

// pacedBody is r's body of at most limit bytes, read at the server's pace.
func (s *Server) pacedBody(w http.ResponseWriter, r *http.Request, limit int64) *pacedReader {
	return &pacedReader{
		r:     http.MaxBytesReader(w, r.Body, limit),
		rc:    http.NewResponseController(w),
		start: time.Now(),
		floor: s.bodyFloor,
		rate:  s.bodyRate,
	}
}

// refuseBody answers a request whose body could not be read whole (too big,
// too slow, cut off: body's own error) or decoded (err).
func (s *Server) refuseBody(w http.ResponseWriter, r *http.Request, me bench.User, what string, limit int64, body *pacedReader, err error) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(body.err, &tooBig):
		s.refuse(w, r, me, http.StatusRequestEntityTooLarge, what, fmt.Sprintf("a request body over %d bytes", limit))
	case errors.Is(body.err, errBodyTooSlow):
		s.refuse(w, r, me, http.StatusRequestTimeout, what, fmt.Sprintf("a request body that came too slowly (it must come within %s, or at %d KiB/s beyond)",
			roundUp(s.bodyFloor), s.bodyRate>>10))
	case body.err != nil:
		s.refuse(w, r, me, http.StatusBadRequest, what, "an unreadable request body")
	default:
		s.refuse(w, r, me, http.StatusBadRequest, what, "a malformed request: "+err.Error())
	}
}

// decodeBody decodes one JSON value holding only the fields v has from body: a
// field the call does not take (an "actor" naming someone else, say) is an
// error, and so is a second value. The body is decoded as it arrives, not read
// whole first: one copy of it is held (the decoder's), not two.
func decodeBody(body io.Reader, v any) error {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}
