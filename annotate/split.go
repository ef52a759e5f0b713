package annotate

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Split names.
const (
	SplitTrain = "train"
	SplitTest  = "test"
)

// SplitSpec asks for an image-disjoint train/test split: TestRatio of the samples of
// every stratum (see Stratum) go to test, chosen by Seed.
type SplitSpec struct {
	TestRatio float64 `json:"test_ratio"`
	Seed      uint64  `json:"seed"`
}

// Validate refuses a ratio that is not strictly between 0 and 1.
func (s SplitSpec) Validate() error {
	if !(s.TestRatio > 0 && s.TestRatio < 1) {
		return fmt.Errorf("test ratio %g is not between 0 and 1 (exclusive)", s.TestRatio)
	}
	return nil
}

// Stratum is the cell a sample is balanced in: hop × view for hop QA
// ("hop_qa/hop=2/view=ego"), kind × task for the other kinds ("mcq/task=T3").
func Stratum(s Sample) string {
	if s.Kind == KindHopQA {
		return fmt.Sprintf("%s/hop=%d/view=%s", s.Kind, s.Hop, s.View)
	}
	return fmt.Sprintf("%s/task=%s", s.Kind, s.Task)
}

// Split assigns every sample to SplitTrain or SplitTest and returns sample id →
// split. All samples of one image land in the same split (image-disjoint); a sample
// of several images ties them together, so that two sequences sharing any image,
// and every sample of any of their images, land on the same side (imageGroups).
// When every image holds one sample, round(TestRatio × all samples) go to test, and
// in each stratum TestRatio × its size rounded down or up (see testTargets); groups
// with samples of several strata may move a stratum off its target by less than
// their sample count.
//
// The order in which groups are considered is the SHA-256 of the seed and the
// group's first image path in byte order (for a group of one image, that image), so
// the assignment depends on nothing but the seed and the samples: it is the same on
// every machine and Go version, and adding an image leaves the others' order alone.
// Groups are then taken greedily: a group goes to test when that brings its strata's
// test counts closer to their targets.
func Split(samples []Sample, spec SplitSpec) (map[string]string, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	type group struct {
		key     [32]byte
		image   string
		ids     []string
		strata  map[string]int
		ordered []string // strata keys in order, so the cost is summed deterministically
	}
	seen := map[string]bool{}
	for _, s := range samples {
		if s.ID == "" {
			return nil, errors.New("split: a sample has no id")
		}
		if seen[s.ID] {
			return nil, fmt.Errorf("split: sample id %q appears twice", s.ID)
		}
		seen[s.ID] = true
	}
	groupOf, nImages := imageGroups(samples)
	byImage := map[string]*group{}
	total := map[string]int{}
	for i, s := range samples {
		img := groupOf[i]
		g, ok := byImage[img]
		if !ok {
			g = &group{image: img, strata: map[string]int{}, key: sha256.Sum256([]byte(strconv.FormatUint(spec.Seed, 10) + "/" + img))}
			byImage[img] = g
		}
		st := Stratum(s)
		if g.strata[st] == 0 {
			g.ordered = append(g.ordered, st)
		}
		g.strata[st]++
		g.ids = append(g.ids, s.ID)
		total[st]++
	}
	groups := make([]*group, 0, len(byImage))
	for _, g := range byImage {
		slices.Sort(g.ordered)
		groups = append(groups, g)
	}
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(slices.Compare(a.key[:], b.key[:]), cmp.Compare(a.image, b.image))
	})
	target := testTargets(total, spec.TestRatio)
	inTest := map[string]int{}
	out := make(map[string]string, len(samples))
	for _, g := range groups {
		cost := 0 // change of the total distance to the targets if g goes to test
		for _, st := range g.ordered {
			t, c, want := inTest[st], g.strata[st], target[st]
			cost += absInt(t+c-want) - absInt(t-want)
		}
		split := SplitTrain
		if cost < 0 {
			split = SplitTest
			for _, st := range g.ordered {
				inTest[st] += g.strata[st]
			}
		}
		for _, id := range g.ids {
			out[id] = split
		}
	}
	// A split with an empty side is no split: say so rather than freeze it.
	var nTest int
	for _, sp := range out {
		if sp == SplitTest {
			nTest++
		}
	}
	switch {
	case len(out) > 0 && nTest == 0:
		return nil, fmt.Errorf("split: a test ratio of %g leaves the test split empty (%d samples on %d images); raise the ratio or freeze without a split",
			spec.TestRatio, len(out), nImages)
	case len(out) > 0 && nTest == len(out):
		return nil, fmt.Errorf("split: a test ratio of %g leaves the train split empty (%d samples on %d images); lower the ratio or freeze without a split",
			spec.TestRatio, len(out), nImages)
	}
	return out, nil
}

