package annotate_test

// Fuzz targets for what reads untrusted input: native JSONL, the MultihopSpatial and
// SpatiaLQA importers, the lint rules and the step-graph checks (release manifests
// are fuzzed in package release). Their seed corpora are checked in under
// testdata/fuzz/FuzzX/ and run with every go test; scripts/fuzz runs each target for
// a while. The readers must also stay within an allocation bound linear in their
// input (allocBound).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// checkFindings holds for every finding list: known rules and severities, the
// sample's id, and the MergeFindings order (merging again changes nothing).
func checkFindings(t *testing.T, id string, fs []annotate.Finding) {
	t.Helper()
	for _, f := range fs {
		if !slices.Contains(annotate.Rules, f.Rule) {
			t.Errorf("finding with unknown rule %q: %+v", f.Rule, f)
		}
		if f.Severity != annotate.SeverityError && f.Severity != annotate.SeverityWarning {
			t.Errorf("finding with severity %q: %+v", f.Severity, f)
		}
		if f.Sample != id {
			t.Errorf("finding names sample %q, the record is %q", f.Sample, id)
		}
		if f.Message == "" {
			t.Errorf("finding without a message: %+v", f)
		}
	}
	if again := annotate.MergeFindings(fs); !slices.Equal(again, fs) {
		t.Errorf("findings not in merged order:\n%+v\nmerged:\n%+v", fs, again)
	}
}

func fuzzSizes(string) (int, int, bool) { return 640, 480, true }

// Allocation bound of the readers: fixed bytes plus perByte per input byte, garbage
// included. A record costs a few kilobytes of short-lived objects whatever its size
// (findings, maps: "{}" on a line of its own costs about 820 bytes per input byte),
// so the bound is generous per byte; what it catches is work that grows faster
// than the input, such as the square of it.
const (
	allocFixed   = 4 << 20
	allocPerByte = 1024
)

// allocBound runs fn and fails t when it allocated more than the bound for an input
// of n bytes. The heap counter is process-wide; fuzz workers run one input at a time.
func allocBound(t *testing.T, n int, fn func()) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(allocFixed+allocPerByte*n); got > limit {
		t.Errorf("allocated %d bytes for %d bytes of input, above the bound of %d", got, n, limit)
	}
}

// FuzzReadJSONL reads native JSON Lines: ReadJSONL hands over well-formed JSON with
// increasing line numbers or fails with a *LineError; ParseRecord never panics; a
// record without schema errors encodes, and decoding that encoding gives a record
// that encodes to the same bytes (the canonical form is stable).
func FuzzReadJSONL(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		allocBound(t, len(data), func() {
			annotate.ReadJSONL(bytes.NewReader(data), func(_ int, raw []byte) error {
				annotate.ParseRecord(raw)
				return nil
			})
		})
		last := 0
		err := annotate.ReadJSONL(bytes.NewReader(data), func(line int, raw []byte) error {
			if line <= last {
				t.Errorf("line %d after line %d", line, last)
			}
			last = line
			if !json.Valid(raw) {
				t.Errorf("line %d handed over malformed JSON %q", line, raw)
			}
			s, fs := annotate.ParseRecord(raw)
			checkFindings(t, s.ID, fs)
			if annotate.HasErrors(fs) {
				return nil
			}
			enc, err := s.MarshalJSON()
			if err != nil {
				t.Fatalf("line %d: a record without schema errors does not encode: %v\n%q", line, err, raw)
			}
			s2, fs2 := annotate.ParseRecord(enc)
			if annotate.HasErrors(fs2) {
				t.Fatalf("line %d: its own encoding has schema errors %+v\nrecord %q\nencoding %q", line, fs2, raw, enc)
			}
			enc2, err := s2.MarshalJSON()
			if err != nil || !bytes.Equal(enc, enc2) {
				t.Fatalf("line %d: encoding is not stable (%v)\nfirst  %s\nsecond %s", line, err, enc, enc2)
			}
			return nil
		})
		var le *annotate.LineError
		if err != nil && (!errors.As(err, &le) || le.Line < 1) {
			t.Errorf("ReadJSONL error %v is not a *LineError naming a line", err)
		}
	})
}

// FuzzImportMultihop converts MultihopSpatial files: it never panics, every sample
// is hop_qa with its own id and encodes, and every bad record names its place.
func FuzzImportMultihop(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var ok []annotate.Imported
		var bad []annotate.RecordError
		var err error
		allocBound(t, len(data), func() {
			ok, bad, err = annotate.ImportMultihop(bytes.NewReader(data), annotate.ImportOptions{ImageSize: fuzzSizes})
		})
		checkImported(t, annotate.KindHopQA, ok, bad, err)
	})
}

// FuzzImportSpatiaLQA is FuzzImportMultihop for SpatiaLQA files; the step graphs of
// what it imports are checked without panicking too.
func FuzzImportSpatiaLQA(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var ok []annotate.Imported
		var bad []annotate.RecordError
		var err error
		allocBound(t, len(data), func() { ok, bad, err = annotate.ImportSpatiaLQA(bytes.NewReader(data)) })
		checkImported(t, annotate.KindStepGraph, ok, bad, err)
		for _, im := range ok {
			annotate.CheckGraph(im.Sample.Steps)
			annotate.Layers(im.Sample.Steps)
		}
	})
}

