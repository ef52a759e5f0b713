package bench

// Planting (issue 30): the figures and the list a lead reads of the planted
// copies that measure how well each verifier catches errors (package plant).
// Nothing here is ever sent to a verifier.

// PlantRate is a share with its exact (Clopper–Pearson) 95 % interval: CI is
// [low, high].
type PlantRate struct {
	Value float64    `json:"value"`
	CI    [2]float64 `json:"ci"`
	K     int        `json:"k"`
	N     int        `json:"n"`
}

// PlantFigures are one verifier's reviews of planted copies in one round.
type PlantFigures struct {
	Verifier string `json:"verifier"`
	Round    int    `json:"round"`
	// Planted counts the copies with an error seen; Caught, Partial and Missed
	// split them (verify.ReviewOfPlanted).
	Planted int `json:"planted"`
	Caught  int `json:"caught"`
	Partial int `json:"partial"`
	Missed  int `json:"missed"`
	// Clean counts the clean copies seen; FalseAlarms those rejected.
	Clean          int       `json:"clean"`
	FalseAlarms    int       `json:"false_alarms"`
	CatchRate      PlantRate `json:"catch_rate"`
	FalseAlarmRate PlantRate `json:"false_alarm_rate"`
	// ByMutation is the catch rate per kind of planted error.
	ByMutation map[string]PlantRate `json:"by_mutation,omitempty"`
}

// PlantPause is a verifier the lead's pause rule stopped (plant_pause_below).
type PlantPause struct {
	Verifier string `json:"verifier"`
	Reason   string `json:"reason"`
}

// PlantStatus is everything a lead reads of a project's planting.
type PlantStatus struct {
	Figures []PlantFigures `json:"figures"`
	// Panel is, per round, the share of the planted errors that the round's
	// verifiers caught.
	Panel  map[int]PlantRate `json:"panel"`
	Paused []PlantPause      `json:"paused"`
	// Pending counts the planted copies not yet reviewed.
	Pending int `json:"pending"`
}

// PlantedItem is one planted copy, as a lead lists them.
type PlantedItem struct {
	SampleID string `json:"sample_id"`
	Origin   string `json:"origin"`
	Mutation string `json:"mutation"` // "clean" for a clean copy
	Verifier string `json:"verifier"`
	Round    int    `json:"round"`
	Created  string `json:"created"`
	// Outcome is verify.PlantOutcome's ("caught", "partly", "missed", "right",
	// "false-alarm"), or "" before the review.
	Outcome  string `json:"outcome"`
	Reviewed string `json:"reviewed,omitempty"`
}
