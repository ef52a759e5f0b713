package remote

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/benchwright/benchwright/bench"
	"github.com/benchwright/benchwright/store"
)

// Contract is a digest of what a client and a server say to each other: every
// call of bench.Calls by name, with its request and its answer as JSON writes
// them (each field's JSON name and type, all the way down) — the wire, not the
// Go signatures, so that a change of Go alone (the actor parameter the calls
// lost when they became session-bound) refuses no one. Two builds with the same
// digest read each other's requests and answers alike. A client sends its
// digest at sign-in and the server refuses one it does not accept (Contract, or
// an older build's digest of the same wire: acceptsContract) with
// ErrOtherBuild and a sentence naming both builds (issue 28 item 5): a call
// whose types changed would otherwise be misread in silence.
var Contract = wireDigest(callTypes)

// sameWire holds the digests older builds send whose requests and answers are
// this build's, byte for byte. When the wire changes (Contract with it), empty it:
// those builds would be misread.
var sameWire = map[string]bool{
	// Emptied by issue 31's quick count (SampleQuery.QuickTotal): the builds
	// before issue 28 item 5 (9b2b1e86e4a85e7c) and after it (45b8e81e47fb6783)
	// speak another wire now.
}

func acceptsContract(contract string) bool { return contract == Contract || sameWire[contract] }

// ErrOtherBuild is the refusal of a sign-in from a client whose Contract is not
// the server's.
var ErrOtherBuild = errors.New("the workstation and the server are different builds of Benchwright")

// wireDigest hashes calls (each call's request and answer, as callTypes holds
// them), in the order of their names.
func wireDigest(calls map[string][2]any) string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	for _, name := range slices.Sorted(maps.Keys(calls)) {
		b.WriteString(name + " ")
		describeType(&b, reflect.TypeOf(calls[name][0]), seen)
		b.WriteString(" -> ")
		describeType(&b, reflect.TypeOf(calls[name][1]), seen)
		b.WriteString("\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

var jsonMarshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()

// describeType writes t as JSON encodes it. A type met again is written by name
// only (recursive types end there); a type that encodes itself is written by name.
func describeType(b *strings.Builder, t reflect.Type, seen map[reflect.Type]bool) {
	if t.Name() != "" {
		name := digestName(t)
		if seen[t] || t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) || t.Kind() == reflect.Interface {
			b.WriteString(name)
			return
		}
		seen[t] = true
	}
	switch t.Kind() {
	case reflect.Pointer:
		b.WriteString("*")
		describeType(b, t.Elem(), seen)
	case reflect.Slice:
		b.WriteString("[]")
		describeType(b, t.Elem(), seen)
	case reflect.Array:
		fmt.Fprintf(b, "[%d]", t.Len())
		describeType(b, t.Elem(), seen)
	case reflect.Map:
		b.WriteString("map[")
		describeType(b, t.Key(), seen)
		b.WriteString("]")
		describeType(b, t.Elem(), seen)
	case reflect.Struct:
		b.WriteString("{")
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			fmt.Fprintf(b, "%s %q ", f.Name, f.Tag.Get("json"))
			describeType(b, f.Type, seen)
			b.WriteString(";")
		}
		b.WriteString("}")
	case reflect.Func:
		b.WriteString("func") // not sent (a progress callback); json leaves it out
	default:
		b.WriteString(t.Kind().String())
	}
}

// The contract's types moved from package store to package bench (issue 28
// item 1) with their JSON unchanged. The digest names them as it did before the
// move, so that builds from either side of it, which read each other's requests
// alike, keep talking (TestContractDigestSurvivesTheMove).
var (
	benchPkg = reflect.TypeOf(bench.DatabaseError{}).PkgPath()
	storePkg = "github.com/benchwright/benchwright/store" // where they were
)

// digestName is a named type's name as the digest writes it.
func digestName(t reflect.Type) string {
	pkg := t.PkgPath()
	if pkg == benchPkg {
		pkg = storePkg
	}
	return pkg + "." + t.Name()
}

// otherBuild is the sentence of a refused sign-in from another build.
func otherBuild(clientVersion, clientContract string) string {
	if clientContract == "" {
		clientContract = "an older one"
	}
	if clientVersion == "" {
		clientVersion = "an older version"
	}
	return fmt.Sprintf("this workstation runs Benchwright %s (protocol %s) and the team server %s (protocol %s): different builds would misread each other's requests, so the server refuses to sign in; install on this workstation the build the server runs, or update the server",
		clientVersion, clientContract, store.AppVersion, Contract)
}
