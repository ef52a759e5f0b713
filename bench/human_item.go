package bench

// NewHumanItem is release item it as a person answering the human baseline is
// shown it: the image, the question and the options, never the gold answer or
// box; a sequence's further images and every image's label (none for one
// image); and answered, their own answer so far.
func NewHumanItem(it ReleaseItem, answered string) HumanItem {
	s := it.Content
	var labels []string
	if len(s.MoreImages) > 0 {
		labels = s.Labels()
	}
	return HumanItem{SampleID: it.SampleID, Kind: s.Kind, Question: s.Question, Options: s.Options, Hop: s.Hop,
		ImagePath: it.ImagePath, Width: it.Width, Height: it.Height, More: s.MoreImages, Labels: labels, Answered: answered}
}
