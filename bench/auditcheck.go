package bench

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// The integrity audit's checks over what the store reads (AuditSelection) and
// what re-hashing the image files found (ImageCheck): plain Go, no SQL. The
// store reads the selection in one transaction and hashes the files outside it.

// checkOrder is the checks of the integrity audit (Check…) in report order.
var checkOrder = []string{CheckLint, CheckTrail, CheckImageMissing, CheckImageHash, CheckDuplicate, CheckSplit, CheckNearDuplicate, CheckAnswerPosition, CheckOptionLength, CheckBalance}

// ReleaseFilter narrows the samples of a release; empty lists do not filter. Its
// JSON is what a release keeps of it.
type ReleaseFilter struct {
	Kinds []annotate.Kind `json:"kinds,omitempty"`
	Tasks []string        `json:"tasks,omitempty"`
}

// Takes reports whether the filter takes sample s.
func (f ReleaseFilter) Takes(s annotate.Sample) bool {
	return (len(f.Kinds) == 0 || slices.Contains(f.Kinds, s.Kind)) && (len(f.Tasks) == 0 || slices.Contains(f.Tasks, s.Task))
}

// Covers reports whether balance target t is about samples the filter takes.
func (f ReleaseFilter) Covers(t BalanceTarget) bool {
	return (len(f.Kinds) == 0 || slices.Contains(f.Kinds, annotate.Kind(t.Kind))) &&
		(len(f.Tasks) == 0 || t.Task == "" || slices.Contains(f.Tasks, t.Task))
}

// AuditSample is one accepted sample with what the audit needs to know of it.
type AuditSample struct {
	ID             string
	RevisionID     int64 // its current revision's, which a freeze records
	Author         string
	RevisionAuthor string // of the current revision (verify's user ids)
	Content        annotate.Sample
	Reviews        []verify.Review           // of the current revision, oldest first
	Sampled        *verify.SampledAcceptance // accepted by sampling, else nil
}

// AuditSelection is what the integrity audit checks: the accepted samples a
// filter takes, under the project's settings.
type AuditSelection struct {
	Settings Settings
	Filter   ReleaseFilter
	Samples  []AuditSample    // by id
	Images   map[string]Image // by path; an image the project lacks is absent
	// PHash is the perceptual hash of the images that have one, by path.
	PHash map[string]uint64
	// NotAlike are the pairs of images whose hashes are close but whose
	// thumbnails differ (shortcut.Alike): no near-duplicates.
	NotAlike map[[2]string]bool
}

// ImageCheck is the outcome of re-hashing one image file.
type ImageCheck struct {
	Missing bool
	SHA256  string
}

// Contents is the samples' contents, in order.
func (in AuditSelection) Contents() []annotate.Sample {
	out := make([]annotate.Sample, len(in.Samples))
	for i, s := range in.Samples {
		out[i] = s.Content
	}
	return out
}

