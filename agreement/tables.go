package agreement

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// Figure is one Krippendorff's alpha (nominal) with its bootstrap interval and
// reading, or the reason it is undefined.
type Figure struct {
	Alpha     float64
	CI95      [2]float64 // 2.5th and 97.5th percentiles of the bootstrap's replicates
	Reading   string     // Reading of Alpha; "" when undefined
	Undefined string     // why alpha is undefined, "" when it is defined
	Units     int        // units with at least one value
	Pairable  int        // units with two or more values: the ones alpha is computed on
	Values    int        // values in the pairable units
}

// The pseudo-criteria of a [Row].
const (
	CriterionDecision = "decision"     // the approve/reject decision
	CriterionAll      = "all criteria" // every criterion of the round pooled: units are (revision, criterion)
)

// Row is the agreement on one criterion (or the decision, or all criteria pooled)
// in one round; Round 0 takes every round together, with each verifier of any round
// as a coder of the revision.
type Row struct {
	Round     int
	Criterion string // a criterion id, CriterionDecision or CriterionAll
	Figure    Figure
}

// CoderFigures are the decision agreement across rounds with and without one
// verifier.
type CoderFigures struct {
	Coder      string
	Judgements int // the verifier's judgements
	With       Figure
	Without    Figure
}

// Tables are the agreement of a set of judgements: by round and criterion, and
// without each verifier.
type Tables struct {
	Rows   []Row
	Coders []CoderFigures
}

