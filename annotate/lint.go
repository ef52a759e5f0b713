package annotate

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// LintEnv is what Lint needs to know beyond the sample.
type LintEnv struct {
	// ImageSize returns the displayed size (EXIF orientation applied) of the image a
	// sample names. When it is nil or answers ok=false, box-invalid checks only that
	// the corners are ordered and non-negative.
	ImageSize func(path string) (w, h int, ok bool)
	// HandWritten says the sample was written by hand rather than derived or imported:
	// its step graph should have 2–8 steps (steps-count warning above 8), while any
	// step graph must have 2–10 (steps-count error outside).
	HandWritten bool
	// ImageLimits are the project's bounds on how many images a sample of a kind or
	// task shows (image-count); every limit that applies to a sample is checked.
	ImageLimits []ImageLimit
}

// ImageLimit bounds the number of images of the samples of one kind and/or task:
// Kind "" applies to every kind, Task "" to every task; Min and Max 0 leave that
// end open (MaxImages always holds). For LRR-Bench's sequence tasks, for example,
// {Kind: KindJudgment, Min: 3, Max: 4}.
type ImageLimit struct {
	Kind Kind   `json:"kind,omitempty"`
	Task string `json:"task,omitempty"`
	Min  int    `json:"min,omitempty"`
	Max  int    `json:"max,omitempty"`
}

// applies reports whether the limit covers s.
func (l ImageLimit) applies(s Sample) bool {
	return (l.Kind == "" || l.Kind == s.Kind) && (l.Task == "" || l.Task == s.Task)
}

// String says which samples the limit covers and what it allows: "judgment samples
// of task T3 show 3 to 4 images".
func (l ImageLimit) String() string {
	who := "samples"
	if l.Kind != "" {
		who = string(l.Kind) + " samples"
	}
	if l.Task != "" {
		who += " of task " + l.Task
	}
	var n string
	switch {
	case l.Min > 0 && l.Max > 0 && l.Min == l.Max:
		n = strconv.Itoa(l.Min)
	case l.Min > 0 && l.Max > 0:
		n = fmt.Sprintf("%d to %d", l.Min, l.Max)
	case l.Min > 0:
		n = fmt.Sprintf("at least %d", l.Min)
	case l.Max > 0:
		n = fmt.Sprintf("at most %d", l.Max)
	default:
		n = "any number of"
	}
	return fmt.Sprintf("%s show %s images", who, n)
}

// Lint checks one sample against every rule of spec §6 that applies to its kind and
// returns the findings, merged and sorted as MergeFindings does. The schema rule
// covers what a Sample can show: missing required fields (id, kind, image, question;
// options, categories, hop and view for hop_qa; options for mcq; a text answer for
// judgment and open; steps for step_graph), a blank path among several images
// ("images[k]"), an unknown kind, view, ego_subject or
// split, a tolerance that is not a number >= 0 (ToleranceText included), an open
// answer that is marked numeric or has a tolerance but is not a number, and a
// warning for every field kept in Extra. Wrong JSON types and a missing option
// index are only visible to ParseRecord; lint a record with
// MergeFindings(ParseRecord findings, Lint findings).
func Lint(s Sample, env LintEnv) []Finding {
	fs := append(schemaFindings(s), ruleFindings(s, env)...)
	for i := range fs {
		fs[i].Sample = s.ID
	}
	return MergeFindings(fs)
}

// IndexAnswer reports whether the kind's answer is an option index (else text or none).
func (k Kind) IndexAnswer() bool { return k == KindHopQA || k == KindMCQ }

// textAnswer reports whether the kind's answer is text.
func (k Kind) textAnswer() bool { return k == KindJudgment || k == KindOpen }

func missing(field, hint string) Finding {
	return errorf(RuleSchema, field, field+" is missing", hint)
}

func kindNames() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

