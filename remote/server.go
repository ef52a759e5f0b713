package remote

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// DefaultMaxBody is the largest request body the server reads (a big import of
// samples or predictions fits; anything larger is refused and audited).
const DefaultMaxBody = 64 << 20

// Server serves one database to a lab's workstations.
type Server struct {
	db      *store.DB
	log     *log.Logger
	maxBody int64
	signIns *addrLimiter
	audits  *auditBudget

	bodyFloor time.Duration // see SetBodyPace
	bodyRate  int64
	bodies    *bodyBudget

	uploads UploadLimits
	sweep   uploadSweep
}

// NewServer returns a server for db. Messages about refused requests and
// failures go to logger (nil: the standard logger).
func NewServer(db *store.DB, logger *log.Logger) *Server {
	if logger == nil {
		logger = log.Default()
	}
	return &Server{db: db, log: logger, maxBody: DefaultMaxBody, signIns: newAddrLimiter(), audits: newAuditBudget(),
		bodyFloor: DefaultBodyFloor, bodyRate: DefaultBodyRate, bodies: newBodyBudget(DefaultBodyBudget, DefaultAccountBodyBudget),
		uploads: DefaultUploadLimits}
}

// SetMaxBody changes the largest request body read (tests use a small one).
func (s *Server) SetMaxBody(n int64) { s.maxBody = n }

// Handler is the server's HTTP API:
//
//	GET  /v1/hello           who is here (no session needed)
//	POST /v1/signin          {"name","password"} → {"token","user","expires"}
//	POST /v1/signout         ends the request's session
//	POST /v1/call/NAME       one of bench.Calls, as the session's user
//	GET  /v1/image/SHA256    an image's preview (?thumb=1: its thumbnail; ?original=1: the imported file),
//	                         for a member of a project holding it
//	GET  /v1/changes         a number that grows whenever anyone acts (polling)
//	POST /v1/upload/P/have   which of a workstation's image files project P lacks
//	PUT  /v1/upload/P?path=REL&sha256=HEX   one image file, kept only if whole
//	POST /v1/export          a release exported on the server, as a tar stream
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/hello", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, hello{Server: "benchwright", API: 1})
	})
	mux.HandleFunc("POST /v1/signin", s.signIn)
	mux.HandleFunc("POST /v1/signout", s.withSession(func(w http.ResponseWriter, r *http.Request, me bench.User, token string) {
		if err := s.db.CloseSession(r.Context(), token); err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, struct{}{})
	}))
	mux.HandleFunc("POST /v1/call/{name}", s.withSession(s.call))
	mux.HandleFunc("GET /v1/image/{sha}", s.withSession(s.image))
	mux.HandleFunc("POST /v1/upload/{project}/have", s.withSession(s.uploadHave))
	mux.HandleFunc("PUT /v1/upload/{project}", s.withSession(s.uploadFile))
	mux.HandleFunc("POST /v1/export", s.withSession(s.export))
	mux.HandleFunc("GET /v1/changes", s.withSession(func(w http.ResponseWriter, r *http.Request, me bench.User, _ string) {
		n, err := s.db.LastChange(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, changes{Seq: n})
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, r, bench.User{}, http.StatusNotFound, "request", fmt.Sprintf("no such request: %s %s", r.Method, r.URL.Path))
	})
	return s.guard(mux)
}

// testPanic, when a test sets it, runs before every call's store method (a
// stand-in for a call that panics).
var testPanic func(r *http.Request)

// requestInfo is what the guard learns of a request while it runs: the
// session's user, for the audit row of a request that panicked.
type requestInfo struct {
	me    bench.User
	after []func() // run when the request ends (a body's budget given back)
}

type requestInfoKey struct{}

// guard makes a panic in a request's handler a refusal of that request: the
// client gets a 500 with a sentence (unless the answer had begun), the server's
// log gets the panic with its stack, the audit log a row with the client's
// address, and the server goes on serving. net/http would recover too, but
// would cut the connection without a word and leave no audit row.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := &requestInfo{}
		r = r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info))
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			for _, f := range info.after {
				f()
			}
		}()
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler { // net/http's own way to abort a response
				panic(v)
			}
			s.panicked(tw, r, info.me, v, debug.Stack())
		}()
		h.ServeHTTP(tw, r)
	})
}

