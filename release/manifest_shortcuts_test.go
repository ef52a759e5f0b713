package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/benchwright/benchwright/annotate"
)

// The manifest records the model-free shortcut checks of the exported samples:
// a task whose answer is always the first option is a finding; a release too
// small to judge has no shortcuts entry at all (and its manifest is as before).
func TestManifestShortcuts(t *testing.T) {
	recs := func(n int, answer func(i int) int) []Record {
		var out []Record
		for i := range n {
			out = append(out, Record{Sample: annotate.Sample{ID: fmt.Sprintf("q-%02d", i), Kind: annotate.KindMCQ, Task: "count",
				Question: "How many chairs?", Options: []string{"one", "two", "three", "four"}, AnswerIndex: answer(i)}})
		}
		return out
	}
	first := func(int) int { return 0 }
	spread := func(i int) int { return i % 4 }

	m := newManifest(native{}, ExportInfo{}, recs(24, first), nil)
	if m.Shortcuts == nil || m.Shortcuts.Judged != 2 || len(m.Shortcuts.Findings) == 0 ||
		m.Shortcuts.Findings[0].Check != "answer-position" || m.Shortcuts.Findings[0].Task != "count" || m.Shortcuts.Findings[0].Figure != 1 {
		t.Fatalf("always the first option: %+v", m.Shortcuts)
	}
	m = newManifest(native{}, ExportInfo{}, recs(24, spread), nil)
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Shortcuts *struct {
			Judged   int               `json:"judged"`
			Findings []json.RawMessage `json:"findings"`
		} `json:"shortcuts"`
	}
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back.Shortcuts == nil || back.Shortcuts.Judged != 2 ||
		back.Shortcuts.Findings == nil || len(back.Shortcuts.Findings) != 0 {
		t.Fatalf("letters spread: %s (%v)", b.Bytes(), err)
	}
	if m := newManifest(native{}, ExportInfo{}, recs(5, first), nil); m.Shortcuts != nil {
		t.Errorf("5 samples were judged: %+v", m.Shortcuts)
	}
}
