// Command bwctl is Benchwright's headless tool for leads and scripts: it creates
// databases and users, imports images and samples, lints, reviews, computes agreement
// and exports releases. It only wires flags to the store and domain packages.
//
// Exit codes: 0 ok, 1 findings or refusals, 2 bad usage or unreadable input,
// 3 undefined result (alpha). Commands acting as a user take --as USER and read the
// password from BENCHWRIGHT_PASSWORD, never from a flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"

	"github.com/benchwright/benchwright/assets"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
)

// command is one subcommand; args exclude the command's own name(s).
type command struct {
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	summary string
}

var commands = map[string]command{
	"init":          {runInit, "create a database, a project and its lead"},
	"users":         {runUsers, "users add|list|passwd|join|leave: manage accounts and project members (leads), change passwords"},
	"demo":          {runDemo, "write the demo project the GUI opens by default"},
	"import-images": {runImportImages, "import a folder of images into a project"},
	"projects":      {runProjects, "list the projects of a database"},
	"lint":          {runLint, "check native JSONL records against the guideline rules"},
	"alpha":         {runAlpha, "Krippendorff's alpha of a reliability-data CSV"},
	"review":        {runReview, "review queue|submit|criteria: the verification rounds"},
	"status":        {runStatus, "samples per state, or one sample's state"},
	"history":       {runHistory, "a sample's timeline, or a project's settings changes"},
	"settings":      {runSettings, "settings show|set: a project's verification policy and targets (leads set)"},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "bwctl: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bwctl COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-14s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'bwctl COMMAND -h' for a command's flags.")
}

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
	// exitInterrupted is the shell's code for a command stopped by Ctrl-C (128+SIGINT).
	exitInterrupted = 130
)

// interrupted reports, when err says the command's context ended (Ctrl-C), what
// was left undone and returns exitInterrupted; otherwise it returns ok=false and
// prints nothing.
func interrupted(stderr io.Writer, name, state string, err error) (int, bool) {
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return 0, false
	}
	if name != "" {
		name = " " + name
	}
	fmt.Fprintf(stderr, "bwctl%s: interrupted; %s\n", name, state)
	return exitInterrupted, true
}

// newFlags makes a flag set that reports to stderr and does not exit.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("bwctl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses flags that may stand before and after positional arguments. -h is
// reported as flag.ErrHelp; callers treat every error as "stop", see usageCode.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// openDB opens the existing database named by --db; a missing flag or file is a
// usage error (only init and demo create databases, through createDB).
func openDB(ctx context.Context, path string, stderr io.Writer) (*store.DB, int) {
	if path != "" && !store.IsPostgresURL(path) {
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(stderr, "bwctl: database %s: %v (bwctl init or bwctl demo creates one)\n", path, errors.Unwrap(err))
			return nil, exitUsage
		}
	}
	return createDB(ctx, path, stderr)
}

// createDB opens the database named by --db, creating it when missing.
func createDB(ctx context.Context, path string, stderr io.Writer) (*store.DB, int) {
	if path == "" {
		fmt.Fprintln(stderr, "bwctl: --db DB is required")
		return nil, exitUsage
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl: %v\n", err)
		return nil, exitUsage
	}
	return db, exitOK
}

// signIn authenticates --as with the password in BENCHWRIGHT_PASSWORD.
func signIn(ctx context.Context, db bench.Service, name string, stderr io.Writer) (bench.User, int) {
	if name == "" {
		fmt.Fprintln(stderr, "bwctl: --as USER is required (password in BENCHWRIGHT_PASSWORD)")
		return bench.User{}, exitUsage
	}
	pw, ok := os.LookupEnv("BENCHWRIGHT_PASSWORD")
	if !ok {
		fmt.Fprintln(stderr, "bwctl: set BENCHWRIGHT_PASSWORD to the password of "+name)
		return bench.User{}, exitUsage
	}
	u, err := db.Authenticate(ctx, name, pw)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl: %s\n", bench.Message(err))
		return bench.User{}, exitFindings
	}
	return u, exitOK
}