// panicked answers, logs and audits a request whose handler panicked with v.
func (s *Server) panicked(w *trackingWriter, r *http.Request, me bench.User, v any, stack []byte) {
	s.log.Printf("benchwright server: panic serving %s %s from %s: %v\n%s", r.Method, clip(r.URL.Path, 200), clientAddr(r), v, stack)
	why := "the server failed on " + clip(r.URL.Path, 120) + " (a fault in the server; the details are in its log)"
	ctx := store.WithClientAddr(context.WithoutCancel(r.Context()), clientAddr(r))
	if ok, skipped := s.audits.allow(limitKey(clientAddr(r))); ok {
		if skipped > 0 {
			why += fmt.Sprintf(" (and %d refusals before it from this address not written)", skipped)
		}
		if err := s.db.AuditRefusal(ctx, me, "panic", why); err != nil {
			s.log.Printf("benchwright server: audit a panic: %v", err)
		}
	}
	if w.wrote {
		// The answer had begun: the client sees it cut off, which it reports.
		panic(http.ErrAbortHandler)
	}
	writeJSON(w, http.StatusInternalServerError, wireError{Codes: []string{"fault"}, Text: "the server failed on this request",
		Message: "The server failed while doing that (a fault in the server, recorded in its log); check whether it was done before trying again."})
}

// trackingWriter notes whether the answer has begun; Unwrap keeps
// http.ResponseController (read deadlines, flushing) working through it.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *trackingWriter) Flush() {
	w.wrote = true
	http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type hello struct {
	Server string `json:"server"`
	API    int    `json:"api"`
}

type changes struct {
	Seq int64 `json:"seq"`
}

type signInRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	// Contract and Version are the client's build (Contract, store.AppVersion); a
	// client older than them sends neither, and is refused as another build.
	Contract string `json:"contract,omitempty"`
	Version  string `json:"version,omitempty"`
}

type signInResponse struct {
	Token   string     `json:"token"`
	User    bench.User `json:"user"`
	Expires time.Time  `json:"expires"`
}

// clientAddr is the request's network address as the audit log records it. It is
// the connection's own address: headers a client could write are not believed.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (s *Server) signIn(w http.ResponseWriter, r *http.Request) {
	ctx := store.WithClientAddr(r.Context(), clientAddr(r))
	r = r.WithContext(ctx)
	var in signInRequest
	if !s.decodeLimited(w, r, bench.User{}, "signin", &in, maxSignInBody) {
		return
	}
	if !acceptsContract(in.Contract) { // before the password: not a guess, and nothing said about it
		s.refuse(w, r, bench.User{}, http.StatusUpgradeRequired, "signin", otherBuild(clip(in.Version, 40), clip(in.Contract, 40)))
		return
	}
	// The attempt counts as a failure before the password is checked (as the
	// store counts per name), so guesses sent at once are limited too; a right
	// password takes back only its own count.
	key := limitKey(clientAddr(r))
	if wait, atOnce := s.signIns.begin(key); wait > 0 {
		why := "too many wrong passwords from this address"
		if atOnce { // the wrong passwords alone would not make it wait
			why = "too many sign-ins from this address at once"
		}
		s.refuse(w, r, bench.User{}, http.StatusTooManyRequests, "signin", fmt.Sprintf("%s; try again in %s", why, roundUp(wait)))
		return
	}
	sess, err := s.db.OpenSession(ctx, in.Name, in.Password)
	if err != nil {
		if errors.Is(err, bench.ErrUnauthorized) {
			s.signIns.settle(key) // a wrong password: it keeps its count
		} else {
			s.signIns.undo(key) // a refusal for another reason is not a guess
		}
		s.fail(w, r, err)
		return
	}
	s.signIns.undo(key)
	writeJSON(w, http.StatusOK, signInResponse{Token: sess.Token, User: sess.User, Expires: sess.Expires})
}

// withSession runs h as the user of the request's session token; a request
// without a live token is refused and audited.
func (s *Server) withSession(h func(w http.ResponseWriter, r *http.Request, me bench.User, token string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r = r.WithContext(store.WithClientAddr(r.Context(), clientAddr(r)))
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			s.refuse(w, r, bench.User{}, http.StatusUnauthorized, "session", "a request without a session token: "+r.URL.Path)
			return
		}
		me, err := s.db.SessionUser(r.Context(), token)
		if errors.Is(err, bench.ErrSessionEnded) {
			s.refuse(w, r, bench.User{}, http.StatusUnauthorized, "session", "an unknown, expired or revoked session token: "+r.URL.Path)
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
			info.me = me
		}
		h(w, r, me, token)
	}
}

