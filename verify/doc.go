// Package verify is the verification protocol of spec §3 as plain rules that
// every caller obeys: the GUI, bwctl, the synthetic generator and the store all
// call these functions, and none restates them. Each rule lives in one file:
//
//   - access.go: who may do what, one table of actions × roles (Permit,
//     Permitted); every exported store method asks it first.
//   - state.go: the states and the one table of transitions (Transition,
//     Reopen), with the Who column checked by Authorize.
//   - review.go: who may review what (CanReview: author and correctors out, one
//     seat per verifier and revision, round 2 from another group, the round-3
//     panel), round-3 blindness, late votes and settling (Round3).
//   - criteria.go: the yes/no criteria of each kind and round, and what a valid
//     verdict is (CheckVerdict): an approval judges every criterion yes; a
//     rejection judges at least one no, or gives "other" with a comment.
//   - record.go: what a recorded decision or correction does (Record, Correct).
//   - trail.go: the trail an accepted sample needs to be frozen (Trail).
//   - policy.go: the settings a lead can change (Policy), and claim.go the
//     claims that hold a seat for a while.
//   - members.go: projects as a boundary: every action on a project is its
//     members' alone, leads included (PermitMember), and a project keeps a lead
//     among its members (CheckLeave).
//
// The protocol with DefaultPolicy:
//
//   - The author submits a draft, or a returned sample after revising it. It
//     enters round 1.
//   - Round 1: one verifier checks the round-1 criteria. The author and anyone
//     who corrected the revision are excluded. Approve moves it to round 2.
//     Reject returns it to its author, with reasons.
//   - Round 2: one verifier from a different group than round 1 checks the
//     round-1 criteria again, plus grammar and non-eliminable options. In a
//     2-round project (Policy.Rounds = 2) this approval accepts the sample.
//   - Round 3: a blind panel of Round3Panel verifiers, none of whom served on
//     rounds 1-2 of that revision. The sample is accepted once every seat has
//     approved. The first reject returns it. Votes cast before that reject stay
//     recorded, and panel members who already held a seat may still cast theirs
//     afterwards (CanVoteLate): a late vote changes no state but counts for
//     agreement. Until every seat has voted or lapsed, a seat holder sees no
//     other round-3 vote (Round3.CanSee). When a lead shrinks the panel below the
//     approvals an open round 3 already has, one more verifier takes the
//     deciding seat.
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
//  1. Permit the action for the acting user's role, and on a project
//     PermitMember, which adds that they must be one of its members.
//  2. Take a claim. Call CanReview with the other verifiers' claims, and store
//     NewClaim only if it allows the reviewer, so nobody holds a seat they
//     cannot fill.
//  3. While the review form is open, Round3.CanSee decides whether other
//     round-3 votes may be shown; Round3.Settled whether they count yet.
//     Wherever votes are listed (a sample's reviews, its history),
//     Round3.ViewFor says what a viewer sees of each: shown, masked as a vote
//     without decision or verifier, or hidden.
//  4. Record (or Correct) in the same transaction that stores the review. It
//     repeats CanReview, checks the verdict with CheckVerdict, and returns the
//     review to store (in its normalised form) and the sample's new state.
//  5. Release the claim.
//
// Submit, withdraw and reopen go through Authorize and Transition (or Reopen);
// a freeze checks every accepted sample with Trail.
//
// The package is plain Go. It does not import the UI or SQL packages.
package verify
