package store_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/benchwright/benchwright/store"
)

// BenchmarkImportJPEG2k imports the 2,000 generated JPEGs of BenchmarkScaleImport2k
// (20 of them 4000×3000, 12 MP; the others 320×240 to 1280×960) into a new project:
// hash, decode, preview and thumbnail of each, and their rows. It reports the cores
// the import kept busy (CPU time over wall time) and its CPU time, which a machine
// busy with other work changes less than the wall time. BenchmarkImportJPEG2kFloor is
// issue 31's floor for the same files in the same run: `sha256sum` and
// `djpeg -scale 1/4` of every file, as many files at once as there are cores.
func BenchmarkImportJPEG2k(b *testing.B) {
	root, files := importImages(b)
	ctx := context.Background()
	var cpu time.Duration
	b.ResetTimer() // not the files' generation on a first run
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bw.db"))
		if err != nil {
			b.Fatal(err)
		}
		lead, err := db.CreateFirstLead(ctx, "lead", benchPassword)
		if err != nil {
			b.Fatal(err)
		}
		p, err := db.CreateProject(ctx, lead, "import")
		if err != nil {
			b.Fatal(err)
		}
		before := rusageTime(syscall.RUSAGE_SELF)
		b.StartTimer()
		res, err := db.ImportImages(ctx, lead, p.ID, root, nil)
		b.StopTimer()
		cpu += rusageTime(syscall.RUSAGE_SELF) - before
		if err != nil || res.Imported != len(files) {
			b.Fatalf("imported %d of %d: %v", res.Imported, len(files), err)
		}
		db.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "cores")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

func BenchmarkImportJPEG2kFloor(b *testing.B) {
	_, files := importImages(b)
	for _, tool := range []string{"sha256sum", "djpeg"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s is not installed (djpeg: Debian's libjpeg-turbo-progs; scripts/dev installs it)", tool)
		}
	}
	before := rusageTime(syscall.RUSAGE_CHILDREN)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		jobs := make(chan string)
		errs := make(chan error, runtime.NumCPU())
		var wg sync.WaitGroup
		for range runtime.NumCPU() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for f := range jobs {
					for _, args := range [][]string{{"sha256sum", f}, {"djpeg", "-scale", "1/4", "-outfile", "/dev/null", f}} {
						if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
							select {
							case errs <- &exec.Error{Name: args[0] + " " + f + ": " + string(out), Err: err}:
							default:
							}
						}
					}
				}
			}()
		}
		for _, f := range files {
			jobs <- f
		}
		close(jobs)
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	cpu := rusageTime(syscall.RUSAGE_CHILDREN) - before
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "cores")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// rusageTime is the user and system CPU time of this process (RUSAGE_SELF) or of its
// children that ended (RUSAGE_CHILDREN).
func rusageTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