func schemaFindings(s Sample) []Finding {
	var fs []Finding
	add := func(f Finding) { fs = append(fs, f) }
	if s.ID == "" {
		add(missing("id", "give the sample a unique id"))
	} else if err := CheckID(s.ID); err != nil {
		add(errorf(RuleSchema, "id", "id: "+err.Error(), ""))
	}
	switch {
	case s.Kind == "":
		add(missing("kind", "one of "+kindNames()))
	case !s.Kind.Valid():
		add(errorf(RuleSchema, "kind", fmt.Sprintf("unknown kind %q", s.Kind), "one of "+kindNames()))
	}
	if s.NumImages() == 0 {
		add(missing("image", "the image path"))
	} else if len(s.MoreImages) > 0 {
		for i, p := range s.AllImages() {
			if strings.TrimSpace(p) == "" {
				f := fmt.Sprintf("images[%d]", i)
				add(errorf(RuleSchema, f, f+" is blank", "give the image's path, or remove it from the list"))
			}
		}
	}
	if strings.TrimSpace(s.Question) == "" {
		add(missing("question", "write the question"))
	}
	switch s.Kind {
	case KindHopQA:
		if len(s.Options) == 0 {
			add(missing("options", "four options"))
		}
		// The editor has no hop field: the hop count is the number of categories
		// ticked, so a missing hop is said only when the categories are there.
		if len(s.Categories) == 0 {
			add(errorf(RuleSchema, "categories", "no reasoning category is chosen", "tick the categories the question uses: att, pos and/or rel"))
		} else if s.Hop == 0 {
			add(errorf(RuleSchema, "hop", "the hop count is missing or 0",
				fmt.Sprintf("tick or untick a category: the hop count is the number of categories (%d)", len(distinct(s.Categories)))))
		}
		if s.View == "" {
			add(errorf(RuleSchema, "view", "no viewpoint is chosen", "choose Exo or Ego under Viewpoint"))
		}
	case KindMCQ:
		if len(s.Options) == 0 {
			add(missing("options", "2 to 6 options"))
		}
	case KindStepGraph:
		if len(s.Steps) == 0 {
			add(missing("steps", "2 to 10 steps"))
		}
	case KindJudgment:
		if s.AnswerText == "" {
			add(missing("answer", "choose Yes or No"))
		}
	case KindOpen:
		if s.AnswerText == "" {
			add(missing("answer", "write the answer: a word or a number"))
		}
	}
	if s.View != "" && s.View != ViewEgo && s.View != ViewExo {
		add(errorf(RuleSchema, "view", fmt.Sprintf("unknown view %q", s.View), `choose Exo or Ego under Viewpoint ("exo" or "ego")`))
	}
	if s.EgoSubject != "" && s.EgoSubject != EgoReal && s.EgoSubject != EgoVirtual {
		add(errorf(RuleSchema, "ego_subject", fmt.Sprintf("unknown ego person %q", s.EgoSubject), `choose Real person or Virtual person under Viewpoint ("real" or "virtual")`))
	}
	if s.Split != "" && s.Split != "train" && s.Split != "test" {
		add(errorf(RuleSchema, "split", fmt.Sprintf("unknown split %q", s.Split), `"train" or "test"`))
	}
	fs = append(fs, numberFindings(s)...)
	for _, k := range sortedKeys(s.Extra) {
		add(warnf(RuleSchema, k, fmt.Sprintf("unknown field %q (kept as is)", k), "remove it if it is a typo"))
	}
	return fs
}

func ruleFindings(s Sample, env LintEnv) []Finding {
	var fs []Finding
	switch s.Kind {
	case KindHopQA:
		fs = append(fs, hopFindings(s)...)
		fs = append(fs, optionFindings(s, 4, 4)...)
		if s.Box == nil {
			fs = append(fs, errorf(RuleBoxMissing, "box", "no box on the object the correct option names", "draw the box"))
		}
	case KindMCQ:
		fs = append(fs, optionFindings(s, 2, 6)...)
	case KindStepGraph:
		fs = append(fs, stepFindings(s, env)...)
	case KindJudgment:
		if a := s.AnswerText; a != "yes" && a != "no" {
			hint := `answer "yes" or "no"`
			if l := strings.ToLower(strings.TrimSpace(a)); l == "yes" || l == "no" {
				hint = fmt.Sprintf("write it as %q", l)
			}
			fs = append(fs, errorf(RuleJudgmentAnswer, "answer", fmt.Sprintf(`answer %q is not "yes" or "no"`, a), hint))
		}
	}
	fs = append(fs, imageCountFindings(s, env)...)
	fs = append(fs, imageDuplicateFindings(s)...)
	fs = append(fs, imageLabelFindings(s)...)
	fs = append(fs, imageFrameFindings(s)...)
	fs = append(fs, boxImageFindings(s)...)
	if s.Box != nil {
		fs = append(fs, boxFindings(s, env)...)
	}
	fs = append(fs, tagFindings(s)...)
	fs = append(fs, spacingFindings(s)...)
	return fs
}

