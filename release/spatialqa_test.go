package release

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/imagefile"
)

// spatialQAScore is what testdata/consumers/spatialqa_metric.py prints.
type spatialQAScore struct {
	Records int
	Errors  []string
	Matcher string
	Total   struct {
		Content, Precondition struct{ Recall, Precision, F1 float64 }
	}
	Split struct {
		ContentAvg      struct{ Recall, Precision, F1 float64 } `json:"content_avg"`
		PreconditionAvg struct{ Recall, Precision, F1 float64 } `json:"precondition_avg"`
	}
}

// scoreSpatialQA exports recs, writes predictions (the records as answer.py leaves
// them, answers changed by edit) and scores them with SpatiaLQA's metric.
func scoreSpatialQA(t *testing.T, recs []Record, images map[string][]byte, edit func(answers map[string]map[string]any)) (spatialQAScore, string) {
	t.Helper()
	dir := exportReal(t, spatialQA{}, recs, images)
	data := filepath.Join(dir, "spatialqa.json")
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var preds []map[string]any
	if err := json.Unmarshal(b, &preds); err != nil {
		t.Fatal(err)
	}
	answers := map[string]map[string]any{}
	for _, p := range preds {
		answers[p["id"].(string)] = p["answer"].(map[string]any)
	}
	if edit != nil {
		edit(answers)
	}
	for _, p := range preds {
		p["answer"] = answers[p["id"].(string)]
	}
	out, _ := json.Marshal(preds)
	pred := filepath.Join(t.TempDir(), "0_end.json")
	if err := os.WriteFile(pred, out, 0o644); err != nil {
		t.Fatal(err)
	}
	var got spatialQAScore
	runConsumer(t, "spatialqa_metric.py", &got, data, pred)
	if len(got.Errors) > 0 {
		t.Errorf("the records do not suit SpatiaLQA's scripts: %q", got.Errors)
	}
	return got, dir
}

func near100(v float64) bool { return math.Abs(v-100) < 1e-5 }

// A perfect prediction file scores 100 in both of metric.py's modes when every
// sample has a precondition (the total mode's +1e-8 keeps it a hair below).
func TestSpatialQAPerfectScore(t *testing.T) {
	recs, images := realFixture(t)
	got, _ := scoreSpatialQA(t, recs, images, nil)
	if got.Records != 2 {
		t.Errorf("%d records, want the 2 step graphs", got.Records)
	}
	tot, sp := got.Total, got.Split
	for name, v := range map[string]float64{
		"total content F1": tot.Content.F1, "total precondition F1": tot.Precondition.F1,
		"total content recall": tot.Content.Recall, "total precondition precision": tot.Precondition.Precision,
	} {
		if !near100(v) {
			t.Errorf("%s %v, want 100", name, v)
		}
	}
	for name, v := range map[string]float64{
		"split content F1": sp.ContentAvg.F1, "split precondition F1": sp.PreconditionAvg.F1,
		"split precondition recall": sp.PreconditionAvg.Recall, "split content precision": sp.ContentAvg.Precision,
	} {
		if v != 100 {
			t.Errorf("%s %v, want exactly 100", name, v)
		}
	}
	// A wrong answer scores less: one step missing, one precondition reversed.
	worse, _ := scoreSpatialQA(t, recs, images, func(a map[string]map[string]any) {
		delete(a["sq-0001"], "step3")
		a["sq-0002"]["step2"] = map[string]any{"content": "Open the drawer", "precondition": []any{}}
		a["sq-0002"]["step1"] = map[string]any{"content": "Move the chair\taway", "precondition": []any{"step2"}}
	})
	if worse.Total.Content.Recall > 90 || worse.Total.Precondition.F1 > 50 {
		t.Errorf("a wrong answer scores content recall %v, precondition F1 %v", worse.Total.Content.Recall, worse.Total.Precondition.F1)
	}
}

// The warning in Layout: a sample without any precondition scores precondition 0 in
// the split mode even when answered perfectly; the total mode does not mind.
func TestSpatialQANoPreconditionCannotReach100InSplitMode(t *testing.T) {
	recs, images := realFixture(t)
	for i, r := range recs {
		if r.Sample.ID == "sq-0002" {
			steps := []annotate.Step{{ID: "a", Content: "Open the drawer"}}
			recs[i].Sample.Steps = steps
		}
	}
	got, _ := scoreSpatialQA(t, recs, images, nil)
	if got.Split.PreconditionAvg.F1 != 50 || !near100(got.Split.ContentAvg.F1) || !near100(got.Total.Precondition.F1) {
		t.Errorf("split precondition F1 %v (want 50), split content F1 %v, total precondition F1 %v (want 100)",
			got.Split.PreconditionAvg.F1, got.Split.ContentAvg.F1, got.Total.Precondition.F1)
	}
	if l := (spatialQA{}).Layout(); !strings.Contains(l, "without any precondition") {
		t.Errorf("the layout does not warn: %s", l)
	}
}