// imageGroups puts samples that share an image in one group, through every image
// of every sample (union-find): a sequence A,B and a sequence B,C are one group with
// every sample of A, B or C. It returns each sample's group, named by the group's
// least image path in byte order, and the number of distinct images. A sample
// without an image (or with only blank paths) is a group of its own, named
// "\x00"+its id and counted as one image.
func imageGroups(samples []Sample) (groupOf []string, nImages int) {
	parent := map[string]string{}
	var find func(x string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok {
			parent[x] = x
			return x
		}
		if p == x {
			return x
		}
		r := find(p)
		parent[x] = r
		return r
	}
	union := func(a, b string) {
		ra, rb := find(a), find(b)
		switch {
		case ra < rb:
			parent[rb] = ra
		case rb < ra:
			parent[ra] = rb
		}
	}
	nodes := make([][]string, len(samples))
	for i, s := range samples {
		for _, img := range s.AllImages() {
			if strings.TrimSpace(img) != "" {
				nodes[i] = append(nodes[i], img)
			}
		}
		if len(nodes[i]) == 0 {
			nodes[i] = []string{"\x00" + s.ID} // no image: a group of its own
		}
		find(nodes[i][0])
		for _, img := range nodes[i][1:] {
			union(nodes[i][0], img)
		}
	}
	groupOf = make([]string, len(samples))
	for i := range samples {
		groupOf[i] = find(nodes[i][0])
	}
	return groupOf, len(parent)
}

// testTargets is how many samples of each stratum go to test: the largest remainder
// method, so that the targets add up to round(ratio × all samples) and each is
// ratio × its stratum's size rounded down or up. Remainders are handed out largest
// first, ties by stratum name.
func testTargets(sizes map[string]int, ratio float64) map[string]int {
	strata := make([]string, 0, len(sizes))
	all := 0
	target := map[string]int{}
	for st, n := range sizes {
		strata = append(strata, st)
		all += n
		target[st] = int(math.Floor(ratio * float64(n)))
	}
	frac := func(st string) float64 { return ratio*float64(sizes[st]) - float64(target[st]) }
	slices.SortFunc(strata, func(a, b string) int { return cmp.Or(cmp.Compare(frac(b), frac(a)), cmp.Compare(a, b)) })
	left := int(math.Floor(ratio*float64(all)+0.5)) - sumValues(target)
	for i := 0; i < left && i < len(strata); i++ {
		target[strata[i]]++
	}
	return target
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// SplitOverlap returns, sorted, the images that have samples in both the train and
// the test split (samples without a split are ignored), every image of a sample of
// several counted: a split must be image-disjoint.
func SplitOverlap(samples []Sample) []string {
	splits := map[string]map[string]bool{}
	for _, s := range samples {
		if s.Split == "" {
			continue
		}
		for _, img := range s.AllImages() {
			if img == "" {
				continue
			}
			if splits[img] == nil {
				splits[img] = map[string]bool{}
			}
			splits[img][s.Split] = true
		}
	}
	var out []string
	for img, m := range splits {
		if len(m) > 1 {
			out = append(out, img)
		}
	}
	slices.Sort(out)
	return out
}

// NormalizeQuestion folds a question for duplicate detection the way options are
// folded: lower case, apostrophes dropped, every run of punctuation or space one space.
func NormalizeQuestion(q string) string { return normalizeOption(q) }

// DuplicateQuestions returns the groups of samples (ids, sorted; groups sorted by
// their first id) that ask the same normalised question about the same images in
// the same order. Samples sharing only some images, or the same images in another
// order, are not duplicates: LRR-Bench's negatives ask a positive's question about
// its images shuffled.
func DuplicateQuestions(samples []Sample) [][]string {
	by := map[string][]string{}
	for _, s := range samples {
		k := QuestionKey(s)
		by[k] = append(by[k], s.ID)
	}
	var out [][]string
	for _, ids := range by {
		if len(ids) > 1 {
			slices.Sort(ids)
			out = append(out, ids)
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return cmp.Compare(a[0], b[0]) })
	return out
}

// QuestionKey is what makes two samples the same question: their images in order
// and the normalised question (NormalizeQuestion). The same question over the same
// images in another order is another question (LRR-Bench's shuffled negatives).
func QuestionKey(s Sample) string {
	return strings.Join(s.AllImages(), "\x00") + "\x00\x00" + NormalizeQuestion(s.Question)
}
