package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store/storetest"
)

// TestClientWrittenByHandTalksToThisServer: a client that is not this package's
// signs in with the wire's digest and sends its requests — JSON written here by
// hand, as the builds before the calls became session-bound (issue 28 item 5)
// wrote them: the calls lost their actor in Go only — and gets the answers the
// file gives, refusals included. (Those builds' digests are refused since issue
// 31's quick count changed the wire: TestSignInRefusesAnotherBuild.)
func TestClientWrittenByHandTalksToThisServer(t *testing.T) {
	p, _, raw := hardServer(t)
	ctx := context.Background()
	signIn := func(name string) string {
		t.Helper()
		body := `{"name":"` + name + `","password":"` + storetest.Password + `","contract":"` + remote.Contract + `","version":"0.1.0"}`
		status, resp := raw.post("/v1/signin", "", []byte(body))
		if status != http.StatusOK {
			t.Fatalf("the sign-in as %s: %d %s", name, status, resp)
		}
		var out struct {
			Token string     `json:"token"`
			User  bench.User `json:"user"`
		}
		if err := json.Unmarshal([]byte(resp), &out); err != nil || out.Token == "" || out.User.Name != name {
			t.Fatalf("sign-in answer %s (%v)", resp, err)
		}
		return out.Token
	}
	lead, ann := signIn("lead"), signIn("ann1")
	leadU, _ := p.DB.UserByName(ctx, bench.Owner(), "lead")
	annU, _ := p.DB.UserByName(ctx, bench.Owner(), "ann1")
	call := func(token, name, body string, out any) (int, string) {
		t.Helper()
		status, resp := raw.post("/v1/call/"+name, token, []byte(body))
		if status == http.StatusOK && out != nil {
			var a struct{ R0 json.RawMessage }
			if err := json.Unmarshal([]byte(resp), &a); err != nil {
				t.Fatalf("%s answered %s: %v", name, resp, err)
			}
			if err := json.Unmarshal(a.R0, out); err != nil {
				t.Fatalf("%s answered %s: %v", name, resp, err)
			}
		}
		return status, resp
	}

	var users []bench.User
	if status, resp := call(lead, "Users", `{}`, &users); status != http.StatusOK {
		t.Fatalf("Users: %d %s", status, resp)
	}
	if want, _ := p.DB.Users(ctx, leadU); !reflect.DeepEqual(users, want) || len(users) < 9 {
		t.Errorf("Users: %+v, the file says %+v", users, want)
	}

	var pr bench.Project
	if status, resp := call(ann, "ProjectByName", `{"name":"contract"}`, &pr); status != http.StatusOK || pr.ID != p.Project.ID {
		t.Errorf("ProjectByName: %d %s", status, resp)
	}

	smp, _ := json.Marshal(storetest.HopSample(p.Image))
	var made bench.SampleInfo
	if status, resp := call(ann, "CreateSample", `{"projectID":`+jsonInt(p.Project.ID)+`,"s":`+string(smp)+`}`, &made); status != http.StatusOK || made.ID == "" {
		t.Fatalf("CreateSample: %d %s", status, resp)
	}
	var got bench.SampleInfo
	if status, resp := call(ann, "Sample", `{"id":"`+made.ID+`"}`, &got); status != http.StatusOK {
		t.Fatalf("Sample: %d %s", status, resp)
	}
	if want, err := p.DB.Sample(ctx, annU, made.ID); err != nil || got.ID != want.ID || got.AuthorName != "ann1" || got.Version != want.Version {
		t.Errorf("Sample: %+v, the file says %+v (%v)", got, want, err)
	}

	// The session decides who acts: an annotator's token may not create a project.
	if status, resp := call(ann, "CreateProject", `{"name":"mine"}`, nil); status != http.StatusForbidden || !strings.Contains(resp, "only leads may create projects") {
		t.Errorf("CreateProject as ann1: %d %s", status, resp)
	}
}

// TestClientActsOnlyAsWhoSignedIn: a client's Session for the account signed in
// is the client; for anyone else it refuses every call in a sentence, without
// asking the server (here: stopped), instead of acting as the signed-in account
// under another's name.
func TestClientActsOnlyAsWhoSignedIn(t *testing.T) {
	p := storetest.Seed(t, nil)
	srv, dial := serve(t, p.DB)
	ctx := context.Background()
	c := dial(t)
	me, err := c.Authenticate(ctx, "ann1", storetest.Password)
	if err != nil {
		t.Fatal(err)
	}
	if s := c.As(me); s != bench.Session(c) {
		t.Errorf("As(the account signed in) is %T, not the client", s)
	}
	if _, err := c.As(me).ProjectByName(ctx, "contract"); err != nil {
		t.Errorf("as ann1: %v", err)
	}
	lead, _ := p.DB.UserByName(ctx, bench.Owner(), "lead")
	srv.Close()
	other := c.As(lead)
	_, err = other.Users(ctx)
	if !errors.Is(err, bench.ErrForbidden) || errors.Is(err, remote.ErrOffline) ||
		!strings.Contains(bench.Message(err), "signed in to the team server as ann1 and cannot act as lead") {
		t.Errorf("Users as lead on ann1's client: %v (%s)", err, bench.Message(err))
	}
	if _, err := other.ImageFile(ctx, strings.Repeat("a", 64), bench.ImageThumb); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("ImageFile as lead on ann1's client: %v", err)
	}
	if _, err := other.ImportImages(ctx, p.Project.ID, t.TempDir(), nil); !errors.Is(err, bench.ErrForbidden) {
		t.Errorf("ImportImages as lead on ann1's client: %v", err)
	}
}
