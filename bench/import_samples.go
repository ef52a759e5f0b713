package bench

// ImportSamplesOptions says whose the imported samples are and where they start.
type ImportSamplesOptions struct {
	// Author is the user name of the samples' author; empty means the acting user.
	// Only a lead may import samples for someone else. The author must be an
	// annotator or a lead.
	Author string
	// ToRound1 submits each sample at once, as revision 1 by Author, into round 1:
	// for samples that were verified elsewhere and only need this team's rounds.
	// Only a lead may, and Author must then be named. The lint warnings of each
	// sample are acknowledged by the import and stored with its revision.
	ToRound1 bool
	// AcceptLintErrors imports records with lint errors too, as drafts, instead of
	// skipping them: for records converted into drafts an annotator completes, such
	// as the boxes of a COCO or Label Studio file, which have no question yet. Such
	// records are listed in the result's Incomplete. It cannot be combined with
	// ToRound1, which needs samples without lint errors.
	AcceptLintErrors bool
	// Progress, when set, is called with the number of records checked so far and
	// the total. The records are checked (linted against the project's image sizes)
	// before the import writes anything, outside any transaction, so that checking
	// a large file never holds the database's write lock. It stays on the machine
	// that checks (a team server's client does not send it).
	Progress func(checked, total int) `json:"-"`
}

// SkipReason says why a record was not imported.
type SkipReason string

// The reasons a record is skipped.
const (
	SkipLint         SkipReason = "lint errors"
	SkipExists       SkipReason = "id already exists"
	SkipUnknownImage SkipReason = "unknown image"
	SkipInvalid      SkipReason = "invalid"
)

// ImportProblem is one record that was skipped, or (in Warnings) imported with
// lint warnings.
type ImportProblem struct {
	Line    int    // the 1-based line where the record starts
	ID      string // the record's id; for a record imported without one, the id it was given; else ""
	Reason  SkipReason
	Rules   []string // the lint rule ids, for lint errors and warnings
	Message string   // what is wrong, for people
}

// ImportSamplesResult is what an import did.
type ImportSamplesResult struct {
	Imported []string        // the ids of the imported samples (those given to records without one too), in file order
	Skipped  []ImportProblem // the records left out, in file order
	Warnings []ImportProblem // imported records with lint warnings (drafts keep them)
	// Incomplete are the records imported as drafts despite lint errors, with
	// opt.AcceptLintErrors: Rules holds the rule ids of the errors, then of the
	// warnings; Message the errors.
	Incomplete []ImportProblem
}