func hopFindings(s Sample) []Finding {
	var fs []Finding
	cats := distinct(s.Categories)
	if s.Hop != 0 && len(cats) > 0 && s.Hop != len(cats) {
		fs = append(fs, errorf(RuleHopMismatch, "hop",
			fmt.Sprintf("the hop count is %d but there are %d distinct categories (%s)", s.Hop, len(cats), joinCats(cats)),
			fmt.Sprintf("tick or untick a category: the hop count is the number of categories (%d)", len(cats))))
	}
	if len(cats) > 0 && !AllowedCategorySet(cats) {
		msg, hint := "att alone is not an allowed set: a 1-hop question uses pos or rel", "tick pos or rel as well as att, or instead of it"
		for _, c := range cats {
			if _, ok := categoryBits[c]; !ok {
				msg, hint = fmt.Sprintf("unknown category %q", c), "use att, pos and rel only: tick them under Reasoning categories"
				break
			}
		}
		fs = append(fs, errorf(RuleCategorySet, "categories", msg, hint))
	}

	subject, body, has := cutSubjectPhrase(s.Question)
	switch {
	case s.View == ViewEgo && !has:
		fs = append(fs, errorf(RuleEgoPhrase, "question", "an ego question must start with a subject phrase",
			`start with "`+SubjectPhrase(EgoReal, "<person>")+`" or "`+SubjectPhrase(EgoVirtual, "<where>")+`" (Insert phrase under Viewpoint writes it)`))
	case s.View == ViewEgo && s.EgoSubject != "" && subject != s.EgoSubject:
		fs = append(fs, errorf(RuleEgoPhrase, "ego_subject",
			fmt.Sprintf("the viewpoint is a %s person but the question opens with the %s-person phrase", s.EgoSubject, subject),
			fmt.Sprintf("choose %s person under Viewpoint, or reword the opening", capitalize(string(subject)))))
	case s.View == ViewExo && has:
		fs = append(fs, warnf(RuleExoPhrase, "question", "an exo question starts with a subject phrase",
			"choose Ego under Viewpoint, or remove the phrase"))
	}

	// The att condition is the phrase tagged ATT: a colour elsewhere ("on the blue
	// table", tagged POS) is no colour condition (multihopspatial.txt:270, "if the
	// att condition is color"). Untagged, the question after its subject phrase
	// (which describes the viewer, "the man in the blue shirt") is searched.
	if slices.Contains(cats, CatAtt) {
		if qc := attColours(s, body); len(qc) > 0 {
			for i, o := range s.Options {
				if oc := ColourWords(o); len(oc) > 0 {
					fs = append(fs, warnf(RuleColourInOptions, fmt.Sprintf("options[%d]", i),
						fmt.Sprintf("%s names a colour (%s) while the att condition is a colour (%s)", OptionName(i), strings.Join(oc, ", "), strings.Join(qc, ", ")),
						"describe the object without its colour"))
				}
			}
		}
	}
	return fs
}

