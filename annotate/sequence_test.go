package annotate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSequenceRoundTrip: decode(encode(s)) == s for single-image, multi-image and
// video-frame samples, and what is written for each.
func TestSequenceRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		s    Sample
		want string
	}{
		{"one image", judgment("yes"),
			`{"id":"yn-1","kind":"judgment","image":"a.jpg","question":"Is the cup left of the plate?","answer":"yes"}`},
		{"one image with a label and a frame", with(judgment("yes"), func(s *Sample) {
			s.ImageLabels = []string{"kitchen"}
			s.Frames = []Frame{{Video: "v.mp4", VideoSHA256: videoSHA, Duration: 60, Time: 7.5, Index: 225}}
		}), `{"id":"yn-1","kind":"judgment","image":"a.jpg","image_labels":["kitchen"],"frames":[{"video":"v.mp4","video_sha256":"` + videoSHA + `","duration":60,"time":7.5,"index":225}],"question":"Is the cup left of the plate?","answer":"yes"}`},
		{"a sequence", sequence(),
			`{"id":"lrr-1","kind":"judgment","images":["rot/a.jpg","rot/b.jpg","rot/c.jpg"],"question":"Does the camera turn left from A to C?","answer":"yes","task":"camera-rotation"}`},
		{"a sequence with labels and a box on its second image", with(sequence(), func(s *Sample) {
			s.ImageLabels = []string{"left", "front", "right"}
			s.Box, s.BoxImage = &Box{1, 2, 30, 40}, 1
		}), `{"id":"lrr-1","kind":"judgment","images":["rot/a.jpg","rot/b.jpg","rot/c.jpg"],"image_labels":["left","front","right"],"question":"Does the camera turn left from A to C?","answer":"yes","box":[1,2,30,40],"box_image":1,"task":"camera-rotation"}`},
		{"video frames", videoFrames(),
			`{"id":"vid-1","kind":"open","images":["v/f1.jpg","v/f2.jpg","v/f3.jpg"],"frames":[` +
				`{"video":"videos/room.mp4","video_sha256":"` + videoSHA + `","duration":60,"time":0,"index":0},` +
				`{"video":"videos/room.mp4","video_sha256":"` + videoSHA + `","duration":60,"time":30,"index":900},` +
				`{"video":"videos/room.mp4","video_sha256":"` + videoSHA + `","duration":60,"time":59.5,"index":1800}],` +
				`"question":"How many chairs does the room hold?","answer":"4"}`},
		{"a hop question on two images", with(hopQA(), func(s *Sample) {
			s.SetImages([]string{"images/kitchen_01.jpg", "images/kitchen_02.jpg"})
			s.BoxImage = 1
		}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc, err := json.Marshal(tt.s)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != "" && string(enc) != tt.want {
				t.Errorf("encoded\n got %s\nwant %s", enc, tt.want)
			}
			var back Sample
			if err := json.Unmarshal(enc, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tt.s) {
				t.Errorf("decode(encode(s)) =\n %+v\nwant\n %+v", back, tt.s)
			}
			if _, fs := ParseRecord(enc); HasErrors(fs) {
				t.Errorf("ParseRecord findings %q", brief(fs))
			}
		})
	}
}

