package boxcanvas

import (
	"image/color"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	fynecanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/benchwright/benchwright/annotate"
)

var (
	red   = color.NRGBA{R: 0xe5, G: 0x39, B: 0x35, A: 0xff}
	green = color.NRGBA{R: 0x43, G: 0xa0, B: 0x47, A: 0xff}
	white = color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

func labels(ss []Style) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Label)
	}
	return out
}

// Styles stay with their boxes when a box is deleted, and come back with it on
// Undo; a drawn box has none; SetBoxes clears them.
func TestStylesFollowBoxes(t *testing.T) {
	f := newFixture(t)
	a, b, c := annotate.Box{10, 10, 100, 100}, annotate.Box{200, 200, 300, 300}, annotate.Box{400, 100, 500, 200}
	f.c.SetBoxes([]annotate.Box{a, b, c})
	f.c.SetStyles([]Style{{Color: red, Label: "a"}, {Color: green, Label: "b"}, {Label: "c"}})
	f.c.Select(0)
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	f.wantBoxes(b, c)
	if got := labels(f.c.Styles()); !slices.Equal(got, []string{"b", "c"}) || f.c.Styles()[0].Color != green {
		t.Errorf("after deleting a: styles %q", got)
	}
	// A nudge keeps them; undoing the nudge and the deletion brings a's back.
	f.c.Select(1)
	f.c.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	f.c.Undo()
	f.c.Undo()
	f.wantBoxes(a, b, c)
	if got := labels(f.c.Styles()); !slices.Equal(got, []string{"a", "b", "c"}) || f.c.Styles()[0].Color != red {
		t.Errorf("after undoing the deletion: styles %q", got)
	}
	f.c.Redo()
	if got := labels(f.c.Styles()); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("after redoing the deletion: styles %q", got)
	}
	f.c.Undo()
	// A drawn box has the default style.
	f.c.Select(-1)
	f.drag(f.screen(600, 400), 40, 40)
	if n := len(f.c.Boxes()); n != 4 || f.c.style(3) != (Style{}) || len(f.c.Styles()) != 3 {
		t.Errorf("%d boxes, the drawn one styled %+v", n, f.c.style(3))
	}
	f.c.SetBoxes([]annotate.Box{a})
	if len(f.c.Styles()) != 0 {
		t.Errorf("SetBoxes kept styles %+v", f.c.Styles())
	}
}

// A styled box is drawn in its colour, thicker when selected, with its label on
// a tag of its colour; a box without a style is yellow, blue when selected.
func TestStyledBoxesRender(t *testing.T) {
	f := newFixture(t)
	f.c.SetBoxes([]annotate.Box{{100, 100, 300, 300}, {400, 300, 600, 500}, {500, 50, 700, 150}})
	f.c.SetStyles([]Style{{Color: red, Label: "gold"}, {Color: white, Label: "model"}})
	r := test.TempWidgetRenderer(t, f.c).(*renderer)
	check := func(what string, i int, stroke color.Color, width float32, label string, ink color.Color) {
		t.Helper()
		rect := r.rects[i]
		if rect.StrokeColor != stroke || rect.StrokeWidth != width {
			t.Errorf("%s: box %d drawn %v at %g, want %v at %g", what, i, rect.StrokeColor, rect.StrokeWidth, stroke, width)
		}
		if label == "" {
			if r.texts[i].Visible() || r.tags[i].Visible() {
				t.Errorf("%s: box %d shows a label %q", what, i, r.texts[i].Text)
			}
			return
		}
		if !r.texts[i].Visible() || r.texts[i].Text != label || r.texts[i].Color != ink || r.tags[i].FillColor != stroke {
			t.Errorf("%s: box %d label %q in %v on %v, want %q in %v on %v", what, i, r.texts[i].Text, r.texts[i].Color,
				r.tags[i].FillColor, label, ink, stroke)
		}
		// Above the box's top-left corner.
		if tl := f.screen(f.c.Boxes()[i][0], f.c.Boxes()[i][1]); r.tags[i].Position().Y+r.tags[i].Size().Height != tl.Y || r.tags[i].Position().X != tl.X {
			t.Errorf("%s: box %d label at %v, the box at %v", what, i, r.tags[i].Position(), tl)
		}
	}
	check("none selected", 0, red, strokeWidth, "gold", color.White)
	check("none selected", 1, white, strokeWidth, "model", color.Black)
	check("none selected", 2, boxColor, strokeWidth, "", nil)

	f.c.Select(0)
	check("gold selected", 0, red, selectedStrokeWidth, "gold", color.White)
	check("gold selected", 2, boxColor, strokeWidth, "", nil)
	if h := r.handles[0]; !h.Visible() || h.StrokeColor != red {
		t.Errorf("the handles of the red box: %v", h.StrokeColor)
	}
	f.c.Select(2)
	check("plain selected", 0, red, strokeWidth, "gold", color.White)
	check("plain selected", 2, selectedColor, strokeWidth, "", nil)
	if h := r.handles[0]; h.StrokeColor != selectedColor {
		t.Errorf("the handles of the plain box: %v", h.StrokeColor)
	}
	// The objects: the image, the halos, the outlines, then each label's tag and text, the handles.
	if n := len(r.Objects()); n != 1+3+3+2*3+8 {
		t.Errorf("%d objects", n)
	}
	if _, ok := r.Objects()[4].(*fynecanvas.Rectangle); !ok {
		t.Errorf("object 4 is a %T", r.Objects()[4])
	}
}

