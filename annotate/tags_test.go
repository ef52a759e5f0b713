package annotate

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseTagged(t *testing.T) {
	tests := []struct {
		tagged, plain string
		spans         []TagSpan
		err           string
	}{
		{"Which object?", "Which object?", nil, ""},
		{"Which <ATT>red</ATT> mug is <REL>closest</REL>?", "Which red mug is closest?", []TagSpan{{CatAtt, 6, 9}, {CatRel, 17, 24}}, ""},
		{"<POS>on the <ATT>red</ATT> table</POS>", "on the red table", []TagSpan{{CatPos, 0, 16}, {CatAtt, 7, 10}}, ""},
		{"a <pos>b</pos>", "a b", []TagSpan{{CatPos, 2, 3}}, ""},
		{"<ATT>a <REL>b</ATT> c</REL>", "", nil, "<REL> and <ATT> cross each other"},
		{"<ATT>a", "", nil, "<ATT> is never closed"},
		{"a</POS>", "", nil, "</POS> closes a tag that was not opened"},
		{"<ATT>a</POS></ATT>", "", nil, "</POS> closes a tag that was not opened"},
	}
	for _, tt := range tests {
		plain, spans, err := ParseTagged(tt.tagged)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseTagged(%q) error %v, want %q", tt.tagged, err, tt.err)
			}
			continue
		}
		if err != nil || plain != tt.plain || !reflect.DeepEqual(spans, tt.spans) {
			t.Errorf("ParseTagged(%q) = %q, %v, %v; want %q, %v", tt.tagged, plain, spans, err, tt.plain, tt.spans)
		}
		if again := FormatTagged(plain, spans); again != strings.ReplaceAll(strings.ReplaceAll(tt.tagged, "<pos>", "<POS>"), "</pos>", "</POS>") {
			t.Errorf("FormatTagged(ParseTagged(%q)) = %q", tt.tagged, again)
		}
	}
}

func TestAddAndRemoveTags(t *testing.T) {
	q := "Which red mug on the desk is closest?"
	at := func(phrase string) (int, int) { i := strings.Index(q, phrase); return i, i + len(phrase) }
	tagged := q
	for _, step := range []struct {
		cat    Category
		phrase string
		want   string
		err    string
	}{
		{CatAtt, "red", "Which <ATT>red</ATT> mug on the desk is closest?", ""},
		{CatPos, " on the desk ", "Which <ATT>red</ATT> mug <POS>on the desk</POS> is closest?", ""}, // spaces stay outside
		{CatRel, "closest", "Which <ATT>red</ATT> mug <POS>on the desk</POS> is <REL>closest</REL>?", ""},
		{CatRel, "closest", "Which <ATT>red</ATT> mug <POS>on the desk</POS> is <REL>closest</REL>?", ""}, // again: no change
		{CatPos, "mug on", "", "crosses the <POS> tag"},
		{CatAtt, " ", "", "select the phrase"},
	} {
		s, e := at(step.phrase)
		got, err := AddTag(tagged, step.cat, s, e)
		if step.err != "" {
			if err == nil || !strings.Contains(err.Error(), step.err) {
				t.Errorf("AddTag %s %q: %v, want %q", step.cat, step.phrase, err, step.err)
			}
			continue
		}
		if err != nil || got != step.want {
			t.Fatalf("AddTag %s %q = %q, %v; want %q", step.cat, step.phrase, got, err, step.want)
		}
		tagged = got
	}
	s, _ := at("desk")
	if got := RemoveTags(tagged, s); got != "Which <ATT>red</ATT> mug on the desk is <REL>closest</REL>?" {
		t.Errorf("RemoveTags = %q", got)
	}
}

func TestRetag(t *testing.T) {
	old := "Which <ATT>red</ATT> mug is <REL>closest</REL> to you?"
	tests := []struct{ plain, want string }{
		{"Which red mug is closest to you?", old},
		{"Which red mug is closest to me?", "Which <ATT>red</ATT> mug is <REL>closest</REL> to me?"},             // after the tags
		{"So which red mug is closest to you?", "So which <ATT>red</ATT> mug is <REL>closest</REL> to you?"},     // before
		{"Which red mug is nearest to you?", "Which <ATT>red</ATT> mug is <REL>nearest</REL> to you?"},           // a tagged word replaced
		{"Which dark red mug is closest to you?", "Which dark <ATT>red</ATT> mug is <REL>closest</REL> to you?"}, // typed at a tag's start
		{"Which red big mug is closest to you?", "Which <ATT>red</ATT> big mug is <REL>closest</REL> to you?"},   // at its end
		{"Which reddish mug is closest to you?", "Which <ATT>reddish</ATT> mug is <REL>closest</REL> to you?"},   // inside it
		{"Which mug is closest to you?", "Which mug is <REL>closest</REL> to you?"},                              // the phrase deleted
		{"Which is it?", ""},
	}
	for _, tt := range tests {
		if got := Retag(old, tt.plain); got != tt.want {
			t.Errorf("Retag(%q) = %q, want %q", tt.plain, got, tt.want)
		}
		if got := Retag(old, tt.plain); got != "" && StripTags(got) != tt.plain {
			t.Errorf("Retag(%q) does not strip to the question: %q", tt.plain, got)
		}
	}
}

