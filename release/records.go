package release

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Helpers shared by several formats: how a sample's answer, object and split are
// written.

// ObjectName is the name of the object a sample's box is on, for the category of
// COCO and Hugging Face annotations: the correct option without a leading article,
// lower-cased ("The red mug" → "red mug"), or "object" when there is no option.
func ObjectName(s annotate.Sample) string {
	if !s.Kind.IndexAnswer() || s.AnswerIndex < 0 || s.AnswerIndex >= len(s.Options) {
		return "object"
	}
	name := strings.Join(strings.Fields(strings.ToLower(s.Options[s.AnswerIndex])), " ")
	for _, a := range []string{"the ", "a ", "an "} {
		if rest, ok := strings.CutPrefix(name, a); ok && rest != "" {
			name = rest
			break
		}
	}
	return cmp.Or(name, "object")
}

// answerString is a sample's answer as text: the option letter, the text answer, or
// for a step graph the SpatiaLQA answer object as compact JSON.
func answerString(s annotate.Sample) (string, error) {
	switch {
	case s.Kind.IndexAnswer():
		return annotate.AnswerLetter(s.AnswerIndex), nil
	case s.Kind == annotate.KindStepGraph:
		b, err := stepsObject(s.Steps)
		return string(b), err
	}
	return s.AnswerText, nil
}

// stepsObject is the SpatiaLQA answer: {"step1": {"content": ..., "precondition": [...]}, ...}
// with the steps renumbered step1…stepN in their order and preconditions renamed to match.
func stepsObject(steps []annotate.Step) ([]byte, error) {
	rename := map[string]string{}
	for i, st := range steps {
		if _, dup := rename[st.ID]; !dup {
			rename[st.ID] = "step" + strconv.Itoa(i+1)
		}
	}
	return annotate.JSONObject(func(w *annotate.ObjectWriter) {
		for i, st := range steps {
			pre := make([]string, len(st.Precondition))
			for j, p := range st.Precondition {
				pre[j] = cmp.Or(rename[p], p)
			}
			b, err := annotate.JSONObject(func(o *annotate.ObjectWriter) {
				o.Value("content", st.Content)
				o.Value("precondition", pre)
			})
			if err != nil {
				w.Fail(err)
				return
			}
			w.Raw("step"+strconv.Itoa(i+1), b)
		}
	})
}

// optional writes the fields every format carries when set.
func optional(w *annotate.ObjectWriter, s annotate.Sample) {
	w.Str("task", s.Task)
	w.Str("split", s.Split)
	if len(s.Tags) > 0 {
		w.Value("tags", s.Tags)
	}
	w.Str("parent", s.Parent)
	w.Str("transform", s.Transform)
}

// splitOf is the folder a record goes to in split-wise formats; an unsplit release
// is a test set.
func splitOf(s annotate.Sample) string { return cmp.Or(s.Split, annotate.SplitTest) }

// splitsOf returns the splits present in recs, sorted.
func splitsOf(recs []Record) []string {
	var out []string
	for _, r := range recs {
		if sp := splitOf(r.Sample); !slices.Contains(out, sp) {
			out = append(out, sp)
		}
	}
	slices.Sort(out)
	return out
}

// readImported reads the file name of an export in dir with one of annotate's
// importers (the Read of a format that annotate can import): a record the importer
// cannot convert is an error.
func readImported(ctx context.Context, dir, name string, imp func(io.Reader) ([]annotate.Imported, []annotate.RecordError, error)) ([]annotate.Sample, error) {
	p := filepath.Join(dir, name)
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ok, bad, err := imp(ctxReader{ctx, f})
	switch {
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", p, err)
	case len(bad) == 1:
		return nil, fmt.Errorf("read %s: %w", p, bad[0])
	case len(bad) > 1:
		return nil, fmt.Errorf("read %s: %w (and %d more)", p, bad[0], len(bad)-1)
	}
	out := make([]annotate.Sample, len(ok))
	for i, im := range ok {
		out[i] = im.Sample
	}
	return out, nil
}

// emptyExport reports whether dir holds an export in format name of no samples, by
// its manifest: such an export may lack the files a reader looks for (vlmevalkit
// writes no TSV, hf-imagefolder no split folder).
func emptyExport(dir, name string) bool {
	m, err := ReadManifest(dir)
	return err == nil && m.Format == name && m.Counts.Samples == 0
}

// blankFile reports whether the file p holds only white space.
func blankFile(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		c, err := br.ReadByte()
		switch {
		case errors.Is(err, io.EOF):
			return true, nil
		case err != nil:
			return false, err
		case c != ' ' && c != '\t' && c != '\r' && c != '\n':
			return false, nil
		}
	}
}