func checkImported(t *testing.T, kind annotate.Kind, ok []annotate.Imported, bad []annotate.RecordError, err error) {
	t.Helper()
	if err != nil && !strings.HasPrefix(err.Error(), "line ") {
		t.Errorf("file error %q does not name its line", err)
	}
	seen := map[string]bool{}
	for _, im := range ok {
		if im.Sample.Kind != kind || im.Line < 1 {
			t.Errorf("imported %s at line %d, want kind %s", im.Sample.Kind, im.Line, kind)
		}
		if seen[im.Sample.ID] {
			t.Errorf("id %q imported twice", im.Sample.ID)
		}
		seen[im.Sample.ID] = true
		if _, err := im.Sample.MarshalJSON(); err != nil {
			t.Errorf("imported sample %q does not encode: %v", im.Sample.ID, err)
		}
	}
	for _, b := range bad {
		if b.Index < 0 || b.Line < 1 || b.Err == nil {
			t.Errorf("bad record without a place or reason: %+v", b)
		}
	}
}

// FuzzLint lints whatever ParseRecord makes of the input: it never panics, findings
// are well formed, and linting is deterministic.
func FuzzLint(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, handWritten bool) {
		s, _ := annotate.ParseRecord(data)
		for _, env := range []annotate.LintEnv{{HandWritten: handWritten}, {HandWritten: handWritten, ImageSize: fuzzSizes}} {
			fs := annotate.Lint(s, env)
			checkFindings(t, s.ID, fs)
			if again := annotate.Lint(s, env); !slices.Equal(fs, again) {
				t.Errorf("Lint is not deterministic:\n%+v\n%+v", fs, again)
			}
		}
	})
}

// stepsFrom turns fuzz bytes into a step list: the first byte is the number of steps
// (0-11); then one byte per step may blank or repeat its id or blank its content; the
// remaining byte pairs add preconditions (a step, and an id that may be unknown).
func stepsFrom(data []byte) []annotate.Step {
	if len(data) == 0 {
		return nil
	}
	n := int(data[0]) % 12
	data = data[1:]
	ids := func(b byte) string {
		if b%16 == 15 {
			return "ghost"
		}
		return fmt.Sprintf("step%d", int(b)%16%max(n, 1)+1)
	}
	steps := make([]annotate.Step, n)
	for i := range steps {
		steps[i] = annotate.Step{ID: fmt.Sprintf("step%d", i+1), Content: fmt.Sprintf("do thing %d", i+1)}
		if len(data) == 0 {
			continue
		}
		switch b := data[0]; {
		case b < 8:
			steps[i].ID = ""
		case b < 16:
			steps[i].ID = ids(b)
		case b < 20:
			steps[i].Content = " "
		}
		data = data[1:]
	}
	for n > 0 && len(data) >= 2 {
		to := int(data[0]) % n
		steps[to].Precondition = append(steps[to].Precondition, ids(data[1]))
		data = data[2:]
	}
	return steps
}

// FuzzStepGraph checks that CheckGraph, Layers and RedundantEdges never panic and
// agree: Layers places every distinct id once; without a step-cycle finding every
// precondition sits in an earlier column and the step-transitive findings are
// exactly RedundantEdges; with one, there are no redundant edges.
func FuzzStepGraph(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		steps := stepsFrom(data)
		fs := annotate.CheckGraph(steps)
		layers := annotate.Layers(steps)
		redundant := annotate.RedundantEdges(steps)

		col := map[string]int{}
		for c, layer := range layers {
			if len(layer) == 0 {
				t.Errorf("column %d is empty: %v", c, layers)
			}
			for _, id := range layer {
				if _, dup := col[id]; dup || id == "" {
					t.Errorf("Layers places %q twice or without an id: %v", id, layers)
				}
				col[id] = c
			}
		}
		known := map[string]bool{}
		for _, s := range steps {
			if s.ID != "" {
				known[s.ID] = true
			}
		}
		if len(col) != len(known) {
			t.Errorf("Layers covers %d of %d step ids: %v", len(col), len(known), layers)
		}
		cyclic, transitive := false, 0
		for _, f := range fs {
			switch f.Rule {
			case annotate.RuleStepCycle:
				cyclic = true
			case annotate.RuleStepTransitive:
				transitive++
			}
		}
		if cyclic {
			if redundant != nil || transitive > 0 {
				t.Errorf("a cyclic graph has redundant edges %v / %d transitive findings", redundant, transitive)
			}
			return
		}
		seen := map[string]bool{}
		for _, s := range steps {
			if s.ID == "" || seen[s.ID] {
				continue
			}
			seen[s.ID] = true
			for _, p := range s.Precondition {
				if known[p] && p != s.ID && col[p] >= col[s.ID] {
					t.Errorf("no cycle found, but precondition %s (column %d) is not left of %s (column %d)\nsteps %+v", p, col[p], s.ID, col[s.ID], steps)
				}
			}
		}
		if len(redundant) != transitive {
			t.Errorf("%d redundant edges %v, %d step-transitive findings", len(redundant), redundant, transitive)
		}
		for _, e := range redundant {
			if !slices.ContainsFunc(fs, func(f annotate.Finding) bool {
				return f.Rule == annotate.RuleStepTransitive && strings.Contains(f.Message, e.String())
			}) {
				t.Errorf("redundant edge %s has no step-transitive finding: %+v", e, fs)
			}
			fewer := annotate.RemovePrecondition(steps, e.From, e.To)
			if slices.ContainsFunc(annotate.CheckGraph(fewer), func(f annotate.Finding) bool { return f.Rule == annotate.RuleStepCycle }) {
				t.Errorf("removing the redundant edge %s made a cycle", e)
			}
		}
	})
}

