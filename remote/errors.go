package remote

import (
	"context"
	"errors"
	"net/http"

	"github.com/benchwright/benchwright/agreement"
	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
	"github.com/benchwright/benchwright/verify"
)

// sentinels are the errors a caller may test with errors.Is; the server sends
// the codes of those an error matches, and the client's Error matches them again.
var sentinels = []struct {
	code   string
	err    error
	status int
}{
	{"unauthorized", bench.ErrUnauthorized, http.StatusUnauthorized},
	{"session_ended", bench.ErrSessionEnded, http.StatusUnauthorized},
	{"too_many_failures", bench.ErrTooManyFailures, http.StatusTooManyRequests},
	{"forbidden", bench.ErrForbidden, http.StatusForbidden},
	{"not_found", bench.ErrNotFound, http.StatusNotFound},
	{"conflict", bench.ErrConflict, http.StatusConflict},
	{"invalid", bench.ErrInvalid, http.StatusBadRequest},
	{"image_missing", bench.ErrImageMissing, http.StatusNotFound},
	{"image_changed", bench.ErrImageChanged, http.StatusConflict},
	{"not_permitted", verify.ErrNotPermitted, http.StatusForbidden},
	{"unknown_state", verify.ErrUnknownState, http.StatusBadRequest},
	{"unknown_event", verify.ErrUnknownEvent, http.StatusBadRequest},
	{"invalid_transition", verify.ErrInvalidTransition, http.StatusConflict},
	{"not_author", verify.ErrNotAuthor, http.StatusForbidden},
	{"not_lead", verify.ErrNotLead, http.StatusForbidden},
	{"not_verifier", verify.ErrNotVerifier, http.StatusForbidden},
	{"self_review", verify.ErrSelfReview, http.StatusForbidden},
	{"same_group", verify.ErrSameGroup, http.StatusForbidden},
	{"already_on_panel", verify.ErrAlreadyOnPanel, http.StatusConflict},
	{"panel_full", verify.ErrPanelFull, http.StatusConflict},
	{"stale_revision", verify.ErrStaleRevision, http.StatusConflict},
	{"wrong_round", verify.ErrWrongRound, http.StatusConflict},
	{"round_closed", verify.ErrRoundClosed, http.StatusConflict},
	{"blind", verify.ErrBlind, http.StatusForbidden},
	{"not_late", verify.ErrNotLate, http.StatusConflict},
	{"not_member", verify.ErrNotMember, http.StatusForbidden},
	{"last_lead", verify.ErrLastLead, http.StatusForbidden},
	{"not_lead_of_all", verify.ErrNotLeadOfAll, http.StatusForbidden},
	{"invalid_policy", verify.ErrInvalidPolicy, http.StatusBadRequest},
	{"invalid_review", verify.ErrInvalidReview, http.StatusBadRequest},
	{"no_reason", verify.ErrNoReason, http.StatusBadRequest},
	{"unknown_criterion", verify.ErrUnknownCriterion, http.StatusBadRequest},
	{"approve_with_failure", verify.ErrApproveWithFailure, http.StatusBadRequest},
	{"incomplete_verdict", verify.ErrIncompleteVerdict, http.StatusBadRequest},
	{"agreement_undefined", agreement.ErrUndefined, http.StatusUnprocessableEntity},
	{"canceled", context.Canceled, 499},
	{"quota", bench.ErrQuota, http.StatusInsufficientStorage},
	{"other_build", ErrOtherBuild, http.StatusUpgradeRequired},
	{"newer_schema", bench.ErrNewerSchema, http.StatusConflict},
	// A panic turned into a refusal (store.Recover): a fault, not the caller's;
	// the detail stays in the server's log.
	{"fault", bench.ErrFault, http.StatusInternalServerError},
	// Storage failures: nothing was done, and the same request may be sent again
	// (the client's Error matches ErrOffline for them).
	{"disk_full", bench.ErrDiskFull, http.StatusServiceUnavailable},
	{"unavailable", bench.ErrUnavailable, http.StatusServiceUnavailable},
}

// retryable are the codes of failures after which a client may send the same
// request again: errors.Is(err, ErrOffline) holds for them, as for a server
// that cannot be reached.
var retryable = map[string]string{
	"disk_full":   "The server's disk is full; nothing was changed. Try again once room has been made on it.",
	"unavailable": "The server's database is unreachable; nothing was changed. Retry in a moment.",
}

// wireError is an error as the server sends it.
type wireError struct {
	Codes   []string `json:"codes"`
	Text    string   `json:"text"`    // the error's text, as errors.Error gives it
	Message string   `json:"message"` // the sentence for people (bench.Message)
	// Findings are a freeze's audit errors (bench.AuditErrors), so that the
	// workstation's screen can open the samples they name.
	Findings []bench.AuditFinding `json:"findings,omitempty"`
	// Fields are a refused settings change's values, one {key, message} each
	// (bench.SettingsError), so that the Settings screen places each beside its
	// field.
	Fields []bench.FieldError `json:"fields,omitempty"`
}

// Error is an error the server returned. errors.Is matches the store's and
// verify's sentinels the server-side error matched, and bench.Message shows the
// server's sentence.
type Error struct {
	codes    []string
	text     string
	message  string
	findings []bench.AuditFinding
	fields   []bench.FieldError
}

// Unwrap gives a refused freeze's findings as bench.AuditErrors, and a refused
// settings change's fields as a *bench.SettingsError (errors.As).
func (e *Error) Unwrap() error {
	switch {
	case e.findings != nil:
		return bench.AuditErrorsOf(e.findings, e.text)
	case e.fields != nil:
		return &bench.SettingsError{Fields: e.fields}
	}
	return nil
}

func (e *Error) Error() string { return e.text }

// Message is the sentence for people, as the server's bench.Message said it.
func (e *Error) Message() string { return e.message }

// Is reports whether the server-side error matched target.
func (e *Error) Is(target error) bool {
	for _, c := range e.codes {
		if _, ok := retryable[c]; ok && target == ErrOffline {
			return true
		}
		for _, s := range sentinels {
			if s.code == c && s.err == target {
				return true
			}
		}
	}
	return false
}

// encodeError turns a server-side error into what is sent, and its HTTP status.
func encodeError(err error) (wireError, int) {
	err = store.StorageError(err)
	w := wireError{Text: err.Error(), Message: bench.Message(err)}
	var audit *bench.AuditErrors
	if errors.As(err, &audit) {
		w.Findings = audit.Findings
	}
	var settings *bench.SettingsError
	if errors.As(err, &settings) {
		w.Fields = settings.Fields
	}
	status := http.StatusInternalServerError
	for _, s := range sentinels {
		if errors.Is(err, s.err) {
			w.Codes = append(w.Codes, s.code)
			if status == http.StatusInternalServerError {
				status = s.status
			}
		}
	}
	for _, c := range w.Codes {
		if msg, ok := retryable[c]; ok {
			// The driver's words stay in the server's log; the sentence says
			// what happened and that trying again is right.
			w.Text, w.Message = msg, msg
			return w, http.StatusServiceUnavailable
		}
	}
	if status == http.StatusInternalServerError {
		// Not a refusal: the detail (a database problem, say) stays in the server's
		// log; the sentence is all that leaves it.
		w.Text = w.Message
	}
	return w, status
}

func (w wireError) err() error {
	return &Error{codes: w.Codes, text: w.Text, message: w.Message, findings: w.Findings, fields: w.Fields}
}
