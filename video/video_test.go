package video

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestIndicesAndTimes(t *testing.T) {
	// Expected values: np.linspace(0, total-1, min(n, total), dtype=int) for
	// uniform, and for uniform-tail too (VLMEvalKit's vsibench.py appends the last
	// frame only when linspace does not end on it, which for n ≥ 2 it always does).
	cases := []struct {
		name     string
		frames   int
		n        int
		sampling string
		want     []int
	}{
		{"uniform 100 frames to 8", 100, 8, Uniform, []int{0, 14, 28, 42, 56, 70, 84, 99}},
		{"uniform 60 s at 25 fps to 8", 1500, 8, Uniform, []int{0, 214, 428, 642, 856, 1070, 1284, 1499}},
		{"uniform exact steps", 29, 8, Uniform, []int{0, 4, 8, 12, 16, 20, 24, 28}},
		{"uniform 7 frames to 3", 7, 3, Uniform, []int{0, 3, 6}},
		{"uniform fewer frames than asked", 5, 8, Uniform, []int{0, 1, 2, 3, 4}},
		{"uniform one frame asked", 250, 1, Uniform, []int{0}},
		{"uniform one-frame video", 1, 8, Uniform, []int{0}},
		{"uniform-tail 100 frames to 8", 100, 8, UniformTail, []int{0, 14, 28, 42, 56, 70, 84, 99}},
		{"uniform-tail 10 frames to 3", 10, 3, UniformTail, []int{0, 4, 9}},
		{"uniform-tail one frame asked", 250, 1, UniformTail, []int{0}},
		{"unknown sampling", 100, 8, "random", nil},
		{"no frames", 0, 8, Uniform, nil},
		{"n zero", 100, 0, Uniform, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info := Info{Frames: c.frames, FPS: 25, Duration: float64(c.frames) / 25}
			got := Indices(info, c.n, c.sampling)
			if !slices.Equal(got, c.want) {
				t.Fatalf("Indices = %v, want %v", got, c.want)
			}
			times := Times(info, c.n, c.sampling)
			if len(times) != len(c.want) {
				t.Fatalf("Times = %v, want %d times", times, len(c.want))
			}
			for i, idx := range c.want {
				if want := float64(idx) / 25; times[i] != want {
					t.Errorf("time %d = %v, want %v (frame %d at 25 fps)", i, times[i], want, idx)
				}
			}
		})
	}
}

func TestFrameName(t *testing.T) {
	for _, c := range []struct {
		i, n int
		want string
	}{{0, 8, "frame-01.jpg"}, {7, 8, "frame-08.jpg"}, {9, 64, "frame-10.jpg"}, {4, 120, "frame-005.jpg"}} {
		if got := FrameName(c.i, c.n); got != c.want {
			t.Errorf("FrameName(%d, %d) = %q, want %q", c.i, c.n, got, c.want)
		}
	}
}

// needFFmpeg skips a test when ffmpeg is not installed (scripts/dev test installs it).
func needFFmpeg(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip("ffmpeg and ffprobe are not installed (scripts/dev test installs Debian's ffmpeg): " + err.Error())
	}
}

// makeVideo writes an H.264 testsrc video (a frame counter and moving pattern,
// so that every frame differs from the next) of the given lavfi testsrc spec.
func makeVideo(t testing.TB, path, spec string) {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc="+spec,
		"-c:v", "libx264", "-preset", "ultrafast", "-g", "12", "-pix_fmt", "yuv420p", "-y", path).CombinedOutput()
	if err != nil {
		t.Fatalf("making a test video: %v\n%s", err, out)
	}
}

