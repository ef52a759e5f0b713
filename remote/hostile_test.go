package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/color"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
	"github.com/benchwright/benchwright/verify"
)

// rawClient speaks the API without the Client's help, as a hostile program would.
type rawClient struct {
	t   *testing.T
	url string
	hc  *http.Client
}

func (c rawClient) post(path, token string, body []byte) (int, string) {
	c.t.Helper()
	return c.do(http.MethodPost, path, token, body)
}

func (c rawClient) get(path, token string) (int, string) {
	c.t.Helper()
	return c.do(http.MethodGet, path, token, nil)
}

// put uploads data as the file rel of project 1 under the hash sha.
func (c rawClient) put(token, rel, sha string, data []byte) (int, string) {
	c.t.Helper()
	q := url.Values{"path": {rel}, "sha256": {sha}}
	return c.do(http.MethodPut, "/v1/upload/1?"+q.Encode(), token, data)
}

// do sends one request with token (none when empty) and returns its status and body.
func (c rawClient) do(method, path, token string, body []byte) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.url+path, bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c rawClient) signIn(name string) string {
	c.t.Helper()
	body, _ := json.Marshal(map[string]string{"name": name, "password": storetest.Password, "contract": remote.Contract})
	status, resp := c.post("/v1/signin", "", body)
	if status != http.StatusOK {
		c.t.Fatalf("sign in %s: %d %s", name, status, resp)
	}
	var out struct{ Token string }
	json.Unmarshal([]byte(resp), &out)
	return out.Token
}

