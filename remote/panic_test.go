package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestPanicIsARefusal: a call that panics is answered with a 500 and a sentence,
// logged with its stack, audited with the account and address, and the server
// answers the next request (over one connection and through the client).
func TestPanicIsARefusal(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	var logged syncLog
	srv := httptest.NewUnstartedServer(remote.NewServer(p.DB, log.New(&logged, "", 0)).Handler())
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}
	tok := raw.signIn("ann1")
	restore := remote.SetTestPanic(func(r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/Projects") {
			panic("a test's panic")
		}
	})
	defer restore()

	before := deniedRows(t, p.DB)
	status, body := raw.post("/v1/call/Projects", tok, []byte(`{}`))
	var we struct{ Message string }
	json.Unmarshal([]byte(body), &we)
	if status != http.StatusInternalServerError || !strings.Contains(we.Message, "fault in the server") {
		t.Errorf("a call that panics: %d %s", status, body)
	}
	if !strings.Contains(logged.String(), "a test's panic") || !strings.Contains(logged.String(), "goroutine") {
		t.Errorf("the server's log lacks the panic and its stack: %q", logged.String())
	}
	if n := deniedRows(t, p.DB) - before; n != 1 {
		t.Errorf("%d audit rows for the panic, want 1", n)
	}
	lead, _ := p.DB.UserByName(ctx, bench.Owner(), "lead")
	if rs, _ := p.DB.Refusals(ctx, lead, 1); len(rs) != 1 || rs[0].Actor != "ann1" || rs[0].Client != "127.0.0.1" || rs[0].Action != "denied:panic" {
		t.Errorf("the panic's audit row: %+v", rs)
	}
	// The server lives on: the next requests are answered.
	if status, body := raw.post("/v1/call/Users", tok, []byte(`{}`)); status != http.StatusOK {
		t.Errorf("the request after the panic: %d %s", status, body)
	}
	c, err := remote.Dial(ctx, srv.URL, remote.Options{Fingerprint: remote.Fingerprint(srv.Certificate().Raw), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Authenticate(ctx, "ann1", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Projects(ctx); err == nil || !strings.Contains(bench.Message(err), "fault in the server") || errors.Is(err, remote.ErrOffline) ||
		!errors.Is(err, bench.ErrFault) {
		t.Errorf("the client's error for a call that panics: %v", err)
	}
	if _, err := c.Users(ctx); err != nil {
		t.Errorf("the client's next call: %v", err)
	}
}

// syncLog is a server log the test reads while the server writes it.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
