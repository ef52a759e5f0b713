package agreement

import "slices"

// Round-3 judgements count only once their round is settled
// (verify.Round3.Settled): a store decides that per revision, and cuts the
// others out of List with DropUnsettledRound3 before the tables are computed.

// isRound3 reports whether j is a round-3 vote.
func isRound3(j Judgement) bool { return j.Round == 3 }

// round3Groups calls fn with the place in List of every revision's judgements
// (List[at:end]) that include round-3 ones. List holds each revision's
// judgements together.
func (js *Judgements) round3Groups(fn func(at, end int)) {
	for at := 0; at < len(js.List); {
		end := at + 1
		for end < len(js.List) && js.List[end].Revision == js.List[at].Revision {
			end++
		}
		if slices.ContainsFunc(js.List[at:end], isRound3) {
			fn(at, end)
		}
		at = end
	}
}

// Round3Revisions lists the revisions with round-3 judgements, in List's order.
func (js *Judgements) Round3Revisions() []int64 {
	var out []int64
	js.round3Groups(func(at, _ int) { out = append(out, js.List[at].Revision) })
	return out
}

// DropUnsettledRound3 removes from List the round-3 judgements of every
// revision whose round 3 is not settled: settled is asked once per revision with
// round-3 judgements, with all of the revision's judgements (every round). The
// other judgements keep their order.
func (js *Judgements) DropUnsettledRound3(settled func(group []Judgement) bool) {
	blind := make([]bool, len(js.List))
	js.round3Groups(func(at, end int) {
		if !settled(js.List[at:end]) {
			for i := at; i < end; i++ {
				blind[i] = isRound3(js.List[i])
			}
		}
	})
	n := 0
	for i, j := range js.List {
		if !blind[i] {
			js.List[n] = j
			n++
		}
	}
	js.List = js.List[:n]
}
