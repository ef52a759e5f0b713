package main

import (
	"path/filepath"
	"testing"
)

func TestBackupCommand(t *testing.T) {
	path := initDB(t)
	to := filepath.Join(t.TempDir(), "copy.db")
	runCases(t, []cliCase{
		{name: "backup", args: []string{"backup", "--db", path, "--to", to}, code: 0, wantOut: []string{"backed up"}},
		{name: "not over a file", args: []string{"backup", "--db", path, "--to", to}, code: 2, wantErr: []string{"exists; name a new file"}},
		{name: "no target", args: []string{"backup", "--db", path}, code: 2, wantErr: []string{"--to FILE"}},
		{name: "the backup opens", args: []string{"projects", "--db", to}, code: 0, wantOut: []string{"p1"}},
	})
}
