package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

func TestWriteSamples(t *testing.T) {
	row := func(c annotate.Sample, reasons ...string) SampleRow {
		return SampleRow{SampleInfo: SampleInfo{ID: c.ID, Kind: c.Kind, Status: verify.StateRound2, AuthorName: "ann", ImagePath: c.Image,
			Revision: 2, UpdatedAt: "2026-01-02T00:00:00Z", Content: c}, Categories: "att+rel", Reasons: reasons, CreatedAt: "2026-01-01T00:00:00Z"}
	}
	hop := annotate.Sample{ID: "hq-1", Kind: annotate.KindHopQA, Image: "a.jpg", Question: `Which is "closest", then?`,
		Options: []string{"cup", "plate, blue"}, AnswerIndex: 1, Hop: 2, View: annotate.ViewEgo, Task: "T", Split: "test"}
	yn := annotate.Sample{ID: "yn-1", Kind: annotate.KindJudgment, Image: "b.jpg", Question: "Is it\nleft?", AnswerText: "yes"}
	rows := []SampleRow{row(hop, "wrong-answer", "box-off"), row(yn)}

	var buf bytes.Buffer
	if err := WriteSamples(&buf, rows, FormatCSV); err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		sampleCSVHeader,
		{"hq-1", "hop_qa", "round2", "ann", "a.jpg", `Which is "closest", then?`, `["cup","plate, blue"]`, "1", "2", "ego", "att+rel", "T", "test", "2", "wrong-answer box-off", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"},
		{"yn-1", "judgment", "round2", "ann", "b.jpg", "Is it\nleft?", "", "yes", "", "", "att+rel", "", "", "2", "", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d CSV records, want %d", len(got), len(want))
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("CSV record %d:\n got %q\nwant %q", i, got[i], want[i])
		}
	}

	buf.Reset()
	if err := WriteSamples(&buf, rows, FormatJSONL); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != len(rows) {
		t.Fatalf("%d JSON lines, want %d", len(lines), len(rows))
	}
	for i, l := range lines {
		var s annotate.Sample
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatal(err)
		}
		w, _ := json.Marshal(rows[i].Content)
		if g, _ := json.Marshal(s); !bytes.Equal(g, w) {
			t.Errorf("line %d: %s, want %s", i, g, w)
		}
	}
	if err := WriteSamples(&buf, rows, "xlsx"); err == nil {
		t.Error("format xlsx was written")
	}
}
