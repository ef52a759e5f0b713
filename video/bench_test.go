package video

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// BenchmarkImportVideo takes 8 frames (uniform) of a 60-second 1080p H.264 video
// (testsrc, x264's default keyframe interval of 250 frames) — Probe, Times and
// Extract to JPEG — and, in the same run, lets ffmpeg decode the same 8 frames
// itself: one ffmpeg per frame, seeking the same way, one after the other,
// decoding to nothing (no JPEG). It reports both and their ratio (x-ffmpeg; the
// goal is at most 1.5).
func BenchmarkImportVideo(b *testing.B) {
	needFFmpeg(b)
	dir := b.TempDir()
	path := filepath.Join(dir, "long.mp4")
	start := time.Now()
	if out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=60:size=1920x1080:rate=25",
		"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-y", path).CombinedOutput(); err != nil {
		b.Fatalf("making the video: %v\n%s", err, out)
	}
	b.Logf("made a 60 s 1080p video in %v", time.Since(start).Round(time.Millisecond))
	ctx := context.Background()
	var ours, theirs time.Duration
	for b.Loop() {
		t0 := time.Now()
		info, err := Probe(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		times := Times(info, 8, Uniform)
		if _, err := Extract(ctx, path, times, b.TempDir()); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		for _, t := range times {
			ss := strconv.FormatFloat(max(0, t-seekEarly), 'f', 6, 64)
			if out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-ss", ss, "-i", path,
				"-map", "0:v:0", "-frames:v", "1", "-f", "null", "-").CombinedOutput(); err != nil {
				b.Fatalf("ffmpeg: %v\n%s", err, out)
			}
		}
		ours += t1.Sub(t0)
		theirs += time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(ours.Milliseconds())/n, "ms-import")
	b.ReportMetric(float64(theirs.Milliseconds())/n, "ms-ffmpeg")
	b.ReportMetric(float64(ours)/float64(theirs), "x-ffmpeg")
}
