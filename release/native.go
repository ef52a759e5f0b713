package release

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/benchwright/benchwright/annotate"
)

// native is samples.jsonl (spec §5) and images/.
type native struct{}

func (native) Name() string { return "native" }

// Holds takes every kind.
func (native) Holds(annotate.Sample) bool { return true }

func (native) Layout() string {
	return "samples.jsonl holds one sample per line in Benchwright's own record format (a sequence's images in order under images, with image_labels, " +
		"box_image and each video frame's provenance in frames); images/ holds every image once, and record image paths are relative to it"
}

func (native) Write(_ context.Context, w *Writer, recs []Record) error {
	err := w.WriteFile("samples.jsonl", func(out io.Writer) error {
		for _, r := range recs {
			b, err := r.Sample.MarshalJSON()
			if err != nil {
				return err
			}
			if _, err := out.Write(append(b, '\n')); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range recs {
		// Every image of a sequence, each once however many samples show it
		// (CopyImage writes a destination once), so MANIFEST.json lists it once.
		ims, err := r.imageRecords()
		if err != nil {
			return err
		}
		for _, ir := range ims {
			if err := w.CopyImage("images/"+ir.Sample.Image, ir); err != nil {
				return err
			}
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Read decodes samples.jsonl; a record with a schema error is an error naming its
// line.
func (native) Read(ctx context.Context, dir string) ([]annotate.Sample, error) {
	f, err := os.Open(filepath.Join(dir, "samples.jsonl"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []annotate.Sample
	err = annotate.ReadJSONL(f, func(_ int, raw []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, fs := annotate.ParseRecord(raw)
		for _, fd := range fs {
			if fd.Severity == annotate.SeverityError {
				return errors.New(fd.Message)
			}
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "samples.jsonl"), err)
	}
	return out, nil
}
