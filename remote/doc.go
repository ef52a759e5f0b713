// Package remote is Benchwright's team server and its client: the store's Calls
// carried over HTTPS, so that a lab's workstations share one project.
//
// The server (Server, bwctl serve) holds the database and the image files. A
// workstation signs in with a name and password and gets an expiring session
// token; every request acts as the token's user — no call names who acts, the
// wire has no place for it — and the store checks the protocol's rules exactly as
// it does for a local file, among them that only a project's members read or
// change anything of it (image files included). The client (Client) implements
// bench.Service, so the screens and bwctl cannot tell a server from a local
// file; it is itself the bench.Session of the account signed in (Client.As),
// and refuses to act as anyone else.
//
// One definition: the client's methods, the server's dispatch and the store's
// Session are generated from the bench.Calls interface (calls_gen.go and
// store/session_gen.go, go generate ./remote); the contract tests run the store's
// behaviour through both. At sign-in the client sends Contract, a digest of the
// requests and answers of every call, and the server refuses a build that speaks
// another wire.
//
// TLS always. Without a certificate from a lab's authority, the server makes a
// self-signed one and prints its fingerprint (SHA256:<hex of the certificate>);
// the client pins it on first use, as SSH does, and refuses a changed one.
package remote

//go:generate go run ./internal/gencalls/main_gen.go
