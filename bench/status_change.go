package bench

import (
	"strings"

	"github.com/benchwright/benchwright/verify"
)

// StatusChange is a sample's move from one state to another as the audit log
// records it: the detail of a "sample.status" row reads "round1 → round2". The
// store writes it with String, and the history, the activity summaries and the
// round-3 closing read it back with ParseStatusChange; the summaries' SQL of
// migration 0004 also cuts after "→ ", so the wording must not change.
type StatusChange struct{ From, To verify.State }

// statusArrow separates the two states.
const statusArrow = " → "

// String is the audit row's detail: "from → to".
func (c StatusChange) String() string { return string(c.From) + statusArrow + string(c.To) }

// IntoPattern is a SQL LIKE pattern matching the detail of any move into to
// ("% → round2"), for finding when a sample entered a state.
func IntoPattern(to verify.State) string { return "%" + statusArrow + string(to) }

// ParseStatusChange reads the detail of a "sample.status" audit row; ok is false
// when it is not "from → to".
func ParseStatusChange(detail string) (c StatusChange, ok bool) {
	from, to, ok := strings.Cut(detail, statusArrow)
	if !ok {
		return StatusChange{}, false
	}
	return StatusChange{verify.State(from), verify.State(to)}, true
}
