package bench

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// batchHop is a generated hop question that lints clean on a 64×48 image.
func batchHop(id, image, question string) annotate.Sample {
	return annotate.Sample{ID: id, Kind: annotate.KindHopQA, Image: image, Question: question, QuestionTag: "<REL>" + question + "</REL>",
		Options: []string{"the mug", "the lamp", "the book", "the pen"}, AnswerIndex: 1,
		Categories: []annotate.Category{annotate.CatRel}, Hop: 1, View: annotate.ViewExo, Box: &annotate.Box{10, 10, 40, 30}}
}

// The import audit of a generated batch: each kind of finding leaves its record
// out with the line and the check; clean records stay in; findings are by line.
func TestBatchAudit(t *testing.T) {
	const sha = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	images := map[string]Image{
		"a.jpg": {Root: "/r", RelPath: "a.jpg", SHA256: sha},
		"b.jpg": {Root: "/r", RelPath: "b.jpg", SHA256: sha},
		"c.jpg": {Root: "/r", RelPath: "c.jpg", SHA256: sha},
	}
	sizes := map[string]Dimensions{"a.jpg": {64, 48}, "b.jpg": {64, 48}, "c.jpg": {64, 48}}
	ok := ImageCheck{SHA256: sha}
	existing := []annotate.Sample{batchHop("p-1", "a.jpg", "Which object is nearest the door?")}
	type finding struct {
		line  int
		id    string
		check string
	}
	tests := []struct {
		name    string
		records []annotate.Sample // lines 1, 2, …
		taken   map[string]bool
		hashes  map[string]ImageCheck
		want    []finding
		in      []string // ids left in
	}{
		{"clean", []annotate.Sample{batchHop("g1", "a.jpg", "Which object is left of the lamp?"), batchHop("g2", "b.jpg", "Which object is left of the lamp?")},
			nil, map[string]ImageCheck{"a.jpg": ok, "b.jpg": ok}, nil, []string{"g1", "g2"}},
		{"no id", []annotate.Sample{batchHop("", "a.jpg", "Which object is left of the lamp?")}, nil, nil,
			[]finding{{1, "", CheckLint}}, nil},
		{"id taken by the project", []annotate.Sample{batchHop("p-7", "a.jpg", "Which object is left of the lamp?")}, map[string]bool{"p-7": true}, nil,
			[]finding{{1, "p-7", CheckIDTaken}}, nil},
		{"id twice in the file", []annotate.Sample{batchHop("g1", "a.jpg", "Which object is left of the lamp?"), batchHop("g1", "b.jpg", "Which object is right of the lamp?")},
			nil, map[string]ImageCheck{"a.jpg": ok, "b.jpg": ok}, []finding{{2, "g1", CheckIDTaken}}, []string{"g1"}},
		{"lint error", []annotate.Sample{batchHop("g1", "a.jpg", "")}, nil, map[string]ImageCheck{"a.jpg": ok},
			[]finding{{1, "g1", CheckLint}}, nil},
		{"image not in the project", []annotate.Sample{batchHop("g1", "nowhere.jpg", "Which object is left of the lamp?")}, nil, nil,
			[]finding{{1, "g1", CheckImageMissing}}, nil},
		{"image file missing", []annotate.Sample{batchHop("g1", "a.jpg", "Which object is left of the lamp?")}, nil, map[string]ImageCheck{"a.jpg": {Missing: true}},
			[]finding{{1, "g1", CheckImageMissing}}, nil},
		{"image file changed", []annotate.Sample{batchHop("g1", "a.jpg", "Which object is left of the lamp?"), batchHop("g2", "b.jpg", "Which object is left of the lamp?")},
			nil, map[string]ImageCheck{"a.jpg": ok, "b.jpg": {SHA256: strings.Repeat("b", 64)}}, []finding{{2, "g2", CheckImageHash}}, []string{"g1"}},
		{"same question twice: the first stays", []annotate.Sample{batchHop("g1", "b.jpg", "Which object is left of the lamp?"), batchHop("g2", "b.jpg", "Which object is left of the lamp?")},
			nil, map[string]ImageCheck{"b.jpg": ok}, []finding{{2, "g2", CheckDuplicate}}, []string{"g1"}},
		{"a sample's question: every record goes", []annotate.Sample{batchHop("g1", "a.jpg", "Which object is nearest the door?"), batchHop("g2", "c.jpg", "Which object is left of the lamp?")},
			nil, map[string]ImageCheck{"a.jpg": ok, "c.jpg": ok}, []finding{{1, "g1", CheckDuplicate}}, []string{"g2"}},
		{"findings by line", []annotate.Sample{batchHop("g1", "b.jpg", "Which object is left of the lamp?"), batchHop("g2", "b.jpg", "Which object is left of the lamp?"), batchHop("", "a.jpg", "x")},
			nil, map[string]ImageCheck{"b.jpg": ok}, []finding{{2, "g2", CheckDuplicate}, {3, "", CheckLint}}, []string{"g1"}},
	}
	for _, tt := range tests {
		in := ImportBatchInput{Name: "b"}
		for i, s := range tt.records {
			in.Records = append(in.Records, annotate.Imported{Line: i + 1, Sample: s})
		}
		a, err := NewBatchAudit(context.Background(), in, tt.taken, sizes, images)
		if err != nil {
			t.Fatal(err)
		}
		a.CheckHashes(tt.hashes)
		a.CheckDuplicates(existing)
		var got []finding
		for _, f := range a.Findings() {
			var line int
			if _, err := fmt.Sscanf(f.Message, "line %d:", &line); err != nil {
				t.Errorf("%s: finding %q does not start with its line", tt.name, f.Message)
			}
			if f.Severity != SeverityError {
				t.Errorf("%s: finding %v is not an error", tt.name, f)
			}
			got = append(got, finding{line, f.SampleID, f.Check})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: findings %v, want %v (%v)", tt.name, got, tt.want, a.Findings())
		}
		var kept []string
		for i, r := range in.Records {
			if !a.LeftOut(i) {
				kept = append(kept, r.Sample.ID)
			}
		}
		if !reflect.DeepEqual(kept, tt.in) {
			t.Errorf("%s: left in %v, want %v", tt.name, kept, tt.in)
		}
	}
}

func TestBatchAuditStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in := ImportBatchInput{Records: []annotate.Imported{{Line: 1, Sample: batchHop("g1", "a.jpg", "Which?")}}}
	if _, err := NewBatchAudit(ctx, in, nil, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled audit: %v, want context.Canceled", err)
	}
}

// CheckRecord names each failing rule once with every message, and remembers
// the image sizes the lint read (known or not) for the store to check again.
func TestCheckRecord(t *testing.T) {
	twoBlank := batchHop("g1", "a.jpg", "Which object is left of the lamp?")
	twoBlank.Options = []string{"", "", "the book", "the pen"}
	tooBig := batchHop("g2", "a.jpg", "Which object is left of the lamp?")
	tooBig.Box = &annotate.Box{10, 10, 400, 300}
	tests := []struct {
		name  string
		s     annotate.Sample
		sizes map[string]Dimensions
		errs  []string
		msgs  int
		used  []UsedSize
	}{
		{"clean", batchHop("g0", "a.jpg", "Which object is left of the lamp?"), map[string]Dimensions{"a.jpg": {64, 48}}, nil, 0,
			[]UsedSize{{"a.jpg", Dimensions{64, 48}, true}}},
		{"a rule twice", twoBlank, map[string]Dimensions{"a.jpg": {64, 48}}, []string{"option-empty"}, 2,
			[]UsedSize{{"a.jpg", Dimensions{64, 48}, true}}},
		{"box past the image", tooBig, map[string]Dimensions{"a.jpg": {64, 48}}, []string{"box-invalid"}, 1,
			[]UsedSize{{"a.jpg", Dimensions{64, 48}, true}}},
		{"image unknown: the box is not checked against it", tooBig, nil, nil, 0,
			[]UsedSize{{"a.jpg", Dimensions{}, false}}},
	}
	for _, tt := range tests {
		c := CheckRecord(tt.s, tt.sizes, nil)
		if !reflect.DeepEqual(c.Errs, tt.errs) || len(c.Msgs) != tt.msgs || !reflect.DeepEqual(c.Used, tt.used) {
			t.Errorf("%s: CheckRecord = %+v, want errors %v, %d messages, used %v", tt.name, c, tt.errs, tt.msgs, tt.used)
		}
	}
}
