package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func runReview(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: bwctl review queue|submit|criteria [flags]")
		return exitUsage
	}
	switch args[0] {
	case "queue":
		return reviewQueue(ctx, args[1:], stdout, stderr)
	case "submit":
		return reviewSubmit(ctx, args[1:], stdout, stderr)
	case "criteria":
		return reviewCriteria(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "bwctl review: unknown subcommand %q (queue, submit, criteria)\n", args[0])
	return exitUsage
}

func reviewCriteria(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("review criteria", stderr)
	kind := fs.String("kind", "", "sample kind: "+kindNames())
	round := fs.Int("round", 0, "round 1-3")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	list := verify.Criteria(annotate.Kind(*kind), *round)
	if list == nil {
		fmt.Fprintf(stderr, "bwctl review criteria: no criteria for kind %q round %d (kinds: %s; rounds 1-3)\n", *kind, *round, kindNames())
		return exitUsage
	}
	for _, c := range list {
		fmt.Fprintf(stdout, "%s\t%s\n", c.ID, c.Help)
	}
	return exitOK
}

func kindNames() string {
	var s []string
	for _, k := range annotate.Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// projectFor resolves --project, or when it is omitted the only project actor
// (whom db acts as) is a member of (the only one of the database, read without
// an account).
func projectFor(ctx context.Context, db bench.Calls, actor bench.User, name string) (bench.Project, error) {
	if name != "" {
		return db.ProjectByName(ctx, name)
	}
	ps, err := db.Projects(ctx)
	if err != nil {
		return bench.Project{}, err
	}
	if len(ps) != 1 {
		if actor.IsOwner() {
			return bench.Project{}, fmt.Errorf("%w: the database holds %d projects; name one with --project", bench.ErrInvalid, len(ps))
		}
		return bench.Project{}, fmt.Errorf("%w: %s is a member of %d projects; name one with --project", bench.ErrInvalid, actor.Name, len(ps))
	}
	return ps[0], nil
}

func reviewQueue(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("review queue", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "verifier (password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	round := fs.Int("round", 0, "only this round (1-3)")
	limit := fs.Int("limit", 0, "at most this many samples, oldest change first (0: all)")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	if *limit < 0 {
		fmt.Fprintf(stderr, "bwctl review queue: --limit %d is negative\n", *limit)
		return exitUsage
	}
	items, err := db.As(actor).ReviewQueueLimit(ctx, p.ID, *round, *limit)
	if err != nil {
		return fail(stderr, err)
	}
	enc := json.NewEncoder(stdout)
	for _, it := range items {
		if *asJSON {
			enc.Encode(struct {
				Sample string `json:"sample"`
				Round  int    `json:"round"`
				Kind   string `json:"kind"`
			}{it.SampleID, it.Round, it.Kind})
			continue
		}
		fmt.Fprintf(stdout, "%s\tround %d\t%s\trevision %d\n", it.SampleID, it.Round, it.Kind, it.Revision)
	}
	return exitOK
}

func reviewSubmit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("review submit", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "verifier (password from BENCHWRIGHT_PASSWORD)")
	sample := fs.String("sample", "", "sample id")
	round := fs.Int("round", 0, "round 1-3")
	decision := fs.String("decision", "", "approve or reject")
	revision := fs.Int("revision", 0, "revision reviewed (default: the current one)")
	comment := fs.String("comment", "", "free-text comment (required with --correct: what was corrected and why)")
	correct := fs.String("correct", "", "FILE.json: one native record, the corrected sample; records a correction instead of a decision")
	var criteria, reasons multi
	fs.Var(&criteria, "criterion", "NAME=yes|no, repeatable (see bwctl review criteria); all=yes judges every criterion of the round")
	fs.Var(&reasons, "reason", "reason code of a reject, repeatable (a criterion name or other)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	if *correct != "" {
		if *sample == "" || *round == 0 || *decision != "" || len(criteria) > 0 || len(reasons) > 0 || strings.TrimSpace(*comment) == "" {
			fmt.Fprintln(stderr, "bwctl review submit: --correct FILE needs --sample, --round and --comment, and takes no --decision, --criterion or --reason")
			return exitUsage
		}
		return reviewCorrect(ctx, at, *as, *sample, *round, *revision, *correct, *comment, stdout, stderr)
	}
	if *sample == "" || *round == 0 || (*decision != "approve" && *decision != "reject") {
		fmt.Fprintln(stderr, "bwctl review submit: --sample, --round and --decision approve|reject are required (or --correct FILE)")
		return exitUsage
	}
	v := verify.Verdict{Decision: verify.Decision(*decision), Judgements: map[string]bool{}, Reasons: reasons, Comment: *comment}
	for _, c := range criteria {
		name, val, ok := strings.Cut(c, "=")
		if !ok || (val != "yes" && val != "no") {
			fmt.Fprintf(stderr, "bwctl review submit: --criterion %q must be NAME=yes or NAME=no\n", c)
			return exitUsage
		}
		v.Judgements[name] = val == "yes"
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	si, err := db.As(actor).Sample(ctx, *sample)
	if err != nil {
		return fail(stderr, err)
	}
	based := *revision
	if based == 0 {
		based = si.Revision
	}
	if all, ok := v.Judgements["all"]; ok { // every criterion of the round, then the named ones
		delete(v.Judgements, "all")
		for _, c := range verify.Criteria(si.Kind, *round) {
			if _, named := v.Judgements[c.ID]; !named {
				v.Judgements[c.ID] = all
			}
		}
	}
	out, err := db.As(actor).SubmitReview(ctx, bench.ReviewInput{SampleID: *sample, Round: *round, BasedOn: based, Verdict: v})
	if err != nil {
		return fail(stderr, err)
	}
	msg := fmt.Sprintf("%s: %s in round %d → %s", *sample, *decision, *round, out.State)
	switch out.Result {
	case verify.ResultWaiting:
		msg += " (your vote is recorded; round 3 stays blind until the panel is complete)"
	case verify.ResultLate:
		msg += " (late vote: the panel had already returned it; recorded for agreement only)"
	}
	if len(out.Reasons) > 0 {
		msg += " — reasons: " + strings.Join(out.Reasons, ", ")
	}
	fmt.Fprintln(stdout, msg)
	return exitOK
}

// reviewCorrect records the corrected sample in file as a new revision by the acting
// verifier (store.Correct).
func reviewCorrect(ctx context.Context, at where, as, sample string, round, revision int, file, comment string, stdout, stderr io.Writer) int {
	data, err := readInput(file, maxRecordBytes)
	if errors.Is(err, errTooLarge) {
		fmt.Fprintf(stderr, "bwctl review submit: %v\n", err)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "bwctl review submit: %s: %v\n", file, errors.Unwrap(err))
		return exitUsage
	}
	if !json.Valid(data) {
		fmt.Fprintf(stderr, "bwctl review submit: %s: not a JSON record\n", file)
		return exitUsage
	}
	content, findings := annotate.ParseRecord(data)
	if annotate.HasErrors(findings) {
		for _, f := range findings {
			if f.Severity == annotate.SeverityError {
				fmt.Fprintf(stderr, "%s: %s (%s): %s\n", file, f.Rule, f.Field, f.Message)
			}
		}
		return exitFindings
	}
	db, actor, closeDB, code := connectAs(ctx, at, as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	if revision == 0 {
		si, err := db.As(actor).Sample(ctx, sample)
		if err != nil {
			return fail(stderr, err)
		}
		revision = si.Revision
	}
	si, err := db.As(actor).Correct(ctx, bench.CorrectionInput{SampleID: sample, Round: round, BasedOn: revision, Content: content, Comment: comment})
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "%s: corrected in round %d → revision %d, %s\n", sample, round, si.Revision, si.Status)
	return exitOK
}

func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("status", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "user (needed with --server; password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	sample := fs.String("sample", "", "one sample's state and round")
	asJSON := fs.Bool("json", false, "JSON output")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	db, me, closeDB, code := readerAt(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	if *sample != "" {
		si, err := db.As(me).Sample(ctx, *sample)
		if err != nil {
			return fail(stderr, err)
		}
		if *asJSON {
			json.NewEncoder(stdout).Encode(map[string]any{"sample": si.ID, "state": si.Status, "round": si.Status.Round(),
				"revision": si.Revision, "kind": si.Kind, "author": si.AuthorName})
		} else {
			fmt.Fprintf(stdout, "%s\t%s\tround %d\trevision %d\n", si.ID, si.Status, si.Status.Round(), si.Revision)
		}
		return exitOK
	}
	p, err := projectFor(ctx, db.As(me), me, *project)
	if err != nil {
		return fail(stderr, err)
	}
	counts, err := db.As(me).StatusCounts(ctx, p.ID)
	if err != nil {
		return fail(stderr, err)
	}
	if *asJSON {
		json.NewEncoder(stdout).Encode(counts)
		return exitOK
	}
	for _, s := range verify.States {
		fmt.Fprintf(stdout, "%-10s %d\n", s, counts[s])
	}
	return exitOK
}

func runHistory(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("history", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "user reading the history (password from BENCHWRIGHT_PASSWORD)")
	sample := fs.String("sample", "", "sample id")
	project := fs.String("project", "", "project name: its settings changes instead of a sample's timeline (needs --as)")
	if _, err := parse(fs, args); err != nil {
		return usageCode(err)
	}
	if (*sample == "") == (*project == "") {
		fmt.Fprintln(stderr, "bwctl history: give --sample ID, or --project NAME --as USER")
		return exitUsage
	}
	if *as == "" {
		fmt.Fprintln(stderr, "bwctl history: --as USER is required: a timeline shows what its reader may see")
		return exitUsage
	}
	if *project != "" {
		db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
		if db == nil {
			return code
		}
		defer closeDB()
		return projectHistory(ctx, db.As(actor), p, stdout, stderr)
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	events, err := db.As(actor).History(ctx, *sample)
	if err != nil {
		return fail(stderr, err)
	}
	for _, e := range events {
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", e.At, e.Actor, e.Action, e.Detail)
	}
	return exitOK
}
