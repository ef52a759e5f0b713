package release

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// Round trips: for every format that can hold a sample, reading an export back
// (Reader.Read) gives the samples it was made of, field by field, except the fields
// the format cannot carry, which roundTrips names for each format.

// sampleField is a field of annotate.Sample as the round trip compares it.
type sampleField struct {
	name   string   // as roundTrips names it
	fields []string // the annotate.Sample fields it covers
	equal  func(got, want annotate.Sample) bool
	show   func(s annotate.Sample) any
}

// boxTolerance is how far a box corner may move in a round trip: formats write
// pixels with two decimals (multihopspatial), so x2 = x + w may be off by two
// roundings.
const boxTolerance = 0.01 + 1e-9

var sampleFields = []sampleField{
	{"id", []string{"ID"}, func(g, w annotate.Sample) bool { return g.ID == w.ID }, func(s annotate.Sample) any { return s.ID }},
	{"kind", []string{"Kind"}, func(g, w annotate.Sample) bool { return g.Kind == w.Kind }, func(s annotate.Sample) any { return s.Kind }},
	{"image", []string{"Image"}, func(g, w annotate.Sample) bool { return g.Image == w.Image }, func(s annotate.Sample) any { return s.Image }},
	// Samples of several images (issue 26): sequenceRecords. A format that holds one
	// image per sample leaves them out (Export counts them), so it passes trivially.
	{"images", []string{"MoreImages"}, func(g, w annotate.Sample) bool { return slices.Equal(g.MoreImages, w.MoreImages) },
		func(s annotate.Sample) any { return s.MoreImages }},
	{"image_labels", []string{"ImageLabels"}, func(g, w annotate.Sample) bool { return slices.Equal(g.Labels(), w.Labels()) },
		func(s annotate.Sample) any { return s.Labels() }},
	{"frames", []string{"Frames"}, func(g, w annotate.Sample) bool { return slices.Equal(g.Frames, w.Frames) },
		func(s annotate.Sample) any { return s.Frames }},
	{"box_image", []string{"BoxImage"}, func(g, w annotate.Sample) bool { return g.BoxImage == w.BoxImage },
		func(s annotate.Sample) any { return s.BoxImage }},
	{"question", []string{"Question"}, func(g, w annotate.Sample) bool { return g.Question == w.Question },
		func(s annotate.Sample) any { return s.Question }},
	{"question_tag", []string{"QuestionTag"}, func(g, w annotate.Sample) bool { return g.QuestionTag == w.QuestionTag },
		func(s annotate.Sample) any { return s.QuestionTag }},
	{"options", []string{"Options"}, func(g, w annotate.Sample) bool { return slices.Equal(g.Options, w.Options) },
		func(s annotate.Sample) any { return s.Options }},
	{"answer", []string{"AnswerIndex", "AnswerText", "AnswerNumber"}, func(g, w annotate.Sample) bool {
		return g.AnswerIndex == w.AnswerIndex && g.AnswerText == w.AnswerText && g.AnswerNumber == w.AnswerNumber
	}, func(s annotate.Sample) any {
		return fmt.Sprintf("index %d, text %q, number %v", s.AnswerIndex, s.AnswerText, s.AnswerNumber)
	}},
	{"categories", []string{"Categories"}, func(g, w annotate.Sample) bool { return slices.Equal(g.Categories, w.Categories) },
		func(s annotate.Sample) any { return s.Categories }},
	{"hop", []string{"Hop"}, func(g, w annotate.Sample) bool { return g.Hop == w.Hop }, func(s annotate.Sample) any { return s.Hop }},
	{"view", []string{"View"}, func(g, w annotate.Sample) bool { return g.View == w.View }, func(s annotate.Sample) any { return s.View }},
	{"ego_subject", []string{"EgoSubject"}, func(g, w annotate.Sample) bool { return g.EgoSubject == w.EgoSubject },
		func(s annotate.Sample) any { return s.EgoSubject }},
	{"box", []string{"Box"}, func(g, w annotate.Sample) bool {
		if g.Box == nil || w.Box == nil {
			return g.Box == nil && w.Box == nil
		}
		for i := range g.Box {
			if math.Abs(g.Box[i]-w.Box[i]) > boxTolerance {
				return false
			}
		}
		return true
	}, func(s annotate.Sample) any { return boxText(s.Box) }},
	{"scene", []string{"Scene"}, func(g, w annotate.Sample) bool { return g.Scene == w.Scene }, func(s annotate.Sample) any { return s.Scene }},
	{"steps", []string{"Steps"}, func(g, w annotate.Sample) bool { return slices.Equal(stepShape(g.Steps), stepShape(w.Steps)) },
		func(s annotate.Sample) any { return stepShape(s.Steps) }},
	// ToleranceText (a tolerance typed as text, which lint refuses) never reaches
	// an export; compared so that a format that made one up would be caught.
	{"tolerance", []string{"Tolerance", "ToleranceText"}, func(g, w annotate.Sample) bool {
		if g.ToleranceText != w.ToleranceText {
			return false
		}
		if g.Tolerance == nil || w.Tolerance == nil {
			return g.Tolerance == nil && w.Tolerance == nil
		}
		return *g.Tolerance == *w.Tolerance
	}, func(s annotate.Sample) any {
		if s.Tolerance == nil {
			return "none " + s.ToleranceText
		}
		return *s.Tolerance
	}},
	{"task", []string{"Task"}, func(g, w annotate.Sample) bool { return g.Task == w.Task }, func(s annotate.Sample) any { return s.Task }},
	{"split", []string{"Split"}, func(g, w annotate.Sample) bool { return g.Split == w.Split }, func(s annotate.Sample) any { return s.Split }},
	{"tags", []string{"Tags"}, func(g, w annotate.Sample) bool { return slices.Equal(g.Tags, w.Tags) }, func(s annotate.Sample) any { return s.Tags }},
	{"parent", []string{"Parent"}, func(g, w annotate.Sample) bool { return g.Parent == w.Parent }, func(s annotate.Sample) any { return s.Parent }},
	{"transform", []string{"Transform"}, func(g, w annotate.Sample) bool { return g.Transform == w.Transform }, func(s annotate.Sample) any { return s.Transform }},
}

