package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/score"
)

func init() {
	commands["hard-subset"] = command{runHardSubset, "hard-subset propose|list|show|decide|freeze: samples k of n models fail, curated into a release (leads)"}
	commands["human"] = command{runHuman, "human draw|status|answer: the human baseline of a frozen release"}
}

const (
	hardUsage = "usage: bwctl hard-subset propose --db DB [--project P] --release NAME@VERSION --as LEAD --k K [--model NAME]... [--target N] [--seed S] [--strict]\n" +
		"       bwctl hard-subset list --db DB [--project P] --release NAME@VERSION --as LEAD\n" +
		"       bwctl hard-subset show --db DB --as LEAD [--json] SUBSET\n" +
		"       bwctl hard-subset decide --db DB --as LEAD (--keep ID,... | --drop ID,...) [--reason TEXT] SUBSET\n" +
		"       bwctl hard-subset freeze --db DB --as LEAD --name NAME --version VERSION SUBSET"
	humanUsage = "usage: bwctl human draw --db DB [--project P] --release NAME@VERSION --as LEAD --size N [--seed S]\n" +
		"       bwctl human status --db DB [--project P] --release NAME@VERSION --as USER\n" +
		"       bwctl human answer --db DB [--project P] --release NAME@VERSION --as USER --sample ID (--option X [--box X1,Y1,X2,Y2] | --text T)"
)

func runHardSubset(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub := map[string]func(context.Context, []string, io.Writer, io.Writer) int{
		"propose": runHardPropose, "list": runHardList, "show": runHardShow, "decide": runHardDecide, "freeze": runHardFreeze,
	}
	if len(args) == 0 || sub[args[0]] == nil {
		fmt.Fprintln(stderr, hardUsage)
		return exitUsage
	}
	return sub[args[0]](ctx, args[1:], stdout, stderr)
}

// printHardSubset writes one line about a candidate list.
func printHardSubset(w io.Writer, h bench.HardSubset) {
	state := fmt.Sprintf("%d kept, %d dropped, %d undecided", h.Kept, h.Dropped, h.Undecided())
	if h.Frozen != "" {
		state += "; frozen as " + h.Frozen
	}
	target := "all"
	if h.Target > 0 {
		target = strconv.Itoa(h.Target)
	}
	strict := ""
	if h.Strict {
		strict = ", strict (a missed box fails)"
	}
	fmt.Fprintf(w, "hard subset %d of %s: %d candidates of %d failed by at least %d of %d models (%s), target %s, seed %d%s; %s; proposed by %s at %s\n",
		h.ID, h.Release, h.Candidates, h.Pool, h.K, h.N, strings.Join(h.Models, ", "), target, h.Seed, strict, state, h.CreatedBy, h.CreatedAt)
}

func runHardPropose(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hard-subset propose", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "the parent release, NAME@VERSION (or its id)")
	project := fs.String("project", "", "the release's project (needed when two projects hold the same NAME@VERSION)")
	var models stringList
	fs.Var(&models, "model", "a model that votes (repeat; default: every model with predictions)")
	k := fs.Int("k", 0, "a sample is a candidate when at least k of the models fail it")
	target := fs.Int("target", 0, "candidates to draw, balanced over categories (0: all)")
	seed := fs.Int64("seed", 0, "seeds the draw in each category")
	strict := fs.Bool("strict", false, "a hop answer with the right option whose box misses (IoU < 0.5) counts as failed")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" || *k <= 0 {
		fmt.Fprintln(stderr, "bwctl hard-subset propose: --release and --k are required\n"+hardUsage)
		return exitUsage
	}
	db, actor, ref, _, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	h, err := db.ProposeHardSubset(ctx, actor, ref, bench.HardSubsetInput{Models: models, K: *k, Target: *target, Seed: *seed, Strict: *strict})
	if err != nil {
		return fail(stderr, err)
	}
	printHardSubset(stdout, h)
	return exitOK
}

func runHardList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hard-subset list", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "the parent release, NAME@VERSION (or its id)")
	project := fs.String("project", "", "the release's project")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" {
		fmt.Fprintln(stderr, "bwctl hard-subset list: --release is required\n"+hardUsage)
		return exitUsage
	}
	db, actor, ref, name, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	hs, err := db.HardSubsets(ctx, actor, ref)
	if err != nil {
		return fail(stderr, err)
	}
	if len(hs) == 0 {
		fmt.Fprintf(stderr, "bwctl hard-subset list: no hard subset is proposed on %s\n", name)
	}
	for _, h := range hs {
		printHardSubset(stdout, h)
	}
	return exitOK
}

// subsetArg reads the one positional argument, a hard subset's number.
func subsetArg(name string, pos []string, stderr io.Writer) (int64, bool) {
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "bwctl hard-subset %s: give one SUBSET number\n%s\n", name, hardUsage)
		return 0, false
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "bwctl hard-subset %s: SUBSET %q is not a number (bwctl hard-subset list shows them)\n", name, pos[0])
		return 0, false
	}
	return id, true
}

