package bench

import (
	"github.com/benchwright/benchwright/annotate"
)

// HumanBaseline is a release's human baseline and how far it is answered.
type HumanBaseline struct {
	ID        int64
	Release   string // NAME@VERSION
	Size      int    // the size asked for
	Seed      int64
	Items     int // drawn
	People    int // people who answered at least one item
	Answers   int
	CreatedBy string
	CreatedAt string
}

// HumanItem is one item of a human baseline as a person answering it sees it:
// no gold answer, no gold box, no categories or tags that hint at the answer.
type HumanItem struct {
	SampleID  string
	Kind      annotate.Kind
	Question  string
	Options   []string // hop_qa and mcq
	Hop       int      // hop_qa: the answer needs a box
	ImagePath string
	Width     int
	Height    int
	// More and Labels are a sequence's further images (their project paths, in
	// order) and every image's label (annotate.Sample.Labels); both are empty for
	// one image. A person answers a sequence seeing all of it, as a model does.
	More   []string
	Labels []string
	// Answered is the person's own answer so far (HumanResponse text), "" when
	// they have not answered the item.
	Answered string
}
