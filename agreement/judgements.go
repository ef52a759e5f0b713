package agreement

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/verify"
)

// Value is a judgement's value on one criterion.
type Value byte

// The values of a criterion: a criterion nobody judged is Unjudged, a missing value
// in the reliability data, never Yes.
const (
	Unjudged Value = iota
	Yes
	No
)

// label is the value in the reliability data ("" is missing).
func (v Value) label() string {
	switch v {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return ""
}

// Judgement is one verifier's review of a sample revision, reduced to what the
// agreement tables need. Its values on the criteria of its kind and round are kept
// by the Judgements it was added to.
type Judgement struct {
	Revision int64
	Coder    int32 // the verifier: an index into Judgements.Coders
	Round    int8  // 1–3
	Reject   bool  // the decision: reject, else approve
	kind     int8  // index into Judgements.kinds
	values   int32 // index of its first value in Judgements.values
}

// Decision is the judgement's decision.
func (j Judgement) Decision() verify.Decision {
	if j.Reject {
		return verify.DecisionReject
	}
	return verify.DecisionApprove
}

// Judgements are the reviews the agreement is computed on, in revision order: what
// the store hands over once it decided which reviews may be seen (see
// store.DB.Agreement). Build them with [Judgements.Coder] and [Judgements.Add]; List
// may be cut back (a revision's round-3 judgements left out) before the tables are
// computed with [Judgements.Tables].
type Judgements struct {
	List   []Judgement
	Coders []string // the verifiers' names

	values []Value
	kinds  []annotate.Kind
	// criteria[kind][round-1] is verify.Criteria(kind, round).
	criteria [][3][]verify.Criterion
	// decoded maps a kind, a round and a review's stored criteria and reasons to
	// the values they decode to (their index in values): the same few forms come
	// back in most reviews, and are decoded once.
	decoded map[string]int32
	key     []byte
}

// Coder adds a verifier and returns the index its judgements name.
func (js *Judgements) Coder(name string) int32 {
	js.Coders = append(js.Coders, name)
	return int32(len(js.Coders) - 1)
}

// kindIndex returns the index of kind, adding it when new.
func (js *Judgements) kindIndex(kind string) int {
	for i, k := range js.kinds {
		if string(k) == kind {
			return i
		}
	}
	k := annotate.Kind(kind)
	js.kinds = append(js.kinds, k)
	js.criteria = append(js.criteria, [3][]verify.Criterion{verify.Criteria(k, 1), verify.Criteria(k, 2), verify.Criteria(k, 3)})
	return len(js.kinds) - 1
}

// judged lists the criteria of j's kind and round, in the order of its values.
func (js *Judgements) judged(j Judgement) []verify.Criterion {
	if j.Round < 1 || j.Round > 3 {
		return nil
	}
	return js.criteria[j.kind][j.Round-1]
}

// Add appends j, a review of a sample of the given kind, with its value on each
// criterion of its kind and round: its judgement when it gave one; else No when the
// criterion is among its reasons; else Unjudged (verify.CheckVerdict makes an
// approval judge every criterion; approvals stored before that rule without
// judgements have none). criteria and reasons are the review's verdict as stored:
// the JSON of its Judgements (an object of booleans) and of its Reasons (an array
// of strings); nil reasons are none.
func (js *Judgements) Add(j Judgement, kind string, criteria, reasons []byte) error {
	return add(js, j, kind, criteria, reasons)
}

// AddText is Add with the stored verdict as strings (a reader that holds them as
// strings need not copy them).
func (js *Judgements) AddText(j Judgement, kind, criteria, reasons string) error {
	return add(js, j, kind, criteria, reasons)
}

func add[T ~string | ~[]byte](js *Judgements, j Judgement, kind string, criteria, reasons T) error {
	j.kind = int8(js.kindIndex(kind))
	js.key = append(append(append(append(js.key[:0], byte(j.kind), byte(j.Round)), criteria...), 0), reasons...)
	if at, ok := js.decoded[string(js.key)]; ok {
		j.values = at
		js.List = append(js.List, j)
		return nil
	}
	list := js.judged(j)
	j.values = int32(len(js.values))
	js.values = slices.Grow(js.values, len(list))[:len(js.values)+len(list)]
	vals := js.values[j.values:]
	clear(vals)
	crit := string(criteria)
	if crit != "{}" && !parseCriteria(crit, list, vals) {
		var m map[string]bool
		if err := json.Unmarshal([]byte(criteria), &m); err != nil {
			return fmt.Errorf("criteria: %w", err)
		}
		for i, c := range list {
			if passed, ok := m[c.ID]; ok {
				vals[i] = valueOf(passed)
			}
		}
	}
	var rs []string
	if len(reasons) > 0 && string(reasons) != "[]" {
		var ok bool
		if rs, ok = parseStrings(string(reasons)); !ok {
			if err := json.Unmarshal([]byte(reasons), &rs); err != nil {
				return fmt.Errorf("reasons: %w", err)
			}
		}
	}
	for i, c := range list {
		if vals[i] == Unjudged && slices.Contains(rs, c.ID) {
			vals[i] = No
		}
	}
	if js.decoded == nil {
		js.decoded = map[string]int32{}
	}
	js.decoded[string(js.key)] = j.values
	js.List = append(js.List, j)
	return nil
}

func valueOf(passed bool) Value {
	if passed {
		return Yes
	}
	return No
}

// value is j's value on the criterion at position pos of its values (-1: none).
func (js *Judgements) value(j Judgement, pos int) Value {
	if pos < 0 {
		return Unjudged
	}
	return js.values[int(j.values)+pos]
}

// parseCriteria reads the criteria object json.Marshal writes for a review
// ({"id":true,"id2":false}: no spaces, no escapes, booleans only) into vals, one per
// criterion of list; a criterion named twice takes the last value, as json.Unmarshal
// does. It reports false, having set nothing, for any other form.
func parseCriteria(s string, list []verify.Criterion, vals []Value) bool {
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' || !plainJSON(s) {
		return false
	}
	type kv struct {
		i int
		v Value
	}
	var found [16]kv
	set := found[:0]
	for rest := s[1 : len(s)-1]; rest != ""; {
		if rest[0] != '"' {
			return false
		}
		end := strings.IndexByte(rest[1:], '"') + 1
		if end == 0 || end+1 >= len(rest) || rest[end+1] != ':' {
			return false
		}
		key := rest[1:end]
		rest = rest[end+2:]
		var v Value
		switch {
		case strings.HasPrefix(rest, "true"):
			v, rest = Yes, rest[4:]
		case strings.HasPrefix(rest, "false"):
			v, rest = No, rest[5:]
		default:
			return false
		}
		if rest != "" {
			if rest[0] != ',' || len(rest) == 1 {
				return false
			}
			rest = rest[1:]
		}
		if i := slices.IndexFunc(list, func(c verify.Criterion) bool { return c.ID == key }); i >= 0 {
			set = append(set, kv{i, v})
		}
	}
	for _, x := range set {
		vals[x.i] = x.v
	}
	return true
}

// plainJSON reports whether s holds neither escapes nor control characters, so that
// its strings read as they stand.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == '\\' {
			return false
		}
	}
	return true
}

// parseStrings reads an array of strings without escapes (["a","b"]), and reports
// false for any other form.
func parseStrings(s string) ([]string, bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || !plainJSON(s) {
		return nil, false
	}
	var out []string
	for rest := s[1 : len(s)-1]; rest != ""; {
		if rest[0] != '"' {
			return nil, false
		}
		end := strings.IndexByte(rest[1:], '"') + 1
		if end == 0 {
			return nil, false
		}
		out = append(out, rest[1:end])
		rest = rest[end+1:]
		if rest != "" {
			if rest[0] != ',' || len(rest) == 1 {
				return nil, false
			}
			rest = rest[1:]
		}
	}
	return out, true
}
