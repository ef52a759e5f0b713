package verify

// AcceptedTrail is what is missing from an accepted sample's trail, the check a
// freeze's audit runs: SampledTrail when sampled is not nil (the sample was
// accepted by sampling), else Trail under p with the sample's author and the
// author of its accepted revision as its one corrector.
func AcceptedTrail(p Policy, author, revisionAuthor string, sampled *SampledAcceptance, reviews []Review) []string {
	if sampled != nil {
		return SampledTrail(*sampled, reviews)
	}
	return Trail(p, author, []string{revisionAuthor}, reviews)
}
