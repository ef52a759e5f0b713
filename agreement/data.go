package agreement

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Data is reliability data: a sequence of units, each holding the values its
// coders gave it. Values are interned as small integer codes; a missing value
// is simply absent from its unit. Build Data with [NewData], [Builder] or
// [ReadCSV]; it is read-only afterwards and safe for concurrent use.
type Data struct {
	labels []string // code -> value label
	where  []string // code -> where the value was first seen, for errors
	vals   []int32  // value codes, unit after unit
	ends   []int    // unit u holds vals[ends[u-1]:ends[u]]
	coders int
}

// Units is the number of units, including those with fewer than two values.
func (d *Data) Units() int { return len(d.ends) }

// Coders is the number of coders the data was built from.
func (d *Data) Coders() int { return d.coders }

// Values is the number of values present (missing ones excluded).
func (d *Data) Values() int { return len(d.vals) }

func (d *Data) unit(u int) []int32 {
	start := 0
	if u > 0 {
		start = d.ends[u-1]
	}
	return d.vals[start:d.ends[u]]
}

// interner assigns codes to value labels in order of first appearance.
type interner struct {
	index  map[string]int32
	labels []string
	where  []string
}

// code returns the code of label, interning it if new; where is called only
// for a new label and describes its position for error messages.
func (in *interner) code(label string, where func() string) int32 {
	if c, ok := in.index[label]; ok {
		return c
	}
	if in.index == nil {
		in.index = make(map[string]int32)
	}
	c := int32(len(in.labels))
	in.index[label] = c
	in.labels = append(in.labels, label)
	in.where = append(in.where, where())
	return c
}

// NewData builds Data from a coders × units matrix: rows[i][u] is the value
// coder i gave unit u. Rows may have different lengths; a short row is missing
// the trailing units. A cell for which missing returns true is missing; a nil
// missing treats only the empty string as missing. Values are labels compared
// exactly; at the numeric levels they must parse as numbers.
func NewData(rows [][]string, missing func(string) bool) *Data {
	if missing == nil {
		missing = func(s string) bool { return s == "" }
	}
	return fromRows(rows, func(s string) (string, bool) { return s, !missing(s) },
		func(coder, unit int) string { return fmt.Sprintf("coder %d, unit %d", coder+1, unit+1) })
}

// fromRows builds Data from coder rows. value returns a cell's value label
// and whether it is present; where describes a cell's position for errors.
func fromRows(rows [][]string, value func(string) (string, bool), where func(coder, unit int) string) *Data {
	units := 0
	for _, r := range rows {
		units = max(units, len(r))
	}
	var in interner
	d := &Data{coders: len(rows), ends: make([]int, units)}
	for u := range units {
		for i, r := range rows {
			if u >= len(r) {
				continue
			}
			if v, ok := value(r[u]); ok {
				d.vals = append(d.vals, in.code(v, func() string { return where(i, u) }))
			}
		}
		d.ends[u] = len(d.vals)
	}
	d.labels, d.where = in.labels, in.where
	return d
}

// Builder accumulates reliability data unit by unit ([Builder.AddUnit]) or
// from (unit, coder, value) triples ([Builder.Add]); both may be mixed. An
// empty value counts as missing and is ignored. The zero Builder is ready to
// use.
type Builder struct {
	in      interner
	vals    []int32 // AddUnit units, concatenated
	ends    []int
	maxVals int

	keyed   map[string]int // unit key -> index in kunits
	kunits  [][]int32
	kvalues map[unitCoder]int32
	kcoders map[string]struct{}
}

type unitCoder struct {
	unit  int
	coder string
}

// AddUnit adds one unit holding the given values, one per coder that coded
// it. A unit with fewer than two values is kept and reported as dropped.
func (b *Builder) AddUnit(values ...string) {
	u := len(b.ends) + 1
	n := 0
	for _, v := range values {
		if v == "" {
			continue
		}
		b.vals = append(b.vals, b.in.code(v, func() string { return fmt.Sprintf("unit %d", u) }))
		n++
	}
	b.ends = append(b.ends, len(b.vals))
	b.maxVals = max(b.maxVals, n)
}

// Add records that coder gave unit the value. Giving the same unit the same
// value twice is harmless; giving it a different value is an error.
func (b *Builder) Add(unit, coder, value string) error {
	if b.keyed == nil {
		b.keyed = make(map[string]int)
		b.kvalues = make(map[unitCoder]int32)
		b.kcoders = make(map[string]struct{})
	}
	u, ok := b.keyed[unit]
	if !ok {
		u = len(b.kunits)
		b.keyed[unit] = u
		b.kunits = append(b.kunits, nil)
	}
	b.kcoders[coder] = struct{}{}
	if value == "" {
		return nil
	}
	key := unitCoder{u, coder}
	if prev, ok := b.kvalues[key]; ok {
		if b.in.labels[prev] == value {
			return nil
		}
		return fmt.Errorf("agreement: coder %s gave unit %s two values, %s and %s", quote(coder), quote(unit), quote(b.in.labels[prev]), quote(value))
	}
	c := b.in.code(value, func() string { return fmt.Sprintf("unit %s, coder %s", quote(unit), quote(coder)) })
	b.kvalues[key] = c
	b.kunits[u] = append(b.kunits[u], c)
	return nil
}

// Data returns the data added so far. The Builder stays usable.
func (b *Builder) Data() *Data {
	d := &Data{
		labels: append([]string(nil), b.in.labels...),
		where:  append([]string(nil), b.in.where...),
		vals:   make([]int32, len(b.vals), len(b.vals)+len(b.kvalues)),
		ends:   make([]int, len(b.ends), len(b.ends)+len(b.kunits)),
		coders: max(b.maxVals, len(b.kcoders)),
	}
	copy(d.vals, b.vals)
	copy(d.ends, b.ends)
	for _, u := range b.kunits {
		d.vals = append(d.vals, u...)
		d.ends = append(d.ends, len(d.vals))
	}
	return d
}

// quote quotes a value for an error message, cut to its first 60 bytes with its
// size when longer: a 20 MB cell must not come back whole in a message.
func quote(s string) string {
	const max = 60
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%d bytes)", len(s))
}