// Each record holds the image itself as a data: URI (what answer.py sends), the
// file under images/ as image_path, a string id and the release as source; Read
// takes image_path, not the URI.
func TestSpatialQARecordShape(t *testing.T) {
	recs, images := realFixture(t)
	dir := exportReal(t, spatialQA{}, recs, images)
	b, _ := os.ReadFile(filepath.Join(dir, "spatialqa.json"))
	var items []struct {
		ID, Image, Question, Source string
	}
	json.Unmarshal(b, &items)
	var raw []map[string]json.RawMessage
	json.Unmarshal(b, &raw)
	for i, it := range items {
		var ip string
		json.Unmarshal(raw[i]["image_path"], &ip)
		mime, data, ok := strings.Cut(strings.TrimPrefix(it.Image, "data:"), ";base64,")
		img, err := base64.StdEncoding.DecodeString(data)
		file, _ := os.ReadFile(filepath.Join(dir, "images", filepath.FromSlash(ip)))
		if !ok || err != nil || !bytes.Equal(img, file) || len(file) == 0 {
			t.Errorf("%s: image %.40q… is not the data: URI of images/%s", it.ID, it.Image, ip)
		}
		if want := map[string]string{".jpg": "image/jpeg", ".png": "image/png"}[filepath.Ext(ip)]; mime != want {
			t.Errorf("%s: data: URI of type %s, want %s", it.ID, mime, want)
		}
		if it.Source != "benchwright:office-bench@1.0" || jsonType(raw[i]["id"]) != "string" {
			t.Errorf("%s: source %q, id %s", it.ID, it.Source, raw[i]["id"])
		}
	}
	got, err := spatialQA{}.Read(context.Background(), dir)
	if err != nil || len(got) != 2 || got[0].Image != "0001-office-1/a.jpg" || got[1].Image != "0002-misc-1/c.png" {
		t.Fatalf("read back %v, %v", got, err)
	}
	for _, s := range got {
		if strings.Contains(string(s.Extra["image"]), "base64") {
			t.Errorf("%s: the data: URI was kept in Extra", s.ID)
		}
	}
}

func jsonType(raw json.RawMessage) string {
	switch t := bytes.TrimSpace(raw); {
	case len(t) == 0:
		return ""
	case t[0] == '"':
		return "string"
	}
	return "other"
}

// A JPEG with an EXIF orientation is written upright, in the file and the data: URI
// alike: SpatiaLQA's judge sees the picture the steps were written on.
func TestSpatialQAImagesUpright(t *testing.T) {
	img := exifJPEG(t, 60, 40, 6)
	s := annotate.Sample{ID: "sq-1", Kind: annotate.KindStepGraph, Image: "0001-hall-1/rot.jpg", Question: "Open the door",
		Steps: []annotate.Step{{ID: "a", Content: "Walk to the door"}, {ID: "b", Content: "Open the door", Precondition: []string{"a"}}}}
	sink := MemSink{}
	if _, err := Export(context.Background(), sink, ExportRequest{Format: spatialQA{}, Records: []Record{{Sample: s, Width: 40, Height: 60, ImageSHA256: sha(img)}},
		Open: opener(map[string][]byte{s.Image: img})}); err != nil {
		t.Fatal(err)
	}
	file := sink["images/0001-hall-1/rot.jpg"]
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(file))
	if err != nil || cfg.Width != 40 || cfg.Height != 60 || imagefile.Orientation(file) > 1 {
		t.Errorf("stored %d×%d (%v), orientation %d; want 40×60 upright", cfg.Width, cfg.Height, err, imagefile.Orientation(file))
	}
	var items []struct{ Image string }
	json.Unmarshal(sink["spatialqa.json"], &items)
	if len(items) != 1 || items[0].Image != "data:image/jpeg;base64,"+base64.StdEncoding.EncodeToString(file) {
		t.Errorf("the data: URI is not the upright file")
	}
}
