package annotate

import (
	"fmt"
	"strconv"
	"strings"
)

// OptionName is option i (0-based) as people say it: "option A", "option B", …
func OptionName(i int) string {
	if i >= 0 && i < 26 {
		return "option " + string(rune('A'+i))
	}
	return fmt.Sprintf("option %d", i+1)
}

// Place names the finding's field for people: "option C", "step 2's preconditions",
// "the answer", "the whole sample". Field keeps the record's path (for JSON and CSV
// output and for the code that finds the field); screens show Place.
func (f Finding) Place() string {
	field := f.Field
	if field == "" {
		return "the whole sample"
	}
	head, rest, _ := strings.Cut(field, ".")
	name, index, ok := pathIndex(head)
	var place string
	switch {
	case ok && name == "options":
		place = OptionName(index)
	case ok && name == "steps":
		place = fmt.Sprintf("step #%d", index+1)
	case ok:
		place = fmt.Sprintf("%s #%d", strings.TrimSuffix(words(name), "s"), index+1)
	default:
		place = "the " + words(head)
	}
	switch rest {
	case "":
		return place
	case "precondition":
		return place + "'s preconditions"
	case "content":
		return place + "'s text"
	}
	return place + "'s " + words(rest)
}

// Text is the finding in a sentence for people: where, then what is wrong (the
// message alone when it starts by saying where).
func (f Finding) Text() string {
	if p := f.Place(); !strings.HasPrefix(f.Message, p) {
		return p + ": " + f.Message
	}
	return f.Message
}

// pathIndex splits "options[2]" into "options" and 2.
func pathIndex(s string) (string, int, bool) {
	name, idx, ok := strings.Cut(s, "[")
	if !ok || !strings.HasSuffix(idx, "]") {
		return s, 0, false
	}
	i, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
	if err != nil || i < 0 {
		return s, 0, false
	}
	return name, i, true
}

// words is a record field name as words: "ego_subject" → "ego subject".
func words(field string) string {
	switch field {
	case "question_tag":
		return "tagged question"
	case "hop":
		return "hop count" // the editor counts the categories; there is no hop field
	case "ego_subject":
		return "viewpoint's person"
	case "box_image":
		return "box's image"
	}
	return strings.ReplaceAll(field, "_", " ")
}
