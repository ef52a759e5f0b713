package release

// SampledValidation is, in MANIFEST.json, the policy under which some of a
// release's samples were accepted by sampling rather than reviewed one by one:
// the generated batch they came from, how its validation sample was drawn, what
// the verifiers found in it and the bound that allowed the rest.
type SampledValidation struct {
	Batch      string           `json:"batch"`
	Source     string           `json:"source,omitempty"`
	Items      int              `json:"items"`     // items the batch held after its import audit
	Sampled    int              `json:"sampled"`   // drawn into the validation sample and verified
	Stratify   string           `json:"stratify"`  // task, kind or hop_view
	Seed       int64            `json:"seed"`      // sampling.Draw's seed
	Method     string           `json:"interval"`  // clopper-pearson or wilson
	Level      float64          `json:"level"`     // the interval's confidence level
	Threshold  float64          `json:"threshold"` // the error rate the upper bound had to be below
	N          int              `json:"n"`         // judged sampled items, summed over the strata
	Errors     int              `json:"errors"`    // of which wrong, likewise
	Upper      float64          `json:"upper"`     // the batch's upper bound when the rest was accepted: of the stratified estimate (each stratum weighted by its share of the items, Korn–Graubard interval; sampling.Stratified), not of errors/n
	Strata     []SampledStratum `json:"strata"`    // each stratum's own n, errors and upper bound (its binomial interval)
	AcceptedBy string           `json:"accepted_by"`
	AcceptedAt string           `json:"accepted_at"`
	InRelease  int              `json:"in_release"` // this release's samples accepted by sampling from the batch
}

// SampledStratum is one stratum of a SampledValidation.
type SampledStratum struct {
	Name   string  `json:"name"`
	N      int     `json:"n"`
	Errors int     `json:"errors"`
	Upper  float64 `json:"upper"`
}