// notCompared are the annotate.Sample fields no round trip compares: Extra is where
// a reader keeps what a format carries beyond the sample model.
var notCompared = []string{"Extra"}

// stepShape is a step graph without its step ids, which formats renumber: each
// step's content and the positions of its preconditions (an id naming no step is
// kept as it is).
func stepShape(steps []annotate.Step) []string {
	pos := map[string]int{}
	for i, st := range steps {
		if _, dup := pos[st.ID]; !dup {
			pos[st.ID] = i + 1
		}
	}
	out := make([]string, len(steps))
	for i, st := range steps {
		pre := make([]string, len(st.Precondition))
		for j, p := range st.Precondition {
			if n, ok := pos[p]; ok {
				pre[j] = fmt.Sprintf("#%d", n)
			} else {
				pre[j] = fmt.Sprintf("%q", p)
			}
		}
		out[i] = fmt.Sprintf("%q after [%s]", st.Content, strings.Join(pre, " "))
	}
	return out
}

// roundTrips lists every format that implements Reader, with the fields it does not
// carry and why; every other field must come back as it was exported.
var roundTrips = []struct {
	format Format
	drops  map[string]string
}{
	{native{}, nil},
	{multihop{}, map[string]string{
		"scene": "a MultihopSpatial record has no scene", "steps": "hop QA has no steps", "tolerance": "hop QA has no tolerance",
	}},
	{lmmsEval{}, map[string]string{
		"scene": "a MultihopSpatial record has no scene", "steps": "hop QA has no steps", "tolerance": "hop QA has no tolerance",
	}},
	{spatialQA{}, map[string]string{
		"image": "images are moved into scene folders NNNN-<type>-<k>", "scene": "a sample without a scene folder is given one",
		"question_tag": "step graphs only", "options": "step graphs only", "categories": "step graphs only", "hop": "step graphs only",
		"view": "step graphs only", "ego_subject": "step graphs only", "box": "a SpatiaLQA record has no box", "tolerance": "step graphs only",
	}},
	{vlmEvalKit{}, map[string]string{
		"question_tag": "no column", "ego_subject": "no column", "scene": "no column", "steps": "step graphs are not held",
		"tolerance": "open answers are not held", "tags": "no column", "parent": "no column", "transform": "no column",
	}},
	{spatialScore{}, map[string]string{
		"question_tag": "no field", "scene": "no field", "steps": "step graphs are not held", "tolerance": "no field",
		"tags": "no field", "parent": "no field", "transform": "no field",
	}},
	{hfImageFolder{}, map[string]string{
		"tolerance": "no column (a float column must never be null)", "tags": "no column (a list empty in every row of a split types as list<null>)", "transform": "no column",
	}},
}

