package release

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
)

// spatialQA is a SpatiaLQA JSON list of step graphs, images under scene folders.
//
// The record is the one xieyc99/SpatiaLQA @ 387a99f reads:
//   - answer.py main sends sample["image"] to api/api.py call_api as an image_url, so
//     image must be a URL or a data: URI: it is the image itself, base64 in a
//     data:image/…;base64, URI (turned upright first, as the file under images/ is).
//     image_path is the same file under images/, for people and for Read.
//   - gen_sim_matrix.py writes its matrices keyed by id through json.dump and
//     metric.py cal_metric looks them up with the ground truth's id, so id is a
//     string.
//   - metric.py compute_precondition_and_content_scores names matrix rows and
//     columns step1…stepN and reads every step's precondition: the answer is
//     {"step1": {"content", "precondition"}, …} renumbered in order (stepsObject).
//   - source is copied through (mytest.py lists the sources); it names the release.
//
// In metric.py's split mode (per-sample averages) a sample without any
// precondition scores precondition 0 even for a perfect answer, so a release with
// such samples cannot reach 100 there; the total mode (the default) is unaffected.
type spatialQA struct{}

func (spatialQA) Name() string { return "spatialqa" }

// Holds takes step graphs of one image: a SpatiaLQA record embeds one image (its
// image data URI, which answer.py sends as the one image of the prompt), so a step
// graph of several images is left out (counted as "step_graph, several images").
func (spatialQA) Holds(s annotate.Sample) bool {
	return s.Kind == annotate.KindStepGraph && s.NumImages() <= 1
}

func (spatialQA) Layout() string {
	return "spatialqa.json is a JSON list; each record's image is the image as a data: URI (what SpatiaLQA's answer.py sends), " +
		"image_path the same file under images/, which holds the images upright in scene folders NNNN-<type>-<k>. " +
		"In SpatiaLQA's split scoring mode a sample without any precondition scores precondition 0, so such samples keep a perfect answer below 100 there. A record holds one image: step graphs of several images are left out"
}

func (spatialQA) Write(_ context.Context, w *Writer, recs []Record) error {
	scenes := sceneFolders(recs)
	dests := make([]string, len(recs))
	owner := map[string]string{} // destination → project image
	for i, r := range recs {
		s := r.Sample
		dest := scenes[i] + "/" + path.Base(s.Image)
		if o, ok := owner[dest]; ok && o != s.Image {
			dest = scenes[i] + "/" + strings.ReplaceAll(s.Image, "/", "_")
		}
		owner[dest] = s.Image
		dests[i] = dest
	}
	rel := w.Info().Release
	source := "benchwright"
	if rel.Name != "" {
		source += ":" + rel.Name
		if rel.Version != "" {
			source += "@" + rel.Version
		}
	}
	// One record per line, each read, embedded and written in turn: the list is never
	// whole in memory.
	return w.WriteFile("spatialqa.json", func(out io.Writer) error {
		written := map[string]bool{}
		if _, err := io.WriteString(out, "["); err != nil {
			return err
		}
		for i, r := range recs {
			s := r.Sample
			img, err := w.ReadUprightImage(r)
			if err != nil {
				return err
			}
			if !written[dests[i]] {
				written[dests[i]] = true
				if err := w.WriteFile("images/"+dests[i], func(f io.Writer) error {
					_, err := f.Write(img)
					return err
				}); err != nil {
					return err
				}
			}
			answer, err := stepsObject(s.Steps)
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
				o.Value("id", s.ID)
				o.Raw("image", dataURI(img, s.Image))
				o.Value("image_path", dests[i])
				o.Value("question", s.Question)
				o.Raw("answer", answer)
				o.Value("source", source)
				o.Value("scene", scenes[i])
				o.Value("scene_category", sceneType(scenes[i]))
				optional(o, s)
			})
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			sep := ",\n  "
			if i == 0 {
				sep = "\n  "
			}
			if _, err := io.WriteString(out, sep); err != nil {
				return err
			}
			if _, err := out.Write(b); err != nil {
				return err
			}
			if err := w.Step(); err != nil {
				return err
			}
		}
		end := "]\n"
		if len(recs) > 0 {
			end = "\n]\n"
		}
		_, err := io.WriteString(out, end)
		return err
	})
}

