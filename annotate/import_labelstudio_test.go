package annotate

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// labelStudioFile is a Label Studio JSON export: the first task as the Label Studio
// SDK's own test export has it (tests/custom/converter/data/test_export_coco), the
// others in every situation an import meets.
const labelStudioFile = `[
 {"id": 175210175, "data": {"image": "/data/upload/3/ab12cd34-test_image1.jpg"}, "predictions": [],
  "annotations": [{"id": 60205850, "was_cancelled": false, "ground_truth": false, "created_at": "2025-05-02T08:49:24.923036Z",
   "completed_by": 308, "result": [
    {"id": "G1wj68-AlF", "type": "rectanglelabels", "from_name": "rectangle_label", "to_name": "image",
     "original_width": 500, "original_height": 320, "image_rotation": 0,
     "value": {"x": 31.941923774954628, "y": 4.113475177304964, "width": 6.352087114337568, "height": 9.929078014184398,
               "rotation": 0, "rectanglelabels": ["rectangle_label"]}},
    {"id": "ceW2r_kjT_", "type": "polygonlabels", "from_name": "polygon_label", "to_name": "image", "original_width": 500, "original_height": 320,
     "value": {"closed": true, "points": [[41.7, 3.5], [41.5, 12.1], [45.3, 12.4]], "polygonlabels": ["polygon_label"]}},
    {"id": "MN4-3s5uh2", "type": "keypointlabels", "from_name": "keypoint_label", "to_name": "image", "original_width": 500, "original_height": 320,
     "value": {"x": 22.5, "y": 31.7, "width": 0.18, "keypointlabels": ["keypoint_label1"]}}]}]},
 {"id": 2, "data": {"image": "s3://bucket/office/0001-office-1/a.jpg", "options": ["the mug", "the lamp", "the book", "the pen"]},
  "predictions": [{"result": [{"type": "choices", "from_name": "answer", "value": {"choices": ["the pen"]}}]}],
  "annotations": [
   {"id": 10, "ground_truth": false, "created_at": "2024-01-03T00:00:00Z", "result": []},
   {"id": 11, "ground_truth": true, "created_at": "2024-01-01T00:00:00Z", "result": [
    {"type": "rectanglelabels", "from_name": "box", "original_width": 64, "original_height": 48,
     "value": {"x": 25, "y": 50, "width": 50, "height": 25, "rotation": 0, "rectanglelabels": ["mug"]}},
    {"type": "rectanglelabels", "from_name": "box", "original_width": 64, "original_height": 48,
     "value": {"x": 0, "y": 0, "width": 10, "height": 10, "rotation": 360, "rectanglelabels": ["lamp", "light"]}},
    {"type": "textarea", "from_name": "question", "value": {"text": ["Which object is closest to the camera?"]}},
    {"type": "choices", "from_name": "answer", "value": {"choices": ["the lamp"]}},
    {"type": "choices", "from_name": "quality", "value": {"choices": ["good"]}}]},
   {"id": 12, "ground_truth": true, "was_cancelled": true, "created_at": "2024-01-09T00:00:00Z", "result": []}]},
 {"id": 3, "data": {"image": "https://example.org/img/x.png?sig=abc", "question": "Is the mug left of the lamp?"},
  "annotations": [{"id": 20, "created_at": "2024-01-01T00:00:00Z", "result": [{"type": "choices", "from_name": "yn", "value": {"choices": ["Yes"]}}]},
                  {"id": 21, "created_at": "2024-02-01T00:00:00Z", "result": [{"type": "choices", "from_name": "yn", "value": {"choices": ["No"]}}]}]},
 {"id": 4, "data": {"img": "0002-kitchen-1/c.jpeg", "question": "Which is nearest?", "choices": {"B": "the pot", "A": "the pan"}},
  "annotations": [{"id": 30, "result": [{"type": "choices", "from_name": "answer", "value": {"choices": ["B"]}}]}]},
 {"id": 5, "data": {"image": "/data/upload/1/r.jpg"},
  "annotations": [{"id": 40, "result": [{"type": "rectanglelabels", "from_name": "box", "original_width": 100, "original_height": 100,
    "value": {"x": 10, "y": 10, "width": 20, "height": 20, "rotation": 15, "rectanglelabels": ["cup"]}}]}]},
 {"id": 6, "data": {"image": "/data/upload/1/p.jpg"}, "annotations": [],
  "predictions": [{"result": [{"type": "rectanglelabels", "original_width": 10, "original_height": 10,
    "value": {"x": 1, "y": 1, "width": 2, "height": 2, "rectanglelabels": ["cup"]}}]}]},
 {"id": 7, "data": {"image": "/data/local-files/?d=images%2F0001-office-1%2Fa.jpg", "question": "How many cups?"},
  "annotations": [{"id": 50, "result": [{"type": "textarea", "from_name": "answer", "value": {"text": ["three"]}}]}]},
 {"id": 8, "data": {"image": "/data/local-files/?d=images/b.jpg"},
  "annotations": [{"id": 60, "result": [{"type": "rectanglelabels", "from_name": "box",
    "value": {"x": 10, "y": 10, "width": 20, "height": 20, "rectanglelabels": ["cup"]}}]}]},
 {"id": 9, "data": {"image": "c.jpg", "options": ["a", "b"]},
  "annotations": [{"id": 70, "result": [{"type": "choices", "from_name": "answer", "value": {"choices": ["c"]}}]}]},
 {"id": 10, "data": {"image": "d.jpg"}, "annotations": [{"id": 80, "was_cancelled": true, "result": []}]},
 {"id": 11, "data": {"image": "d.jpg"}, "annotations": [{"id": 90, "ground_truth": "yes", "result": []}]},
 "not a task",
 {"id": 12, "data": {"image": "e.jpg"}, "annotations": [{"id": 100, "result": [
   {"type": "polygonlabels", "from_name": "poly", "value": {"points": [[1, 1], [2, 2], [3, 1]], "polygonlabels": ["cup"]}}]}]}
]`

