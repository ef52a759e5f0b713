package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benchwright/benchwright/demo"
)

// syncBuffer is a bytes.Buffer the server goroutine writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startServer runs bwctl serve on the demo project on a loopback port and returns
// its address and certificate fingerprint, as the server printed them.
func startServer(t *testing.T) (dbPath, addr, fingerprint string) {
	t.Helper()
	dbPath = filepath.Join(t.TempDir(), "team.db")
	if code, out, errOut := bwctl("demo", "--db", dbPath); code != 0 {
		t.Fatalf("demo: %d %s %s", code, out, errOut)
	}
	ctx, stop := context.WithCancel(context.Background())
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--db", dbPath, "--addr", "127.0.0.1:0"}, &out, &errOut) }()
	t.Cleanup(func() {
		stop()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d: %s", code, errOut.String())
		}
	})
	re := regexp.MustCompile(`on https://(\S+)\ncertificate (SHA256:[0-9a-f]{64})\n`)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return dbPath, m[1], m[2]
		}
		select {
		case code := <-done:
			t.Fatalf("serve stopped at once (exit %d): %s%s", code, out.String(), errOut.String())
		default:
		}
	}
	t.Fatalf("serve printed no address and fingerprint: %q %q", out.String(), errOut.String())
	return
}

// TestServeAndActThroughIt: bwctl acts on a team server as the signed-in user,
// pinned to the certificate the server printed; the work lands in the server's file.
func TestServeAndActThroughIt(t *testing.T) {
	dbPath, addr, fp := startServer(t)
	setPasswords(t, pw("demo"))
	on := []string{"--server", addr, "--fingerprint", fp}

	// Unpinned: refused, and told what to pin.
	code, _, errOut := bwctl("review", "queue", "--server", addr, "--as", "ver1")
	if code != exitUsage || !strings.Contains(errOut, fp) || !strings.Contains(errOut, "--fingerprint") {
		t.Errorf("an unpinned server: exit %d, %q", code, errOut)
	}
	// Pinned to another certificate: refused.
	other := "SHA256:" + strings.Repeat("0", 64)
	code, _, errOut = bwctl("review", "queue", "--server", addr, "--fingerprint", other, "--as", "ver1")
	if code != exitUsage || !strings.Contains(errOut, "certificate changed") {
		t.Errorf("a changed certificate: exit %d, %q", code, errOut)
	}

	code, out, errOut := bwctl(append([]string{"review", "queue", "--json", "--round", "1", "--as", "ver1"}, on...)...)
	if code != 0 {
		t.Fatalf("review queue over the server: %d %s", code, errOut)
	}
	var first struct{ Sample string }
	if err := json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &first); err != nil || first.Sample == "" {
		t.Fatalf("ver1's round-1 queue: %q (%v)", out, err)
	}
	code, out, errOut = bwctl(append([]string{"review", "submit", "--as", "ver1", "--sample", first.Sample, "--round", "1", "--decision", "approve", "--criterion", "all=yes"}, on...)...)
	if code != 0 || !strings.Contains(out, "round2") {
		t.Fatalf("approve over the server: %d %q %q", code, out, errOut)
	}
	// The file says so, read directly.
	code, out, _ = bwctl("status", "--db", dbPath, "--sample", first.Sample)
	if code != 0 || !strings.Contains(out, "round2") {
		t.Errorf("the server's file after the approval: %q", out)
	}
	// The timeline names who did it.
	code, out, errOut = bwctl(append([]string{"history", "--as", "lead", "--sample", first.Sample}, on...)...)
	if code != 0 || !strings.Contains(out, "ver1\treview.approve") {
		t.Errorf("history over the server: %d %q %q", code, out, errOut)
	}
	// A refusal is the same sentence as on the file.
	code, _, errOut = bwctl(append([]string{"review", "queue", "--as", "ann1"}, on...)...)
	if code != exitFindings || !strings.Contains(errOut, "only verifiers or leads may review samples") {
		t.Errorf("an annotator's queue over the server: %d %q", code, errOut)
	}
	// A workstation's folder is uploaded and imported on the server.
	dir := t.TempDir()
	img := image.NewGray(image.Rect(0, 0, 32, 24))
	var jb bytes.Buffer
	jpeg.Encode(&jb, img, nil)
	os.MkdirAll(filepath.Join(dir, "0100-lab-1"), 0o755)
	os.WriteFile(filepath.Join(dir, "0100-lab-1", "new.jpg"), jb.Bytes(), 0o644)
	code, out, errOut = bwctl(append([]string{"import-images", "--as", "lead", "--project", demo.DemoProject, dir}, on...)...)
	if code != 0 || !strings.Contains(out, "imported 1,") {
		t.Errorf("import-images over the server: %d %q %q", code, out, errOut)
	}
	// A release is frozen and exported through the server into this machine's folder.
	code, out, errOut = bwctl(append([]string{"freeze", "--as", "lead", "--name", "team", "--version", "1"}, on...)...)
	if code != 0 {
		t.Fatalf("freeze over the server: %d %q %q", code, out, errOut)
	}
	outDir := filepath.Join(t.TempDir(), "team-1")
	code, out, errOut = bwctl(append([]string{"export", "--as", "lead", "--release", "team@1", "--format", "native", "--out", outDir}, on...)...)
	if code != 0 {
		t.Fatalf("export over the server: %d %q %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(outDir, "MANIFEST.json")); err != nil {
		t.Errorf("the export over the server wrote no manifest here: %v", err)
	}
	code, out, errOut = bwctl("verify-release", outDir)
	if code != 0 {
		t.Errorf("verify-release of the export over the server: %d %q %q", code, out, errOut)
	}
	code, out, _ = bwctl(append([]string{"users", "list", "--as", "lead"}, on...)...)
	if code != 0 || !strings.Contains(out, "ver6	verifier	C") {
		t.Errorf("users list over the server: %d %q", code, out)
	}
	setPasswords(t, pw("wrong"))
	code, _, errOut = bwctl(append([]string{"status", "--as", "lead"}, on...)...)
	if code != exitFindings || !strings.Contains(errOut, "Wrong user name or password.") {
		t.Errorf("a wrong password over the server: %d %q", code, errOut)
	}
}
