package annotate

import (
	"encoding/json"
	"errors"
)

// ErrUnchanged is returned by CheckResubmit for a returned sample sent back as
// it came back.
var ErrUnchanged = errors.New("nothing changed since it was returned; change what the review asked for, then submit it again")

// CheckResubmit is the rule for sending a returned sample back: its content must
// differ from the revision the reviewers returned (the same revision again would
// only cost them a round). The store refuses it; the editor says it before.
func CheckResubmit(returned, draft Sample) error {
	a, errA := json.Marshal(returned)
	b, errB := json.Marshal(draft)
	if errA == nil && errB == nil && string(a) == string(b) {
		return ErrUnchanged
	}
	return nil
}
