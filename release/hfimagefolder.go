package release

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/benchwright/benchwright/annotate"
)

// hfImageFolder is a Hugging Face imagefolder: split folders with metadata.jsonl.
type hfImageFolder struct{}

func (hfImageFolder) Name() string { return "hf-imagefolder" }

// Holds takes every kind.
func (hfImageFolder) Holds(annotate.Sample) bool { return true }

func (hfImageFolder) Layout() string {
	return "One folder per split holding metadata.jsonl and the images; file_name is relative to the split folder"
}

func (hfImageFolder) Write(_ context.Context, w *Writer, recs []Record) error {
	for _, split := range splitsOf(recs) {
		var lines bytes.Buffer
		var in []Record
		for _, r := range recs {
			if splitOf(r.Sample) != split {
				continue
			}
			in = append(in, r)
			s := r.Sample
			answer, err := answerString(s)
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			bboxes, names := [][4]float64{}, []string{}
			if s.Box != nil {
				bboxes, names = append(bboxes, s.Box.ToCOCO()), append(names, ObjectName(s))
			}
			objects, err := jsonObject(func(o *objectWriter) {
				o.value("bbox", bboxes)
				o.value("category", names)
			})
			if err != nil {
				return err
			}
			b, err := jsonObject(func(o *objectWriter) {
				o.value("file_name", s.Image)
				o.value("id", s.ID)
				o.value("kind", s.Kind)
				o.value("question", s.Question)
				o.value("options", orEmpty(s.Options))
				o.value("answer", answer)
				o.value("categories", orEmpty(s.Categories))
				o.value("hop", s.Hop)
				o.value("view", s.View)
				o.value("task", s.Task)
				o.value("width", r.Width)
				o.value("height", r.Height)
				o.raw("objects", objects)
			})
			if err != nil {
				return fmt.Errorf("sample %s: %w", s.ID, err)
			}
			lines.Write(b)
			lines.WriteByte('\n')
		}
		if err := w.WriteFile(split+"/metadata.jsonl", func(out io.Writer) error {
			_, err := out.Write(lines.Bytes())
			return err
		}); err != nil {
			return err
		}
		for _, r := range in {
			if err := w.CopyImage(split+"/"+r.Sample.Image, r); err != nil {
				return err
			}
			if err := w.Step(); err != nil {
				return err
			}
		}
	}
	return nil
}