func (s *Server) call(w http.ResponseWriter, r *http.Request, me bench.User, _ string) {
	name := r.PathValue("name")
	run, ok := serverCalls[name]
	if !ok {
		s.refuse(w, r, me, http.StatusNotFound, "call", fmt.Sprintf("no such call %q", name))
		return
	}
	body, ok := s.openBody(w, r, me, name, s.maxBody)
	if !ok {
		return
	}
	var badBody error
	decode := func(v any) error {
		err := decodeBody(body, v)
		body.done()
		if err != nil {
			badBody = err
		}
		return err
	}
	if testPanic != nil {
		testPanic(r)
	}
	out, err := run(r.Context(), s.db.As(me), decode)
	if badBody != nil {
		s.refuseBody(w, r, me, name, s.maxBody, body, badBody)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) image(w http.ResponseWriter, r *http.Request, me bench.User, _ string) {
	size := bench.ImagePreview
	switch {
	case r.URL.Query().Get("thumb") == "1":
		size = bench.ImageThumb
	case r.URL.Query().Get("original") == "1":
		size = bench.ImageOriginal
	}
	p, err := s.db.ImageFile(r.Context(), me, r.PathValue("sha"), size)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if size != bench.ImageOriginal {
		w.Header().Set("Content-Type", "image/jpeg") // an original's type is its file's (ServeFile)
	}
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable") // content-addressed
	http.ServeFile(w, r, p)
}

func (s *Server) decode(w http.ResponseWriter, r *http.Request, me bench.User, what string, v any) bool {
	return s.decodeLimited(w, r, me, what, v, s.maxBody)
}

// maxSignInBody is the largest sign-in request read: a name and a password.
const maxSignInBody = 4 << 10

// decodeLimited decodes r's body of at most limit bytes into v (decodeBody); a
// body refused is answered and audited.
func (s *Server) decodeLimited(w http.ResponseWriter, r *http.Request, me bench.User, what string, v any, limit int64) bool {
	body, ok := s.openBody(w, r, me, what, limit)
	if !ok {
		return false
	}
	err := decodeBody(body, v)
	body.done()
	if err != nil {
		s.refuseBody(w, r, me, what, limit, body, err)
		return false
	}
	return true
}

// refuse answers a request refused before it reached the store, and audits it.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, me bench.User, status int, what, why string) {
	why = clip(why, 200) // a path or a body's words may be long: the log keeps a line
	ctx := store.WithClientAddr(context.WithoutCancel(r.Context()), clientAddr(r))
	// Each address may write a refusal a second on average (bursts of 60): a
	// flood of bad requests cannot fill the disk or hold the writer; what is
	// left out is counted and said in the server's log.
	if ok, skipped := s.audits.allow(limitKey(clientAddr(r))); ok {
		if skipped > 0 {
			why += fmt.Sprintf(" (and %d refusals before it from this address not written)", skipped)
		}
		if err := s.db.AuditRefusal(ctx, me, what, why); err != nil {
			s.log.Printf("benchwright server: audit a refusal: %v", err)
		}
	}
	code := "invalid"
	switch status {
	case http.StatusUnauthorized:
		code = "session_ended"
	case http.StatusTooManyRequests:
		code = "too_many_failures"
	case http.StatusNotFound:
		code = "not_found"
	case http.StatusInsufficientStorage:
		code = "quota"
	case http.StatusUpgradeRequired:
		code = "other_build"
	}
	msg := strings.ToUpper(why[:1]) + why[1:] + "."
	if status == http.StatusUnauthorized {
		// why names the request's path for the audit log; people read what to do.
		msg = bench.Message(bench.ErrSessionEnded)
	}
	writeJSON(w, status, wireError{Codes: []string{code}, Text: why, Message: msg})
}

// fail answers a request the store refused or could not do.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	we, status := encodeError(err)
	if status == http.StatusServiceUnavailable {
		s.log.Printf("benchwright server: %s %s from %s: %v", r.Method, clip(r.URL.Path, 200), clientAddr(r), err)
	}
	if status == http.StatusInternalServerError {
		s.log.Printf("benchwright server: %s %s from %s: %v", r.Method, clip(r.URL.Path, 200), clientAddr(r), err)
		// Its words may name the server's folders: they stay in the server's log.
		we.Text = "the server could not do that"
		we.Message = "The server could not do that; the details are in its log."
	}
	writeJSON(w, status, we)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// addrLimiter makes an address that typed wrong passwords wait, twice as long
