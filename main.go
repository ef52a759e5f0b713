// Command benchwright is the Benchwright desktop app. With no flags it opens the demo
// project in the user's data directory, creating it on first start; --db opens another
// database. It only wires the store to the UI.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/ui"
)

func main() {
	dbPath := flag.String("db", "", "database file or postgres://USER@HOST/DB to open (default: the demo project in the user's data directory)")
	flag.Parse()
	ctx := context.Background()

	hint := ""
	if *dbPath == "" {
		dir, err := dataDir()
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchwright:", err)
			os.Exit(1)
		}
		*dbPath = filepath.Join(dir, "demo.db")
		hint = fmt.Sprintf("Demo accounts: lead, ann1, ann2, ver1 … ver6 — password %q.", demo.DemoPassword)
	}
	fresh := false
	if _, err := os.Stat(*dbPath); os.IsNotExist(err) {
		fresh = true
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchwright:", err)
		os.Exit(1)
	}
	defer db.Close()
	if fresh && hint != "" {
		if err := demo.Seed(ctx, db, assets.Demo(), filepath.Join(db.FilesDir(), "demo-images")); err != nil {
			fmt.Fprintln(os.Stderr, "benchwright: creating the demo project:", err)
			os.Exit(1)
		}
	}

	a := app.NewWithID("io.benchwright.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	u := ui.New(a, db, hint)
	u.SetDialer(remote.Dialer{})
	u.Window().ShowAndRun()
}

// dataDir is $XDG_DATA_HOME/benchwright (default ~/.local/share/benchwright).
func dataDir() (string, error) {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the data directory: %w", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "benchwright"), nil
}
