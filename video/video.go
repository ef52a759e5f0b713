// Package video reads videos for import as samples of several images (issue 26):
// it probes a video with ffprobe, chooses the frames to take the way evaluation
// toolkits do (Times), extracts them with ffmpeg (Extract), and imports them as
// project images over any bench.Service (ImportVideo). It is plain Go over
// Debian's ffmpeg and ffprobe programs: no SQL, no UI.
package video

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// ErrNoFFmpeg is returned when ffmpeg or ffprobe is not installed.
var ErrNoFFmpeg = errors.New("import-video needs ffmpeg: install Debian's ffmpeg package")

// ErrNotVideo is returned for a file that is not a readable video: not a media
// file, damaged, truncated, or without a video stream.
var ErrNotVideo = errors.New("not a readable video")

// Info is what Probe reads of a video's first video stream.
type Info struct {
	Duration float64 // seconds
	Frames   int     // decoded frames (counted when the container does not say)
	Width    int
	Height   int
	FPS      float64 // average frame rate
}

// Available reports whether ffmpeg and ffprobe are on PATH; the error is
// ErrNoFFmpeg when one is missing.
func Available() error {
	for _, p := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(p); err != nil {
			return ErrNoFFmpeg
		}
	}
	return nil
}

type probeOutput struct {
	Streams []struct {
		CodecType    string `json:"codec_type"`
		Width        int    `json:"width"`
		Height       int    `json:"height"`
		AvgFrameRate string `json:"avg_frame_rate"`
		NbFrames     string `json:"nb_frames"`
		NbReadFrames string `json:"nb_read_frames"`
		Duration     string `json:"duration"`
	} `json:"streams"`
	Format struct {
		Duration string `json:"duration"`
	} `json:"format"`
}

// Probe reads the duration, frame count, size and frame rate of the video at path
// with ffprobe's JSON output. A file ffprobe cannot read, or without a video
// stream, gives ErrNotVideo with ffprobe's reason.
func Probe(ctx context.Context, path string) (Info, error) {
	if err := Available(); err != nil {
		return Info{}, err
	}
	out, err := ffprobe(ctx, path, false)
	if err != nil {
		return Info{}, err
	}
	info, ok := out.info()
	if !ok {
		return Info{}, fmt.Errorf("%s: %w: no video stream", path, ErrNotVideo)
	}
	if info.Frames <= 0 {
		// The container does not say (some WebM, MKV): count by decoding.
		counted, err := ffprobe(ctx, path, true)
		if err != nil {
			return Info{}, err
		}
		if ci, ok := counted.info(); ok {
			info.Frames = ci.Frames
		}
	}
	if info.Frames <= 0 || info.FPS <= 0 || info.Duration <= 0 {
		return Info{}, fmt.Errorf("%s: %w: no decodable frames", path, ErrNotVideo)
	}
	return info, nil
}

func ffprobe(ctx context.Context, path string, count bool) (probeOutput, error) {
	args := []string{"-v", "error", "-select_streams", "v:0", "-print_format", "json", "-show_format",
		"-show_entries", "stream=codec_type,width,height,avg_frame_rate,nb_frames,nb_read_frames,duration:format=duration"}
	if count {
		args = append(args, "-count_frames")
	}
	cmd := exec.CommandContext(ctx, "ffprobe", append(args, "--", path)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return probeOutput{}, ctx.Err()
		}
		return probeOutput{}, fmt.Errorf("%s: %w (%s)", path, ErrNotVideo, reason(stderr.String(), path))
	}
	var out probeOutput
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return probeOutput{}, fmt.Errorf("%s: %w (ffprobe's output: %v)", path, ErrNotVideo, err)
	}
	return out, nil
}

func (o probeOutput) info() (Info, bool) {
	for _, s := range o.Streams {
		if s.CodecType != "video" {
			continue
		}
		info := Info{Width: s.Width, Height: s.Height, FPS: rate(s.AvgFrameRate)}
		info.Frames, _ = strconv.Atoi(s.NbFrames)
		if n, err := strconv.Atoi(s.NbReadFrames); err == nil {
			info.Frames = n
		}
		info.Duration, _ = strconv.ParseFloat(s.Duration, 64)
		if info.Duration <= 0 {
			info.Duration, _ = strconv.ParseFloat(o.Format.Duration, 64)
		}
		return info, true
	}
	return Info{}, false
}

// rate parses ffprobe's "30000/1001".
func rate(s string) float64 {
	num, den, ok := strings.Cut(s, "/")
	n, err1 := strconv.ParseFloat(num, 64)
	if !ok {
		return n
	}
	d, err2 := strconv.ParseFloat(den, 64)
	if err1 != nil || err2 != nil || d == 0 {
		return 0
	}
	return n / d
}

// reason is the last line ffmpeg or ffprobe wrote, without the file's path
// (which the caller's error names already).
func reason(stderr, path string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	last = strings.TrimPrefix(last, path+": ")
	if last == "" {
		return "ffmpeg gave no reason"
	}
	return last
}

