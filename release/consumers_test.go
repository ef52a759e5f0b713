package release

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The consumers' own loading and scoring logic runs in Python, as they do: the
// scripts in testdata/consumers/ follow the consumers' code (each names the file
// and commit it follows) and need Debian's python3 with pandas and PIL, which
// `scripts/dev test` installs. Without them these tests fail, saying so; set
// BENCHWRIGHT_SKIP_CONSUMERS=1 to skip them knowingly.

// consumerPython finds a python3 that has pandas and PIL.
func consumerPython(t *testing.T) string {
	t.Helper()
	if os.Getenv("BENCHWRIGHT_SKIP_CONSUMERS") == "1" {
		t.Skip("BENCHWRIGHT_SKIP_CONSUMERS=1: the consumers' loaders were not run")
	}
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import pandas, PIL").Run() == nil {
			return py
		}
	}
	t.Fatal("no python3 with pandas and PIL: apt-get install python3-pandas python3-pil (scripts/dev test does), or set BENCHWRIGHT_SKIP_CONSUMERS=1")
	return ""
}

// runConsumer runs testdata/consumers/SCRIPT with args and decodes the one JSON
// object it prints into out.
func runConsumer(t *testing.T, script string, out any, args ...string) {
	t.Helper()
	py := consumerPython(t)
	cmd := exec.Command(py, append([]string{filepath.Join("testdata", "consumers", script)}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", script, args, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("%s printed %q: %v\nstderr: %s", script, stdout.String(), err, stderr.String())
	}
}
