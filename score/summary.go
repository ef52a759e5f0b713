package score

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/montanaflynn/stats"

	"github.com/benchwright/benchwright/annotate"
)

// Metric is one figure: a percentage, its 95 % bootstrap confidence interval and
// the number of samples it divides by (for mean_iou the MCQ-correct samples with
// a scored box; for step figures the step-graph samples counted).
type Metric struct {
	Value float64     `json:"value"`
	CI    *[2]float64 `json:"ci,omitempty"`
	N     int         `json:"n"`
}

// Figures are the figures of a set of samples, percentages as the papers print
// them. A figure is absent when the set holds no sample of its kind.
type Figures struct {
	N int `json:"n"` // samples in the set
	// Parsed: samples from whose response an answer (or step graph) was read.
	Parsed *Metric `json:"parsed,omitempty"`
	// MCQAcc: correct option over hop_qa and mcq samples, divided by the report's
	// Denominator; MCQAccParsed always divides by the samples whose option was read.
	MCQAcc       *Metric `json:"mcq_acc,omitempty"`
	MCQAccParsed *Metric `json:"mcq_acc_parsed_denominator,omitempty"`
	// Acc50IoU: hop_qa samples with the correct option and IoU >= 0.5, divided by
	// the Denominator; Acc50IoUParsed by the samples whose letter was read.
	Acc50IoU       *Metric `json:"acc50iou,omitempty"`
	Acc50IoUParsed *Metric `json:"acc50iou_parsed_denominator,omitempty"`
	// MeanIoU: mean IoU (×100) over hop_qa samples with the correct option and a
	// valid box.
	MeanIoU *Metric `json:"mean_iou,omitempty"`
	// JudgmentAcc: correct yes/no over judgment samples.
	JudgmentAcc *Metric `json:"judgment_acc,omitempty"`
	// StrictAcc, RelaxedAcc over open samples; MRA over open samples whose gold
	// answer is a number.
	StrictAcc  *Metric `json:"strict_acc,omitempty"`
	RelaxedAcc *Metric `json:"relaxed_acc,omitempty"`
	MRA        *Metric `json:"mra,omitempty"`
	// Step graphs: precision, recall and F1 of step content and of precondition
	// edges, pooled or averaged per the report's StepMode.
	ContentP  *Metric `json:"content_p,omitempty"`
	ContentR  *Metric `json:"content_r,omitempty"`
	ContentF1 *Metric `json:"content_f1,omitempty"`
	PrecondP  *Metric `json:"precond_p,omitempty"`
	PrecondR  *Metric `json:"precond_r,omitempty"`
	PrecondF1 *Metric `json:"precond_f1,omitempty"`
	// LRRScore is LRR-Bench's score (§III-D, eq. 1) over the set's judgment
	// samples that have a task: Σ_i w_i · 2(p_i − 50) · 1[p_i ≥ 50], p_i the yes/no
	// accuracy in percent of task i's samples in the set, w_i its weight
	// (Options.LRRWeights); points, not a percentage. N is the samples counted.
	// LRRScoreMax is its maximum, 100 · Σ_i w_i over the same tasks.
	LRRScore    *Metric  `json:"lrr_score,omitempty"`
	LRRScoreMax *float64 `json:"lrr_score_max,omitempty"`
}

// Group is the figures of the samples that share one label of a breakdown.
type Group struct {
	Label string `json:"group"`
	Figures
}

// Breakdown dimensions, the keys of Report.By.
const (
	ByKind       = "kind"
	ByHop        = "hop"
	ByView       = "view"
	ByCategories = "categories" // the hop question's category set, e.g. "att+pos"
	ByTask       = "task"
	BySplit      = "split"
	ByHopView    = "hop_view" // hop and view together, "2/ego": the papers' per-hop × view table
	ByModality   = "modality" // what the model is shown: "image", "images" or "video" (annotate.Sample.Modality)
)

// Dimensions lists the breakdown dimensions in report order.
var Dimensions = []string{ByKind, ByHop, ByView, ByCategories, ByTask, BySplit, ByHopView, ByModality}

