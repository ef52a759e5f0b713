package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestFullDiskIsSaidAndRetryable: when the database's disk is full (SQLite's
// max_page_count stands in for it) a write is answered 503 with a sentence
// saying so, never the driver's words; the client takes it as a failure to try
// again (ErrOffline); reads go on.
func TestFullDiskIsSaidAndRetryable(t *testing.T) {
	storetest.SkipOnPostgres(t, "a full disk is simulated with SQLite's max_page_count")
	ctx := context.Background()
	p, srv, raw := hardServer(t)
	lead := raw.signIn("lead")
	c, err := remote.Dial(ctx, srv.URL, remote.Options{Fingerprint: remote.Fingerprint(srv.Certificate().Raw), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Authenticate(ctx, "lead", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.LimitPagesForTests(ctx, p.DB, 0); err != nil {
		t.Fatal(err)
	}
	// Rows fit in the pages' free room for a while: write until the disk is full.
	var status int
	var body string
	for i := 0; i < 500; i++ {
		status, body = raw.post("/v1/call/CreateProject", lead, []byte(`{"name":"project `+jsonInt(int64(i))+`"}`))
		if status != http.StatusOK {
			break
		}
	}
	var we struct{ Text, Message string }
	json.Unmarshal([]byte(body), &we)
	if status != http.StatusServiceUnavailable || !strings.Contains(we.Message, "server's disk is full") || strings.Contains(strings.ToLower(body), "sqlite") {
		t.Fatalf("a write on a full disk: %d %s", status, body)
	}
	_, err = c.CreateProject(ctx, "one more")
	if !errors.Is(err, remote.ErrOffline) || !errors.Is(err, bench.ErrDiskFull) || !strings.Contains(bench.Message(err), "disk is full") {
		t.Errorf("the client's error on a full disk: %v", err)
	}
	if status, body := raw.post("/v1/call/Projects", lead, []byte(`{}`)); status != http.StatusOK {
		t.Errorf("a read on a full disk: %d %s", status, body)
	}
}

// proxy forwards TCP connections on a loopback port to addr until closed,
// which cuts every connection: a database server gone away.
type proxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, network, addr string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial(network, addr)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// TestUnreachableDatabaseIsSaidAndRetryable: when the PostgreSQL server goes
// away, reads, writes and sign-ins are answered 503 with a sentence saying the
// database is unreachable, and the client takes it as a failure to retry.
func TestUnreachableDatabaseIsSaidAndRetryable(t *testing.T) {
	if storetest.Engine() != "postgres" {
		t.Skip("PostgreSQL only: an unreachable database server")
	}
	ctx := context.Background()
	u, err := url.Parse(storetest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	network, addr := "tcp", u.Host
	if h := q.Get("host"); strings.HasPrefix(h, "/") {
		port := q.Get("port")
		if port == "" {
			port = "5432"
		}
		network, addr = "unix", filepath.Join(h, ".s.PGSQL."+port)
	}
	px := startProxy(t, network, addr)
	q.Del("host")
	q.Del("port")
	q.Set("sslmode", "disable")
	u.Host, u.RawQuery = px.ln.Addr().String(), q.Encode()
	db, err := store.Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetFilesDir(t.TempDir())
	if _, err := db.CreateFirstLead(ctx, "lead", storetest.Password); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(remote.NewServer(db, log.New(io.Discard, "", 0)).Handler())
	defer srv.Close()
	raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}
	lead := raw.signIn("lead")
	c, err := remote.Dial(ctx, srv.URL, remote.Options{Fingerprint: remote.Fingerprint(srv.Certificate().Raw), CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Authenticate(ctx, "lead", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	px.close()

	signIn, _ := json.Marshal(map[string]string{"name": "lead", "password": storetest.Password, "contract": remote.Contract})
	for _, req := range []struct{ path, token, body string }{
		{"/v1/call/Projects", lead, `{}`},
		{"/v1/call/CreateProject", lead, `{"name":"later"}`},
		{"/v1/signin", "", string(signIn)},
	} {
		status, body := raw.post(req.path, req.token, []byte(req.body))
		var we struct{ Message string }
		json.Unmarshal([]byte(body), &we)
		if status != http.StatusServiceUnavailable || !strings.Contains(we.Message, "database is unreachable") || strings.Contains(body, "127.0.0.1") {
			t.Errorf("%s with the database away: %d %s", req.path, status, body)
		}
	}
	if _, err := c.Projects(ctx); !errors.Is(err, remote.ErrOffline) || !errors.Is(err, bench.ErrUnavailable) {
		t.Errorf("the client's error with the database away: %v", err)
	}
}
