// Package verify is the three-round verification protocol of spec §3 as plain
// rules that the store enforces for every caller: the states a sample moves
// through, the one table of transitions between them, who may review what, how
// a recorded decision moves a sample, the yes/no criteria checked in each round,
// and claims that expire.
//
// The protocol with DefaultPolicy:
//
//   - The author submits a draft, or a returned sample after revising it. It
//     enters round 1.
//   - Round 1: one verifier checks the round-1 criteria. The author and anyone
//     who corrected the revision are excluded. Approve moves it to round 2.
//     Reject returns it to its author, with reasons.
//   - Round 2: one verifier from a different group than round 1 checks the
//     round-1 criteria again, plus grammar and non-eliminable options.
//   - Round 3: a blind panel of Round3Panel verifiers, none of whom served on
//     rounds 1-2 of that revision. The sample is accepted once every seat has
//     approved. The first reject returns it. Votes cast before that reject stay
//     recorded, and panel members who already held a seat may still cast theirs
//     afterwards (CanVoteLate): a late vote changes no state but counts for
//     agreement. Until every seat has voted or lapsed, a seat holder sees no
//     other round-3 vote (Round3.CanSee).
//   - A verifier may correct the sample instead of judging it. The correction is
//     a new revision attributed to the corrector, and it re-enters round 1.
//   - A lead may withdraw a sample from any state. Reopening it restores the
//     state it had before.
//
// Reviews count per revision: a new revision starts with no reviews. The one
// exception is a policy where corrections stay in their round; then Correct
// says which earlier-round reviews carry over.
//
// A store calls the functions in this order:
//
//  1. Take a claim. Call CanReview with the other verifiers' claims, and store
//     NewClaim only if it allows the reviewer, so nobody holds a seat they
//     cannot fill.
//  2. While the review form is open, CanSeeRound3Votes decides whether other
//     round-3 votes may be shown.
//  3. Record (or Correct) in the same transaction that stores the review. It
//     repeats CanReview, checks the verdict against the criteria with
//     CheckVerdict, and returns the review to store and the sample's new state.
//  4. Release the claim.
//
// Submit, withdraw and reopen go through Authorize and Transition (or Reopen).
//
// The package is plain Go. It does not import the UI or SQL packages.
package verify