// dataURI is img as a quoted JSON string "data:<type>;base64,…": the type from the
// bytes' signature, else from name's extension.
func dataURI(img []byte, name string) []byte {
	mime := imageType(img, name)
	out := make([]byte, 0, len(mime)+base64.StdEncoding.EncodedLen(len(img))+16)
	out = append(out, `"data:`...)
	out = append(out, mime...)
	out = append(out, ";base64,"...)
	out = base64.StdEncoding.AppendEncode(out, img)
	return append(out, '"')
}

// imageType is an image's MIME type, by its first bytes or else its extension.
func imageType(img []byte, name string) string {
	switch {
	case bytes.HasPrefix(img, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case bytes.HasPrefix(img, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(img, []byte("GIF87a")), bytes.HasPrefix(img, []byte("GIF89a")):
		return "image/gif"
	case len(img) >= 12 && string(img[:4]) == "RIFF" && string(img[8:12]) == "WEBP":
		return "image/webp"
	case bytes.HasPrefix(img, []byte("BM")):
		return "image/bmp"
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".bmp":
		return "image/bmp"
	}
	return "application/octet-stream"
}

// Read imports spatialqa.json with annotate.ImportSpatiaLQA: the steps come back
// renumbered step1…stepN, the images as image_path gives them (the data: URI in
// image is left out), under their scene folders.
func (spatialQA) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	return readImported(ctx, dir, "spatialqa.json", annotate.ImportSpatiaLQA)
}

// sceneFolders gives each record the scene folder its image goes into in a SpatiaLQA
// export: the sample's scene, else its image's folder, when it follows NNNN-<type>-<k>;
// otherwise a new name in that pattern, numbered after the highest NNNN in use.
func sceneFolders(recs []Record) []string {
	raw := make([]string, len(recs))
	highest := 0
	typeCount := map[string]int{}
	used := map[string]bool{}
	note := func(name string) {
		if used[name] {
			return
		}
		used[name] = true
		n, _ := strconv.Atoi(name[:4])
		highest = max(highest, n)
		typeCount[sceneType(name)]++
	}
	for i, r := range recs {
		dir := path.Base(path.Dir(r.Sample.Image))
		switch {
		case annotate.ValidSceneName(r.Sample.Scene):
			raw[i] = r.Sample.Scene
		case annotate.ValidSceneName(dir):
			raw[i] = dir
		default:
			raw[i] = "\x00" + cmp.Or(r.Sample.Scene, strings.Trim(dir, "."), "scene")
			continue
		}
		note(raw[i])
	}
	var invalid []string
	for _, n := range raw {
		if strings.HasPrefix(n, "\x00") && !slices.Contains(invalid, n) {
			invalid = append(invalid, n)
		}
	}
	slices.Sort(invalid)
	renamed := map[string]string{}
	for _, n := range invalid {
		t := sanitizeType(n[1:])
		typeCount[t]++
		highest++
		renamed[n] = fmt.Sprintf("%04d-%s-%d", highest, t, typeCount[t])
	}
	out := make([]string, len(recs))
	for i, n := range raw {
		out[i] = cmp.Or(renamed[n], n)
	}
	return out
}

// sceneType is the <type> of a scene folder NNNN-<type>-<k>.
func sceneType(name string) string {
	t := name[5:]
	return t[:strings.LastIndexByte(t, '-')]
}

// sanitizeType turns a free scene name into a scene type: lower-case letters, digits
// and dashes, starting with a letter ("Living Room" → "living-room").
func sanitizeType(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	t := strings.Trim(b.String(), "-")
	switch {
	case t == "":
		return "scene"
	case !unicode.IsLetter(rune(t[0])):
		return "scene-" + t
	}
	return t
}
