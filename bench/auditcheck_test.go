package bench

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// TestAuditSelectionReport runs the integrity audit's checks on plain inputs:
// each case changes a clean selection of three accepted questions and expects
// the findings (severity, check, sample or image; in report order) and one
// message's words.
func TestAuditSelectionReport(t *testing.T) {
	const shaA, shaB, shaC = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"
	trail := func() []verify.Review {
		rs := []verify.Review{{Round: 1, Reviewer: "v1", Decision: verify.DecisionApprove}, {Round: 2, Reviewer: "v2", Decision: verify.DecisionApprove}}
		for i := range 3 {
			rs = append(rs, verify.Review{Round: 3, Reviewer: fmt.Sprint("p", i), Decision: verify.DecisionApprove})
		}
		return rs
	}
	sample := func(id, image, question string) AuditSample {
		return AuditSample{ID: id, Author: "ann", RevisionAuthor: "ann", Reviews: trail(), Content: annotate.Sample{
			ID: id, Kind: annotate.KindMCQ, Task: "T", Image: image, Question: question, Options: []string{"the cup", "the plate"}, AnswerIndex: 1}}
	}
	clean := func() (AuditSelection, map[string]ImageCheck) {
		s := DefaultSettings()
		s.Balance = nil
		in := AuditSelection{Settings: s, Samples: []AuditSample{
			sample("s1", "a.jpg", "Which is closer to the camera?"),
			sample("s2", "b.jpg", "Which is left of the mug?"),
			sample("s3", "c.jpg", "Which is larger?"),
		}, Images: map[string]Image{
			"a.jpg": {Root: "/data", RelPath: "a.jpg", SHA256: shaA, Width: 640, Height: 480},
			"b.jpg": {Root: "/data", RelPath: "b.jpg", SHA256: shaB, Width: 640, Height: 480},
			"c.jpg": {Root: "/data", RelPath: "c.jpg", SHA256: shaC, Width: 640, Height: 480},
		}, PHash: map[string]uint64{"a.jpg": 0x0f0f_0f0f_0f0f_0f0f, "b.jpg": 0xf0f0_f0f0_f0f0_f0f0, "c.jpg": 0x00ff_00ff_00ff_00ff}}
		return in, map[string]ImageCheck{"a.jpg": {SHA256: shaA}, "b.jpg": {SHA256: shaB}, "c.jpg": {SHA256: shaC}}
	}
	for _, tc := range []struct {
		name   string
		change func(in *AuditSelection, h map[string]ImageCheck)
		want   []string // severity check sample-or-image
		text   string   // the first finding's message contains this
	}{
		{"clean", func(*AuditSelection, map[string]ImageCheck) {}, nil, ""},
		{"image not in the project", func(in *AuditSelection, h map[string]ImageCheck) { delete(in.Images, "b.jpg"); delete(h, "b.jpg") },
			[]string{"error image-missing b.jpg"}, "image b.jpg is not in the project (used by s2)"},
		{"image file missing", func(in *AuditSelection, h map[string]ImageCheck) { h["c.jpg"] = ImageCheck{Missing: true} },
			[]string{"error image-missing c.jpg"}, "image file /data/c.jpg is missing (used by s3)"},
		{"image file changed", func(in *AuditSelection, h map[string]ImageCheck) { h["a.jpg"] = ImageCheck{SHA256: "0123456789abcdef"} },
			[]string{"error image-hash a.jpg"}, "image file /data/a.jpg changed since import: sha256 0123456789ab…, imported aaaaaaaaaaaa… (used by s1)"},
		{"duplicate question", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples[1] = sample("s2", "a.jpg", "which is CLOSER to the camera")
		}, []string{"error duplicate-question s1", "error duplicate-question s2"}, `the same question as s2 on image a.jpg: "Which is closer to the camera?"`},
		{"duplicate question on near-duplicate images", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples[1] = sample("s2", "b.jpg", "Which is closer to the camera?")
			in.PHash["b.jpg"] = in.PHash["a.jpg"] ^ 0b111
		}, []string{"error duplicate-question s1", "error duplicate-question s2", "warning near-duplicate-image a.jpg"},
			`the same question as s2 on image a.jpg, near-duplicate of b.jpg (s2): "Which is closer to the camera?"`},
		{"near-duplicates their thumbnails refute", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples[1] = sample("s2", "b.jpg", "Which is closer to the camera?")
			in.PHash["b.jpg"] = in.PHash["a.jpg"] ^ 0b111
			in.NotAlike = map[[2]string]bool{{"a.jpg", "b.jpg"}: true}
		}, nil, ""},
		{"near-duplicates in two splits", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples[0].Content.Split, in.Samples[1].Content.Split = annotate.SplitTrain, annotate.SplitTest
			in.PHash["b.jpg"] = in.PHash["a.jpg"] ^ 0b1
		}, []string{"error near-duplicate-image a.jpg"}, "in two splits: a model trained on one is tested on the other"},
		{"near-duplicates: the error before the warning", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples = append(in.Samples, sample("s4", "d.jpg", "Which is smaller?"))
			in.Images["d.jpg"] = Image{Root: "/data", RelPath: "d.jpg", SHA256: shaA, Width: 640, Height: 480}
			h["d.jpg"] = ImageCheck{SHA256: shaA}
			in.PHash["b.jpg"] = in.PHash["a.jpg"] ^ 0b1 // a, b: both without a split
			in.PHash["d.jpg"] = in.PHash["c.jpg"] ^ 0b1 // c in train, d in test
			in.Samples[2].Content.Split, in.Samples[3].Content.Split = annotate.SplitTrain, annotate.SplitTest
		}, []string{"error near-duplicate-image c.jpg", "warning near-duplicate-image a.jpg"}, "in two splits"},
		{"split overlap", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples[1] = sample("s2", "a.jpg", "Which is left of the mug?")
			in.Samples[0].Content.Split, in.Samples[1].Content.Split = annotate.SplitTrain, annotate.SplitTest
		}, []string{"error split-overlap a.jpg"}, "image a.jpg is in train (s1) and in test (s2)"},
		{"trail: no round 3", func(in *AuditSelection, h map[string]ImageCheck) { in.Samples[2].Reviews = in.Samples[2].Reviews[:2] },
			[]string{"error trail s3"}, "round 3"},
		{"trail: the corrector reviewed", func(in *AuditSelection, h map[string]ImageCheck) { in.Samples[0].RevisionAuthor = "v1" },
			[]string{"error trail s1"}, "reviewed in round 1 a revision they wrote or corrected"},
		{"trail: accepted by sampling with reviews", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Samples[0].Sampled = &verify.SampledAcceptance{Batch: "gen", AcceptedBy: "lead", Upper: 0.01, Threshold: 0.05}
		}, []string{"error trail s1"}, `accepted by sampling from batch "gen", yet it has 5 reviews`},
		{"lint", func(in *AuditSelection, h map[string]ImageCheck) { in.Samples[1].Content.Options = nil },
			[]string{"error lint s2"}, "option"},
		{"lint: an image limit of the project", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Settings.ImageLimits = []annotate.ImageLimit{{Task: "T", Min: 2}}
		}, []string{"error lint s1", "error lint s2", "error lint s3"}, "at least 2 images"},
		{"balance short", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Settings.Balance = []BalanceTarget{{Kind: "mcq", Task: "T", Count: 5}, {Kind: "mcq", Count: 3}, {Kind: "mcq", Task: "U", Count: 0}, {Kind: "mcq", Task: "U", Count: 1}}
		}, []string{"warning balance ", "warning balance "}, "3 of 5 accepted, 2 short"},
		{"balance of a kind the filter leaves out", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Settings.Balance = []BalanceTarget{{Kind: "hop_qa", Count: 5}}
			in.Filter = ReleaseFilter{Kinds: []annotate.Kind{annotate.KindMCQ}}
		}, nil, ""},
		{"errors before warnings, by check, then sample", func(in *AuditSelection, h map[string]ImageCheck) {
			in.Settings.Balance = []BalanceTarget{{Kind: "mcq", Count: 5}}
			in.Samples[2].Reviews = nil
			in.Samples[0].Content.Options = nil
			h["b.jpg"] = ImageCheck{Missing: true}
		}, []string{"error lint s1", "error trail s3", "error trail s3", "error trail s3", "error image-missing b.jpg", "warning balance "}, "options"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, hashes := clean()
			tc.change(&in, hashes)
			r := in.Report(hashes)
			var got []string
			for _, f := range r.Findings {
				got = append(got, f.Severity+" "+f.Check+" "+cmp.Or(f.SampleID, f.Image))
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("findings %q, want %q", got, tc.want)
			}
			if tc.text != "" && !strings.Contains(r.Findings[0].Message, tc.text) {
				t.Errorf("message %q does not say %q", r.Findings[0].Message, tc.text)
			}
			if r.Samples != len(in.Samples) || r.Images != len(hashes) {
				t.Errorf("counted %d samples, %d images", r.Samples, r.Images)
			}
			for _, f := range r.Findings {
				if f.Check == CheckDuplicate && !slices.Equal(f.Group, []string{"s1", "s2"}) {
					t.Errorf("duplicate finding of %s has group %q", f.SampleID, f.Group)
				}
			}
		})
	}
}

