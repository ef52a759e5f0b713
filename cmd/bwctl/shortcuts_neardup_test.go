package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/disintegration/imaging"

	"github.com/benchwright/benchwright/annotate"
)

// cliPhoto is a natural-looking picture from seed (waves and noise over a
// gradient), 640×480, resized to rw wide when rw > 0, as a JPEG of quality q.
func cliPhoto(t *testing.T, seed uint64, rw, q int) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 5))
	const w, h = 640, 480
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	var waves [8][4]float64
	for i := range waves {
		waves[i] = [4]float64{r.Float64()*5 + 0.3, r.Float64()*5 + 0.3, r.Float64() * 2 * math.Pi, r.Float64()*60 + 10}
	}
	for y := range h {
		for x := range w {
			u, v := float64(x)/w, float64(y)/h
			c := [3]float64{70 + 60*u, 100 + 40*v, 130 - 50*u}
			for i, wv := range waves {
				c[i%3] += wv[3] * math.Sin(2*math.Pi*(wv[0]*u+wv[1]*v)+wv[2])
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(max(0, min(255, c[0]+r.NormFloat64()*8))), uint8(max(0, min(255, c[1]))), uint8(max(0, min(255, c[2]))), 255})
		}
	}
	var out image.Image = img
	if rw > 0 {
		out = imaging.Resize(img, rw, 0, imaging.Lanczos)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, out, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestShortcutsNearDuplicateImages: bwctl shortcuts --json of a project whose
// photo and its resized re-encode are in train and test prints the pair on the
// task's near-duplicate-image line (a finding, figure 1, cross), and a clean
// line for the task without; a file gets no such line, and its report says
// why.
func TestShortcutsNearDuplicateImages(t *testing.T) {
	db := importDB(t)
	images := t.TempDir()
	cliWriteFile(t, filepath.Join(images, "0003-lab-1", "orig.jpg"), cliPhoto(t, 1, 0, 92))
	cliWriteFile(t, filepath.Join(images, "0003-lab-1", "copy.jpg"), cliPhoto(t, 1, 400, 60))
	cliWriteFile(t, filepath.Join(images, "0003-lab-1", "other.jpg"), cliPhoto(t, 2, 0, 92))
	setPasswords(t, pw("secret"))
	if code, out, errOut := bwctl("import-images", "--db", db, "--project", "p1", "--as", "boss", images); code != 0 {
		t.Fatalf("import-images: exit %d\n%s%s", code, out, errOut)
	}
	var lines bytes.Buffer
	for i, s := range []struct{ task, img, split string }{
		{"T", "0003-lab-1/orig.jpg", annotate.SplitTrain}, {"T", "0003-lab-1/copy.jpg", annotate.SplitTest},
		{"T", "0003-lab-1/other.jpg", annotate.SplitTest}, {"U", "0001-office-1/a.jpg", annotate.SplitTest}, {"U", "0003-lab-1/other.jpg", annotate.SplitTrain},
	} {
		line, _ := json.Marshal(annotate.Sample{ID: fmt.Sprintf("nd-%d", i), Kind: annotate.KindMCQ, Task: s.task, Image: s.img, Split: s.split,
			Question: fmt.Sprintf("Which object is left of the lamp (%d)?", i), Options: []string{"the mug", "the book", "the pen", "the cup"}, AnswerIndex: i % 4})
		lines.Write(append(line, '\n'))
	}
	file := filepath.Join(t.TempDir(), "nd.jsonl")
	cliWriteFile(t, file, lines.Bytes())
	if code, out, errOut := bwctl("import-samples", "--db", db, "--project", "p1", "--as", "boss", "--author", "ann", file); code != 0 {
		t.Fatalf("import-samples: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut := bwctl("shortcuts", "--json", "--db", db, "--project", "p1", "--as", "boss")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Check   string     `json:"check"`
			Task    string     `json:"task"`
			Finding bool       `json:"finding"`
			Figure  float64    `json:"figure"`
			CI      [2]float64 `json:"ci"`
			Samples []string   `json:"samples"`
			Pairs   []nearPair `json:"pairs"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if r.Check == "near-duplicate-image" {
			got = append(got, fmt.Sprintf("%s %v %v %v %v %+v", r.Task, r.Finding, r.Figure, r.CI, r.Samples, r.Pairs))
		}
	}
	// The pair's distance is what the hash gives: read it back from the line.
	if len(got) != 2 || !strings.HasPrefix(got[0], "T true 1 [1 1] [nd-0 nd-1] [{A:0003-lab-1/copy.jpg B:0003-lab-1/orig.jpg Distance:") ||
		!strings.HasSuffix(got[0], "Cross:true}]") || got[1] != "U false 0 [0 0] [] []" {
		t.Errorf("near-duplicate-image lines:\n%s\n%s", strings.Join(got, "\n"), out)
	}
	_, fromFile, _ := bwctl("shortcuts", "--json", file)
	if strings.Contains(fromFile, "near-duplicate-image") {
		t.Errorf("a file's report has a near-duplicate line:\n%s", fromFile)
	}
	if _, text, _ := bwctl("shortcuts", file); !strings.Contains(text, "Near-duplicate images: not checked") {
		t.Errorf("a file's report does not say near-duplicates were not checked:\n%s", text)
	}
}
