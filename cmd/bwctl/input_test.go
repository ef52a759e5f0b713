package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Endless inputs (/dev/zero) meet a limit that the message names, instead of
// filling memory until the process dies.
func TestEndlessInputsMeetALimit(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero on this system")
	}
	setPasswords(t, map[string]string{envPW: "demo"})
	db := filepath.Join(t.TempDir(), "demo.db")
	if code, _, errOut := bwctl("demo", "--db", db); code != 0 {
		t.Fatalf("demo: %s", errOut)
	}
	runCases(t, []cliCase{
		{name: "lint", args: []string{"lint", "/dev/zero"}, code: 2, wantErr: []string{"/dev/zero:1", "the line is longer than 16 MiB"}},
		{name: "alpha", args: []string{"alpha", "/dev/zero"}, code: 2, wantErr: []string{"/dev/zero has a line longer than 16 MiB"}},
		{name: "review --correct", env: map[string]string{envPW: "demo"}, args: []string{"review", "submit", "--db", db, "--as", "ver1",
			"--sample", "demo-hq-004", "--round", "1", "--correct", "/dev/zero", "--comment", "c"}, code: 2,
			wantErr: []string{"/dev/zero holds more than 16 MiB, the most bwctl reads from one file"}},
	})
	// import-samples reads a whole dataset file, up to maxDatasetBytes; the same
	// reader with a small limit shows the refusal without reading 256 MiB here.
	if _, err := readInput("/dev/zero", 1<<20); !errors.Is(err, errTooLarge) || !strings.Contains(err.Error(), "more than 1 MiB") {
		t.Errorf("readInput(/dev/zero, 1 MiB): %v", err)
	}
	small := filepath.Join(t.TempDir(), "small.json")
	os.WriteFile(small, []byte("[]"), 0o644)
	if b, err := readInput(small, 2); err != nil || string(b) != "[]" {
		t.Errorf("a file of exactly the limit: %q, %v", b, err)
	}
}