// after each further failure (the store does the same per account name). An
// attempt counts when it starts and a right password takes back only its own
// count, so neither guesses sent at once nor a right password between guesses
// gets past it; an hour without failures forgets the address.
type addrLimiter struct {
	mu   sync.Mutex
	now  func() time.Time
	seen map[string]*addrFailures
}

type addrFailures struct {
	n       int // attempts counted: wrong passwords and those not yet answered
	pending int // of n, the attempts not yet answered
	last    time.Time
}

const freeSignInFailures = 5

func newAddrLimiter() *addrLimiter {
	return &addrLimiter{now: time.Now, seen: map[string]*addrFailures{}}
}

func (l *addrLimiter) delay(n int) time.Duration {
	if n < freeSignInFailures {
		return 0
	}
	d := time.Second << min(n-freeSignInFailures, 10)
	return min(d, 15*time.Minute)
}

// begin counts an attempt from key and returns how long key must wait first (0:
// go ahead; the attempt is then counted, and is ended by settle or undo). atOnce
// tells that the wrong passwords alone would not make key wait: attempts not yet
// answered do (sign-ins sent at once from one address, as a lab behind one
// router may).
func (l *addrLimiter) begin(key string) (wait time.Duration, atOnce bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.seen) > 100000 { // a flood of addresses must not grow memory without end
		for a, f := range l.seen {
			if now.Sub(f.last) > time.Hour {
				delete(l.seen, a)
			}
		}
	}
	f := l.seen[key]
	if f == nil || now.Sub(f.last) > time.Hour {
		f = &addrFailures{}
		l.seen[key] = f
	}
	if wait := f.last.Add(l.delay(f.n)).Sub(now); f.n > 0 && wait > 0 {
		return wait, l.delay(f.n-f.pending) == 0
	}
	f.n++
	f.pending++
	f.last = now
	return 0, false
}

// settle ends an attempt that was a wrong password: it stays counted.
func (l *addrLimiter) settle(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f := l.seen[key]; f != nil && f.pending > 0 {
		f.pending--
	}
}

// undo takes back one attempt that turned out not to be a wrong password.
func (l *addrLimiter) undo(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if f := l.seen[key]; f != nil && f.n > 0 {
		f.n--
		f.pending = max(f.pending-1, 0)
	}
}

// limitKey is the key an address is limited under: IPv4 addresses one by one,
// IPv6 by their /64 (one machine is usually given a whole /64).
func limitKey(addr string) string {
	ip := net.ParseIP(addr)
	if ip == nil || ip.To4() != nil {
		return addr
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// auditBudget lets each key write refusals to the audit log at a steady rate
// with bursts (a token bucket), and counts what it held back.
type auditBudget struct {
	mu   sync.Mutex
	now  func() time.Time
	keys map[string]*bucket
}

type bucket struct {
	tokens  float64
	at      time.Time
	skipped int
}

const (
	auditBurst   = 60
	auditPerSec  = 1.0
	auditMaxKeys = 100000
)

func newAuditBudget() *auditBudget {
	return &auditBudget{now: time.Now, keys: map[string]*bucket{}}
}

// allow reports whether key may write one refusal now, and how many were held
// back since its last one.
func (a *auditBudget) allow(key string) (bool, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	if len(a.keys) > auditMaxKeys {
		for k, b := range a.keys {
			if now.Sub(b.at) > time.Hour {
				delete(a.keys, k)
			}
		}
	}
	b := a.keys[key]
	if b == nil {
		b = &bucket{tokens: auditBurst, at: now}
		a.keys[key] = b
	}
	b.tokens = min(auditBurst, b.tokens+now.Sub(b.at).Seconds()*auditPerSec)
	b.at = now
	if b.tokens < 1 {
		b.skipped++
		return false, 0
	}
	b.tokens--
	skipped := b.skipped
	b.skipped = 0
	return true, skipped
}

// clip cuts s to at most n bytes, on a character boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func roundUp(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s == 1 {
		return "1 second"
	}
	return fmt.Sprintf("%d seconds", s)
}

// Serve serves the API over TLS with cert on ln until ctx ends, then shuts down
// gracefully (requests in flight finish).
func (s *Server) Serve(ctx context.Context, ln net.Listener, cert tls.Certificate) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          s.log,
	}
	s.sweepUploads(ctx, true) // uploads left from before the server started
	done := make(chan error, 1)
	go func() { done <- hs.ServeTLS(ln, "", "") }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return hs.Shutdown(sctx)
	}
}
