package store

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWordsFunction: bw_words, the words of a sample the search finds on
// PostgreSQL, splits text with ten replace() calls since migration 34, and gives
// for every text the tsvector the translate() of the baseline gave, so the
// stored words of older databases and their index stay right. The cases: each
// of the ten characters, the characters beside them (',' '!' '\'), multi-byte
// letters and the ten next to them, what the parser reads as tags, entities,
// addresses, numbers and hyphenated words, and 3,000 random texts of those.
func TestWordsFunction(t *testing.T) {
	d, err := Open(context.Background(), pgTestURL(t, "bw_words is PostgreSQL's (SQLite's FTS4 table splits its own words)"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	texts := []string{
		"", " ", "m-00302", "bench-000001\nWhich open object near the door is farthest?\nthe pillow",
		"a-b_c.d/e:f@g+h#i'j\"k", "--__..//::@@++##''\"\"", "it's", `say "left"`, "x,y!z\\w",
		"é-ü_ß.Ω/漢:字@ż+ł#ğ'ñ\"ç", "naïve-café", "🙂-🙃", "<b>bold</b> &amp; &#39; <a href=\"x\">",
		"user@example.com http://example.com/a/b.png ./img/0001.jpg", "1.5e-3 -7 +8 v1.2.3 3:45 #12",
		"Left-of the Chair's_back", "ABC-def GHI", "tab\there\r\nline", "a - b . c",
	}
	alphabet := []rune("-_./:@+#'\"abcXYZ019 é漢🙂<>&;,!\\\n\t")
	rng := rand.New(rand.NewPCG(34, 1))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	js, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := d.db.QueryContext(context.Background(), `SELECT value, bw_words(value)::text,
		to_tsvector('simple', translate(value, '-_./:@+#''"', '          '))::text FROM bw_json_each(?)`, string(js))
	if err != nil {
		t.Fatal(err)
	}
	n, differ := 0, 0
	for rows.Next() {
		var text, got, want string
		if err := rows.Scan(&text, &got, &want); err != nil {
			t.Fatal(err)
		}
		n++
		if got != want {
			if differ++; differ <= 10 {
				t.Errorf("bw_words(%q) = %s, want %s", text, got, want)
			}
		}
	}
	if err := closeRows(rows); err != nil {
		t.Fatal(err)
	}
	if n != len(texts) || differ > 0 {
		t.Errorf("%d texts compared of %d; %d differ", n, len(texts), differ)
	}
}
