package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
)

// Ctrl-C reaches the long-running commands through their context: each stops,
// says what was left undone and exits 130, instead of running to the end.
func TestInterruptedCommandsStop(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "rel.csv")
	cliWriteFile(t, csvPath, []byte("1,2,3,3,2,1,4,1,2\n1,2,3,3,2,2,4,1,2\n"))
	native := filepath.Join("testdata", "import", "native.jsonl")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"lint", []string{"lint", filepath.Join("testdata", "lint", "warnings.jsonl")}, "bwctl lint: interrupted; the findings above are for the lines before it"},
		{"alpha bootstrap", []string{"alpha", "--bootstrap", "100000", csvPath}, "bwctl alpha: interrupted; no interval was computed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var out, errOut bytes.Buffer
			code := run(ctx, tt.args, &out, &errOut)
			if code != exitInterrupted || !strings.Contains(errOut.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errOut.String(), exitInterrupted, tt.want)
			}
		})
	}
	// The import checks records before its one write transaction; interrupted
	// there, it returns the context's error and writes nothing.
	data, err := os.ReadFile(native)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := convertSamples(ctx, nil, bench.Owner(), 0, formatNative, data); !errors.Is(err, context.Canceled) {
		t.Fatalf("convertSamples with Ctrl-C pressed: %v, want context.Canceled", err)
	}
}
