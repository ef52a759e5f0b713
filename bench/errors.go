package bench

import (
	"errors"
	"log"
	"strings"
)

// Domain errors. Wrapped errors carry the detail; callers test them with
// errors.Is and show Message(err) to people.
var (
	ErrNotFound     = errors.New("not found")
	ErrConflict     = errors.New("changed by someone else meanwhile")
	ErrForbidden    = errors.New("not allowed")
	ErrInvalid      = errors.New("invalid")
	ErrUnauthorized = errors.New("wrong user name or password")
	ErrNewerSchema  = errors.New("database written by a newer Benchwright")
	// ErrFault is wrapped by the error of work that panicked (a fault in
	// Benchwright, not in what was asked): the panic and its stack are in the log.
	ErrFault = errors.New("a fault in Benchwright (the details are in the log)")
	// ErrSessionEnded is returned for a session token that is unknown, expired or
	// revoked: the person must sign in again.
	ErrSessionEnded = errors.New("the session has ended; sign in again")
	// ErrTooManyFailures refuses a sign-in during the wait after wrong passwords.
	ErrTooManyFailures = errors.New("too many wrong passwords")
	// ErrSignInsAtOnce refuses a sign-in during a wait that attempts sent at once
	// caused rather than wrong passwords (each attempt counts before its password
	// is checked): it is ErrTooManyFailures to errors.Is, in truer words.
	ErrSignInsAtOnce error = signInsAtOnce{}
	// ErrQuota is wrapped by the refusal of an upload beyond its account's share
	// of the server's upload folder.
	ErrQuota = errors.New("over the upload quota")
)

// Errors of an image's file (Image.CheckFile).
var (
	ErrImageMissing = errors.New("image file is missing")
	ErrImageChanged = errors.New("image file changed since import")
)

// Storage failures are not bugs and not refusals: the disk under the database or
// its files is full, or the database server cannot be reached. The store tells
// them apart once, where its errors leave it (store.StorageError), so that people
// read what happened ("the disk is full") instead of "a database problem", and a
// client knows to try again.
var (
	// ErrDiskFull is wrapped by an error of a write that found no room on disk.
	ErrDiskFull = errors.New("the disk holding the database is full")
	// ErrUnavailable is wrapped by an error of work the database server could not
	// take (unreachable, shutting down, out of connections or memory).
	ErrUnavailable = errors.New("the database is unreachable")
	// ErrDatabase is wrapped by any other failure inside the database (a damaged
	// file, a schema that cannot answer): a fault, whose detail is for the log.
	ErrDatabase = errors.New("a database problem")
)

// DatabaseError is a failure of the database under the store — a driver's or
// the system's error — as the store hands it out (store.StorageError), so that
// Message tells people what happened without knowing any driver. errors.Is
// matches its Kind and everything in Err's chain.
type DatabaseError struct {
	// Kind is what happened: ErrDiskFull, ErrUnavailable or ErrDatabase.
	Kind error
	// Unreachable is set for ErrUnavailable when no connection to the database
	// server could be made: no PostgreSQL server answers at the address, or one
	// answered and refused the connection (Refused says why).
	Unreachable bool
	// Refused is why a server that answered refused the connection: RefusedSignIn
	// or RefusedNoDatabase; "" when none answered.
	Refused string
	// Detail is the driver's own words, the end of Err's text: for the log, never
	// for people.
	Detail string
	// Err is the error as it was, with what was being done.
	Err error
}

// Why a database server refused a connection (DatabaseError.Refused).
const (
	// RefusedSignIn: the server refused the address's user or password.
	RefusedSignIn = "sign-in"
	// RefusedNoDatabase: the server has no database of the address's name.
	RefusedNoDatabase = "no-database"
)

// Error is Err's text, after the kind's words for a full disk or a busy server
// (an unreachable server and a database problem say what they are already).
func (e *DatabaseError) Error() string {
	if e.Kind == ErrDatabase || e.Unreachable {
		return e.Err.Error()
	}
	return e.Kind.Error() + ": " + e.Err.Error()
}

func (e *DatabaseError) Unwrap() []error { return []error{e.Kind, e.Err} }

// Message turns an error of the contract into a sentence for people.
func Message(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrUnauthorized):
		return "Wrong user name or password."
	}
	var db *DatabaseError
	isDB := errors.As(err, &db)
	if isDB && db.Unreachable {
		log.Printf("benchwright: %v", err)
		switch db.Refused {
		case RefusedSignIn:
			return "The PostgreSQL server refused the user name or password in the database address; nothing was changed. Check the address (the details are in the log)."
		case RefusedNoDatabase:
			return "The PostgreSQL server has no database of the name in the address; nothing was changed. Check the address, or create the database (the details are in the log)."
		}
		return "The PostgreSQL server cannot be reached; nothing was changed. Try again when it is back (the details are in the log)."
	}
	// An error that already holds its sentence (a team server's refusal, worded
	// by the server's store) is shown as it is.
	var said interface{ Message() string }
	if errors.As(err, &said) {
		return said.Message()
	}
	switch {
	case errors.Is(err, ErrDiskFull):
		log.Printf("benchwright: %v", err)
		return "The disk holding the database is full; nothing was changed. Make room on it, then try again (the details are in the log)."
	case errors.Is(err, ErrUnavailable):
		log.Printf("benchwright: %v", err)
		return "The database cannot be reached or is overloaded; retry in a moment (the details are in the log)."
	}
	if errors.Is(err, ErrOffline) {
		// The network's words (a URL, "EOF", "connection refused") are for the
		// log; people read what was being done and what to do.
		log.Printf("benchwright: %v", err)
		const advice = "the team server cannot be reached. Check the network, or ask the lead whether the server runs, then try again (the details are in the log)."
		text := err.Error()
		op := ""
		if i := strings.Index(text, ErrOffline.Error()); i > 0 {
			op = strings.TrimSuffix(strings.TrimSpace(text[:i]), ":")
		}
		if op == "" {
			return strings.ToUpper(advice[:1]) + advice[1:]
		}
		return strings.ToUpper(op[:1]) + op[1:] + " failed: " + advice
	}
	if isDB {
		// The driver's words are for the log, not for people: keep what was being
		// done, and say where the detail went.
		log.Printf("benchwright: %v", err)
		op := strings.TrimSuffix(strings.TrimSuffix(err.Error(), db.Detail), ": ")
		if op == "" {
			op = "that"
		}
		return strings.ToUpper(op[:1]) + op[1:] + " failed because of a database problem; the details are in the log."
	}
	// ErrInvalid's word is for code (errors.Is); before the reason it says nothing
	// to a person: "Freeze: the release name is empty", not "Freeze: invalid: …".
	s := strings.ReplaceAll(err.Error(), ErrInvalid.Error()+": ", "")
	if s == "" {
		return "Something went wrong."
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// ErrOffline is wrapped by the error of a call that could not reach a team
// server: the network, or a server away; the call may be made again later.
var ErrOffline = errors.New("the team server cannot be reached")

// ErrNotTrusted is wrapped when the person declined a team server's certificate.
var ErrNotTrusted = errors.New("the server's certificate was not trusted")

type signInsAtOnce struct{}

func (signInsAtOnce) Error() string        { return "too many sign-ins at once" }
func (signInsAtOnce) Is(target error) bool { return target == ErrTooManyFailures }
