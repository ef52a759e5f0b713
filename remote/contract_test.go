package remote_test

import (
	"context"
	"io"
	"log"
	"net/http/httptest"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// serve starts a team server over db on a loopback TLS port and returns a
// function that connects a new client (one per person) pinned to its certificate.
func serve(t *testing.T, db *store.DB) (srv *httptest.Server, dial func(t *testing.T) *remote.Client) {
	t.Helper()
	s := remote.NewServer(db, log.New(io.Discard, "", 0))
	srv = httptest.NewUnstartedServer(s.Handler())
	srv.StartTLS()
	t.Cleanup(srv.Close)
	fp := remote.Fingerprint(srv.Certificate().Raw)
	cache := t.TempDir()
	return srv, func(t *testing.T) *remote.Client {
		t.Helper()
		c, err := remote.Dial(context.Background(), srv.URL, remote.Options{Fingerprint: fp, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
}

// TestContract runs the store's behaviour through a team server: the same suite
// the local file passes (store/contract_test.go).
func TestContract(t *testing.T) {
	servers := map[*store.DB]func(t *testing.T) *remote.Client{}
	storetest.Run(t, func(t *testing.T, db *store.DB) bench.Service {
		dial, ok := servers[db]
		if !ok {
			_, dial = serve(t, db)
			servers[db] = dial
		}
		return dial(t)
	})
}
