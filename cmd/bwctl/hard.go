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
	commands["hard-subset"] = command{hardCmd.run, "hard-subset propose|list|show|decide|freeze: samples k of n models fail, curated into a release (leads)"}
	commands["debias"] = command{debiasCmd.run, "debias propose|list|show|decide|freeze: a release without what a text-only model answers, curated into a release (leads)"}
	commands["human"] = command{runHuman, "human draw|status|answer: the human baseline of a frozen release"}
}

const (
	hardUsage = "usage: bwctl hard-subset propose --db DB [--project P] --release NAME@VERSION --as LEAD --k K [--model NAME]... [--target N] [--seed S] [--strict]\n" +
		"       bwctl hard-subset list --db DB [--project P] --release NAME@VERSION --as LEAD\n" +
		"       bwctl hard-subset show --db DB --as LEAD [--json] SUBSET\n" +
		"       bwctl hard-subset decide --db DB --as LEAD (--keep ID,... | --drop ID,... | --rest keep|drop) [--reason TEXT] SUBSET\n" +
		"       bwctl hard-subset freeze --db DB --as LEAD --name NAME --version VERSION SUBSET"
	debiasUsage = "usage: bwctl debias propose --db DB [--project P] --release NAME@VERSION --as LEAD [--margin POINTS] [--folds K] [--seed S]\n" +
		"       bwctl debias list --db DB [--project P] --release NAME@VERSION --as LEAD\n" +
		"       bwctl debias show --db DB --as LEAD [--json] SUBSET\n" +
		"       bwctl debias decide --db DB --as LEAD (--drop ID,... | --keep ID,... | --rest keep|drop) [--reason TEXT] SUBSET   (drop: leave out; keep: keep in)\n" +
		"       bwctl debias freeze --db DB --as LEAD --name NAME --version VERSION SUBSET"
	humanUsage = "usage: bwctl human draw --db DB [--project P] --release NAME@VERSION --as LEAD --size N [--seed S]\n" +
		"       bwctl human status --db DB [--project P] --release NAME@VERSION --as USER\n" +
		"       bwctl human answer --db DB [--project P] --release NAME@VERSION --as USER --sample ID (--option X [--box X1,Y1,X2,Y2] | --text T)"
)

