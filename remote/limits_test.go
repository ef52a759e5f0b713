package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// dribble is a request body that sends one byte every pause until stop is
// closed, counting what it sent.
type dribble struct {
	pause time.Duration
	left  int
	sent  *atomic.Int64
	stop  chan struct{}
}

func (d *dribble) Read(b []byte) (int, error) {
	if d.left == 0 {
		return 0, io.EOF
	}
	select {
	case <-time.After(d.pause):
	case <-d.stop:
		return 0, errors.New("the test is over")
	}
	d.left--
	d.sent.Add(1)
	b[0] = ' '
	return 1, nil
}

// TestSlowBodiesAreCutOff: bodies that dribble in are refused (408) once they
// fall behind the server's pace, long before they would end, over HTTP/1 (one
// connection each) and HTTP/2 (streams of one connection); the server then
// answers as usual.
func TestSlowBodiesAreCutOff(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		t.Run(fmt.Sprintf("http2=%v", h2), func(t *testing.T) {
			p := storetest.Seed(t, nil)
			s := remote.NewServer(p.DB, log.New(io.Discard, "", 0))
			s.SetBodyPace(300*time.Millisecond, 1000)
			srv := httptest.NewUnstartedServer(s.Handler())
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			t.Cleanup(srv.Close)
			const clients, size = 20, 100 // 100 bytes at 1 every 100 ms: 10 s each
			stop := make(chan struct{})
			defer close(stop)
			var sent atomic.Int64
			var wg sync.WaitGroup
			statuses := make([]int, clients)
			for i := range clients {
				wg.Go(func() {
					req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/signin", &dribble{pause: 100 * time.Millisecond, left: size, sent: &sent, stop: stop})
					req.ContentLength = size
					resp, err := srv.Client().Do(req)
					if err != nil {
						statuses[i] = -1 // the connection was cut: dropped too
						return
					}
					resp.Body.Close()
					if resp.ProtoMajor != 1 && !h2 || resp.ProtoMajor != 2 && h2 {
						t.Errorf("answered over %s", resp.Proto)
					}
					statuses[i] = resp.StatusCode
				})
			}
			wg.Wait()
			for i, st := range statuses {
				if st != http.StatusRequestTimeout && st != -1 {
					t.Errorf("dribbler %d: %d, want 408", i, st)
				}
			}
			if n := sent.Load(); n >= clients*size {
				t.Errorf("the dribblers sent all %d bytes before being cut off", n)
			}
			raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}
			raw.signIn("ann1") // the server goes on
		})
	}
}

// gated is a body of size bytes whose first half is sent at once and the rest
// when open is closed.
type gated struct {
	r    io.Reader
	half int
	n    int
	open chan struct{}
}

func newGated(size int) *gated {
	body := append([]byte(`{}`), bytes.Repeat([]byte(" "), size-2)...)
	return &gated{r: bytes.NewReader(body), half: size / 2, open: make(chan struct{})}
}

func (g *gated) Read(b []byte) (int, error) {
	if g.n >= g.half {
		<-g.open
	} else if len(b) > g.half-g.n {
		b = b[:g.half-g.n]
	}
	n, err := g.r.Read(b)
	g.n += n
	return n, err
}