func TestReleaseFilter(t *testing.T) {
	mcqT := annotate.Sample{Kind: annotate.KindMCQ, Task: "T"}
	for _, tc := range []struct {
		f      ReleaseFilter
		takes  bool
		target BalanceTarget
		covers bool
	}{
		{ReleaseFilter{}, true, BalanceTarget{Kind: "hop_qa"}, true},
		{ReleaseFilter{Kinds: []annotate.Kind{annotate.KindMCQ}}, true, BalanceTarget{Kind: "hop_qa"}, false},
		{ReleaseFilter{Kinds: []annotate.Kind{annotate.KindHopQA}}, false, BalanceTarget{Kind: "hop_qa"}, true},
		{ReleaseFilter{Tasks: []string{"T"}}, true, BalanceTarget{Kind: "mcq", Task: "U"}, false},
		{ReleaseFilter{Tasks: []string{"U"}}, false, BalanceTarget{Kind: "mcq"}, true},
	} {
		if got := tc.f.Takes(mcqT); got != tc.takes {
			t.Errorf("%+v takes an mcq of task T: %v, want %v", tc.f, got, tc.takes)
		}
		if got := tc.f.Covers(tc.target); got != tc.covers {
			t.Errorf("%+v covers %+v: %v, want %v", tc.f, tc.target, got, tc.covers)
		}
	}
}
