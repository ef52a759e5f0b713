package release

import (
	"context"
	"fmt"
	"io"

	"github.com/benchwright/benchwright/annotate"
)

// multihop is a MultihopSpatial-style JSON list of hop-QA samples.
type multihop struct{}

func (multihop) Name() string { return "multihopspatial" }

// Holds takes hop QA.
func (multihop) Holds(s annotate.Sample) bool { return s.Kind == annotate.KindHopQA }

func (multihop) Layout() string {
	return "multihopspatial.json is a JSON list; images/ holds the images, and image paths are relative to it"
}

func (multihop) Write(_ context.Context, w *Writer, recs []Record) error {
	items := make([][]byte, 0, len(recs))
	for _, r := range recs {
		s := r.Sample
		b, err := jsonObject(func(o *objectWriter) {
			o.value("id", s.ID)
			o.value("image", s.Image)
			o.value("width", r.Width)
			o.value("height", r.Height)
			o.value("question", s.Question)
			o.value("options", orEmpty(s.Options))
			o.value("answer", annotate.AnswerLetter(s.AnswerIndex))
			o.value("hop", s.Hop)
			o.value("categories", orEmpty(s.Categories))
			o.value("view", s.View)
			o.str("ego_subject", string(s.EgoSubject))
			if s.Box != nil {
				o.value("bbox", *s.Box)
				if r.Width > 0 && r.Height > 0 {
					o.value("bbox_1000", s.Box.To1000(r.Width, r.Height))
				}
			}
			optional(o, s)
		})
		if err != nil {
			return fmt.Errorf("sample %s: %w", s.ID, err)
		}
		items = append(items, b)
	}
	if err := w.WriteFile("multihopspatial.json", func(out io.Writer) error { return writeJSONList(out, items) }); err != nil {
		return err
	}
	for _, r := range recs {
		if err := w.CopyImage("images/"+r.Sample.Image, r); err != nil {
			return err
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Read imports multihopspatial.json with annotate.ImportMultihop; width, height and
// bbox_1000 stay in Extra.
func (multihop) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	return readImported(ctx, dir, "multihopspatial.json", func(r io.Reader) ([]annotate.Imported, []annotate.RecordError, error) {
		return annotate.ImportMultihop(r, annotate.ImportOptions{})
	})
}