// openAs opens the existing database and signs --as in; on failure the database is
// closed and nil returned with the exit code.
func openAs(ctx context.Context, dbPath, as string, stderr io.Writer) (*store.DB, bench.User, int) {
	db, code := openDB(ctx, dbPath, stderr)
	if db == nil {
		return nil, bench.User{}, code
	}
	actor, code := signIn(ctx, db, as, stderr)
	if code != exitOK {
		db.Close()
		return nil, bench.User{}, code
	}
	return db, actor, exitOK
}

// openProjectAs is openAs followed by projectFor: the preamble of the commands that
// act on one project. On failure it has printed why and returns a nil DB.
func openProjectAs(ctx context.Context, dbPath, as, project string, stderr io.Writer) (*store.DB, bench.User, bench.Project, int) {
	db, actor, code := openAs(ctx, dbPath, as, stderr)
	if db == nil {
		return nil, bench.User{}, bench.Project{}, code
	}
	p, err := projectFor(ctx, db.As(actor), actor, project)
	if err != nil {
		db.Close()
		return nil, bench.User{}, bench.Project{}, fail(stderr, err)
	}
	return db, actor, p, exitOK
}

// fail prints err for people and maps it to an exit code: refusals and conflicts are
// findings (1), everything else unreadable input (2).
func fail(stderr io.Writer, err error) int {
	if code, ok := interrupted(stderr, "", "nothing more was done", err); ok {
		return code
	}
	fmt.Fprintf(stderr, "bwctl: %s\n", bench.Message(err))
	if errors.Is(err, bench.ErrForbidden) || errors.Is(err, bench.ErrConflict) || errors.Is(err, bench.ErrInvalid) ||
		errors.Is(err, bench.ErrNotFound) || errors.Is(err, bench.ErrUnauthorized) || errors.Is(err, bench.ErrTooManyFailures) {
		return exitFindings
	}
	return exitUsage
}

func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("init", stderr)
	dbPath := fs.String("db", "", "database file, or postgres://USER@HOST/DB (created if needed)")
	project := fs.String("project", "", "project name")
	lead := fs.String("lead", "", "lead account name (password from BENCHWRIGHT_PASSWORD)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	if *project == "" || *lead == "" {
		fmt.Fprintln(stderr, "bwctl init: --project and --lead are required")
		return exitUsage
	}
	pw, ok := os.LookupEnv("BENCHWRIGHT_PASSWORD")
	if !ok {
		fmt.Fprintln(stderr, "bwctl init: set BENCHWRIGHT_PASSWORD to the lead's password")
		return exitUsage
	}
	db, code := createDB(ctx, *dbPath, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	has, err := db.HasUsers(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	var u bench.User
	if has {
		// An existing database: the lead must already exist and sign in.
		if u, code = signIn(ctx, db, *lead, stderr); code != exitOK {
			return code
		}
	} else if u, err = db.CreateFirstLead(ctx, *lead, pw); err != nil {
		return fail(stderr, err)
	}
	p, err := db.CreateProject(ctx, u, *project)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "created project %q (id %d) in %s; lead %s\n", p.Name, p.ID, *dbPath, u.Name)
	return exitOK
}