// boxOnly are the formats that hold boxes, not samples, and so cannot be read back.
var boxOnly = []Format{coco{}}

// Every Sample field but Extra is compared by exactly one sampleField, so a field
// added to the model must be added here (and to the formats that can carry it).
func TestRoundTripCoversEverySampleField(t *testing.T) {
	covered := map[string]string{}
	for _, f := range sampleFields {
		for _, name := range f.fields {
			if prev, ok := covered[name]; ok {
				t.Errorf("Sample.%s is compared by %s and %s", name, prev, f.name)
			}
			covered[name] = f.name
		}
	}
	typ := reflect.TypeFor[annotate.Sample]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		if _, ok := covered[name]; !ok && !slices.Contains(notCompared, name) {
			t.Errorf("Sample.%s is not compared by the round trip: add it to sampleFields", name)
		}
		delete(covered, name)
	}
	for name := range covered {
		t.Errorf("sampleFields names Sample.%s, which does not exist", name)
	}
	known := map[string]bool{}
	for _, f := range sampleFields {
		known[f.name] = true
	}
	for _, rt := range roundTrips {
		for name := range rt.drops {
			if !known[name] {
				t.Errorf("%s drops %q, which is not a compared field", rt.format.Name(), name)
			}
		}
	}
}

// Every format can be read back, or is box-only; every reader has a round trip.
func TestEveryFormatReadsBackOrIsBoxOnly(t *testing.T) {
	tested := map[string]bool{}
	for _, rt := range roundTrips {
		tested[rt.format.Name()] = true
	}
	for _, f := range Formats() {
		_, reader := f.(Reader)
		box := slices.ContainsFunc(boxOnly, func(b Format) bool { return b.Name() == f.Name() })
		switch {
		case reader && box:
			t.Errorf("%s is listed as box-only but implements Reader", f.Name())
		case !reader && !box:
			t.Errorf("%s implements no Reader and is not box-only: give it a Read, or list it in boxOnly", f.Name())
		case reader && !tested[f.Name()]:
			t.Errorf("%s implements Reader but has no round trip: add it to roundTrips", f.Name())
		case box && !strings.Contains(f.Layout(), "box-only"):
			t.Errorf("%s is box-only but its Layout does not say so: %q", f.Name(), f.Layout())
		}
	}
}

// roundTripRelease is realFixture (every kind, an EXIF-rotated JPEG, step ids that
// are not step1…N, fractional boxes, a train/test split) with the edge cases the
// formats hold: hop QA with category tags, an ego subject, a task, unicode text and
// boxes with three decimals; a 6-option mcq; a judgment answered no with a task;
// numeric and text open answers; a step graph whose steps have several
// preconditions.
func roundTripRelease(t *testing.T) ([]Record, map[string][]byte) {
	t.Helper()
	recs, images := realFixture(t)
	rec := func(s annotate.Sample) Record {
		size := map[string][2]int{"0001-office-1/a.jpg": {641, 479}, "0002-kitchen-1/b.jpg": {1200, 800}, "misc/c.png": {33, 17}}[s.Image]
		return Record{Sample: s, Width: size[0], Height: size[1], ImageSHA256: sha(images[s.Image])}
	}
	cats := func(c ...annotate.Category) []annotate.Category { return c }
	recs = append(recs,
		rec(annotate.Sample{ID: "mh-0004", Kind: annotate.KindHopQA, Image: "0001-office-1/a.jpg",
			Question:    "Which round object on the table is farthest from the pamphlet?",
			QuestionTag: "Which <ATT>round object</ATT> <POS>on the table</POS> is <REL>farthest from the pamphlet</REL>?",
			Options:     []string{"a cup, red", "the plate", "the bowl"}, AnswerIndex: 1, Categories: cats(annotate.CatAtt, annotate.CatPos, annotate.CatRel),
			Hop: 3, View: annotate.ViewExo, Box: &annotate.Box{10.25, 20.75, 300.5, 400.125}, Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "mh-0005", Kind: annotate.KindHopQA, Image: "0002-kitchen-1/b.jpg",
			Question: "From the perspective of the woman at the counter — the one in the café apron — which object is on her right?",
			Options:  []string{"la tasse de thé", "ein Bücherregal", "книга", "茶碗 🍵"}, AnswerIndex: 3, Categories: cats(annotate.CatPos),
			Hop: 1, View: annotate.ViewEgo, EgoSubject: annotate.EgoReal, Box: &annotate.Box{100.5, 0.25, 1199.75, 799.5}, Split: annotate.SplitTrain}),
		rec(annotate.Sample{ID: "mh-0006", Kind: annotate.KindHopQA, Image: "0002-kitchen-1/b.jpg",
			Question: "Which red object is hidden behind the kettle?", Options: []string{"the apple", "the mug"}, AnswerIndex: 0,
			Categories: cats(annotate.CatAtt, annotate.CatRel), Hop: 2, View: annotate.ViewExo, Task: "occlusion",
			Box: &annotate.Box{1, 2, 3.5, 4.5}, Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "mc-0002", Kind: annotate.KindMCQ, Image: "0001-office-1/a.jpg", Question: "How many chairs stand around the desk?",
			Options: []string{"no chair", "one chair", "two chairs", "three chairs", "four chairs", "five chairs"}, AnswerIndex: 5,
			Task: "counting", Split: annotate.SplitTrain}),
		rec(annotate.Sample{ID: "yn-0002", Kind: annotate.KindJudgment, Image: "0002-kitchen-1/b.jpg", Question: "Is the kettle on the stove?",
			AnswerText: "no", Task: "presence", Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "op-0002", Kind: annotate.KindOpen, Image: "0002-kitchen-1/b.jpg", Question: "How many apples are in the bowl?",
			AnswerText: "3", AnswerNumber: true, Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "op-0003", Kind: annotate.KindOpen, Image: "misc/c.png", Question: "What colour is the chair?",
			AnswerText: "dark green", Split: annotate.SplitTest}),
		rec(annotate.Sample{ID: "sq-0003", Kind: annotate.KindStepGraph, Image: "0002-kitchen-1/b.jpg", Scene: "0002-kitchen-1",
			Question: "Öffne die Schublade unter dem Herd", Steps: []annotate.Step{
				{ID: "pick", Content: "Pick up the pan from the floor"},
				{ID: "open", Content: "Move the mat — 引き出し の前"},
				{ID: "move", Content: "Open the drawer", Precondition: []string{"open", "pick"}},
			}, Task: "kitchen", Split: annotate.SplitTest, Tags: []string{"drawer", "pan"}}),
	)
	recs = append(recs, sequenceRecords(t, images)...)
	return recs, images
}

