package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/augment"
	"github.com/benchwright/benchwright/bench"
)

func init() {
	commands["augment"] = command{runAugment, "derive step graphs from accepted ones (SpatiaLQA subgraphs and expansions) and accept them"}
}

const augmentUsage = "usage: bwctl augment --db DB [--project P] --as USER [--transform subgraph|expand|shuffle] [--dry-run]"

// runAugment accepts every candidate derived from the project's accepted step graphs
// that can be taken as it is (store.AcceptCandidate: a draft of USER, or round 1 when
// the project's augment_to_round1 says so). Candidates that need editing, repeat a
// question on their image or fail lint are listed on stderr and left for the app's
// Augment screen. --dry-run accepts nothing and prints the acceptable candidates as
// native JSONL records, without an id (one is given on acceptance), carrying parent
// and transform.
func runAugment(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("augment", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "annotator or lead (password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	transform := fs.String("transform", "", "only this transform: subgraph, expand or shuffle (default: all)")
	dryRun := fs.Bool("dry-run", false, "print the candidates as native JSONL and accept nothing")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 {
		fmt.Fprintln(stderr, augmentUsage)
		return exitUsage
	}
	var f bench.CandidateFilter
	if *transform != "" {
		t, err := augment.ParseTransform(*transform)
		if err != nil {
			fmt.Fprintf(stderr, "bwctl augment: --transform: %v\n", err)
			return exitUsage
		}
		f.Transform = t
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	cs, err := db.As(actor).AugmentCandidates(ctx, p.ID, f)
	if err != nil {
		return fail(stderr, err)
	}
	var accepted, drafts, left, refused int
	for _, c := range cs {
		if !c.Acceptable() {
			left++
			fmt.Fprintf(stderr, "left for the Augment screen: %s: %s\n", c.CandidateRef, whyNot(c))
			continue
		}
		if *dryRun {
			b, err := c.Sample.MarshalJSON()
			if err != nil {
				return fail(stderr, err)
			}
			fmt.Fprintf(stdout, "%s\n", b)
			continue
		}
		si, err := db.As(actor).AcceptCandidate(ctx, p.ID, c.CandidateRef, false)
		if err != nil {
			refused++
			fmt.Fprintf(stderr, "refused: %s: %s\n", c.CandidateRef, bench.Message(err))
			continue
		}
		accepted++
		if si.Revision == 0 {
			drafts++
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", si.ID, si.Status, c.CandidateRef, si.Content.Question)
	}
	switch {
	case *dryRun:
		fmt.Fprintf(stderr, "%d candidates, %d printed, %d left for the Augment screen; nothing accepted (--dry-run)\n", len(cs), len(cs)-left, left)
	default:
		fmt.Fprintf(stderr, "%d candidates: %d accepted (%d drafts of %s, %d into round 1), %d refused, %d left for the Augment screen\n",
			len(cs), accepted, drafts, actor.Name, accepted-drafts, refused, left)
	}
	if refused > 0 {
		return exitFindings
	}
	return exitOK
}

// whyNot says why a candidate cannot be accepted as it is.
func whyNot(c bench.Candidate) string {
	var why []string
	if c.Edit != "" {
		why = append(why, "needs editing: "+c.Edit)
	}
	if c.Duplicate != "" {
		why = append(why, "the same question as "+c.Duplicate+" on this image")
	}
	for _, f := range c.Findings {
		if f.Severity == annotate.SeverityError {
			why = append(why, fmt.Sprintf("%s: %s", f.Rule, f.Message))
		}
	}
	return strings.Join(why, "; ")
}