// Tables computes Krippendorff's alpha (nominal) on the judgements, each with an
// interval bootstrapped with draws draws from seed ([Result.Bootstrap]):
//   - a unit is a revision (for CriterionAll, a revision and a criterion) and the
//     coders are the verifiers who judged it;
//   - the decision's values are approve/reject; a criterion's values are yes/no,
//     Unjudged ones missing;
//   - rows for rounds 1–3 take that round's judgements, Round 0 every round's; a
//     verifier who judged a revision in two rounds is one coder there, with the
//     later round's value;
//   - rows come round 1, 2, 3, then 0; in each the decision, the pooled criteria,
//     then each criterion of the round's kinds in form order (annotate.Kinds, then
//     rounds, then verify.Criteria);
//   - Coders holds each verifier with a judgement, by name, with the decision
//     agreement across rounds with everyone and without them.
//
// The passes over the judgements (one per round, one with every verifier and one
// without each) run on every core Go uses; each figure is computed alone, from its
// own data, so the tables are the same on any number of cores.
func (js *Judgements) Tables(ctx context.Context, draws int, seed uint64) (Tables, error) {
	rounds := []int{1, 2, 3, 0}
	all, pos := js.criterionTables()
	// The verifiers with a judgement, by name.
	count := make([]int, len(js.Coders))
	for _, j := range js.List {
		count[j.Coder]++
	}
	var ids []int32
	for c, n := range count {
		if n > 0 {
			ids = append(ids, int32(c))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int { return strings.Compare(js.Coders[a], js.Coders[b]) })

	rows := make([][]Row, len(rounds))
	decision := make([]Figure, 1+len(ids)) // with everyone, then without each of ids
	jobs := make([]func() error, 0, len(rounds)+len(decision))
	for i, round := range rounds {
		jobs = append(jobs, func() (err error) {
			rows[i], err = js.roundRows(ctx, round, all, pos, draws, seed)
			return err
		})
	}
	for i := range decision {
		skip := int32(-1)
		if i > 0 {
			skip = ids[i-1]
		}
		jobs = append(jobs, func() (err error) {
			decision[i], err = js.decisionWithout(ctx, skip, draws, seed)
			return err
		})
	}
	if err := runAll(jobs); err != nil {
		return Tables{}, err
	}
	var out Tables
	for _, r := range rows {
		out.Rows = append(out.Rows, r...)
	}
	for i, c := range ids {
		out.Coders = append(out.Coders, CoderFigures{Coder: js.Coders[c], Judgements: count[c], With: decision[0], Without: decision[1+i]})
	}
	return out, nil
}

// runAll runs jobs on as many goroutines as Go uses cores, and returns their errors.
func runAll(jobs []func() error) error {
	errs := make([]error, len(jobs))
	next := make(chan int, len(jobs))
	for i := range jobs {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(len(jobs), max(1, tablesWorkers())) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = jobs[i]()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// tablesWorkers is how many goroutines compute the tables' figures: the cores Go
// uses. Tests set it to compare with one.
var tablesWorkers = func() int { return runtime.GOMAXPROCS(0) }

// The values of the reliability data: a decision or a criterion's value (0: none).
type label uint8

const (
	noLabel label = iota
	approve
	reject
	yes
	no
)

var labelNames = [...]string{noLabel: "", approve: string(verify.DecisionApprove), reject: string(verify.DecisionReject), yes: Yes.label(), no: No.label()}

func decisionLabel(j Judgement) label {
	if j.Reject {
		return reject
	}
	return approve
}

func valueLabel(v Value) label {
	switch v {
	case Yes:
		return yes
	case No:
		return no
	}
	return noLabel
}

// reliability accumulates reliability data: one value per unit and coder. A unit is a
// revision, or a revision and a criterion (crit >= 0) for pooled criteria. Values
// must come revision after revision: a revision's units are buffered and added to
// the data when the next revision starts. A coder who gives a unit values in two
// rounds counts once, with the later round's value. The data is built as
// [Builder.AddUnit] builds it, unit after unit, values coded in order of first use.
type reliability struct {
	counts  Figure // Units, Pairable and Values so far
	rev     int64
	started bool
	bufs    [][]reliabilityValue // the current revision's values, by crit+1

	code    [len(labelNames)]int32 // label → its code + 1 in the data (0: not yet used)
	labels  []string
	where   []string
	vals    []int32
	ends    []int
	maxVals int
}

type reliabilityValue struct {
	coder int32
	value label
	round int8
}

func (r *reliability) add(revision int64, crit int, coder int32, value label, round int8) {
	if value == noLabel {
		return
	}
	if !r.started || revision != r.rev {
		r.flush()
		r.rev, r.started = revision, true
	}
	i := crit + 1
	for len(r.bufs) <= i {
		r.bufs = append(r.bufs, nil)
	}
	for n, v := range r.bufs[i] {
		if v.coder == coder {
			if round >= v.round {
				r.bufs[i][n] = reliabilityValue{coder, value, round}
			}
			return
		}
	}
	r.bufs[i] = append(r.bufs[i], reliabilityValue{coder, value, round})
}

// grow makes room for n values and as many units.
func (r *reliability) grow(n int) {
	r.vals = slices.Grow(r.vals, n)
	r.ends = slices.Grow(r.ends, n)
}

// flush adds the current revision's units to the data.
func (r *reliability) flush() {
	for i, buf := range r.bufs {
		if len(buf) == 0 {
			continue
		}
		for _, v := range buf {
			c := r.code[v.value]
			if c == 0 {
				r.labels = append(r.labels, labelNames[v.value])
				r.where = append(r.where, fmt.Sprintf("unit %d", len(r.ends)+1))
				c = int32(len(r.labels))
				r.code[v.value] = c
			}
			r.vals = append(r.vals, c-1)
		}
		r.ends = append(r.ends, len(r.vals))
		r.maxVals = max(r.maxVals, len(buf))
		r.counts.Units++
		if len(buf) >= 2 {
			r.counts.Pairable++
			r.counts.Values += len(buf)
		}
		r.bufs[i] = buf[:0]
	}
}

// figure computes alpha, its interval and reading, or the reason it is undefined.
func (r *reliability) figure(ctx context.Context, draws int, seed uint64) (Figure, error) {
	r.flush()
	f := r.counts
	d := &Data{labels: r.labels, where: r.where, vals: r.vals, ends: r.ends, coders: r.maxVals}
	res, err := Alpha(d, Nominal)
	if errors.Is(err, ErrUndefined) {
		f.Undefined = strings.TrimPrefix(err.Error(), ErrUndefined.Error()+": ")
		if f.Units == 0 {
			f.Undefined = "no judgements yet"
		}
		return f, nil
	}
	if err != nil {
		return Figure{}, err
	}
	boot, err := res.Bootstrap(ctx, draws, seed)
	if err != nil {
		return Figure{}, err
	}
	f.Alpha, f.CI95, f.Reading = res.Alpha, boot.CI95, Reading(res.Alpha)
	return f, nil
}

// criteriaOf lists, in form order and once each, the criteria of round (0: every
// round) of the given kinds.
func criteriaOf(kinds map[annotate.Kind]bool, round int) []string {
	var out []string
	for _, k := range annotate.Kinds {
		if !kinds[k] {
			continue
		}
		for r := 1; r <= 3; r++ {
			if round != 0 && r != round {
				continue
			}
			for _, c := range verify.Criteria(k, r) {
				if !slices.Contains(out, c.ID) {
					out = append(out, c.ID)
				}
			}
		}
	}
	return out
}

// criterionTables lists every criterion of the judgements' kinds in form order
// (criteriaOf), and gives, per kind index and round 1–3, the position of each among
// the values of a judgement of that kind and round, or -1 when it does not judge it.
func (js *Judgements) criterionTables() ([]string, [][3][]int) {
	all := criteriaOf(js.kindsIn(0), 0)
	out := make([][3][]int, len(js.kinds))
	for k := range js.kinds {
		for r := range 3 {
			pos := make([]int, len(all))
			for c, id := range all {
				pos[c] = slices.IndexFunc(js.criteria[k][r], func(x verify.Criterion) bool { return x.ID == id })
			}
			out[k][r] = pos
		}
	}
	return all, out
}

// kindsIn returns the kinds of the judgements of round (0: every round).
func (js *Judgements) kindsIn(round int) map[annotate.Kind]bool {
	out := map[annotate.Kind]bool{}
	for _, j := range js.List {
		if round == 0 || int(j.Round) == round {
			out[js.kinds[j.kind]] = true
		}
	}
	return out
}

// roundRows computes the decision, the pooled criteria and each criterion of round
// (0: every round); all and pos are criterionTables'.
func (js *Judgements) roundRows(ctx context.Context, round int, all []string, pos [][3][]int, draws int, seed uint64) ([]Row, error) {
	crits := criteriaOf(js.kindsIn(round), round)
	idx := make([]int, len(crits))
	for c, id := range crits {
		idx[c] = slices.Index(all, id)
	}
	// The decision, the pooled criteria, then each criterion.
	names := append([]string{CriterionDecision, CriterionAll}, crits...)
	rel := make([]reliability, len(names))
	// judges[kind][round-1] lists the criteria of the row a judgement of that kind
	// and round judges: their index in crits and in all, and their position among
	// its values.
	type judged struct{ c, a, pos int }
	judges := make([][3][]judged, len(pos))
	for k := range pos {
		for r := range 3 {
			for c, a := range idx {
				if p := pos[k][r][a]; p >= 0 {
					judges[k][r] = append(judges[k][r], judged{c, a, p})
				}
			}
		}
	}
	// Room for every value each figure may get, so that its data is not copied
	// as it grows: at most one value per judgement of the round for the decision,
	// and one per criterion judged for the others.
	decisions, pooled, per := 0, 0, make([]int, len(crits))
	for _, j := range js.List {
		if round != 0 && int(j.Round) != round {
			continue
		}
		decisions++
		if j.Round >= 1 && j.Round <= 3 {
			for _, x := range judges[j.kind][j.Round-1] {
				pooled++
				per[x.c]++
			}
		}
	}
	rel[0].grow(decisions)
	rel[1].grow(pooled)
	for c, n := range per {
		rel[2+c].grow(n)
	}
	for _, j := range js.List {
		if round != 0 && int(j.Round) != round {
			continue
		}
		rel[0].add(j.Revision, -1, j.Coder, decisionLabel(j), j.Round)
		if j.Round < 1 || j.Round > 3 {
			continue
		}
		for _, x := range judges[j.kind][j.Round-1] {
			if v := valueLabel(js.value(j, x.pos)); v != noLabel {
				rel[1].add(j.Revision, x.a, j.Coder, v, j.Round)
				rel[2+x.c].add(j.Revision, -1, j.Coder, v, j.Round)
			}
		}
	}
	out := make([]Row, len(names))
	for n, name := range names {
		f, err := rel[n].figure(ctx, draws, seed)
		if err != nil {
			return nil, err
		}
		out[n] = Row{Round: round, Criterion: name, Figure: f}
	}
	return out, nil
}

// decisionWithout computes the decision agreement across rounds without the
// verifier skip (-1: with everyone).
func (js *Judgements) decisionWithout(ctx context.Context, skip int32, draws int, seed uint64) (Figure, error) {
	var r reliability
	r.grow(len(js.List))
	for _, j := range js.List {
		if j.Coder != skip {
			r.add(j.Revision, -1, j.Coder, decisionLabel(j), j.Round)
		}
	}
	return r.figure(ctx, draws, seed)
}