// BootstrapInfo says how the confidence intervals were drawn.
type BootstrapInfo struct {
	Draws int    `json:"draws"`
	Seed  uint64 `json:"seed"`
	Level int    `json:"level"` // percent
}

// Report is one model's evaluation on a release.
type Report struct {
	Model string `json:"model"`
	// Blind marks the report of a model's blind run: its answers given without
	// the images (text only; bwctl predictions import --blind). Base names the
	// text-only LLM the model is built on when the blind run named one (--base).
	// Neither is set on a run with images. See MultiModalGains.
	Blind       bool           `json:"blind,omitempty"`
	Base        string         `json:"base,omitempty"`
	N           int            `json:"n"`
	Denominator Denominator    `json:"denominator"`
	StepMode    StepMode       `json:"step_mode"`
	StepSkip    StepSkip       `json:"step_skip"`
	YesNo       YesNoRule      `json:"yes_no"` // how judgment responses were read
	Bootstrap   *BootstrapInfo `json:"bootstrap,omitempty"`
	Overall     Figures        `json:"overall"`
	// By holds a breakdown per dimension (every key of Dimensions is present):
	// one group per label, a sample counted under each of its labels and left out
	// of a dimension it has no label in (an empty task, a hop of 0).
	By map[string][]Group `json:"by"`
	// MultiModal is MMStar's multi-modal gain and leakage per overall figure,
	// on the report of a run with images whose model also has a blind run
	// (AttachMultiModal); empty otherwise.
	MultiModal []Gain `json:"multimodal,omitempty"`
}

// MetricNames are the JSON names of the figures, in Figures' order.
var MetricNames = []string{
	"parsed", "mcq_acc", "mcq_acc_parsed_denominator", "acc50iou", "acc50iou_parsed_denominator",
	"mean_iou", "judgment_acc", "strict_acc", "relaxed_acc", "mra",
	"content_p", "content_r", "content_f1", "precond_p", "precond_r", "precond_f1", "lrr_score",
}

// Metric returns the figure with the given JSON name, nil when absent or unknown.
func (f *Figures) Metric(name string) *Metric {
	if p := f.slot(name); p != nil {
		return *p
	}
	return nil
}

func (f *Figures) slot(name string) **Metric {
	switch name {
	case "parsed":
		return &f.Parsed
	case "mcq_acc":
		return &f.MCQAcc
	case "mcq_acc_parsed_denominator":
		return &f.MCQAccParsed
	case "acc50iou":
		return &f.Acc50IoU
	case "acc50iou_parsed_denominator":
		return &f.Acc50IoUParsed
	case "mean_iou":
		return &f.MeanIoU
	case "judgment_acc":
		return &f.JudgmentAcc
	case "strict_acc":
		return &f.StrictAcc
	case "relaxed_acc":
		return &f.RelaxedAcc
	case "mra":
		return &f.MRA
	case "content_p":
		return &f.ContentP
	case "content_r":
		return &f.ContentR
	case "content_f1":
		return &f.ContentF1
	case "precond_p":
		return &f.PrecondP
	case "precond_r":
		return &f.PrecondR
	case "precond_f1":
		return &f.PrecondF1
	case "lrr_score":
		return &f.LRRScore
	}
	return nil
}

// The components of a sample's contribution to a set's sums. A figure is a
// function of the sums, so a bootstrap replicate needs only the replicate's sums.
const (
	cN = iota
	cParsed
	cOptN
	cOptParsed
	cOptCorrect
	cHopN
	cHopParsed
	cHopHit
	cIoUN
	cIoUSum // continuous: kept out of the sample types, resampled from pools
	cYNN
	cYNCorrect
	cOpenN
	cStrict
	cRelaxed
	cNumN
	cMRASum
	cStepN
	cCTP
	cCFP
	cCFN
	cPTP
	cPFP
	cPFN
	cCP // per-sample fractions, summed for the macro mode
	cCR
	cCF1
	cPP
	cPR
	cPF1
	nComp
)

type sums [nComp]float64

