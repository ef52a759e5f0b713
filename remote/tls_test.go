package remote_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store/storetest"
)

func TestParseAddress(t *testing.T) {
	cases := []struct{ in, want, err string }{
		{"lab-server", "https://lab-server:8443", ""},
		{"10.0.0.5:9000", "https://10.0.0.5:9000", ""},
		{" https://lab-server:9000/ ", "https://lab-server:9000", ""},
		{"[::1]:8443", "https://[::1]:8443", ""},
		{"http://lab-server", "", "speaks only HTTPS"},
		{"", "", "empty"},
		{"https://lab/v1/x", "", "not a server address"},
	}
	for _, c := range cases {
		got, err := remote.ParseAddress(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseAddress(%q): %q, %v; want an error saying %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseAddress(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestNormalizeFingerprint(t *testing.T) {
	hex := strings.Repeat("ab", 32)
	for _, in := range []string{"SHA256:" + hex, "sha256:" + strings.ToUpper(hex), hex, "SHA256:" + strings.Join(splitPairs(hex), ":")} {
		if got, err := remote.NormalizeFingerprint(in); err != nil || got != "SHA256:"+hex {
			t.Errorf("NormalizeFingerprint(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"SHA256:abcd", "MD5:" + hex, ""} {
		if _, err := remote.NormalizeFingerprint(in); err == nil {
			t.Errorf("NormalizeFingerprint(%q) accepted", in)
		}
	}
}

func splitPairs(s string) (out []string) {
	for i := 0; i < len(s); i += 2 {
		out = append(out, s[i:i+2])
	}
	return out
}

// TestTrustOnFirstUse: an unpinned certificate is refused unless trusted; the
// trusted one is remembered; a changed certificate is refused with a message that
// names both fingerprints.
func TestTrustOnFirstUse(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	dir := t.TempDir()
	cert, err := remote.LoadOrCreateCertificate(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := remote.LoadOrCreateCertificate(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), nil)
	if err != nil || remote.Fingerprint(again.Certificate[0]) != remote.Fingerprint(cert.Certificate[0]) {
		t.Fatalf("the certificate is not kept across starts: %v", err)
	}
	fp := remote.Fingerprint(cert.Certificate[0])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- remote.NewServer(p.DB, log.New(io.Discard, "", 0)).Serve(sctx, ln, cert) }()
	t.Cleanup(func() { stop(); <-done })
	addr := ln.Addr().String()

	if _, err := remote.Dial(ctx, addr, remote.Options{CacheDir: t.TempDir()}); !errors.Is(err, remote.ErrUnknownCertificate) || !strings.Contains(err.Error(), fp) {
		t.Errorf("unpinned, nobody asked: %v; want ErrUnknownCertificate naming %s", err, fp)
	}
	refuse := errors.New("the person said no")
	if _, err := remote.Dial(ctx, addr, remote.Options{Trust: func(string) error { return refuse }}); !errors.Is(err, refuse) {
		t.Errorf("trust refused: %v", err)
	}
	var asked string
	c, err := remote.Dial(ctx, addr, remote.Options{CacheDir: t.TempDir(), Trust: func(f string) error { asked = f; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if asked != fp || c.Fingerprint() != fp {
		t.Errorf("asked to trust %q, client reports %q; the server's is %q", asked, c.Fingerprint(), fp)
	}
	if u, err := c.Authenticate(ctx, "ann1", storetest.Password); err != nil || u.Name != "ann1" {
		t.Fatalf("sign in over the trusted connection: %+v, %v", u, err)
	}
	c.Close()

	// Another server answering at a pinned address: refused, and said why.
	other := httptest.NewTLSServer(remote.NewServer(p.DB, log.New(io.Discard, "", 0)).Handler())
	defer other.Close()
	_, err = remote.Dial(ctx, other.URL, remote.Options{Fingerprint: fp})
	if !errors.Is(err, remote.ErrCertificateChanged) {
		t.Fatalf("a changed certificate: %v, want ErrCertificateChanged", err)
	}
	got := remote.Fingerprint(other.Certificate().Raw)
	for _, want := range []string{got, fp, "intercepting"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal %q does not say %q", err, want)
		}
	}
}

// TestSignInRateLimitPerAddress: after a few wrong passwords from one address,
// even for different names, that address waits; the right password does not get
// through meanwhile.
func TestSignInRateLimitPerAddress(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	_, dial := serve(t, p.DB)
	c := dial(t)
	names := []string{"ann1", "ann2", "a1", "a2", "b1"}
	for _, n := range names {
		if _, err := c.Authenticate(ctx, n, "wrong"); !errors.Is(err, bench.ErrUnauthorized) {
			t.Fatalf("%s with a wrong password: %v", n, err)
		}
	}
	_, err := c.Authenticate(ctx, "c1", storetest.Password)
	if !errors.Is(err, bench.ErrTooManyFailures) || !strings.Contains(bench.Message(err), "try again in") {
		t.Errorf("after %d wrong passwords from one address: %v (%q), want a wait", len(names), err, bench.Message(err))
	}
}

// TestOffline: a server that cannot be reached is ErrOffline, said in a sentence.
func TestOffline(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	srv, dial := serve(t, p.DB)
	c := dial(t)
	u, err := c.Authenticate(ctx, "ann1", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	srv.CloseClientConnections()
	srv.Close()
	_, err = c.Projects(ctx)
	if !errors.Is(err, remote.ErrOffline) {
		t.Fatalf("a call to a stopped server: %v, want ErrOffline", err)
	}
	if msg := bench.Message(err); !strings.HasPrefix(msg, "The team server cannot be reached") {
		t.Errorf("people read %q", msg)
	}
	_ = u
}
