package packaging

import (
	"bytes"
	"context"
	"debug/pe"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// distDir is the folder scripts/dev package wrote, or the test is skipped.
func distDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("BENCHWRIGHT_PACKAGE_DIR")
	if dir == "" {
		t.Skip("BENCHWRIGHT_PACKAGE_DIR is not set: scripts/dev test builds the packages (scripts/dev package) and runs this test on them")
	}
	return dir
}

// version is the app's version, as FyneApp.toml has it and the packages' names carry it.
func version(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^Version\s*=\s*"([^"]+)"`).FindSubmatch(b)
	if m == nil {
		t.Fatal("FyneApp.toml names no Version")
	}
	return string(m[1])
}

// run runs a command and returns its output, failing the test when it fails.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestInstalledLinuxArchive: the Linux archive unpacks into the layout fyne makes,
// `make install` puts the program, its desktop entry and icon under a prefix, and
// the installed program opens its window under Xvfb (on the demo project of a new
// home folder).
func TestInstalledLinuxArchive(t *testing.T) {
	dist := distDir(t)
	archive := filepath.Join(dist, "benchwright-"+version(t)+"-linux-amd64.tar.xz")
	unpacked, prefix, home := t.TempDir(), t.TempDir(), t.TempDir()
	run(t, unpacked, "tar", "-xJf", archive)
	run(t, filepath.Join(unpacked, "benchwright"), "make", "install", "PREFIX="+prefix)
	for _, f := range []struct {
		path string
		exec bool
	}{{"bin/benchwright", true}, {"share/applications/io.benchwright.app.desktop", false}, {"share/pixmaps/io.benchwright.app.png", false}} {
		fi, err := os.Stat(filepath.Join(prefix, f.path))
		if err != nil {
			t.Fatalf("make install left no %s: %v", f.path, err)
		}
		if f.exec != (fi.Mode()&0o111 != 0) {
			t.Errorf("%s has mode %v", f.path, fi.Mode())
		}
	}
	desktop, err := os.ReadFile(filepath.Join(prefix, "share/applications/io.benchwright.app.desktop"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[Desktop Entry]", "Type=Application", "Name=Benchwright", "Exec=benchwright", "Icon=io.benchwright.app"} {
		if !strings.Contains(string(desktop), want+"\n") {
			t.Errorf("the desktop entry lacks %q:\n%s", want, desktop)
		}
	}
	if v, err := exec.LookPath("desktop-file-validate"); err == nil {
		run(t, "", v, filepath.Join(prefix, "share/applications/io.benchwright.app.desktop"))
	}

	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install xvfb xdotool; scripts/dev test installs them): the installed app was not started", tool)
		}
	}
	display := startXvfb(t)
	ctx, cancel := context.WithCancel(context.Background())
	app := exec.CommandContext(ctx, filepath.Join(prefix, "bin/benchwright"))
	app.Env = append(os.Environ(), "DISPLAY="+display, "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "LIBGL_ALWAYS_SOFTWARE=1")
	var out bytes.Buffer
	app.Stdout, app.Stderr = &out, &out
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- app.Wait() }()
	t.Cleanup(func() {
		cancel()
		<-exited
	})
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the installed app stopped before showing a window (%v):\n%s", err, out.String())
		default:
		}
		find := exec.Command("xdotool", "search", "--onlyvisible", "--name", "^Benchwright")
		find.Env = append(os.Environ(), "DISPLAY="+display)
		if ids, err := find.Output(); err == nil && len(bytes.TrimSpace(ids)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the installed app showed no Benchwright window within 60 s:\n%s", out.String())
		}
	}
	if _, err := os.Stat(filepath.Join(home, "data/benchwright/demo.db")); err != nil {
		t.Errorf("the installed app did not open the demo project: %v", err)
	}
}

// startXvfb starts a virtual display for the test and returns its name.
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// -displayfd: Xvfb picks a free display and writes its number when it is ready.
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		x.Process.Kill()
		x.Wait()
	})
	num := make(chan string, 1)
	go func() {
		var b [16]byte
		n, _ := r.Read(b[:])
		num <- strings.TrimSpace(string(b[:n]))
	}()
	select {
	case n := <-num:
		if n == "" {
			t.Fatal("Xvfb did not start")
		}
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not start within 30 s")
	}
	return ""
}

