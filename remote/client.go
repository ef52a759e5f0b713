package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/imagefile"
	"github.com/benchwright/benchwright/store"
)

// DefaultPort is the team server's port when an address names none.
const DefaultPort = "8443"

// ErrOffline is wrapped by the error of a call that could not reach the server:
// nothing was done, and the same call may be tried again.
var ErrOffline = bench.ErrOffline

// Options says how a client trusts and caches.
type Options struct {
	// Fingerprint pins the server's certificate ("SHA256:…"). Empty: Trust is
	// asked on first contact.
	Fingerprint string
	// Trust decides whether to trust a certificate seen for the first time (the
	// app asks the person; nil refuses every unpinned certificate).
	Trust func(fingerprint string) error
	// CacheDir holds the image previews fetched from the server, by content hash
	// (default: the user's cache folder, per server).
	CacheDir string
	// Timeout bounds one request (default one minute).
	Timeout time.Duration
}

// Client is a workstation's connection to a team server. It implements
// bench.Service, and is itself the bench.Session of the account signed in: the
// server acts as its session token's user, so the calls it carries (generated,
// calls_gen.go) name no one.
type Client struct {
	base     string // https://host:port
	host     string
	hc       *http.Client
	cacheDir string

	mu          sync.Mutex
	token       string
	user        bench.User
	fingerprint string
	trustErr    error // why the last handshake refused the server's certificate

	notYou error // set on As's Session for another account: every request fails with it
}

var _ bench.Service = (*Client)(nil)

// ParseAddress turns what a person types ("lab-server", "10.0.0.5:8443",
// "https://lab-server:9000") into the server's base URL.
func ParseAddress(s string) (string, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return "", errors.New("the server address is empty")
	}
	if strings.HasPrefix(t, "http://") {
		return "", fmt.Errorf("%q: a team server speaks only HTTPS; use https:// or leave the scheme out", s)
	}
	if !strings.Contains(t, "://") {
		t = "https://" + t
	}
	u, err := url.Parse(t)
	if err != nil || u.Scheme != "https" || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return "", fmt.Errorf("%q is not a server address (host or host:port)", s)
	}
	if u.Port() == "" {
		u.Host = net.JoinHostPort(u.Hostname(), DefaultPort)
	}
	return "https://" + u.Host, nil
}

// Dial connects to the team server at address, checks its certificate (pinned, or
// trusted on first use) and that it is a Benchwright server. Sign in with
// Authenticate before any call.
func Dial(ctx context.Context, address string, opt Options) (*Client, error) {
	base, err := ParseAddress(address)
	if err != nil {
		return nil, err
	}
	pin := ""
	if opt.Fingerprint != "" {
		if pin, err = NormalizeFingerprint(opt.Fingerprint); err != nil {
			return nil, err
		}
	}
	u, _ := url.Parse(base)
	c := &Client{base: base, host: u.Host}
	if opt.Timeout == 0 {
		opt.Timeout = time.Minute
	}
	tr := &http.Transport{
		TLSClientConfig:     pinnedTLS(u.Host, pin, opt.Trust, c.sawCertificate, c.refusedCertificate),
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 15 * time.Second,
	}
	c.hc = &http.Client{Transport: tr, Timeout: opt.Timeout}
	c.cacheDir = opt.CacheDir
	if c.cacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		c.cacheDir = filepath.Join(dir, "benchwright", "servers", strings.NewReplacer(":", "_", "[", "", "]", "").Replace(u.Host))
	}
	var h hello
	if err := c.do(ctx, http.MethodGet, "/v1/hello", nil, &h); err != nil {
		return nil, err
	}
	if h.Server != "benchwright" {
		return nil, fmt.Errorf("%s answered, but it is not a Benchwright team server", u.Host)
	}
	return c, nil
}

func (c *Client) sawCertificate(fp string) {
	c.mu.Lock()
	c.fingerprint = fp
	c.mu.Unlock()
}

func (c *Client) refusedCertificate(err error) error {
	c.mu.Lock()
	c.trustErr = err
	c.mu.Unlock()
	return err
}

// Fingerprint is the fingerprint of the server's certificate, as checked.
func (c *Client) Fingerprint() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fingerprint
}

// As is the client itself when u is the account signed in (by its id): its calls
// act as the session token's user, on the server's word. For anyone else the
// Session refuses every call, without a request, with ErrForbidden in a sentence:
// a workstation acts on a team server only as the person who signed in, and
// signing in as another is the only way to act as them.
func (c *Client) As(u bench.User) bench.Session {
	c.mu.Lock()
	me := c.user
	c.mu.Unlock()
	if u.ID == me.ID {
		return c
	}
	who := "no one"
	if me.Name != "" {
		who = me.Name
	}
	return &Client{base: c.base, host: c.host, hc: c.hc, cacheDir: c.cacheDir,
		notYou: fmt.Errorf("%w: this workstation is signed in to the team server as %s and cannot act as %s; sign in as %s", bench.ErrForbidden, who, u.Name, u.Name)}
}

// Where is the server's address.
func (c *Client) Where() string { return c.base }

// Close ends the session (if any) and the client's idle connections.
func (c *Client) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := c.SignOut(ctx)
	c.hc.CloseIdleConnections()
	return err
}

// Authenticate signs in: the server checks the password (and makes a person or an
// address that typed wrong passwords wait) and opens the session every later call
// acts in.
func (c *Client) Authenticate(ctx context.Context, name, password string) (bench.User, error) {
	var out signInResponse
	if err := c.do(ctx, http.MethodPost, "/v1/signin", signInRequest{Name: name, Password: password, Contract: Contract, Version: store.AppVersion}, &out); err != nil {
		return bench.User{}, err
	}
	c.mu.Lock()
	c.token, c.user = out.Token, out.User
	c.mu.Unlock()
	return out.User, nil
}

