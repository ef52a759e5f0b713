package remote_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/remote"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/store/storetest"
)

// The durability test runs the team server in a child process — this test binary
// again, with serverDBEnv set — so that it can kill it the way a power cut or
// kill -9 would, with no chance to shut down.
const (
	serverDBEnv   = "BENCHWRIGHT_TEST_SERVER_DB"   // the project file the child serves
	serverAddrEnv = "BENCHWRIGHT_TEST_SERVER_ADDR" // where the child writes "ADDRESS FINGERPRINT"
)

func TestMain(m *testing.M) {
	if db := os.Getenv(serverDBEnv); db != "" {
		os.Exit(childServer(db, os.Getenv(serverAddrEnv)))
	}
	os.Exit(m.Run())
}

// childServer is what bwctl serve does: open the file, make a self-signed
// certificate, listen on a loopback port and serve until the process ends. The
// address and fingerprint are written to addrFile once the port is open.
func childServer(dbPath, addrFile string) int {
	ctx := context.Background()
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// The server's own files go beside the address file: dbPath may be a
	// PostgreSQL URL (storetest.NewDatabase).
	files := filepath.Dir(addrFile)
	db.SetFilesDir(files)
	cert, err := remote.LoadOrCreateCertificate(filepath.Join(files, "server.cert.pem"), filepath.Join(files, "server.key.pem"), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	line := ln.Addr().String() + " " + remote.Fingerprint(cert.Certificate[0]) + "\n"
	if err := os.WriteFile(addrFile+".tmp", []byte(line), 0o644); err != nil || os.Rename(addrFile+".tmp", addrFile) != nil {
		fmt.Fprintln(os.Stderr, "write the address file:", err)
		return 2
	}
	err = remote.NewServer(db, log.New(os.Stderr, "", 0)).Serve(ctx, ln, cert)
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// startChildServer starts the server process on the team's file and returns it
// with its address and fingerprint.
func startChildServer(t *testing.T, tm team) (cmd *exec.Cmd, addr, fingerprint string, stderr *bytes.Buffer) {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	cmd = exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverDBEnv+"="+tm.path, serverAddrEnv+"="+addrFile)
	stderr = &bytes.Buffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("the server process ended at once: %s", stderr)
		default:
		}
		b, err := os.ReadFile(addrFile)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) != 2 {
			t.Fatalf("address file %q", b)
		}
		return cmd, f[0], f[1], stderr
	}
	t.Fatalf("the server process wrote no address: %s", stderr)
	return
}

// draftQuestion is save n's question: each save writes a question of its own, so
// the file says which save it holds.
func draftQuestion(n int) string {
	return fmt.Sprintf("Which object is closest to the camera, take %d?", n)
}

// TestAcknowledgedSaveSurvivesKill: annotators save drafts on a team server in
// another process as fast as they can; right after a save is acknowledged, the
// server is killed with SIGKILL (nothing flushed, nothing closed). Reopened, the
// file holds every acknowledged save: the version the client was told, or a later
// one that the server committed but could not acknowledge, with that version's
// content.
func TestAcknowledgedSaveSurvivesKill(t *testing.T) {
	ctx := context.Background()
	tm := seedTeam(t, 3, 1, 2)
	cmd, addr, fp, stderr := startChildServer(t, tm)

	type acked struct {
		id           string
		base         int // the version of take 0, the draft as created
		version, n   int // the last acknowledged save: its version and take
		acknowledged bool
		end          error // why its saves stopped
	}
	names := []string{"ann1", "ann2", "ann3"}
	state := make([]acked, len(names))
	saves := make([]atomic.Int64, len(names))
	const killAfter = 20 // acknowledged saves of each annotator before the kill
	var wg sync.WaitGroup
	for i, name := range names {
		p := signIn(t, addr, fp, name)
		s := storetest.HopSample(tm.images[i%len(tm.images)])
		si, err := p.c.CreateSample(ctx, tm.project.ID, s)
		if err != nil {
			t.Fatal(err)
		}
		state[i] = acked{id: si.ID, base: si.Version, version: si.Version}
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := &state[i]
			for n := 1; ; n++ {
				s.ID, s.Question, s.QuestionTag = st.id, draftQuestion(n), ""
				v, err := p.c.SaveDraft(ctx, st.id, st.version, s)
				if err != nil {
					st.end = err // the server is gone: this save was not acknowledged
					return
				}
				st.version, st.n, st.acknowledged = v, n, true
				saves[i].Add(1)
			}
		}()
	}
	least := func() int64 {
		n := saves[0].Load()
		for i := range saves {
			n = min(n, saves[i].Load())
		}
		return n
	}
	for deadline := time.Now().Add(30 * time.Second); least() < killAfter; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("an annotator had only %d saves acknowledged in 30 s: %s", least(), stderr)
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	wg.Wait()
	total := 0
	for i := range saves {
		total += int(saves[i].Load())
	}
	t.Logf("killed after %d acknowledged saves", total)

	db, err := store.Open(ctx, tm.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i, st := range state {
		got, err := db.Sample(ctx, bench.Owner(), st.id)
		if err != nil {
			t.Fatal(err)
		}
		if !st.acknowledged {
			t.Errorf("%s: no save of %s was acknowledged before the kill: %v", names[i], st.id, st.end)
			continue
		}
		if got.Version < st.version {
			t.Errorf("%s: %s was acknowledged at version %d (take %d), the file holds version %d: an acknowledged save was lost",
				names[i], st.id, st.version, st.n, got.Version)
			continue
		}
		// A save after the last acknowledged one may have committed unacknowledged;
		// whichever version the file holds, its content is that version's.
		if want := draftQuestion(got.Version - st.base); got.Content.Question != want {
			t.Errorf("%s: %s at version %d holds %q, want %q", names[i], st.id, got.Version, got.Content.Question, want)
		}
	}
}
