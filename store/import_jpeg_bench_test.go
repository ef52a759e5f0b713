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

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// BenchmarkImportJPEG2k imports the 2,000 generated JPEGs of BenchmarkScaleImport2k
// (20 of them 4000×3000, 12 MP; the others 320×240 to 1280×960) into a new project:
// hash, decode, preview and thumbnail of each, and their rows. It reports the cores
// the import kept busy (CPU time over wall time) and its CPU time, which a machine
// busy with other work changes less than the wall time. BenchmarkImportJPEG2kFloor is
// issue 31's floor for the same files in the same run: `sha256sum` and
// `djpeg -scale 1/4` of every file, as many files at once as there are cores
// (djpegFloor).
func BenchmarkImportJPEG2k(b *testing.B) {
	root, files := importImages(b)
	var cpu time.Duration
	b.ResetTimer() // not the files' generation on a first run
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_, c := importJPEGs(b, root, len(files), b.StartTimer, b.StopTimer)
		cpu += c
		b.StartTimer()
	}
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "cores")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

func BenchmarkImportJPEG2kFloor(b *testing.B) {
	_, files := importImages(b)
	djpegFloorTools(b)
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, c := djpegFloor(b, files)
		cpu += c
	}
	b.StopTimer()
	b.ReportMetric(float64(len(files)*b.N)/b.Elapsed().Seconds(), "files/s")
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "cores")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkImportJPEG2kVsFloor runs the import of BenchmarkImportJPEG2k and its
// floor in turns, b.N times each, and reports the import's time over the floor's
// (x-floor, wall; x-floor-cpu, CPU time: the import's process against the floor's
// children), so that a machine whose load rises or falls during the run weighs on
// both alike (issue 31's goal: at most 2).
func BenchmarkImportJPEG2kVsFloor(b *testing.B) {
	root, files := importImages(b)
	djpegFloorTools(b)
	var work, floor, workCPU, floorCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, c := djpegFloor(b, files)
		floor, floorCPU = floor+w, floorCPU+c
		w, c = importJPEGs(b, root, len(files), nil, nil)
		work, workCPU = work+w, workCPU+c
	}
	b.StopTimer()
	b.ReportMetric(work.Seconds()/floor.Seconds(), "x-floor")
	b.ReportMetric(workCPU.Seconds()/floorCPU.Seconds(), "x-floor-cpu")
	b.ReportMetric(work.Seconds()/float64(b.N), "import-s")
	b.ReportMetric(floor.Seconds()/float64(b.N), "floor-s")
	b.ReportMetric(workCPU.Seconds()/float64(b.N), "import-cpu-s")
	b.ReportMetric(floorCPU.Seconds()/float64(b.N), "floor-cpu-s")
	b.ReportMetric(workCPU.Seconds()/work.Seconds(), "import-cores")
	b.ReportMetric(floorCPU.Seconds()/floor.Seconds(), "floor-cores")
}

// importJPEGs imports the n files below root into a new project of a new
// database and returns the import's wall and CPU time (this process's, user and
// system); start and stop, when set, run around the import (the benchmark's timer).
func importJPEGs(b *testing.B, root string, n int, start, stop func()) (wall, cpu time.Duration) {
	ctx := context.Background()
	db, lead, p := newImportProject(b)
	defer db.Close()
	if start != nil {
		start()
	}
	t0, c0 := time.Now(), rusageTime(syscall.RUSAGE_SELF)
	res, err := db.ImportImages(ctx, lead, p.ID, root, nil)
	wall, cpu = time.Since(t0), rusageTime(syscall.RUSAGE_SELF)-c0
	if stop != nil {
		stop()
	}
	if err != nil || res.Imported != n {
		b.Fatalf("imported %d of %d: %v", res.Imported, n, err)
	}
	return wall, cpu
}

// djpegFloorTools skips the benchmark when the floor's tools are not installed.
func djpegFloorTools(b *testing.B) {
	for _, tool := range []string{"sha256sum", "djpeg"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s is not installed (djpeg: Debian's libjpeg-turbo-progs; scripts/dev installs it)", tool)
		}
	}
}

// djpegFloor is issue 31's floor of the import: `sha256sum` and
// `djpeg -scale 1/4` of every file, as many files at once as there are cores. It
// returns its wall time and the CPU time (user and system) of its processes.
func djpegFloor(b *testing.B, files []string) (wall, cpu time.Duration) {
	t0, c0 := time.Now(), rusageTime(syscall.RUSAGE_CHILDREN)
	onAllCores(b, files, func(f string) error {
		for _, args := range [][]string{{"sha256sum", f}, {"djpeg", "-scale", "1/4", "-outfile", "/dev/null", f}} {
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				return &exec.Error{Name: args[0] + " " + f + ": " + string(out), Err: err}
			}
		}
		return nil
	})
	return time.Since(t0), rusageTime(syscall.RUSAGE_CHILDREN) - c0
}

// onAllCores runs do on every file, as many files at once as there are cores,
// and fails the benchmark with the first error.
func onAllCores(b *testing.B, files []string, do func(file string) error) {
	jobs := make(chan string)
	errs := make(chan error, len(files))
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				if err := do(f); err != nil {
					errs <- err
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

// newImportProject opens a new database in a temporary folder with its first
// lead and an empty project "import"; the caller closes it.
func newImportProject(b *testing.B) (*store.DB, bench.User, bench.Project) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "bw.db"))
	if err != nil {
		b.Fatal(err)
	}
	lead, err := db.CreateFirstLead(ctx, "lead", benchPassword)
	if err == nil {
		var p bench.Project
		if p, err = db.CreateProject(ctx, lead, "import"); err == nil {
			return db, lead, p
		}
	}
	db.Close()
	b.Fatal(err)
	return nil, bench.User{}, bench.Project{}
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