// TestHostileClient sends what a hostile or broken client might: each request is
// refused, nothing changes, and the refusal is in the audit log with the client's
// address.
func TestHostileClient(t *testing.T) {
	ctx := context.Background()
	p := storetest.Seed(t, nil)
	db := p.DB
	s := remote.NewServer(db, log.New(io.Discard, "", 0))
	s.SetMaxBody(64 << 10)
	srv := httptest.NewTLSServer(s.Handler())
	t.Cleanup(srv.Close)
	raw := rawClient{t: t, url: srv.URL, hc: srv.Client()}

	lead, _ := db.UserByName(ctx, bench.Owner(), "lead")
	ann, _ := db.UserByName(ctx, bench.Owner(), "ann1")
	// reviewed is a sample of ann1's, submitted and approved by each of who in turn
	// (a1 round 1, b1 round 2, the rest round 3).
	reviewed := func(who ...string) bench.SampleInfo {
		si, err := db.CreateSample(ctx, ann, p.Project.ID, storetest.HopSample(p.Image))
		if err != nil {
			t.Fatal(err)
		}
		if si, err = db.Submit(ctx, ann, si.ID, si.Version, nil); err != nil {
			t.Fatal(err)
		}
		for i, name := range who {
			round := min(i+1, 3)
			u, _ := db.UserByName(ctx, bench.Owner(), name)
			if _, err := db.SubmitReview(ctx, u, bench.ReviewInput{SampleID: si.ID, Round: round, BasedOn: si.Revision, Verdict: storetest.Approve(si.Kind, round)}); err != nil {
				t.Fatal(err)
			}
		}
		return si
	}
	si := reviewed("a1", "b1", "a2")           // in round 3 with one vote cast, for the blind-round read
	_ = reviewed("a1", "b1", "a2", "b2", "c1") // accepted: a frozen release of it, for reads by release id
	rel, err := db.Freeze(ctx, lead, bench.FreezeInput{ProjectID: p.Project.ID, Name: "hostile", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	im, err := db.ImageByPath(ctx, lead, p.Project.ID, p.Image)
	if err != nil {
		t.Fatal(err)
	}
	// Accounts of another project only: strangers to this one.
	elsewhere, err := db.CreateProject(ctx, lead, "elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct{ name, role, group string }{{"out1", bench.RoleAnnotator, ""}, {"outv", bench.RoleVerifier, "C"}} {
		if _, err := db.AddUserToProject(ctx, lead, elsewhere.ID, u.name, u.role, u.group, storetest.Password); err != nil {
			t.Fatal(err)
		}
	}
	samplesBefore, _ := db.CountSamples(ctx, bench.Owner(), p.Project.ID, bench.SampleFilter{})

	annTok := raw.signIn("ann1")
	outTok := raw.signIn("out1")
	outvTok := raw.signIn("outv")
	c1Tok := raw.signIn("c1")
	gone := raw.signIn("ann2")
	if status, _ := raw.post("/v1/signout", gone, nil); status != http.StatusOK {
		t.Fatalf("sign out: %d", status)
	}
	expiring := raw.signIn("ann2")

	settingsBefore, _ := db.GroupSettings(ctx, bench.Owner(), p.Project.ID)
	junk := strings.Repeat("not an image ", 100)
	jpeg := jpegBytes(t, 8, 8, color.White)
	cases := []struct {
		name   string
		path   string
		token  string
		body   string
		status int
		before func()
		get    bool // a GET of path instead of a POST of body
	}{
		{"acts as the lead by naming him", "/v1/call/CreateProject", annTok,
			`{"actor":{"ID":` + jsonInt(lead.ID) + `,"Name":"lead","Role":"lead"},"name":"stolen"}`, http.StatusBadRequest, nil, false},
		{"an annotator creates a project", "/v1/call/CreateProject", annTok, `{"name":"stolen"}`, http.StatusForbidden, nil, false},
		{"an annotator freezes", "/v1/call/Freeze", annTok,
			`{"in":{"ProjectID":` + jsonInt(p.Project.ID) + `,"Name":"r","Version":"1"}}`, http.StatusForbidden, nil, false},
		{"an annotator changes a setting", "/v1/call/SetSettings", annTok,
			`{"projectID":` + jsonInt(p.Project.ID) + `,"values":{"round3.panel":"1"}}`, http.StatusForbidden, nil, false},
		{"an annotator withdraws someone's sample", "/v1/call/Withdraw", annTok,
			`{"id":"` + si.ID + `","reason":"mine now"}`, http.StatusForbidden, nil, false},
		{"no token", "/v1/call/Users", "", `{}`, http.StatusUnauthorized, nil, false},
		{"a made-up token", "/v1/call/Users", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", `{}`, http.StatusUnauthorized, nil, false},
		{"a token replayed after sign-out", "/v1/call/Users", gone, `{}`, http.StatusUnauthorized, nil, false},
		{"an expired token", "/v1/call/Users", expiring, `{}`, http.StatusUnauthorized, func() {
			db.Now = func() time.Time { return time.Now().UTC().Add(store.SessionTTL + time.Minute) }
		}, false},
		{"an oversized body", "/v1/call/Users", annTok, `{"x":"` + strings.Repeat("a", 70<<10) + `"}`, http.StatusRequestEntityTooLarge, nil, false},
		{"a malformed body", "/v1/call/CreateSample", annTok, `{"projectID": "one"`, http.StatusBadRequest, nil, false},
		{"two bodies in one", "/v1/call/Users", annTok, `{} {}`, http.StatusBadRequest, nil, false},
		{"an unknown call", "/v1/call/DropAllTables", annTok, `{}`, http.StatusNotFound, nil, false},
		{"a path that is not the API", "/v1/admin", annTok, `{}`, http.StatusNotFound, nil, false},
		// Another project's id: every call on a project is its members' alone.
		{"a stranger reads the review queue", "/v1/call/ReviewQueue", outvTok,
			`{"projectID":` + jsonInt(p.Project.ID) + `,"round":0}`, http.StatusForbidden, nil, false},
		{"a stranger writes a sample", "/v1/call/CreateSample", outTok,
			`{"projectID":` + jsonInt(p.Project.ID) + `,"s":{"kind":"judgment","question":"Is it?","answer_text":"yes"}}`, http.StatusForbidden, nil, false},
		{"a stranger lists the samples", "/v1/call/Samples", outTok,
			`{"projectID":` + jsonInt(p.Project.ID) + `,"f":{},"offset":0,"limit":10}`, http.StatusForbidden, nil, false},
		// Named by id, another project's sample, release or image answers as a
		// missing one (404), so ids cannot be probed; the refusal is audited.
		{"a stranger reads a sample", "/v1/call/Sample", outTok, `{"id":"` + si.ID + `"}`, http.StatusNotFound, nil, false},
		{"a stranger reads a release's items", "/v1/call/ReleaseItems", outTok,
			`{"releaseID":` + jsonInt(rel.ID) + `}`, http.StatusNotFound, nil, false},
		{"a stranger claims a seat", "/v1/call/ClaimReview", outvTok, `{"sampleID":"` + si.ID + `","round":3}`, http.StatusNotFound, nil, false},
		{"a stranger opens an image", "/v1/image/" + im.SHA256, outTok, ``, http.StatusNotFound, nil, true},
		{"a stranger opens a thumbnail", "/v1/image/" + im.SHA256 + "?thumb=1", outvTok, ``, http.StatusNotFound, nil, true},
		{"a stranger opens the original file", "/v1/image/" + im.SHA256 + "?original=1", outTok, ``, http.StatusNotFound, nil, true},
		// Planting (issue 30): which samples are planted copies, and how each
		// verifier did on them, are a lead's alone; a verifier asking is refused.
		{"a verifier reads the planting figures", "/v1/call/PlantedStatus", c1Tok,
			`{"projectID":` + jsonInt(p.Project.ID) + `}`, http.StatusForbidden, nil, false},
		{"a verifier lists the planted copies", "/v1/call/PlantedList", c1Tok,
			`{"projectID":` + jsonInt(p.Project.ID) + `}`, http.StatusForbidden, nil, false},
		{"a verifier resumes themself", "/v1/call/PlantResume", c1Tok,
			`{"projectID":` + jsonInt(p.Project.ID) + `,"verifier":"c1"}`, http.StatusForbidden, nil, false},
		{"a stranger lists the planted copies", "/v1/call/PlantedList", outvTok,
			`{"projectID":` + jsonInt(p.Project.ID) + `}`, http.StatusForbidden, nil, false},
		// Uploads ("PUT " before the path): only images land in the upload folder.
		{"random bytes uploaded as an image", "PUT /v1/upload/" + jsonInt(p.Project.ID) + "?" + url.Values{"path": {"s/x.jpg"}, "sha256": {sha256Hex([]byte(junk))}}.Encode(),
			annTok, junk, http.StatusBadRequest, nil, false},
		{"a stranger uploads an image", "PUT /v1/upload/" + jsonInt(p.Project.ID) + "?" + url.Values{"path": {"s/y.jpg"}, "sha256": {sha256Hex(jpeg)}}.Encode(),
			outTok, string(jpeg), http.StatusForbidden, nil, false},
	}
	for _, c := range cases {
		if c.before != nil {
			c.before()
		}
		before := deniedRows(t, db)
		var status int
		var body string
		if method, path, ok := strings.Cut(c.path, " "); ok {
			status, body = raw.do(method, path, c.token, []byte(c.body))
		} else if c.get {
			status, body = raw.get(c.path, c.token)
		} else {
			status, body = raw.post(c.path, c.token, []byte(c.body))
		}
		db.Now = func() time.Time { return time.Now().UTC() }
		if status != c.status {
			t.Errorf("%s: status %d (%s), want %d", c.name, status, body, c.status)
		}
		if n := deniedRows(t, db) - before; n != 1 {
			t.Errorf("%s: %d refusals audited, want 1", c.name, n)
		}
		var we struct{ Message string }
		json.Unmarshal([]byte(body), &we)
		if we.Message == "" || strings.Contains(we.Message, "sql") {
			t.Errorf("%s: the refusal says %q", c.name, we.Message)
		}
	}

	// Nothing changed.
	if ps, _ := db.Projects(ctx, bench.Owner()); len(ps) != 2 {
		t.Errorf("%d projects after the attempts, want 2", len(ps))
	}
	if rs, _ := db.Releases(ctx, bench.Owner(), p.Project.ID); len(rs) != 1 {
		t.Errorf("%d releases after the attempts, want 1", len(rs))
	}
	if after, _ := db.GroupSettings(ctx, bench.Owner(), p.Project.ID); len(after) != len(settingsBefore) {
		t.Errorf("settings changed: %v → %v", settingsBefore, after)
	}
	if n, _ := db.CountSamples(ctx, bench.Owner(), p.Project.ID, bench.SampleFilter{}); n != samplesBefore {
		t.Errorf("%d samples after the attempts, want %d", n, samplesBefore)
	}
	if got, _ := db.Sample(ctx, bench.Owner(), si.ID); got.Status != verify.StateRound3 {
		t.Errorf("the sample is %s after the attempts, want %s", got.Status, verify.StateRound3)
	}

	// The blind round: c1, on the panel-to-be, sees no vote of the open round.
	body, _ := json.Marshal(map[string]string{"sampleID": si.ID})
	status, resp := raw.post("/v1/call/Reviews", c1Tok, body)
	if status != http.StatusOK {
		t.Fatalf("c1 reads reviews: %d %s", status, resp)
	}
	var out struct{ R0 []bench.ReviewRecord }
	if err := json.Unmarshal([]byte(resp), &out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.R0 {
		if r.Round == 3 {
			t.Errorf("c1 sees a round-3 vote of the open panel: %+v", r)
		}
	}

	// The refusals are in the log, with the address they came from.
	refused, err := db.Refusals(ctx, lead, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(refused) != len(cases) {
		t.Errorf("%d refusals in the log, want %d", len(refused), len(cases))
	}
	for _, e := range refused {
		if e.Client != "127.0.0.1" {
			t.Errorf("refusal %s %q recorded from %q, want 127.0.0.1", e.Action, e.Detail, e.Client)
		}
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

func deniedRows(t *testing.T, db *store.DB) int { return storetest.CountDenied(t, db) }

// TestServerNeverActsAsOwner: bench.Owner reads any project without an account
// (a local file's holder); the server must act only as a session's user, so no
// source file of package remote names Owner.
func TestServerNeverActsAsOwner(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "Owner()") {
			t.Errorf("%s names store.Owner: the server would read without a session's user", f)
		}
	}
}
