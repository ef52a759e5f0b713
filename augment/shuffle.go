package augment

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/benchwright/benchwright/annotate"
)

// LRR-Bench's negatives (lrr-bench.txt §III, lines 76–180): a yes/no question about
// an ordered sequence of images whose answer is "yes" for the order shown becomes a
// negative when the images are shown in another order. Shuffle derives that
// candidate: the same question over the same images in an order drawn from a seed
// (the parent's id, so that the candidate derives again the same), never the
// original order, with the answer flipped. Labels stay with their positions (the
// first image shown is always A), frames move with their images, and a box stays
// on the image it was drawn on. Whether the flipped answer is right for the new
// order is for a person to verify, as with every candidate: a sequence whose
// question holds in any order (a yes that does not depend on the order) is one a
// verifier rejects.

// shuffleParent says why parent cannot be shuffled, or "" when it can.
func shuffleParent(parent annotate.Sample) string {
	switch {
	case parent.Kind != annotate.KindJudgment:
		return fmt.Sprintf("%s is a %s sample, not a yes/no question", parent.ID, parent.Kind)
	case parent.NumImages() < 2:
		return fmt.Sprintf("%s shows one image; only a sequence can be shown in another order", parent.ID)
	case parent.AnswerText != "yes" && parent.AnswerText != "no":
		return fmt.Sprintf("%s has the answer %q, not yes or no", parent.ID, parent.AnswerText)
	}
	return ""
}

// shuffles returns parent's shuffled negative: one candidate, anchored by the new
// order as 1-based positions of the parent's images ("order 3,1,2").
func shuffles(parent annotate.Sample) []Candidate {
	perm := shuffleOrder(parent.ID, parent.AllImages())
	if perm == nil {
		return nil // every image the same: no other order exists
	}
	images := parent.AllImages()
	s := annotate.Sample{
		Kind: annotate.KindJudgment, Question: parent.Question, QuestionTag: parent.QuestionTag, Categories: slices.Clone(parent.Categories),
		Scene: parent.Scene, Task: parent.Task, Split: parent.Split, View: parent.View, Hop: parent.Hop,
		ImageLabels: slices.Clone(parent.ImageLabels), Parent: parent.ID, Transform: string(Shuffle),
		AnswerText: map[string]string{"yes": "no", "no": "yes"}[parent.AnswerText],
	}
	order := make([]string, len(perm))
	var frames []annotate.Frame
	shown := make([]string, len(perm))
	for i, from := range perm {
		shown[i] = images[from]
		order[i] = strconv.Itoa(from + 1)
		if len(parent.Frames) == len(images) {
			frames = append(frames, parent.Frames[from])
		}
		if parent.Box != nil && from == parent.BoxImage {
			s.BoxImage = i
		}
	}
	s.SetImages(shown)
	s.Frames = frames
	if parent.Box != nil {
		b := *parent.Box
		s.Box = &b
	}
	return []Candidate{{Transform: Shuffle, Anchor: "order " + strings.Join(order, ","), Sample: s}}
}

// shuffleOrder draws the positions of images in their new order from a seed made
// of id: a permutation of 0…n−1 that shows the images in another sequence than
// the original (positions holding the same path count as the same). It is nil
// when no other sequence exists.
func shuffleOrder(id string, images []string) []int {
	n := len(images)
	distinct := slices.Compact(slices.Sorted(slices.Values(images)))
	if len(distinct) < 2 {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x4c5252)) // "LRR"
	for {
		perm := rng.Perm(n)
		for i, from := range perm {
			if images[from] != images[i] {
				return perm
			}
		}
	}
}
