package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/store"
)

// The environment variables bwctl reads passwords from.
const (
	envPW    = "BENCHWRIGHT_PASSWORD"
	envNewPW = "BENCHWRIGHT_NEW_PASSWORD"
)

// cliCase is one bwctl invocation and what it must produce. env holds the password
// variables; a variable not in env is unset for the call. The want slices hold
// substrings that must occur in the output, the not slices ones that must not.
type cliCase struct {
	name       string
	env        map[string]string
	args       []string
	code       int
	wantOut    []string
	wantErr    []string
	notOut     []string
	emptyOut   bool // stdout must be empty
	emptyStErr bool // stderr must be empty
	outLines   int  // if > 0, the exact number of stdout lines
}

// bwctl runs the dispatcher in-process.
func bwctl(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// setPasswords sets exactly the password variables in env for the rest of the
// (sub)test and unsets the others; t.Setenv restores the original values afterwards.
func setPasswords(t *testing.T, env map[string]string) {
	t.Helper()
	for _, k := range []string{envPW, envNewPW} {
		v, ok := env[k]
		t.Setenv(k, v)
		if !ok {
			os.Unsetenv(k)
		}
	}
}

// runCases runs the cases in order, each as a subtest; later cases may rely on the
// effects of earlier ones (a shared database).
func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setPasswords(t, c.env)
			code, out, errOut := bwctl(c.args...)
			if code != c.code {
				t.Errorf("bwctl %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(c.args, " "), code, c.code, out, errOut)
			}
			for _, w := range c.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.notOut {
				if strings.Contains(out, w) {
					t.Errorf("stdout holds %q:\n%s", w, out)
				}
			}
			for _, w := range c.wantErr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if c.emptyOut && out != "" {
				t.Errorf("stdout should be empty, is:\n%s", out)
			}
			if n := strings.Count(out, "\n"); c.outLines > 0 && n != c.outLines {
				t.Errorf("stdout has %d lines, want %d:\n%s", n, c.outLines, out)
			}
			if c.emptyStErr && errOut != "" {
				t.Errorf("stderr should be empty, is:\n%s", errOut)
			}
		})
	}
}

// pw is the environment with the acting user's password.
func pw(p string) map[string]string { return map[string]string{envPW: p} }

// initDB creates a database holding project "p1" led by "boss" (password "secret").
func initDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bw.db")
	setPasswords(t, pw("secret"))
	if code, out, errOut := bwctl("init", "--db", path, "--project", "p1", "--lead", "boss"); code != 0 {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	return path
}