// attColours returns the colour words of a hop question's att condition: those of
// the phrases tagged ATT (leaving out phrases tagged with another category inside
// them) when the question is tagged — none when no phrase is tagged ATT yet, which
// category-tags reports — else those of body, the question after its subject
// phrase.
func attColours(s Sample, body string) []string {
	if s.QuestionTag == "" {
		return ColourWords(body)
	}
	plain, spans, err := ParseTagged(s.QuestionTag)
	if err != nil {
		return ColourWords(body)
	}
	var out []string
	for _, sp := range spans {
		if sp.Category != CatAtt {
			continue
		}
		text := []byte(plain[sp.Start:sp.End])
		for _, in := range spans {
			if in.Category != CatAtt && sp.Start <= in.Start && in.End <= sp.End && in.End-in.Start < sp.End-sp.Start {
				for i := in.Start; i < in.End; i++ {
					text[i-sp.Start] = ' '
				}
			}
		}
		for _, w := range ColourWords(string(text)) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func joinCats(cats []Category) string {
	s := make([]string, len(cats))
	for i, c := range cats {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

func optionFindings(s Sample, lo, hi int) []Finding {
	var fs []Finding
	if n := len(s.Options); n > 0 && (n < lo || n > hi) {
		want := fmt.Sprintf("exactly %d", lo)
		if lo != hi {
			want = fmt.Sprintf("%d to %d", lo, hi)
		}
		fs = append(fs, errorf(RuleOptionCount, "options", fmt.Sprintf("%s needs %s options, has %d", s.Kind, want, n), ""))
	}
	seen := map[string]int{}
	for i, o := range s.Options {
		field := fmt.Sprintf("options[%d]", i)
		norm := normalizeOption(o)
		if strings.TrimSpace(o) == "" {
			fs = append(fs, errorf(RuleOptionEmpty, field, OptionName(i)+" is blank", "name one object"))
			continue
		}
		if j, dup := seen[norm]; dup {
			fs = append(fs, errorf(RuleOptionDuplicate, field,
				fmt.Sprintf("%s %q repeats %s %q", OptionName(i), o, OptionName(j), s.Options[j]),
				"make every option a different object"))
			continue
		}
		seen[norm] = i
	}
	if n := len(s.Options); n > 0 && s.AnswerIndex < 0 {
		fs = append(fs, errorf(RuleAnswerRange, "answer", "no option is marked as the answer", "mark the correct option"))
	} else if n > 0 && s.AnswerIndex >= n {
		fs = append(fs, errorf(RuleAnswerRange, "answer",
			fmt.Sprintf("the answer is option %d, but there are only %d options (%s to %s)", s.AnswerIndex+1, n, strings.TrimPrefix(OptionName(0), "option "), strings.TrimPrefix(OptionName(n-1), "option ")),
			"mark one of the options as the answer"))
	}
	return fs
}

func stepFindings(s Sample, env LintEnv) []Finding {
	var fs []Finding
	lim := unbounded
	switch n := len(s.Steps); {
	case n == 0: // schema reports it
	case n < 2 || n > 10:
		fs = append(fs, errorf(RuleStepsCount, "steps", fmt.Sprintf("a step graph has 2 to 10 steps, this one %d", n), ""))
		// A graph that fails the step count still gets every check that is cheap:
		// all of them while the reachability pass stays within its budget (28,000
		// sparse steps, or 2,000 each listing every earlier one: 0.1 to 0.25 s), the
		// linear ones beyond, and the steps-count finding then says which were left
		// out. It lists the first 100 findings of each rule and counts the others.
		lim = bounded
	case env.HandWritten && n > 8:
		fs = append(fs, warnf(RuleStepsCount, "steps", fmt.Sprintf("hand-written answers have 2 to 8 steps, this one %d", n), "split the task or merge steps"))
	}
	graph, skipped := checkGraph(s.Steps, lim)
	if len(skipped) > 0 {
		fs[0].Hint = fmt.Sprintf("split the task: %s not checked on a graph this large", strings.Join(skipped, " and "))
	}
	fs = append(fs, graph...)
	if s.Scene != "" && !ValidSceneName(s.Scene) {
		fs = append(fs, warnf(RuleSceneName, "scene", fmt.Sprintf("scene %q does not match NNNN-<scenetype>-<k>", s.Scene),
			`the scene is the image's folder: ask the lead to name it like "0001-office-1"`))
	}
	return fs
}

// boxFindings checks s.Box against the size of the image it is drawn on.
func boxFindings(s Sample, env LintEnv) []Finding {
	b, image := *s.Box, s.BoxImagePath()
	var w, h int
	if env.ImageSize != nil && image != "" {
		if iw, ih, ok := env.ImageSize(image); ok {
			w, h = iw, ih
		}
	}
	err := b.Check(w, h)
	if err == nil {
		return nil
	}
	hint := "redraw the box"
	fixed := b.Normalize()
	if w > 0 && h > 0 {
		fixed = fixed.Clamp(w, h)
	}
	if fixed.Valid(w, h) {
		hint = "use " + formatBox(fixed)
	}
	on := ""
	if s.NumImages() > 1 && image != "" {
		on = " on image " + s.Labels()[s.BoxImage]
	}
	msg := fmt.Sprintf("box %s%s: %s", formatBox(b), on, strings.ReplaceAll(err.Error(), "\n", "; "))
	return []Finding{errorf(RuleBoxInvalid, "box", msg, hint)}
}

func formatBox(b Box) string {
	return fmt.Sprintf("[%g, %g, %g, %g]", b[0], b[1], b[2], b[3])
}

// imagesField is the record field that holds the sample's images.
func imagesField(s Sample) string {
	if len(s.MoreImages) > 0 {
		return "images"
	}
	return "image"
}

// imageCountFindings is the image-count rule: at most MaxImages images, and as many
// as every applicable project limit allows.
func imageCountFindings(s Sample, env LintEnv) []Finding {
	n := s.NumImages()
	if n == 0 { // schema reports it
		return nil
	}
	var fs []Finding
	if n > MaxImages {
		fs = append(fs, errorf(RuleImageCount, imagesField(s),
			fmt.Sprintf("the sample shows %d images, more than the %d a sample may show", n, MaxImages),
			"split the sequence into several samples"))
	}
	for _, l := range env.ImageLimits {
		if l.applies(s) && (n < l.Min || (l.Max > 0 && n > l.Max)) {
			fs = append(fs, errorf(RuleImageCount, imagesField(s),
				fmt.Sprintf("the project's %s; this one shows %d", l, n),
				"add or remove images, or ask the lead about the project's image limits"))
		}
	}
	return fs
}

// imageDuplicateFindings is the image-duplicate rule: a sequence shows each image
// once (paths compared after path.Clean).
func imageDuplicateFindings(s Sample) []Finding {
	if len(s.MoreImages) == 0 {
		return nil
	}
	var fs []Finding
	labels := s.Labels()
	seen := map[string]int{}
	for i, p := range s.AllImages() {
		if strings.TrimSpace(p) == "" {
			continue // schema reports it
		}
		c := path.Clean(p)
		if j, dup := seen[c]; dup {
			fs = append(fs, errorf(RuleImageDuplicate, fmt.Sprintf("images[%d]", i),
				fmt.Sprintf("image %s is %q again, the same as image %s", labels[i], p, labels[j]),
				"remove the repeat, or put the image meant in its place"))
			continue
		}
		seen[c] = i
	}
	return fs
}

// imageLabelFindings is the image-labels rule: explicit labels are one per image,
// not blank, and distinct (ignoring case and surrounding spaces).
func imageLabelFindings(s Sample) []Finding {
	n := s.NumImages()
	if s.ImageLabels == nil || n == 0 {
		return nil
	}
	if len(s.ImageLabels) != n {
		return []Finding{errorf(RuleImageLabels, "image_labels",
			fmt.Sprintf("%d labels for %d images", len(s.ImageLabels), n),
			"give one label per image, in the images' order, or remove the labels to use "+strings.Join(DefaultLabels(min(n, 3), s.Modality() == ModalityVideo), ", ")+"…")}
	}
	var fs []Finding
	seen := map[string]int{}
	for i, l := range s.ImageLabels {
		f := fmt.Sprintf("image_labels[%d]", i)
		key := strings.ToLower(strings.TrimSpace(l))
		if key == "" {
			fs = append(fs, errorf(RuleImageLabels, f, fmt.Sprintf("image #%d has a blank label", i+1), "name the image as annotators and models will see it"))
			continue
		}
		if j, dup := seen[key]; dup {
			fs = append(fs, errorf(RuleImageLabels, f,
				fmt.Sprintf("image #%d's label %q is image #%d's label %q again", i+1, l, j+1, s.ImageLabels[j]),
				"give every image a different label"))
			continue
		}
		seen[key] = i
	}
	return fs
}

// imageFrameFindings is the image-frames rule: video provenance is one frame per
// image; each names its video (path, SHA-256 in hex, a positive duration) and a
// time within it and an index >= 0; frames of the same video path agree on its
// SHA-256 and duration.
func imageFrameFindings(s Sample) []Finding {
	n := s.NumImages()
	if s.Frames == nil || n == 0 {
		return nil
	}
	if len(s.Frames) != n {
		return []Finding{errorf(RuleImageFrames, "frames", fmt.Sprintf("%d frames for %d images", len(s.Frames), n),
			"record one frame per image, in the images' order, or none")}
	}
	var fs []Finding
	first := map[string]int{}
	for i, f := range s.Frames {
		p := fmt.Sprintf("frames[%d]", i)
		bad := func(field, msg, hint string) { fs = append(fs, errorf(RuleImageFrames, p+"."+field, msg, hint)) }
		if strings.TrimSpace(f.Video) == "" {
			bad("video", fmt.Sprintf("frame #%d does not name its video", i+1), "give the video's path")
		}
		if !IsSHA256Hex(f.VideoSHA256) {
			bad("video_sha256", fmt.Sprintf("frame #%d's video SHA-256 %q is not 64 lower-case hex digits", i+1, f.VideoSHA256), "record the video file's SHA-256")
		}
		okDuration := f.Duration > 0 && !math.IsInf(f.Duration, 0)
		if !okDuration {
			bad("duration", fmt.Sprintf("frame #%d's video duration %g s is not positive", i+1, f.Duration), "record the video's length in seconds")
		}
		if f.Time < 0 || (okDuration && f.Time > f.Duration) {
			bad("time", fmt.Sprintf("frame #%d's time %g s is outside its video (0 to %g s)", i+1, f.Time, f.Duration), "record the frame's time in seconds from the start")
		}
		if f.Index < 0 {
			bad("index", fmt.Sprintf("frame #%d's index %d is negative", i+1, f.Index), "record the frame's 0-based index in the video")
		}
		if f.Video == "" {
			continue
		}
		if j, ok := first[f.Video]; ok {
			g := s.Frames[j]
			if g.VideoSHA256 != f.VideoSHA256 || g.Duration != f.Duration {
				fs = append(fs, errorf(RuleImageFrames, p, fmt.Sprintf("frame #%d names video %q with another SHA-256 or duration than frame #%d", i+1, f.Video, j+1),
					"record the same video the same way in every frame"))
			}
			continue
		}
		first[f.Video] = i
	}
	return fs
}

// IsSHA256Hex reports whether s is a SHA-256 as Benchwright writes one: 64
// lower-case hex digits (an image's content hash, a video's).
func IsSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// boxImageFindings is the box-image rule: box_image is the index of one of the
// sample's images, and is set only with a box (a warning without one).
func boxImageFindings(s Sample) []Finding {
	if s.BoxImage == 0 {
		return nil
	}
	n := s.NumImages()
	if n > 0 && (s.BoxImage < 0 || s.BoxImage >= n) {
		return []Finding{errorf(RuleBoxImage, "box_image",
			fmt.Sprintf("the box is on image #%d, but the sample has %s (box_image %d)", s.BoxImage+1, Plural(n, "image"), s.BoxImage),
			"show the image the box belongs on and draw the box again")}
	}
	if s.Box == nil {
		return []Finding{warnf(RuleBoxImage, "box_image", fmt.Sprintf("the box is said to be on image %s, but there is no box", s.Labels()[s.BoxImage]),
			"show the image the box belongs on and draw it, or draw it on the first image")}
	}
	return nil
}

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// Plural is n and the noun, with an s unless n is 1: "3 images", "1 image". It is
// the one such helper of the domain packages, the contract and the store (verify,
// bench and store call it); words whose plural is not noun+s are written out.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
