package bench

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchwright/benchwright/annotate"
	"github.com/benchwright/benchwright/shortcut"
	"github.com/benchwright/benchwright/verify"
)

// Settings are a project's lead-chosen targets and verification policy. Policy
// turns them into the verify.Policy that every review is judged by; a change
// applies to the next decision and never alters a frozen release, a recorded
// review or a sample's state.
type Settings struct {
	// Balance lists how many accepted samples each cell should reach.
	Balance []BalanceTarget `json:"balance"`
	// Rounds is how many review rounds a sample passes: 3 (MultihopSpatial) or 2
	// (SpatiaLQA's two review cycles, where round 2 accepts).
	Rounds int `json:"rounds"`
	// Round3Panel is the number of independent round-3 verifiers (seed protocol: 3).
	Round3Panel int `json:"round3_panel"`
	// Round2OtherGroup requires the round-2 verifier to come from another group than round 1's.
	Round2OtherGroup bool `json:"round2_other_group"`
	// Round3AllowEarlier lets a round-1/2 verifier of a revision sit on its round-3 panel.
	Round3AllowEarlier bool `json:"round3_allow_earlier"`
	// CorrectionToRound1 sends a verifier's correction back to round 1 (default true).
	CorrectionToRound1 bool `json:"correction_to_round1"`
	// ClaimMinutes is how long a verifier holds a claimed review slot.
	ClaimMinutes int `json:"claim_minutes"`
	// Tasks are the project's task labels (PCSR's T0–T7, SpatialScore's categories);
	// empty means any label.
	Tasks []string `json:"tasks,omitempty"`
	// AugmentToRound1 sends an accepted augmentation candidate (store/augment.go)
	// straight to round 1 as the accepting user's revision 1; false leaves it as
	// their draft.
	AugmentToRound1 bool `json:"augment_to_round1,omitempty"`
	// LRRWeights are the task weights w_i of LRR-Bench's lrr_score (package
	// score): task label → weight above 0; a task not named weighs 1.
	LRRWeights map[string]float64 `json:"lrr_weights,omitempty"`
	// ImageLimits bound how many images the samples of a kind and/or task show
	// (annotate's image-count lint rule, run wherever the store lints).
	ImageLimits []annotate.ImageLimit `json:"image_limits,omitempty"`
	// Planting (issue 30, package plant): the percent of each verifier's claims
	// that are a planted copy of an accepted sample (0, the default, is off; at
	// most MaxPlantRate), which mutations (empty: all, and clean copies) and which
	// rounds (empty: all) are planted.
	PlantRate      int      `json:"plant_rate,omitempty"`
	PlantMutations []string `json:"plant_mutations,omitempty"`
	PlantRounds    []int    `json:"plant_rounds,omitempty"`
	// PlantPauseBelow pauses a verifier (no new claims) whose catch rate's upper
	// bound, in percent, falls below it after at least PlantMinItems planted
	// errors (0: never).
	PlantPauseBelow int `json:"plant_pause_below,omitempty"`
	PlantMinItems   int `json:"plant_min_items,omitempty"`
	// PlantFeedback tells a verifier, after the review of a planted copy, what
	// was planted.
	PlantFeedback bool `json:"plant_feedback,omitempty"`
	// NearDuplicateDistance is the most bits of 64 two images' perceptual hashes
	// may differ in for the audit to take them for one picture (issue 29, the
	// near-duplicate-image check; a heuristic). 0: the default,
	// shortcut.DefaultNearDistance.
	NearDuplicateDistance int `json:"near_duplicate_distance,omitempty"`
}

// MaxNearDuplicateDistance is the largest near_duplicate_distance: beyond a
// third of the hash's bits unrelated pictures pair.
const MaxNearDuplicateDistance = 20

// NearDistance is near_duplicate_distance, or its default.
func (s Settings) NearDistance() int {
	if s.NearDuplicateDistance <= 0 {
		return shortcut.DefaultNearDistance
	}
	return s.NearDuplicateDistance
}

// MaxPlantRate is the largest share of a verifier's queue, in percent, that may
// be planted.
const MaxPlantRate = 50

// DefaultPlantMinItems is the planted errors a verifier sees before a pause can
// hold when plant_min_items is not set.
const DefaultPlantMinItems = 10

// PlantMinimum is plant_min_items, or its default.
func (s Settings) PlantMinimum() int {
	if s.PlantMinItems <= 0 {
		return DefaultPlantMinItems
	}
	return s.PlantMinItems
}