// TestSequenceRecordForms: what the decoder accepts and refuses around images.
func TestSequenceRecordForms(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		images []string
		canon  string // the record MarshalJSON writes back; "" = the input
		err    string // UnmarshalJSON's error contains it
	}{
		{"one image in a list is an image", `{"id":"x","images":["a.jpg"]}`, []string{"a.jpg"}, `{"id":"x","image":"a.jpg"}`, ""},
		{"default labels are left out", `{"id":"x","images":["a.jpg","b.jpg"],"image_labels":["A","B"]}`, []string{"a.jpg", "b.jpg"}, `{"id":"x","images":["a.jpg","b.jpg"]}`, ""},
		{"default frame labels are left out", `{"id":"x","images":["a.jpg","b.jpg"],"image_labels":["frame 1","frame 2"],"frames":[{"video":"v","video_sha256":"s","duration":2,"time":0,"index":0},{"video":"v","video_sha256":"s","duration":2,"time":1,"index":30}]}`,
			[]string{"a.jpg", "b.jpg"}, `{"id":"x","images":["a.jpg","b.jpg"],"frames":[{"video":"v","video_sha256":"s","duration":2,"time":0,"index":0},{"video":"v","video_sha256":"s","duration":2,"time":1,"index":30}]}`, ""},
		{"letters are not the labels of frames", `{"id":"x","images":["a.jpg","b.jpg"],"image_labels":["A","B"],"frames":[{"video":"v","video_sha256":"s","duration":2,"time":0,"index":0},{"video":"v","video_sha256":"s","duration":2,"time":1,"index":30}]}`,
			[]string{"a.jpg", "b.jpg"}, "", ""},
		{"box_image 0 is left out", `{"id":"x","images":["a.jpg","b.jpg"],"box":[1,2,3,4],"box_image":0}`, []string{"a.jpg", "b.jpg"}, `{"id":"x","images":["a.jpg","b.jpg"],"box":[1,2,3,4]}`, ""},
		{"null image beside images is absent", `{"id":"x","image":null,"images":["a.jpg","b.jpg"]}`, []string{"a.jpg", "b.jpg"}, `{"id":"x","images":["a.jpg","b.jpg"]}`, ""},
		{"null images is absent", `{"id":"x","image":"a.jpg","images":null}`, []string{"a.jpg"}, `{"id":"x","image":"a.jpg"}`, ""},
		{"both keys", `{"id":"x","image":"a.jpg","images":["a.jpg","b.jpg"]}`, nil, "", `images: the record has both "image" and "images"`},
		{"images of the wrong type", `{"id":"x","images":"a.jpg"}`, nil, "", "images: want a list of image paths"},
		{"labels of the wrong type", `{"id":"x","image":"a.jpg","image_labels":"A"}`, nil, "", "image_labels: want a list of strings"},
		{"box_image of the wrong type", `{"id":"x","image":"a.jpg","box_image":"B"}`, nil, "", "box_image: want an integer image index"},
		{"a frame of the wrong type", `{"id":"x","image":"a.jpg","frames":[{"time":"7s"}]}`, nil, "", "frames[0].time: want a number of seconds"},
		{"a null frame", `{"id":"x","image":"a.jpg","frames":[null]}`, nil, "", "frames[0]: want a frame object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Sample
			err := json.Unmarshal([]byte(tt.in), &s)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Unmarshal error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.AllImages(); !slices.Equal(got, tt.images) {
				t.Errorf("AllImages = %q, want %q", got, tt.images)
			}
			want := cmp.Or(tt.canon, tt.in)
			if enc, _ := json.Marshal(s); string(enc) != want {
				t.Errorf("encoded\n got %s\nwant %s", enc, want)
			}
		})
	}

	// An unknown field inside a frame is dropped with a warning naming it.
	_, fs := ParseRecord([]byte(`{"id":"x","image":"a.jpg","frames":[{"video":"v","fps":30}]}`))
	if got := brief(fs); !slices.Contains(got, `schema warning frames[0].fps: unknown frame field "fps" (dropped)`) {
		t.Errorf("findings %q", got)
	}
}

// TestImportNativeNamesTheLineOfBothKeys: a record with "image" and "images" is a
// bad record at its line, naming the field.
func TestImportNativeNamesTheLineOfBothKeys(t *testing.T) {
	in := `{"id":"a","kind":"judgment","image":"a.jpg","question":"q?","answer":"yes"}` + "\n" +
		`{"id":"b","kind":"judgment","image":"a.jpg","images":["a.jpg","b.jpg"],"question":"q?","answer":"yes"}` + "\n"
	ok, bad, err := ImportNative(strings.NewReader(in))
	if err != nil || len(ok) != 1 || len(bad) != 1 {
		t.Fatalf("ok %d bad %+v err %v", len(ok), bad, err)
	}
	if bad[0].Line != 2 || !strings.Contains(bad[0].Err.Error(), `schema (images): images: the record has both "image" and "images"`) {
		t.Errorf("bad record %d: %v", bad[0].Line, bad[0].Err)
	}
}