func TestProbe(t *testing.T) {
	needFFmpeg(t)
	path := filepath.Join(t.TempDir(), "clip.mp4")
	makeVideo(t, path, "duration=4:size=320x240:rate=25")
	info, err := Probe(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Frames != 100 || info.Width != 320 || info.Height != 240 || info.FPS != 25 || info.Duration < 3.99 || info.Duration > 4.01 {
		t.Errorf("Probe = %+v, want 100 frames of 320x240 at 25 fps, 4 s", info)
	}
}

// TestExtractEqualsFFmpegFrames: every extracted frame is the frame ffmpeg itself
// decodes at that index (selected by number, not by time), and not its neighbour.
func TestExtractEqualsFFmpegFrames(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "clip.mp4")
	makeVideo(t, path, "duration=4:size=320x240:rate=25")
	ctx := context.Background()
	info, err := Probe(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for _, sampling := range Samplings {
		t.Run(sampling, func(t *testing.T) {
			idx := Indices(info, 8, sampling)
			out := filepath.Join(t.TempDir(), "frames")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			files, err := Extract(ctx, path, Times(info, 8, sampling), out)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != 8 || filepath.Base(files[0]) != "frame-01.jpg" || filepath.Base(files[7]) != "frame-08.jpg" {
				t.Fatalf("files %v", files)
			}
			for i, f := range files {
				got := decodeJPEG(t, f)
				want := decodeJPEG(t, frameByIndex(t, path, idx[i]))
				if d := meanDiff(got, want); d > 0.05 {
					t.Errorf("frame %d (index %d): mean difference %.2f from ffmpeg's frame %d", i+1, idx[i], d, idx[i])
				}
				other := idx[i] + 1
				if other >= info.Frames {
					other = idx[i] - 1
				}
				if d := meanDiff(got, decodeJPEG(t, frameByIndex(t, path, other))); d <= 0.2 {
					t.Fatalf("the test cannot tell frame %d from frame %d (difference %.2f)", idx[i], other, d)
				}
			}
		})
	}
}

// frameByIndex is ffmpeg's own decode of frame index (0-based) as a JPEG of the
// same quality as Extract's.
func frameByIndex(t *testing.T, path string, index int) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), fmt.Sprintf("ref-%d.jpg", index))
	b, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", path, "-vf", fmt.Sprintf(`select=eq(n\,%d)`, index),
		"-frames:v", "1", "-q:v", "2", "-y", out).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg frame %d: %v\n%s", index, err, b)
	}
	return out
}

func decodeJPEG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	im, err := jpeg.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return im
}

// meanDiff is the mean absolute difference of two images' 8-bit RGB channels
// (infinite when their sizes differ).
func meanDiff(a, b image.Image) float64 {
	if a.Bounds() != b.Bounds() {
		return 1e9
	}
	var sum, n float64
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			for _, d := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}} {
				v := float64(d[0]>>8) - float64(d[1]>>8)
				if v < 0 {
					v = -v
				}
				sum += v
				n++
			}
		}
	}
	return sum / n
}

func TestDamagedVideos(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.mp4")
	makeVideo(t, good, "duration=4:size=320x240:rate=25")
	random := filepath.Join(dir, "random.mp4")
	noise := make([]byte, 64<<10)
	for i := range noise {
		noise[i] = byte(i*7919 + i>>3)
	}
	if err := os.WriteFile(random, noise, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.mp4")
	if err := os.WriteFile(truncated, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	// A file whose header (moved to the front) promises 100 frames but that
	// stops halfway: it probes, but its later frames cannot be decoded.
	half := filepath.Join(dir, "half.mp4")
	if out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=4:size=320x240:rate=25",
		"-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-y", good+".fs.mp4").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	fs, err := os.ReadFile(good + ".fs.mp4")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(half, fs[:len(fs)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Probe(context.Background(), half); err != nil {
		t.Fatalf("the half file should probe: %v", err)
	}
	text := filepath.Join(dir, "notes.mp4")
	if err := os.WriteFile(text, []byte("not a video\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{random, truncated, half, text, filepath.Join(dir, "missing.mp4")} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			info, err := Probe(context.Background(), p)
			if err == nil {
				// A probe may succeed on a damaged file's header; the frames must not.
				_, err = Extract(context.Background(), p, Times(info, 8, Uniform), t.TempDir())
			}
			if !errors.Is(err, ErrNotVideo) {
				t.Fatalf("err = %v, want ErrNotVideo", err)
			}
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}