// PlantsRound tells whether planting is on for review round r.
func (s Settings) PlantsRound(r int) bool {
	return s.PlantRate > 0 && (len(s.PlantRounds) == 0 || slices.Contains(s.PlantRounds, r))
}

// PlantsMutation tells whether mutation m (plant.Mutation's name, "clean" for a
// clean copy) may be planted.
func (s Settings) PlantsMutation(m string) bool {
	return len(s.PlantMutations) == 0 || slices.Contains(s.PlantMutations, m)
}

// MaxLRRWeight is the largest lrr_score task weight a project may set.
const MaxLRRWeight = 1000

// BalanceTarget is one cell of the balance grid: samples of Kind with Hop and View (hop
// QA) or Task (other kinds) that should be accepted.
type BalanceTarget struct {
	Kind  string `json:"kind"`
	Hop   int    `json:"hop,omitempty"`
	View  string `json:"view,omitempty"`
	Task  string `json:"task,omitempty"`
	Count int    `json:"count"`
}

// DefaultSettings follow the seed protocol: MultihopSpatial's 4,500 = 1,500 per hop,
// 750 ego + 750 exo each, and a three-verifier unanimous round 3.
func DefaultSettings() Settings {
	p := verify.DefaultPolicy()
	s := Settings{Rounds: p.Rounds, Round3Panel: p.Round3Panel, Round2OtherGroup: p.Round2DifferentGroup,
		Round3AllowEarlier: p.Round3AllowEarlierVerifiers, CorrectionToRound1: p.CorrectionReentersRound1,
		ClaimMinutes: int(p.ClaimTTL / time.Minute)}
	for hop := 1; hop <= 3; hop++ {
		for _, v := range []string{"ego", "exo"} {
			s.Balance = append(s.Balance, BalanceTarget{Kind: "hop_qa", Hop: hop, View: v, Count: 750})
		}
	}
	return s
}

// Policy is the verification policy these settings describe.
func (s Settings) Policy() verify.Policy {
	return verify.Policy{
		Rounds:                      s.Rounds,
		Round3Panel:                 s.Round3Panel,
		Round3AllowEarlierVerifiers: s.Round3AllowEarlier,
		CorrectionReentersRound1:    s.CorrectionToRound1,
		ClaimTTL:                    time.Duration(s.ClaimMinutes) * time.Minute,
		Round2DifferentGroup:        s.Round2OtherGroup,
	}
}

