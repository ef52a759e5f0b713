// Package sampling draws seeded stratified validation samples from a
// generated set and estimates the set's error rate from what the verifiers
// found in the sample.
//
// [Draw] chooses, for each stratum (a task, a kind, hop × view, …), a seeded
// simple random sample of the size a rule asks for ([PerStratum],
// [ForMargin]); the same seed gives the same draw, and a larger size with the
// same seed gives a superset of the smaller draw, so a lead can enlarge a
// sample without discarding what was already judged. [ClopperPearson] (exact)
// and [Wilson] give the binomial confidence interval of an error rate;
// [BetaQuantile] is the inverse regularized incomplete beta function they
// rest on. [Stratified] is the whole batch's error rate, each stratum
// weighted by its size, with Korn and Graubard's interval.
//
// It is plain Go: no UI and no SQL.
package sampling