// contribution is what result r adds to the sums (IoU included).
func contribution(r Result, opt Options) sums {
	var s sums
	b := func(ok bool) float64 {
		if ok {
			return 1
		}
		return 0
	}
	s[cN] = 1
	s[cParsed] = b(r.Parsed())
	switch r.Kind {
	case annotate.KindHopQA, annotate.KindMCQ:
		s[cOptN], s[cOptParsed], s[cOptCorrect] = 1, s[cParsed], b(r.Correct)
		if r.Kind == annotate.KindHopQA {
			s[cHopN], s[cHopParsed], s[cHopHit] = 1, s[cParsed], b(r.Hit50)
			if r.Correct && r.IoU != nil {
				s[cIoUN], s[cIoUSum] = 1, *r.IoU
			}
		}
	case annotate.KindJudgment:
		s[cYNN], s[cYNCorrect] = 1, b(r.Correct)
	case annotate.KindOpen:
		s[cOpenN], s[cStrict], s[cRelaxed] = 1, b(r.Correct), b(r.Relaxed)
		if r.MRA != nil {
			s[cNumN], s[cMRASum] = 1, *r.MRA
		}
	case annotate.KindStepGraph:
		if r.Content == nil || r.Precond == nil {
			break
		}
		switch opt.StepSkip {
		case SkipUnparsed:
			if r.Steps == nil {
				return s
			}
		case SkipUnmatched:
			if r.Steps == nil || r.Content.TP == 0 {
				return s
			}
		}
		c, p := *r.Content, *r.Precond
		s[cStepN] = 1
		s[cCTP], s[cCFP], s[cCFN] = float64(c.TP), float64(c.FP), float64(c.FN)
		s[cPTP], s[cPFP], s[cPFN] = float64(p.TP), float64(p.FP), float64(p.FN)
		s[cCP], s[cCR], s[cCF1] = c.PRF()
		s[cPP], s[cPR], s[cPF1] = p.PRF()
	}
	return s
}

// metricDef computes one figure from a set's sums: its fraction, the count it
// divides by, and whether the set holds samples it applies to.
type metricDef struct {
	name string
	eval func(s *sums) (v float64, n float64, ok bool)
}

