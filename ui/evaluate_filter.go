package ui

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/bench"
)

// The Evaluate screen's Samples tab lists the release's samples through a filter
// (issue 27 item 16): a search of the id and the question, the kind, the hop, and
// "wrong only" — the samples at least one model did not get right
// (store.ReleaseOutcomes). Looking at where models fail is what the tab is for; a
// 5,000-sample release is not read top to bottom.

// Choices of the filter's selects that keep every sample.
const (
	evalEveryKind = "every kind"
	evalEveryHop  = "every hop"
)

// evalFilterBar is the Samples tab's filter.
type evalFilterBar struct {
	root   fyne.CanvasObject
	search *widget.Entry
	kind   *widget.Select
	hop    *widget.Select
	wrong  *widget.Check
	// blind keeps only the samples some model's blind run got right
	// (SampleOutcome.BlindRight); shown when the release has a blind run.
	blind *widget.Check
	count *widget.Label // "12 of 1,777 samples"
}

func (v *evaluateView) newEvalFilterBar() evalFilterBar {
	f := evalFilterBar{search: widget.NewEntry(), count: widget.NewLabel("")}
	f.search.SetPlaceHolder("Search id or question")
	f.search.OnChanged = func(string) { v.filterSamples() }
	kinds := []string{evalEveryKind}
	for _, k := range annotate.Kinds {
		kinds = append(kinds, string(k))
	}
	f.kind = widget.NewSelect(kinds, func(string) { v.filterSamples() })
	f.kind.Selected = evalEveryKind
	f.hop = widget.NewSelect([]string{evalEveryHop}, func(string) { v.filterSamples() })
	f.hop.Selected = evalEveryHop
	f.wrong = widget.NewCheck("wrong only", func(bool) { v.filterSamples() })
	f.blind = widget.NewCheck("right blind only", func(bool) { v.filterSamples() })
	f.blind.Hide()
	f.count.Importance = widget.LowImportance
	f.count.Truncation = fyne.TextTruncateEllipsis
	f.root = container.NewVBox(f.search, container.NewGridWithColumns(2, f.kind, f.hop), container.NewBorder(nil, nil, container.NewHBox(f.wrong, f.blind), nil, f.count))
	return f
}

// keeps tells whether the filter keeps a sample of the release; o is the models'
// outcome on it (zero without models).
func (f evalFilterBar) keeps(it bench.ReleaseItem, o bench.SampleOutcome) bool {
	if q := strings.ToLower(strings.TrimSpace(f.search.Text)); q != "" &&
		!strings.Contains(strings.ToLower(it.SampleID), q) && !strings.Contains(strings.ToLower(it.Content.Question), q) {
		return false
	}
	if k := f.kind.Selected; k != "" && k != evalEveryKind && string(it.Content.Kind) != k {
		return false
	}
	if h := f.hop.Selected; h != "" && h != evalEveryHop && evalHopLabel(it.Content.Hop) != h {
		return false
	}
	if f.blind.Checked && len(o.BlindRight) == 0 {
		return false
	}
	return !f.wrong.Checked || len(o.Wrong) > 0
}

// evalHopLabel names a hop count in the hop select.
func evalHopLabel(hop int) string { return "hop " + strconv.Itoa(hop) }

// filterSamples lists the samples the filter keeps, and offers the hops the
// release has.
func (v *evaluateView) filterSamples() {
	f := v.sampleFilter
	if f.root == nil {
		return
	}
	hops := map[int]bool{}
	v.shown = v.shown[:0]
	for i, it := range v.items {
		if it.Content.Kind == annotate.KindHopQA && it.Content.Hop > 0 {
			hops[it.Content.Hop] = true
		}
		if f.keeps(it, v.outcomes[it.SampleID]) {
			v.shown = append(v.shown, i)
		}
	}
	opts := []string{evalEveryHop}
	for _, h := range slices.Sorted(maps.Keys(hops)) {
		opts = append(opts, evalHopLabel(h))
	}
	f.hop.Options = opts
	if len(v.runs) == 0 {
		f.wrong.Disable()
	} else {
		f.wrong.Enable()
	}
	if len(v.blind) > 0 {
		f.blind.Show()
	} else {
		f.blind.Hide()
	}
	f.count.SetText(fmt.Sprintf("%d of %s", len(v.shown), annotate.Plural(len(v.items), "sample")))
	v.sampleList.UnselectAll()
	v.sampleList.Refresh()
}

// sampleLine is a sample's line in the list: its id, kind and, with models, how
// many did not get it right.
func (v *evaluateView) sampleLine(it bench.ReleaseItem) string {
	line := it.SampleID + " · " + string(it.Content.Kind)
	if o, ok := v.outcomes[it.SampleID]; ok && o.Models > 0 {
		if len(o.Wrong) == 0 {
			line += " · none wrong"
		} else {
			line += fmt.Sprintf(" · %d of %d wrong", len(o.Wrong), o.Models)
		}
	}
	if o := v.outcomes[it.SampleID]; len(o.BlindRight) > 0 {
		line += " · right blind: " + strings.Join(o.BlindRight, ", ")
	}
	return line
}
