package bench

// ModelRun is one model's predictions on a release.
type ModelRun struct {
	Release     string // the release's NAME@VERSION
	Model       string
	Predictions int    // samples with a prediction
	Missing     int    // samples of the release without one (scored as empty responses)
	Source      string // the file (or files) they were imported from
	ImportedAt  string
	ImportedBy  string
}