// ratio is num/den, 0 when den is 0 (as both MultihopSpatial scorers and metric.py
// report an empty ratio).
func ratio(num, den float64) float64 {
	if den == 0 {
		return 0
	}
	return num / den
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func metricDefs(opt Options) []metricDef {
	optDen, hopDen := cOptN, cHopN
	if opt.Denominator == DenomParsed {
		optDen, hopDen = cOptParsed, cHopParsed
	}
	frac := func(name string, num, den, pop int) metricDef {
		return metricDef{name, func(s *sums) (float64, float64, bool) {
			return ratio(s[num], s[den]), s[den], s[pop] > 0
		}}
	}
	// prf gives a step figure: pooled counts (micro) or the mean of the
	// per-sample fractions (macro); which: 0 precision, 1 recall, 2 F1.
	prf := func(name string, tp, fp, fn, macro, which int) metricDef {
		return metricDef{name, func(s *sums) (float64, float64, bool) {
			if opt.StepMode == StepMacro {
				return ratio(s[macro], s[cStepN]), s[cStepN], s[cStepN] > 0
			}
			p, r := ratio(s[tp], s[tp]+s[fp]), ratio(s[tp], s[tp]+s[fn])
			return [3]float64{p, r, f1(p, r)}[which], s[cStepN], s[cStepN] > 0
		}}
	}
	return []metricDef{
		frac("parsed", cParsed, cN, cN),
		frac("mcq_acc", cOptCorrect, optDen, cOptN),
		frac("mcq_acc_parsed_denominator", cOptCorrect, cOptParsed, cOptN),
		frac("acc50iou", cHopHit, hopDen, cHopN),
		frac("acc50iou_parsed_denominator", cHopHit, cHopParsed, cHopN),
		frac("mean_iou", cIoUSum, cIoUN, cHopN),
		frac("judgment_acc", cYNCorrect, cYNN, cYNN),
		frac("strict_acc", cStrict, cOpenN, cOpenN),
		frac("relaxed_acc", cRelaxed, cOpenN, cOpenN),
		frac("mra", cMRASum, cNumN, cNumN),
		prf("content_p", cCTP, cCFP, cCFN, cCP, 0),
		prf("content_r", cCTP, cCFP, cCFN, cCR, 1),
		prf("content_f1", cCTP, cCFP, cCFN, cCF1, 2),
		prf("precond_p", cPTP, cPFP, cPFN, cPP, 0),
		prf("precond_r", cPTP, cPFP, cPFN, cPR, 1),
		prf("precond_f1", cPTP, cPFP, cPFN, cPF1, 2),
	}
}

// sampleType is a distinct contribution without its IoU, stored sparsely.
type sampleType struct {
	comp  []uint8
	val   []float64
	ioued bool // the samples of this type add an IoU
}

// universe holds every sample's type and IoU.
type universe struct {
	types []sampleType
	of    []int32   // sample → type
	iou   []float64 // sample → IoU added (0 unless its type is ioued)
}

func newUniverse(results []Result, opt Options) *universe {
	return universeOf(len(results), func(i int) sums { return contribution(results[i], opt) })
}

// newItemUniverse is the universe of the items of results, item k the results
// of one sample (item[i] is result i's): an item's contribution is the sum of
// its results'.
func newItemUniverse(results []Result, item []int32, items int, opt Options) *universe {
	of := make([]sums, items)
	for i, r := range results {
		c := contribution(r, opt)
		for k, v := range c {
			of[item[i]][k] += v
		}
	}
	return universeOf(items, func(k int) sums { return of[k] })
}

// universeOf is the universe of n units, unit i adding sumOf(i).
func universeOf(n int, sumOf func(i int) sums) *universe {
	u := &universe{of: make([]int32, n), iou: make([]float64, n)}
	index := map[sums]int32{}
	for i := range n {
		s := sumOf(i)
		u.iou[i] = s[cIoUSum]
		s[cIoUSum] = 0
		t, ok := index[s]
		if !ok {
			t = int32(len(u.types))
			index[s] = t
			var st sampleType
			for c, v := range s {
				if v != 0 {
					st.comp = append(st.comp, uint8(c))
					st.val = append(st.val, v)
				}
			}
			st.ioued = s[cIoUN] != 0
			u.types = append(u.types, st)
		}
		u.of[i] = t
	}
	return u
}

// bigType is the number of samples from which a sample type's count in a
// replicate is drawn as one binomial (some 30–60 ns) rather than member by
// member (a few ns a draw).
const bigType = 12

// groupPlan is a set of samples prepared for resampling.
type groupPlan struct {
	n      int
	types  []int32   // the universe types present
	counts []int     // samples of each
	local  []int32   // member → index into types
	iou    []float64 // member → IoU
	big    []int32   // types whose counts are drawn as binomials
	// The other members, drawn one by one: their type and IoU.
	bucketType []int32
	bucketIoU  []float64
}

func (u *universe) plan(members []int32) *groupPlan {
	g := &groupPlan{n: len(members), local: make([]int32, len(members)), iou: make([]float64, len(members))}
	at := map[int32]int32{}
	for k, i := range members {
		t := u.of[i]
		l, ok := at[t]
		if !ok {
			l = int32(len(g.types))
			at[t] = l
			g.types = append(g.types, t)
			g.counts = append(g.counts, 0)
		}
		g.counts[l]++
		g.local[k] = l
		g.iou[k] = u.iou[i]
	}
	// Types whose members differ (by their IoU) are drawn member by member.
	drawn := func(l int32) bool { return g.counts[l] < bigType || u.types[g.types[l]].ioued }
	for l := range g.types {
		if !drawn(int32(l)) {
			g.big = append(g.big, int32(l))
		}
	}
	for k, l := range g.local {
		if drawn(l) {
			g.bucketType = append(g.bucketType, l)
			g.bucketIoU = append(g.bucketIoU, g.iou[k])
		}
	}
	return g
}

// total adds up the sums of counts[l] samples of each type and the IoU sum.
func (u *universe) total(g *groupPlan, counts []int, iouSum float64) sums {
	var s sums
	for l, c := range counts {
		if c == 0 {
			continue
		}
		t := &u.types[g.types[l]]
		fc := float64(c)
		for k, comp := range t.comp {
			s[comp] += fc * t.val[k]
		}
	}
	s[cIoUSum] = iouSum
	return s
}

// replicate draws one bootstrap resample of the group — n members drawn with
// replacement — and returns its sums. It draws exactly that, faster: the
// resample's counts over the big sample types and the bucket of all other
// members are multinomial, drawn as conditional binomials; the bucket's share
// is then drawn member by member, uniformly from the bucket. counts has room
// for twice the group's types.
func (u *universe) replicate(g *groupPlan, r *rng, counts []int) sums {
	k := len(g.types)
	clear(counts)
	left, leftCount := g.n, g.n
	for i, l := range g.big {
		c := left
		if i < len(g.big)-1 || len(g.bucketType) > 0 {
			c = r.binomial(left, float64(g.counts[l])/float64(leftCount))
		}
		counts[l] += c
		left -= c
		leftCount -= g.counts[l]
	}
	// Two count arrays and two sums halve the chains of dependent updates.
	c0, c1 := counts[:k], counts[k:2*k]
	var s0, s1 float64
	bt, bi := g.bucketType, g.bucketIoU
	nb := uint32(len(bt))
	var thresh uint32
	if nb > 0 {
		thresh = -nb % nb
	}
	for ; left >= 2; left -= 2 {
		// Two of rng.intn's draws from one 64-bit number, inlined.
		x := r.pcg.Uint64()
		m0 := uint64(uint32(x)) * uint64(nb)
		m1 := (x >> 32) * uint64(nb)
		if uint32(m0) < thresh { // Lemire's rejection: replace by an exact draw
			m0 = uint64(r.intn(int(nb))) << 32
		}
		if uint32(m1) < thresh {
			m1 = uint64(r.intn(int(nb))) << 32
		}
		a, b := m0>>32, m1>>32
		c0[bt[a]]++
		s0 += bi[a]
		c1[bt[b]]++
		s1 += bi[b]
	}
	if left == 1 {
		a := r.intn(int(nb))
		c0[bt[a]]++
		s0 += bi[a]
	}
	for l := range c0 {
		c0[l] += c1[l]
	}
	return u.total(g, c0, s0+s1)
}

// replicateDirect draws the n members one by one: the plain bootstrap,
// kept to test replicate against.
func (u *universe) replicateDirect(g *groupPlan, r *rng, counts []int) sums {
	clear(counts)
	iou := 0.0
	for range g.n {
		m := r.intn(g.n)
		counts[g.local[m]]++
		iou += g.iou[m]
	}
	return u.total(g, counts[:len(g.types)], iou)
}

// itemsOf numbers the samples of results in order of first appearance:
// item[i] is result i's. It returns nil when no sample has two results (a
// model's report), so every result is its own item.
func itemsOf(results []Result) (item []int32, items int) {
	at := make(map[string]int32, len(results))
	item = make([]int32, len(results))
	for i, r := range results {
		k, ok := at[r.SampleID]
		if !ok {
			k = int32(len(at))
			at[r.SampleID] = k
		}
		item[i] = k
	}
	if len(at) == len(results) {
		return nil, len(results)
	}
	return item, len(at)
}

// groupItems lists the items of a group's members, each once, in order of
// first appearance; ok is false when every member is an item of its own.
func groupItems(item []int32, members []int32) (items []int32, ok bool) {
	seen := map[int32]bool{}
	for _, i := range members {
		if k := item[i]; !seen[k] {
			seen[k] = true
			items = append(items, k)
		}
	}
	return items, len(items) < len(members)
}

// figures computes a group's figures from g and, with draws > 0, their
// intervals from replicates of draw, which the universe du holds: g itself in
// u for a model, the group's items for a human baseline.
func (u *universe) figures(ctx context.Context, g *groupPlan, du *universe, draw *groupPlan, defs []metricDef, draws int, r *rng) (Figures, error) {
	f := Figures{N: g.n}
	iouSum := 0.0
	for _, v := range g.iou {
		iouSum += v
	}
	exact := u.total(g, g.counts, iouSum)
	type live struct {
		def  metricDef
		slot **Metric
		vals []float64
	}
	var ms []live
	for _, d := range defs {
		v, n, ok := d.eval(&exact)
		if !ok {
			continue
		}
		slot := f.slot(d.name)
		*slot = &Metric{Value: 100 * v, N: int(n)}
		ms = append(ms, live{d, slot, make([]float64, 0, max(draws, 0))})
	}
	if draws <= 0 || len(ms) == 0 {
		return f, nil
	}
	counts := make([]int, 2*len(draw.types))
	for i := range draws {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return f, fmt.Errorf("score: bootstrap: %w", err)
			}
		}
		s := du.replicate(draw, r, counts)
		for k := range ms {
			// A replicate that drew no sample a figure is about (no judgment for
			// judgment_acc) says nothing about it: counting it as 0 % would drag the
			// interval of a kind that is a small share of the release towards 0.
			// The interval is the one conditional on the figure being defined.
			if v, _, ok := ms[k].def.eval(&s); ok {
				ms[k].vals = append(ms[k].vals, 100*v)
			}
		}
	}
	for _, m := range ms {
		if len(m.vals) == 0 {
			continue // no replicate held the figure's samples: no interval
		}
		lo, err := stats.Percentile(m.vals, 2.5)
		if err != nil {
			return f, fmt.Errorf("score: bootstrap percentile of %s: %w", m.def.name, err)
		}
		hi, err := stats.Percentile(m.vals, 97.5)
		if err != nil {
			return f, fmt.Errorf("score: bootstrap percentile of %s: %w", m.def.name, err)
		}
		(*m.slot).CI = &[2]float64{lo, hi}
	}
	return f, nil
}

