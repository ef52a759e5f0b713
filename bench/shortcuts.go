package bench

import "github.com/benchwright/benchwright/shortcut"

// ShortcutOptions are a lead's settings of the shortcut audit (the call
// Shortcuts); zero fields take shortcut's defaults.
type ShortcutOptions = shortcut.Options

// ShortcutReport is the shortcut audit of a project (the call Shortcuts): every
// check per task with its figure, interval and chance, the bias scores and the
// pruning proposal. Its fields are plain exported data and survive encoding/json
// as they are (the contract suite runs it through a team server).
type ShortcutReport = shortcut.Report

// RebalanceInput asks RebalanceLetters (issue 29 item 1's fix) to reorder the
// options of a project's multiple-choice samples so that each task's correct
// letters come to the shares chance gives (shortcut.Rebalance).
type RebalanceInput struct {
	ProjectID int64 `json:"project_id"`
	// SampleIDs are the samples that may change; empty: every multiple-choice
	// sample of the tasks where the answer-position check finds skewed letters
	// (under Options), the "all findings" of bwctl shortcuts --rebalance.
	SampleIDs []string `json:"sample_ids,omitempty"`
	// Reason is recorded with every correction revision (required unless DryRun).
	Reason string `json:"reason"`
	// Options are the audit's settings the findings are judged under; their Seed
	// also seeds the choice of new letters.
	Options shortcut.Options `json:"options"`
	// DryRun says what would change and changes nothing (the app's
	// confirmation names the count).
	DryRun bool `json:"dry_run,omitempty"`
}

// LetterMove is one sample RebalanceLetters reorders: its correct option moves
// from letter From to letter To (swapping places with the option there).
type LetterMove struct {
	SampleID string `json:"sample_id"`
	Task     string `json:"task"`
	From     string `json:"from"`
	To       string `json:"to"`
	// Revision is the correction revision written (0 on a dry run).
	Revision int `json:"revision,omitempty"`
}

// RebalanceResult says what RebalanceLetters did, or on a dry run would do.
type RebalanceResult struct {
	Moved []LetterMove `json:"moved,omitempty"`
	// Kept are samples that may change whose letter is where the balance wants it.
	Kept []string `json:"kept,omitempty"`
	// Left are samples that may not change, each with why (a draft, a text that
	// names letters, not in the project, …).
	Left []Refusal `json:"left,omitempty"`
}
