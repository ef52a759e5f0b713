package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/benchwright/benchwright/bench"
)

// runSettings dispatches settings show|set.
func runSettings(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: bwctl settings show|set --db FILE [--project P] --as USER [--json] [KEY=VALUE …]")
		return exitUsage
	}
	switch args[0] {
	case "show":
		return settingsShow(ctx, args[1:], stdout, stderr)
	case "set":
		return settingsSet(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "bwctl settings: unknown subcommand %q (show or set)\n", args[0])
	return exitUsage
}

// settingsShow prints every setting as KEY = VALUE with its meaning, or as JSON.
func settingsShow(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("settings show", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name (default: the only one)")
	as := fs.String("as", "", "user (password from BENCHWRIGHT_PASSWORD)")
	asJSON := fs.Bool("json", false, "print a JSON list of {key, value, help}")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, me, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	groups, err := db.As(me).GroupSettings(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	values := append(p.Settings.Values(), groups...)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(values); err != nil {
			return fail(stderr, err)
		}
		return exitOK
	}
	for _, v := range values {
		fmt.Fprintf(stdout, "%-24s = %-8s # %s\n", v.Key, v.Value, v.Help)
	}
	return exitOK
}

// settingsSet changes the KEY=VALUE arguments in one transaction and prints each
// change as "key: old → new".
func settingsSet(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("settings set", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name (default: the only one)")
	as := fs.String("as", "", "lead (password from BENCHWRIGHT_PASSWORD)")
	rest, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(rest) == 0 {
		fmt.Fprintln(stderr, "bwctl settings set: give at least one KEY=VALUE (see bwctl settings show)")
		return exitUsage
	}
	values := map[string]string{}
	for _, kv := range rest {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			fmt.Fprintf(stderr, "bwctl settings set: %q is not KEY=VALUE\n", kv)
			return exitUsage
		}
		values[strings.TrimSpace(k)] = v
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	changes, err := db.As(actor).SetSettings(ctx, p.ID, values)
	if err != nil {
		return fail(stderr, err)
	}
	if len(changes) == 0 {
		fmt.Fprintln(stdout, "nothing changed")
	}
	for _, c := range changes {
		fmt.Fprintf(stdout, "%s: %s → %s\n", c.Key, c.Old, c.New)
	}
	return exitOK
}

// projectHistory prints a project's settings changes and refused attempts.
func projectHistory(ctx context.Context, db bench.Calls, p bench.Project, stdout, stderr io.Writer) int {
	events, err := db.ProjectHistory(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	for _, e := range events {
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", e.At, e.Actor, e.Action, e.Detail)
	}
	return exitOK
}
