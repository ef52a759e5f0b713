package main

// bwctl samples: the lead's sample manager (store/manager.go) for scripts. search
// takes the manager's filters (bench.SampleQuery); withdraw, reopen, reassign and
// release-claims act on a list of ids through the same store calls as the
// manager's buttons, so the store checks and audits them exactly as it does there.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/verify"
)

func init() {
	commands["samples"] = command{runSamples, "samples search|withdraw|reopen|reassign|release-claims: the sample manager for scripts (leads)"}
}

const samplesUsage = `usage: bwctl samples search --db DB|--server ADDR --project P --as LEAD [filters] [--json]
       bwctl samples withdraw|reopen --db DB|--server ADDR --as LEAD --ids FILE --reason TEXT
       bwctl samples reassign --db DB|--server ADDR --as LEAD --ids FILE --to NAME --reason TEXT
       bwctl samples release-claims --db DB|--server ADDR --as LEAD --ids FILE
search prints the samples the manager's filters select (every one; --limit for fewer),
a table, or with --json one JSON object a line. The actions read sample ids from FILE
('-': standard input), one a line; blank lines and lines starting with # are skipped.
Each sample the store refuses is named with the reason (exit 1); the others still move.
A sample withdrawn already is said to be, and is no error.`

// maxIDsBytes bounds an --ids file: 100,000 ids (the most one action takes) of
// 128 bytes fit several times.
const maxIDsBytes = 64 << 20

func runSamples(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || !slices.Contains([]string{"search", "withdraw", "reopen", "reassign", "release-claims"}, args[0]) {
		fmt.Fprintln(stderr, samplesUsage)
		return exitUsage
	}
	if args[0] == "search" {
		return samplesSearch(ctx, args[1:], stdout, stderr)
	}
	return samplesAct(ctx, args[0], args[1:], stdout, stderr)
}

// listFlag is a flag given several times or as a comma-separated list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