func runHardShow(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hard-subset show", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	asJSON := fs.Bool("json", false, "one JSON object per candidate")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	id, ok := subsetArg("show", pos, stderr)
	if !ok {
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	h, cs, err := db.HardCandidates(ctx, actor, id)
	if err != nil {
		return fail(stderr, err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		for _, c := range cs {
			if err := enc.Encode(map[string]any{"sample_id": c.SampleID, "category": c.Category, "failed_by": c.FailedBy,
				"decision": c.Decision, "reason": c.Reason, "decided_by": c.DecidedBy, "decided_at": c.DecidedAt}); err != nil {
				return fail(stderr, err)
			}
		}
		return exitOK
	}
	printHardSubset(stdout, h)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SAMPLE\tCATEGORY\tFAILED BY\tDECISION\tREASON")
	for _, c := range cs {
		d := c.Decision
		if d == "" {
			d = "–"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.SampleID, c.Category, strings.Join(c.FailedBy, ", "), d, c.Reason)
	}
	if err := tw.Flush(); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

func runHardDecide(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hard-subset decide", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	keep := fs.String("keep", "", "sample ids to keep, comma-separated")
	drop := fs.String("drop", "", "sample ids to drop, comma-separated (needs --reason)")
	reason := fs.String("reason", "", "why (required to drop)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	id, ok := subsetArg("decide", pos, stderr)
	if !ok {
		return exitUsage
	}
	var ds []bench.HardDecision
	for _, s := range list(*keep) {
		ds = append(ds, bench.HardDecision{SampleID: s, Decision: bench.DecisionKeep, Reason: *reason})
	}
	for _, s := range list(*drop) {
		ds = append(ds, bench.HardDecision{SampleID: s, Decision: bench.DecisionDrop, Reason: *reason})
	}
	if len(ds) == 0 {
		fmt.Fprintln(stderr, "bwctl hard-subset decide: give --keep or --drop\n"+hardUsage)
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	h, err := db.DecideHardCandidates(ctx, actor, id, ds)
	if err != nil {
		return fail(stderr, err)
	}
	printHardSubset(stdout, h)
	return exitOK
}

func runHardFreeze(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("hard-subset freeze", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	name := fs.String("name", "", "the new release's name")
	version := fs.String("version", "", "the new release's version")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	id, ok := subsetArg("freeze", pos, stderr)
	if !ok {
		return exitUsage
	}
	if *name == "" || *version == "" {
		fmt.Fprintln(stderr, "bwctl hard-subset freeze: --name and --version are required\n"+hardUsage)
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	rel, err := db.FreezeHardSubset(ctx, actor, id, *name, *version)
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "froze %s: %d samples of hard subset %d (bwctl export writes its MANIFEST with the provenance)\n", rel.Ref(), rel.Samples, id)
	return exitOK
}

func runHuman(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "draw" && args[0] != "status" && args[0] != "answer") {
		fmt.Fprintln(stderr, humanUsage)
		return exitUsage
	}
	fs := newFlags("human "+args[0], stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting user (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "NAME@VERSION (or the release id)")
	project := fs.String("project", "", "the release's project")
	size := fs.Int("size", 0, "draw: items to draw, stratified by hop × view or kind × task (0: every sample a person can answer)")
	seed := fs.Int64("seed", 0, "draw: seeds the draw")
	sample := fs.String("sample", "", "answer: the item's sample id")
	option := fs.String("option", "", "answer: the option's letter (hop and option questions)")
	box := fs.String("box", "", "answer: the box X1,Y1,X2,Y2 in image pixels (hop questions)")
	text := fs.String("text", "", "answer: yes or no (judgments) or the answer (open questions)")
	pos, err := parse(fs, args[1:])
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" {
		fmt.Fprintln(stderr, "bwctl human: --release is required, and no other arguments\n"+humanUsage)
		return exitUsage
	}
	ans := score.HumanAnswer{Option: -1, Text: *text}
	if args[0] == "answer" {
		if *sample == "" {
			fmt.Fprintln(stderr, "bwctl human answer: --sample is required\n"+humanUsage)
			return exitUsage
		}
		if o := strings.ToUpper(*option); o != "" {
			if len(o) != 1 || o[0] < 'A' || o[0] > 'Z' {
				fmt.Fprintf(stderr, "bwctl human answer: --option %q: want a letter\n", *option)
				return exitUsage
			}
			ans.Option = int(o[0] - 'A')
		}
		if *box != "" {
			var b annotate.Box
			parts := strings.Split(*box, ",")
			for i := 0; i < 4 && len(parts) == 4; i++ {
				if b[i], err = strconv.ParseFloat(strings.TrimSpace(parts[i]), 64); err != nil {
					break
				}
			}
			if len(parts) != 4 || err != nil {
				fmt.Fprintf(stderr, "bwctl human answer: --box %q: want X1,Y1,X2,Y2\n", *box)
				return exitUsage
			}
			ans.Box = &b
		}
	}
	db, actor, ref, name, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	switch args[0] {
	case "draw":
		b, err := db.DrawHumanBaseline(ctx, actor, ref, *size, *seed)
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "drew %d items of %s for the human baseline (seed %d); people answer them on the Evaluate screen\n", b.Items, name, b.Seed)
	case "status":
		b, ok, err := db.HumanBaselineOf(ctx, actor, ref)
		if err != nil {
			return fail(stderr, err)
		}
		if !ok {
			fmt.Fprintf(stdout, "%s has no human baseline; a lead draws one with bwctl human draw\n", name)
			return exitOK
		}
		fmt.Fprintf(stdout, "human baseline of %s: %d items (size %d, seed %d, drawn by %s at %s); %d answers from %d people\n",
			name, b.Items, b.Size, b.Seed, b.CreatedBy, b.CreatedAt, b.Answers, b.People)
	case "answer":
		if err := db.AnswerHuman(ctx, actor, ref, *sample, ans); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "stored %s's answer to %s\n", actor.Name, *sample)
	}
	return exitOK
}
