package verify

import "slices"

// Offered reports whether the app puts action a in front of role r: r may take it
// (Permitted) and it is part of r's work. Permitted is what the stores enforce, for
// every door; Offered only trims what the app's navigation and buttons show.
//
// An annotator may import images, export a frozen release, take the samples derived
// from accepted step graphs and answer the human baseline (bwctl lets them), but an
// annotator's work is annotating: in a team the images are imported, the releases
// exported and the derived samples taken by its leads, and the authors of a
// benchmark's samples are not the people its human baseline measures. The app offers
// an annotator the images, their samples and their dashboard, and nothing it would
// have to explain away.
func Offered(a Action, r Role) bool {
	return Permitted(a, r) && !slices.Contains(notOffered[r], a)
}

// notOffered are the actions a role may take that the app does not offer it.
var notOffered = map[Role][]Action{
	RoleAnnotator: {ActionImportImages, ActionExport, ActionAugment, ActionAnswerHuman},
}
