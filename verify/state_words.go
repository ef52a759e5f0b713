package verify

import "strings"

// Words names the state in a sentence: "in round 2", "accepted", "returned".
func (s State) Words() string {
	if r, ok := strings.CutPrefix(string(s), "round"); ok {
		return "in round " + r
	}
	return string(s)
}
