package bench

import (
	"errors"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
)

// NewCandidate is candidate c of parent, at ref, with the lint findings of its
// derived sample (linted as a derived sample, under a stand-in id: the real one
// is given on acceptance).
func NewCandidate(ref CandidateRef, parent annotate.Sample, c augment.Candidate) Candidate {
	probe := c.Sample
	probe.ID = "candidate" // lint wants an id; the real one is given on acceptance
	fs := annotate.Lint(probe, annotate.LintEnv{HandWritten: false})
	for i := range fs {
		fs[i].Sample = ""
	}
	return Candidate{CandidateRef: ref, Sample: c.Sample, ParentSample: parent, Origin: c.Origin, Edit: c.Edit, Findings: fs}
}

// DeriveCandidates derives the candidates of parents (accepted samples, in their
// order; each parent's in augment.Derive's order) by the transforms ts (every one
// that applies when ts is empty), leaves out those decided (accepted or
// discarded already), and marks as a Duplicate each that asks the same question
// about the same images as a sample (questions: annotate.QuestionKey → the
// sample's id) or as an earlier candidate of the list. A parent augment.Derive
// refuses as a parent (augment.ErrParent: an accepted graph with lint errors
// under older rules, a yes/no question about one image) has no candidates.
func DeriveCandidates(parents []SampleInfo, ts []augment.Transform, decided map[CandidateRef]bool, questions map[string]string) ([]Candidate, error) {
	offered := map[string]string{} // images + question → the candidate offering it
	var out []Candidate
	for _, p := range parents {
		cs, err := augment.Derive(p.Content, ts...)
		if errors.Is(err, augment.ErrParent) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			ref := CandidateRef{Parent: p.ID, ParentRevision: p.Revision, Transform: c.Transform, Anchor: c.Anchor}
			if decided[ref] {
				continue
			}
			cand := NewCandidate(ref, p.Content, c)
			key := annotate.QuestionKey(c.Sample)
			switch {
			case questions[key] != "":
				cand.Duplicate = questions[key]
			case offered[key] != "":
				cand.Duplicate = "candidate " + offered[key]
			default:
				offered[key] = ref.String()
			}
			out = append(out, cand)
		}
	}
	return out, nil
}
