// Package agreement computes inter-rater reliability statistics for verifier
// judgements and boxes: Krippendorff's alpha at the nominal, ordinal, interval
// and ratio levels with a bootstrap confidence interval, the reading of an
// alpha against Krippendorff's 0.800/0.667 cut-offs, pairwise IoU agreement
// between boxes, and a reader for reliability data in Krippendorff's CSV
// layout (one row per coder, one column per unit).
//
// It also computes a project's agreement tables ([Judgements.Tables]): alpha per
// round and criterion and without each verifier, from the judgements the store
// hands over once it has decided which reviews may be seen.
//
// It is plain Go: no UI and no SQL.
package agreement
