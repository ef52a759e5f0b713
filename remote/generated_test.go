package remote

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote/internal/gencalls"
)

// TestGeneratedCallsAreCurrent fails when bench.Calls or bench.Session changed
// and calls_gen.go or store's session_gen.go was not generated again (go
// generate ./remote): the client, the server and the file's sessions would
// otherwise carry a different API than the one the interfaces define.
func TestGeneratedCallsAreCurrent(t *testing.T) {
	src, err := os.ReadFile("../bench/service.go")
	if err != nil {
		t.Fatal(err)
	}
	for file, generate := range map[string]func([]byte) ([]byte, error){
		"calls_gen.go":            gencalls.Generate,
		"../store/session_gen.go": gencalls.GenerateStore,
	} {
		want, err := generate(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what bench/service.go generates; run go generate ./remote", file)
		}
	}
	var _ bench.Session = (*Client)(nil) // and the client has every call
	if len(serverCalls) != len(callNames) {
		t.Errorf("the server dispatches %d calls, the interface has %d", len(serverCalls), len(callNames))
	}
}

// TestGeneratorRefusesAnActor: a call of the contract that names the person
// acting would be believed by a file and thrown away by a server; the generator
// refuses it.
func TestGeneratorRefusesAnActor(t *testing.T) {
	src, err := os.ReadFile("../bench/service.go")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(src, []byte("Users(ctx context.Context)"), []byte("Users(ctx context.Context, actor User)"), 1)
	if bytes.Equal(bad, src) {
		t.Fatal("bench.Calls has no Users(ctx) to spoil")
	}
	for name, generate := range map[string]func([]byte) ([]byte, error){"Generate": gencalls.Generate, "GenerateStore": gencalls.GenerateStore} {
		if _, err := generate(bad); err == nil || !strings.Contains(err.Error(), "takes no actor") {
			t.Errorf("%s of a call with an actor: %v", name, err)
		}
	}
}

// TestEveryCallEncodes: every call's request and answer survive encoding/json,
// zero values included (a func field, even nil, makes json.Marshal fail — the
// call could then never be made through a server).
func TestEveryCallEncodes(t *testing.T) {
	for _, name := range callNames {
		for i, v := range callTypes[name] {
			b, err := json.Marshal(v)
			if err != nil {
				t.Errorf("%s (%s): %v", name, [2]string{"request", "answer"}[i], err)
				continue
			}
			back := reflect.New(reflect.TypeOf(v))
			if err := json.Unmarshal(b, back.Interface()); err != nil {
				t.Errorf("%s (%s) does not decode: %v", name, [2]string{"request", "answer"}[i], err)
			}
		}
	}
}