// curateCmd is one of the two commands over curated subsets: hard-subset
// (bench.SubsetHard) and debias (bench.SubsetDebiased). They share the store's
// lists, decisions and freeze; each proposes its own kind and lists only it.
type curateCmd struct {
	name, kind, usage string
	propose           func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var (
	hardCmd   = &curateCmd{name: "hard-subset", kind: bench.SubsetHard, usage: hardUsage}
	debiasCmd = &curateCmd{name: "debias", kind: bench.SubsetDebiased, usage: debiasUsage}
)

func init() {
	hardCmd.propose = runHardPropose
	debiasCmd.propose = runDebiasPropose
}

func (cc *curateCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sub := map[string]func(context.Context, []string, io.Writer, io.Writer) int{
		"propose": cc.propose, "list": cc.list, "show": cc.show, "decide": cc.decide, "freeze": cc.freeze,
	}
	if len(args) == 0 || sub[args[0]] == nil {
		fmt.Fprintln(stderr, cc.usage)
		return exitUsage
	}
	return sub[args[0]](ctx, args[1:], stdout, stderr)
}

// printHardSubset writes one line about a candidate list (a debiased one adds
// a line per task the pruning changed).
func printHardSubset(w io.Writer, h bench.HardSubset) {
	state := fmt.Sprintf("%d kept, %d dropped, %d undecided", h.Kept, h.Dropped, h.Undecided())
	if h.Frozen != "" {
		state += "; frozen as " + h.Frozen
	}
	if h.Kind == bench.SubsetDebiased {
		fmt.Fprintf(w, "debiased subset %d of %s: %d of %d samples proposed for removal (text-only model, %d-fold, seed %d, margin %s points): %s; %s; proposed by %s at %s\n",
			h.ID, h.Release, h.Candidates, h.Pool, h.Folds, h.Seed, strconv.FormatFloat(100*h.Margin, 'f', -1, 64), h.Detail, state, h.CreatedBy, h.CreatedAt)
		for _, t := range h.Tasks {
			if t.Changed() {
				fmt.Fprintf(w, "  %s\n", t)
			}
		}
		return
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
	h, err := db.As(actor).ProposeHardSubset(ctx, ref, bench.HardSubsetInput{Models: models, K: *k, Target: *target, Seed: *seed, Strict: *strict})
	if err != nil {
		return fail(stderr, err)
	}
	printHardSubset(stdout, h)
	return exitOK
}

// runDebiasPropose implements "bwctl debias propose": the pruning proposal of
// bwctl shortcuts (same margin, folds and seed, same defaults), made on a
// frozen release's samples and kept as a debiased subset for the lead to decide.
func runDebiasPropose(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("debias propose", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "the parent release, NAME@VERSION (or its id)")
	project := fs.String("project", "", "the release's project (needed when two projects hold the same NAME@VERSION)")
	margin := fs.Float64("margin", 10, "points above chance at which a task's blind accuracy counts as biased")
	folds := fs.Int("folds", 5, "k of the text-only model's k-fold cross-validation")
	seed := fs.Int64("seed", 1, "seed of the folds and the model's training order (as bwctl shortcuts --seed)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" {
		fmt.Fprintln(stderr, "bwctl debias propose: --release is required\n"+debiasUsage)
		return exitUsage
	}
	if !(*margin > 0 && *margin < 100) || *folds < 2 || *folds > 20 || *seed < 0 {
		fmt.Fprintln(stderr, "bwctl debias propose: --margin must be between 0 and 100 points, --folds between 2 and 20 and --seed 0 or more")
		return exitUsage
	}
	db, actor, ref, _, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	h, err := db.As(actor).ProposeDebiasedSubset(ctx, ref, bench.DebiasInput{Margin: *margin / 100, Folds: *folds, Seed: *seed})
	if err != nil {
		return fail(stderr, err)
	}
	printHardSubset(stdout, h)
	return exitOK
}

func (cc *curateCmd) list(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(cc.name+" list", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	rel := fs.String("release", "", "the parent release, NAME@VERSION (or its id)")
	project := fs.String("project", "", "the release's project")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 || *rel == "" {
		fmt.Fprintf(stderr, "bwctl %s list: --release is required\n%s\n", cc.name, cc.usage)
		return exitUsage
	}
	db, actor, ref, name, closeDB, code := connectRelease(ctx, at, *as, *project, *rel, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	hs, err := db.As(actor).HardSubsets(ctx, ref)
	if err != nil {
		return fail(stderr, err)
	}
	n := 0
	for _, h := range hs {
		if h.Kind == cc.kind {
			printHardSubset(stdout, h)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(stderr, "bwctl %s list: no %s subset is proposed on %s\n", cc.name, cc.kind, name)
	}
	return exitOK
}

// mine refuses a subset of the other kind, naming the command that takes it
// (the numbers are shared; each command decides and freezes its own kind).
func (cc *curateCmd) mine(ctx context.Context, db bench.Service, actor bench.User, id int64, stderr io.Writer) (bench.HardSubset, []bench.HardCandidate, int) {
	h, cs, err := db.As(actor).HardCandidates(ctx, id)
	if err != nil {
		return h, nil, fail(stderr, err)
	}
	if h.Kind != cc.kind {
		other := map[string]string{bench.SubsetHard: "hard-subset", bench.SubsetDebiased: "debias"}[h.Kind]
		fmt.Fprintf(stderr, "bwctl %s: subset %d is a %s subset: use bwctl %s\n", cc.name, id, h.Kind, other)
		return h, nil, exitUsage
	}
	return h, cs, exitOK
}

// subsetArg reads the one positional argument, a subset's number.
func (cc *curateCmd) subsetArg(name string, pos []string, stderr io.Writer) (int64, bool) {
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "bwctl %s %s: give one SUBSET number\n%s\n", cc.name, name, cc.usage)
		return 0, false
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil || id <= 0 {
		fmt.Fprintf(stderr, "bwctl %s %s: SUBSET %q is not a number (bwctl %s list shows them)\n", cc.name, name, pos[0], cc.name)
		return 0, false
	}
	return id, true
}

func (cc *curateCmd) show(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(cc.name+" show", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	asJSON := fs.Bool("json", false, "one JSON object per candidate")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	id, ok := cc.subsetArg("show", pos, stderr)
	if !ok {
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	h, cs, err := db.As(actor).HardCandidates(ctx, id)
	if err != nil {
		return fail(stderr, err)
	}
	debiased := h.Kind == bench.SubsetDebiased
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		for _, c := range cs {
			row := map[string]any{"sample_id": c.SampleID, "category": c.Category, "failed_by": c.FailedBy,
				"decision": c.Decision, "reason": c.Reason, "decided_by": c.DecidedBy, "decided_at": c.DecidedAt}
			if debiased {
				row = map[string]any{"sample_id": c.SampleID, "task": c.Category, "bias_score": c.Bias, "round": c.Round, "shortcuts": c.Shortcuts,
					"decision": c.Decision, "reason": c.Reason, "decided_by": c.DecidedBy, "decided_at": c.DecidedAt}
			}
			if err := enc.Encode(row); err != nil {
				return fail(stderr, err)
			}
		}
		return exitOK
	}
	printHardSubset(stdout, h)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if debiased {
		fmt.Fprintln(tw, "SAMPLE\tTASK\tBIAS\tROUND\tSHORTCUTS\tDECISION\tREASON")
	} else {
		fmt.Fprintln(tw, "SAMPLE\tCATEGORY\tFAILED BY\tDECISION\tREASON")
	}
	for _, c := range cs {
		d := c.Decision
		if d == "" {
			d = "–"
		}
		if debiased {
			fmt.Fprintf(tw, "%s\t%s\t%.3f\t%d\t%s\t%s\t%s\n", c.SampleID, c.Category, c.Bias, c.Round, strings.Join(c.Shortcuts, ", "), d, c.Reason)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.SampleID, c.Category, strings.Join(c.FailedBy, ", "), d, c.Reason)
	}
	if err := tw.Flush(); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}

func (cc *curateCmd) decide(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(cc.name+" decide", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	keep := fs.String("keep", "", "sample ids to keep, comma-separated")
	drop := fs.String("drop", "", "sample ids to drop, comma-separated (needs --reason)")
	rest := fs.String("rest", "", "keep or drop every candidate not decided yet (nor named by --keep or --drop)")
	reason := fs.String("reason", "", "why (required to drop)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	id, ok := cc.subsetArg("decide", pos, stderr)
	if !ok {
		return exitUsage
	}
	var ds []bench.HardDecision
	named := map[string]bool{}
	for _, s := range list(*keep) {
		ds = append(ds, bench.HardDecision{SampleID: s, Decision: bench.DecisionKeep, Reason: *reason})
		named[s] = true
	}
	for _, s := range list(*drop) {
		ds = append(ds, bench.HardDecision{SampleID: s, Decision: bench.DecisionDrop, Reason: *reason})
		named[s] = true
	}
	if *rest != "" && *rest != bench.DecisionKeep && *rest != bench.DecisionDrop {
		fmt.Fprintf(stderr, "bwctl %s decide: --rest %q: want keep or drop\n", cc.name, *rest)
		return exitUsage
	}
	if len(ds) == 0 && *rest == "" {
		fmt.Fprintf(stderr, "bwctl %s decide: give --keep, --drop or --rest\n%s\n", cc.name, cc.usage)
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	_, cs, code := cc.mine(ctx, db, actor, id, stderr)
	if code != exitOK {
		return code
	}
	if *rest != "" {
		for _, c := range cs {
			if c.Decision == "" && !named[c.SampleID] {
				ds = append(ds, bench.HardDecision{SampleID: c.SampleID, Decision: *rest, Reason: *reason})
			}
		}
		if len(ds) == 0 {
			fmt.Fprintf(stderr, "bwctl %s decide: every candidate of subset %d is decided already\n", cc.name, id)
			return exitOK
		}
	}
	h, err := db.As(actor).DecideHardCandidates(ctx, id, ds)
	if err != nil {
		return fail(stderr, err)
	}
	printHardSubset(stdout, h)
	return exitOK
}

func (cc *curateCmd) freeze(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags(cc.name+" freeze", stderr)
	at := whereFlags(fs)
	as := fs.String("as", "", "acting lead (password from BENCHWRIGHT_PASSWORD)")
	name := fs.String("name", "", "the new release's name")
	version := fs.String("version", "", "the new release's version")
	pos, err := parse(fs, args)
	if err != nil {
		return usageCode(err)
	}
	id, ok := cc.subsetArg("freeze", pos, stderr)
	if !ok {
		return exitUsage
	}
	if *name == "" || *version == "" {
		fmt.Fprintf(stderr, "bwctl %s freeze: --name and --version are required\n%s\n", cc.name, cc.usage)
		return exitUsage
	}
	db, actor, closeDB, code := connectAs(ctx, at, *as, stderr)
	if db == nil {
		return code
	}
	defer closeDB()
	if _, _, code := cc.mine(ctx, db, actor, id, stderr); code != exitOK {
		return code
	}
	rel, err := db.As(actor).FreezeHardSubset(ctx, id, *name, *version)
	if err != nil {
		return fail(stderr, err)
	}
	what := "hard subset"
	if cc.kind == bench.SubsetDebiased {
		what = "debiased subset"
	}
	fmt.Fprintf(stdout, "froze %s: %d samples of %s %d (bwctl export writes its MANIFEST with the provenance)\n", rel.Ref(), rel.Samples, what, id)
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
		b, err := db.As(actor).DrawHumanBaseline(ctx, ref, *size, *seed)
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "drew %d items of %s for the human baseline (seed %d); people answer them on the Evaluate screen\n", b.Items, name, b.Seed)
	case "status":
		b, ok, err := db.As(actor).HumanBaselineOf(ctx, ref)
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
		if err := db.As(actor).AnswerHuman(ctx, ref, *sample, ans); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "stored %s's answer to %s\n", actor.Name, *sample)
	}
	return exitOK
}