func samplesSearch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("samples search", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "lead (password from BENCHWRIGHT_PASSWORD)")
	project := fs.String("project", "", "project (default: the only one)")
	var states, kinds listFlag
	fs.Var(&states, "state", "only samples in these states (repeat or comma-separate): "+stateNames())
	fs.Var(&kinds, "kind", "only samples of these kinds (repeat or comma-separate): "+kindNames())
	text := fs.String("text", "", "every word starts a word of the id, question, options, answer or steps")
	author := fs.String("author", "", "written by this account")
	verifier := fs.String("verifier", "", "reviewed by this account (in --round, when given)")
	round := fs.Int("round", 0, "reviewed in this round (1-3)")
	imagePath := fs.String("image", "", "showing this project image (its path in the project), at any position")
	hop := fs.Int("hop", 0, "hop questions of this hop (1-3)")
	view := fs.String("view", "", "ego or exo")
	categories := fs.String("categories", "", `category set as the dashboard names it ("att+rel", "none")`)
	task := fs.String("task", "", "task label")
	split := fs.String("split", "", "split")
	rejectReason := fs.String("reject-reason", "", "a rejection gave this reason (a criterion id, or other)")
	rejected := fs.Bool("rejected", false, "some revision was rejected (in --round, when given)")
	acknowledged := fs.Bool("acknowledged", false, "submitted with lint warnings acknowledged")
	derived := fs.Bool("derived", false, "derived from another sample (augmentation)")
	bySampling := fs.Bool("by-sampling", false, "accepted by sampling with the rest of a validated batch")
	from := fs.String("from", "", "last change on or after this day (YYYY-MM-DD, UTC)")
	to := fs.String("to", "", "last change on or before this day (YYYY-MM-DD, UTC)")
	sortBy := fs.String("sort", string(bench.SortUpdated), "order by "+sortNames())
	desc := fs.Bool("desc", false, "newest, highest or last first")
	offset := fs.Int("offset", 0, "skip this many samples of the order")
	limit := fs.Int("limit", 0, "at most this many samples (0: all)")
	asJSON := fs.Bool("json", false, "one JSON object a line: id, state, kind, author, image, …")
	if pos, err := parse(fs, args); err != nil {
		return usageCode(err)
	} else if len(pos) > 0 {
		fmt.Fprintf(stderr, "bwctl samples search: unexpected %q (words to find go in --text)\n", pos[0])
		return exitUsage
	}
	q := bench.SampleQuery{Text: *text, Round: *round, Hop: *hop, View: annotate.View(*view), Categories: *categories,
		Task: *task, Split: *split, RejectReason: *rejectReason, Rejected: *rejected, Acknowledged: *acknowledged,
		Derived: *derived, BySampling: *bySampling, From: *from, To: *to, Sort: bench.SampleSort(*sortBy), Desc: *desc,
		Offset: *offset}
	for _, s := range states {
		if !verify.State(s).Valid() {
			fmt.Fprintf(stderr, "bwctl samples search: --state %q; states are %s\n", s, stateNames())
			return exitUsage
		}
		q.States = append(q.States, verify.State(s))
	}
	for _, k := range kinds {
		if !annotate.Kind(k).Valid() {
			fmt.Fprintf(stderr, "bwctl samples search: --kind %q; kinds are %s\n", k, kindNames())
			return exitUsage
		}
		q.Kinds = append(q.Kinds, annotate.Kind(k))
	}
	if !slices.Contains(bench.SampleSorts, q.Sort) {
		fmt.Fprintf(stderr, "bwctl samples search: --sort %q; sort by %s\n", *sortBy, sortNames())
		return exitUsage
	}
	if *view != "" && q.View != annotate.ViewEgo && q.View != annotate.ViewExo {
		fmt.Fprintf(stderr, "bwctl samples search: --view %q; views are ego and exo\n", *view)
		return exitUsage
	}
	if *offset < 0 || *limit < 0 {
		fmt.Fprintln(stderr, "bwctl samples search: --offset and --limit are counts, 0 or more")
		return exitUsage
	}
	db, actor, p, closeDB, code := connectProjectAs(ctx, at, *as, *project, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	// Names become the ids the query holds; an unknown name is not a filter that
	// finds nothing but a mistake to say.
	for _, n := range []struct {
		name string
		id   *int64
	}{{*author, &q.AuthorID}, {*verifier, &q.VerifierID}} {
		if n.name == "" {
			continue
		}
		u, err := db.As(actor).UserByName(ctx, n.name)
		if err != nil {
			return fail(stderr, err)
		}
		*n.id = u.ID
	}
	if *imagePath != "" {
		im, err := db.As(actor).ImageByPath(ctx, p.ID, *imagePath)
		if err != nil {
			return fail(stderr, err)
		}
		q.ImageID = im.ID
	}
	var rows []bench.SampleRow
	total := 0
	for {
		q.Limit = 1000
		if *limit > 0 {
			q.Limit = min(q.Limit, *limit-len(rows))
		}
		page, err := db.As(actor).SearchSamples(ctx, p.ID, q)
		if err != nil {
			return fail(stderr, err)
		}
		rows, total = append(rows, page.Rows...), page.Total
		q.Offset += len(page.Rows)
		if len(page.Rows) == 0 || q.Offset >= total || *limit > 0 && len(rows) >= *limit {
			break
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range rows {
			if err := enc.Encode(sampleRecord(r)); err != nil {
				return fail(stderr, err)
			}
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tKIND\tAUTHOR\tIMAGE\tUPDATED")
	for _, r := range rows {
		image := r.ImagePath
		if n := r.Content.NumImages(); n > 1 {
			image += fmt.Sprintf(" (+%d)", n-1)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Status, r.Kind, r.AuthorName, image, day(r.UpdatedAt))
	}
	tw.Flush()
	if len(rows) == total {
		fmt.Fprintf(stdout, "%d of %d samples\n", len(rows), total)
	} else {
		fmt.Fprintf(stdout, "%d of %d samples (from %d)\n", len(rows), total, *offset+1)
	}
	return exitOK
}

// sampleJSON is one line of search --json: the manager's row of a sample.
type sampleJSON struct {
	ID            string   `json:"id"`
	State         string   `json:"state"`
	Kind          string   `json:"kind"`
	Author        string   `json:"author"`
	Image         string   `json:"image,omitempty"`
	Images        []string `json:"images,omitempty"` // a sequence: every image, in order
	Hop           int      `json:"hop,omitempty"`
	View          string   `json:"view,omitempty"`
	Categories    string   `json:"categories,omitempty"`
	Task          string   `json:"task,omitempty"`
	Split         string   `json:"split,omitempty"`
	Revision      int      `json:"revision"`
	RejectReasons []string `json:"reject_reasons,omitempty"`
	Acknowledged  bool     `json:"acknowledged,omitempty"`
	Derived       bool     `json:"derived,omitempty"`
	Question      string   `json:"question,omitempty"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

func sampleRecord(r bench.SampleRow) sampleJSON {
	out := sampleJSON{ID: r.ID, State: string(r.Status), Kind: string(r.Kind), Author: r.AuthorName, Image: r.ImagePath,
		Hop: r.Content.Hop, View: string(r.Content.View), Categories: r.Categories, Task: r.Content.Task, Split: r.Content.Split,
		Revision: r.Revision, RejectReasons: r.Reasons, Acknowledged: r.Acknowledged, Derived: r.Derived,
		Question: r.Content.Question, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if ps := r.Content.AllImages(); len(ps) > 1 {
		out.Images = ps
	}
	return out
}

// day is the date of an RFC 3339 time, for the table.
func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return t
}

func stateNames() string {
	s := make([]string, len(verify.States))
	for i, st := range verify.States {
		s[i] = string(st)
	}
	return strings.Join(s, ", ")
}

func sortNames() string {
	s := make([]string, len(bench.SampleSorts))
	for i, o := range bench.SampleSorts {
		s[i] = string(o)
	}
	return strings.Join(s, ", ")
}

func samplesAct(ctx context.Context, sub string, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("samples "+sub, stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "lead (password from BENCHWRIGHT_PASSWORD)")
	idsFile := fs.String("ids", "", "file of sample ids, one a line ('-': standard input)")
	reason := new(string)
	if sub != "release-claims" { // the store records no reason for released claims (each is audited with its verifier)
		reason = fs.String("reason", "", "why (kept in each sample's history)")
	}
	to := new(string)
	if sub == "reassign" {
		to = fs.String("to", "", "the new author (an annotator or lead of the samples' project)")
	}
	if pos, err := parse(fs, args); err != nil {
		return usageCode(err)
	} else if len(pos) > 0 {
		fmt.Fprintf(stderr, "bwctl samples %s: unexpected %q (ids go in the --ids file)\n", sub, pos[0])
		return exitUsage
	}
	switch {
	case *idsFile == "":
		fmt.Fprintf(stderr, "bwctl samples %s: --ids FILE is required (one sample id a line; '-': standard input)\n", sub)
		return exitUsage
	case sub != "release-claims" && strings.TrimSpace(*reason) == "":
		fmt.Fprintf(stderr, "bwctl samples %s: --reason TEXT is required (kept in each sample's history)\n", sub)
		return exitUsage
	case sub == "reassign" && *to == "":
		fmt.Fprintln(stderr, "bwctl samples reassign: --to NAME is required")
		return exitUsage
	}
	ids, err := readIDs(*idsFile)
	if err != nil {
		fmt.Fprintf(stderr, "bwctl samples %s: %v\n", sub, err)
		return exitUsage
	}
	if len(ids) == 0 {
		fmt.Fprintf(stderr, "bwctl samples %s: %s holds no sample id\n", sub, *idsFile)
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	var res bench.SelectionResult
	var verb string
	switch sub {
	case "withdraw":
		res, err = db.As(actor).WithdrawSamples(ctx, ids, strings.TrimSpace(*reason))
		verb = "withdrew"
	case "reopen":
		res, err = db.As(actor).ReopenSamples(ctx, ids, strings.TrimSpace(*reason))
		verb = "reopened"
	case "reassign":
		res, err = db.As(actor).ReassignDrafts(ctx, ids, *to, strings.TrimSpace(*reason))
		verb = "gave " + *to
	case "release-claims":
		res, err = db.As(actor).ReleaseClaims(ctx, ids)
		verb = "released the claims on"
	}
	if err != nil {
		return fail(stderr, err)
	}
	for _, id := range res.Done {
		fmt.Fprintf(stdout, "%s\t%s\n", id, map[string]string{"withdraw": "withdrawn", "reopen": "reopened",
			"reassign": "now " + *to + "'s", "release-claims": "claims released"}[sub])
	}
	for _, id := range res.Withdrawn {
		fmt.Fprintf(stdout, "%s\twithdrawn already\n", id)
	}
	for _, r := range res.Refused {
		fmt.Fprintf(stdout, "%s\trefused: %s\n", r.SampleID, r.Reason)
	}
	fmt.Fprintln(stderr, res.Summary(verb))
	if len(res.Refused) > 0 {
		return exitFindings
	}
	return exitOK
}

// readIDs reads sample ids one a line from path ('-': standard input), skipping
// blank lines and # comments; a line that is no sample id (annotate.CheckID) is
// named with its number. A repeated id is taken once.
func readIDs(path string) ([]string, error) {
	var r io.Reader = os.Stdin
	name := "standard input"
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, name = f, path
	}
	sc := bufio.NewScanner(capped(r, name, maxIDsBytes))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var ids []string
	seen := map[string]bool{}
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := annotate.CheckID(line); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if !seen[line] {
			seen[line] = true
			ids = append(ids, line)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s has a line longer than 1 MiB; it holds one sample id a line", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ids, nil
}