// Report runs every check of the integrity audit on the selection and on what
// re-hashing its image files found (by path): lint errors, the verification
// trail, missing and changed images, duplicate questions (about one image or
// near-duplicates), split overlap, near-duplicate images, balance targets and
// the answer shortcuts of shortcut.Balance. Findings are sorted errors first,
// then by check, sample and image.
func (in AuditSelection) Report(hashes map[string]ImageCheck) AuditReport {
	r := AuditReport{Samples: len(in.Samples), Images: len(hashes)}
	add := func(sev, check, sample, image, format string, args ...any) {
		r.Findings = append(r.Findings, AuditFinding{Severity: sev, Check: check, SampleID: sample, Image: image, Message: fmt.Sprintf(format, args...)})
	}
	policy := in.Settings.Policy()
	usedBy := map[string][]string{}
	contents := in.Contents()
	imageSize := func(p string) (int, int, bool) {
		im, known := in.Images[p]
		return im.Width, im.Height, known
	}
	lint := annotate.LintErrors(contents, func(s annotate.Sample) annotate.LintEnv {
		return annotate.LintEnv{HandWritten: s.Parent == "", ImageSize: imageSize, ImageLimits: in.Settings.ImageLimits}
	})
	for i, s := range in.Samples {
		for _, img := range s.Content.AllImages() {
			if img != "" && !slices.Contains(usedBy[img], s.ID) {
				usedBy[img] = append(usedBy[img], s.ID)
			}
		}
		for _, text := range lint[i] {
			add(SeverityError, CheckLint, s.ID, "", "%s", text)
		}
		for _, msg := range verify.AcceptedTrail(policy, s.Author, s.RevisionAuthor, s.Sampled, s.Reviews) {
			add(SeverityError, CheckTrail, s.ID, "", "%s", msg)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(usedBy)) {
		who := strings.Join(usedBy[p], ", ")
		im, known := in.Images[p]
		h := hashes[p]
		switch {
		case !known:
			add(SeverityError, CheckImageMissing, "", p, "image %s is not in the project (used by %s)", p, who)
		case h.Missing:
			add(SeverityError, CheckImageMissing, "", p, "image file %s is missing (used by %s)", im.Path(), who)
		case h.SHA256 != im.SHA256:
			add(SeverityError, CheckImageHash, "", p, "image file %s changed since import: sha256 %s…, imported %s… (used by %s)",
				im.Path(), h.SHA256[:12], im.SHA256[:min(12, len(im.SHA256))], who)
		}
	}
	near := shortcut.Confirmed(shortcut.NearDuplicates(contents, in.PHash, in.Settings.NearDistance()), in.NotAlike)
	for _, ids := range annotate.DuplicateQuestions(shortcut.SameImages(contents, near)) {
		for _, id := range ids {
			s := in.sample(id)
			add(SeverityError, CheckDuplicate, id, s.Content.Image, "the same question as %s on %s%s: %q",
				strings.Join(slices.DeleteFunc(slices.Clone(ids), func(x string) bool { return x == id }), ", "),
				imagesPhrase(s.Content), in.nearImagesPhrase(ids, s), s.Content.Question)
			r.Findings[len(r.Findings)-1].Group = ids
		}
	}
	for _, img := range annotate.SplitOverlap(contents) {
		var train, test []string
		for _, s := range in.Samples {
			if slices.Contains(s.Content.AllImages(), img) {
				switch s.Content.Split {
				case annotate.SplitTrain:
					train = append(train, s.ID)
				case annotate.SplitTest:
					test = append(test, s.ID)
				}
			}
		}
		add(SeverityError, CheckSplit, "", img, "image %s is in train (%s) and in test (%s)", img, strings.Join(train, ", "), strings.Join(test, ", "))
	}
	for _, nd := range near {
		if nd.Cross {
			add(SeverityError, CheckNearDuplicate, "", nd.A, "%s, in two splits: a model trained on one is tested on the other (a perceptual-hash heuristic: look at both)", nd.Describe())
		} else {
			add(SeverityWarning, CheckNearDuplicate, "", nd.A, "%s (a perceptual-hash heuristic: look at both)", nd.Describe())
		}
	}
	for _, t := range in.Settings.Balance {
		if t.Count == 0 || !in.Filter.Covers(t) {
			continue
		}
		n := 0
		for _, c := range contents {
			if string(c.Kind) == t.Kind && (t.Hop == 0 || c.Hop == t.Hop) && (t.View == "" || string(c.View) == t.View) && (t.Task == "" || c.Task == t.Task) {
				n++
			}
		}
		if n < t.Count {
			add(SeverityWarning, CheckBalance, "", "", "%s: %d of %d accepted, %d short", t.Words(), n, t.Count, t.Count-n)
		}
	}
	// Shortcuts a model could take without looking (issue 29, checks 1 and 2):
	// warnings, per task, with the samples that drive them.
	for _, res := range shortcut.Balance(contents, shortcut.Options{}) {
		if res.Finding {
			add(SeverityWarning, res.Check, "", "", "task %s: %s (%s)", res.Task, res.Detail, annotate.Plural(len(res.Samples), "sample"))
		}
	}
	slices.SortStableFunc(r.Findings, func(a, b AuditFinding) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)),
			cmp.Compare(slices.Index(checkOrder, a.Check), slices.Index(checkOrder, b.Check)),
			cmp.Compare(a.SampleID, b.SampleID),
			cmp.Compare(a.Image, b.Image),
		)
	})
	return r
}

func severityRank(s string) int {
	if s == SeverityError {
		return 0
	}
	return 1
}

func (in AuditSelection) sample(id string) AuditSample {
	i := slices.IndexFunc(in.Samples, func(s AuditSample) bool { return s.ID == id })
	return in.Samples[i]
}

// imagesPhrase names a sample's images in a finding: "image a.jpg", or "images
// a.jpg, b.jpg in this order" for a sequence.
func imagesPhrase(s annotate.Sample) string {
	all := s.AllImages()
	if len(all) <= 1 {
		return "image " + s.Image
	}
	return "images " + strings.Join(all, ", ") + " in this order"
}

// nearImagesPhrase names, for a duplicate-question finding about s, the other
// samples' images that differ from s's (near-duplicates of them): ", near-duplicate
// of b.jpg (s2)", or nothing when every sample of ids shows s's images.
func (in AuditSelection) nearImagesPhrase(ids []string, s AuditSample) string {
	var others []string
	for _, id := range ids {
		o := in.sample(id).Content
		if id != s.ID && !slices.Equal(o.AllImages(), s.Content.AllImages()) {
			others = append(others, fmt.Sprintf("%s (%s)", strings.Join(o.AllImages(), ", "), id))
		}
	}
	if len(others) == 0 {
		return ""
	}
	return ", near-duplicate of " + strings.Join(others, "; ")
}