func ExampleAddTag() {
	q := "Which round object on the table is farthest from the pamphlet?"
	tagged, _ := AddTag(q, CatAtt, strings.Index(q, "round"), strings.Index(q, "round")+len("round"))
	tagged, _ = AddTag(tagged, CatPos, strings.Index(q, "on the table"), strings.Index(q, "on the table")+len("on the table"))
	fmt.Println(tagged)
	// Output: Which <ATT>round</ATT> object <POS>on the table</POS> is farthest from the pamphlet?
}

func TestRemoveTheLastTag(t *testing.T) {
	if got := RemoveTags("Which <ATT>red</ATT> mug?", 7); got != "" {
		t.Errorf("RemoveTags of the only tag = %q, want \"\"", got)
	}
}

// A selection snaps to whole words: a tag never cuts a word, and spaces and
// punctuation at its ends stay outside (issue 27).
func TestAddTagSnapsToWords(t *testing.T) {
	q := "Which round object on the table is closest to the door?"
	for _, tt := range []struct{ sel, want string }{
		{"und obj", "Which <ATT>round object</ATT> on the table is closest to the door?"},
		{"r", "Which <ATT>round</ATT> object on the table is closest to the door?"},
		{"d object o", "Which <ATT>round object on</ATT> the table is closest to the door?"},
		{"the door?", "Which round object on the table is closest to <ATT>the door</ATT>?"},
		{" table is", "Which round object on the <ATT>table is</ATT> closest to the door?"},
		{"round", "Which <ATT>round</ATT> object on the table is closest to the door?"},
	} {
		i := strings.Index(q, tt.sel)
		got, err := AddTag(q, CatAtt, i, i+len(tt.sel))
		if err != nil || got != tt.want {
			t.Errorf("AddTag(%q) = %q, %v; want %q", tt.sel, got, err, tt.want)
		}
	}
	if _, err := AddTag(q, CatAtt, len(q)-1, len(q)); err == nil {
		t.Errorf("tagging only the question mark worked")
	}
}

// Tagging a phrase ticks its category (issue 27), the hop count following.
func TestTagPhraseTicksItsCategory(t *testing.T) {
	s := Sample{Kind: KindHopQA, Question: "Which round object on the table is closest?", Categories: []Category{CatRel}, Hop: 1}
	at := func(p string) (int, int) { i := strings.Index(s.Question, p); return i, i + len(p) }
	a, b := at("on the table")
	s, err := TagPhrase(s, CatPos, a, b)
	if err != nil {
		t.Fatal(err)
	}
	a, b = at("round")
	s, err = TagPhrase(s, CatAtt, a, b)
	if err != nil {
		t.Fatal(err)
	}
	a, b = at("closest")
	s, err = TagPhrase(s, CatRel, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Category{CatAtt, CatPos, CatRel}; !reflect.DeepEqual(s.Categories, want) || s.Hop != 3 {
		t.Errorf("categories %v hop %d, want %v and 3", s.Categories, s.Hop, want)
	}
	if want := "Which <ATT>round</ATT> object <POS>on the table</POS> is <REL>closest</REL>?"; s.QuestionTag != want {
		t.Errorf("tagged %q, want %q", s.QuestionTag, want)
	}
	if fs := Lint(s, LintEnv{}); slices.ContainsFunc(fs, func(f Finding) bool { return f.Rule == RuleCategoryTags || f.Rule == RuleHopMismatch }) {
		t.Errorf("tags and categories disagree: %q", brief(fs))
	}
	// A failed tag changes nothing.
	before := s
	if s, err = TagPhrase(s, CatPos, 0, 0); err == nil || !reflect.DeepEqual(s, before) {
		t.Errorf("an empty selection: %v, %+v", err, s)
	}
}