func runUsers(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || !slices.Contains([]string{"add", "list", "passwd", "join", "leave", "role"}, args[0]) {
		fmt.Fprintln(stderr, "usage: bwctl users add --db DB --as LEAD --name NAME --role annotator|verifier|lead [--group G] [--project P]\n"+
			"       bwctl users list --db DB [--project P]\n"+
			"       bwctl users passwd --db DB --as USER [--name NAME]\n"+
			"       bwctl users join --db DB --as LEAD --project P --name NAME\n"+
			"       bwctl users leave --db DB --as LEAD --project P --name NAME\n"+
			"       bwctl users role --db DB --as LEAD [--project P] --name NAME --role annotator|verifier|lead [--group G]\n"+
			"Roles and verifier groups belong to project memberships: role --project sets NAME's role in P (a lead\n"+
			"of P); without --project it sets NAME's role in every project NAME belongs to, and passwd NAME sets\n"+
			"another's password: both need a lead of every one of those projects. add and passwd read the acting\n"+
			"user's password from BENCHWRIGHT_PASSWORD and the new one from BENCHWRIGHT_NEW_PASSWORD. A new\n"+
			"account joins every project the lead who adds it leads, or only --project, with its role; join and\n"+
			"leave add an existing account to a project (with the account's own role) and take a member off it\n"+
			"(a lead of that project; it keeps a lead).")
		return exitUsage
	}
	sub := args[0]
	fs := newFlags("users "+sub, stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD); add, join and leave need a lead")
	name := fs.String("name", "", "add: the new user's name; passwd: whose password (default: --as; another's needs a lead); join, leave: whose membership")
	role := fs.String("role", "", "annotator, verifier or lead")
	group := fs.String("group", "", "verifier group (round 2 needs a different group than round 1)")
	project := fs.String("project", "", "add: join only this project; list: its members; join, leave: the project")
	if _, err := parse(fs, args[1:]); err != nil {
		return usageCode(err)
	}
	if (sub == "join" || sub == "leave") && (*project == "" || *name == "") {
		fmt.Fprintf(stderr, "bwctl users %s: --project and --name are required\n", sub)
		return exitUsage
	}
	if sub == "role" && (*name == "" || *role == "") {
		fmt.Fprintln(stderr, "bwctl users role: --name and --role are required")
		return exitUsage
	}
	if sub == "passwd" && *project != "" {
		fmt.Fprintln(stderr, "bwctl users passwd: --project belongs to users add, list, join and leave")
		return exitUsage
	}
	signInFirst := *as
	if sub == "list" && *at.server == "" {
		signInFirst = "" // the list of a local file needs no account
	}
	db, actor, closeDB, code := readerAt(ctx, at, signInFirst, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	var p bench.Project
	if *project != "" {
		var err error
		if p, err = db.As(actor).ProjectByName(ctx, *project); err != nil {
			return fail(stderr, err)
		}
	}
	if sub == "list" {
		var us []bench.User
		var err error
		if *project != "" {
			us, err = db.As(actor).Members(ctx, p.ID)
		} else {
			us, err = db.As(actor).Users(ctx)
		}
		if err != nil {
			return fail(stderr, err)
		}
		for _, u := range us {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", u.Name, u.Role, u.Group)
		}
		return exitOK
	}
	if actor.ID == 0 {
		fmt.Fprintln(stderr, "bwctl: --as USER is required (password in BENCHWRIGHT_PASSWORD)")
		return exitUsage
	}
	switch sub {
	case "join":
		if err := db.As(actor).AddMember(ctx, p.ID, *name); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "%s joined project %s\n", *name, p.Name)
		return exitOK
	case "leave":
		if err := db.As(actor).RemoveMember(ctx, p.ID, *name); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "%s left project %s\n", *name, p.Name)
		return exitOK
	case "role":
		var u bench.User
		var err error
		where := "every project of theirs"
		if *project != "" {
			u, err = db.As(actor).SetMemberRole(ctx, p.ID, *name, *role, *group)
			where = "project " + p.Name
		} else {
			u, err = db.As(actor).SetRole(ctx, *name, *role, *group)
		}
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "%s is %s%s in %s\n", u.Name, u.Role, groupPhrase(u.Group), where)
		return exitOK
	}
	if sub == "add" && (*name == "" || *role == "") {
		fmt.Fprintln(stderr, "bwctl users add: --name and --role are required")
		return exitUsage
	}
	if sub == "passwd" && (*role != "" || *group != "") {
		fmt.Fprintln(stderr, "bwctl users passwd: --role and --group belong to users add")
		return exitUsage
	}
	pw, ok := os.LookupEnv("BENCHWRIGHT_NEW_PASSWORD")
	if !ok {
		fmt.Fprintf(stderr, "bwctl users %s: set BENCHWRIGHT_NEW_PASSWORD to the %s password\n", sub,
			map[string]string{"add": "new user's", "passwd": "new"}[sub])
		return exitUsage
	}
	if sub == "passwd" {
		target := *name
		if target == "" {
			target = actor.Name
		}
		if err := db.As(actor).SetPassword(ctx, target, pw); err != nil {
			return fail(stderr, err)
		}
		if target == actor.Name {
			fmt.Fprintf(stdout, "changed the password of %s\n", target)
		} else {
			fmt.Fprintf(stdout, "set the password of %s\n", target)
		}
		return exitOK
	}
	var u bench.User
	var err error
	if *project != "" {
		u, err = db.As(actor).AddUserToProject(ctx, p.ID, *name, *role, *group, pw)
	} else {
		u, err = db.As(actor).AddUser(ctx, *name, *role, *group, pw)
	}
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "added %s (%s%s)\n", u.Name, u.Role, groupPhrase(u.Group))
	return exitOK
}

