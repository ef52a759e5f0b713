package annotate

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// categoryBits maps each known category to a bit of a category set.
var categoryBits = map[Category]uint8{CatAtt: 1, CatPos: 2, CatRel: 4}

// categoryMask returns the set of known categories in cats and whether all were known.
func categoryMask(cats []Category) (mask uint8, known bool) {
	known = true
	for _, c := range cats {
		bit, ok := categoryBits[c]
		known = known && ok
		mask |= bit
	}
	return mask, known
}

// AllowedCategorySet reports whether cats (duplicates ignored) is one of the allowed
// sets of spec §1a: {pos}, {rel}, {att,pos}, {att,rel}, {pos,rel}, {att,pos,rel}.
// Every set of known categories is allowed except the empty set and {att} alone.
func AllowedCategorySet(cats []Category) bool {
	mask, known := categoryMask(cats)
	return known && mask != 0 && mask != categoryBits[CatAtt]
}

// HopFor returns the hop count of an allowed category set (the number of distinct
// categories), or 0 when the set is not allowed.
func HopFor(cats []Category) int {
	if !AllowedCategorySet(cats) {
		return 0
	}
	return len(distinct(cats))
}

func distinct[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// Subject phrases that open an ego question (spec §1a).
const (
	realPrefix    = "From the perspective of "
	virtualFacing = " and facing the camera,"
)

// virtualPrefixes accepts the straight and the curly apostrophe.
var virtualPrefixes = []string{"When I'm standing ", "When I\u2019m standing "}

// SubjectPhrase builds the phrase that opens an ego question: for a real person
// "From the perspective of <description>,", for a virtual person
// "When I'm standing <description> and facing the camera,". It returns "" for an
// unknown subject.
func SubjectPhrase(subject EgoSubject, description string) string {
	d := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(description), ","))
	switch subject {
	case EgoReal:
		return realPrefix + d + ","
	case EgoVirtual:
		return virtualPrefixes[0] + d + virtualFacing
	}
	return ""
}

// HasSubjectPhrase reports whether question opens with a subject phrase and whose:
// "From the perspective of <someone>," (real) or "When I'm standing <somewhere> and
// facing the camera," (virtual, straight or curly apostrophe). The description must
// not be empty. Leading spaces are ignored; the phrase itself is case-sensitive.
func HasSubjectPhrase(question string) (EgoSubject, bool) {
	subject, _, ok := cutSubjectPhrase(question)
	return subject, ok
}

// CutSubjectPhrase splits an ego question into whose subject phrase opens it and
// the rest of the question after the phrase; ok is false when none opens it.
func CutSubjectPhrase(question string) (subject EgoSubject, rest string, ok bool) {
	return cutSubjectPhrase(question)
}

// cutSubjectPhrase splits an ego question into its subject phrase and the rest.
func cutSubjectPhrase(question string) (subject EgoSubject, rest string, ok bool) {
	q := strings.TrimLeftFunc(question, unicode.IsSpace)
	if after, ok := strings.CutPrefix(q, realPrefix); ok {
		if desc, rest, ok := strings.Cut(after, ","); ok && strings.TrimSpace(desc) != "" {
			return EgoReal, rest, true
		}
	}
	for _, p := range virtualPrefixes {
		if after, ok := strings.CutPrefix(q, p); ok {
			if where, rest, ok := strings.Cut(after, virtualFacing); ok && strings.TrimSpace(where) != "" {
				return EgoVirtual, rest, true
			}
		}
	}
	return "", question, false
}

// colourLexicon holds common colour names and their "-ish" forms. It decides whether
// an att condition is a colour condition and whether an option names a colour.
var colourLexicon = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`red orange yellow green blue purple violet pink brown
		black white grey gray beige tan navy maroon turquoise teal cyan magenta gold golden
		silver ivory cream lavender olive khaki crimson scarlet indigo lime mint peach
		burgundy coral amber bronze copper charcoal blond blonde colored coloured
		reddish greenish bluish blueish yellowish brownish pinkish purplish greyish
		grayish whitish blackish orangish`) {
		colourLexicon[w] = true
	}
}

// ColourWords returns the colour names (lower-cased, each once, in order) that text
// contains as whole words, e.g. "light-blue mug" → ["blue"]. The lexicon is built in;
// "orange" the fruit counts too, which is why colour-in-options is only a warning.
func ColourWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if colourLexicon[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// normalizeOption folds an option for duplicate detection: lower case, apostrophes
// dropped ("don't" = "dont"), every other run of punctuation or space one space.
func normalizeOption(s string) string {
	s = strings.NewReplacer("'", "", "\u2019", "").Replace(strings.ToLower(s))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	}), " ")
}

var scenePattern = regexp.MustCompile(`^[0-9]{4}-[A-Za-z][A-Za-z0-9_-]*-[0-9]+$`)

// ValidSceneName reports whether name follows the scene folder pattern
// NNNN-<scenetype>-<k>, e.g. "0001-office-1" or "0022-living-room-2".
func ValidSceneName(name string) bool { return scenePattern.MatchString(name) }
