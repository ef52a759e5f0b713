package release

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/benchwright/benchwright/annotate"
)

// spatialQA is a SpatiaLQA-style JSON list of step graphs, images under scene folders.
type spatialQA struct{}

func (spatialQA) Name() string { return "spatialqa" }

// Holds takes step graphs.
func (spatialQA) Holds(s annotate.Sample) bool { return s.Kind == annotate.KindStepGraph }

func (spatialQA) Layout() string {
	return "spatialqa.json is a JSON list; images/ holds the images in scene folders NNNN-<type>-<k>, and image paths are relative to it"
}

func (spatialQA) Write(_ context.Context, w *Writer, recs []Record) error {
	scenes := sceneFolders(recs)
	dests := make([]string, len(recs))
	owner := map[string]string{} // destination → project image
	items := make([][]byte, 0, len(recs))
	for i, r := range recs {
		s := r.Sample
		dest := scenes[i] + "/" + path.Base(s.Image)
		if o, ok := owner[dest]; ok && o != s.Image {
			dest = scenes[i] + "/" + strings.ReplaceAll(s.Image, "/", "_")
		}
		owner[dest] = s.Image
		dests[i] = dest
		answer, err := stepsObject(s.Steps)
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		b, err := jsonObject(func(o *objectWriter) {
			o.value("id", s.ID)
			o.value("question", s.Question)
			o.raw("answer", answer)
			o.value("image", dest)
			o.value("scene", scenes[i])
			o.value("scene_category", sceneType(scenes[i]))
			optional(o, s)
		})
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		items = append(items, b)
	}
	if err := w.WriteFile("spatialqa.json", func(out io.Writer) error { return writeJSONList(out, items) }); err != nil {
		return err
	}
	for i, r := range recs {
		if err := w.CopyImage("images/"+dests[i], r); err != nil {
			return err
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Read imports spatialqa.json with annotate.ImportSpatiaLQA: the steps come back
// renumbered step1…stepN, the images under their scene folders.
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