// labels gives a gold sample's label in each breakdown dimension ("" for none).
func labels(s annotate.Sample) [8]string {
	var l [8]string
	l[0] = string(s.Kind)
	if s.Hop > 0 {
		l[1] = strconv.Itoa(s.Hop)
	}
	l[2] = string(s.View)
	if len(s.Categories) > 0 {
		cs := make([]string, 0, len(s.Categories))
		for _, c := range s.Categories {
			if !slices.Contains(cs, string(c)) {
				cs = append(cs, string(c))
			}
		}
		slices.Sort(cs)
		l[3] = strings.Join(cs, "+")
	}
	l[4] = s.Task
	l[5] = s.Split
	if l[1] != "" && l[2] != "" {
		l[6] = l[1] + "/" + l[2] // hops are 1–3, so text order is hop order
	}
	l[7] = string(s.Modality())
	return l
}

// labelOrder sorts a dimension's labels: kinds in annotate.Kinds order, hops
// numerically, modalities as image, images, video, the rest by text.
func labelOrder(dim int) func(a, b string) int {
	switch dim {
	case 7:
		return func(a, b string) int {
			rank := func(m string) int {
				return slices.Index([]annotate.Modality{annotate.ModalityImage, annotate.ModalityImages, annotate.ModalityVideo}, annotate.Modality(m))
			}
			return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b))
		}
	case 0:
		return func(a, b string) int {
			ia := slices.Index(annotate.Kinds, annotate.Kind(a))
			ib := slices.Index(annotate.Kinds, annotate.Kind(b))
			if ia < 0 {
				ia = len(annotate.Kinds)
			}
			if ib < 0 {
				ib = len(annotate.Kinds)
			}
			return cmp.Or(cmp.Compare(ia, ib), strings.Compare(a, b))
		}
	case 1:
		return func(a, b string) int {
			x, _ := strconv.Atoi(a)
			y, _ := strconv.Atoi(b)
			return cmp.Compare(x, y)
		}
	}
	return strings.Compare
}