func TestGoldenStyledBoxes(t *testing.T) {
	f := newFixture(t)
	f.c.SetBoxes([]annotate.Box{{160, 120, 480, 400}, {200, 160, 520, 440}, {560, 40, 760, 200}, {40, 420, 200, 580}})
	f.c.SetStyles([]Style{{Color: color.NRGBA{R: 0xff, G: 0xd6, A: 0xff}, Label: "gold"}, {Color: red, Label: "model A"},
		{Color: green, Label: "model B"}})
	f.c.Select(1)
	img := f.w.Canvas().Capture()
	const name = "boxcanvas_styled.png"
	if *update {
		if err := writePNG(filepath.Join("testdata", name), img); err != nil {
			t.Fatal(err)
		}
	}
	test.AssertImageMatches(t, name, img)
}

// Boxes that coincide show every label: each is moved right of the ones before it,
// and below them at the widget's right edge.
func TestCoincidentLabelsDoNotCover(t *testing.T) {
	f := newFixture(t)
	b := annotate.Box{100, 100, 300, 300}
	edge := annotate.Box{700, 100, 800, 300} // near the right edge
	f.c.SetBoxes([]annotate.Box{b, b, b, edge, edge})
	f.c.SetStyles([]Style{{Color: red, Label: "gold"}, {Color: green, Label: "half"}, {Color: white, Label: "perfect"},
		{Color: red, Label: "a long label"}, {Color: green, Label: "another long label"}})
	r := test.TempWidgetRenderer(t, f.c).(*renderer)
	rect := func(i int) labelRect {
		return labelRect{r.tags[i].Position(), r.tags[i].Position().Add(r.tags[i].Size())}
	}
	for i := range 5 {
		for j := range i {
			if rect(i).overlaps(rect(j)) {
				t.Errorf("label %q at %v covers %q at %v", r.texts[i].Text, rect(i), r.texts[j].Text, rect(j))
			}
		}
		if e := rect(i).end; rect(i).pos.X < 0 || e.X > 400 {
			t.Errorf("label %q at %v leaves the widget", r.texts[i].Text, rect(i))
		}
	}
	if rect(1).pos.Y != rect(0).pos.Y || rect(1).pos.X != rect(0).end.X+1 || rect(2).pos.X != rect(1).end.X+1 {
		t.Errorf("labels of one box at %v, %v, %v, not side by side", rect(0), rect(1), rect(2))
	}
	if rect(4).pos.Y != rect(3).end.Y+1 {
		t.Errorf("at the edge: %v then %v, not one under the other", rect(3), rect(4))
	}
}