// Samplings: how Times spreads n frames over a video.
const (
	// Uniform takes frame indices np.linspace(0, total-1, n, dtype=int): the first
	// and the last frame and evenly spaced ones between, as lmms-eval's multi-image
	// VSI-Bench variant does (EvolvingLMMs-Lab/lmms-eval,
	// lmms_eval/tasks/vsibench/multi_image_input/utils.py,
	// vsibench_doc_to_visual_as_images) and SpatialScore with n = 8.
	Uniform = "uniform"
	// UniformTail is VLMEvalKit's uniform_tail (open-compass/VLMEvalKit at
	// e8e78f05, vlmeval/dataset/vsibench.py, VSIBench.save_video_frames): the
	// indices np.linspace(0, total-1, n, dtype=int), then the last frame appended
	// when they do not end on it. Asked for n frames they always do for n ≥ 2, and
	// for n = 1 the appended frame has no file to go to (the frames are zipped with
	// n paths) — so by a frame count it takes exactly Uniform's frames; its tail
	// matters only when sampling by frame rate, which import-video does not. It is
	// kept so that a script written for VLMEvalKit's option names works as there.
	UniformTail = "uniform-tail"
)

// Samplings lists the samplings Times knows.
var Samplings = []string{Uniform, UniformTail}

// Indices returns the 0-based indices of the n frames to take from a video of
// info.Frames frames by sampling (Uniform or UniformTail), in order; fewer when
// the video has fewer frames than n (as lmms-eval does: min(n, total)). It is nil
// for an unknown sampling, n < 1 or a video without frames.
func Indices(info Info, n int, sampling string) []int {
	total := info.Frames
	if n < 1 || total < 1 {
		return nil
	}
	n = min(n, total)
	out := make([]int, 0, n)
	switch sampling {
	case Uniform:
		if n == 1 {
			return []int{0} // np.linspace(0, total-1, 1) is [0]
		}
		step := float64(total-1) / float64(n-1)
		for i := range n {
			// numpy computes start + i*step and truncates toward zero for dtype=int;
			// the last value is stop exactly.
			if i == n-1 {
				out = append(out, total-1)
				continue
			}
			out = append(out, int(float64(i)*step))
		}
	case UniformTail:
		return Indices(info, n, Uniform) // see UniformTail
	default:
		return nil
	}
	return out
}

// Times returns the presentation times in seconds (index / frame rate) of the
// frames Indices chooses.
func Times(info Info, n int, sampling string) []float64 {
	idx := Indices(info, n, sampling)
	if idx == nil {
		return nil
	}
	out := make([]float64, len(idx))
	for i, f := range idx {
		out[i] = IndexTime(info, f)
	}
	return out
}

// IndexTime is the presentation time of frame index in a video of constant frame
// rate info.FPS, rounded to the microsecond.
func IndexTime(info Info, index int) float64 {
	return math.Round(float64(index)/info.FPS*1e6) / 1e6
}

// Extract writes the frames of the video at path shown at times (seconds from the
// start) into dir as frame-01.jpg, frame-02.jpg, … (JPEG, quality 2 of ffmpeg's
// scale) and returns their paths in order. Each frame is decoded by its own ffmpeg,
// a few at a time, seeking before the input (fast: from the keyframe before the
// time) with ffmpeg's default accurate seek, which decodes from that keyframe and
// keeps the first frame shown at or after the time. A frame that cannot be decoded
// fails the whole call with ErrNotVideo; files already written are left for the
// caller, who extracts into a temporary folder.
func Extract(ctx context.Context, path string, times []float64, dir string) ([]string, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	out := make([]string, len(times))
	errs := make([]error, len(times))
	sem := make(chan struct{}, max(1, runtime.NumCPU()))
	var wg sync.WaitGroup
	for i, t := range times {
		out[i] = filepath.Join(dir, FrameName(i, len(times)))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = extractOne(ctx, path, t, out[i])
		}()
	}
	wg.Wait()
	// The first failure in frame order, counting the others: one sentence per file.
	var first error
	more := 0
	for _, err := range errs {
		switch {
		case err == nil:
		case first == nil:
			first = err
		default:
			more++
		}
	}
	if first != nil && more > 0 {
		return nil, fmt.Errorf("%w, nor %d later frames", first, more)
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

// FrameName is the file name of the i-th (0-based) of n frames: frame-01.jpg…,
// zero-padded to at least two digits so that names sort in frame order.
func FrameName(i, n int) string {
	width := max(2, len(strconv.Itoa(n)))
	return fmt.Sprintf("frame-%0*d.jpg", width, i+1)
}

// seekEarly is how much before a frame's time ffmpeg is asked to seek: a time
// computed as index/fps may round a hair above the frame's own timestamp, and
// ffmpeg keeps the first frame at or after the time asked for. A millisecond is
// less than half a frame at any frame rate up to 500 fps.
const seekEarly = 0.001

func extractOne(ctx context.Context, path string, t float64, out string) error {
	ss := strconv.FormatFloat(max(0, t-seekEarly), 'f', 6, 64)
	cmd := exec.CommandContext(ctx, "ffmpeg", "-nostdin", "-v", "error", "-xerror",
		"-ss", ss, "-i", path, "-map", "0:v:0", "-frames:v", "1", "-q:v", "2", "-update", "1", "-y", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %w: the frame at %.3f s cannot be decoded (%s)", path, ErrNotVideo, t, reason(stderr.String(), path))
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		return fmt.Errorf("%s: %w: ffmpeg wrote no frame at %.3f s", path, ErrNotVideo, t)
	}
	return nil
}