// TestBodyBudget: the bytes of bodies in flight are bounded per account (a
// second large body of the same account is refused with 429 while the first is
// read) and server-wide (503); once they end, the same bodies are taken.
func TestBodyBudget(t *testing.T) {
	p := storetest.Seed(t, nil)
	s := remote.NewServer(p.DB, log.New(io.Discard, "", 0))
	s.SetMaxBody(1 << 20)
	s.SetBodyBudget(1<<20, 600<<10)
	srv := httptest.NewTLSServer(s.Handler())
	t.Cleanup(srv.Close)
	raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}
	ann1, ann2, a1 := raw.signIn("ann1"), raw.signIn("ann2"), raw.signIn("a1")
	const size = 500 << 10
	// hold starts a body of token's that stays half-sent until the returned
	// function is called, which waits for its answer.
	hold := func(token string) func() int {
		g := newGated(size)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/call/Users", g)
		req.ContentLength = size
		req.Header.Set("Authorization", "Bearer "+token)
		done := make(chan int, 1)
		go func() {
			resp, err := srv.Client().Do(req)
			if err != nil {
				done <- -1
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		for g.n < g.half { // wait until the server reads it
			time.Sleep(5 * time.Millisecond)
		}
		return func() int { close(g.open); return <-done }
	}
	body := append([]byte(`{}`), bytes.Repeat([]byte(" "), size-2)...)
	finish1 := hold(ann1)
	status, resp := raw.post("/v1/call/Users", ann1, body)
	var we struct{ Message string }
	json.Unmarshal([]byte(resp), &we)
	if status != http.StatusTooManyRequests || !strings.Contains(we.Message, "this account") {
		t.Errorf("a second large body of one account: %d %s, want 429", status, resp)
	}
	finish2 := hold(ann2)
	status, resp = raw.post("/v1/call/Users", a1, body)
	json.Unmarshal([]byte(resp), &we)
	if status != http.StatusServiceUnavailable || !strings.Contains(we.Message, "busy") {
		t.Errorf("a large body beyond the server's budget: %d %s, want 503", status, resp)
	}
	if status, resp := raw.post("/v1/call/Users", a1, []byte(`{}`)); status != http.StatusOK {
		t.Errorf("a small body meanwhile: %d %s", status, resp)
	}
	if a, b := finish1(), finish2(); a != http.StatusOK || b != http.StatusOK {
		t.Errorf("the held bodies: %d, %d", a, b)
	}
	for _, tok := range []string{ann1, a1} {
		if status, resp := raw.post("/v1/call/Users", tok, body); status != http.StatusOK {
			t.Errorf("a large body after the others ended: %d %s", status, resp)
		}
	}
}

// BenchmarkConcurrentLargeBodies sends 16 large bodies (24 MiB of predictions
// each) at once from one account and reports the server's peak heap: with the
// default budget (most are refused with 429 while two are read) and without one.
func BenchmarkConcurrentLargeBodies(b *testing.B) {
	const n, size = 16, 24 << 20
	var pred bytes.Buffer
	pred.WriteString(`{"releaseRef":"none@1","model":"m","source":"s","preds":[`)
	for i := 0; pred.Len() < size-200; i++ {
		if i > 0 {
			pred.WriteByte(',')
		}
		fmt.Fprintf(&pred, `{"sample_id":"s-%07d","response":"%s"}`, i, strings.Repeat("x", 200))
	}
	pred.WriteString(`]}`)
	body := pred.Bytes()
	for _, budget := range []bool{true, false} {
		b.Run(fmt.Sprintf("budget=%v", budget), func(b *testing.B) {
			tm := seedTeam(b, 1, 1, 1)
			db, err := store.Open(context.Background(), tm.path)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { db.Close() })
			s := remote.NewServer(db, log.New(io.Discard, "", 0))
			if !budget {
				s.SetBodyBudget(1<<40, 1<<40)
			}
			srv := httptest.NewTLSServer(s.Handler())
			b.Cleanup(srv.Close)
			tok := signInB(b, srv)
			var peak uint64
			var refused atomic.Int64
			for b.Loop() {
				runtime.GC()
				stop := make(chan struct{})
				sampled := make(chan uint64)
				go func() { sampled <- samplePeakHeap(stop) }()
				var wg sync.WaitGroup
				for range n {
					wg.Go(func() {
						req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL+"/v1/call/ImportPredictions", bytes.NewReader(body))
						req.Header.Set("Authorization", "Bearer "+tok)
						resp, err := srv.Client().Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
							refused.Add(1)
						}
					})
				}
				wg.Wait()
				close(stop)
				peak = max(peak, <-sampled)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(refused.Load())/float64(b.N), "refused/op")
		})
	}
}

func signInB(b *testing.B, srv *httptest.Server) string {
	body, _ := json.Marshal(map[string]string{"name": "ann1", "password": teamPassword, "contract": remote.Contract})
	resp, err := srv.Client().Post(srv.URL+"/v1/signin", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&out)
	return out.Token
}

// samplePeakHeap samples the heap's live and unswept objects until stop closes
// and returns the highest it saw (the client's copies of the bodies included:
// one shared body).
func samplePeakHeap(stop chan struct{}) uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	for {
		metrics.Read(s)
		peak = max(peak, s[0].Value.Uint64())
		select {
		case <-stop:
			return peak
		case <-time.After(2 * time.Millisecond):
		}
	}
}
