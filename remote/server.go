package remote

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

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
}

// NewServer returns a server for db. Messages about refused requests and
// failures go to logger (nil: the standard logger).
func NewServer(db *store.DB, logger *log.Logger) *Server {
	if logger == nil {
		logger = log.Default()
	}
	return &Server{db: db, log: logger, maxBody: DefaultMaxBody, signIns: newAddrLimiter()}
}

// SetMaxBody changes the largest request body read (tests use a small one).
func (s *Server) SetMaxBody(n int64) { s.maxBody = n }

// Handler is the server's HTTP API:
//
//	GET  /v1/hello           who is here (no session needed)
//	POST /v1/signin          {"name","password"} → {"token","user","expires"}
//	POST /v1/signout         ends the request's session
//	POST /v1/call/NAME       one of store.Calls, as the session's user
//	GET  /v1/image/SHA256    an image's preview (?thumb=1: its thumbnail)
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
	mux.HandleFunc("POST /v1/signout", s.withSession(func(w http.ResponseWriter, r *http.Request, me store.User, token string) {
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
	mux.HandleFunc("GET /v1/changes", s.withSession(func(w http.ResponseWriter, r *http.Request, me store.User, _ string) {
		n, err := s.db.LastChange(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, changes{Seq: n})
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.refuse(w, r, store.User{}, http.StatusNotFound, "request", fmt.Sprintf("no such request: %s %s", r.Method, r.URL.Path))
	})
	return mux
}

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
}

type signInResponse struct {
	Token   string     `json:"token"`
	User    store.User `json:"user"`
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
	if wait := s.signIns.wait(clientAddr(r)); wait > 0 {
		s.refuse(w, r, store.User{}, http.StatusTooManyRequests, "signin",
			fmt.Sprintf("too many wrong passwords from this address; try again in %s", roundUp(wait)))
		return
	}
	var in signInRequest
	if !s.decode(w, r, store.User{}, "signin", &in) {
		return
	}
	sess, err := s.db.OpenSession(ctx, in.Name, in.Password)
	if err != nil {
		if errors.Is(err, store.ErrUnauthorized) {
			s.signIns.failed(clientAddr(r))
		}
		s.fail(w, r, err)
		return
	}
	s.signIns.succeeded(clientAddr(r))
	writeJSON(w, http.StatusOK, signInResponse{Token: sess.Token, User: sess.User, Expires: sess.Expires})
}

// withSession runs h as the user of the request's session token; a request
// without a live token is refused and audited.
func (s *Server) withSession(h func(w http.ResponseWriter, r *http.Request, me store.User, token string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r = r.WithContext(store.WithClientAddr(r.Context(), clientAddr(r)))
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			s.refuse(w, r, store.User{}, http.StatusUnauthorized, "session", "a request without a session token: "+r.URL.Path)
			return
		}
		me, err := s.db.SessionUser(r.Context(), token)
		if errors.Is(err, store.ErrSessionEnded) {
			s.refuse(w, r, store.User{}, http.StatusUnauthorized, "session", "an unknown, expired or revoked session token: "+r.URL.Path)
			return
		}
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h(w, r, me, token)
	}
}

func (s *Server) call(w http.ResponseWriter, r *http.Request, me store.User, _ string) {
	name := r.PathValue("name")
	run, ok := serverCalls[name]
	if !ok {
		s.refuse(w, r, me, http.StatusNotFound, "call", fmt.Sprintf("no such call %q", name))
		return
	}
	body, ok := s.readBody(w, r, me, name)
	if !ok {
		return
	}
	var badBody error
	decode := func(v any) error {
		if err := strictUnmarshal(body, v); err != nil {
			badBody = err
			return err
		}
		return nil
	}
	out, err := run(r.Context(), s.db, me, decode)
	if badBody != nil {
		s.refuse(w, r, me, http.StatusBadRequest, name, "a malformed request: "+badBody.Error())
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) image(w http.ResponseWriter, r *http.Request, me store.User, _ string) {
	p, err := s.db.ImageFile(r.Context(), r.PathValue("sha"), r.URL.Query().Get("thumb") == "1")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable") // content-addressed
	http.ServeFile(w, r, p)
}

// readBody reads a request body of at most maxBody bytes; a larger one is refused.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, me store.User, what string) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		s.refuse(w, r, me, http.StatusRequestEntityTooLarge, what, fmt.Sprintf("a request body over %d bytes", s.maxBody))
		return nil, false
	case err != nil:
		s.refuse(w, r, me, http.StatusBadRequest, what, "an unreadable request body")
		return nil, false
	}
	return body, true
}

func (s *Server) decode(w http.ResponseWriter, r *http.Request, me store.User, what string, v any) bool {
	body, ok := s.readBody(w, r, me, what)
	if !ok {
		return false
	}
	if err := strictUnmarshal(body, v); err != nil {
		s.refuse(w, r, me, http.StatusBadRequest, what, "a malformed request: "+err.Error())
		return false
	}
	return true
}

// strictUnmarshal decodes one JSON value holding only the fields v has: a field
// the call does not take (an "actor" naming someone else, say) is an error.
func strictUnmarshal(body []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

// refuse answers a request refused before it reached the store, and audits it.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, me store.User, status int, what, why string) {
	ctx := store.WithClientAddr(context.WithoutCancel(r.Context()), clientAddr(r))
	if err := s.db.AuditRefusal(ctx, me, what, why); err != nil {
		s.log.Printf("benchwright server: audit a refusal: %v", err)
	}
	code := "invalid"
	switch status {
	case http.StatusUnauthorized:
		code = "session_ended"
	case http.StatusTooManyRequests:
		code = "too_many_failures"
	case http.StatusNotFound:
		code = "not_found"
	}
	msg := strings.ToUpper(why[:1]) + why[1:] + "."
	writeJSON(w, status, wireError{Codes: []string{code}, Text: why, Message: msg})
}

// fail answers a request the store refused or could not do.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	we, status := encodeError(err)
	if status == http.StatusInternalServerError {
		s.log.Printf("benchwright server: %s %s from %s: %v", r.Method, r.URL.Path, clientAddr(r), err)
	}
	writeJSON(w, status, we)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// addrLimiter makes an address that typed wrong passwords wait, twice as long
// after each further failure (the store already does the same per account name).
type addrLimiter struct {
	mu   sync.Mutex
	now  func() time.Time
	seen map[string]*addrFailures
}

type addrFailures struct {
	n    int
	last time.Time
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

func (l *addrLimiter) wait(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.seen[addr]
	if f == nil {
		return 0
	}
	return f.last.Add(l.delay(f.n)).Sub(l.now())
}

func (l *addrLimiter) failed(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.seen) > 100000 { // a flood of addresses must not grow memory without end
		for a, f := range l.seen {
			if l.now().Sub(f.last) > time.Hour {
				delete(l.seen, a)
			}
		}
	}
	f := l.seen[addr]
	if f == nil {
		f = &addrFailures{}
		l.seen[addr] = f
	}
	f.n++
	f.last = l.now()
}

func (l *addrLimiter) succeeded(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.seen, addr)
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
		ErrorLog:          s.log,
	}
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
