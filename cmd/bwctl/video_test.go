package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/demo"
	"github.com/benchwright/benchwright/video"
)

// needFFmpeg skips a test when ffmpeg is not installed (scripts/dev test installs it).
func needFFmpeg(t testing.TB) {
	t.Helper()
	if err := video.Available(); err != nil {
		t.Skip("ffmpeg and ffprobe are not installed (scripts/dev test installs Debian's ffmpeg): " + err.Error())
	}
}

// testVideo writes an H.264 testsrc video of the given lavfi spec to path.
func testVideo(t testing.TB, path, spec string) {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc="+spec,
		"-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", "-y", path).CombinedOutput()
	if err != nil {
		t.Fatalf("making a test video: %v\n%s", err, out)
	}
}

func TestImportVideo(t *testing.T) {
	needFFmpeg(t)
	db := initDB(t)
	src := t.TempDir()
	clip := filepath.Join(src, "clip.mp4")
	testVideo(t, clip, "duration=4:size=320x240:rate=25")
	walk := filepath.Join(src, "walk.mkv")
	testVideo(t, walk, "duration=2:size=160x120:rate=10")
	random := filepath.Join(src, "random.mp4")
	noise := make([]byte, 32<<10)
	for i := range noise {
		noise[i] = byte(i*7919 + i>>5)
	}
	if err := os.WriteFile(random, noise, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(src, "truncated.mp4")
	if err := os.WriteFile(truncated, b[:len(b)/3], 0o644); err != nil {
		t.Fatal(err)
	}
	// A video whose header is at the front and promises 100 frames, cut halfway:
	// it probes, and its first frames can be taken, but not the later ones.
	fast := filepath.Join(t.TempDir(), "fast.mp4")
	if out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", clip, "-c", "copy", "-movflags", "+faststart", "-y", fast).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	fb, err := os.ReadFile(fast)
	if err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(src, "half.mp4")
	if err := os.WriteFile(half, fb[:len(fb)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(t.TempDir(), "frames")
	as := func(extra ...string) []string {
		return append([]string{"import-video", "--db", db, "--project", "p1", "--as", "boss", "--to", to}, extra...)
	}
	frames := func(name string, n int) []string {
		var out []string
		for i := range n {
			out = append(out, name+"/"+video.FrameName(i, n)+"\n")
		}
		return out
	}
	runCases(t, []cliCase{
		{name: "no file", env: pw("secret"), args: as(), code: exitUsage, wantErr: []string{"usage: bwctl import-video"}, emptyOut: true},
		{name: "unknown sampling", env: pw("secret"), args: as("--sampling", "random", clip), code: exitUsage,
			wantErr: []string{`--sampling is uniform or uniform-tail, not "random"`}, emptyOut: true},
		{name: "zero frames", env: pw("secret"), args: as("--frames", "0", clip), code: exitUsage,
			wantErr: []string{"--frames is from 1 to 64"}, emptyOut: true},
		{name: "eight frames by default", env: pw("secret"), args: as(clip), code: exitOK,
			wantOut: frames("clip", 8), outLines: 8, emptyStErr: true},
		{name: "again: the same frames, nothing new", env: pw("secret"), args: as(clip), code: exitOK,
			wantOut: frames("clip", 8), outLines: 8, emptyStErr: true},
		{name: "damaged files are named and skipped, good ones imported", env: pw("secret"),
			args: as("--frames", "4", "--sampling", "uniform-tail", random, walk, truncated, half), code: exitFindings,
			wantOut: frames("walk", 4), outLines: 4,
			wantErr: []string{"import-video: " + random + ": not a readable video", "import-video: " + truncated + ": not a readable video",
				"import-video: " + half + ": not a readable video: the frame at",
				"nothing of it was imported"}},
	})

	ctx := context.Background()
	s := openStore(t, db)
	boss, err := s.UserByName(ctx, bench.Owner(), "boss")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.ProjectByName(ctx, boss, "p1")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.CountImages(ctx, boss, p.ID); err != nil || n != 12 {
		t.Fatalf("%d images (%v), want 8 of clip and 4 of walk: nothing of the damaged files", n, err)
	}
	entries, err := os.ReadDir(to)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "clip walk" {
		t.Errorf("the frames folder holds %v, want only clip and walk (no temporary folders, nothing of the damaged files)", names)
	}

	clipBytes, err := os.ReadFile(clip)
	clipSum := fmt.Sprintf("%x", sha256.Sum256(clipBytes))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, l := range frames("clip", 8) {
		paths = append(paths, strings.TrimSpace(l))
	}
	got, err := s.VideoFrames(ctx, boss, p.ID, paths)
	if err != nil {
		t.Fatal(err)
	}
	wantIdx := []int{0, 14, 28, 42, 56, 70, 84, 99} // np.linspace(0, 99, 8, dtype=int)
	if len(got) != 8 {
		t.Fatalf("VideoFrames: %d frames recorded, want 8: %+v", len(got), got)
	}
	for i, f := range got {
		if f.Path != paths[i] || f.Video != clip || f.VideoSHA256 != clipSum || f.Duration < 3.99 || f.Duration > 4.01 ||
			f.Index != wantIdx[i] || f.Time != float64(wantIdx[i])/25 {
			t.Errorf("frame %d: %+v, want %s of %s (SHA-256 %s, 4 s) at index %d, %v s", i+1, f, paths[i], clip, clipSum, wantIdx[i], float64(wantIdx[i])/25)
		}
	}
	walkFrames, err := s.VideoFrames(ctx, boss, p.ID, []string{"walk/frame-04.jpg"})
	if err != nil || len(walkFrames) != 1 || walkFrames[0].Index != 19 || walkFrames[0].Video != walk {
		t.Errorf("walk's last frame (uniform-tail appends the last of 20): %+v, %v", walkFrames, err)
	}
}

func TestImportVideoWithoutFFmpeg(t *testing.T) {
	db := initDB(t)
	t.Setenv("PATH", t.TempDir())
	runCases(t, []cliCase{
		{name: "says what to install", env: pw("secret"),
			args: []string{"import-video", "--db", db, "--project", "p1", "--as", "boss", "clip.mp4"}, code: exitUsage,
			wantErr: []string{"import-video needs ffmpeg: install Debian's ffmpeg package"}, emptyOut: true},
	})
}

// TestImportVideoThroughServer: the frames are written on the workstation,
// uploaded, imported on the server, and their provenance recorded there.
func TestImportVideoThroughServer(t *testing.T) {
	needFFmpeg(t)
	dbPath, addr, fp := startServer(t)
	setPasswords(t, pw("demo"))
	clip := filepath.Join(t.TempDir(), "lab tour.mp4")
	testVideo(t, clip, "duration=2:size=160x120:rate=10")
	on := []string{"--server", addr, "--fingerprint", fp, "--as", "lead", "--project", demo.DemoProject}
	code, out, errOut := bwctl(append([]string{"import-video", "--frames", "3", clip}, on...)...)
	if code != exitUsage || !strings.Contains(errOut, "give --to DIR") {
		t.Errorf("without --to over a server: exit %d, %q %q", code, out, errOut)
	}
	code, out, errOut = bwctl(append([]string{"import-video", "--frames", "3", "--to", t.TempDir(), clip}, on...)...)
	want := "lab tour/frame-01.jpg\nlab tour/frame-02.jpg\nlab tour/frame-03.jpg\n"
	if code != exitOK || out != want {
		t.Fatalf("import-video over the server: exit %d, %q %q; want %q", code, out, errOut, want)
	}
	s := openStore(t, dbPath)
	ctx := context.Background()
	lead, err := s.UserByName(ctx, bench.Owner(), "lead")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.ProjectByName(ctx, lead, demo.DemoProject)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.VideoFrames(ctx, lead, p.ID, strings.Split(strings.TrimSpace(out), "\n"))
	if err != nil || len(got) != 3 || got[2].Index != 19 || got[1].Index != 9 || got[0].Video != clip {
		t.Errorf("the server's file holds %+v (%v), want frames 0, 9 and 19 of %s", got, err, clip)
	}
}