// TestSequenceGolden encodes testdata/sequences.jsonl (records of several images,
// written by hand in any field order) the canonical way and compares the result
// with testdata/sequences.golden (go test -update rewrites it), then reads the
// golden back: every record decodes to a sample that encodes to the same line.
func TestSequenceGolden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "sequences.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = ReadJSONL(bytes.NewReader(in), func(line int, raw []byte) error {
		var s Sample
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		if fs := Lint(s, LintEnv{}); HasErrors(fs) {
			return errors.New(strings.Join(brief(fs), "; "))
		}
		b, err := s.MarshalJSON()
		out.Write(b)
		out.WriteByte('\n')
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sequences.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("encoding differs from %s (run go test -update to accept):\n%s", golden, out.Bytes())
	}
	modalities := map[Modality]bool{}
	err = ReadJSONL(bytes.NewReader(want), func(line int, raw []byte) error {
		var s Sample
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		modalities[s.Modality()] = true
		if b, _ := s.MarshalJSON(); !bytes.Equal(b, raw) {
			t.Errorf("line %d does not encode to itself:\n got %s\nwant %s", line, b, raw)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(modalities) != 3 {
		t.Errorf("the golden holds modalities %v, want all three", modalities)
	}
}

func TestSequenceMethods(t *testing.T) {
	twoVideos := with(videoFrames(), func(s *Sample) { s.Frames[2].Video = "videos/hall.mp4" })
	oneFrame := with(judgment("yes"), func(s *Sample) { s.Frames = videoFrames().Frames[:1] })
	tests := []struct {
		name     string
		s        Sample
		images   []string
		labels   []string
		modality Modality
		boxPath  string
	}{
		{"no image", Sample{}, nil, []string{}, ModalityImage, ""},
		{"one image", judgment("yes"), []string{"a.jpg"}, []string{"A"}, ModalityImage, "a.jpg"},
		{"one frame of a video is an image", oneFrame, []string{"a.jpg"}, []string{"A"}, ModalityImage, "a.jpg"},
		{"a sequence", sequence(), []string{"rot/a.jpg", "rot/b.jpg", "rot/c.jpg"}, []string{"A", "B", "C"}, ModalityImages, "rot/a.jpg"},
		{"labels given", with(sequence(), func(s *Sample) { s.ImageLabels = []string{"l", "f", "r"}; s.BoxImage = 2 }),
			[]string{"rot/a.jpg", "rot/b.jpg", "rot/c.jpg"}, []string{"l", "f", "r"}, ModalityImages, "rot/c.jpg"},
		{"labels of the wrong count fall back to the default", with(sequence(), func(s *Sample) { s.ImageLabels = []string{"l"} }),
			[]string{"rot/a.jpg", "rot/b.jpg", "rot/c.jpg"}, []string{"A", "B", "C"}, ModalityImages, "rot/a.jpg"},
		{"frames of one video", videoFrames(), []string{"v/f1.jpg", "v/f2.jpg", "v/f3.jpg"}, []string{"frame 1", "frame 2", "frame 3"}, ModalityVideo, "v/f1.jpg"},
		{"frames of two videos", twoVideos, []string{"v/f1.jpg", "v/f2.jpg", "v/f3.jpg"}, []string{"A", "B", "C"}, ModalityImages, "v/f1.jpg"},
		{"one video, another SHA-256", with(videoFrames(), func(s *Sample) { s.Frames[1].VideoSHA256 = strings.Repeat("0", 64) }),
			[]string{"v/f1.jpg", "v/f2.jpg", "v/f3.jpg"}, []string{"A", "B", "C"}, ModalityImages, "v/f1.jpg"},
		{"frames for some images", with(videoFrames(), func(s *Sample) { s.Frames = s.Frames[:2] }),
			[]string{"v/f1.jpg", "v/f2.jpg", "v/f3.jpg"}, []string{"A", "B", "C"}, ModalityImages, "v/f1.jpg"},
		{"box past the images", with(sequence(), func(s *Sample) { s.BoxImage = 3 }), []string{"rot/a.jpg", "rot/b.jpg", "rot/c.jpg"}, []string{"A", "B", "C"}, ModalityImages, ""},
		{"box before the images", with(sequence(), func(s *Sample) { s.BoxImage = -1 }), []string{"rot/a.jpg", "rot/b.jpg", "rot/c.jpg"}, []string{"A", "B", "C"}, ModalityImages, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.AllImages(); !slices.Equal(got, tt.images) {
				t.Errorf("AllImages = %q, want %q", got, tt.images)
			}
			if got := tt.s.NumImages(); got != len(tt.images) {
				t.Errorf("NumImages = %d, want %d", got, len(tt.images))
			}
			if got := tt.s.Labels(); !slices.Equal(got, tt.labels) {
				t.Errorf("Labels = %q, want %q", got, tt.labels)
			}
			if got := tt.s.Modality(); got != tt.modality {
				t.Errorf("Modality = %s, want %s", got, tt.modality)
			}
			if got := tt.s.BoxImagePath(); got != tt.boxPath {
				t.Errorf("BoxImagePath = %q, want %q", got, tt.boxPath)
			}
		})
	}

	// AllImages is a copy; SetImages keeps one image as Image alone.
	s := sequence()
	s.AllImages()[1] = "changed"
	if s.MoreImages[0] != "rot/b.jpg" {
		t.Error("AllImages shares its slice with the sample")
	}
	s.SetImages([]string{"only.jpg"})
	if s.Image != "only.jpg" || s.MoreImages != nil {
		t.Errorf("SetImages(one) = %q %q", s.Image, s.MoreImages)
	}
	paths := []string{"a", "b"}
	s.SetImages(paths)
	paths[1] = "changed"
	if s.MoreImages[0] != "b" {
		t.Error("SetImages keeps the caller's slice")
	}
}

func TestDefaultLabels(t *testing.T) {
	got := DefaultLabels(MaxImages, false)
	for i, want := range map[int]string{0: "A", 2: "C", 25: "Z", 26: "AA", 27: "AB", 51: "AZ", 52: "BA", 63: "BL"} {
		if got[i] != want {
			t.Errorf("label %d = %q, want %q", i, got[i], want)
		}
	}
	if got := DefaultLabels(2, true); !slices.Equal(got, []string{"frame 1", "frame 2"}) {
		t.Errorf("video labels %q", got)
	}
}

// TestResubmitSeesSequenceChanges: a returned sequence sent back with only its
// order, labels, box image or frames changed is a change.
func TestResubmitSeesSequenceChanges(t *testing.T) {
	returned := with(sequence(), func(s *Sample) { s.Box = &Box{1, 1, 5, 5}; s.BoxImage = 1 })
	changes := map[string]func(*Sample){
		"order":       func(s *Sample) { s.SetImages([]string{"rot/c.jpg", "rot/b.jpg", "rot/a.jpg"}) },
		"first image": func(s *Sample) { s.Image = "rot/z.jpg" },
		"an image more": func(s *Sample) {
			s.SetImages(append(s.AllImages(), "rot/d.jpg"))
		},
		"an image fewer": func(s *Sample) { s.SetImages(s.AllImages()[:2]) },
		"labels":         func(s *Sample) { s.ImageLabels = []string{"A", "B", "D"} },
		"box image":      func(s *Sample) { s.BoxImage = 2 },
		"frames":         func(s *Sample) { s.Frames = videoFrames().Frames },
	}
	for name, change := range changes {
		if err := CheckResubmit(returned, with(returned, change)); err != nil {
			t.Errorf("%s changed: CheckResubmit = %v", name, err)
		}
	}
	same := with(returned, func(s *Sample) { s.ImageLabels = []string{"A", "B", "C"} }) // the default, spelled out
	if err := CheckResubmit(returned, same); !errors.Is(err, ErrUnchanged) {
		t.Errorf("default labels spelled out: CheckResubmit = %v, want ErrUnchanged", err)
	}
}

// TestTagsBesideLabels: a question naming images by their labels ("from A to B",
// "image <B>") parses with its category tags intact.
func TestTagsBesideLabels(t *testing.T) {
	tagged := "Is the cup <POS>on the table</POS> in image <A> and <REL>closer</REL> from A to B?"
	plain, spans, err := ParseTagged(tagged)
	if err != nil {
		t.Fatal(err)
	}
	if plain != "Is the cup on the table in image <A> and closer from A to B?" || len(spans) != 2 {
		t.Errorf("plain %q spans %+v", plain, spans)
	}
	s := with(sequence(), func(s *Sample) {
		s.Kind, s.Options, s.AnswerIndex, s.AnswerText = KindMCQ, []string{"yes", "no"}, 0, ""
		s.Question, s.QuestionTag = plain, tagged
	})
	for _, f := range Lint(s, LintEnv{}) {
		if f.Rule == RuleCategoryTags && f.Severity == SeverityError {
			t.Errorf("category-tags error: %+v", f)
		}
	}
}
