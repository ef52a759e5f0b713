package release

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// Format is a file layout a frozen release can be exported in.
type Format interface {
	// Name is the format's name, as bwctl and MANIFEST.json spell it: "native",
	// "multihopspatial", ...
	Name() string
	// Holds reports whether the format can hold s; Export leaves out the samples it
	// cannot and counts them in Manifest.Skipped.
	Holds(s annotate.Sample) bool
	// Layout says in words where the format puts what, for MANIFEST.json.
	Layout() string
	// Write writes recs (the samples it holds, in sample-id order) through w: every
	// file but MANIFEST.json, calling w.Step once per record.
	Write(ctx context.Context, w *Writer, recs []Record) error
}

// Reader is implemented by the formats whose exports can be read back: every
// format but the box-only coco. A format gives back the fields it can carry
// (roundtrip_test.go lists, per format, the ones it cannot).
type Reader interface {
	// Read reads the samples of an export in dir, in the order the export holds
	// them. Image paths are as the export writes them, relative to its images/
	// folder, or, where the export embeds or renames the images (vlmevalkit,
	// hf-imagefolder), the project paths it records in source_image; fields the
	// format carries beyond the sample model are kept in Extra.
	Read(ctx context.Context, dir string) ([]annotate.Sample, error)
}

// formats lists every format in the order Formats gives them: add a new format's
// value here.
var formats = []Format{native{}, multihop{}, lmmsEval{}, spatialQA{}, vlmEvalKit{}, hfImageFolder{}, coco{}, spatialScore{}}

// Formats lists every export format, in a fixed order: native first.
func Formats() []Format { return slices.Clone(formats) }

// variants are formats Lookup finds that Formats does not list: a way of
// writing a listed format that a flag asks for (bwctl export --circular).
var variants = []Format{vlmEvalKit{circular: true}}

// Lookup finds a format by its name.
func Lookup(name string) (Format, error) {
	for _, f := range slices.Concat(formats, variants) {
		if f.Name() == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown export format %q (one of %s)", name, formatNames())
}

func formatNames() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name()
	}
	return strings.Join(names, ", ")
}