// SignOut ends the session on the server; later calls are refused until the next
// Authenticate.
func (c *Client) SignOut(ctx context.Context) error {
	c.mu.Lock()
	had := c.token != ""
	c.mu.Unlock()
	if !had {
		return nil
	}
	err := c.do(ctx, http.MethodPost, "/v1/signout", struct{}{}, nil)
	c.mu.Lock()
	c.token, c.user = "", bench.User{}
	c.mu.Unlock()
	return err
}

// HasUsers is true: a team server does not start without accounts.
func (c *Client) HasUsers(ctx context.Context) (bool, error) { return true, nil }

// CreateFirstLead is refused: a server's first lead is created on the server.
func (c *Client) CreateFirstLead(ctx context.Context, name, password string) (bench.User, error) {
	return bench.User{}, fmt.Errorf("%w: a team server's first lead is created on the server (bwctl init)", bench.ErrForbidden)
}

// LastChange is the server's change counter (see store.DB.LastChange).
func (c *Client) LastChange(ctx context.Context) (int64, error) {
	var out changes
	err := c.do(ctx, http.MethodGet, "/v1/changes", nil, &out)
	return out.Seq, err
}

// ImageFile returns the cached preview (thumbnail, original file) of the image with hash
// sha, fetching it from the server when it is not cached yet. Content-addressed
// files never change, so a cached file is used as it is. The server gives an
// image only to a member of a project that holds it: it acts as the session's
// user. The cache is kept per account, so that
// what one account fetched is never handed to another who signs in on the same
// workstation without the server's say.
func (c *Client) ImageFile(ctx context.Context, sha string, size bench.ImageSize) (string, error) {
	if c.notYou != nil {
		return "", c.notYou // not even from the cache
	}
	if !annotate.IsSHA256Hex(sha) {
		return "", fmt.Errorf("image %q: %w: not a SHA-256", sha, bench.ErrInvalid)
	}
	if !size.Valid() {
		return "", fmt.Errorf("image %q: %w: no image size %q", sha, bench.ErrInvalid, size)
	}
	c.mu.Lock()
	dir := filepath.Join(c.cacheDir, "u"+strconv.FormatInt(c.user.ID, 10))
	c.mu.Unlock()
	p := imagefile.PreviewPath(dir, sha)
	q := ""
	switch size {
	case bench.ImageThumb:
		p, q = imagefile.ThumbPath(dir, sha), "?thumb=1"
	case bench.ImageOriginal:
		p, q = filepath.Join(dir, "originals", sha[:2], sha), "?original=1"
	}
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	req, err := c.request(ctx, http.MethodGet, "/v1/image/"+sha+q, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", c.offline(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", readError(resp)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("image cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".fetch-*")
	if err != nil {
		return "", fmt.Errorf("image cache: %w", err)
	}
	_, err = io.Copy(tmp, resp.Body)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p) // whole files only: a cut download never counts as cached
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", c.offline(err)
	}
	return p, nil
}

// call runs one of bench.Calls on the server.
func (c *Client) call(ctx context.Context, name string, in, out any) error {
	if err := checkText(name, in); err != nil {
		return err
	}
	return c.do(ctx, http.MethodPost, "/v1/call/"+name, in, out)
}

func (c *Client) request(ctx context.Context, method, path string, in any) (*http.Request, error) {
	if c.notYou != nil {
		return nil, c.notYou
	}
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, fmt.Errorf("encode the request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c.mu.Lock()
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	c.mu.Unlock()
	return req, nil
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	req, err := c.request(ctx, method, path, in)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.offline(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return readError(resp)
	}
	if out == nil {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return c.offline(fmt.Errorf("read the answer: %w", err))
	}
	return nil
}

// offline wraps a transport failure; a certificate refusal is said as it is.
func (c *Client) offline(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(err, ErrCertificateChanged) || errors.Is(err, ErrUnknownCertificate) || errors.Is(err, ErrNotTrusted) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.trustErr != nil {
			return c.trustErr // said as it is, without the transport's words around it
		}
		return err
	}
	return fmt.Errorf("%w (%s): %v", ErrOffline, c.host, err)
}

func readError(resp *http.Response) error {
	var we wireError
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(b, &we); err != nil || we.Message == "" {
		if resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout {
			return fmt.Errorf("%w: it answered %s", ErrOffline, resp.Status) // a proxy's word for a server away
		}
		return fmt.Errorf("the server answered %s", resp.Status)
	}
	return we.err()
}

// AuditFreeze asks the server for the audit of what a freeze of in would write
// (AuditPlan); the hashing runs on the server, so there is no progress to report.
func (c *Client) AuditFreeze(ctx context.Context, in bench.FreezeInput, progress func(done, total int)) (bench.AuditReport, error) {
	return c.AuditPlan(ctx, in)
}

// Dialer is the app's way to team servers (bench.Dialer): main hands it to the
// screens, which never import this package.
type Dialer struct{}

var _ bench.Dialer = Dialer{}

// ParseAddress is ParseAddress.
func (Dialer) ParseAddress(address string) (string, error) { return ParseAddress(address) }

// Dial is Dial with the app's options.
func (Dialer) Dial(ctx context.Context, base, fingerprint, cacheDir string, trust func(string) error) (bench.Connection, error) {
	c, err := Dial(ctx, base, Options{Fingerprint: fingerprint, CacheDir: cacheDir, Trust: trust})
	if err != nil {
		return nil, err
	}
	return c, nil
}