// Summarize aggregates a model's results (ScoreAll's, in the gold order) into a
// report: the overall figures and the breakdown by kind, hop, view, category
// set, task and split, each figure with a 95 % percentile bootstrap interval
// (opt.Draws replicates, seeded by opt.Seed). A group's interval resamples that
// group's samples with replacement, the group's size held fixed; replicates are
// drawn from a stream seeded by the seed and the group's dimension and label, so
// a group's interval does not depend on the other groups or on scheduling.
// Results that share a SampleID (several people's answers to one item of a
// human baseline) are one cluster: the bootstrap draws as many samples as the
// group has and takes all the results of each (a cluster bootstrap), since
// answers to one item are not independent. The figures count every result.
func Summarize(ctx context.Context, model string, golds []Gold, results []Result, opt Options) (*Report, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(golds) != len(results) {
		return nil, fmt.Errorf("score: summarize: %w: %d gold samples, %d results", errMisaligned, len(golds), len(results))
	}
	for i := range golds {
		if golds[i].Sample.ID != results[i].SampleID {
			return nil, fmt.Errorf("score: summarize: %w: gold %d is %q, result %d is %q", errMisaligned, i, golds[i].Sample.ID, i, results[i].SampleID)
		}
	}
	u := newUniverse(results, opt)
	item, items := itemsOf(results)
	var iu *universe
	if item != nil {
		iu = newItemUniverse(results, item, items, opt)
	}
	defs := metricDefs(opt)

	type job struct {
		dim   string
		label string
		idx   []int32
		out   *Figures
	}
	rep := &Report{
		Model: model, N: len(results), Denominator: opt.Denominator, StepMode: opt.StepMode,
		StepSkip: opt.StepSkip, YesNo: opt.YesNo, By: map[string][]Group{},
	}
	if opt.Draws > 0 {
		rep.Bootstrap = &BootstrapInfo{Draws: opt.Draws, Seed: opt.Seed, Level: 95}
	}
	all := make([]int32, len(results))
	for i := range all {
		all[i] = int32(i)
	}
	jobs := []job{{dim: "overall", idx: all, out: &rep.Overall}}
	members := make([]map[string][]int32, len(Dimensions))
	for d := range members {
		members[d] = map[string][]int32{}
	}
	for i, g := range golds {
		for d, l := range labels(g.Sample) {
			if l != "" {
				members[d][l] = append(members[d][l], int32(i))
			}
		}
	}
	for d, dim := range Dimensions {
		ls := make([]string, 0, len(members[d]))
		for l := range members[d] {
			ls = append(ls, l)
		}
		slices.SortFunc(ls, labelOrder(d))
		groups := make([]Group, len(ls))
		for k, l := range ls {
			groups[k].Label = l
		}
		rep.By[dim] = groups
		for k, l := range ls {
			jobs = append(jobs, job{dim: dim, label: l, idx: members[d][l], out: &groups[k].Figures})
		}
	}
	// Largest groups first, so that the workers finish together.
	slices.SortStableFunc(jobs, func(a, b job) int { return cmp.Compare(len(b.idx), len(a.idx)) })

	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next := 0
	for range workers(opt.Workers, len(jobs)) {
		wg.Go(func() {
			for {
				mu.Lock()
				if firstErr != nil || next >= len(jobs) {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				h := fnv.New64a()
				h.Write([]byte(j.dim + "\x00" + j.label))
				g := u.plan(j.idx)
				du, draw := u, g
				if iu != nil {
					if its, ok := groupItems(item, j.idx); ok {
						du, draw = iu, iu.plan(its)
					}
				}
				f, err := u.figures(ctx, g, du, draw, defs, opt.Draws, newRNG(opt.Seed, h.Sum64()))
				if err == nil {
					h.Write([]byte("\x00lrr_score"))
					err = lrrFigures(ctx, &f, golds, results, j.idx, opt, newRNG(opt.Seed, h.Sum64()))
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				*j.out = f
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if !isFinite(rep) {
		return nil, fmt.Errorf("score: summarize: a figure is not a finite number")
	}
	return rep, nil
}

// isFinite reports whether every figure of the report is a finite number (JSON
// cannot hold NaN or infinities).
func isFinite(rep *Report) bool {
	ok := func(f *Figures) bool {
		for _, name := range MetricNames {
			if m := f.Metric(name); m != nil {
				if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					return false
				}
				if m.CI != nil && (math.IsNaN(m.CI[0]) || math.IsNaN(m.CI[1])) {
					return false
				}
			}
		}
		return true
	}
	if !ok(&rep.Overall) {
		return false
	}
	for _, gs := range rep.By {
		for i := range gs {
			if !ok(&gs[i].Figures) {
				return false
			}
		}
	}
	return true
}