func TestImportLabelStudio(t *testing.T) {
	got, bad, err := ImportLabelStudio(strings.NewReader(labelStudioFile))
	if err != nil {
		t.Fatal(err)
	}
	const q = "Which object is closest to the camera?"
	opts := []string{"the mug", "the lamp", "the book", "the pen"}
	want := []Imported{
		{Line: 2, Sample: Sample{ID: "ls-175210175", Kind: KindHopQA, Image: "test_image1.jpg",
			Box:  &Box{31.941923774954628 * 5, 4.113475177304964 * 3.2, (31.941923774954628 + 6.352087114337568) * 5, (4.113475177304964 + 9.929078014184398) * 3.2},
			Tags: []string{"ls:rectangle_label"}}},
		{Line: 13, Sample: Sample{ID: "ls-2-1", Kind: KindHopQA, Image: "a.jpg", Question: q, Options: opts, AnswerIndex: 1,
			Box: &Box{16, 24, 48, 36}, Tags: []string{"ls:mug"}}},
		{Line: 13, Sample: Sample{ID: "ls-2-2", Kind: KindHopQA, Image: "a.jpg", Question: q, Options: opts, AnswerIndex: 1,
			Box: &Box{0, 0, 6.4, 4.8}, Tags: []string{"ls:lamp", "ls:light"}}},
		{Line: 26, Sample: Sample{ID: "ls-3", Kind: KindJudgment, Image: "x.png", Question: "Is the mug left of the lamp?", AnswerText: "no"}},
		{Line: 29, Sample: Sample{ID: "ls-4", Kind: KindMCQ, Image: "0002-kitchen-1/c.jpeg", Question: "Which is nearest?",
			Options: []string{"the pan", "the pot"}, AnswerIndex: 1}},
		{Line: 37, Sample: Sample{ID: "ls-7", Kind: KindOpen, Image: "a.jpg", Question: "How many cups?", AnswerText: "three"}},
	}
	for i := range want {
		if i < len(got) && got[i].Sample.Box != nil && want[i].Sample.Box != nil && near(*got[i].Sample.Box, *want[i].Sample.Box, 1e-9) {
			got[i].Sample.Box = want[i].Sample.Box
		}
	}
	compareImported(t, got, want)
	checkRecordErrors(t, bad, []string{
		`record 1 (line 2): left out: 1 keypointlabels result, 1 polygonlabels result (only rectanglelabels, choices and textarea results are read)`,
		`record 5 (line 31): annotation 40, result 1 (rectanglelabels "box"): the box is rotated by 15°; only boxes along the image's edges are supported, redraw it unrotated`,
		`record 6 (line 34): left out: task 6: no annotation (predictions are never imported)`,
		`record 8 (line 39): annotation 60, result 1 (rectanglelabels "box"): original_width and original_height are needed to turn the percentages into pixels`,
		`record 9 (line 42): answer: "c" is not one of the 2 options`,
		`record 10 (line 44): left out: task 10: every annotation was cancelled or skipped (predictions are never imported)`,
		`record 11 (line 45): annotations.ground_truth: want true or false, got a JSON string`,
		`record 12 (line 46): want a task object, got "not a task"`,
		`record 13 (line 47): nothing to import: the annotation has no rectanglelabels box, no choices and no textarea answer (it has 1 polygonlabels result)`,
	})
	if !errors.Is(bad[0], ErrLeftOut) || !errors.Is(bad[2], ErrLeftOut) || errors.Is(bad[1], ErrLeftOut) {
		t.Error("notes and errors are told apart by ErrLeftOut")
	}
	// The draft boxes lack only what an annotator writes.
	for _, im := range got[:3] {
		for _, f := range Lint(im.Sample, LintEnv{}) {
			if f.Rule != RuleSchema {
				t.Errorf("%s: %s %s: %s", im.Sample.ID, f.Rule, f.Severity, f.Message)
			}
		}
	}
	if b, _ := json.Marshal(got[1].Sample); !strings.Contains(string(b), `"tags":["ls:mug"]`) {
		t.Errorf("record %s", b)
	}
}

func TestLabelStudioImagePath(t *testing.T) {
	for _, tt := range []struct{ in, want, err string }{
		{"/data/upload/3/ab12cd-name.jpg", "name.jpg", ""},
		{"/data/upload/12/5f0a9c1e-IMG 0001.JPG", "IMG 0001.JPG", ""},
		{"/data/upload/12/plain-name.jpg", "plain-name.jpg", ""},
		{"http://localhost:8080/data/upload/1/0badcafe-z.png", "0badcafe-z.png", ""},
		{"s3://bucket/dir/x.jpg", "x.jpg", ""},
		{"gs://bucket/x%20y.jpg", "x y.jpg", ""},
		{"https://host/p/y.webp?X-Amz-Signature=abc", "y.webp", ""},
		{"/data/local-files/?d=dataset%2Fimgs%2Fq.jpg", "q.jpg", ""},
		{"0001-office-1/a.jpg", "0001-office-1/a.jpg", ""},
		{"./0001-office-1/a.jpg", "0001-office-1/a.jpg", ""},
		{"", "", "the image reference is empty"},
		{"data:image/png;base64,iVBOR", "", "the image is embedded as a data: URI; export the task with a file or URL instead"},
		{"https://host/", "", `"https://host/" names no file`},
	} {
		got, err := LabelStudioImagePath(tt.in)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && err.Error() != tt.err {
			t.Errorf("LabelStudioImagePath(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.err)
		}
	}
}