// FuzzImportVLMEvalKit reads VLMEvalKit TSVs: it never panics, stays within the
// allocation bound, names the row of every bad record, and hands back an image
// for every sample it imports, under a path inside its folder.
func FuzzImportVLMEvalKit(f *testing.F) {
	f.Add([]byte("index\timage\tquestion\tA\tB\tanswer\n1\tiVBORw0KGgo=\tWhich?\tx\ty\tA\n2\t1\tOr?\tp\tq\tB\n"))
	f.Add([]byte("\"index\"\t\"image\"\t\"question\"\t\"answer\"\n\"1\"\t\"NA\"\t\"Is it?\"\t\"Yes\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ok []annotate.Imported
		var images map[string][]byte
		var bad []annotate.RecordError
		var err error
		allocBound(t, len(data), func() {
			ok, images, bad, err = annotate.ImportVLMEvalKitTSV(bytes.NewReader(data), annotate.VLMEvalKitOptions{Folder: "in"})
		})
		if err != nil {
			return
		}
		for _, im := range ok {
			if _, has := images[im.Sample.Image]; !has || !strings.HasPrefix(im.Sample.Image, "in/") {
				t.Errorf("sample %s names image %q, which is not extracted under in/", im.Sample.ID, im.Sample.Image)
			}
			if err := annotate.CheckID(im.Sample.ID); err != nil {
				t.Errorf("imported an unusable id: %v", err)
			}
		}
		for _, b := range bad {
			if b.Line < 1 || b.Err == nil {
				t.Errorf("bad row without a place or reason: %+v", b)
			}
		}
	})
}

// FuzzImportCOCO reads COCO instances files as FuzzImportMultihop reads its input.
func FuzzImportCOCO(f *testing.F) {
	f.Add([]byte(`{"images":[{"id":1,"file_name":"a.jpg","width":640,"height":480}],"annotations":[{"id":1,"image_id":1,"category_id":1,"bbox":[1,2,30,40]}],"categories":[{"id":1,"name":"cup"}]}`))
	f.Add([]byte(`{"images":[],"annotations":[{"id":0,"image_id":9,"category_id":1,"bbox":[1,2,-3,4],"iscrowd":1}],"categories":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ok []annotate.Imported
		var bad []annotate.RecordError
		var err error
		allocBound(t, len(data), func() {
			ok, bad, err = annotate.ImportCOCO(bytes.NewReader(data), annotate.ImportOptions{ImageSize: fuzzSizes})
		})
		checkImported(t, annotate.KindHopQA, ok, bad, err)
	})
}

// FuzzImportLabelStudio reads Label Studio JSON exports as FuzzImportMultihop
// reads its input; tasks without boxes may become other kinds.
func FuzzImportLabelStudio(f *testing.F) {
	f.Add([]byte(`[{"id":1,"data":{"image":"/data/upload/3/ab12-a.jpg"},"annotations":[{"id":1,"result":[{"type":"rectanglelabels","original_width":640,"original_height":480,"value":{"x":10,"y":10,"width":20,"height":20,"rotation":0,"rectanglelabels":["cup"]}}]}]}]`))
	f.Add([]byte(`[{"id":2,"data":{"image":"s3://b/x.jpg","options":["a","b"]},"annotations":[{"was_cancelled":true,"result":[]},{"result":[{"type":"choices","from_name":"answer","value":{"choices":["b"]}}]}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var ok []annotate.Imported
		var bad []annotate.RecordError
		var err error
		allocBound(t, len(data), func() { ok, bad, err = annotate.ImportLabelStudio(bytes.NewReader(data)) })
		if err != nil && !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("file error %q does not name its line", err)
		}
		seen := map[string]bool{}
		for _, im := range ok {
			if seen[im.Sample.ID] || im.Line < 1 || !im.Sample.Kind.Valid() {
				t.Errorf("imported %+v at line %d twice or without a kind", im.Sample.ID, im.Line)
			}
			seen[im.Sample.ID] = true
			if b := im.Sample.Box; b != nil && (b[0] > b[2] || b[1] > b[3] || b[0] < 0 || b[1] < 0) {
				t.Errorf("box %v is not ordered pixels", *b)
			}
		}
		for _, b := range bad {
			if b.Line < 1 || b.Err == nil {
				t.Errorf("bad record without a place or reason: %+v", b)
			}
		}
	})
}