func TestRoundTrip(t *testing.T) {
	recs, images := roundTripRelease(t)
	for _, rt := range roundTrips {
		t.Run(rt.format.Name(), func(t *testing.T) {
			reader, ok := rt.format.(Reader)
			if !ok {
				t.Fatalf("%s implements no Reader", rt.format.Name())
			}
			want := map[string]annotate.Sample{}
			for _, r := range recs {
				if rt.format.Holds(r.Sample) {
					want[r.Sample.ID] = r.Sample
				}
			}
			dir, m := exportTo(t, rt.format, recs, images)
			if m.Counts.Samples != len(want) {
				t.Fatalf("the export holds %d samples, the format %d of the release", m.Counts.Samples, len(want))
			}
			got, err := reader.Read(context.Background(), dir)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			seen := map[string]bool{}
			for _, g := range got {
				w, ok := want[g.ID]
				switch {
				case seen[g.ID]:
					t.Errorf("%s read back twice", g.ID)
					continue
				case !ok:
					t.Errorf("read back %s, which was not exported", g.ID)
					continue
				}
				seen[g.ID] = true
				for _, f := range sampleFields {
					if _, dropped := rt.drops[f.name]; !dropped && !f.equal(g, w) {
						t.Errorf("%s: %s read back as %v, exported %v", g.ID, f.name, f.show(g), f.show(w))
					}
				}
			}
			for id := range want {
				if !seen[id] {
					t.Errorf("%s was exported but not read back", id)
				}
			}
		})
	}
}

// An export of no sample the format holds reads back as no samples.
func TestRoundTripOfNothing(t *testing.T) {
	recs, images := roundTripRelease(t)
	for _, rt := range roundTrips {
		t.Run(rt.format.Name(), func(t *testing.T) {
			var none []Record
			for _, r := range recs {
				if !rt.format.Holds(r.Sample) {
					none = append(none, r)
				}
			}
			dir, m := exportTo(t, rt.format, none, images)
			if m.Counts.Samples != 0 {
				t.Fatalf("the export holds %d samples", m.Counts.Samples)
			}
			got, err := rt.format.(Reader).Read(context.Background(), dir)
			if err != nil || len(got) != 0 {
				t.Errorf("read %d samples, %v; want none", len(got), err)
			}
		})
	}
}