// TestInstalledDebianPackage: the .deb holds bwctl, its unit and its defaults, runs
// its server as its own user with the project under /var/lib/benchwright and
// restarts it on failure; systemd accepts the unit, and the packaged bwctl runs.
func TestInstalledDebianPackage(t *testing.T) {
	dist := distDir(t)
	v := version(t)
	deb := filepath.Join(dist, "bwctl_"+v+"_amd64.deb")
	info := run(t, "", "dpkg-deb", "--field", deb, "Package", "Version", "Architecture", "Depends")
	for _, want := range []string{"Package: bwctl\n", "Version: " + v + "\n", "Architecture: amd64\n", "adduser"} {
		if !strings.Contains(info, want) {
			t.Errorf("control lacks %q:\n%s", want, info)
		}
	}
	contents := run(t, "", "dpkg-deb", "--contents", deb)
	for _, want := range []string{" root/root ", "./usr/bin/bwctl\n", "./usr/lib/systemd/system/bwctl.service\n", "./etc/default/bwctl\n"} {
		if !strings.Contains(contents, want) {
			t.Errorf("the package lacks %q:\n%s", want, contents)
		}
	}
	root, control := t.TempDir(), t.TempDir()
	run(t, "", "dpkg-deb", "--extract", deb, root)
	run(t, "", "dpkg-deb", "--control", deb, control)
	if b, err := os.ReadFile(filepath.Join(control, "conffiles")); err != nil || string(b) != "/etc/default/bwctl\n" {
		t.Errorf("conffiles: %q, %v", b, err)
	}
	postinst, err := os.ReadFile(filepath.Join(control, "postinst"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(postinst), "adduser --system --group --home /var/lib/benchwright") {
		t.Errorf("postinst makes no benchwright system user:\n%s", postinst)
	}
	for _, s := range []string{"postinst", "prerm", "postrm"} {
		run(t, "", "sh", "-n", filepath.Join(control, s))
	}

	unitPath := filepath.Join(root, "usr/lib/systemd/system/bwctl.service")
	unit, err := os.ReadFile(unitPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"User=benchwright", "Group=benchwright", "Restart=on-failure", "StateDirectory=benchwright",
		"Environment=BENCHWRIGHT_DB=/var/lib/benchwright/lab.db", "ExecStart=/usr/bin/bwctl serve --db ${BENCHWRIGHT_DB} ",
		"KillSignal=SIGINT", "WantedBy=multi-user.target"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(want)).Match(unit) {
			t.Errorf("the unit lacks %q:\n%s", want, unit)
		}
	}
	if sa, err := exec.LookPath("systemd-analyze"); err == nil {
		// verify checks that ExecStart's program exists: the unit is verified as it
		// is but with the unpacked package's bwctl in place of /usr/bin/bwctl.
		verifyDir := t.TempDir()
		here := strings.ReplaceAll(string(unit), "=/usr/bin/bwctl ", "="+filepath.Join(root, "usr/bin/bwctl")+" ")
		if err := os.WriteFile(filepath.Join(verifyDir, "bwctl.service"), []byte(here), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(sa, "verify", "--man=no", filepath.Join(verifyDir, "bwctl.service")).CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("systemd-analyze verify: %v\n%s", err, out)
		}
	} else {
		t.Log("systemd-analyze is not installed: the unit was checked by its lines only")
	}

	// The packaged program runs its server the way the unit starts it.
	bwctl := filepath.Join(root, "usr/bin/bwctl")
	lib := t.TempDir()
	db := filepath.Join(lib, "lab.db")
	initCmd := exec.Command(bwctl, "init", "--db", db, "--project", "lab", "--lead", "alice")
	initCmd.Env = append(os.Environ(), "BENCHWRIGHT_PASSWORD=alice-long-password")
	if out, err := initCmd.CombinedOutput(); err != nil {
		t.Fatalf("bwctl init: %v\n%s", err, out)
	}
	execStart := regexp.MustCompile(`(?m)^ExecStart=(.*)$`).FindSubmatch(unit)
	args := strings.Fields(strings.NewReplacer("${BENCHWRIGHT_DB}", db, "${BENCHWRIGHT_ADDR}", "127.0.0.1:0",
		"$BWCTL_SERVE_OPTS", "").Replace(string(execStart[1])))
	if args[0] != "/usr/bin/bwctl" {
		t.Fatalf("ExecStart runs %s", args[0])
	}
	serve := exec.Command(bwctl, args[1:]...)
	var out syncBuffer
	serve.Stdout, serve.Stderr = &out, &out
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "certificate SHA256:"); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("bwctl serve as the unit starts it stopped (%v):\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			serve.Process.Kill()
			t.Fatalf("bwctl serve as the unit starts it printed no certificate within 30 s:\n%s", out.String())
		}
	}
	// The unit stops it with SIGINT (KillSignal): it ends cleanly, exit 0.
	serve.Process.Signal(os.Interrupt)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("bwctl serve on SIGINT: %v\n%s", err, out.String())
		}
	case <-time.After(30 * time.Second):
		serve.Process.Kill()
		t.Errorf("bwctl serve did not stop within 30 s of SIGINT")
	}
}

// TestWindowsPrograms: the Windows builds are 64-bit Windows programs, the app a
// windowed one (no console beside it) and bwctl a console one.
func TestWindowsPrograms(t *testing.T) {
	dist := distDir(t)
	v := version(t)
	for _, c := range []struct {
		file      string
		subsystem uint16
	}{{"benchwright-" + v + "-windows-amd64.exe", pe.IMAGE_SUBSYSTEM_WINDOWS_GUI}, {"bwctl-" + v + "-windows-amd64.exe", pe.IMAGE_SUBSYSTEM_WINDOWS_CUI}} {
		f, err := pe.Open(filepath.Join(dist, c.file))
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
		switch {
		case f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !ok:
			t.Errorf("%s is not a 64-bit x86 program (machine %#x)", c.file, f.Machine)
		case oh.Subsystem != c.subsystem:
			t.Errorf("%s: subsystem %d, want %d", c.file, oh.Subsystem, c.subsystem)
		}
		// Only Windows' own DLLs: mingw-w64's (libssp-0.dll, libwinpthread-1.dll, …)
		// are on no workstation.
		syms, err := f.ImportedSymbols() // "symbol:DLL" (ImportedLibraries lists none)
		if err != nil || len(syms) == 0 {
			t.Errorf("%s imports no symbols: %v", c.file, err)
		}
		libs := map[string]bool{}
		for _, s := range syms {
			if _, dll, ok := strings.Cut(s, ":"); ok {
				libs[dll] = true
			}
		}
		for l := range libs {
			if !slices.Contains([]string{"advapi32.dll", "gdi32.dll", "kernel32.dll", "msvcrt.dll", "opengl32.dll",
				"shell32.dll", "user32.dll", "ws2_32.dll", "winmm.dll", "ole32.dll", "imm32.dll", "ntdll.dll"}, strings.ToLower(l)) {
				t.Errorf("%s needs %s, which Windows does not have", c.file, l)
			}
		}
		f.Close()
	}
}

// syncBuffer is a buffer a process writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}
