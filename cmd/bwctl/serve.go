package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
)

func init() {
	commands["serve"] = command{runServe, "run a team server: the database behind an authenticated HTTPS API the lab's workstations share"}
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", stderr)
	dbPath := fs.String("db", "", "database file or postgres://USER@HOST/DB (bwctl init or bwctl demo makes one)")
	addr := fs.String("addr", ":"+remote.DefaultPort, "HOST:PORT to listen on")
	certFile := fs.String("cert", "", "TLS certificate (PEM); default DB.cert.pem, made self-signed on first start")
	keyFile := fs.String("key", "", "TLS key (PEM); default DB.key.pem")
	filesDir := fs.String("files", "", "folder for the server's files (uploads, previews, certificate); default beside a database file, required with postgres://; servers sharing one database share it")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, code := openDB(ctx, *dbPath, stderr)
	if db == nil {
		return code
	}
	defer db.Close()
	if has, err := db.HasUsers(ctx); err != nil || !has {
		fmt.Fprintf(stderr, "bwctl serve: %s has no accounts yet; create the project and its lead first (bwctl init)\n", store.RedactURL(*dbPath))
		return exitUsage
	}
	certBase := *dbPath
	switch {
	case *filesDir != "":
		if err := os.MkdirAll(*filesDir, 0o755); err != nil {
			fmt.Fprintf(stderr, "bwctl serve: --files: %v\n", err)
			return exitUsage
		}
		db.SetFilesDir(*filesDir)
		if db.Postgres() {
			certBase = filepath.Join(*filesDir, "server")
		}
	case db.Postgres():
		fmt.Fprintln(stderr, "bwctl serve: a PostgreSQL database needs --files DIR: the folder for uploads, previews and the certificate (shared by every server of the database)")
		return exitUsage
	}
	if *certFile == "" {
		*certFile = certBase + ".cert.pem"
	}
	if *keyFile == "" {
		*keyFile = certBase + ".key.pem"
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl serve: --addr %q: %v\n", *addr, err)
		return exitUsage
	}
	cert, err := remote.LoadOrCreateCertificate(*certFile, *keyFile, []string{host})
	if err != nil {
		fmt.Fprintf(stderr, "bwctl serve: %v\n", err)
		return exitUsage
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl serve: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "Benchwright team server for %s on https://%s\n", store.RedactURL(*dbPath), ln.Addr())
	fmt.Fprintf(stdout, "certificate %s\n", remote.Fingerprint(cert.Certificate[0]))
	fmt.Fprintln(stdout, "Workstations connect to this address and check that fingerprint; Ctrl-C stops the server.")
	if f, ok := stdout.(*os.File); ok {
		f.Sync()
	}
	err = remote.NewServer(db, log.New(stderr, "", log.LstdFlags)).Serve(ctx, ln, cert)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "bwctl serve: %v\n", err)
		return exitUsage
	}
	fmt.Fprintln(stdout, "stopped")
	return exitOK
}

// where is where a command finds the project: a database file (--db) or a team
// server (--server, its certificate pinned with --fingerprint).
type where struct {
	db, server, fingerprint *string
}

func whereFlags(fs interface {
	String(name, value, usage string) *string
}) where {
	return where{
		db:          fs.String("db", "", "database file or postgres://USER@HOST/DB"),
		server:      fs.String("server", "", "team server address (HOST[:PORT]) instead of --db"),
		fingerprint: fs.String("fingerprint", "", "the team server's certificate fingerprint, SHA256:… as bwctl serve printed it"),
	}
}

// connectAs signs in as --as on the database file or the team server; close ends
// the session or closes the file.
func connectAs(ctx context.Context, w where, as string, stderr io.Writer) (svc bench.Service, me bench.User, close func(), code int) {
	if *w.server == "" {
		if *w.fingerprint != "" {
			fmt.Fprintln(stderr, "bwctl: --fingerprint goes with --server")
			return nil, bench.User{}, nil, exitUsage
		}
		db, actor, code := openAs(ctx, *w.db, as, stderr)
		if db == nil {
			return nil, bench.User{}, nil, code
		}
		return db, actor, func() { db.Close() }, exitOK
	}
	if *w.db != "" {
		fmt.Fprintln(stderr, "bwctl: give --db or --server, not both")
		return nil, bench.User{}, nil, exitUsage
	}
	if as == "" {
		fmt.Fprintln(stderr, "bwctl: --as USER is required with --server (password in BENCHWRIGHT_PASSWORD)")
		return nil, bench.User{}, nil, exitUsage
	}
	pw, ok := os.LookupEnv("BENCHWRIGHT_PASSWORD")
	if !ok {
		fmt.Fprintln(stderr, "bwctl: set BENCHWRIGHT_PASSWORD to the password of "+as)
		return nil, bench.User{}, nil, exitUsage
	}
	c, err := remote.Dial(ctx, *w.server, remote.Options{Fingerprint: *w.fingerprint})
	if err != nil {
		fmt.Fprintf(stderr, "bwctl: %s\n", bench.Message(err))
		return nil, bench.User{}, nil, exitUsage
	}
	u, err := c.Authenticate(ctx, as, pw)
	if err != nil {
		c.Close()
		fmt.Fprintf(stderr, "bwctl: %s\n", bench.Message(err))
		return nil, bench.User{}, nil, exitFindings
	}
	return c, u, func() { c.Close() }, exitOK
}

// connectProjectAs is connectAs followed by projectFor.
func connectProjectAs(ctx context.Context, w where, as, project string, stderr io.Writer) (bench.Service, bench.User, bench.Project, func(), int) {
	svc, me, close, code := connectAs(ctx, w, as, stderr)
	if svc == nil {
		return nil, bench.User{}, bench.Project{}, nil, code
	}
	p, err := projectFor(ctx, svc.As(me), me, project)
	if err != nil {
		close()
		return nil, bench.User{}, bench.Project{}, nil, fail(stderr, err)
	}
	return svc, me, p, close, exitOK
}

// readerAt opens the project for a command that reads a local file without an
// account: the file itself, read as bench.Owner, when neither --server nor --as
// is given, else a signed-in session (on the file or the server) as --as.
func readerAt(ctx context.Context, w where, as string, stderr io.Writer) (bench.Service, bench.User, func(), int) {
	if *w.server == "" && as == "" {
		if *w.fingerprint != "" {
			fmt.Fprintln(stderr, "bwctl: --fingerprint goes with --server")
			return nil, bench.User{}, nil, exitUsage
		}
		file, code := openDB(ctx, *w.db, stderr)
		if file == nil {
			return nil, bench.User{}, nil, code
		}
		return file, bench.Owner(), func() { file.Close() }, exitOK
	}
	return connectAs(ctx, w, as, stderr)
}
