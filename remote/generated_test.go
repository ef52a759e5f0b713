package remote

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote/internal/gencalls"
)

// TestGeneratedCallsAreCurrent fails when bench.Calls changed and calls_gen.go was
// not generated again (go generate ./remote): the client and the server would
// otherwise carry a different API than the one the interface defines.
func TestGeneratedCallsAreCurrent(t *testing.T) {
	src, err := os.ReadFile("../bench/service.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := gencalls.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("calls_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("calls_gen.go is not what bench/service.go's Calls generates; run go generate ./remote")
	}
	var _ bench.Calls = (*Client)(nil) // and the client has every call
	if len(serverCalls) != len(callNames) {
		t.Errorf("the server dispatches %d calls, the interface has %d", len(serverCalls), len(callNames))
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