// openStore opens path with the store package, closed when the test ends.
func openStore(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestDispatch(t *testing.T) {
	commandNames := []string{"init", "users", "demo", "import-images", "projects", "lint", "alpha"}
	runCases(t, []cliCase{
		{name: "no args", args: nil, code: 2, wantErr: append([]string{"usage: bwctl COMMAND"}, commandNames...), emptyOut: true},
		{name: "help", args: []string{"help"}, code: 0, wantErr: append([]string{"usage: bwctl COMMAND"}, commandNames...), emptyOut: true},
		{name: "-h", args: []string{"-h"}, code: 0, wantErr: []string{"usage: bwctl COMMAND"}},
		{name: "command -h", args: []string{"init", "-h"}, code: 0, wantErr: []string{"-project"}},
		{name: "missing database", args: []string{"projects", "--db", "/nonexistent/typo.db"}, code: 2, wantErr: []string{"bwctl init or bwctl demo creates one"}},
		{name: "--help", args: []string{"--help"}, code: 0, wantErr: []string{"usage: bwctl COMMAND"}},
		{name: "unknown command", args: []string{"frobnicate", "--db", "x.db"}, code: 2,
			wantErr: []string{`unknown command "frobnicate"`, "usage: bwctl COMMAND"}, emptyOut: true},
		{name: "command names are case-sensitive", args: []string{"INIT"}, code: 2, wantErr: []string{`unknown command "INIT"`}},
		{name: "unknown flag", args: []string{"projects", "--nope"}, code: 2, wantErr: []string{"flag provided but not defined: -nope"}},
		{name: "projects without --db", args: []string{"projects"}, code: 2, wantErr: []string{"--db DB is required"}},
	})
}

func TestInit(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sub", "bw.db") // a missing parent folder is created
	runCases(t, []cliCase{
		// Usage errors come before the database is touched.
		{name: "missing --project", env: pw("secret"), args: []string{"init", "--db", db, "--lead", "boss"},
			code: 2, wantErr: []string{"--project and --lead are required"}, emptyOut: true},
		{name: "missing --lead", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p1"},
			code: 2, wantErr: []string{"--project and --lead are required"}, emptyOut: true},
		{name: "missing password", args: []string{"init", "--db", db, "--project", "p1", "--lead", "boss"},
			code: 2, wantErr: []string{"set BENCHWRIGHT_PASSWORD"}, emptyOut: true},
		{name: "missing --db", env: pw("secret"), args: []string{"init", "--project", "p1", "--lead", "boss"},
			code: 2, wantErr: []string{"--db DB is required"}, emptyOut: true},
		{name: "bad flag", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p1", "--lead", "boss", "--bogus"},
			code: 2, wantErr: []string{"flag provided but not defined"}, emptyOut: true},
		{name: "password too short", env: pw("abc"), args: []string{"init", "--db", db, "--project", "p1", "--lead", "boss"},
			code: 1, wantErr: []string{"at least 4 characters"}, emptyOut: true},
		// The real thing.
		{name: "create", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p1", "--lead", "boss"},
			code: 0, wantOut: []string{`created project "p1"`, db, "lead boss"}, emptyStErr: true},
		{name: "second project signs the lead in", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p2", "--lead", "boss"},
			code: 0, wantOut: []string{`created project "p2"`, "lead boss"}, emptyStErr: true},
		{name: "wrong password", env: pw("wrong"), args: []string{"init", "--db", db, "--project", "p3", "--lead", "boss"},
			code: 1, wantErr: []string{"Wrong user name or password"}, emptyOut: true},
		{name: "unknown lead on existing db", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p3", "--lead", "mallory"},
			code: 1, wantErr: []string{"Wrong user name or password"}, emptyOut: true},
		{name: "existing project", env: pw("secret"), args: []string{"init", "--db", db, "--project", "p1", "--lead", "boss"},
			code: 1, wantErr: []string{"exists already"}, emptyOut: true},
		{name: "invalid project name", env: pw("secret"), args: []string{"init", "--db", db, "--project", "", "--lead", "boss"},
			code: 2, wantErr: []string{"--project and --lead are required"}},
		{name: "projects lists both", args: []string{"projects", "--db", db},
			code: 0, wantOut: []string{"p1\t0 images\n", "p2\t0 images\n"}, notOut: []string{"p3"}, emptyStErr: true},
	})

	// What init wrote, seen through the store.
	ctx := context.Background()
	s := openStore(t, db)
	us, err := s.Users(ctx, bench.Owner())
	if err != nil || len(us) != 1 || us[0].Name != "boss" || us[0].Role != bench.RoleLead {
		t.Fatalf("users %+v, %v; want only the lead boss", us, err)
	}
	if _, err := s.Authenticate(ctx, "boss", "secret"); err != nil {
		t.Errorf("lead cannot sign in: %v", err)
	}
	ps, err := s.Projects(ctx, bench.Owner())
	if err != nil || len(ps) != 2 || ps[0].Name != "p1" || ps[1].Name != "p2" {
		t.Errorf("projects %+v, %v; want p1 and p2", ps, err)
	}
}

func TestUsers(t *testing.T) {
	db := initDB(t)
	lead := map[string]string{envPW: "secret", envNewPW: "verapw"}
	runCases(t, []cliCase{
		{name: "no subcommand", args: []string{"users"}, code: 2, wantErr: []string{"usage: bwctl users add"}},
		{name: "unknown subcommand", args: []string{"users", "delete", "--db", db}, code: 2, wantErr: []string{"usage: bwctl users add"}},
		{name: "add verifier", env: lead,
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "vera", "--role", "verifier", "--group", "A"},
			code: 0, wantOut: []string{"added vera (verifier, group A)"}, emptyStErr: true},
		{name: "add annotator, flags in another order", env: map[string]string{envPW: "secret", envNewPW: "annpw"},
			args: []string{"users", "add", "--role", "annotator", "--name", "ann", "--as", "boss", "--db", db},
			code: 0, wantOut: []string{"added ann (annotator)\n"}, emptyStErr: true},
		{name: "annotator may not add users", env: map[string]string{envPW: "annpw", envNewPW: "xxxx"},
			args: []string{"users", "add", "--db", db, "--as", "ann", "--name", "eve", "--role", "lead"},
			code: 1, wantErr: []string{"not allowed", "ann is an annotator", "only leads may manage accounts and groups"}, emptyOut: true},
		{name: "verifier may not add users", env: map[string]string{envPW: "verapw", envNewPW: "xxxx"},
			args: []string{"users", "add", "--db", db, "--as", "vera", "--name", "eve", "--role", "annotator"},
			code: 1, wantErr: []string{"not allowed"}, emptyOut: true},
		{name: "bad role", env: lead,
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve", "--role", "admin"},
			code: 1, wantErr: []string{`role "admin" is not one of annotator, verifier, lead`}, emptyOut: true},
		{name: "bad name", env: lead,
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve smith", "--role", "annotator"},
			code: 1, wantErr: []string{"may hold only letters"}, emptyOut: true},
		{name: "duplicate name", env: lead,
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "vera", "--role", "annotator"},
			code: 1, wantErr: []string{`"vera" exists already`}, emptyOut: true},
		{name: "new password too short", env: map[string]string{envPW: "secret", envNewPW: "abc"},
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve", "--role", "annotator"},
			code: 1, wantErr: []string{"at least 4 characters"}, emptyOut: true},
		{name: "missing new password", env: pw("secret"),
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve", "--role", "annotator"},
			code: 2, wantErr: []string{"set BENCHWRIGHT_NEW_PASSWORD"}, emptyOut: true},
		{name: "missing acting password", env: map[string]string{envNewPW: "evepw"},
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve", "--role", "annotator"},
			code: 2, wantErr: []string{"set BENCHWRIGHT_PASSWORD"}, emptyOut: true},
		{name: "missing --as", env: lead,
			args: []string{"users", "add", "--db", db, "--name", "eve", "--role", "annotator"},
			code: 2, wantErr: []string{"--as USER is required"}, emptyOut: true},
		{name: "missing --role", env: lead,
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve"},
			code: 2, wantErr: []string{"--name and --role are required"}, emptyOut: true},
		{name: "wrong acting password", env: map[string]string{envPW: "nope", envNewPW: "evepw"},
			args: []string{"users", "add", "--db", db, "--as", "boss", "--name", "eve", "--role", "annotator"},
			code: 1, wantErr: []string{"Wrong user name or password"}, emptyOut: true},
		{name: "list", args: []string{"users", "list", "--db", db},
			code: 0, wantOut: []string{"ann\tannotator\t\n", "boss\tlead\t\n", "vera\tverifier\tA\n"}, notOut: []string{"eve"}, emptyStErr: true},
		{name: "list without --db", args: []string{"users", "list"}, code: 2, wantErr: []string{"--db DB is required"}},
	})

	// The new accounts sign in with the passwords from BENCHWRIGHT_NEW_PASSWORD, and
	// the refused ones were not created.
	ctx := context.Background()
	s := openStore(t, db)
	for name, want := range map[string]bench.User{
		"vera": {Name: "vera", Role: bench.RoleVerifier, Group: "A"},
		"ann":  {Name: "ann", Role: bench.RoleAnnotator},
	} {
		p := map[string]string{"vera": "verapw", "ann": "annpw"}[name]
		u, err := s.Authenticate(ctx, name, p)
		if err != nil {
			t.Errorf("%s cannot sign in: %v", name, err)
			continue
		}
		if u.Name != want.Name || u.Role != want.Role || u.Group != want.Group {
			t.Errorf("%s is %+v, want %+v", name, u, want)
		}
	}
	if us, _ := s.Users(ctx, bench.Owner()); len(us) != 3 {
		t.Errorf("users %+v, want boss, ann and vera only", us)
	}
}

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "demo.db")
	runCases(t, []cliCase{
		{name: "missing --db", args: []string{"demo"}, code: 2, wantErr: []string{"--db DB is required"}},
		{name: "write", args: []string{"demo", "--db", db}, code: 0,
			wantOut: []string{`wrote demo project "demo"`, db, filepath.Join(dir, "demo-images"),
				"accounts lead, ann1, ann2, ver1", "ver6", `password "demo"`}, emptyStErr: true},
		{name: "projects lists demo", args: []string{"projects", "--db", db}, code: 0,
			wantOut: []string{"demo\t"}, notOut: []string{"demo\t0 images"}, emptyStErr: true},
		{name: "users list names the accounts", args: []string{"users", "list", "--db", db}, code: 0,
			wantOut: []string{"lead\tlead\t\n", "ann1\tannotator\t\n", "ann2\tannotator\t\n",
				"ver1\tverifier\tA\n", "ver2\tverifier\tA\n", "ver3\tverifier\tB\n", "ver4\tverifier\tB\n",
				"ver5\tverifier\tC\n", "ver6\tverifier\tC\n"}},
		{name: "again on the same db", args: []string{"demo", "--db", db}, code: 1,
			wantErr: []string{"accounts already"}, emptyOut: true},
	})

	ctx := context.Background()
	s := openStore(t, db)
	if _, err := s.Authenticate(ctx, "ann1", demo.DemoPassword); err != nil {
		t.Errorf("demo account ann1: %v", err)
	}
	p, err := s.ProjectByName(ctx, bench.Owner(), demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.CountImages(ctx, bench.Owner(), p.ID); err != nil || n == 0 {
		t.Errorf("demo project has %d images (%v)", n, err)
	}
	if us, _ := s.Users(ctx, bench.Owner()); len(us) != len(demo.DemoAccounts) {
		t.Errorf("after the refused second demo, %d users, want %d", len(us), len(demo.DemoAccounts))
	}
}