// groupPhrase is ", group G" for a verifier group, "" for none.
func groupPhrase(g string) string {
	if g == "" {
		return ""
	}
	return ", group " + g
}

func runProjects(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("projects", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "user (needed with --server; password from BENCHWRIGHT_PASSWORD)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, me, closeDB, code := readerAt(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	ps, err := db.As(me).Projects(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	for _, p := range ps {
		n, _ := db.As(me).CountImages(ctx, p.ID)
		fmt.Fprintf(stdout, "%s\t%d images\n", p.Name, n)
	}
	return exitOK
}

func runImportImages(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("import-images", stderr)
	at := whereFlags(fs)
	project := fs.String("project", "", "project name")
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) != 1 || *project == "" {
		fmt.Fprintln(stderr, "usage: bwctl import-images --db DB --project NAME --as USER DIR")
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	p, err := db.As(actor).ProjectByName(ctx, *project)
	if err != nil {
		return fail(stderr, err)
	}
	res, err := db.As(actor).ImportImages(ctx, p.ID, pos[0], nil)
	if err != nil && !errors.Is(err, context.Canceled) {
		// Refused before any file was read: no summary that could pass for an empty import.
		if errors.Is(err, bench.ErrInvalid) {
			fmt.Fprintf(stderr, "bwctl: %s\n", bench.Message(err))
			return exitUsage
		}
		return fail(stderr, err)
	}
	for _, r := range res.Rejected {
		fmt.Fprintf(stdout, "rejected %s: %s\n", r.RelPath, r.Reason)
	}
	for _, r := range res.Duplicate {
		fmt.Fprintf(stdout, "duplicate %s: %s\n", r.RelPath, r.Reason)
	}
	fmt.Fprintf(stdout, "imported %d, unchanged %d, duplicates %d, rejected %d, ignored %d (not image files)\n",
		res.Imported, res.Unchanged, len(res.Duplicate), len(res.Rejected), res.Ignored)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl: %s\n", bench.Message(err))
		return exitFindings
	}
	return exitOK
}

func runDemo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("demo", stderr)
	dbPath := fs.String("db", "", "database file to create, or postgres://USER@HOST/DB (must be new or empty)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, code := createDB(ctx, *dbPath, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	imageDir := filepath.Join(db.FilesDir(), "demo-images")
	if err := demo.Seed(ctx, db, assets.Demo(), imageDir); err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "wrote demo project %q to %s (images in %s); accounts lead, ann1, ann2, ver1…ver6, password %q\n",
		demo.DemoProject, *dbPath, imageDir, demo.DemoPassword)
	return exitOK
}

// usageCode is the exit code after a flag-parsing error: 0 when help was asked for.
func usageCode(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}