// Validate checks the settings' values; each problem names its key.
func (s Settings) Validate() error {
	var errs []error
	if err := s.Policy().Validate(); err != nil {
		errs = append(errs, policyFields(err)...)
	}
	if s.Round3Panel > 9 {
		errs = append(errs, FieldErr("round3_panel", "at most 9 verifiers, got %d", s.Round3Panel))
	}
	if s.ClaimMinutes > 24*60 {
		errs = append(errs, FieldErr("claim_minutes", "at most 1440 (a day), got %d", s.ClaimMinutes))
	}
	for _, b := range s.Balance {
		key := b.Key()
		switch {
		case !annotate.Kind(b.Kind).Valid():
			errs = append(errs, FieldErr(key, "%q is not a sample kind", b.Kind))
		case b.Kind == string(annotate.KindHopQA) && b.Task == "" && (b.Hop < 0 || b.Hop > 3 || (b.View != "" && b.View != "ego" && b.View != "exo")):
			errs = append(errs, FieldErr(key, "a hop-QA cell needs hop 1–3 or any, and view ego, exo or any"))
		case b.Count < 0:
			errs = append(errs, FieldErr(key, "the target cannot be negative, got %d", b.Count))
		}
	}
	for _, t := range s.Tasks {
		if err := validTask(t); err != nil {
			errs = append(errs, FieldErr("tasks", "%v", err))
		}
	}
	for _, t := range slices.Sorted(maps.Keys(s.LRRWeights)) {
		if err := validLRRWeight(t, s.LRRWeights[t]); err != nil {
			errs = append(errs, err)
		}
	}
	errs = append(errs, s.validPlanting()...)
	seen := map[string]bool{}
	for _, l := range s.ImageLimits {
		key := imageLimitKey(l)
		if seen[key] {
			errs = append(errs, FieldErr(key, "set twice"))
		}
		seen[key] = true
		if err := validImageLimit(l); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// validPlanting checks the plant_* keys.
func (s Settings) validPlanting() []error {
	var errs []error
	if s.PlantRate < 0 || s.PlantRate > MaxPlantRate {
		errs = append(errs, FieldErr("plant_rate", "a percent from 0 (off) to %d, got %d", MaxPlantRate, s.PlantRate))
	}
	for _, m := range s.PlantMutations {
		if !slices.Contains(plantMutationNames, m) {
			errs = append(errs, FieldErr("plant_mutations", "%q is not a mutation; the mutations are %s", m, strings.Join(plantMutationNames, ", ")))
		}
	}
	for _, r := range s.PlantRounds {
		if r < 1 || r > 3 {
			errs = append(errs, FieldErr("plant_rounds", "rounds are 1, 2 and 3, got %d", r))
		}
	}
	if s.PlantPauseBelow < 0 || s.PlantPauseBelow > 100 {
		errs = append(errs, FieldErr("plant_pause_below", "a percent from 0 (never pause) to 100, got %d", s.PlantPauseBelow))
	}
	if s.PlantMinItems < 0 || s.PlantMinItems > 10000 {
		errs = append(errs, FieldErr("plant_min_items", "a number of planted items from 1 to 10000 (0: the default, %d), got %d", DefaultPlantMinItems, s.PlantMinItems))
	}
	if s.NearDuplicateDistance < 0 || s.NearDuplicateDistance > MaxNearDuplicateDistance {
		errs = append(errs, FieldErr("near_duplicate_distance", "a number of bits from 1 to %d (0: the default, %d), got %d", MaxNearDuplicateDistance, shortcut.DefaultNearDistance, s.NearDuplicateDistance))
	}
	return errs
}

// plantMutationNames are the values plant_mutations takes: plant.Mutations'
// names and clean. (The plant package's test checks they are the same.)
var plantMutationNames = []string{"clean", "answer-moved", "box-moved", "box-shrunk", "tag-removed", "ego-subject-stripped",
	"options-near-identical", "transitive-edge", "precondition-removed", "steps-swapped", "answer-flipped", "answer-changed", "images-swapped"}

// PlantMutationNames are the values plant_mutations takes.
func PlantMutationNames() []string { return slices.Clone(plantMutationNames) }

func validTask(t string) error {
	if t == "" || len(t) > 40 || strings.ContainsAny(t, ",= \t\n") {
		return fmt.Errorf("task label %q must be 1–40 characters without spaces, commas or =", t)
	}
	return nil
}

// validLRRWeight checks a task's lrr_score weight; the error names its key.
func validLRRWeight(task string, w float64) error {
	key := "lrr_weight." + task
	if err := validTask(task); err != nil {
		return FieldErr(key, "%v", err)
	}
	if !(w > 0) || w > MaxLRRWeight {
		return FieldErr(key, "a task's weight is a number above 0 and at most %d, got %s", MaxLRRWeight, formatWeight(w))
	}
	return nil
}

func formatWeight(w float64) string { return strconv.FormatFloat(w, 'g', -1, 64) }

// imageLimitKey is an image limit's settings key: images.KIND, images.KIND.TASK,
// images.any.TASK (every kind) or images.any.
func imageLimitKey(l annotate.ImageLimit) string {
	key := "images." + cmp.Or(string(l.Kind), "any")
	if l.Task != "" {
		key += "." + l.Task
	}
	return key
}

// imageLimitValue is an image limit's value: "3" (exactly), "3-4", "3-" (at
// least), "-4" (at most).
func imageLimitValue(l annotate.ImageLimit) string {
	switch {
	case l.Min > 0 && l.Min == l.Max:
		return strconv.Itoa(l.Min)
	case l.Max == 0:
		return strconv.Itoa(l.Min) + "-"
	case l.Min == 0:
		return "-" + strconv.Itoa(l.Max)
	}
	return strconv.Itoa(l.Min) + "-" + strconv.Itoa(l.Max)
}

// validImageLimit checks an image limit; the error names its key.
func validImageLimit(l annotate.ImageLimit) error {
	key := imageLimitKey(l)
	switch {
	case l.Kind != "" && !l.Kind.Valid():
		return FieldErr(key, "%q is not a sample kind", l.Kind)
	case l.Task != "" && validTask(l.Task) != nil:
		return FieldErr(key, "%v", validTask(l.Task))
	case l.Min < 0 || l.Max < 0:
		return FieldErr(key, "image counts cannot be negative")
	case l.Min == 0 && l.Max == 0:
		return FieldErr(key, "give at least a minimum or a maximum number of images")
	case l.Min > annotate.MaxImages || l.Max > annotate.MaxImages:
		return FieldErr(key, "a sample shows at most %d images", annotate.MaxImages)
	case l.Max > 0 && l.Min > l.Max:
		return FieldErr(key, "the minimum %d is above the maximum %d", l.Min, l.Max)
	}
	return nil
}

// parseImageLimit reads images.KIND[.TASK] = N, MIN-MAX, MIN- or -MAX (rest is
// the key after "images."); an empty value (or "any") is a limit of 0–0, which
// Set takes as removing it.
func parseImageLimit(key, rest, value string) (annotate.ImageLimit, error) {
	kind, task, _ := strings.Cut(rest, ".")
	var l annotate.ImageLimit
	if kind != "any" {
		if !annotate.Kind(kind).Valid() {
			return l, invalidField(key, "%q is not a sample kind (or any, for every kind)", kind)
		}
		l.Kind = annotate.Kind(kind)
	}
	if strings.Contains(rest, ".") {
		if err := validTask(task); err != nil {
			return l, invalidField(key, "%v", err)
		}
		l.Task = task
	}
	if value == "" || value == "any" {
		return l, nil
	}
	bad := invalidField(key, "takes a number of images (3), a range (3-4), a minimum (3-) or a maximum (-4), got %q", value)
	lo, hi, ranged := strings.Cut(value, "-")
	n := func(t string) (int, bool) {
		if t == "" {
			return 0, ranged
		}
		v, err := strconv.Atoi(strings.TrimSpace(t))
		return v, err == nil && v >= 0
	}
	var ok1, ok2 bool
	l.Min, ok1 = n(lo)
	if ranged {
		l.Max, ok2 = n(hi)
		if lo == "" && hi == "" {
			ok2 = false
		}
	} else {
		l.Max, ok2 = l.Min, true
	}
	if !ok1 || !ok2 {
		return annotate.ImageLimit{}, bad
	}
	if l.Min == 0 && l.Max == 0 {
		return annotate.ImageLimit{}, invalidField(key, "give at least a minimum or a maximum number of images, or an empty value to remove the limit")
	}
	return l, nil
}

// Words names the balance target for people, as the settings and the audit say
// it: "hop QA, 2-hop, ego", "multiple choice, task T3".
func (b BalanceTarget) Words() string {
	parts := []string{kindWords(b.Kind)}
	if b.Hop != 0 {
		parts = append(parts, fmt.Sprintf("%d-hop", b.Hop))
	}
	if b.View != "" {
		parts = append(parts, b.View)
	}
	if b.Task != "" {
		parts = append(parts, "task "+b.Task)
	}
	return strings.Join(parts, ", ")
}

// Key is the balance target's settings key: balance.hop_qa.2.ego, balance.hop_qa.1.any
// (either view), balance.step_graph, balance.open.T3.
func (b BalanceTarget) Key() string {
	switch {
	case b.Task != "":
		return "balance." + b.Kind + "." + b.Task
	case b.Kind == string(annotate.KindHopQA):
		hop, view := strconv.Itoa(b.Hop), cmp.Or(b.View, "any")
		if b.Hop == 0 {
			hop = "any"
		}
		return "balance." + b.Kind + "." + hop + "." + view
	}
	return "balance." + b.Kind
}

// Setting is one key and its value as `bwctl settings show` prints it.
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Help  string `json:"help"`
}

// settingKeys are the scalar keys in display order, with their help.
var settingKeys = []struct{ key, help string }{
	{"rounds", "review rounds a sample passes: 3, or 2 where round 2 accepts"},
	{"round3_panel", "verifiers on the blind round-3 panel, all of whom must approve (1–9)"},
	{"round2_other_group", "round 2 must be reviewed by someone outside the round-1 verifier's group (true/false)"},
	{"round3_allow_earlier", "round-1/2 verifiers of a revision may sit on its round-3 panel (true/false)"},
	{"correction_to_round1", "a verifier's correction re-enters round 1 (true), or stays in its round (false)"},
	{"claim_minutes", "how long an opened review holds its seat (1–1440)"},
	{"tasks", "the project's task labels, comma-separated (empty: any label)"},
	{"augment_to_round1", "an accepted augmentation candidate goes straight to round 1 (true), or becomes a draft of whoever accepted it (false)"},
	{"plant_rate", "percent of each verifier's claims that are a planted copy with a known error, to measure how well verifiers catch errors (0: off; at most 50)"},
	{"plant_mutations", "which planted errors, comma-separated mutation names and clean (empty: all)"},
	{"plant_rounds", "which review rounds get planted copies, comma-separated (empty: all)"},
	{"plant_pause_below", "pause a verifier whose catch rate's upper bound, in percent, falls below this (0: never)"},
	{"plant_min_items", "planted errors a verifier must have seen before a pause can hold (0: the default, 10)"},
	{"plant_feedback", "tell a verifier after the review of a planted copy what was planted (true/false)"},
	{"near_duplicate_distance", "the most bits of 64 in which two images' perceptual hashes differ for the audit to take them for one picture, a heuristic (0: the default, 8)"},
}

// Values lists every setting as key and value: the scalar keys, then one
// balance.… key per target.
func (s Settings) Values() []Setting {
	var out []Setting
	for _, k := range settingKeys {
		v, _ := s.get(k.key)
		out = append(out, Setting{Key: k.key, Value: v, Help: k.help})
	}
	for _, b := range s.Balance {
		out = append(out, Setting{Key: b.Key(), Value: strconv.Itoa(b.Count), Help: "accepted samples this cell should reach (0 removes it)"})
	}
	for _, t := range slices.Sorted(maps.Keys(s.LRRWeights)) {
		out = append(out, Setting{Key: "lrr_weight." + t, Value: formatWeight(s.LRRWeights[t]),
			Help: "weight of task " + t + " in lrr_score, a number above 0 (empty: the default, 1)"})
	}
	for _, l := range s.ImageLimits {
		out = append(out, Setting{Key: imageLimitKey(l), Value: imageLimitValue(l),
			Help: l.String() + " (N, MIN-MAX, MIN- or -MAX; empty removes it)"})
	}
	return out
}

func (s Settings) get(key string) (string, bool) {
	switch key {
	case "rounds":
		return strconv.Itoa(s.Rounds), true
	case "round3_panel":
		return strconv.Itoa(s.Round3Panel), true
	case "round2_other_group":
		return strconv.FormatBool(s.Round2OtherGroup), true
	case "round3_allow_earlier":
		return strconv.FormatBool(s.Round3AllowEarlier), true
	case "correction_to_round1":
		return strconv.FormatBool(s.CorrectionToRound1), true
	case "claim_minutes":
		return strconv.Itoa(s.ClaimMinutes), true
	case "tasks":
		return strings.Join(s.Tasks, ","), true
	case "augment_to_round1":
		return strconv.FormatBool(s.AugmentToRound1), true
	case "plant_rate":
		return strconv.Itoa(s.PlantRate), true
	case "plant_mutations":
		return strings.Join(s.PlantMutations, ","), true
	case "plant_rounds":
		rs := make([]string, len(s.PlantRounds))
		for i, r := range s.PlantRounds {
			rs[i] = strconv.Itoa(r)
		}
		return strings.Join(rs, ","), true
	case "plant_pause_below":
		return strconv.Itoa(s.PlantPauseBelow), true
	case "plant_min_items":
		return strconv.Itoa(s.PlantMinItems), true
	case "plant_feedback":
		return strconv.FormatBool(s.PlantFeedback), true
	case "near_duplicate_distance":
		return strconv.Itoa(s.NearDuplicateDistance), true
	}
	for _, b := range s.Balance {
		if b.Key() == key {
			return strconv.Itoa(b.Count), true
		}
	}
	if t, ok := strings.CutPrefix(key, "lrr_weight."); ok {
		if w, ok := s.LRRWeights[t]; ok {
			return formatWeight(w), true
		}
	}
	for _, l := range s.ImageLimits {
		if imageLimitKey(l) == key {
			return imageLimitValue(l), true
		}
	}
	return "", false
}

// Set changes one setting from its text form. The error names the key and says
// what values it takes; Validate still checks the whole.
func (s *Settings) Set(key, value string) error {
	value = strings.TrimSpace(value)
	num := func(dst *int) error {
		n, err := strconv.Atoi(value)
		if err != nil {
			return invalidField(key, "must be a whole number, got %q", value)
		}
		*dst = n
		return nil
	}
	flag := func(dst *bool) error {
		b, err := strconv.ParseBool(value)
		if err != nil {
			return invalidField(key, "must be true or false, got %q", value)
		}
		*dst = b
		return nil
	}
	switch key {
	case "rounds":
		return num(&s.Rounds)
	case "round3_panel":
		return num(&s.Round3Panel)
	case "round2_other_group":
		return flag(&s.Round2OtherGroup)
	case "round3_allow_earlier":
		return flag(&s.Round3AllowEarlier)
	case "correction_to_round1":
		return flag(&s.CorrectionToRound1)
	case "claim_minutes":
		return num(&s.ClaimMinutes)
	case "augment_to_round1":
		return flag(&s.AugmentToRound1)
	case "plant_rate":
		return num(&s.PlantRate)
	case "plant_pause_below":
		return num(&s.PlantPauseBelow)
	case "plant_min_items":
		return num(&s.PlantMinItems)
	case "plant_feedback":
		return flag(&s.PlantFeedback)
	case "near_duplicate_distance":
		return num(&s.NearDuplicateDistance)
	case "plant_mutations":
		s.PlantMutations = nil
		for _, m := range strings.Split(value, ",") {
			if m = strings.TrimSpace(m); m != "" && m != "all" && !slices.Contains(s.PlantMutations, m) {
				s.PlantMutations = append(s.PlantMutations, m)
			}
		}
		return nil
	case "plant_rounds":
		s.PlantRounds = nil
		for _, r := range strings.Split(value, ",") {
			if r = strings.TrimSpace(r); r == "" || r == "all" {
				continue
			}
			n, err := strconv.Atoi(r)
			if err != nil {
				return invalidField(key, "takes round numbers separated by commas (1,2,3), got %q", value)
			}
			if !slices.Contains(s.PlantRounds, n) {
				s.PlantRounds = append(s.PlantRounds, n)
			}
		}
		slices.Sort(s.PlantRounds)
		return nil
	case "tasks":
		s.Tasks = nil
		for _, t := range strings.Split(value, ",") {
			if t = strings.TrimSpace(t); t != "" && !slices.Contains(s.Tasks, t) {
				s.Tasks = append(s.Tasks, t)
			}
		}
		return nil
	}
	if task, ok := strings.CutPrefix(key, "lrr_weight."); ok {
		if err := validTask(task); err != nil {
			return invalidField(key, "%v", err)
		}
		if value == "" {
			s.LRRWeights = maps.Clone(s.LRRWeights) // the stored settings may share the map
			delete(s.LRRWeights, task)
			if len(s.LRRWeights) == 0 {
				s.LRRWeights = nil
			}
			return nil
		}
		w, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return invalidField(key, "must be a number above 0 (or empty for the default, 1), got %q", value)
		}
		if err := validLRRWeight(task, w); err != nil {
			return fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		s.LRRWeights = maps.Clone(s.LRRWeights)
		if s.LRRWeights == nil {
			s.LRRWeights = map[string]float64{}
		}
		s.LRRWeights[task] = w
		return nil
	}
	if rest, ok := strings.CutPrefix(key, "images."); ok {
		l, err := parseImageLimit(key, rest, value)
		if err != nil {
			return err
		}
		s.ImageLimits = slices.DeleteFunc(slices.Clone(s.ImageLimits), func(x annotate.ImageLimit) bool { return imageLimitKey(x) == key })
		if l.Min != 0 || l.Max != 0 {
			if err := validImageLimit(l); err != nil {
				return fmt.Errorf("%w: %w", ErrInvalid, err)
			}
			s.ImageLimits = append(s.ImageLimits, l)
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(key, "balance."); ok {
		b, err := parseBalanceKey(key, rest)
		if err != nil {
			return err
		}
		if err := num(&b.Count); err != nil {
			return err
		}
		i := slices.IndexFunc(s.Balance, func(x BalanceTarget) bool { return x.Key() == key })
		switch {
		case b.Count == 0 && i >= 0:
			s.Balance = slices.Delete(s.Balance, i, i+1)
		case b.Count == 0:
		case i >= 0:
			s.Balance[i].Count = b.Count
		default:
			s.Balance = append(s.Balance, b)
		}
		return nil
	}
	return invalidField(key, "there is no setting %q; the settings are %s, balance.KIND[.HOP.VIEW|.TASK], lrr_weight.TASK and images.KIND[.TASK]", key, settingNames())
}

func settingNames() string {
	names := make([]string, len(settingKeys))
	for i, k := range settingKeys {
		names[i] = k.key
	}
	return strings.Join(names, ", ")
}

// parseBalanceKey reads balance.hop_qa.2.ego, balance.step_graph or balance.open.T3
// (rest is the part after "balance.").
func parseBalanceKey(key, rest string) (BalanceTarget, error) {
	parts := strings.Split(rest, ".")
	kind := annotate.Kind(parts[0])
	if !kind.Valid() {
		return BalanceTarget{}, invalidField(key, "%q is not a sample kind", parts[0])
	}
	b := BalanceTarget{Kind: string(kind)}
	switch {
	case kind == annotate.KindHopQA && len(parts) == 3:
		hop, err := strconv.Atoi(parts[1])
		if parts[1] == "any" {
			hop, err = 0, nil
		}
		if err != nil || hop < 0 || hop > 3 || (parts[2] != "ego" && parts[2] != "exo" && parts[2] != "any") {
			return BalanceTarget{}, invalidField(key, "a hop-QA cell is balance.hop_qa.HOP.VIEW with HOP 1–3 or any and VIEW ego, exo or any")
		}
		b.Hop, b.View = hop, parts[2]
		if b.View == "any" {
			b.View = ""
		}
	case kind == annotate.KindHopQA && len(parts) == 2, kind != annotate.KindHopQA && len(parts) == 2:
		b.Task = parts[1]
		if err := validTask(b.Task); err != nil {
			return BalanceTarget{}, invalidField(key, "%v", err)
		}
	case kind != annotate.KindHopQA && len(parts) == 1:
	default:
		return BalanceTarget{}, invalidField(key, "use balance.hop_qa.HOP.VIEW, balance.KIND or balance.KIND.TASK")
	}
	return b, nil
}

// SettingChange is one changed key, as audited.
type SettingChange struct{ Key, Old, New string }

// DiffSettings lists the keys whose values differ between a and b, in display order.
func DiffSettings(a, b Settings) []SettingChange {
	var out []SettingChange
	seen := map[string]bool{}
	for _, v := range append(b.Values(), a.Values()...) {
		if seen[v.Key] {
			continue
		}
		seen[v.Key] = true
		old, _ := a.get(v.Key)
		nw, _ := b.get(v.Key)
		if old != nw {
			out = append(out, SettingChange{v.Key, old, nw})
		}
	}
	return out
}

// settingWords name the scalar keys for people. A true/false key is said as what
// turning it on means.
var settingWords = map[string]string{
	"rounds":                  "the number of review rounds",
	"round3_panel":            "the size of the round-3 panel",
	"round2_other_group":      "round 2 by a verifier from another group than round 1's",
	"round3_allow_earlier":    "round-1 and round-2 verifiers on the round-3 panel",
	"correction_to_round1":    "a verifier's correction re-entering round 1",
	"claim_minutes":           "the minutes a review claim holds its seat",
	"tasks":                   "the project's task labels",
	"augment_to_round1":       "accepted augmentations going straight to round 1",
	"plant_rate":              "the percent of claims that are planted check items",
	"plant_mutations":         "the kinds of planted errors",
	"plant_rounds":            "the rounds that get planted check items",
	"plant_pause_below":       "the catch rate below which a verifier is paused",
	"plant_min_items":         "the planted items a verifier sees before a pause",
	"plant_feedback":          "telling verifiers what a check item had planted",
	"near_duplicate_distance": "the hash distance of near-duplicate images",
}

// kindWords name the sample kinds in a sentence.
func kindWords(kind string) string {
	switch annotate.Kind(kind) {
	case annotate.KindHopQA:
		return "hop QA"
	case annotate.KindStepGraph:
		return "step graphs"
	case annotate.KindJudgment:
		return "yes/no judgments"
	case annotate.KindMCQ:
		return "multiple choice"
	case annotate.KindOpen:
		return "open answers"
	case "any":
		return "every kind"
	}
	return kind
}

// SettingLabel names a settings key for people: "the number of review rounds",
// "the LRR weight of task counting", "the balance target of hop QA, 2-hop, ego",
// "the verifier group of ver1". An unknown key is returned as it is.
func SettingLabel(key string) string {
	if w, ok := settingWords[key]; ok {
		return w
	}
	head, rest, _ := strings.Cut(key, ".")
	switch head {
	case "lrr_weight":
		return "the LRR weight of task " + rest
	case "group":
		return "the verifier group of " + rest
	case "images":
		kind, task, hasTask := strings.Cut(rest, ".")
		if hasTask {
			return "the number of images of " + kindWords(kind) + " in task " + task
		}
		return "the number of images of " + kindWords(kind)
	case "balance":
		b, err := parseBalanceKey(key, rest)
		if err != nil {
			return key
		}
		return "the balance target of " + b.Words()
	}
	return key
}

// SettingChangeWords says an audited settings change ("key: old → new", as
// changeSettings records it) as a sentence: "changed the number of review rounds
// from 3 to 2", "set the LRR weight of task counting to 2", "turned off round 2 by
// a verifier from another group than round 1's". Anything else is returned as it is.
func SettingChangeWords(detail string) string {
	key, change, ok := strings.Cut(detail, ": ")
	if !ok {
		return detail
	}
	old, new, ok := strings.Cut(change, " → ")
	if !ok || strings.ContainsAny(key, " ") {
		return detail
	}
	return SettingChange{Key: key, Old: old, New: new}.Words()
}

// Words says the change as a sentence (SettingChangeWords).
func (c SettingChange) Words() string {
	key, old, new := c.Key, c.Old, c.New
	label := SettingLabel(key)
	none := func(v string) bool { return v == "" || (strings.HasPrefix(key, "balance.") && v == "0") }
	switch {
	case new == "true" && old == "false":
		return "turned on " + label
	case new == "false" && old == "true":
		return "turned off " + label
	case none(old) && none(new):
		return "left " + label + " unset"
	case none(old):
		return fmt.Sprintf("set %s to %s", label, new)
	case none(new):
		return fmt.Sprintf("removed %s (was %s)", label, old)
	}
	return fmt.Sprintf("changed %s from %s to %s", label, old, new)
}

// FieldError is one setting refused: its key (group.NAME for a verifier's group;
// "" when the refusal names none) and why, in words that follow the setting's
// name ("must be a whole number, got \"abc\""). It crosses a team server as JSON.
type FieldError struct {
	Key     string `json:"key"`
	Message string `json:"message"`
	cause   error  // the refusal it words (verify.ErrInvalidPolicy, say), for errors.Is
}

func (e FieldError) Error() string {
	if e.Key == "" {
		return e.Message
	}
	return e.Key + ": " + e.Message
}

func (e FieldError) Unwrap() error { return e.cause }

// SettingsError is a refused settings change (SetSettings, UpdateSettings):
// nothing was saved, and each value refused is one of Fields, so that a screen
// shows each reason beside its field, named as the screen names it (errors.As
// finds it, through a team server too). Its text names the keys, as a command
// line takes them. errors.Is(err, ErrInvalid) holds for it.
type SettingsError struct {
	Fields []FieldError
}

func (e *SettingsError) Error() string {
	lines := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		lines[i] = f.Error()
	}
	return strings.Join(lines, "\n")
}

// Is makes errors.Is(err, ErrInvalid) hold.
func (e *SettingsError) Is(target error) bool { return target == ErrInvalid }

// Unwrap gives the fields' own refusals (errors.Is(err, verify.ErrInvalidPolicy)).
func (e *SettingsError) Unwrap() []error {
	out := make([]error, len(e.Fields))
	for i, f := range e.Fields {
		out[i] = f
	}
	return out
}

// FieldErr refuses the setting key with a sentence made of format and args; an
// error among args is its cause.
func FieldErr(key, format string, args ...any) error {
	f := FieldError{Key: key, Message: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if err, ok := a.(error); ok {
			f.cause = err
		}
	}
	return f
}

// invalidField is FieldErr marked ErrInvalid.
func invalidField(key, format string, args ...any) error {
	return fmt.Errorf("%w: %w", ErrInvalid, FieldErr(key, format, args...))
}

// policyFields are verify.Policy.Validate's refusals as fields: each starts with
// the key it refuses ("rounds: a project runs 2 or 3 review rounds, got 4").
func policyFields(err error) []error {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	out := make([]error, len(errs))
	for i, e := range errs {
		f := FieldError{Message: e.Error(), cause: e}
		if key, msg, ok := strings.Cut(e.Error(), ": "); ok && slices.ContainsFunc(settingKeys, func(k struct{ key, help string }) bool { return k.key == key }) {
			f.Key, f.Message = key, msg
		}
		out[i] = f
	}
	return out
}

// SettingsErrorOf gathers a refused change's fields into a SettingsError; an error
// that is not a refusal of values (a database's) is returned as it is.
func SettingsErrorOf(err error) error {
	if !errors.Is(err, ErrInvalid) {
		var f FieldError
		if !errors.As(err, &f) {
			return err
		}
	}
	se := &SettingsError{}
	var walk func(error)
	walk = func(e error) {
		if f, ok := e.(FieldError); ok {
			if !slices.ContainsFunc(se.Fields, func(g FieldError) bool { return g.Key == f.Key && g.Message == f.Message }) {
				se.Fields = append(se.Fields, f)
			}
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, c := range j.Unwrap() {
				if c != ErrInvalid {
					walk(c)
				}
			}
			return
		}
		if e == ErrInvalid {
			return
		}
		var f FieldError
		if errors.As(e, &f) {
			se.Fields = append(se.Fields, f)
			return
		}
		se.Fields = append(se.Fields, FieldError{Message: strings.ReplaceAll(e.Error(), ErrInvalid.Error()+": ", ""), cause: e})
	}
	walk(err)
	return se
}