func TestDemoOnInitializedDB(t *testing.T) {
	db := initDB(t)
	runCases(t, []cliCase{
		{name: "demo refuses a db with accounts", args: []string{"demo", "--db", db}, code: 1,
			wantErr: []string{"accounts already"}, emptyOut: true},
		{name: "nothing added", args: []string{"projects", "--db", db}, code: 0,
			wantOut: []string{"p1\t0 images\n"}, notOut: []string{"demo"}},
	})
}

// Image files for the import tests (after store/images_test.go).

func cliJPEG(t testing.TB, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func cliPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// cliHugePNGHeader is a PNG signature and an IHDR chunk (with a correct CRC) declaring
// w×h pixels, and no image data.
func cliHugePNGHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func cliWriteFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportImages(t *testing.T) {
	db := initDB(t)
	setPasswords(t, map[string]string{envPW: "secret", envNewPW: "userpw"})
	for _, u := range [][]string{{"ann", "annotator"}, {"vera", "verifier"}} {
		if code, out, errOut := bwctl("users", "add", "--db", db, "--as", "boss", "--name", u[0], "--role", u[1]); code != 0 {
			t.Fatalf("users add %s: exit %d\n%s%s", u[0], code, out, errOut)
		}
	}

	// A folder of four good images in two scenes, four bad ones and a text file.
	images := t.TempDir()
	good := cliJPEG(t, 64, 48, color.RGBA{200, 0, 0, 255})
	cliWriteFile(t, filepath.Join(images, "0001-office-1", "a.jpg"), good)
	cliWriteFile(t, filepath.Join(images, "0001-office-1", "b.PNG"), cliPNG(t, 30, 20))
	cliWriteFile(t, filepath.Join(images, "0002-kitchen-1", "c.jpeg"), cliJPEG(t, 40, 40, color.RGBA{0, 200, 0, 255}))
	cliWriteFile(t, filepath.Join(images, "0002-kitchen-1", "d.png"), cliPNG(t, 12, 34))
	cliWriteFile(t, filepath.Join(images, "bad", "empty.jpg"), nil)
	cliWriteFile(t, filepath.Join(images, "bad", "truncated.jpg"), good[:len(good)/2])
	cliWriteFile(t, filepath.Join(images, "bad", "text.jpg"), []byte("this is not an image\n"))
	cliWriteFile(t, filepath.Join(images, "bad", "huge.png"), cliHugePNGHeader(60000, 60000))
	cliWriteFile(t, filepath.Join(images, "notes.txt"), []byte("not an image file"))

	// A second folder, imported by the annotator: one new image and a copy of a.jpg.
	more := t.TempDir()
	cliWriteFile(t, filepath.Join(more, "0003-garage-1", "e.jpg"), cliJPEG(t, 20, 20, color.RGBA{0, 0, 200, 255}))
	cliWriteFile(t, filepath.Join(more, "0003-garage-1", "copy-of-a.jpg"), good)

	rejected := []string{
		"rejected bad/empty.jpg: empty file",
		"rejected bad/huge.png: png header declares 60000×60000 pixels",
		"rejected bad/text.jpg: not a readable image",
		"rejected bad/truncated.jpg: truncated",
	}
	withRejected := func(summary string) []string { return append(append([]string{}, rejected...), summary) }
	lead := pw("secret")
	imp := func(as string, extra ...string) []string {
		return append([]string{"import-images", "--db", db, "--project", "p1", "--as", as}, extra...)
	}
	runCases(t, []cliCase{
		{name: "first import", env: lead, args: imp("boss", images), code: 0,
			// One line per bad file, then the summary.
			wantOut: withRejected("imported 4, unchanged 0, duplicates 0, rejected 4, ignored 1 (not image files)\n"),
			notOut:  []string{"0001-office-1", "0002-kitchen-1", "duplicate 0"}, outLines: 5, emptyStErr: true},
		{name: "second import is unchanged", env: lead, args: imp("boss", images), code: 0,
			wantOut:  withRejected("imported 0, unchanged 4, duplicates 0, rejected 4, ignored 1 (not image files)\n"),
			outLines: 5, emptyStErr: true},
		{name: "projects counts the images", args: []string{"projects", "--db", db}, code: 0, wantOut: []string{"p1\t4 images\n"}},
		{name: "annotator imports, DIR before the flags", env: pw("userpw"),
			args: []string{"import-images", more, "--db", db, "--project", "p1", "--as", "ann"}, code: 0,
			wantOut: []string{"duplicate 0003-garage-1/copy-of-a.jpg: ",
				"imported 1, unchanged 0, duplicates 1, rejected 0, ignored 0 (not image files)\n"},
			outLines: 2, emptyStErr: true},
		{name: "projects counts the new image", args: []string{"projects", "--db", db}, code: 0, wantOut: []string{"p1\t5 images\n"}},
		{name: "missing DIR", env: lead, args: imp("boss", filepath.Join(images, "nope")), code: 2,
			wantErr: []string{"not a readable folder"}},
		{name: "DIR is a file", env: lead, args: imp("boss", filepath.Join(images, "notes.txt")), code: 2,
			wantErr: []string{"not a readable folder"}},
		{name: "no DIR", env: lead, args: imp("boss"), code: 2,
			wantErr: []string{"usage: bwctl import-images"}, emptyOut: true},
		{name: "two DIRs", env: lead, args: imp("boss", images, more), code: 2,
			wantErr: []string{"usage: bwctl import-images"}, emptyOut: true},
		{name: "no --project", env: lead, args: []string{"import-images", "--db", db, "--as", "boss", images}, code: 2,
			wantErr: []string{"usage: bwctl import-images"}, emptyOut: true},
		{name: "no --as", env: lead, args: []string{"import-images", "--db", db, "--project", "p1", images}, code: 2,
			wantErr: []string{"--as USER is required"}, emptyOut: true},
		{name: "no password", args: imp("boss", images), code: 2,
			wantErr: []string{"set BENCHWRIGHT_PASSWORD"}, emptyOut: true},
		{name: "wrong password", env: pw("nope"), args: imp("boss", images), code: 1,
			wantErr: []string{"Wrong user name or password"}, emptyOut: true},
		{name: "verifier may not import", env: pw("userpw"), args: imp("vera", images), code: 1,
			wantErr: []string{"not allowed", "vera is a verifier"}, notOut: []string{"rejected bad/"}},
		{name: "unknown project", env: lead,
			args: []string{"import-images", "--db", db, "--project", "nope", "--as", "boss", images}, code: 1,
			wantErr: []string{`"nope": not found`}, emptyOut: true},
		{name: "nothing changed by the refusals", args: []string{"projects", "--db", db}, code: 0, wantOut: []string{"p1\t5 images\n"}},
	})

	// The store sees the scenes and sizes.
	ctx := context.Background()
	s := openStore(t, db)
	p, err := s.ProjectByName(ctx, bench.Owner(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string][3]any{
		"0001-office-1/a.jpg":  {"0001-office-1", 64, 48},
		"0001-office-1/b.PNG":  {"0001-office-1", 30, 20},
		"0002-kitchen-1/d.png": {"0002-kitchen-1", 12, 34},
		"0003-garage-1/e.jpg":  {"0003-garage-1", 20, 20},
	} {
		im, err := s.ImageByPath(ctx, bench.Owner(), p.ID, rel)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if got := [3]any{im.Scene, im.Width, im.Height}; got != want {
			t.Errorf("%s stored as %v, want %v", rel, got, want)
		}
	}
	for _, rel := range []string{"bad/empty.jpg", "bad/huge.png", "0003-garage-1/copy-of-a.jpg"} {
		if _, err := s.ImageByPath(ctx, bench.Owner(), p.ID, rel); err == nil {
			t.Errorf("%s was stored", rel)
		}
	}
}

// setUserVersion sets SQLite's user_version of the file at path, bypassing the store.
func setUserVersion(t *testing.T, path string, v int) {
	t.Helper()
	sdb, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	if _, err := sdb.Exec(`PRAGMA user_version = ` + strconv.Itoa(v)); err != nil {
		t.Fatal(err)
	}
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	sdb, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var v int
	if err := sdb.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNewerSchema(t *testing.T) {
	// A database this build wrote, then "upgraded" by a future one.
	db := initDB(t)
	setUserVersion(t, db, 99)
	// A database file a future build created from scratch.
	fresh := filepath.Join(t.TempDir(), "future.db")
	setUserVersion(t, fresh, 99)

	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "s", "a.png"), cliPNG(t, 8, 8))
	newer := []string{"newer Benchwright", "schema version 99"}
	all := map[string]string{envPW: "secret", envNewPW: "userpw"}
	var cases []cliCase
	for _, path := range []string{db, fresh} {
		kind := map[string]string{db: "upgraded", fresh: "fresh"}[path]
		for _, args := range [][]string{
			{"projects", "--db", path},
			{"users", "list", "--db", path},
			{"users", "add", "--db", path, "--as", "boss", "--name", "eve", "--role", "annotator"},
			{"init", "--db", path, "--project", "p2", "--lead", "boss"},
			{"import-images", "--db", path, "--project", "p1", "--as", "boss", images},
			{"demo", "--db", path},
		} {
			cases = append(cases, cliCase{name: kind + " " + strings.Join(args[:2], " "), env: all, args: args,
				code: 2, wantErr: newer, emptyOut: true})
		}
	}
	runCases(t, cases)

	// The refusals left the files alone.
	for _, path := range []string{db, fresh} {
		if v := userVersion(t, path); v != 99 {
			t.Errorf("%s: user_version %d after the refusals, want 99", path, v)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(fresh), "demo-images")); err == nil {
		t.Errorf("demo wrote its images next to a database it refused")
	}
}

// TestImportRefusalPrintsNoSummary: an import refused before any file was read should
// not print a summary of zeros that a script could take for a finished empty import.
func TestImportRefusalPrintsNoSummary(t *testing.T) {
	db := initDB(t)
	runCases(t, []cliCase{
		{name: "missing DIR", env: pw("secret"),
			args: []string{"import-images", "--db", db, "--project", "p1", "--as", "boss", filepath.Join(t.TempDir(), "nope")},
			code: 2, wantErr: []string{"not a readable folder"}, emptyOut: true},
	})
}

// TestDBPathSpecialCharacters: --db is a file name, not a SQLite URI.
func TestDBPathSpecialCharacters(t *testing.T) {
	dir := t.TempDir()
	setPasswords(t, pw("secret"))
	for _, name := range []string{"a#b.db", "c%41d.db", "e?f.db"} {
		path := filepath.Join(dir, name)
		if code, out, errOut := bwctl("init", "--db", path, "--project", "p1", "--lead", "boss"); code != 0 {
			t.Fatalf("init --db %s: exit %d\n%s%s", name, code, out, errOut)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("--db %s: %v", name, err)
		}
	}
}
