// Package bench is Benchwright's contract: what the screens, bwctl and a team
// server's client and server say to each other, with no database under it. It
// holds the domain errors callers test with errors.Is, the sentences people read
// for them (Message), and the types the calls carry, with their pure methods and
// text encoders.
//
// Package store implements the contract on SQLite and PostgreSQL; package remote
// carries it over HTTPS. This package imports neither, nor database/sql, a
// database driver or fyne (TestContractImportsNoStorage), so that what needs
// only the contract (remote's client, the screens, the domain packages) does not
// link a database.
package bench
